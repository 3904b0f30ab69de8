package placement_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/placement/lp"
)

// TestSolveFixed: the LP of a model with its integers fixed (at the
// relaxation's values rounded up, and at zero), solved with the fixed
// columns substituted out, has the optimum and the status of the same LP
// solved whole, and its point satisfies the whole LP.
func TestSolveFixed(t *testing.T) {
	ctx := context.Background()
	n := uint64(10)
	if testing.Short() {
		n = 3
	}
	for seed := range n {
		p := portfolio(seed+500, 3, 2, 5, 24*time.Hour, seed%2 == 0)
		m, err := placement.Model(p)
		if err != nil {
			t.Fatal(err)
		}
		relax := *m
		relax.Integer = nil
		r, err := lp.Solve(ctx, &relax, lp.Options{})
		if err != nil || r.Status != lp.Optimal {
			t.Fatalf("seed %d: relaxation %v %v", seed, r.Status, err)
		}
		for _, zero := range []bool{false, true} {
			fix := relax
			fix.ColLower = append([]float64(nil), m.ColLower...)
			fix.ColUpper = append([]float64(nil), m.ColUpper...)
			for j, isInt := range m.Integer {
				if isInt {
					v := math.Min(m.ColUpper[j], math.Ceil(r.X[j]-1e-7))
					if zero {
						v = 0
					}
					fix.ColLower[j], fix.ColUpper[j] = v, v
				}
			}
			whole, err := lp.Solve(ctx, &fix, lp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			x, obj, st, _, err := placement.SolveFixed(ctx, m, fix.ColLower, fix.ColUpper)
			if err != nil {
				t.Fatal(err)
			}
			if st != whole.Status {
				t.Errorf("seed %d (zero %v): status %v, whole LP %v", seed, zero, st, whole.Status)
				continue
			}
			if st != lp.Optimal {
				continue
			}
			if math.Abs(obj-whole.Objective) > 1e-7*max(1, math.Abs(whole.Objective)) {
				t.Errorf("seed %d (zero %v): objective %.9g, whole LP %.9g", seed, zero, obj, whole.Objective)
			}
			for j, v := range x {
				if v < fix.ColLower[j]-1e-9 || v > fix.ColUpper[j]+1e-9 {
					t.Errorf("seed %d: column %d at %g outside [%g, %g]", seed, j, v, fix.ColLower[j], fix.ColUpper[j])
				}
			}
			act := make([]float64, m.NumRows())
			for j := range m.NumCols() {
				for e := m.A.Start[j]; e < m.A.Start[j+1]; e++ {
					act[m.A.Index[e]] += m.A.Value[e] * x[j]
				}
			}
			for i, a := range act {
				tol := 1e-6 * max(1, math.Abs(a))
				if a < m.RowLower[i]-tol || a > m.RowUpper[i]+tol {
					t.Errorf("seed %d: row %s at %g outside [%g, %g]", seed, m.RowNames[i], a, m.RowLower[i], m.RowUpper[i])
				}
			}
		}
	}
}
