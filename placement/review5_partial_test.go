package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestReview5PartialRepetitionVolume: over time, "in the partial last
// repetition of P in a longer stretch, a service's slice counts only its
// part before b_σ — nothing for a slice that starts at or after b_σ". A
// service of 8 GPUs on a weekly cycle (weekdays 1, weekends 0.25), 20 days
// in epochs of 10 days with a weekly period: each stretch is a week and 3
// days, and those 3 days are weekdays in the first stretch. Its demand
// over the horizon is 8 · 24 · (2 · 5.5 + 5.25) = 3 120 GPU-hours, 24 960
// at 8 per GPU-hour on unlimited pro-rata on-demand (what the plan gives
// with weekly epochs, where no repetition is partial). With 10-day
// epochs the plan uses and pays 3 017 GPU-hours (24 137): each stretch's
// slices weigh 10/7 of a week whatever part of the week the extra 3 days
// are, so the weekend is counted in days that are weekdays.
func TestReview5PartialRepetitionVolume(t *testing.T) {
	d := 24 * time.Hour
	c := workload.Steps{Cycle: 7 * d, Steps: []workload.Step{{Start: 0, Value: 1}, {Start: 5 * d, Value: 0.25}}}
	w := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 8, Demand: c, Horizon: 20 * d,
		Interruption: workload.Interruption{Tolerance: workload.Stateless}}
	const wantGPUHours = 8 * 24 * (2*5.5 + 5.25)
	for _, epoch := range []time.Duration{7 * d, 10 * d} {
		a := bare()
		a.Horizon = 20 * d
		p := placement.Problem{Workloads: []workload.Workload{w}, Offers: []provider.Offer{onDemand("od", "8", 1, 0)},
			Assumptions: a, Options: placement.Options{Epoch: epoch, Period: 7 * d, Slices: 7 * 4}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got := 0.0
		for _, u := range plan.Assignments[0].Uses {
			got += u.GPUHours
		}
		if d := got - wantGPUHours; d < -1e-6 || d > 1e-6 {
			t.Errorf("epochs of %v: %g GPU-hours used (total %s), the demand is %g (8 per GPU-hour: %g)",
				epoch, got, plan.Total.StringFixed(2), wantGPUHours, 8*wantGPUHours)
		}
	}
}
