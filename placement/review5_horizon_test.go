package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// TestReview5WorkloadHorizon: with Assumptions.Horizon zero the plan's
// horizon is the longest workload horizon, but a service's own Horizon
// ("the period over which the workload is costed, from its start") still
// ends its demand. A 6-month service next to a 1-year one, each a constant
// 8-GPU node on unlimited pro-rata on-demand (pay-as-you-go is additive,
// invariant 7: nothing is shared), must cost in the portfolio what
// tco.Evaluate charges it alone over its own horizon (17 520 = 4 380 h ×
// 4), and the portfolio the sum of the two Evaluate totals. The plan
// charges the short service a whole year (35 040): its demand is met, and
// paid, for six months after it ended.
func TestReview5WorkloadHorizon(t *testing.T) {
	short := rvStepService("short", 8, provider.Year/2, workload.Step{Start: 0, Value: 1})
	long := rvStepService("long", 8, provider.Year, workload.Step{Start: 0, Value: 1})
	od := onDemand("od", "4", 8, 0)
	a := bare()
	a.Horizon = 0 // the longest workload horizon
	for _, overTime := range []bool{false, true} {
		p := placement.Problem{Workloads: []workload.Workload{short, long}, Offers: []provider.Offer{od},
			Assumptions: a, Options: placement.Options{OverTime: overTime, Period: 24 * time.Hour, Slices: 4}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		want := dec("0")
		for i, w := range p.Workloads {
			r, err := tco.Evaluate(w, od, a)
			if err != nil {
				t.Fatal(err)
			}
			want = want.Add(r.Total)
			checkClose(t, "over time "+map[bool]string{false: "off", true: "on"}[overTime]+": "+w.Name+"'s cost vs tco.Evaluate alone",
				plan.Assignments[i].Cost, r.Total, 1e-9)
		}
		checkClose(t, "plan total vs the sum of tco.Evaluate", plan.Total, want, 1e-9)
	}
}
