package placement_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
)

// TestProgressFirstPlan: on the PortfolioS benchmark portfolio, whose LP
// relaxation takes seconds, the first Progress call (made while the
// relaxation is solved) already counts the greedy first plan — a finite
// incumbent, no less than the bound reported with it — and a proven bound
// above zero (the model's priced bound). The solve is cancelled there.
func TestProgressFirstPlan(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the PortfolioS model")
	}
	p := realistic(t, 1, 50, 40, 168)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var first *placement.Progress
	p.Options.Progress = func(pr placement.Progress) {
		if first == nil {
			first = &pr
			cancel()
		}
	}
	plan, err := placement.Solve(ctx, p)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Solve: %v, want it cancelled from Progress", err)
	}
	if first == nil {
		t.Fatal("no Progress call")
	}
	if math.IsInf(first.Incumbent, 1) || first.Bound <= 0 || first.Bound > first.Incumbent {
		t.Errorf("first Progress: bound %g, incumbent %g: want a first plan and a proven bound below it", first.Bound, first.Incumbent)
	}
	if plan.Status == placement.NoPlan || plan.Stats.FirstPlan <= 0 || plan.Stats.FirstPlan > plan.Stats.Elapsed+time.Nanosecond {
		t.Errorf("cancelled plan: status %v, first plan at %v", plan.Status, plan.Stats.FirstPlan)
	}
}
