package placement_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// TestProgress checks the callback: it is called, its bound never exceeds
// its incumbent, and the last report matches the plan.
func TestProgress(t *testing.T) {
	p := portfolio(3, 3, 2, 6, 24*time.Hour, false)
	var got []placement.Progress
	p.Options.Progress = func(pr placement.Progress) { got = append(got, pr) }
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("progress never reported")
	}
	for _, pr := range got {
		if pr.Bound > pr.Incumbent*(1+1e-9)+1e-6 || pr.Pools != plan.Stats.Pools || pr.Pool < 1 {
			t.Errorf("progress %+v", pr)
		}
	}
	last := got[len(got)-1]
	if total := f64(plan.Total); math.Abs(last.Incumbent-total) > 1e-6*total {
		t.Errorf("last incumbent %g, plan total %g", last.Incumbent, total)
	}
}

// TestCancelled: a cancelled context ends Solve with the context's error
// and no claim of optimality.
func TestCancelled(t *testing.T) {
	p := portfolio(3, 3, 2, 6, 24*time.Hour, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	plan, err := placement.Solve(ctx, p)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if plan.Status == placement.Optimal {
		t.Errorf("cancelled plan claims optimality")
	}
}

// TestUnplaced: partial success is a result — a workload no offer can take
// is listed with the constraint that excluded every offer, the others are
// placed.
func TestUnplaced(t *testing.T) {
	eu := steps("eu", 8)
	eu.Requirements.Jurisdictions = []string{"EU"}
	big := steps("big", 8)
	big.Requirements.MinMemoryGiB = 141
	late := batch("late", 8, 1e6, 7*24*time.Hour)
	p := placement.Problem{Workloads: []workload.Workload{steps("ok", 8), eu, big, late},
		Offers:      []provider.Offer{onDemand("od", "4", 8, 0), reserved("res", "2", 8, 0)},
		Assumptions: bare()}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Assignments) != 1 || plan.Assignments[0].Workload != "ok" {
		t.Errorf("assignments %+v, want only ok", plan.Assignments)
	}
	want := map[string]error{"eu": tco.ErrIncompatible, "big": tco.ErrIncompatible, "late": placement.ErrDeadline}
	if len(plan.Unplaced) != len(want) {
		t.Fatalf("unplaced %+v, want %d", plan.Unplaced, len(want))
	}
	for _, u := range plan.Unplaced {
		var ue *placement.UnplacedError
		if !errors.As(u.Err, &ue) || !errors.Is(u.Err, want[u.Workload]) || !errors.Is(u.Err, placement.ErrNoOffer) {
			t.Errorf("%s: %v, want an UnplacedError wrapping %v", u.Workload, u.Err, want[u.Workload])
		}
		if u.Workload != "late" && (!ue.Common || ue.Check != tco.CheckRequirements) {
			t.Errorf("%s: common check %v %v, want requirements", u.Workload, ue.Common, ue.Check)
		}
	}
}

// TestInvalid: bad options are errors naming the field.
func TestInvalid(t *testing.T) {
	base := placement.Problem{Workloads: []workload.Workload{steps("s", 8)}, Offers: []provider.Offer{onDemand("od", "4", 8, 0)}, Assumptions: bare()}
	cases := []struct {
		name string
		edit func(*placement.Problem)
	}{
		{"no workloads", func(p *placement.Problem) { p.Workloads = nil }},
		{"negative period", func(p *placement.Problem) { p.Options.Period = -time.Hour }},
		{"period beyond horizon", func(p *placement.Problem) { p.Options.Period = 2 * provider.Year }},
		{"spot share NaN", func(p *placement.Problem) { p.Options.MaxSpotShare = math.NaN() }},
		{"gap 1", func(p *placement.Problem) { p.Options.Gap = 1 }},
		{"too many slices", func(p *placement.Problem) { p.Options.Slices = placement.MaxSlices + 1 }},
		{"utilization", func(p *placement.Problem) { p.Assumptions.Utilization = 0.5 }},
		{"duplicate workload", func(p *placement.Problem) { p.Workloads = append(p.Workloads, p.Workloads[0]) }},
		{"unknown solver", func(p *placement.Problem) { p.Options.Solver = 9 }},
	}
	for _, c := range cases {
		p := base
		p.Options = base.Options
		p.Workloads = append([]workload.Workload(nil), base.Workloads...)
		c.edit(&p)
		if _, err := placement.Solve(context.Background(), p); !errors.Is(err, placement.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", c.name, err)
		}
	}
}

// TestBudget: a budget below the optimum is infeasible; at the optimum it
// is met.
func TestBudget(t *testing.T) {
	p := portfolio(9, 2, 1, 4, 24*time.Hour, true)
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	p.Options.Budget = plan.Total.Mul(money(0.99))
	if _, err := placement.Solve(context.Background(), p); !errors.Is(err, placement.ErrInfeasible) {
		t.Errorf("budget below the optimum: err = %v, want ErrInfeasible", err)
	}
	p.Options.Budget = plan.Total.Mul(money(1.001))
	capped, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if capped.Total.GreaterThan(p.Options.Budget) {
		t.Errorf("total %s above the budget %s", capped.Total, p.Options.Budget)
	}
}

// TestSpotShare: the spot share limits each workload's spot GPU-hours.
func TestSpotShare(t *testing.T) {
	w := steps("svc", 8)
	p := placement.Problem{Workloads: []workload.Workload{w},
		Offers:      []provider.Offer{spot("spot", "1", 8, 0, 0), onDemand("od", "4", 8, 0)},
		Assumptions: bare(), Options: placement.Options{Period: workload.Day, MaxSpotShare: 0.3}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	var spotH, all float64
	for _, u := range plan.Assignments[0].Uses {
		all += u.GPUHours
		if u.Tier == placement.Spot {
			spotH += u.GPUHours
		}
	}
	if spotH > 0.3*all*(1+1e-9) || spotH < 0.3*all*(1-1e-6) {
		t.Errorf("spot %g of %g GPU-hours, want 30 %% (binding)", spotH, all)
	}
}
