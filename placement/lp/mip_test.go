package lp

import (
	"context"
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// genMIP draws a tiny MILP: up to 7 integer columns with at most 4 values
// each, up to 2 bounded continuous columns, up to 5 rows of every kind with
// small integer coefficients; minimise or maximise. Every column is
// bounded, so the relaxation is never unbounded.
func genMIP(t *rapid.T) *Problem {
	ni := rapid.IntRange(1, 7).Draw(t, "integers")
	nc := rapid.IntRange(0, 2).Draw(t, "continuous")
	m := rapid.IntRange(0, 5).Draw(t, "rows")
	inf := math.Inf(1)
	var b Builder
	for j := 0; j < ni; j++ {
		lo := float64(rapid.IntRange(-2, 1).Draw(t, "intLo"))
		w := float64(rapid.IntRange(0, 3).Draw(t, "intWidth"))
		b.AddIntCol("", float64(rapid.IntRange(-6, 6).Draw(t, "intCost")), lo, lo+w)
	}
	for j := 0; j < nc; j++ {
		lo := float64(rapid.IntRange(-3, 1).Draw(t, "contLo")) / 2
		w := float64(rapid.IntRange(0, 6).Draw(t, "contWidth")) / 2
		b.AddCol("", float64(rapid.IntRange(-9, 9).Draw(t, "contCost"))/3, lo, lo+w)
	}
	n := ni + nc
	for i := 0; i < m; i++ {
		var cols []int
		var vals []float64
		for j := 0; j < n; j++ {
			if rapid.IntRange(0, 2).Draw(t, "present") > 0 {
				if v := rapid.IntRange(-5, 5).Draw(t, "coef"); v != 0 {
					cols = append(cols, j)
					vals = append(vals, float64(v))
				}
			}
		}
		c := float64(rapid.IntRange(-8, 8).Draw(t, "rhs")) / 2
		w := float64(rapid.IntRange(0, 6).Draw(t, "rangeWidth")) / 2
		switch rapid.IntRange(0, 3).Draw(t, "rowKind") {
		case 0:
			b.AddRow("", c, c, cols, vals)
		case 1:
			b.AddRow("", -inf, c, cols, vals)
		case 2:
			b.AddRow("", c, inf, cols, vals)
		default:
			b.AddRow("", c, c+w, cols, vals)
		}
	}
	b.SetObjective(rapid.Bool().Draw(t, "maximize"), float64(rapid.IntRange(-3, 3).Draw(t, "offset")))
	p, err := b.Problem()
	if err != nil {
		t.Fatalf("generator: %v", err)
	}
	return p
}

// tb is what the checks need of testing.TB and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// bruteForceMIP enumerates every integer point of p (whose integer columns
// must be bounded) and solves the LP over the continuous columns for each,
// checking that LP's certificate. It returns the best objective, or ok
// false when no integer point is feasible.
func bruteForceMIP(t tb, p *Problem) (best float64, ok bool) {
	t.Helper()
	n := p.NumCols()
	q := *p
	q.Integer = nil
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
		res, err := Solve(context.Background(), &q, Options{})
		if err != nil {
			t.Fatalf("brute force LP: %v", err)
		}
		if err := res.Verify(&q, certTol); err != nil {
			t.Fatalf("brute force LP %v: %v", res.Status, err)
		}
		if res.Status == Optimal {
			better := res.Objective < best
			if p.Maximize {
				better = res.Objective > best
			}
			if !ok || better {
				best, ok = res.Objective, true
			}
		} else if res.Status != Infeasible {
			t.Fatalf("brute force LP: status %v", res.Status)
		}
		// Next integer point (odometer).
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
			return best, ok
		}
	}
}

// checkMIPSolution checks that res holds an integer-feasible point of p
// whose objective is res.Objective.
func checkMIPSolution(t tb, p *Problem, res Result) {
	t.Helper()
	if res.X == nil {
		t.Fatalf("status %v without a solution", res.Status)
	}
	if err := res.Verify(p, certTol); err != nil {
		t.Fatalf("solution: %v", err)
	}
	for j, v := range res.X {
		if p.Integer[j] && v != math.Round(v) {
			t.Fatalf("integer column %d has value %v", j, v)
		}
	}
}

func checkMIPBruteForce(t *rapid.T) {
	p := genMIP(t)
	want, feasible := bruteForceMIP(t, p)
	res, err := Solve(context.Background(), p, Options{})
	if err != nil {
		t.Fatalf("Solve: %v\n%s", err, goLiteral(p))
	}
	if !feasible {
		if res.Status != Infeasible {
			t.Fatalf("status %v (objective %v), want infeasible\n%s", res.Status, res.Objective, goLiteral(p))
		}
		return
	}
	if res.Status != Optimal {
		t.Fatalf("status %v, want optimal %v\n%s", res.Status, want, goLiteral(p))
	}
	checkMIPSolution(t, p, res)
	if !relClose(res.Objective, want, 1e-6) {
		t.Fatalf("objective %v, want %v (brute force)\n%s", res.Objective, want, goLiteral(p))
	}
	if res.Gap != 0 || !relClose(res.Bound, want, 1e-6) {
		t.Fatalf("bound %v gap %v, want %v and 0", res.Bound, res.Gap, want)
	}
}

// TestMIPBruteForce compares branch-and-bound with exhaustive enumeration
// on tiny random MILPs, infeasible ones included.
func TestMIPBruteForce(t *testing.T) { rapid.Check(t, checkMIPBruteForce) }

func FuzzMIPBruteForce(f *testing.F) { f.Fuzz(rapid.MakeFuzz(checkMIPBruteForce)) }

// knapsackMIP is a 0-1 knapsack with n items whose optimum needs a search.
func knapsackMIP(n int) *Problem {
	var b Builder
	cols := make([]int, n)
	w := make([]float64, n)
	total := 0.0
	for j := 0; j < n; j++ {
		v := float64(17 + (j*37)%29)
		w[j] = float64(11 + (j*53)%31)
		total += w[j]
		cols[j] = b.AddIntCol("", v, 0, 1)
	}
	b.AddRow("cap", math.Inf(-1), math.Floor(total/2)+0.5, cols, w)
	b.SetObjective(true, 0)
	p, _ := b.Problem()
	return p
}

func TestMIPKnapsackBruteForce(t *testing.T) {
	p := knapsackMIP(12)
	want, ok := bruteForceMIP(t, p)
	if !ok {
		t.Fatal("knapsack infeasible by brute force")
	}
	res, err := Solve(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkMIPSolution(t, p, res)
	if res.Status != Optimal || res.Objective != want {
		t.Fatalf("%v %v, want optimal %v", res.Status, res.Objective, want)
	}
}

func TestMIPLimitsAndCancel(t *testing.T) {
	p := knapsackMIP(60) // 40 items: solved at the root by the propagation dive
	full, err := Solve(context.Background(), p, Options{})
	if err != nil || full.Status != Optimal {
		t.Fatalf("full solve: %v %v", full.Status, err)
	}
	if full.Nodes < 3 {
		t.Fatalf("knapsack solved in %d nodes: too easy for a limit test", full.Nodes)
	}

	t.Run("node limit", func(t *testing.T) {
		res, err := Solve(context.Background(), p, Options{NodeLimit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != NodeLimit || res.Nodes != 2 {
			t.Fatalf("status %v after %d nodes, want node-limit after 2", res.Status, res.Nodes)
		}
		if res.HasSolution() {
			checkMIPSolution(t, p, res)
			if res.Objective > full.Objective || res.Bound < full.Objective-1e-6 {
				t.Fatalf("incumbent %v bound %v around optimum %v", res.Objective, res.Bound, full.Objective)
			}
			if want := math.Abs(res.Objective-res.Bound) / max(1, math.Abs(res.Objective)); !relClose(res.Gap, want, 1e-12) {
				t.Fatalf("gap %v, want %v", res.Gap, want)
			}
		}
	})

	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		res, err := Solve(ctx, p, Options{Progress: func(pr Progress) {
			calls++
			cancel()
		}})
		cancel()
		if !errors.Is(err, context.Canceled) || res.Status != Cancelled {
			t.Fatalf("status %v err %v, want cancelled with context.Canceled", res.Status, err)
		}
		if calls == 0 {
			t.Fatal("progress never called")
		}
		if res.HasSolution() {
			checkMIPSolution(t, p, res)
		}
		res, err = Solve(ctx, p, Options{})
		if !errors.Is(err, context.Canceled) || res.Status != Cancelled || res.HasSolution() {
			t.Fatalf("cancelled before the start: status %v err %v", res.Status, err)
		}
	})

	t.Run("gap", func(t *testing.T) {
		res, err := Solve(context.Background(), p, Options{Gap: 0.05})
		if err != nil || res.Status != Optimal {
			t.Fatalf("status %v err %v", res.Status, err)
		}
		checkMIPSolution(t, p, res)
		if res.Objective < full.Objective*(1-0.05)-1e-9 || res.Gap > 0.05 {
			t.Fatalf("objective %v gap %v: not within 5%% of %v", res.Objective, res.Gap, full.Objective)
		}
	})

	t.Run("deterministic", func(t *testing.T) {
		again, err := Solve(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if again.Objective != full.Objective || again.Iterations != full.Iterations || again.Nodes != full.Nodes {
			t.Fatalf("second solve: %v in %d iterations %d nodes; first: %v in %d, %d", again.Objective, again.Iterations, again.Nodes, full.Objective, full.Iterations, full.Nodes)
		}
	})
}

func TestMIPInfeasibleAndUnbounded(t *testing.T) {
	inf := math.Inf(1)
	// 2x = 1 has no integer solution though its relaxation is feasible.
	var b Builder
	x := b.AddIntCol("x", 1, 0, 10)
	b.AddRow("odd", 1, 1, []int{x}, []float64{2})
	p, _ := b.Problem()
	res, err := Solve(context.Background(), p, Options{})
	if err != nil || res.Status != Infeasible || res.HasSolution() {
		t.Fatalf("2x = 1: %v %v, want infeasible", res.Status, err)
	}
	// max x + y, x integer unbounded above, y ≤ 1.
	var u Builder
	xi := u.AddIntCol("x", 1, 0, inf)
	y := u.AddCol("y", 1, 0, 1)
	u.AddRow("r", -inf, 3, []int{y}, []float64{1})
	u.SetObjective(true, 0)
	q, _ := u.Problem()
	_ = xi
	res, err = Solve(context.Background(), q, Options{})
	if err != nil || res.Status != Unbounded {
		t.Fatalf("unbounded MIP: %v %v", res.Status, err)
	}
	checkMIPSolution(t, q, res)
	// An unbounded relaxation but no integer point: 2z = 1 besides.
	z := u.AddIntCol("z", 0, 0, 5)
	u.AddRow("odd", 1, 1, []int{z}, []float64{2})
	q, _ = u.Problem()
	res, err = Solve(context.Background(), q, Options{})
	if err != nil || res.Status != Infeasible || res.HasSolution() {
		t.Fatalf("unbounded relaxation without integer point: %v %v, want infeasible", res.Status, err)
	}
}
