package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestReview7GangCannotBorrowServiceNodes: issue 12, "Its GPUs occupy
// committed capacity while it runs; on committed capacity it is scheduled
// in a window where that capacity is free of other demand"; the package
// doc calls the gang model "exact … for services whose period a run
// covers". Over a year in one yearly epoch: one reserved 8-GPU node (stock
// 1, 8 per node-hour, 70 080 a year) holds a steady 4-GPU service; a
// 10-day, 8-GPU gang due by day 100 can run on it only if the service
// moves to on-demand (100 per node-hour, 12.5 per GPU-hour) for the 10
// days of the run: 4 × 240 × 12.5 = 12 000. Total 82 080 — and Solve finds
// exactly that with 10-day epochs (the same one reservation for the year,
// the service on on-demand in days 0–10). With the yearly epoch Solve
// puts the gang on on-demand for 24 000 and says 94 080, "optimal", bound
// 94 080: the service's use is one representative period for the whole
// stretch, so the gang's holding excludes it from the node all year. A
// run of 10 days covers the 1-day period, so the doc's exactness claim
// applies and fails. Expected: 82 080 (or the doc naming this as given
// up, and the status not "optimal" for the problem). Severity: high (a
// plan 14.6 % dearer reported as proven optimal).
func TestReview7GangCannotBorrowServiceNodes(t *testing.T) {
	t.Skip("finding: a gang cannot take a reserved node from a service for its 10-day run in a yearly stretch: 94 080 'optimal', 82 080 with 10-day epochs (same reservation)")
	day := 24 * time.Hour
	solve := func(epoch time.Duration) placement.Plan {
		a := bare()
		a.Horizon = 365 * day
		svc := steady("svc", 4, 1)
		svc.Horizon = a.Horizon
		p := placement.Problem{Workloads: []workload.Workload{pretrain("gang", 8, 10, 100*day), svc},
			Offers:      []provider.Offer{fabric(reserved("res", "8", 8, 1)), fabric(onDemand("od", "100", 8, 0))},
			Assumptions: a, Options: placement.Options{OverTime: true, Epoch: epoch, Period: day, Slices: 2}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return plan
	}
	fine, yearly := solve(10*day), solve(provider.Year)
	if d := fine.Total.Sub(dec("82080")).Abs(); d.GreaterThan(dec("0.01")) {
		t.Fatalf("oracle: with 10-day epochs %s, want 82 080", fine.Total)
	}
	if yearly.Total.Sub(fine.Total).GreaterThan(dec("0.01")) {
		t.Errorf("yearly epoch: %s (%v, bound %s), gang on %s; the same reservation with the service off it for the run costs %s",
			yearly.Total, yearly.Status, yearly.Bound, yearly.Assignments[0].Gang.Offer, fine.Total)
	}
}
