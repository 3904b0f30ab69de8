package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
)

// TestTimeLimitFromStart: Options.TimeLimit counts from the call to Solve,
// as Stats.Elapsed does, and a limit that preparing the costs uses up
// still returns the first pool's first plan, with no error.
func TestTimeLimitFromStart(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    placement.Problem
	}{
		{"portfolio", realistic(t, 1, 12, 10, 24)},
		{"one pool", onePool(t, 1, 48, 10)},
	} {
		p := tc.p
		p.Options.TimeLimit = time.Nanosecond
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if plan.Status == placement.NoPlan || !plan.Total.IsPositive() {
			t.Fatalf("%s: status %v, total %s: no first plan", tc.name, plan.Status, plan.Total)
		}
		if plan.Bound.GreaterThan(plan.Total) {
			t.Errorf("%s: bound %s above the plan's total %s", tc.name, plan.Bound, plan.Total)
		}
		t.Logf("%s: %v, gap %.4g, %v", tc.name, plan.Status, plan.Gap, plan.Stats.Elapsed)
	}
}
