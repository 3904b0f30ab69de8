package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestReview7PaidTailOverStock: invariant 10, "capacities and stock
// respected". A monthly rental "mon" of 8-GPU nodes at 8 per node-hour
// with a stock of 1 node, on-demand at 100, and an offer never used
// (1 000 per node-hour) whose 20-day lead time cuts the yearly epoch at
// day 20; a checkpointed job of 4 800 reference GPU-hours on 8 GPUs due in
// 30 days, over a year. One month of the one node (days 0–30.42, 5 840)
// does it. The plan (proven "optimal", 11 680) rents the node from day 0
// — Held says to day 30.42, paid — uses it only to day 20 (the stretch it
// covers), and rents a node again from day 20 to 50.42: from day 20 to
// 30.42 it holds two nodes of an offer whose stock is one (its own Held
// shows both), and Commitment.Nodes, "the most held at once", says 1. The
// hold_ rows count a commitment only in the stretches it covers, not in
// the tail it pays for. Same cut as TestReview7OfferWithLeadTimeRaisesOptimum,
// a second consequence: the plan is infeasible and costs twice the
// optimum. Expected: at no moment more commitments held (Start ≤ t < End)
// than the stock, and 5 840. Severity: high (an infeasible plan).
func TestReview7PaidTailOverStock(t *testing.T) {
	day := 24 * time.Hour
	a := bare()
	a.Horizon = 365 * day
	far := onDemand("far", "1000", 8, 0)
	far.Availability.LeadTime = 20 * day
	p := placement.Problem{Workloads: []workload.Workload{batch("job", 8, 8*24*25, 30*day)},
		Offers: []provider.Offer{monthly("mon", "8", 8, 1), onDemand("od", "100", 8, 0), far}, Assumptions: a,
		Options: placement.Options{OverTime: true, Period: day, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range plan.Commitments {
		if c.Offer != "mon" {
			continue
		}
		for _, h := range c.Held {
			at := 0
			for _, o := range c.Held {
				if o.Start <= h.Start && h.Start < o.End {
					at += o.Nodes
				}
			}
			if at > 1 {
				t.Errorf("at day %.2f the plan holds %d nodes of mon (stock 1; Nodes reports %d): %+v", h.Start.Hours()/24, at, c.Nodes, c.Held)
			}
		}
	}
	if plan.Total.GreaterThan(dec("5840")) {
		t.Errorf("total %s (%v), one month of the one node costs 5 840", plan.Total, plan.Status)
	}
}
