package placement_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// rvMixed is a service, a gang and three offers (a reservation, on demand,
// an owned server arriving after 3 months) over a year, yearly epochs.
func rvMixed() placement.Problem {
	return rvProblem(provider.Year, 0, []workload.Workload{steady("svc", 16, 1), pretrain("train", 16, 10, 60*day)},
		fabric(reserved("res", "20", 8, 0)), fabric(onDemand("od", "32", 8, 0)), ownedNode("own", "250000", 8, 3*provider.Month))
}

// TestReviewBadEpochs: epochs shorter than the period, negative, or too
// many are errors naming Options.Epoch and wrapping ErrInvalid.
func TestReviewBadEpochs(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(p *placement.Problem)
	}{
		{"negative", func(p *placement.Problem) { p.Options.Epoch = -time.Hour }},
		{"below the period", func(p *placement.Problem) { p.Options.Epoch = time.Hour }},
		{"1 ns without OverTime", func(p *placement.Problem) { p.Options.Epoch, p.Options.OverTime = 1, false }},
		{"more than MaxEpochs", func(p *placement.Problem) { p.Options.Epoch, p.Assumptions.Horizon = day, 700*day }},
	} {
		p := rvMixed()
		c.f(&p)
		_, err := placement.Solve(context.Background(), p)
		if !errors.Is(err, placement.ErrInvalid) || !strings.Contains(err.Error(), "Options.Epoch") {
			t.Errorf("%s: %v, want ErrInvalid naming Options.Epoch", c.name, err)
		}
	}
}

// TestReviewExtremeTimes: extreme lead times, deadlines and stretches give
// plans, never panics: a lead time of the horizon excludes the offer; an
// unbounded one too; a stretch of one second before the epoch's end; a
// deadline of 1 ns leaves the gang unplaced with ErrDeadline.
func TestReviewExtremeTimes(t *testing.T) {
	for _, c := range []struct {
		name   string
		f      func(p *placement.Problem)
		unused string
	}{
		{"owned lead = horizon", func(p *placement.Problem) { p.Offers[2] = ownedNode("own", "250000", 8, provider.Year) }, "own"},
		{"unbounded lead", func(p *placement.Problem) { p.Offers[1].Availability.LeadTime = math.MaxInt64 }, "od"},
		{"lead a second short of the year", func(p *placement.Problem) { p.Offers[0].Availability.LeadTime = provider.Year - time.Second }, ""},
		{"lead 1 ns", func(p *placement.Problem) { p.Offers[0].Availability.LeadTime = 1 }, ""},
		{"deadline 1 ns", func(p *placement.Problem) { p.Workloads[1].Deadline = 1 }, ""},
		{"gang of 1..MaxGPUs", func(p *placement.Problem) {
			p.Workloads[1].GangSizes = workload.GangSizes{MinGPUs: 1, MaxGPUs: workload.MaxGPUs}
		}, ""},
		{"partial epoch of an hour", func(p *placement.Problem) { p.Assumptions.Horizon = provider.Year + time.Hour }, ""},
	} {
		p := rvMixed()
		c.f(&p)
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for _, e := range plan.Epochs {
			for _, u := range e.Uses {
				if u.Offer == c.unused {
					t.Errorf("%s: %s used in %v–%v", c.name, u.Offer, e.Start, e.End)
				}
			}
		}
		if c.name == "deadline 1 ns" && (len(plan.Unplaced) != 1 || !errors.Is(plan.Unplaced[0].Err, placement.ErrDeadline)) {
			t.Errorf("%s: unplaced %v, want the gang with ErrDeadline", c.name, plan.Unplaced)
		}
	}
}

// TestReviewHorizonOverflow is a finding: a horizon within an epoch of
// the largest time.Duration (here math.MaxInt64, ~292 years) overflows the
// epoch loop of settings.segments (t += epoch wraps negative, so t < h
// never fails): Solve appends cuts until the process runs out of memory
// ("fatal error: out of memory", not recoverable). The MaxEpochs check,
// (horizon+epoch−1)/epoch, overflows too, and tco's MaxHorizon (100 years,
// which rejects 101 years or MaxInt64 − half a year in a millisecond) is
// checked only after the stretches are built. The same with
// Assumptions.Horizon 0 and a workload's Horizon of math.MaxInt64.
// Expected: ErrInvalid.
func TestReviewHorizonOverflow(t *testing.T) {
	p := rvMixed()
	p.Assumptions.Horizon = math.MaxInt64
	if _, err := placement.Solve(context.Background(), p); !errors.Is(err, placement.ErrInvalid) {
		t.Errorf("%v, want ErrInvalid", err)
	}
	p = rvMixed()
	p.Assumptions.Horizon = 0
	for i := range p.Workloads {
		p.Workloads[i].Horizon = math.MaxInt64
	}
	if _, err := placement.Solve(context.Background(), p); !errors.Is(err, placement.ErrInvalid) {
		t.Errorf("workload horizon: %v, want ErrInvalid", err)
	}
}

// TestReviewLeadTimeUnplaced: a service whose only offer is owned servers
// arriving after 3, 12 or 13 months of a 1-year horizon is unplaced with
// ErrLeadTime (demand from day 0 that nothing serves; an offer that arrives
// at or after the horizon's end), and the plan is empty, not an error.
func TestReviewLeadTimeUnplaced(t *testing.T) {
	for _, months := range []time.Duration{3, 12, 13} {
		w := steady("svc", 8, 1)
		w.Horizon = provider.Year
		plan, err := placement.Solve(context.Background(),
			rvProblem(provider.Year, 0, []workload.Workload{w}, ownedNode("own", "250000", 8, months*provider.Month)))
		if err != nil {
			t.Fatalf("lead %d months: %v", months, err)
		}
		if len(plan.Unplaced) != 1 || !errors.Is(plan.Unplaced[0].Err, placement.ErrLeadTime) || !plan.Total.IsZero() {
			t.Errorf("lead %d months: unplaced %v, total %s; want the service unplaced with ErrLeadTime", months, plan.Unplaced, plan.Total)
		}
	}
}
