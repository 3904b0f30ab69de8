package placement_test

import (
	"bytes"
	"context"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/placement/lp"
)

// TestDiveFirstPlan: on a portfolio whose relaxation rounded up is 9 %
// above its bound, the first plan Solve reports once the relaxation is
// solved (the better of rounding up, the dive and the greedy plan) is
// within 1 % of the bound (the dive's is 0.08 % above it),
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
	// The first plan after the relaxation: the first reported with a
	// bound at least the relaxation's (the greedy plan before it is
	// reported with a weaker one).
	m, err := placement.Model(p)
	if err != nil {
		t.Fatal(err)
	}
	relax := *m
	relax.Integer = nil
	r, err := lp.Solve(context.Background(), &relax, lp.Options{})
	if err != nil || r.Status != lp.Optimal {
		t.Fatalf("relaxation: %v %v", r.Status, err)
	}
	first := math.Inf(1)
	p.Options.Progress = func(pr placement.Progress) {
		if math.IsInf(first, 1) && !math.IsInf(pr.Incumbent, 1) && pr.Bound >= r.Objective-1e-9*math.Abs(r.Objective) {
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
