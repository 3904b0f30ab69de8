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

// TestReview6ShortServiceAloneAndRunnersUp: with Assumptions.Horizon zero
// (the plan's horizon the longest workload's, a year), a 6-month constant
// 8-GPU service on pro-rata on-demand at 4 per node-hour costs 17 520 in
// the plan — review 5's fix — and tco.Evaluate alone says 17 520 too. But
// its Assignment.Alone ("tco.Evaluate of the workload alone on its
// offer") reports 35 040, a year, and its runner-up on the same offer at 5
// per node-hour has Total 43 800 and Delta 26 280, where tco.Evaluate
// alone gives 21 900, a delta of 4 380: both are priced by the workload's
// tco.Prepared, prepared with the plan's horizon rather than the
// service's own. Severity: medium (the report's alone and runner-up
// figures, and the deltas a user compares, off by the ratio of the
// horizons).
func TestReview6ShortServiceAloneAndRunnersUp(t *testing.T) {
	short := rvStepService("short", 8, provider.Year/2, workload.Step{Start: 0, Value: 1})
	long := rvStepService("long", 8, provider.Year, workload.Step{Start: 0, Value: 1})
	od, od2 := onDemand("od", "4", 8, 0), onDemand("od2", "5", 8, 0)
	a := bare()
	a.Horizon = 0
	p := placement.Problem{Workloads: []workload.Workload{short, long}, Offers: []provider.Offer{od, od2}, Assumptions: a,
		Options: placement.Options{Period: 24 * time.Hour, Slices: 4}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	s := plan.Assignments[0]
	alone, err := tco.Evaluate(short, od, a)
	if err != nil {
		t.Fatal(err)
	}
	ru, err := tco.Evaluate(short, od2, a)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "short's cost", s.Cost, alone.Total, 1e-9) // holds since review 5
	if s.Alone == nil {
		t.Fatal("Assignment.Alone is nil for a service on one offer")
	}
	checkClose(t, "Assignment.Alone.Total vs tco.Evaluate", s.Alone.Total, alone.Total, 1e-9)
	if len(s.RunnersUp) == 0 || s.RunnersUp[0].Offer != "od2" {
		t.Fatalf("runners-up %+v, want od2", s.RunnersUp)
	}
	checkClose(t, "runner-up Total vs tco.Evaluate", s.RunnersUp[0].Total, ru.Total, 1e-9)
	checkClose(t, "runner-up Delta", s.RunnersUp[0].Delta, ru.Total.Sub(s.Cost), 1e-9)
}
