package placement_test

import (
	"bytes"
	"context"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestProbeCutOffProvesOptimal is rapid's seed 16090449157117741537 of
// TestGangsShare, minimised: three gangs (16 GPUs for 2 days, 8 for 9.75,
// 8 to 32 for 40 days at 24) on a monthly reservation of 4 nodes of 8
// GPUs at 10 per node-hour and 1 on-demand node at 60, over a year. Root
// probing cuts off the sides of a node count where no plan beats the
// first plan (2 reserved nodes all year, 2 × 8760 h × 10 = 175 200, cbc's
// optimum), and the branch-and-bound of what is left finds it infeasible:
// that proves the plan optimal. Solve had kept the relaxation's bound
// (96 960) and returned the plan Feasible with a 45 % gap, no limit set.
// The reservation's term is now a year: the model is the one the monthly
// reservation had when a commitment held to the epoch's end (the same rows
// and columns), and that probe is what it checks. With the monthly term a
// commitment may now be one month (the cut one term after the epoch
// start): 2 nodes for the first month, for g0, and 1 for the other 11, for
// g1 and g2 in turn: 2 × 730 × 10 + 11 × 730 × 10 = 94 900, cbc's optimum
// on the exported model.
func TestProbeCutOffProvesOptimal(t *testing.T) {
	for _, c := range []struct {
		term time.Duration
		want string
	}{{provider.Year, "175200"}, {provider.Month, "94900"}} {
		g2 := pretrain("g2", 24, 40, 193*day)
		g2.GangSizes = workload.GangSizes{MinGPUs: 8, MaxGPUs: 32}
		p := placement.Problem{
			Workloads: []workload.Workload{pretrain("g0", 16, 2, 33*day), pretrain("g1", 8, 9.75, 71*day), g2},
			Offers: []provider.Offer{fabric(onDemand("od", "60", 8, 1)),
				fabric(node("res", provider.Reserved{Term: c.term, RecurringPerHour: dec("10")}, 8, 4))},
			Assumptions: bare(),
			Options:     placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 1}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if len(plan.Unplaced) > 0 {
			t.Fatalf("term %v: unplaced %v", c.term, plan.Unplaced[0].Err)
		}
		want := dec(c.want)
		if plan.Status != placement.Optimal || !plan.Bound.Equal(plan.Total) || !plan.Total.Equal(want) {
			t.Fatalf("term %v: status %v, total %s, bound %s; want optimal at %s", c.term, plan.Status, plan.Total, plan.Bound, want)
		}
		if c.term == provider.Month {
			var buf bytes.Buffer
			if err := placement.WriteMPS(&buf, p); err != nil {
				t.Fatal(err)
			}
			if got, w := cbcObjective(t, cbcPath(t), buf.Bytes()), f64(want); math.Abs(got-w) > 1e-6*w {
				t.Errorf("term %v: cbc on the exported model %.4f, want %s", c.term, got, c.want)
			}
		}
	}
}
