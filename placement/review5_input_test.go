package placement_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// TestReview5NegativeMaxNodes: an offer with Availability.MaxNodes = -1 is
// invalid (provider.Offer.Validate: "negative value", and tco.Evaluate
// refuses it). Solve takes it as unlimited stock and commits 8 nodes of
// it: a malformed catalog entry becomes the plan's cheapest unlimited
// capacity. The plan must not use it (an error, or the offer excluded with
// the workload on the valid one).
func TestReview5NegativeMaxNodes(t *testing.T) {
	bad := reserved("res", "1.5", 1, -1)
	w := steps("svc", 8)
	if bad.Validate() == nil {
		t.Fatal("provider accepts MaxNodes = -1: the premise is gone")
	}
	if _, err := tco.Evaluate(w, bad, bare()); err == nil {
		t.Fatal("tco.Evaluate accepts MaxNodes = -1: the premise is gone")
	}
	p := placement.Problem{Workloads: []workload.Workload{w}, Offers: []provider.Offer{bad, onDemand("od", "4", 1, 0)},
		Assumptions: bare(), Options: placement.Options{Period: 24 * time.Hour}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		return // refused: fine
	}
	for _, c := range plan.Commitments {
		if c.Offer == "res" {
			t.Errorf("the invalid offer is used: %d nodes, cost %s (total %s)", c.Nodes, c.Cost, plan.Total)
		}
	}
}

// TestReview5NegativeHorizon: Problem.Assumptions.Horizon "zero means the
// longest workload horizon"; a negative one is invalid (tco.Assumptions
// refuses it: "negative"), but Solve takes it as zero and plans a year.
func TestReview5NegativeHorizon(t *testing.T) {
	a := bare()
	a.Horizon = -time.Hour
	if err := a.Validate(); err == nil {
		t.Fatal("tco accepts a negative horizon: the premise is gone")
	}
	p := placement.Problem{Workloads: []workload.Workload{steps("svc", 8)}, Offers: []provider.Offer{onDemand("od", "4", 1, 0)},
		Assumptions: a, Options: placement.Options{Period: 24 * time.Hour}}
	plan, err := placement.Solve(context.Background(), p)
	if !errors.Is(err, placement.ErrInvalid) {
		t.Errorf("Solve with Horizon = -1h: err %v (plan over %v, total %s), want ErrInvalid", err, plan.Horizon, plan.Total)
	}
}
