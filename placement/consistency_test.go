package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// steps is a daily schedule of whole fractions: with GPUs a multiple of the
// node size times 4, every slice needs whole nodes, as tco bills them.
func steps(name string, gpus int) workload.Workload {
	c := workload.Steps{Cycle: workload.Day, Steps: []workload.Step{{Start: 0, Value: 0.25}, {Start: 8 * time.Hour, Value: 1},
		{Start: 18 * time.Hour, Value: 0.5}}}
	return workload.Workload{Name: name, Kind: workload.Inference, GPUs: gpus, Demand: c, Horizon: provider.Year,
		Interruption: workload.Interruption{Tolerance: workload.Stateless}, Setup: workload.Setup{EngineerHours: 6},
		Data: workload.Data{DatasetGB: 200, EgressGBPerMonth: 50, Location: workload.Location{Provider: "elsewhere", Region: "x"}}}
}

func owned(id string, gpn int) provider.Offer {
	return node(id, provider.Owned{PurchasePerNode: dec("250000"), UsefulLifeYears: 4, MaxPowerKW: 7, IdlePowerKW: 2,
		ContractedPowerKW: 8, PUE: 1.3, EnergyPerKWh: dec("0.09"), ColocationPerKWMonth: dec("150"),
		MaintenanceFractionPerYear: 0.08}, gpn, 0)
}

// TestAloneMatchesEvaluate is oracle 5: a workload alone whose plan uses one
// offer costs exactly tco.Evaluate's total on that offer (up to the rounding
// of one line per category that tco.Terms allows), with every hidden cost.
func TestAloneMatchesEvaluate(t *testing.T) {
	hourly := node("hourly", provider.Hourly(dec("30")), 8, 0)
	// Billed by the hour with a 24-hour minimum per run: a short
	// commitment in tco.Terms (fixed lines, fractional Own.Nodes).
	daily := node("daily", provider.Metered{RatePerHour: dec("30"), Increment: time.Hour, Minimum: 24 * time.Hour}, 8, 0)
	weekly := node("weekly", provider.Metered{RatePerHour: dec("28"), Increment: 7 * 24 * time.Hour, Minimum: 7 * 24 * time.Hour}, 8, 0)
	cases := []struct {
		name   string
		reason string
		w      workload.Workload
		o      provider.Offer
	}{
		{"service on reserved", "fixed per node held, no variable use", steps("svc", 32), reserved("r", "20", 8, 0)},
		{"service on pro-rata", "variable per node-hour", steps("svc", 32), onDemand("od", "30", 8, 0)},
		{"service on hourly", "whole-hour runs: billing rounding in the stretch", steps("svc", 32), hourly},
		{"service on owned", "capital, power, facility, maintenance", steps("svc", 32), owned("own", 8)},
		{"job on pro-rata", "work at the speed factor", batch("job", 8, 5000, 0), onDemand("od", "30", 8, 0)},
		{"job on reserved", "gang of one node", batch("job", 8, 5000, 0), reserved("r", "20", 8, 0)},
		{"job on spot", "preemptions stretch billed time", batch("job", 8, 5000, 0), spot("s", "12", 8, 0, 0.01)},
		{"service on failing spot", "preemptions and failures stretch billed time", restarting(steps("svc", 32)), failing(spot("s", "12", 8, 0, 0.02))},
		{"job on failing on-demand", "failures and recovery stretch billed time", batch("job", 8, 5000, 0), failing(onDemand("od", "30", 8, 0))},
		{"job on 24-hour minimum", "a short commitment: a fraction of a node held", batch("job", 8, 500, 0), daily},
		{"service on 24-hour minimum", "levels held or run by the day", steps("svc", 32), daily},
		{"job on weekly increment", "a short commitment in weekly increments", batch("job", 16, 5000, 0), weekly},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := tco.Assumptions{Horizon: provider.Year, DiscountRatePerYear: 0.08}
			p := placement.Problem{Workloads: []workload.Workload{c.w}, Offers: []provider.Offer{c.o}, Assumptions: a}
			plan, err := placement.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Assignments) != 1 || len(plan.Assignments[0].Uses) != 1 {
				t.Fatalf("plan %+v: want one workload on one offer", plan.Assignments)
			}
			a.Step = time.Hour
			rep, err := tco.Evaluate(c.w, c.o, a)
			if err != nil {
				t.Fatal(err)
			}
			checkClose(t, "plan total vs Evaluate", plan.Total, rep.Total, 1e-9)
			checkClose(t, "plan present value vs Evaluate", plan.PresentValue, rep.PresentValue, 1e-6)
			// tco.Terms fold the stretch of billed time (preemptions,
			// failures, a slower fabric) into the variable compute line; the
			// plan splits it out as Evaluate reports it.
			checkClose(t, "plan hidden vs Evaluate", plan.Hidden, rep.Hidden, 1e-9)
			if al := plan.Assignments[0].Alone; al == nil || !al.Total.Equal(rep.Total) {
				t.Errorf("Assignment.Alone = %v, want Evaluate's report", al)
			}
			if plan.Status != placement.Optimal {
				t.Errorf("status %v, want optimal", plan.Status)
			}
		})
	}
}

// restarting is w taking 10 minutes to restart after an interruption.
func restarting(w workload.Workload) workload.Workload {
	w.Interruption.RestartTime = 10 * time.Minute
	return w
}

// failing is o with a node failure every 500 hours, 2 hours to recover.
func failing(o provider.Offer) provider.Offer {
	o.Hidden.NodeMTBF, o.Hidden.RecoveryTime = 500*time.Hour, 2*time.Hour
	return o
}

// checkClose fails unless got and want agree within rel relative (of
// max(1, |want|)).
func checkClose(t *testing.T, what string, got, want decimal.Decimal, rel float64) {
	t.Helper()
	d, _ := got.Sub(want).Abs().Float64()
	w, _ := want.Abs().Float64()
	if d > rel*max(1, w) {
		t.Errorf("%s: got %s, want %s (diff %g, %g relative)", what, got.StringFixed(6), want.StringFixed(6), d, d/max(1, w))
	}
}
