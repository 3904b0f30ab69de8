package placement_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestReview7PeakValueAtFullStock: Assignment.PeakGPUValue is "what one
// more GPU of a service's peak demand would cost". A steady 4-GPU service
// over a year, a 1-year reservation of 1-GPU nodes at 1.2 per node-hour
// with a stock of exactly 4 nodes, and on-demand at 2: the plan reserves
// the 4 nodes (42 048). One more GPU of peak can only come from on-demand:
// the re-solve with 5 GPUs costs 59 568, +17 520 (2 × 8 760). The plan
// reports PeakGPUValue 10 512 — the saving of one GPU fewer (1.2 × 8 760),
// the other end of the degenerate dual interval — on the merit-order path
// and on the LP path (MaxSpotShare 0.5), over one period and over time
// alike. Demand that exactly fills a capped offer is the usual outcome of
// sizing a reservation, so the value understated by 40 % is the common
// case, not a corner. Expected: 17 520 (or the interval, or the document
// saying it may be the saving of one GPU fewer). Severity: medium (wrong
// report).
func TestReview7PeakValueAtFullStock(t *testing.T) {
	solve := func(t *testing.T, gpus int, overTime bool, share float64) placement.Plan {
		w := steady("svc", gpus, 1)
		w.Horizon = provider.Year
		p := placement.Problem{Workloads: []workload.Workload{w},
			Offers:      []provider.Offer{reserved("res", "1.2", 1, 4), onDemand("od", "2", 1, 0)},
			Assumptions: bare(), Options: placement.Options{OverTime: overTime, Period: 24 * time.Hour, Slices: 2, MaxSpotShare: share}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return plan
	}
	for _, overTime := range []bool{false, true} {
		for _, share := range []float64{0, 0.5} {
			t.Run(fmt.Sprintf("overTime=%v,share=%v", overTime, share), func(t *testing.T) {
				a, more := solve(t, 4, overTime, share), solve(t, 5, overTime, share)
				want := more.Total.Sub(a.Total)
				if got := a.Assignments[0].PeakGPUValue; !got.Equal(want) {
					t.Errorf("PeakGPUValue %s, one more GPU costs %s (re-solve: %s → %s)", got, want, a.Total, more.Total)
				}
			})
		}
	}
}

// TestReview7StockValueFromRelaxation: Plan.Stock is "what one more node of
// stock would save (from the LP duals)", StockValue "a rate, exact for
// small changes"; the README says of examples/hybrid's stock lines "what
// one more node of each would save". A steady 12-GPU service over a year,
// a 1-year reservation of 8-GPU nodes at 6.8 per node-hour (0.85 per
// GPU-hour), a capped on-demand offer "cap" of 1-GPU nodes at 0.7 with a
// stock of 2, and unlimited on-demand at 1.2. The plan (optimal, 92 856):
// 1 reserved node, 2 GPUs of cap, 2 GPUs of on-demand. One more node of
// cap replaces a GPU of on-demand: the re-solve costs 88 476, a saving of
// 4 380 = (1.2 − 0.7) × 8 760. Plan.Stock says 1 314 = (0.85 − 0.7) ×
// 8 760: the dual of the LP relaxation, whose fractional 1.25 reserved
// nodes make the marginal GPU a reserved one; the integer plan's marginal
// GPU is on-demand. Same on the merit-order path, on the LP path
// (MaxSpotShare 0.5) and over time. On examples/hybrid -years 3 (re-solved
// with MaxNodes + 1, the example's own problem) the printed values are
// 6 386 / 10 855 / 9 377 / 8 452 for runpod-a100-80gb-secure /
// runpod-l40s / vast-a100-80gb / vast-a100-80gb-monthly, the re-solves
// save 0 / 4 490 / 3 052 / 2 205. Expected: the saving of the plan (e.g.
// the duals of the LP with the plan's integers fixed, or a re-solve), or
// the documents saying it is the relaxation's. Severity: medium (a wrong
// report, off by 3.3× here and by any factor in the example).
func TestReview7StockValueFromRelaxation(t *testing.T) {
	solve := func(t *testing.T, stock int, overTime bool, share float64) placement.Plan {
		w := steady("svc", 12, 1)
		w.Horizon = provider.Year
		p := placement.Problem{Workloads: []workload.Workload{w},
			Offers:      []provider.Offer{reserved("res", "6.8", 8, 0), onDemand("cap", "0.7", 1, stock), onDemand("od", "1.2", 1, 0)},
			Assumptions: bare(), Options: placement.Options{OverTime: overTime, Period: 24 * time.Hour, Slices: 2, MaxSpotShare: share}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return plan
	}
	for _, overTime := range []bool{false, true} {
		for _, share := range []float64{0, 0.5} {
			t.Run(fmt.Sprintf("overTime=%v,share=%v", overTime, share), func(t *testing.T) {
				a, more := solve(t, 2, overTime, share), solve(t, 3, overTime, share)
				want := a.Total.Sub(more.Total)
				if len(a.Stock) != 1 || a.Stock[0].Offer != "cap" {
					t.Fatalf("stock values %+v, want cap's", a.Stock)
				}
				checkClose(t, "one more node of cap: Plan.Stock vs re-solve", a.Stock[0].SavingPerNode, want, 1e-9)
			})
		}
	}
}
