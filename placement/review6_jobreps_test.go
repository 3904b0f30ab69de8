package placement_test

import (
	"context"
	"testing"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// TestReview6JobPartialPeriod: a job's slice weights cap the repetitions
// of each slice at R = horizon/period, fractional when the horizon is not
// whole periods: r_jt = min(R, ⌊(D − s_t − Δ_t)/P⌋ + 1). Over a 10-day
// horizon of a weekly period (R = 10/7), the slices of Monday to
// Wednesday occur twice before the end but weigh 1.43, Thursday to
// Sunday once and weigh 1: the job can place 8.29 days of work in 10
// days. A checkpointed job 8 GPUs wide with 1 824 reference GPU-hours
// (228 h at full width) on unlimited on-demand fits: tco.Evaluate finishes
// it at 228 h (DeadlineMet, total 1 824). Solve leaves it unplaced:
// "cannot finish within the horizon: 1824 reference GPU-hours of work, at
// most 1590.86 by the horizon (240h0m0s) at 8 GPUs" — 8 GPUs × 240 h is
// 1 920. With or without OverTime. A year of a weekly period loses a day
// of each job's capacity the same way (52.14 weeks weigh 364.14 days), and
// a deadline at the horizon or past it caps the same. Severity: high (a
// feasible job refused, with wrong numbers in its error; costs and valleys
// of committed capacity skewed towards the period's first days).
func TestReview6JobPartialPeriod(t *testing.T) {
	job := batch("job", 8, 8*24*9.5, 0)
	od := onDemand("od", "8", 8, 0)
	a := bare()
	a.Horizon = 10 * day
	for _, overTime := range []bool{false, true} {
		opts := placement.Options{Period: 7 * day, Slices: 7, OverTime: overTime}
		if overTime {
			opts.Epoch = 10 * day
		}
		p := placement.Problem{Workloads: []workload.Workload{job}, Offers: []provider.Offer{od}, Assumptions: a, Options: opts}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		b := a
		b.Step = day
		r, err := tco.Evaluate(job, od, b)
		if err != nil || !r.DeadlineMet {
			t.Fatalf("tco.Evaluate: %v, deadline met %v; the case is wrong", err, r.DeadlineMet)
		}
		if len(plan.Unplaced) > 0 {
			t.Errorf("over time %v: job unplaced: %v; tco.Evaluate finishes it at %v within the 240 h horizon", overTime, plan.Unplaced[0].Err, r.Finish)
			continue
		}
		checkClose(t, "job's cost vs tco.Evaluate", plan.Assignments[0].Cost, r.Total, 1e-9)
	}
}
