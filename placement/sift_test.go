package placement_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/placement/lp"
)

// siftCases are random portfolios, over one period and over epochs, whose
// pools sift and solve whole in well under a second each.
func siftCases() []placement.Problem {
	var ps []placement.Problem
	for seed := uint64(1); seed <= 6; seed++ {
		ps = append(ps, portfolio(seed, 6, 3, 8, 24*time.Hour, seed%2 == 0))
	}
	for seed := uint64(1); seed <= 3; seed++ {
		ps = append(ps, timePortfolio(seed, 4, 2, 1, 6, 12, 3*365*24*time.Hour, 365*24*time.Hour, false))
	}
	return ps
}

// TestSiftRelaxation: the relaxation solved from the basis sifting reaches
// (the simplex over a few columns, the rest priced with its duals) has the
// whole relaxation's optimum, certified by the simplex of the whole model,
// which starts at or next to it.
func TestSiftRelaxation(t *testing.T) {
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	multi := 0
	for i, p := range siftCases() {
		sifted, whole, rounds, err := placement.SiftRelaxation(p)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if rounds == 0 {
			continue // no first plan to sift from
		}
		if rounds > 1 {
			multi++
		}
		if sifted.Status != lp.Optimal || whole.Status != lp.Optimal {
			t.Fatalf("case %d: sifted %v, whole %v", i, sifted.Status, whole.Status)
		}
		if math.Abs(sifted.Objective-whole.Objective) > 1e-9*max(1, math.Abs(whole.Objective)) {
			t.Errorf("case %d: sifted optimum %.9g, whole %.9g", i, sifted.Objective, whole.Objective)
		}
		t.Logf("case %d: %d rounds, the whole model's simplex %d iterations from the sifted basis, %d from the slack basis",
			i, rounds, sifted.Iterations, whole.Iterations)
	}
	if multi < 3 {
		t.Fatalf("only %d cases priced columns into the restriction: the cases do not test sifting", multi)
	}
}

// TestSiftedSolve: Solve with every pool's relaxation sifted finds plans as
// cheap as Solve's, proven within the same gap: on the cases that Solve
// proves optimal in a fraction of a second (the others spend seconds in
// branch-and-bound, which starts from the same relaxation either way).
func TestSiftedSolve(t *testing.T) {
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	ctx := context.Background()
	cases := siftCases()
	for _, i := range []int{1, 2, 3, 5, 8} {
		p := cases[i]
		start := time.Now()
		plan, err := placement.Solve(ctx, p)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		// Every bound reported on the way (sifting's Lagrangian bounds among
		// them) is a bound of the optimum.
		most, reports := math.Inf(-1), 0
		p.Options.Progress = func(pr placement.Progress) { most, reports = max(most, pr.Bound), reports+1 }
		sifted, err := placement.SolveSifted(ctx, p)
		if err != nil {
			t.Fatalf("case %d sifted: %v", i, err)
		}
		if tot := f64(sifted.Total); reports == 0 || most > tot+1e-6*max(1, math.Abs(tot)) {
			t.Errorf("case %d: %d progress reports, the highest bound %.6f above the optimum %.6f", i, reports, most, tot)
		}
		if plan.Status != placement.Optimal || sifted.Status != placement.Optimal {
			t.Fatalf("case %d: status %v, sifted %v", i, plan.Status, sifted.Status)
		}
		a, b := f64(plan.Total), f64(sifted.Total)
		if math.Abs(a-b) > 1e-6*max(1, math.Abs(a)) {
			t.Errorf("case %d: total %.6f, sifted %.6f", i, a, b)
		}
		t.Logf("case %d: %v", i, time.Since(start))
	}
}

// TestSiftCoarse: the coarse relaxation's bound sifted from the coarse
// model's greedy plan is a bound of the coarse relaxation within the
// ten-thousandth sifting stops at (coarseSiftGap).
func TestSiftCoarse(t *testing.T) {
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	tested := 0
	for i, p := range siftCases() {
		whole, err := placement.CoarseBound(p, false)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if math.IsInf(whole, -1) {
			continue // no coarse model
		}
		sifted, err := placement.CoarseBound(p, true)
		if err != nil {
			t.Fatalf("case %d sifted: %v", i, err)
		}
		if sifted > whole+1e-9*max(1, math.Abs(whole)) || sifted < whole-1e-4*max(1, math.Abs(whole)) {
			t.Errorf("case %d: sifted coarse bound %.9g, not within a ten-thousandth below the whole relaxation's %.9g", i, sifted, whole)
		}
		tested++
	}
	if tested < 3 {
		t.Fatalf("only %d cases have a coarse relaxation: the cases do not test it", tested)
	}
}

// TestSiftBound: whenever sifting stops, its restricted optimum is no
// better than the relaxation's optimum and its Lagrangian bound no worse
// (computed independently, by the simplex of the whole model), and within
// the gap it stopped at unless it ran to the end (then both equal the
// optimum).
func TestSiftBound(t *testing.T) {
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	early := 0
	for i, p := range siftCases() {
		stops, whole, ok, err := placement.SiftBound(p, 0.2, 0.02, 1e-3, 1e-6, 0)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !ok {
			continue
		}
		for _, s := range stops {
			gap, obj, bound, optimal := s.Gap, s.Obj, s.Bound, s.Optimal
			tol := 1e-9 * max(1, math.Abs(whole))
			if obj < whole-tol || bound > whole+tol {
				t.Errorf("case %d gap %g: restricted optimum %.9g, bound %.9g, the relaxation's optimum %.9g", i, gap, obj, bound, whole)
			}
			if optimal && (math.Abs(obj-whole) > tol || math.Abs(bound-whole) > tol) {
				t.Errorf("case %d gap %g: ended at the optimum with %.9g and bound %.9g, the relaxation's %.9g", i, gap, obj, bound, whole)
			}
			if !optimal {
				early++
				if obj-bound > gap*max(1, math.Abs(obj))+tol {
					t.Errorf("case %d gap %g: stopped with %.9g and bound %.9g, not within the gap", i, gap, obj, bound)
				}
			}
			if gap == 0 && !optimal {
				t.Errorf("case %d: sifting to the end did not reach the optimum", i)
			}
		}
	}
	if early < 3 {
		t.Fatalf("sifting stopped early %d times: the cases do not test the bound", early)
	}
}
