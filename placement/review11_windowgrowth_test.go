package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestReview11LaterDeadlineMergesGrowth: over time (one yearly epoch, a
// daily period of 2 slices), an 8-GPU service at half load for six months
// and full load after (Steps) may use "lim" (on-demand, 1 per node-hour,
// one 4-GPU node) or "dear" (on-demand, 4 per node-hour, unlimited); a
// 1-GPU job of 1 GPU-hour may use either. lim is of limited stock and
// shared, so the job's deadline is a window (windowDeadlines). Due at
// 4 380 h (six months) the window splits the year where the service
// steps: its first stretch needs 4 GPUs (all on lim) and the optimum is
// 26 281. Due three months later, at 6 570 h, the window sits there
// instead: the stretch [0, 6 570 h) is sampled at its peak, 8 GPUs, so
// the service needs dear all through it (its use priced at the volume):
// 32 850.75, reported optimal. Yet the plan for the earlier deadline is
// feasible for the later one (the job's work is done by 4 380 h). A
// window is a cut for every workload's representative period, not only
// for the job's use, so moving it moves where a growing service is
// sampled: the later deadline merges the step into a coarser stretch.
// (Without the job, one stretch: 32 850; so adding the job due at 4 380 h
// also lowers the optimum by 6 569.) Expected: a later deadline never
// raises the optimum (README invariant; doc.go: windows are placed "so that
// a later deadline ... never makes a job hold what it uses past its
// deadline" — they do not stop it moving the others' stretches).
// Severity: high (a plan reported optimal costing 25 % more than a
// feasible one).
//
// Fixed in part: a window no longer changes what the others need (every
// part of a stretch needs the stretch's peak, in its phase), so both
// deadlines give 32 850 and the job no longer lowers it. What remains is
// 0.12 (4e-6 relative): a service's use of a part weighs the part's own
// volume over the stretch's peak (mean/peak: 1/2 before the step, 2/3 over
// [0, 6 570 h)), so the GPU the job takes from lim in the longer first part
// costs (1 − 1/4) × 1 GPU-hour × (2/3 − 1/2) more. The representative
// period prices a use at its slice's mean; no placement of the window makes
// that monotone short of cuts at every deadline a job might have.
func TestReview11LaterDeadlineMergesGrowth(t *testing.T) {
	t.Skip("finding: a later deadline raises the optimum by 0.12 in 32 850 (the service's use in the job's longer window weighs its mean/peak; was 26 281 → 32 850.75)")
	solve := func(d time.Duration) placement.Plan {
		a := bare()
		svc := rvStepService("svc", 8, a.Horizon, workload.Step{Value: 0.5}, workload.Step{Start: provider.Year / 2, Value: 1})
		p := placement.Problem{Workloads: []workload.Workload{svc, batch("job", 1, 1, d)},
			Offers:      []provider.Offer{onDemand("lim", "1", 4, 1), onDemand("dear", "4", 4, 0)},
			Assumptions: a, Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 2}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if plan.Status != placement.Optimal || len(plan.Unplaced) > 0 {
			t.Fatalf("due %v: status %v, unplaced %v", d, plan.Status, plan.Unplaced)
		}
		return plan
	}
	early, late := solve(provider.Year/2), solve(9*provider.Month)
	t.Logf("due %v: %s; due %v: %s", provider.Year/2, early.Total, 9*provider.Month, late.Total)
	if late.Total.Sub(early.Total).GreaterThan(dec("0.01")) {
		t.Errorf("due three months later the optimum rises from %s to %s", early.Total, late.Total)
	}
}
