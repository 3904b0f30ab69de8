package placement_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// TestReview5GangMonthlyRental: issue 12, "a monthly rental can change
// every month". A 512-GPU, 30-day gang due by day 60, alone, over time
// with the default (yearly) epochs on a 400-day horizon, with unlimited
// on-demand at 40 per node-hour and unlimited monthly rentals at 28 and no
// lead time anywhere. Renting 64 monthly nodes for one month runs it by
// day 30 for 64 × 730 h × 28 = 1 308 160 (tco.Evaluate of the gang on the
// monthly offer over that month says the same); on-demand costs
// 64 × 720 h × 40 = 1 843 200. The plan pays the 1 843 200: a monthly
// rental started at day 0 must be held to the epoch's end (12 months, the
// m terms "that reach the next epoch start"), so one month of it is not a
// choice unless the caller asks for monthly epochs — where the same
// problem is solved at 1 308 160.
func TestReview5GangMonthlyRental(t *testing.T) {
	a := bare()
	a.Horizon = 400 * 24 * time.Hour
	w := pretrain("pretrain", 512, 30, 60*24*time.Hour)
	month := fabric(monthly("month", "28", 8, 0))
	p := placement.Problem{Workloads: []workload.Workload{w}, Offers: []provider.Offer{fabric(onDemand("od", "40", 8, 0)), month},
		Assumptions: a, Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	// The alternative: the gang alone on 64 monthly nodes for one month,
	// priced by tco over that month.
	b := a
	b.Horizon = provider.Month
	alt, err := tcoTotal(w, month, b)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Total.GreaterThan(alt.Add(dec("0.01"))) {
		t.Errorf("plan total %s (gang %+v), but one month of 64 monthly nodes runs the gang by its deadline for %s", plan.Total, plan.Assignments[0].Gang, alt)
	}
}

// tcoTotal is tco.Evaluate's total of w alone on o under a.
func tcoTotal(w workload.Workload, o provider.Offer, a tco.Assumptions) (decimal.Decimal, error) {
	r, err := tco.Evaluate(w, o, a)
	if err != nil {
		return decimal.Zero, err
	}
	if !r.DeadlineMet {
		return decimal.Zero, fmt.Errorf("deadline missed on %s: finish %v", o.ID, r.Finish)
	}
	return r.Total, nil
}

// TestMonthlyRentalServiceFirstMonth: a service of one 8-GPU node for the
// first month of a year (a step to 0 at provider.Month), yearly epochs, a
// monthly rental at 24 a node-hour and on demand at 32. One month of the
// rental serves it: 730 h × 24 = 17 520, what tco.Evaluate says for the
// service alone on the rental over that month. Held to the epoch's end the
// rental cost 12 months (210 240), so the plan went on demand (23 360).
// The rental is held from 0 to one month, not beyond.
func TestMonthlyRentalServiceFirstMonth(t *testing.T) {
	Y, M := provider.Year, provider.Month
	w := rvStepService("svc", 8, Y, workload.Step{Value: 1}, workload.Step{Start: M, Value: 0})
	month := monthly("month", "24", 8, 0)
	plan := rvSolve(t, rvProblem(Y, 0, []workload.Workload{w}, month, onDemand("od", "32", 8, 0)), "17520")
	b := bare()
	b.Horizon = M
	alt, err := tcoTotal(w, month, b)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Total.Equal(alt) {
		t.Errorf("plan total %s, tco.Evaluate of the service alone on a month of the rental %s", plan.Total, alt)
	}
	for _, c := range plan.Commitments {
		if c.Offer == "month" && (len(c.Held) != 1 || c.Held[0].Start != 0 || c.Held[0].End != M || c.Held[0].Nodes != 1) {
			t.Errorf("rental held %+v, want one node for the first month", c.Held)
		}
	}
}

// TestMonthlyRentalOwnHorizon: with Assumptions.Horizon zero, a service of
// one 8-GPU node whose own horizon is 28 days, beside one of a node for
// 400 days, over yearly epochs, on a monthly rental at 24 a node-hour and
// on demand at 32. Its demand ends inside the first month, so the first
// month's rental serves it: it adds 730 h × 24 = 17 520 to the plan of the
// other alone (28 days on demand would be 672 h × 32 = 21 504, and the
// rental held to the epoch's end 210 240).
func TestMonthlyRentalOwnHorizon(t *testing.T) {
	long, short := steady("long", 8, 1), steady("short", 8, 1)
	short.Horizon = 28 * day
	offers := []provider.Offer{monthly("month", "24", 8, 0), onDemand("od", "32", 8, 0)}
	a := bare()
	a.Horizon = 0 // the longest workload's: 400 days
	solve := func(ws ...workload.Workload) placement.Plan {
		t.Helper()
		p := placement.Problem{Workloads: ws, Offers: offers, Assumptions: a,
			Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 4}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if plan.Status != placement.Optimal || len(plan.Unplaced) > 0 {
			t.Fatalf("status %v, unplaced %v", plan.Status, plan.Unplaced)
		}
		return plan
	}
	alone, both := solve(long), solve(long, short)
	if d := both.Total.Sub(alone.Total); !d.Equal(dec("17520")) {
		t.Errorf("the 28-day service adds %s (%s with it, %s without), want 17520: a month of the rental", d, both.Total, alone.Total)
	}
}
