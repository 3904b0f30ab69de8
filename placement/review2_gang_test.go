package placement_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// solveGang solves one gang job alone on offers over time.
func solveGang(t *testing.T, w workload.Workload, offers []provider.Offer, horizon time.Duration) placement.Plan {
	t.Helper()
	a := bare()
	a.Horizon = horizon
	p := placement.Problem{Workloads: []workload.Workload{w}, Offers: offers, Assumptions: a,
		Options: placement.Options{OverTime: true, Epoch: provider.Month, Period: 24 * time.Hour, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestReview2GangPartialNodeSize: a gang with a range of sizes 8..12 on
// nodes of 8 GPUs. 8 GPUs take 30 days, 12 GPUs (two nodes) 20 days; the
// deadline is day 25. Only 12 GPUs meet it (oracle: the same job with GPUs
// = 12 and no range is placed, finishing on day 20). The whole-node grid
// (gangSizes: nhi = hi/gpn = 1) never tries a size on 2 nodes, so the gang
// is reported unplaced (ErrDeadline) though a size within its range meets
// the deadline.
//
// Numbers: 12 GPUs alone: finish 480h, total 38400; range 8..12: unplaced,
// "the gang finishes at 720h0m0s at the earliest (on od), deadline 600h".
func TestReview2GangPartialNodeSize(t *testing.T) {
	day := 24 * time.Hour
	offers := []provider.Offer{fabric(onDemand("od", "40", 8, 0))}
	fixed := pretrain("job", 12, 20, 25*day) // 12 GPUs × 20 days of work
	plan := solveGang(t, fixed, offers, 60*day)
	if len(plan.Unplaced) > 0 || plan.Assignments[0].Gang == nil {
		t.Fatalf("oracle: 12 GPUs alone unplaced: %+v", plan.Unplaced)
	}
	t.Logf("oracle: 12 GPUs: finish %v, total %v", plan.Assignments[0].Gang.Finish, plan.Total)
	ranged := fixed
	ranged.GPUs = 8
	ranged.GangSizes = workload.GangSizes{MinGPUs: 8, MaxGPUs: 12}
	plan = solveGang(t, ranged, offers, 60*day)
	if len(plan.Unplaced) > 0 {
		t.Fatalf("range 8..12 unplaced: %v; 12 GPUs (in the range) finish by the deadline", plan.Unplaced[0].Err)
	}
	if g := plan.Assignments[0].Gang; g == nil || g.GPUs != 12 {
		t.Fatalf("gang %+v, want 12 GPUs", g)
	}
}

// TestReview2GangSubNodeRange: a range 2..4 on nodes of 8 GPUs (nominal 3):
// every size holds one node, and 4 GPUs finish soonest at the least cost
// (node-hours = work/(speed·GPUs)·1 node). gangSizes returns the nominal 3
// alone (nhi = 4/8 = 0 < nlo = 1), dearer than the oracle with GPUs = 4.
//
// Numbers: range 2..4 runs 3 GPUs on 1 node for 320h, total 12800; 4 GPUs
// alone: 240h, total 9600 (33 % dearer).
func TestReview2GangSubNodeRange(t *testing.T) {
	day := 24 * time.Hour
	offers := []provider.Offer{fabric(onDemand("od", "40", 8, 0))}
	w := pretrain("job", 4, 10, 40*day)
	plan4 := solveGang(t, w, offers, 60*day)
	w.GPUs = 3
	w.GangSizes = workload.GangSizes{MinGPUs: 2, MaxGPUs: 4}
	plan := solveGang(t, w, offers, 60*day)
	if len(plan.Unplaced) > 0 || len(plan4.Unplaced) > 0 {
		t.Fatalf("unplaced: %+v %+v", plan.Unplaced, plan4.Unplaced)
	}
	t.Logf("range 2..4: gang %+v total %v; oracle 4 GPUs: total %v", plan.Assignments[0].Gang, plan.Total, plan4.Total)
	if plan.Total.GreaterThan(plan4.Total) {
		t.Fatalf("range 2..4 costs %v, more than 4 GPUs alone (%v), a size within the range", plan.Total, plan4.Total)
	}
}

// TestReview2GangSizeBruteForce: a gang with a range of sizes (4..12, both
// ends whole nodes of every offer) costs what the cheapest of its sizes
// costs alone, each solved as a job of that many GPUs without a range
// (brute force over the sizes), on an unlimited on-demand offer of single
// GPUs and a limited reservation of 2-GPU nodes, at deadlines from loose
// to tight.
func TestReview2GangSizeBruteForce(t *testing.T) {
	day := 24 * time.Hour
	offers := []provider.Offer{fabric(onDemand("od1", "5", 1, 0)), fabric(reserved("res2", "3", 2, 4)), fabric(monthly("mon4", "4", 4, 2)), fabric(monthly("mon8", "9", 8, 1))}
	for _, deadline := range []time.Duration{55 * day, 30 * day, 12 * day} {
		w := pretrain("job", 8, 10, deadline) // 80 GPU-days of work
		best, bestG := -1.0, 0
		for g := 4; g <= 12; g++ {
			wg := w
			wg.GPUs = g
			wg.WorkGPUHours = w.WorkGPUHours
			plan := solveGang(t, wg, offers, 60*day)
			if len(plan.Unplaced) > 0 {
				continue
			}
			if v := f64(plan.Total); best < 0 || v < best {
				best, bestG = v, g
			}
		}
		w.GangSizes = workload.GangSizes{MinGPUs: 4, MaxGPUs: 12}
		plan := solveGang(t, w, offers, 60*day)
		if best < 0 {
			if len(plan.Unplaced) == 0 {
				t.Errorf("deadline %v: no size fits alone, the range is placed: %+v", deadline, plan.Assignments[0].Gang)
			}
			continue
		}
		if len(plan.Unplaced) > 0 {
			t.Errorf("deadline %v: unplaced %v; %d GPUs alone cost %g", deadline, plan.Unplaced[0].Err, bestG, best)
			continue
		}
		got := f64(plan.Total)
		t.Logf("deadline %v: range %g (%+v); brute force %d GPUs %g", deadline, got, plan.Assignments[0].Gang, bestG, best)
		if math.Abs(got-best) > 1e-6*max(1, best) {
			t.Errorf("deadline %v: range costs %g, the best size alone (%d GPUs) %g", deadline, got, bestG, best)
		}
	}
}

// TestReview2GangWideRange: a range of 8..1024 GPUs on 8-GPU monthly
// nodes (128 node counts) keeps maxGangSizes = 64 evenly spaced counts, 1,
// 3, 5, … (and the nominal 1): 2 nodes are not among them. The job needs
// 16 GPUs (2 nodes, 20 days) to meet its deadline of day 25; 8 GPUs take 40
// days. Oracle: GPUs = 16 without a range, 2 nodes for a month.
//
// Numbers: the range runs 24 GPUs on 3 nodes, total 21900; 16 GPUs alone
// 14600 (the range is 50 % dearer). Documented as an approximation
// ("evenly spaced sizes stand for the rest"), but the plan is then not the
// least-cost size the issue asks for, and the plan claims a proof it does
// not have: Bound 21900, Gap 0.
func TestReview2GangWideRange(t *testing.T) {
	day := 24 * time.Hour
	offers := []provider.Offer{fabric(monthly("mon", "10", 8, 0))}
	w := pretrain("job", 16, 20, 25*day)
	oracle := solveGang(t, w, offers, 60*day)
	if len(oracle.Unplaced) > 0 {
		t.Fatalf("oracle unplaced: %v", oracle.Unplaced[0].Err)
	}
	w.GPUs = 8
	w.GangSizes = workload.GangSizes{MinGPUs: 8, MaxGPUs: 1024}
	plan := solveGang(t, w, offers, 60*day)
	if len(plan.Unplaced) > 0 {
		t.Fatalf("unplaced: %v", plan.Unplaced[0].Err)
	}
	t.Logf("range: %+v total %v; oracle 16 GPUs: %+v total %v", plan.Assignments[0].Gang, plan.Total, oracle.Assignments[0].Gang, oracle.Total)
	if plan.Total.GreaterThan(oracle.Total) {
		t.Fatalf("range costs %v, 16 GPUs alone (in the range) %v", plan.Total, oracle.Total)
	}
}
