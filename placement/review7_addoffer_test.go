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

// TestReview7OfferWithLeadTimeRaisesOptimum: invariant 10, "adding an offer
// never raises the optimum", over time. A checkpointed job of 4 800
// reference GPU-hours on 8 GPUs (25 days at full width) due in 30 days, over
// a year in one yearly epoch, on a monthly rental of 8-GPU nodes at 8 per
// node-hour (and on-demand at 40): one month of one node, days 0 to 30.42,
// costs 730 × 8 = 5 840 (tco.Evaluate of the job alone on it, over its own
// horizon, says the same), and Solve finds it. Add an offer the plan never
// uses — on-demand at 100 per node-hour with a provisioning lead time of 20
// days — and the optimum becomes 10 640 (+82 %): its arrival cuts the epoch
// at day 20, the month's rental from day 0 now covers only the stretch [0,
// 20) (it pays the whole month, "the rest unused"), and the job's last 960
// GPU-hours go to on-demand for 4 800. With a lead time of 10 days the same
// 10 640 (on-demand for days 0–10, the rental from day 10). The plan of
// 5 840 is feasible in the larger problem (the extra offer unused), so 10 640
// is not its optimum, yet the plan says "optimal" with bound 10 640.
// Issue 12's "more lead time never lowers the optimum" fails for the same
// reason: the extra offer's lead time raised from 20 to 40 days lowers the
// optimum from 10 640 back to 5 840. Severity: high (a wrong, dearer plan
// reported as proven optimal; the stretch cuts of one offer change what
// another's commitments cover).
func TestReview7OfferWithLeadTimeRaisesOptimum(t *testing.T) {
	day := 24 * time.Hour
	a := bare()
	a.Horizon = 365 * day
	job := batch("job", 8, 8*24*25, 30*day)
	mon := monthly("mon", "8", 8, 0)
	base := []provider.Offer{mon, onDemand("od", "40", 8, 0)}
	solve := func(offers []provider.Offer) placement.Plan {
		p := placement.Problem{Workloads: []workload.Workload{job}, Offers: offers, Assumptions: a,
			Options: placement.Options{OverTime: true, Period: day, Slices: 2}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return plan
	}
	own := a
	own.Horizon = 0 // the job's own horizon: the month it holds the rental
	alone, err := tco.Evaluate(job, mon, own)
	if err != nil {
		t.Fatal(err)
	}
	without := solve(base)
	if !without.Total.Equal(alone.Total) {
		t.Fatalf("without the extra offer: %s, tco.Evaluate alone on the rental %s", without.Total, alone.Total)
	}
	for _, lead := range []time.Duration{10 * day, 20 * day} {
		far := onDemand("far", "100", 8, 0)
		far.Availability.LeadTime = lead
		with := solve(append(base, far))
		if with.Total.GreaterThan(without.Total) {
			t.Errorf("lead time %v: the extra offer raises the optimum from %s to %s (status %v, bound %s)", lead, without.Total, with.Total, with.Status, with.Bound)
		}
	}
}
