package placement_test

import (
	"bytes"
	"context"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
)

// TestDiveFirstPlan: on a portfolio whose relaxation rounded up is 9 %
// above its bound, the first plan Solve reports (the better of rounding up
// and the dive) is within 1 % of the bound (the dive's is 0.08 % above it),
// and the plan is within that gap of cbc's optimum and not below it (at
// cbc's feasibility tolerance).
func TestDiveFirstPlan(t *testing.T) {
	bin := cbcPath(t)
	p := portfolio(2, 3, 2, 6, 24*time.Hour, true)
	p.Options.Gap = 0.01
	var buf bytes.Buffer
	if err := placement.WriteMPS(&buf, p); err != nil {
		t.Fatal(err)
	}
	want := cbcObjective(t, bin, buf.Bytes())
	first := math.Inf(1)
	p.Options.Progress = func(pr placement.Progress) {
		if math.IsInf(first, 1) && !math.IsInf(pr.Incumbent, 1) {
			first = pr.Gap
		}
	}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if first > p.Options.Gap {
		t.Errorf("first plan %.4g above its bound, want within %g", first, p.Options.Gap)
	}
	if plan.Status != placement.Optimal {
		t.Errorf("status %v, want optimal", plan.Status)
	}
	if got := f64(plan.Total); got < want*(1-1e-7) || got > want*(1+p.Options.Gap) {
		t.Errorf("total %.6f, cbc's optimum %.6f: outside the 1 %% gap", got, want)
	}
}
