package placement_test

import (
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestShortStretchSeesOnlyItsOwnTime was a finding (issue 12's benchmark
// with services that go live once offers can be provisioned): a stretch
// shorter than the period — the bridge before an offer's lead time — was
// sampled over a whole period from its start, so its capacity had to meet
// demand that comes after its end, when only the offers that exist by its
// start may serve it. A one-node service that launches on day 3, its only
// offer on demand at 32 a node-hour with a lead time of 2 days, weekly
// period of daily slices, one yearly epoch: the stretch [0, 2 d) has no
// offer and no demand, and the plan is on demand from day 3 on, 32 ×
// (8 760 − 72) h = 278 016. The plan reported the service unplaced
// (ErrLeadTime: 8 GPUs needed from 0s). With a second offer that exists at
// once, 1 node at 64, the plan is the same (day 3 is after the other's
// arrival); it had been charged that offer for the days past the bridge.
func TestShortStretchSeesOnlyItsOwnTime(t *testing.T) {
	later := onDemand("later", "32", 8, 0)
	later.Availability.LeadTime = 48 * time.Hour
	now := onDemand("now", "64", 8, 1)
	svc := rvStepService("svc", 8, provider.Year, workload.Step{Value: 0}, workload.Step{Start: 72 * time.Hour, Value: 1})
	for _, c := range []struct {
		name   string
		offers []provider.Offer
	}{{"alone", []provider.Offer{later}}, {"with an offer at once", []provider.Offer{now, later}}} {
		t.Run(c.name, func(t *testing.T) {
			p := rvProblem(provider.Year, 0, []workload.Workload{svc}, c.offers...)
			p.Options.Period, p.Options.Slices = 7*day, 7
			rvSolve(t, p, "278016")
		})
	}
}
