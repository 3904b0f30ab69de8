package placement_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// ownedNode is an owned server of gpn H100s bought at purchase, kept five
// years, with a procurement lead time.
func ownedNode(id, purchase string, gpn int, lead time.Duration) provider.Offer {
	return node(id, provider.Owned{PurchasePerNode: dec(purchase), UsefulLifeYears: 5, IdlePowerKW: 2, MaxPowerKW: 6,
		PUE: 1.3, EnergyPerKWh: dec("0.12"), ColocationPerKWMonth: dec("150"), MaintenanceFractionPerYear: 0.05,
		ProcurementLeadTime: lead, Resale: provider.Resale{Points: []provider.ResalePoint{{Age: 5 * provider.Year, Fraction: 0.1}}}}, gpn, 0)
}

// steady is an inference service of gpus GPUs at constant demand.
func steady(name string, gpus int, level float64) workload.Workload {
	return workload.Workload{Name: name, Kind: workload.Inference, GPUs: gpus, Demand: workload.Constant{Value: level},
		Horizon: 400 * 24 * time.Hour, Interruption: workload.Interruption{Tolerance: workload.Stateless}}
}

// TestOverTimeBridge is the fixed case of a 400-day horizon with steady
// inference demand and an owned offer with a 9-month lead time: the plan
// buys servers for the base, arriving after 9 months, and bridges on rented
// capacity until they arrive; no owned capacity is used before then.
func TestOverTimeBridge(t *testing.T) {
	lead := 9 * provider.Month
	a := bare()
	a.Horizon = 400 * 24 * time.Hour
	p := placement.Problem{
		Workloads: []workload.Workload{steady("chat", 32, 1)},
		Offers: []provider.Offer{ownedNode("own", "250000", 8, lead), onDemand("od", "32", 8, 0),
			monthly("month", "24", 8, 0)},
		Assumptions: a, Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 4},
	}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Status != placement.Optimal {
		t.Fatalf("status %v", plan.Status)
	}
	var owned []placement.Held
	for _, c := range plan.Commitments {
		if c.Offer == "own" {
			owned = c.Held
		}
	}
	if len(owned) != 1 || owned[0].Start != lead || owned[0].Order != 0 || owned[0].End != a.Horizon || owned[0].Nodes != 4 {
		t.Fatalf("owned purchases %+v, want 4 nodes ordered at 0, arriving at %v, held to %v\n%v", owned, lead, a.Horizon, plan)
	}
	for _, e := range plan.Epochs {
		bridged := 0.0
		for _, u := range e.Uses {
			if u.Offer == "own" && e.Start < lead {
				t.Errorf("owned capacity used in %v–%v, before it arrives at %v", e.Start, e.End, lead)
			}
			if u.Offer != "own" {
				bridged += u.GPUHours
			}
		}
		if want := 32 * (e.End - e.Start).Hours(); e.End <= lead && bridged < want*(1-1e-9) {
			t.Errorf("%v–%v: %g GPU-hours bridged, want %g", e.Start, e.End, bridged, want)
		}
	}
	// The plan costs what tco.Evaluate says of the monthly rental for the
	// bridge and of the owned servers from their arrival to the end.
	want := decimal.Zero
	for _, leg := range []struct {
		o provider.Offer
		h time.Duration
	}{{p.Offers[2], lead}, {p.Offers[0], a.Horizon - lead}} {
		b := a
		b.Horizon = leg.h
		r, err := tco.Evaluate(p.Workloads[0], leg.o, b)
		if err != nil {
			t.Fatal(err)
		}
		want = want.Add(r.Total)
	}
	if d := plan.Total.Sub(want).Abs(); d.GreaterThan(dec("0.01")) {
		t.Errorf("total %s, tco.Evaluate of the legs %s", plan.Total, want)
	}
}

// monthly is a monthly rental at rate per node-hour.
func monthly(id, rate string, gpn, stock int) provider.Offer {
	return node(id, provider.Reserved{Term: provider.Month, RecurringPerHour: dec(rate)}, gpn, stock)
}

// TestOverTimeOneEpoch is the first oracle of planning over time: with one
// epoch covering the horizon, no lead times and no gangs, the plan is
// exactly the plan of one period repeated — objective, bound, commitments
// and assignments line by line — when no job's deadline cuts the horizon
// (jobs here without deadlines, which use the horizon's end). With them,
// the plan over time cuts the epoch at the deadlines of jobs that share
// capacity (a window: what a job holds goes back to the others after its
// deadline), which the repeated period cannot: it costs no more.
func TestOverTimeOneEpoch(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 4
	}
	for seed := range uint64(n) {
		for _, deadlines := range []bool{false, true} {
			p := portfolio(seed+1, 3, 2, 6, 24*time.Hour, seed%2 == 1)
			if !deadlines {
				p.Workloads = slices.Clone(p.Workloads)
				for i := range p.Workloads {
					p.Workloads[i].Deadline = 0
				}
			}
			want, err := placement.Solve(context.Background(), p)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			p.Options.OverTime = true
			if seed%2 == 1 {
				p.Options.Epoch = 2 * provider.Year // longer than the horizon: one partial epoch
			}
			got, err := placement.Solve(context.Background(), p)
			if err != nil {
				t.Fatalf("seed %d over time: %v", seed, err)
			}
			if len(got.Epochs) != 1 {
				if !deadlines {
					t.Fatalf("seed %d: %d stretches, want 1", seed, len(got.Epochs))
				}
				if got.Status != placement.Optimal || want.Status != placement.Optimal {
					t.Fatalf("seed %d: status %v over time, %v", seed, got.Status, want.Status)
				}
				if got.Total.GreaterThan(want.Total.Add(dec("0.01"))) {
					t.Errorf("seed %d: over time with windows %s, above the repeated period's %s", seed, got.Total, want.Total)
				}
				continue
			}
			got.Epochs, got.Stats, want.Stats = nil, placement.Stats{}, placement.Stats{}
			for i := range got.Commitments {
				h := got.Commitments[i].Held
				if got.Commitments[i].Nodes > 0 && (len(h) != 1 || h[0].Start != 0 || h[0].End != got.Horizon) {
					t.Errorf("seed %d: %s held %+v, want one commitment over the horizon", seed, got.Commitments[i].Offer, h)
				}
				got.Commitments[i].Held = nil
			}
			a, _ := json.Marshal(want)
			b, _ := json.Marshal(got)
			if d := cmp.Diff(string(a), string(b)); d != "" {
				t.Errorf("seed %d (deadlines %v): plans differ (-today +over time):\n%s", seed, deadlines, d)
			}
		}
	}
}

// TestOverTimeCBC checks Solve over time against cbc on the exported model
// of random portfolios with growing demand, a year in quarterly epochs,
// terms of a month to three years, lead times and gang jobs with ranges of
// sizes: equal objectives within 1e-6 relative. The race pass (-short)
// runs seeds 7 (Options.Solver CBC) and 8 (hidden costs): under -race
// Solve takes 0.2 and 0.6 s of CPU on them, 6.4 s on seed 0.
//
// Both solvers must prove optimality to a relative gap of 1e-9, which on a
// few seeds takes minutes (seed 15: about 190 000 nodes in cbc, whose root
// bound after cuts is within 1e-4 of the optimum), so the seeds run as
// parallel subtests and each runs cbc alongside Solve: the test's wall
// time is about half its CPU time on two cores.
func TestOverTimeCBC(t *testing.T) {
	bin := cbcPath(t)
	seeds := make([]uint64, 20)
	for i := range seeds {
		seeds[i] = uint64(i)
	}
	if testing.Short() {
		seeds = []uint64{7, 8}
	}
	n := len(seeds)
	var gangs atomic.Int64
	t.Run("seeds", func(t *testing.T) {
		for _, seed := range seeds {
			t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
				t.Parallel()
				p := timePortfolio(seed+1, 2, 1, 2, 4, 3, provider.Year, 3*provider.Month, seed%2 == 1)
				p.Options.Gap = 1e-9
				if seed%4 == 3 {
					p.Options.Solver = placement.CBC
				}
				var buf bytes.Buffer
				if err := placement.WriteMPS(&buf, p); err != nil {
					t.Fatal(err)
				}
				plan, want := solveBesideCBC(t, bin, buf.Bytes(), p)
				got, _ := plan.Total.Float64()
				if d := math.Abs(got - want); d > 1e-6*max(1, math.Abs(want)) {
					t.Errorf("seed %d: Solve total %.6f, cbc %.6f (%.2g relative)", seed, got, want, d/max(1, math.Abs(want)))
				}
				if b, _ := plan.Bound.Float64(); b > want+1e-7*max(1, math.Abs(want)) {
					t.Errorf("seed %d: bound %.6f above cbc's optimum %.6f", seed, b, want)
				}
				for _, a := range plan.Assignments {
					if a.Gang != nil {
						gangs.Add(1)
					}
				}
				if len(plan.Epochs) < 4 {
					t.Errorf("seed %d: %d stretches, want at least 4 epochs", seed, len(plan.Epochs))
				}
			})
		}
	})
	if g := gangs.Load(); g < int64(n) && !t.Failed() {
		t.Errorf("%d gangs placed in %d problems, want at least %d", g, n, n)
	}
}

// solveBesideCBC returns Solve(p)'s plan and cbc's optimum of the model
// mps, cbc running beside Solve (a goroutine of its own); a failed Solve
// ends the test.
func solveBesideCBC(t *testing.T, bin string, mps []byte, p placement.Problem) (placement.Plan, float64) {
	t.Helper()
	type result struct {
		plan placement.Plan
		err  error
	}
	solved := make(chan result, 1)
	go func() {
		plan, err := placement.Solve(context.Background(), p)
		solved <- result{plan, err}
	}()
	want := cbcObjective(t, bin, mps)
	r := <-solved
	if r.err != nil {
		t.Fatalf("Solve: %v", r.err)
	}
	return r.plan, want
}

// TestOverTimeExitCosts: a workload that moves between offers across
// epochs pays each placement's one-off lines — setup, the transfer in, and
// the exit (its data moved out at the end) — exactly as tco.Evaluate
// prices each leg; when leaving costs more than the move saves, the plan
// stays where it is.
func TestOverTimeExitCosts(t *testing.T) {
	lead := 9 * provider.Month
	a := tco.Assumptions{Horizon: 400 * 24 * time.Hour, Exclude: []provider.Category{provider.Storage, provider.Recovery,
		provider.Preemption, provider.Staff, provider.Fees, provider.Delay, provider.Inefficiency}}
	svc := steady("chat", 32, 1)
	svc.Data.DatasetGB = 2000
	svc.Setup.EngineerHours = 40
	own, month := ownedNode("own", "250000", 8, lead), monthly("month", "24", 8, 0)
	own.Hidden.EgressPerGB, month.Hidden.EgressPerGB = dec("0.05"), dec("0.09")
	p := placement.Problem{Workloads: []workload.Workload{svc}, Offers: []provider.Offer{own, month}, Assumptions: a,
		Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(plan.Assignments[0].Uses); n != 2 {
		t.Fatalf("%d offers used, want the bridge and the owned servers:\n%v", n, plan)
	}
	want, exits := decimal.Zero, 0
	for _, leg := range []struct {
		o provider.Offer
		h time.Duration
	}{{month, lead}, {own, a.Horizon - lead}} {
		b := a
		b.Horizon = leg.h
		r, err := tco.Evaluate(svc, leg.o, b)
		if err != nil {
			t.Fatal(err)
		}
		want = want.Add(r.Total)
	}
	for _, u := range plan.Assignments[0].Uses {
		for _, l := range u.Lines {
			if l.Category == provider.Exit {
				exits++
			}
		}
	}
	if exits != 2 || plan.Total.Sub(want).Abs().GreaterThan(dec("0.01")) {
		t.Errorf("total %s with %d exit lines, want tco.Evaluate's %s of the legs with 2", plan.Total, exits, want)
	}
	// Leaving the owned servers costs more than they save: stay rented.
	own.Hidden.EgressPerGB = dec("200")
	p.Offers[0] = own
	plan, err = placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if u := plan.Assignments[0].Uses; len(u) != 1 || u[0].Offer != "month" {
		t.Errorf("with a dear exit the plan moves anyway: %+v", u)
	}
}

// TestOverTimeRenewAndKeep: a 1-year reservation is renewed for what the
// second year needs and the rest dropped; an owned server bought at the
// start is kept past its one-year depreciation life to the horizon's end,
// priced as tco.Evaluate prices it (salvage value, running costs on).
func TestOverTimeRenewAndKeep(t *testing.T) {
	a := bare()
	a.Horizon = 2 * provider.Year
	drop := workload.Steps{Cycle: 2 * provider.Year, Steps: []workload.Step{{Start: 0, Value: 1}, {Start: provider.Year, Value: 0.25}}}
	svc := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 32, Demand: drop, Horizon: a.Horizon,
		Interruption: workload.Interruption{Tolerance: workload.Stateless}}
	p := placement.Problem{Workloads: []workload.Workload{svc}, Offers: []provider.Offer{reserved("res", "20", 8, 0), onDemand("od", "40", 8, 0)},
		Assumptions: a, Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	var started []int
	for _, e := range plan.Epochs {
		for _, h := range e.Started {
			started = append(started, h.Nodes)
		}
	}
	if len(started) != 2 || started[0] != 4 || started[1] != 1 {
		t.Errorf("reservations started %v, want 4 nodes in year 1 and 1 renewed in year 2\n%v", started, plan)
	}
	// An owned server with a one-year life, kept for 30 months.
	o := ownedNode("own", "120000", 8, 0)
	life := o.Pricing.(provider.Owned)
	life.UsefulLifeYears, life.SalvagePerNode, life.Resale = 1, dec("20000"), provider.Resale{}
	o.Pricing = life
	a.Horizon = 30 * provider.Month
	keep := steady("keep", 8, 1)
	keep.Horizon = a.Horizon
	p = placement.Problem{Workloads: []workload.Workload{keep}, Offers: []provider.Offer{o, onDemand("od", "40", 8, 0)},
		Assumptions: a, Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 2}}
	plan, err = placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := tco.Evaluate(keep, o, a)
	if err != nil {
		t.Fatal(err)
	}
	if c := plan.Commitments; len(c) != 1 || c[0].Offer != "own" || len(c[0].Held) != 1 || c[0].Held[0].End != a.Horizon ||
		plan.Total.Sub(r.Total).Abs().GreaterThan(dec("0.01")) {
		t.Errorf("plan %s, want the owned server kept to %v at tco.Evaluate's %s\n%v", plan.Total, a.Horizon, r.Total, plan)
	}
}

// TestOverTimeInvalid: bad epochs are ErrInvalid errors naming the option;
// an offer whose lead time reaches the horizon's end excludes it with
// ErrLeadTime, and a service with nothing to run on before its offers
// arrive is unplaced with ErrLeadTime.
func TestOverTimeInvalid(t *testing.T) {
	a := bare()
	base := placement.Problem{Workloads: []workload.Workload{steady("s", 8, 1)}, Offers: []provider.Offer{onDemand("od", "4", 8, 0)},
		Assumptions: a, Options: placement.Options{Period: 24 * time.Hour}}
	for _, c := range []struct {
		name  string
		epoch time.Duration
	}{{"negative epoch", -provider.Month}, {"epoch below the period", time.Hour}, {"too many epochs", 10 * time.Minute}} {
		p := base
		p.Options.Epoch = c.epoch
		if c.name == "too many epochs" {
			p.Options.Period, p.Options.Slices = 10*time.Minute, 1
		}
		if _, err := placement.Solve(context.Background(), p); !errors.Is(err, placement.ErrInvalid) || !strings.Contains(err.Error(), "Options.Epoch") {
			t.Errorf("%s: err = %v, want ErrInvalid naming Options.Epoch", c.name, err)
		}
	}
	p := base
	p.Options.OverTime = true
	late := ownedNode("late", "100000", 8, 2*provider.Year)
	p.Offers = []provider.Offer{late}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Unplaced) != 1 || !errors.Is(plan.Unplaced[0].Err, placement.ErrLeadTime) {
		t.Errorf("unplaced %+v, want the service excluded by the lead time", plan.Unplaced)
	}
	p.Offers = []provider.Offer{ownedNode("soon", "100000", 8, provider.Month)}
	plan, err = placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Unplaced) != 1 || !errors.Is(plan.Unplaced[0].Err, placement.ErrLeadTime) {
		t.Errorf("unplaced %+v, want the service unplaced: no capacity in its first month", plan.Unplaced)
	}
}

// TestOverTimeJSON: the plan's JSON carries, per stretch and slice, the
// GPUs by tier and by offer (the chart's data), the tiers adding up to the
// offers, and each commitment's terms held.
func TestOverTimeJSON(t *testing.T) {
	a := bare()
	a.Horizon = 400 * 24 * time.Hour
	p := placement.Problem{
		Workloads:   []workload.Workload{steady("chat", 32, 1)},
		Offers:      []provider.Offer{ownedNode("own", "250000", 8, 9*provider.Month), onDemand("od", "32", 8, 0), monthly("month", "24", 8, 0)},
		Assumptions: a, Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 4},
	}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Epochs []struct {
			Epoch  int    `json:"epoch"`
			Start  string `json:"start"`
			Slices []struct {
				Start             string `json:"start"`
				Base, Burst, Spot float64
				Offers            map[string]float64 `json:"offers"`
			} `json:"slices"`
		} `json:"epochs"`
		Commitments []struct {
			Offer string `json:"offer"`
			Held  []struct {
				Order, Start, End string
				Nodes             int
			} `json:"held"`
		} `json:"commitments"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Epochs) != 3 || j.Epochs[1].Start != (9*provider.Month).String() {
		t.Fatalf("epochs %+v, want 3 stretches, the second from the arrival", j.Epochs)
	}
	for _, e := range j.Epochs {
		if len(e.Slices) != 4 {
			t.Fatalf("stretch %s: %d slices, want 4", e.Start, len(e.Slices))
		}
		for i, sl := range e.Slices {
			sum := 0.0
			for _, v := range sl.Offers {
				sum += v
			}
			if tiers := sl.Base + sl.Burst + sl.Spot; math.Abs(tiers-sum) > 1e-9 || math.Abs(sum-32) > 1e-6 {
				t.Errorf("stretch %s slice %d: tiers %g, offers %g, want 32 both", e.Start, i, tiers, sum)
			}
		}
	}
	found := false
	for _, c := range j.Commitments {
		if c.Offer == "own" {
			found = len(c.Held) == 1 && c.Held[0].Start == (9*provider.Month).String() && c.Held[0].Order == "0s" && c.Held[0].Nodes == 4
		}
	}
	if !found {
		t.Errorf("owned commitment's held terms missing or wrong: %s", b)
	}
}

// TestOverTimePresentValue: a commitment's lines discount from its start —
// the owned servers that arrive after nine months are worth tco's present
// value of their leg, discounted nine months more; the bridge is tco's
// present value of its own leg.
func TestOverTimePresentValue(t *testing.T) {
	lead := 9 * provider.Month
	a := bare()
	a.Horizon = 400 * 24 * time.Hour
	a.DiscountRatePerYear = 0.1
	own := ownedNode("own", "250000", 8, lead)
	flat := own.Pricing.(provider.Owned)
	flat.MaxPowerKW = flat.IdlePowerKW // no variable lines: only the commitments' lines discount
	own.Pricing = flat
	month := monthly("month", "24", 8, 0)
	p := placement.Problem{Workloads: []workload.Workload{steady("chat", 32, 1)}, Offers: []provider.Offer{own, month},
		Assumptions: a, Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	pv := func(o provider.Offer, h time.Duration) float64 {
		b := a
		b.Horizon = h
		r, err := tco.Evaluate(p.Workloads[0], o, b)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := r.PresentValue.Float64()
		return v
	}
	want := pv(month, lead) + math.Pow(1.1, -lead.Hours()/provider.Year.Hours())*pv(own, a.Horizon-lead)
	if got, _ := plan.PresentValue.Float64(); math.Abs(got-want) > 0.05 {
		t.Errorf("present value %.4f, want %.4f\n%v", got, want, plan)
	}
	if !plan.PresentValue.LessThan(plan.Total) {
		t.Errorf("present value %s not below the total %s at 10 %%", plan.PresentValue, plan.Total)
	}
}

// TestTermEndsSplitStretches: a service of one 8-GPU node from day 0 to day
// 14 + 9 months of a year, a monthly rental at 24 a node-hour that arrives
// on day 14, on demand at 32, and an offer arriving at 9 months (never
// worth using) that splits the year there. The rental from day 14 buys the
// 9 months that reach the 9-month arrival and ends on day 14 + 9 months,
// which is a stretch boundary: it covers all it pays for, the 14 days on
// demand before it: 336 h × 32 + 9 × 730 h × 24 = 168 432. Before the term
// ends split stretches it covered only to 9 months and the 14 days after
// went on demand again (179 184), while the rental was paid for them. Its
// first month (the cut one term after the arrival) renewed for the other 8
// is the same capacity at the same cost, and the plan reports it as the
// one commitment (joinTerms).
func TestTermEndsSplitStretches(t *testing.T) {
	Y, M := provider.Year, provider.Month
	end := 14*day + 9*M
	w := rvStepService("svc", 8, Y, workload.Step{Value: 1}, workload.Step{Start: end, Value: 0})
	rent := monthly("month", "24", 8, 0)
	rent.Availability.LeadTime = 14 * day
	late := onDemand("late", "100", 8, 0)
	late.Availability.LeadTime = 9 * M
	plan := rvSolve(t, rvProblem(Y, 0, []workload.Workload{w}, rent, onDemand("od", "32", 8, 0), late), "168432")
	for _, c := range plan.Commitments {
		if c.Offer != "month" {
			continue
		}
		if len(c.Held) != 1 || c.Held[0].Start != 14*day || c.Held[0].End != end || c.Held[0].Nodes != 1 {
			t.Errorf("rental held %+v, want one node from day 14 to %v", c.Held, end)
		}
	}
}
