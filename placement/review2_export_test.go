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

// TestReview2ModelWithLeftOutGang: two 8-GPU gangs of 20 days each, due by
// day 30, on one node of stock: only one fits, and Solve leaves the other
// out (Plan.Unplaced, ErrStock) and plans the rest. Model (and so WriteMPS)
// is "the MILP that Solve optimises … Workloads in Plan.Unplaced are not in
// it": it must leave the same gang out, so that its optimum is Solve's
// total (it used to hold the left-out gang and be infeasible).
//
// Numbers: Solve: total 19200, "b" unplaced (1 of the 2 gangs fit at most).
func TestReview2ModelWithLeftOutGang(t *testing.T) {
	day := 24 * time.Hour
	a := bare()
	a.Horizon = 60 * day
	p := placement.Problem{Workloads: []workload.Workload{pretrain("a", 8, 20, 30*day), pretrain("b", 8, 20, 30*day)},
		Offers: []provider.Offer{fabric(onDemand("od", "40", 8, 1))}, Assumptions: a,
		Options: placement.Options{OverTime: true, Epoch: provider.Month, Period: day, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Unplaced) != 1 {
		t.Fatalf("want one gang left out, unplaced %+v", plan.Unplaced)
	}
	t.Logf("Solve: total %v, unplaced %s: %v", plan.Total, plan.Unplaced[0].Workload, plan.Unplaced[0].Err)
	m, err := placement.Model(p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := lp.Solve(context.Background(), m, lp.Options{Gap: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != lp.Optimal || math.Abs(r.Objective-f64(plan.Total)) > 1e-6*max(1, f64(plan.Total)) {
		t.Fatalf("Model(p): status %v objective %g; Solve's total %v", r.Status, r.Objective, plan.Total)
	}
}

// TestReview2FewestLeftOut: on two nodes of stock, gang A needs both for 20
// days, B and C one each for 20 days, all due by day 30: A alone or B and C
// together fit. The fewest left out is A alone (one gang, not two): the
// count comes before the cost (keeping A alone would cost the same here).
func TestReview2FewestLeftOut(t *testing.T) {
	day := 24 * time.Hour
	a := bare()
	a.Horizon = 60 * day
	p := placement.Problem{Workloads: []workload.Workload{pretrain("A", 16, 20, 30*day), pretrain("B", 8, 20, 30*day), pretrain("C", 8, 20, 30*day)},
		Offers: []provider.Offer{fabric(onDemand("od", "40", 8, 2))}, Assumptions: a,
		Options: placement.Options{OverTime: true, Epoch: provider.Month, Period: day, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Unplaced) != 1 || plan.Unplaced[0].Workload != "A" {
		t.Fatalf("unplaced %+v, want A alone", plan.Unplaced)
	}
}
