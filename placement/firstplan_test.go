package placement_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/placement/lp"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestFirstPlanAtLimit: a time limit that ends before the LP relaxation is
// solved returns the first plan built without the LP (greedy, on
// pay-as-you-go capacity) when one exists: a feasible plan (placement/lp's
// check of a start point accepts it), never below the bound Solve proves,
// with a bound never above Solve's plan; Solve without a limit, whose
// search starts from the same first plan, finds cbc's optimum in
// TestOverTimeCBC.
func TestFirstPlanAtLimit(t *testing.T) {
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	n := 6
	if testing.Short() {
		n = 1 // growing curves are integrated numerically by tco: slow under the race detector
	}
	planned, checked, built := 0, 0, 0
	for seed := range uint64(n) {
		p := timePortfolio(seed+1, 2, 1, 2, 4, 3, provider.Year, 3*provider.Month, seed%2 == 1)
		p.Options.NodeLimit = 2000
		best, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		first, pooled, pools, err := placement.FirstPlanAtLimit(p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		t.Logf("seed %d: %d of %d pools with a first plan", seed, pooled, pools)
		if first.Status == placement.NoPlan {
			continue // no pay-as-you-go plan: the limit ends with none, as before
		}
		planned++
		if first.Status != placement.Feasible {
			t.Errorf("seed %d: status %v at the limit, want Feasible", seed, first.Status)
		}
		if first.Total.LessThan(best.Bound.Sub(dec("0.01"))) {
			t.Errorf("seed %d: first plan %s below the bound %s of the optimum", seed, first.Total, best.Bound)
		}
		if first.Bound.GreaterThan(best.Total.Add(dec("0.01"))) {
			t.Errorf("seed %d: bound %s at the limit above a plan's total %s", seed, first.Bound, best.Total)
		}
		if first.Stats.FirstPlan <= 0 {
			t.Errorf("seed %d: Stats.FirstPlan %v", seed, first.Stats.FirstPlan)
		}
		placedFirst := len(p.Workloads) - len(first.Unplaced)
		if placedBest := len(p.Workloads) - len(best.Unplaced); placedFirst != placedBest {
			t.Errorf("seed %d: %d placed at the limit, %d by the optimum", seed, placedFirst, placedBest)
		}
		// placement/lp's own check of a start point accepts every first plan
		// as the incumbent of its search, at its objective.
		models, points, objs, err := placement.GreedyPlans(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range models {
			if points[i] == nil {
				continue
			}
			built++
			t.Logf("seed %d: first plan %d of %.2f (Solve's %s)", seed, i, objs[i], best.Total)
			// Where one iteration finds no plan by itself, the start is the
			// incumbent lp reports.
			if r, _ := lp.Solve(context.Background(), m, lp.Options{IterationLimit: 1}); r.HasSolution() {
				continue
			}
			r, _ := lp.Solve(context.Background(), m, lp.Options{Start: points[i], IterationLimit: 1})
			checked++
			if !r.HasSolution() || r.Objective > objs[i]+1e-9*max(1, math.Abs(objs[i])) {
				t.Errorf("seed %d pool %d: lp takes the first plan as %v at %v, want at most its objective %v", seed, i, r.Status, r.Objective, objs[i])
			}
		}
	}
	t.Logf("%d first plans built (pay-as-you-go, and with the coarse commitments), %d checked by lp", built, checked)
	if checked == 0 {
		t.Errorf("no first plan checked by lp")
	}
	if planned < n/2 {
		t.Errorf("a first plan at the limit in %d of %d problems, want at least half", planned, n)
	}
}

// TestGreedyJobCapacity: the first plan places a job whose capacity the
// pay-as-you-go pass cannot give — one that only a commitment can carry,
// and one whose limited stock a service before it takes (the job then goes
// first) — and lp accepts it as a start at its objective.
func TestGreedyJobCapacity(t *testing.T) {
	a := bare()
	opt := placement.Options{Period: 7 * 24 * time.Hour, Slices: 24}
	job := batch("job", 16, 5000, 30*24*time.Hour)
	job.Requirements.Jurisdictions = []string{"US"}
	dear := reserved("dear", "9", 8, 0)
	dear.Jurisdiction = "EU"
	cases := map[string]placement.Problem{
		"committed only": {Workloads: []workload.Workload{job}, Offers: []provider.Offer{reserved("res", "1.5", 8, 4)},
			Assumptions: a, Options: opt},
		"stock taken": {Workloads: []workload.Workload{steps("svc", 32), batch("job", 32, 4000, 10*24*time.Hour)},
			Offers: []provider.Offer{onDemand("cheap", "2", 8, 4), dear}, Assumptions: a, Options: opt},
	}
	cases["stock taken"].Workloads[1].Requirements.Jurisdictions = []string{"US"}
	for name, p := range cases {
		models, points, objs, err := placement.GreedyPlans(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(models) == 0 || points[0] == nil {
			t.Errorf("%s: no first plan", name)
			continue
		}
		r, _ := lp.Solve(context.Background(), models[0], lp.Options{Start: points[0], IterationLimit: 1})
		if !r.HasSolution() || r.Objective > objs[0]+1e-9*max(1, math.Abs(objs[0])) {
			t.Errorf("%s: lp takes the first plan as %v at %v, want at most its objective %v", name, r.Status, r.Objective, objs[0])
		}
		first, _, _, err := placement.FirstPlanAtLimit(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if first.Status != placement.Feasible || len(first.Unplaced) > 0 {
			t.Errorf("%s: %v with %d unplaced at the limit, want a feasible plan of every workload", name, first.Status, len(first.Unplaced))
		}
	}
}

// TestPolish: the polished first plan is a plan lp accepts as a start at
// its objective, never dearer than the greedy plan it starts from, and
// cheaper on some of the random portfolios.
func TestPolish(t *testing.T) {
	n := 8
	if testing.Short() {
		n = 3
	}
	better := 0
	for seed := range uint64(n) {
		var p placement.Problem
		if seed%2 == 0 {
			p = portfolio(seed+1, 4, 2, 6, 24*time.Hour, false)
		} else {
			p = timePortfolio(seed+1, 2, 2, 1, 4, 3, provider.Year, 3*provider.Month, true)
		}
		models, greedy, points, objs, err := placement.PolishedPlans(p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for i, m := range models {
			if points[i] == nil {
				continue
			}
			if objs[i] > greedy[i] {
				t.Errorf("seed %d pool %d: polished %v above the greedy plan's %v", seed, i, objs[i], greedy[i])
			}
			if objs[i] < greedy[i]*(1-1e-9) {
				better++
			}
			r, _ := lp.Solve(context.Background(), m, lp.Options{Start: points[i], IterationLimit: 1})
			if r.HasSolution() && r.Objective > objs[i]+1e-9*max(1, math.Abs(objs[i])) {
				t.Errorf("seed %d pool %d: lp takes the polished plan at %v, want at most its objective %v", seed, i, r.Objective, objs[i])
			}
			if !r.HasSolution() && r.Status != lp.IterationLimit {
				t.Errorf("seed %d pool %d: lp ends %v with the polished plan as its start", seed, i, r.Status)
			}
		}
	}
	if better == 0 {
		t.Errorf("no first plan improved by the polish in %d portfolios", n)
	}
}

// TestPriceBound: the priced bound never exceeds the LP relaxation's
// optimum (so never the MILP's), and is finite and above zero on most
// random portfolios (the benchmarks' generator among them).
func TestPriceBound(t *testing.T) {
	n := 8
	if testing.Short() {
		n = 3
	}
	finite, total := 0, 0
	for seed := range uint64(n + 3) {
		var p placement.Problem
		switch {
		case seed >= uint64(n):
			// the benchmarks' generator: hidden costs (one-off placement
			// costs, whose link rows the bound prices) and offers
			// replicated over regions.
			p = realistic(t, seed, 16, 12, 24)
		case seed%2 == 0:
			p = portfolio(seed+1, 4, 2, 6, 24*time.Hour, seed%4 == 0)
		default:
			p = timePortfolio(seed+1, 2, 2, 1, 4, 3, provider.Year, 3*provider.Month, seed%4 == 1)
		}
		price, relax, err := placement.PriceBounds(p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for i := range price {
			total++
			t.Logf("seed %d pool %d: priced %.2f, relaxation %.2f", seed, i, price[i], relax[i])
			if price[i] > relax[i]+1e-7*max(1, math.Abs(relax[i])) {
				t.Errorf("seed %d pool %d: priced bound %v above the relaxation's optimum %v", seed, i, price[i], relax[i])
			}
			if !math.IsInf(price[i], -1) && price[i] > 0 {
				finite++
			}
		}
	}
	if finite*2 < total {
		t.Errorf("a useful priced bound in %d of %d pools", finite, total)
	}
}
