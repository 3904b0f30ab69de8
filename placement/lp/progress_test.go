package lp

import (
	"context"
	"math"
	"testing"
)

// TestProgressBoundIsProven: every Bound a solve reports is a bound on its
// optimum — never above a minimisation's optimum, never below a
// maximisation's — for an LP (the simplex's working objective is no
// bound: the primal phases run above the optimum) and for a MILP from a
// Start (before the root is solved the search knows no bound; reporting
// the incumbent's value there claims a gap of 0).
func TestProgressBoundIsProven(t *testing.T) {
	check := func(t *testing.T, p *Problem, opt Options) {
		t.Helper()
		full, err := Solve(context.Background(), p, Options{})
		if err != nil || full.Status != Optimal {
			t.Fatalf("solve: %v %v", full.Status, err)
		}
		sign := 1.0
		if p.Maximize {
			sign = -1
		}
		calls, bad := 0, 0
		opt.Progress = func(pr Progress) {
			calls++
			if sign*(pr.Bound-full.Objective) > 1e-9*max(1, math.Abs(full.Objective)) {
				if bad == 0 {
					t.Errorf("report %d: bound %v, beyond the optimum %v (incumbent %v, gap %v)", calls, pr.Bound, full.Objective, pr.Incumbent, pr.Gap)
				}
				bad++
			}
		}
		if _, err := Solve(context.Background(), p, opt); err != nil {
			t.Fatal(err)
		}
		if bad > 0 {
			t.Errorf("%d of %d reports beyond the optimum", bad, calls)
		}
		if calls == 0 {
			t.Logf("no progress report (they come at most every 5 ms)")
		}
	}
	t.Run("lp", func(t *testing.T) { check(t, tieringLP(tieringSpec{168, 50, 3, 1}), Options{}) })
	t.Run("milp from a start", func(t *testing.T) {
		p := knapsackMIP(60)
		check(t, p, Options{Start: make([]float64, p.NumCols())})
	})
}
