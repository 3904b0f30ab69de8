package placement_test

import (
	"context"
	"testing"

	"github.com/gputco/gputco/placement"
)

// TestReview6GangTurnsPeak: three 64-GPU, 10-day gangs take turns on one
// on-demand offer whose stock is 8 nodes (64 GPUs) — one at a time fits,
// and TestGangsTakeTurns checks that they run one after the other (days 0,
// 30.4 and 60.8) — yet the plan reports the offer's Commitment.PeakGPUs
// as 192 ("the most GPUs used in one slice by all its workloads"), three
// times its stock: review 5's fix (build.go, peakOn) counts each gang's
// GPUs in every slice of a stretch its run meets, so gangs that share a
// stretch in turns add up as if they ran at once. Expected: at most 64
// (the stock; at any moment one gang runs). Severity: medium (a plan
// that appears to break its stock limit, in String, JSON and the struct).
func TestReview6GangTurnsPeak(t *testing.T) {
	p := turnsProblem(3, 100*day)
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Assignments) != 3 {
		t.Fatalf("%d gangs placed, want 3", len(plan.Assignments))
	}
	stock := 64.0 // 8 nodes × 8 GPUs
	for _, c := range plan.Commitments {
		if c.PeakGPUs > stock {
			t.Errorf("commitment %s: PeakGPUs %g, above its stock of %g GPUs (gangs run one at a time)", c.Offer, c.PeakGPUs, stock)
		}
	}
}
