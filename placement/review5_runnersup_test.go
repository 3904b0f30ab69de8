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

// TestReview5RunnerUpMissesDeadline: RunnersUp are "the cheapest offers it
// does not use and could run on alone". A 512-GPU, 30-day gang due by day
// 60, over time on a 400-day horizon: on-demand at 40 per node-hour now,
// or at 20 on an offer whose capacity takes 45 days to provision. On the
// cheap one the run finishes on day 75 — tco.Evaluate says so itself
// (DeadlineMet false) and the plan has no run there — yet it is listed as
// the gang's runner-up, 921 600 cheaper than the plan: a buyer reads that
// the plan left half its cost on the table. An offer on which the
// workload misses its deadline alone is no runner-up.
func TestReview5RunnerUpMissesDeadline(t *testing.T) {
	late := fabric(onDemand("late", "20", 8, 0))
	late.Availability.LeadTime = 45 * 24 * time.Hour
	offers := []provider.Offer{fabric(onDemand("od", "40", 8, 0)), late}
	a := bare()
	a.Horizon = 400 * 24 * time.Hour
	w := pretrain("pretrain", 512, 30, 60*24*time.Hour)
	p := placement.Problem{Workloads: []workload.Workload{w}, Offers: offers, Assumptions: a,
		Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Assignments) != 1 || plan.Assignments[0].Gang == nil || plan.Assignments[0].Gang.Offer != "od" {
		t.Fatalf("the gang should run on od: %v", plan)
	}
	byID := map[string]provider.Offer{}
	for _, o := range offers {
		byID[o.ID] = o
	}
	for _, r := range plan.Assignments[0].RunnersUp {
		rep, err := tco.Evaluate(w, byID[r.Offer], a)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.DeadlineMet {
			t.Errorf("runner-up %s (delta %s): tco.Evaluate finishes it at %v, after its deadline %v", r.Offer, r.Delta, rep.Finish, rep.Deadline)
		}
	}
}
