package placement_test

import (
	"context"
	"testing"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// TestReview6RunnersUpRanking: RunnersUp are "the cheapest offers it does
// not use and could run on alone … each priced alone (tco.Evaluate) …
// cheapest first". Over time, a steady 8-GPU service whose delay costs
// 1 000 a day runs on on-demand at 3 per node-hour; of the others, "lead"
// (4 per node-hour, 3 months' lead time) costs tco.Evaluate alone 129 650
// — the delay of its lead time included — and "plain" (4.5, no lead
// time) 43 200. With Options.RunnersUp 1 the plan lists "lead" at 129 650
// (Delta 100 850): runnersUp picks its candidates by the cost of the
// placement's own terms, from which bridgedDelay removed the delay a plan
// over time bridges, and evaluates only the first n of them. Expected:
// "plain", 43 200. With the default 3 the same happens once there are
// more candidates than runners-up. Severity: medium (a wrong alternative
// reported as the best one, its delta overstated fivefold).
func TestReview6RunnersUpRanking(t *testing.T) {
	svc := steady("chat", 8, 1)
	svc.CostOfDelayPerDay = dec("1000")
	a := bare()
	a.Exclude = nil
	a.Horizon = 400 * day
	used := onDemand("used", "3", 8, 0)
	lead := onDemand("lead", "4", 8, 0)
	lead.Availability.LeadTime = 3 * provider.Month
	plain := onDemand("plain", "4.5", 8, 0)
	p := placement.Problem{Workloads: []workload.Workload{svc}, Offers: []provider.Offer{used, lead, plain}, Assumptions: a,
		Options: placement.Options{OverTime: true, Period: day, Slices: 2, RunnersUp: 1}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	as := plan.Assignments[0]
	if len(as.Uses) != 1 || as.Uses[0].Offer != "used" {
		t.Fatalf("chat runs on %+v, want used alone", as.Uses)
	}
	want, err := tco.Evaluate(svc, plain, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(as.RunnersUp) != 1 || as.RunnersUp[0].Offer != "plain" || !as.RunnersUp[0].Total.Equal(want.Total) {
		t.Errorf("runners-up %+v, want plain at %s (tco.Evaluate alone; lead costs more)", as.RunnersUp, want.Total)
	}
}
