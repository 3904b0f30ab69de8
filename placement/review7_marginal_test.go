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
	t.Skip("finding: a service filling a capped reservation (4 of 4 nodes) reports PeakGPUValue 10 512 while one more GPU costs 17 520 (re-solve, on-demand)")
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
