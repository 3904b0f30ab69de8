package lp_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gputco/gputco/placement/lp"
)

// TestReview8CancelledBeforeGCDProof: Solve with a context cancelled
// before the call, on the bounded parity MILP of TestReview3ParityBounded
// (−x0 − 3·x1 + 2·x2 = 0.5, all integer), returns Status Infeasible and a
// nil error. Expected (the Solver contract: an error "when ctx ends (the
// context's error, with Status Cancelled …)"; Solve's doc for LPs: "A
// cancelled ctx ends the solve with Status Cancelled and ctx's error"):
// Cancelled with context.Canceled, as Solve returns for the same ctx on
// every MILP that reaches the search (checked on 300 random MILPs: only
// those proved infeasible before the search — seeds 30, 41, 109 — answer
// Infeasible) and as the no-column LP path checks explicitly. The
// infeasibility proof is right; the ctx is just not looked at before it.
// Severity: low (a correct answer where a cancellation was asked for).
func TestReview8CancelledBeforeGCDProof(t *testing.T) {
	t.Skip("finding: Solve with an already cancelled ctx returns Infeasible and a nil error on the parity MILP (the gcd proof runs before ctx is checked)")
	p := parityMILP(t, 1000, []float64{0, -2, -1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := lp.Solve(ctx, p, lp.Options{})
	if res.Status != lp.Cancelled || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: status %v, error %v; want Cancelled and context.Canceled", res.Status, err)
	}
}
