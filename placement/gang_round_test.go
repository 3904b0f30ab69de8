package placement

import (
	"context"
	"math"
	"testing"

	"github.com/gputco/gputco/placement/lp"
)

// TestRoundOneRunPerGang: the first plan's rounding chooses one run per
// gang from a fractional relaxation, where rounding every positive binary
// up breaks "one run per gang" (the gang rows are equalities) and leaves no
// first plan. Columns: gang A's runs a0, a1, a2, gang B's b0, b1, nodes n
// (integer, 0..2, 10 each); rows: a0+a1+a2 = 1, b0+b1 = 1, run a0 needs
// two nodes (16·a0 ≤ 8·n), a1 and b0 share a stock of 8 GPUs (8·a1 + 8·b0 ≤
// 8). Three fractional points, each feasible for the relaxation:
//   - a0 largest (0.45) with n = 0.9: a0 and b1 are chosen, and a0's two
//     nodes are more than n rounded up (1) — the capacity is repaired:
//     a0 + b1 + 2n = 1 + 4 + 20 = 25;
//   - a1 and a2, b0 and b1 tie (0.5 each): the first of each, a1 and b0,
//     do not fit the stock together — a dive chooses again, a2 + b0 = 6;
//   - a2 largest: a2 + b1 at n = 0 = 5 + 4 = 9.
//
// Every point found is checked row by row and has one run per gang.
func TestRoundOneRunPerGang(t *testing.T) {
	inf := math.Inf(1)
	// Columns: a0 a1 a2 b0 b1 n.
	cost := []float64{1, 3, 5, 1, 4, 10}
	rows := [][]float64{
		{1, 1, 1, 0, 0, 0},
		{0, 0, 0, 1, 1, 0},
		{16, 0, 0, 0, 0, -8},
		{0, 8, 0, 8, 0, 0},
	}
	lower := []float64{1, 1, -inf, -inf}
	upper := []float64{1, 1, 0, 8}
	p := &lp.Problem{Cost: cost, ColLower: make([]float64, 6), ColUpper: []float64{1, 1, 1, 1, 1, 2},
		Integer: []bool{true, true, true, true, true, true}, RowLower: lower, RowUpper: upper}
	p.A = lp.Matrix{Rows: len(rows), Cols: 6, Start: []int{0}}
	for j := range 6 {
		for i, r := range rows {
			if r[j] != 0 {
				p.A.Index, p.A.Value = append(p.A.Index, int32(i)), append(p.A.Value, r[j])
			}
		}
		p.A.Start = append(p.A.Start, len(p.A.Index))
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	relax := *p
	relax.Integer = nil
	groups := [][]int{{0, 1, 2}, {3, 4}}
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{0.45, 0.3, 0.25, 0.4, 0.6, 0.9}, 25},
		{[]float64{0, 0.5, 0.5, 0.5, 0.5, 0}, 6},
		{[]float64{0.1, 0.1, 0.8, 0.3, 0.7, 0.2}, 9},
	} {
		st := &solveState{in: &instance{}}
		x, obj, err := st.roundAndFix(context.Background(), &relax, p, lp.Result{Status: lp.Optimal, X: c.x}, groups)
		if err != nil {
			t.Fatal(err)
		}
		if x == nil {
			t.Fatalf("from %v: no first plan", c.x)
		}
		for i, r := range rows {
			v := 0.0
			for j := range r {
				v += r[j] * x[j]
			}
			if v < lower[i]-1e-9 || v > upper[i]+1e-9 {
				t.Errorf("from %v: row %d = %g outside [%g, %g] at %v", c.x, i, v, lower[i], upper[i], x)
			}
		}
		for _, g := range groups {
			ones := 0
			for _, j := range g {
				if x[j] > 0.5 {
					ones++
				}
				if math.Abs(x[j]-math.Round(x[j])) > 1e-9 {
					t.Errorf("from %v: run %d at %g", c.x, j, x[j])
				}
			}
			if ones != 1 {
				t.Errorf("from %v: %d runs of one gang at %v", c.x, ones, x)
			}
		}
		if math.Abs(obj-c.want) > 1e-9 {
			t.Errorf("from %v: objective %g, want %g at %v", c.x, obj, c.want, x)
		}
	}
}
