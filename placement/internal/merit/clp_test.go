package merit

import (
	"bufio"
	"fmt"
	"math"
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
// b<k>_<t> (use ≤ capacity), bounds c<k> ≤ L_k. It returns the objective
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
	fmt.Fprintln(w, "Bounds")
	for k, o := range p.Offers {
		if l := o.usableLimit(); !math.IsInf(l, 1) {
			fmt.Fprintf(w, " c%d <= %s\n", k, num(l))
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
	sol := path + ".sol"
	start := time.Now()
	out, err := exec.Command(clp, path, "-dualsimplex", "-solution", sol).CombinedOutput()
	wall = time.Since(start)
	if err != nil {
		tb.Fatalf("clp: %v\n%s", err, out)
	}
	data, err := os.ReadFile(sol)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if !strings.HasPrefix(lines[0], "Optimal - objective value") {
		tb.Fatalf("clp: %s", lines[0])
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
			tb.Fatalf("clp solution line %q: %v", l, err)
		}
		recomputed += coef[fs[1]] * v
	}
	return reported, recomputed, wall
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

// TestSolveMatchesCLP compares the DP's optimum with CLP's on the full
// time-indexed LP of generated instances up to 168 slices × 20 offers.
func TestSolveMatchesCLP(t *testing.T) {
	clp := clpPath(t)
	dir := t.TempDir()
	sizes := [][2]int{{24, 5}, {24, 20}, {48, 10}, {168, 10}, {168, 20}}
	seeds := 4
	worst := 0.0
	if testing.Short() {
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
