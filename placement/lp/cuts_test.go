package lp

import (
	"bufio"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// rootCutsOf runs the root LP and the cut loop on p and returns every cut
// added (nil when the root LP is not optimal).
func rootCutsOf(t tb, p *Problem) []cut {
	t.Helper()
	sr, err := newMIPSearch(context.Background(), p, Options{}, time.Now())
	if err != nil {
		t.Fatalf("newMIPSearch: %v", err)
	}
	st, err := sr.solveLP(0, false)
	if err != nil {
		t.Fatalf("root LP: %v", err)
	}
	if st != Optimal {
		return nil
	}
	if _, err := sr.rootCuts(sr.lpObjective()); err != nil {
		t.Fatalf("rootCuts: %v", err)
	}
	return sr.cutLog
}

// cutLHS is π·x.
func cutLHS(ct cut, x []float64) float64 {
	s := 0.0
	for k, col := range ct.idx {
		s += ct.val[k] * x[col]
	}
	return s
}

// cutSlackTol is the tolerance of the validity checks, relative to the
// magnitudes in the cut.
func cutSlackTol(ct cut, x []float64) float64 {
	m := math.Abs(ct.rhs)
	for k, col := range ct.idx {
		m = max(m, math.Abs(ct.val[k]*x[col]))
	}
	return 1e-6 * max(1, m)
}

// checkCutsValid checks every root cut of a tiny random MILP against every
// point of the mixed-integer feasible set: for each integer point, the
// smallest value of π·x over the continuous part (an LP with cost π) must
// reach the cut's right-hand side.
func checkCutsValid(t *rapid.T) { checkCutsValidOn(t, genMIP(t)) }

// checkCutsValidOn checks every root cut of p against every point of its
// mixed-integer feasible set (p tiny).
func checkCutsValidOn(t *rapid.T, p *Problem) {
	cuts := rootCutsOf(t, p)
	if len(cuts) == 0 {
		return
	}
	n := p.NumCols()
	q := *p
	q.Integer = nil
	q.Maximize = false
	q.Offset = 0
	q.ColLower = append([]float64(nil), p.ColLower...)
	q.ColUpper = append([]float64(nil), p.ColUpper...)
	var ints []int
	for j := 0; j < n; j++ {
		if p.Integer[j] {
			ints = append(ints, j)
			q.ColLower[j] = math.Ceil(p.ColLower[j])
			q.ColUpper[j] = q.ColLower[j]
		}
	}
	for {
		for _, ct := range cuts {
			q.Cost = make([]float64, n)
			for k, col := range ct.idx {
				q.Cost[col] = ct.val[k]
			}
			res, err := Solve(context.Background(), &q, Options{})
			if err != nil {
				t.Fatalf("LP: %v", err)
			}
			if res.Status == Infeasible {
				break // this integer point is infeasible
			}
			if res.Status != Optimal {
				t.Fatalf("LP status %v", res.Status)
			}
			if res.Objective < ct.rhs-cutSlackTol(ct, res.X) {
				t.Fatalf("cut %v·x ≥ %v cuts off the feasible point %v (π·x = %v)\n%s", ct.val, ct.rhs, res.X, res.Objective, goLiteral(p))
			}
		}
		k := 0
		for ; k < len(ints); k++ {
			j := ints[k]
			if q.ColLower[j]+1 <= p.ColUpper[j] {
				q.ColLower[j]++
				q.ColUpper[j] = q.ColLower[j]
				break
			}
			q.ColLower[j] = math.Ceil(p.ColLower[j])
			q.ColUpper[j] = q.ColLower[j]
		}
		if k == len(ints) {
			return
		}
	}
}

// genFlowMIP draws a tiny fixed-charge flow MILP, the structure of the
// c-MIR cuts' variable-bound substitution: up to 5 arcs, each with a flow
// x_j ≥ 0 and a binary y_j opening it (x_j − u_j·y_j ≤ 0, or written as
// u_j·y_j − x_j ≥ 0), demands on sums of flows (≥, = or ranged), and
// possibly a budget on the openings.
func genFlowMIP(t *rapid.T) *Problem {
	k := rapid.IntRange(1, 5).Draw(t, "arcs")
	var b Builder
	xs, ys := make([]int, k), make([]int, k)
	for j := 0; j < k; j++ {
		u := float64(rapid.IntRange(1, 12).Draw(t, "capacity")) / 2
		xs[j] = b.AddCol("", float64(rapid.IntRange(0, 6).Draw(t, "flowCost"))/2, 0, u+float64(rapid.IntRange(0, 3).Draw(t, "boundSlack")))
		ys[j] = b.AddIntCol("", float64(rapid.IntRange(1, 9).Draw(t, "openCost")), 0, 1)
		if rapid.Bool().Draw(t, "vubAsGE") {
			b.AddRow("", 0, math.Inf(1), []int{ys[j], xs[j]}, []float64{u, -1})
		} else {
			b.AddRow("", math.Inf(-1), 0, []int{xs[j], ys[j]}, []float64{1, -u})
		}
	}
	for r := rapid.IntRange(1, 3).Draw(t, "demands"); r > 0; r-- {
		var cols []int
		var vals []float64
		for j := 0; j < k; j++ {
			if rapid.IntRange(0, 2).Draw(t, "inDemand") > 0 {
				cols = append(cols, xs[j])
				vals = append(vals, float64(rapid.IntRange(1, 2).Draw(t, "flowCoef")))
			}
		}
		if len(cols) == 0 {
			continue
		}
		d := float64(rapid.IntRange(1, 16).Draw(t, "demand")) / 2
		switch rapid.IntRange(0, 2).Draw(t, "demandKind") {
		case 0:
			b.AddRow("", d, math.Inf(1), cols, vals)
		case 1:
			b.AddRow("", d, d, cols, vals)
		default:
			b.AddRow("", d, d+float64(rapid.IntRange(1, 4).Draw(t, "demandRange")), cols, vals)
		}
	}
	if rapid.Bool().Draw(t, "budget") {
		ones := make([]float64, k)
		for j := range ones {
			ones[j] = 1
		}
		b.AddRow("", math.Inf(-1), float64(rapid.IntRange(1, k).Draw(t, "openings")), ys, ones)
	}
	p, err := b.Problem()
	if err != nil {
		t.Fatalf("generator: %v", err)
	}
	return p
}

// TestCutsValidFlow checks every root cut (c-MIR with variable-bound
// substitution among them) of tiny fixed-charge flow MILPs against every
// point of their feasible sets.
func TestCutsValidFlow(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkCutsValidOn(t, genFlowMIP(t)) })
}

func FuzzCutsValidFlow(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) { checkCutsValidOn(t, genFlowMIP(t)) }))
}

// TestCutsValid checks the Gomory cuts of tiny random MILPs against every
// feasible point.
func TestCutsValid(t *testing.T) { rapid.Check(t, checkCutsValid) }

func FuzzCutsValid(f *testing.F) { f.Fuzz(rapid.MakeFuzz(checkCutsValid)) }

// cbcSolution solves the instance at path with the cbc binary and returns
// its optimal point by column name.
func cbcSolution(t *testing.T, path string) map[string]float64 {
	t.Helper()
	dir := t.TempDir()
	mps := filepath.Join(dir, "p.mps")
	// cbc reads the original (fixed-format) file, decompressed.
	if err := gunzipFile(path, mps); err != nil {
		t.Fatal(err)
	}
	sol := filepath.Join(dir, "p.sol")
	if out, err := exec.Command("cbc", mps, "-solve", "-solu", sol).CombinedOutput(); err != nil {
		t.Fatalf("cbc: %v\n%s", err, out)
	}
	g, err := os.Open(sol)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	sc := bufio.NewScanner(g)
	sc.Scan()
	if first := sc.Text(); !strings.HasPrefix(first, "Optimal") {
		t.Fatalf("cbc: %q", first)
	}
	x := map[string]float64{}
	for sc.Scan() {
		fl := strings.Fields(sc.Text())
		if len(fl) < 3 {
			continue
		}
		if fl[0] == "**" { // cbc marks infeasibilities so
			fl = fl[1:]
		}
		v, err := strconv.ParseFloat(fl[2], 64)
		if err != nil {
			t.Fatalf("cbc solution line %q: %v", sc.Text(), err)
		}
		x[fl[1]] = v
	}
	return x
}

// TestCutsKeepMIPLIBOptima checks that no root cut cuts off the optimal
// solution that CBC finds, on the MIPLIB instances CBC solves quickly (in
// parallel subtests, one instance each).
func TestCutsKeepMIPLIBOptima(t *testing.T) {
	if testing.Short() {
		t.Skip("runs cbc on several instances; skipped in -short mode")
	}
	if _, err := exec.LookPath("cbc"); err != nil {
		t.Skip("cbc not installed: the check against CBC's optimal solutions is skipped")
	}
	// The slowest first.
	for _, name := range []string{"p0282", "qnet1_o", "fiber", "vpm2", "rgn", "p2756", "gesa2", "p0033", "mod008", "flugpl", "egout", "gt2"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := instancePath("miplib", name)
			p, err := ReadMPSFile(path)
			if err != nil {
				t.Fatal(err)
			}
			byName := cbcSolution(t, path)
			x := make([]float64, p.NumCols())
			for j := range x {
				x[j] = byName[p.ColName(j)]
			}
			if _, ok := mipFeasible(p, append([]float64(nil), x...), false); !ok {
				t.Fatal("cbc's solution is not feasible for our reading of the instance")
			}
			cuts := rootCutsOf(t, p)
			for k, ct := range cuts {
				if lhs := cutLHS(ct, x); lhs < ct.rhs-cutSlackTol(ct, x) {
					t.Errorf("cut %d: π·x* = %v < %v: it cuts off the optimum", k, lhs, ct.rhs)
				}
			}
			t.Logf("%d cuts, all valid at the optimum", len(cuts))
		})
	}
}
