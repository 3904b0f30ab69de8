package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestReview7SteadyBridgeMonth: issue 12, "growth of demand never lowers
// the optimum". Over a year in one yearly epoch, a service of 7.2 GPUs
// (8 × 0.9) is bridged to an owned server (one 8-GPU node, 40 days' lead
// time) on a monthly rental at 10 per node-hour or on-demand at 20. With a
// steady demand the plan (proven "optimal") costs 49 143.95: the rental
// held two months, days 0–60.83, the server from day 60.83. With the same
// demand growing 1 % a year — more GPUs in every slice — it costs
// 48 378.32: the rental one month (7 300), on-demand for days 30.42–40
// (1 658 GPU-hours, 4 144), the server from day 40. That plan is feasible
// for the steady demand too and costs less there: add to the steady
// service a job of 0.01 GPU-hours (due in 2 days; it costs 0.01) and Solve
// finds it, 48 349.97 for both (7 300 + 230 h × 7.2 × 2.5 = 4 140 + the
// server's 32 529.49 from day 40 + its use lines 4 380.48), so 49 143.95 is
// not the steady optimum: adding a workload lowers the optimum by 794. The one-term cut at 30.42 days that allows a month's
// rental is made only for a workload that "may want part of an epoch" (a
// job, a curve that does not repeat, a horizon that ends early); a steady
// service bridged to an arrival wants exactly that and gets no cut. With a
// 35-day lead time: steady 49 143.95, growing 46 784.01. Severity: high
// (a dearer plan reported as proven optimal).
func TestReview7SteadyBridgeMonth(t *testing.T) {
	day := 24 * time.Hour
	for _, lead := range []time.Duration{35 * day, 40 * day} {
		a := bare()
		a.Horizon = 365 * day
		offers := []provider.Offer{ownedNode("own", "100000", 8, lead), monthly("mon", "10", 8, 0), onDemand("od", "20", 8, 0)}
		solve := func(demand workload.Curve) placement.Plan {
			w := steady("svc", 8, 0.9)
			w.Horizon, w.Demand = a.Horizon, demand
			plan, err := placement.Solve(context.Background(), placement.Problem{Workloads: []workload.Workload{w}, Offers: offers,
				Assumptions: a, Options: placement.Options{OverTime: true, Period: day, Slices: 2}})
			if err != nil {
				t.Fatal(err)
			}
			return plan
		}
		steadyPlan := solve(workload.Constant{Value: 0.9})
		growing := solve(workload.Growth{Base: workload.Constant{Value: 0.9}, RatePerYear: 0.01})
		if growing.Total.LessThan(steadyPlan.Total) {
			t.Errorf("lead time %v: steady demand costs %s (%v), the same demand growing 1 %%/yr %s", lead, steadyPlan.Total, steadyPlan.Status, growing.Total)
		}
		w := steady("svc", 8, 0.9)
		w.Horizon = a.Horizon
		withJob, err := placement.Solve(context.Background(), placement.Problem{Workloads: []workload.Workload{w, batch("tiny", 1, 0.01, 2*day)},
			Offers: offers, Assumptions: a, Options: placement.Options{OverTime: true, Period: day, Slices: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if withJob.Total.LessThan(steadyPlan.Total) {
			t.Errorf("lead time %v: the steady service alone costs %s, with a 0.01 GPU-hour job beside it %s", lead, steadyPlan.Total, withJob.Total)
		}
	}
}
