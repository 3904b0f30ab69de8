package placement_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/placement/lp"
)

// TestRootProbe holds the root probe to the MILP's optimum (the built-in
// branch-and-bound to 1e-9 on the untightened model) on random
// portfolios: its bound is at most the optimum and at least the
// relaxation's, and where it tightened column bounds the MILP at them has
// the same optimum (or, when the first plan is optimal, none better). The
// race pass (-short) runs seeds 0, 2 and 8, where the probe tightens one
// bound, in a tenth of the time of seed 1.
func TestRootProbe(t *testing.T) {
	seeds := []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	if testing.Short() {
		seeds = []uint64{0, 2, 8}
	}
	ctx := context.Background()
	probed := 0
	for _, seed := range seeds {
		p := portfolio(seed+500, 4, 3, 6, 24*time.Hour, seed%2 == 0)
		p.Options.Slices = 6
		relaxed, bound, inc, tight, tightened, err := placement.RootProbe(p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		full, err := placement.Model(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := lp.Solve(ctx, full, lp.Options{Gap: 1e-9})
		if err != nil || r.Status != lp.Optimal {
			t.Fatalf("seed %d: MILP %v %v", seed, r.Status, err)
		}
		opt := r.Objective
		tol := 1e-7 * max(1, math.Abs(opt))
		if bound > opt+tol || bound < relaxed-tol {
			t.Errorf("seed %d: probe bound %.6f, relaxation %.6f, optimum %.6f", seed, bound, relaxed, opt)
		}
		if tightened == 0 {
			continue
		}
		probed++
		rt, err := lp.Solve(ctx, tight, lp.Options{Gap: 1e-9})
		if err != nil {
			t.Fatalf("seed %d: tightened MILP: %v", seed, err)
		}
		best := inc
		if rt.HasSolution() {
			best = min(best, rt.Objective)
		}
		if math.Abs(best-opt) > tol {
			t.Errorf("seed %d: %d bounds tightened: best of the tightened MILP (%v %.6f) and the first plan %.6f, optimum %.6f",
				seed, tightened, rt.Status, rt.Objective, inc, opt)
		}
		t.Logf("seed %d: relaxation %.4f, probe bound %.4f, optimum %.4f, %d bounds tightened", seed, relaxed, bound, opt, tightened)
	}
	if probed == 0 {
		t.Errorf("no portfolio had a bound tightened: the test does not test the tightening")
	}
}
