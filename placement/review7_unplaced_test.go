package placement_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestReview7LeadTimeErrorTime: over time, a service whose demand starts
// on day 13 (a step from 0 to 8 GPUs), whose only offer has a 14-day lead
// time, is unplaced with ErrLeadTime — rightly — but the error says "8
// GPUs needed from 0s, 0 GPUs exist then on its offers": the start of the
// stretch [0, 14 d) whose peak it is, not day 13 (312 h), when the demand
// begins. A planner reading it looks for demand at time 0 that the curve
// does not have. Expected: the time the demand begins within the stretch
// (312h0m0s), or the stretch named as such. Severity: low (a misleading
// error detail).
func TestReview7LeadTimeErrorTime(t *testing.T) {
	day := 24 * time.Hour
	a := bare()
	w := rvStepService("svc", 8, a.Horizon, workload.Step{Start: 0, Value: 0}, workload.Step{Start: 13 * day, Value: 1})
	od := onDemand("od", "2", 8, 0)
	od.Availability.LeadTime = 14 * day
	plan, err := placement.Solve(context.Background(), placement.Problem{Workloads: []workload.Workload{w},
		Offers: []provider.Offer{od}, Assumptions: a, Options: placement.Options{OverTime: true, Period: day, Slices: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Unplaced) != 1 || !errors.Is(plan.Unplaced[0].Err, placement.ErrLeadTime) {
		t.Fatalf("unplaced %v, want svc with ErrLeadTime", plan.Unplaced)
	}
	if msg := plan.Unplaced[0].Err.Error(); strings.Contains(msg, "from 0s") {
		t.Errorf("%s; the demand begins at 312h0m0s", msg)
	}
}
