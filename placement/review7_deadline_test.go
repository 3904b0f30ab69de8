package placement_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// TestReview7DeadlineInsideSlice: ErrDeadline is "a job that cannot do its
// work before its deadline even at its full width on its fastest offer".
// A checkpointed job of 1 600 reference GPU-hours, 16 GPUs wide, due at
// 100 h, alone on an unlimited on-demand offer of 16-GPU nodes, over 30
// days, with a day of 4 six-hour slices (as examples/hybrid's -slice 6h):
// tco.Evaluate alone finishes it at exactly 100 h (DeadlineMet, 200 at 2
// per node-hour), but Solve leaves it unplaced, "cannot finish before the
// deadline: 1600 reference GPU-hours of work, at most 1536 by the deadline
// (100h0m0s) at 16 GPUs": r_jt counts only the slices that end by the
// deadline, so the 4 h of the slice [96 h, 102 h) before it are lost.
// With hourly slices the same happens to a deadline inside an hour (work
// 8 × 48.25 GPU-hours on 8 GPUs, due at 48 h 30 min: tco finishes at
// 48 h 15 min). Same with and without OverTime. Expected: placed (the
// part of a cut occurrence before the deadline counts, as the horizon's
// cut does), or the error not claiming the job cannot finish. Severity:
// medium (a feasible job reported unplaced with a false reason; the
// plan's cost omits it).
func TestReview7DeadlineInsideSlice(t *testing.T) {
	cases := []struct {
		name     string
		gpus     int
		work     float64
		deadline time.Duration
		slices   int
	}{
		{"6-hour slices", 16, 1600, 100 * time.Hour, 4},
		{"hourly slices", 8, 8 * 48.25, 48*time.Hour + 30*time.Minute, 24},
	}
	for _, c := range cases {
		for _, overTime := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s,overTime=%v", c.name, overTime), func(t *testing.T) {
				job := batch("job", c.gpus, c.work, c.deadline)
				od := onDemand("od", "2", c.gpus, 0)
				a := bare()
				a.Horizon = 30 * 24 * time.Hour
				a.Step = time.Hour
				r, err := tco.Evaluate(job, od, a)
				if err != nil || !r.DeadlineMet {
					t.Fatalf("oracle: tco.Evaluate alone: finish %v, met %v, err %v", r.Finish, r.DeadlineMet, err)
				}
				plan, err := placement.Solve(context.Background(), placement.Problem{Workloads: []workload.Workload{job},
					Offers: []provider.Offer{od}, Assumptions: a,
					Options: placement.Options{Period: 24 * time.Hour, Slices: c.slices, OverTime: overTime}})
				if err != nil {
					t.Fatal(err)
				}
				if len(plan.Unplaced) > 0 {
					t.Errorf("unplaced: %v; tco.Evaluate alone finishes at %v, by the deadline %v (total %s)", plan.Unplaced[0].Err, r.Finish, c.deadline, r.Total)
				}
			})
		}
	}
}
