package placement

import (
	"cmp"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/gputco/gputco/placement/lp"
	"pgregory.net/rapid"
)

// TestLagrange checks the Lagrangian bound and its coordinate ascent by
// LP duality on random small LPs with every kind of row and column bound:
// at any duals the bound is at most the LP's optimum (weak duality), at
// the simplex's optimal duals it equals it (strong duality), and ascent
// never lowers it, never takes it above the optimum and keeps the reduced
// costs in step with the duals.
func TestLagrange(t *testing.T) { rapid.Check(t, propLagrange) }

func FuzzLagrange(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propLagrange)) }

func propLagrange(t *rapid.T) {
	m := rapid.IntRange(1, 6).Draw(t, "rows")
	n := rapid.IntRange(1, 8).Draw(t, "cols")
	small := rapid.IntRange(-3, 3)
	p := &lp.Problem{A: lp.Matrix{Rows: m, Cols: n, Start: make([]int, n+1)}}
	x0 := make([]float64, n) // a point within the column bounds
	for j := range n {
		lo, up := math.Inf(-1), math.Inf(1)
		switch rapid.IntRange(0, 3).Draw(t, "column bounds") {
		case 0:
			lo = 0
		case 1:
			lo, up = 0, float64(rapid.IntRange(0, 5).Draw(t, "upper"))
		case 2:
			up = float64(small.Draw(t, "upper"))
		}
		p.ColLower, p.ColUpper = append(p.ColLower, lo), append(p.ColUpper, up)
		x0[j] = max(lo, min(up, float64(small.Draw(t, "x0"))))
		p.Cost = append(p.Cost, float64(rapid.IntRange(-5, 5).Draw(t, "cost")))
		for i := range m {
			if a := small.Draw(t, "a"); a != 0 {
				p.A.Index, p.A.Value = append(p.A.Index, int32(i)), append(p.A.Value, float64(a))
			}
		}
		p.A.Start[j+1] = len(p.A.Index)
	}
	act := make([]float64, m)
	for j := range n {
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			act[p.A.Index[e]] += p.A.Value[e] * x0[j]
		}
	}
	for i := range m {
		lo, up := math.Inf(-1), math.Inf(1)
		slack := float64(rapid.IntRange(0, 3).Draw(t, "slack"))
		switch rapid.IntRange(0, 4).Draw(t, "row bounds") {
		case 0:
			lo = act[i] - slack
		case 1:
			up = act[i] + slack
		case 2:
			lo, up = act[i]-slack, act[i]+slack
		case 3:
			lo, up = act[i], act[i]
		}
		p.RowLower, p.RowUpper = append(p.RowLower, lo), append(p.RowUpper, up)
	}
	r, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil || r.Status != lp.Optimal {
		t.Skip("not optimal:", r.Status, err)
	}
	tol := 1e-6 * max(1, math.Abs(r.Objective))
	reduced := func(y []float64) []float64 {
		d := append([]float64(nil), p.Cost...)
		for j := range n {
			for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
				d[j] -= p.A.Value[e] * y[p.A.Index[e]]
			}
		}
		return d
	}
	rows := byRows(p)
	check := func(name string, y []float64) {
		d := reduced(y)
		before := lagrangeBound(p, y, d)
		if before > r.Objective+tol {
			t.Fatalf("%s: bound %g above the optimum %g", name, before, r.Objective)
		}
		ascend(context.Background(), p, rows, y, d, rapid.IntRange(1, 3).Draw(t, "passes"))
		after := lagrangeBound(p, y, d)
		if after < before-tol || after > r.Objective+tol {
			t.Fatalf("%s: ascent took the bound from %g to %g (optimum %g)", name, before, after, r.Objective)
		}
		for j, v := range reduced(y) {
			if math.Abs(v-d[j]) > 1e-9*max(1, math.Abs(v)) {
				t.Fatalf("%s: reduced cost %d is %g after ascent, c − Aᵀy is %g", name, j, d[j], v)
			}
		}
		for i, v := range y {
			if v > 0 && math.IsInf(p.RowLower[i], -1) || v < 0 && math.IsInf(p.RowUpper[i], 1) {
				t.Fatalf("%s: dual %d is %g, of the wrong sign for its row's one bound", name, i, v)
			}
		}
	}
	// At the optimal duals the bound is the optimum (a dual of the wrong
	// sign for its row's one bound, round-off, is 0, as sift makes it).
	ys := make([]float64, m)
	signedDuals(p, ys, r.RowDual)
	if b := lagrangeBound(p, ys, reduced(ys)); math.Abs(b-r.Objective) > tol {
		t.Fatalf("bound %g at the optimal duals, optimum %g", b, r.Objective)
	}
	check("optimal duals", ys)
	// Any duals of the right signs.
	y := make([]float64, m)
	for i := range y {
		v := float64(small.Draw(t, "y"))
		if math.IsInf(p.RowLower[i], -1) {
			v = min(v, 0)
		}
		if math.IsInf(p.RowUpper[i], 1) {
			v = max(v, 0)
		}
		y[i] = v
	}
	check("random duals", y)
}

// TestAscendCover: for a single covering row Σ x_j ≥ D over columns of
// costs ≥ 0 within bounds [0, u_j] (a fractional knapsack), one pass of
// ascent from the zero dual reaches the LP's optimum, the cheapest columns
// filled first (the closed form), since the row's dual is the LP's only
// one.
func TestAscendCover(t *testing.T) { rapid.Check(t, propAscendCover) }

func FuzzAscendCover(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propAscendCover)) }

func propAscendCover(t *rapid.T) {
	n := rapid.IntRange(1, 8).Draw(t, "cols")
	p := &lp.Problem{A: lp.Matrix{Rows: 1, Cols: n, Start: make([]int, n+1)}}
	type col struct{ c, u float64 }
	cols := make([]col, n)
	total := 0.0
	for j := range n {
		c := float64(rapid.IntRange(0, 20).Draw(t, "cost")) / 4
		u := float64(rapid.IntRange(1, 10).Draw(t, "upper"))
		if j == n-1 && rapid.Bool().Draw(t, "last unbounded") {
			u = math.Inf(1)
		}
		cols[j] = col{c, u}
		total += u
		p.Cost, p.ColLower, p.ColUpper = append(p.Cost, c), append(p.ColLower, 0), append(p.ColUpper, u)
		p.A.Index, p.A.Value = append(p.A.Index, 0), append(p.A.Value, 1)
		p.A.Start[j+1] = j + 1
	}
	demand := rapid.Float64Range(0, min(total, 60)).Draw(t, "demand")
	p.RowLower, p.RowUpper = []float64{demand}, []float64{math.Inf(1)}
	// The closed form: the cheapest columns first.
	slices.SortStableFunc(cols, func(a, b col) int { return cmp.Compare(a.c, b.c) })
	want, left := 0.0, demand
	for _, c := range cols {
		take := min(left, c.u)
		want += take * c.c
		left -= take
	}
	y := []float64{0}
	d := append([]float64(nil), p.Cost...)
	ascend(context.Background(), p, byRows(p), y, d, 1)
	if got := lagrangeBound(p, y, d); math.Abs(got-want) > 1e-9*max(1, want) {
		t.Fatalf("bound %g after one pass (dual %g), the knapsack's optimum %g", got, y[0], want)
	}
}
