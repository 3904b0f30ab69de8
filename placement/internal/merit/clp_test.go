package merit

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// writeLP writes the full time-indexed LP of p in CPLEX LP format:
// columns c<k> (capacity) and u<k>_<t> (use), rows d<t> (demand) and
// b<k>_<t> (use ≤ capacity), bounds c<k> ≤ L_k; for every committed offer
// with a node size an integer column n<k> and the row g<k>: c<k> = g·n<k>
// (a MILP: solve it with CBC; CLP ignores integrality). It returns the objective
// coefficient of every column by name, to recompute the objective from a
// solver's primal values.
func writeLP(tb testing.TB, p Problem, path string) map[string]float64 {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	coef := map[string]float64{}
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', 17, 64) }
	fmt.Fprintln(w, "Minimize")
	fmt.Fprint(w, " obj:")
	n := 0
	term := func(c float64, name string) {
		if c == 0 {
			return
		}
		fmt.Fprintf(w, " + %s %s", num(c), name)
		if n++; n%8 == 0 {
			fmt.Fprint(w, "\n ")
		}
	}
	for k, o := range p.Offers {
		name := fmt.Sprintf("c%d", k)
		coef[name] = o.FixedPerGPU
		term(o.FixedPerGPU, name)
		for t := range p.DemandGPUs {
			name := fmt.Sprintf("u%d_%d", k, t)
			c := o.VariablePerGPUHour * p.hours(t)
			coef[name] = c
			term(c, name)
		}
	}
	if n == 0 {
		fmt.Fprint(w, " 0 c0")
	}
	fmt.Fprintln(w, "\nSubject To")
	for t, d := range p.DemandGPUs {
		fmt.Fprintf(w, " d%d:", t)
		for k := range p.Offers {
			fmt.Fprintf(w, " + u%d_%d", k, t)
			if (k+1)%10 == 0 {
				fmt.Fprint(w, "\n ")
			}
		}
		fmt.Fprintf(w, " >= %s\n", num(d))
	}
	for k := range p.Offers {
		for t := range p.DemandGPUs {
			fmt.Fprintf(w, " b%d_%d: u%d_%d - c%d <= 0\n", k, t, k, t, k)
		}
	}
	var general []string
	for k, o := range p.Offers {
		if o.FixedPerGPU > 0 && o.NodeGPUs > 0 {
			fmt.Fprintf(w, " g%d: c%d - %s n%d = 0\n", k, k, num(o.NodeGPUs), k)
			general = append(general, fmt.Sprintf("n%d", k))
		}
	}
	fmt.Fprintln(w, "Bounds")
	for k, o := range p.Offers {
		if l := o.usableLimit(); !math.IsInf(l, 1) {
			fmt.Fprintf(w, " c%d <= %s\n", k, num(l))
		}
	}
	if len(general) > 0 {
		fmt.Fprintln(w, "General")
		for _, n := range general {
			fmt.Fprintf(w, " %s\n", n)
		}
	}
	fmt.Fprintln(w, "End")
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return coef
}

// runCLP solves an LP file with CLP's dual simplex and returns the reported
// objective, the objective recomputed from the primal values, and the wall
// time of the process.
func runCLP(tb testing.TB, clp, path string, coef map[string]float64) (reported, recomputed float64, wall time.Duration) {
	tb.Helper()
	reported, recomputed, wall, _ = runCOIN(tb, path, coef, clp, path, "-dualsimplex", "-solution", path+".sol")
	return reported, recomputed, wall
}

// runCBC solves an LP file (a MILP when it has integer columns) with CBC.
func runCBC(tb testing.TB, cbc, path string, coef map[string]float64) (reported, recomputed float64, wall time.Duration) {
	tb.Helper()
	reported, recomputed, wall, _ = runCOIN(tb, path, coef, cbc, path, "solve", "solution", path+".sol")
	return reported, recomputed, wall
}

// runCOIN runs a COIN-OR solver on an LP file and reads its solution file;
// it returns the reported and recomputed objectives, the wall time and the
// CPU time (user + system) of the solver process.
func runCOIN(tb testing.TB, path string, coef map[string]float64, bin string, args ...string) (reported, recomputed float64, wall, cpu time.Duration) {
	tb.Helper()
	sol := path + ".sol"
	start := time.Now()
	cmd := exec.Command(bin, args...)
	out, err := cmd.CombinedOutput()
	wall = time.Since(start)
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil {
		tb.Fatalf("%s: %v\n%s", bin, err, out)
	}
	data, err := os.ReadFile(sol)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if !strings.HasPrefix(lines[0], "Optimal - objective value") {
		tb.Fatalf("%s: %s", bin, lines[0])
	}
	reported, err = strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(lines[0], "Optimal - objective value")), 64)
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range lines[1:] {
		fs := strings.Fields(l)
		if len(fs) < 3 {
			continue
		}
		v, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			tb.Fatalf("%s solution line %q: %v", bin, l, err)
		}
		recomputed += coef[fs[1]] * v
	}
	return reported, recomputed, wall, cpu
}

// clpPath returns the CLP binary or skips the test with a message.
func clpPath(tb testing.TB) string {
	tb.Helper()
	path, err := exec.LookPath("clp")
	if err != nil {
		tb.Skip("clp (COIN-OR) not installed: the external LP oracle is skipped; install coinor-clp to run it")
	}
	return path
}

// cbcPath returns the CBC binary or skips the test with a message.
func cbcPath(tb testing.TB) string {
	tb.Helper()
	path, err := exec.LookPath("cbc")
	if err != nil {
		tb.Skip("cbc (COIN-OR) not installed: the external MILP oracle is skipped; install coinor-cbc to run it")
	}
	return path
}

// withNodes gives the committed offers of p node sizes drawn from sizes.
func withNodes(p Problem, seed uint64, sizes []float64) Problem {
	r := rand.New(rand.NewPCG(seed, 7))
	p.Offers = append([]Offer(nil), p.Offers...)
	for k := range p.Offers {
		if p.Offers[k].FixedPerGPU > 0 {
			p.Offers[k].NodeGPUs = sizes[r.IntN(len(sizes))]
		}
	}
	return p
}

// shrink divides demand and finite stock limits by f (rounded), so that
// nodes are coarse next to the demand and whole nodes matter.
func shrink(p Problem, f float64) Problem {
	p.DemandGPUs = append([]float64(nil), p.DemandGPUs...)
	for t := range p.DemandGPUs {
		p.DemandGPUs[t] = math.Round(p.DemandGPUs[t] / f)
	}
	p.Offers = append([]Offer(nil), p.Offers...)
	for k := range p.Offers {
		if !math.IsInf(p.Offers[k].LimitGPUs, 1) {
			p.Offers[k].LimitGPUs = math.Round(p.Offers[k].LimitGPUs / f)
		}
	}
	return p
}

// TestSolveNodesMatchesCBC compares SolveNodes with CBC on the full
// time-indexed MILP (integer node counts) of generated instances.
func TestSolveNodesMatchesCBC(t *testing.T) {
	cbc := cbcPath(t)
	dir := t.TempDir()
	sizes := [][2]int{{24, 5}, {24, 10}, {48, 10}, {168, 10}, {168, 20}}
	seeds := 2
	if testing.Short() || raceEnabled {
		sizes, seeds = sizes[:3], 1
	}
	instances, gaps := 0, 0
	for _, sz := range sizes {
		for seed := range seeds {
			for _, nodeSizes := range [][]float64{{8}, {4, 8}} {
				p := withNodes(shrink(benchInstance(sz[0], sz[1], uint64(seed+11), true), 25), uint64(seed), nodeSizes)
				name := fmt.Sprintf("t%d_k%d_s%d_g%v", sz[0], sz[1], seed, nodeSizes)
				s, err := SolveNodes(context.Background(), p, NodeOptions{})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if err := Check(p, s, 1e-7); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".lp")
				coef := writeLP(t, p, path)
				reported, recomputed, _ := runCBC(t, cbc, path, coef)
				if !relClose(s.CostTotal, reported, 1e-6) || !relClose(s.CostTotal, recomputed, 1e-6) {
					t.Errorf("%s: SolveNodes %.12g, CBC %.12g (recomputed %.12g)", name, s.CostTotal, reported, recomputed)
				}
				instances++
				if relaxed, _ := Solve(p); s.CostTotal > relaxed.CostTotal*(1+1e-5) {
					gaps++
				}
			}
		}
	}
	// The oracle must discriminate: on most instances whole nodes cost
	// more than the divisible optimum by far more than the tolerance.
	if 2*gaps < instances {
		t.Errorf("only %d of %d instances have an integrality gap above 1e-5", gaps, instances)
	}
	t.Logf("%d of %d instances have an integrality gap above 1e-5", gaps, instances)
}

// TestSolveMatchesCLP compares the DP's optimum with CLP's on the full
// time-indexed LP of generated instances up to 168 slices × 20 offers.
func TestSolveMatchesCLP(t *testing.T) {
	clp := clpPath(t)
	dir := t.TempDir()
	sizes := [][2]int{{24, 5}, {24, 20}, {48, 10}, {168, 10}, {168, 20}}
	seeds := 4
	worst := 0.0
	if testing.Short() || raceEnabled {
		sizes, seeds = sizes[:3], 2
	}
	for _, sz := range sizes {
		for seed := range seeds {
			for _, limits := range []bool{true, false} {
				p := benchInstance(sz[0], sz[1], uint64(seed+1), limits)
				name := fmt.Sprintf("t%d_k%d_s%d_%v", sz[0], sz[1], seed, limits)
				s, err := Solve(p)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				path := filepath.Join(dir, name+".lp")
				coef := writeLP(t, p, path)
				reported, recomputed, _ := runCLP(t, clp, path, coef)
				if !relClose(s.CostTotal, reported, 1e-6) || !relClose(s.CostTotal, recomputed, 1e-6) {
					t.Errorf("%s: DP %.12g, CLP %.12g (recomputed %.12g)", name, s.CostTotal, reported, recomputed)
				}
				worst = math.Max(worst, math.Abs(s.CostTotal-recomputed)/math.Abs(recomputed))
				checkDuals(t, p, s)
			}
		}
	}
	t.Logf("worst relative difference from CLP's recomputed objective: %.2g", worst)
}
