package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestReview5GangPeakGPUs: a gang of 24 GPUs that runs 10 days on
// on-demand capacity (Assignment.Gang: 24 GPUs on 3 nodes) uses 24 GPUs at
// once. Use.PeakGPUs says 24, but EpochUse.PeakGPUs ("the most GPUs in
// one slice") and Commitment.PeakGPUs ("the most GPUs used in one slice by
// all its workloads") say 7.9 — the run's 5 760 GPU-hours spread over the
// 730 hours of its monthly stretch —, so the plan's offer table (String's
// PEAK GPUS column, the JSON) shows a third of the capacity the run needs
// at once.
func TestReview5GangPeakGPUs(t *testing.T) {
	a := bare()
	a.Horizon = 100 * 24 * time.Hour
	p := placement.Problem{Workloads: []workload.Workload{pretrain("g", 24, 10, 60*24*time.Hour)},
		Offers:      []provider.Offer{fabric(onDemand("od", "40", 8, 0))},
		Assumptions: a, Options: placement.Options{OverTime: true, Epoch: provider.Month, Period: 24 * time.Hour, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	g := plan.Assignments[0].Gang
	if g == nil || g.GPUs != 24 {
		t.Fatalf("gang run %+v, want 24 GPUs", g)
	}
	want := float64(g.GPUs)
	for _, u := range plan.Assignments[0].Uses {
		if u.PeakGPUs < want-1e-9 {
			t.Errorf("Use.PeakGPUs on %s = %g, the run uses %g GPUs at once", u.Offer, u.PeakGPUs, want)
		}
	}
	peak := 0.0
	for _, e := range plan.Epochs {
		for _, u := range e.Uses {
			peak = max(peak, u.PeakGPUs)
		}
	}
	if peak < want-1e-9 {
		t.Errorf("the largest EpochUse.PeakGPUs is %g, the run uses %g GPUs at once", peak, want)
	}
	for _, c := range plan.Commitments {
		if c.PeakGPUs < want-1e-9 {
			t.Errorf("Commitment.PeakGPUs of %s = %g, the run uses %g GPUs at once", c.Offer, c.PeakGPUs, want)
		}
	}
}
