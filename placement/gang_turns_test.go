package placement_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"pgregory.net/rapid"
)

// turnsProblem is n 64-GPU, 10-day gangs due by due on one on-demand offer
// (50 per node-hour) of 8 nodes' stock, over a year of yearly epochs: one
// gang at a time fits.
func turnsProblem(n int, due time.Duration) placement.Problem {
	var ws []workload.Workload
	for i := range n {
		ws = append(ws, pretrain(fmt.Sprintf("g%d", i), 64, 10, due))
	}
	a := bare()
	return placement.Problem{Workloads: ws, Offers: []provider.Offer{fabric(onDemand("od", "50", 8, 8))}, Assumptions: a,
		Options: placement.Options{OverTime: true, Period: day, Slices: 4}}
}

// TestGangsTakeTurns: gangs that cannot run together on 8 nodes of stock
// run one after the other within a yearly epoch, each at 8 × 240 × 50 =
// 96 000, starting on the grid (a twelfth of the year, 730 h); those that
// cannot fit by their deadline are in Plan.Unplaced with ErrStock and the
// rest are planned. Three due by day 100 start at days 0, 30.4 and 60.8;
// a fourth would finish at day 101.25, so one of four is left out; of two
// due by day 15 only one fits, and of a 10-day and a 12-day one the plan
// of least cost keeps the shorter.
func TestGangsTakeTurns(t *testing.T) {
	for _, c := range []struct {
		n, placed int
		due       time.Duration
	}{{3, 3, 100 * day}, {4, 3, 100 * day}, {2, 1, 15 * day}} {
		p := turnsProblem(c.n, c.due)
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("%d gangs due %v: %v", c.n, c.due, err)
		}
		if len(plan.Assignments) != c.placed || len(plan.Unplaced) != c.n-c.placed {
			t.Fatalf("%d gangs due %v: %d placed, %d unplaced; want %d placed", c.n, c.due, len(plan.Assignments), len(plan.Unplaced), c.placed)
		}
		for _, u := range plan.Unplaced {
			if !errors.Is(u.Err, placement.ErrStock) {
				t.Errorf("%s unplaced with %v, want ErrStock", u.Workload, u.Err)
			}
		}
		if want := dec(fmt.Sprint(96000 * c.placed)); !plan.Total.Equal(want) || plan.Status != placement.Optimal {
			t.Errorf("%d gangs due %v: total %s (%v), want %s", c.n, c.due, plan.Total, plan.Status, want)
		}
		checkTurns(t, p, plan)
	}
	// Of two ways to leave one gang out, the plan of least cost: the
	// 12-day run (115 200) goes, the 10-day one (96 000) stays.
	p := turnsProblem(1, 15*day)
	p.Workloads = append([]workload.Workload{pretrain("long", 64, 12, 15*day)}, p.Workloads...)
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Unplaced) != 1 || plan.Unplaced[0].Workload != "long" || !plan.Total.Equal(dec("96000")) {
		t.Errorf("unplaced %v, total %s; want long unplaced and 96000", plan.Unplaced, plan.Total)
	}
}

// reporter is what checkTurns reports through: a *testing.T or a *rapid.T.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// checkTurns checks that at every moment a gang run starts, the gangs
// running then on an offer with a stock, or on committed capacity, fit with
// the other workloads' busiest slice of that stretch: within the stock, or
// within the nodes the plan holds in the stretch; and that every gang
// finishes by its deadline.
func checkTurns(t reporter, p placement.Problem, plan placement.Plan) {
	t.Helper()
	offers := map[string]provider.Offer{}
	for _, o := range p.Offers {
		offers[o.ID] = o
	}
	due := map[string]time.Duration{}
	for _, w := range p.Workloads {
		due[w.Name] = w.Deadline
	}
	type run struct {
		name string
		g    placement.GangRun
	}
	var runs []run
	for _, a := range plan.Assignments {
		if a.Gang != nil {
			runs = append(runs, run{a.Workload, *a.Gang})
			if d := due[a.Workload]; d > 0 && a.Gang.Finish > d {
				t.Errorf("%s finishes at %v, due %v", a.Workload, a.Gang.Finish, d)
			}
		}
	}
	T := plan.Slices
	for _, r := range runs {
		o := offers[r.g.Offer]
		m := r.g.Start
		s := -1
		for i, e := range plan.Epochs {
			if e.Start <= m && m < e.End {
				s = i
			}
		}
		if s < 0 {
			t.Fatalf("%s starts at %v, in no stretch", r.name, m)
		}
		gpus := 0.0
		for _, x := range runs {
			if x.g.Offer == r.g.Offer && x.g.Start <= m && m < x.g.Finish {
				gpus += float64(x.g.Nodes * o.GPUsPerNode)
			}
		}
		other := 0.0
		for _, a := range plan.Assignments {
			if a.Gang != nil {
				continue
			}
			for _, u := range a.Uses {
				if u.Offer != r.g.Offer {
					continue
				}
				for i := range T {
					other = max(other, u.GPUs[s*T+i])
				}
			}
		}
		limit := math.Inf(1)
		if o.Availability.MaxNodes > 0 {
			limit = float64(o.Availability.MaxNodes * o.GPUsPerNode)
		}
		if _, committed := o.Pricing.(provider.Reserved); committed {
			held := 0
			for _, h := range plan.Epochs[s].Held {
				if h.Offer == o.ID {
					held += h.Nodes
				}
			}
			limit = min(limit, float64(held*o.GPUsPerNode))
		}
		if gpus+other > limit+1e-6 {
			t.Errorf("at %v on %s: gangs hold %g GPUs and the rest uses up to %g, %g available", m, o.ID, gpus, other, limit)
		}
	}
}

// TestGangTurnsCBC: random problems over a year of yearly or quarterly
// epochs where gangs may take turns within a stretch — a service and two to
// four gangs (some with ranges of sizes) on a stock-limited on-demand
// offer, a stock-limited monthly reservation and a dear unlimited on-demand
// offer that every gang can fall back on. Solve's total equals cbc's
// optimum of the exported MPS within 1e-6 relative, and the plan's runs
// fit at every moment (checkTurns).
func TestGangTurnsCBC(t *testing.T) {
	bin := cbcPath(t)
	n := 10
	if testing.Short() {
		n = 3
	}
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 12))
		a := bare()
		svc := steady("svc", 8*(1+r.IntN(2)), 1)
		svc.Horizon = a.Horizon
		ws := []workload.Workload{svc}
		for i := range 2 + r.IntN(3) {
			days := 3 + 30*r.Float64()
			g := pretrain(fmt.Sprintf("g%d", i), 8*(1+r.IntN(4)), days, time.Duration(days*24+float64(r.IntN(200))*24)*time.Hour+day)
			if r.IntN(2) == 0 {
				g.GangSizes = workload.GangSizes{MinGPUs: 8, MaxGPUs: 32}
			}
			ws = append(ws, g)
		}
		p := placement.Problem{Workloads: ws, Assumptions: a,
			Offers: []provider.Offer{fabric(onDemand("od", fmt.Sprintf("%.2f", 30+10*r.Float64()), 8, 3+r.IntN(4))),
				fabric(monthly("res", fmt.Sprintf("%.2f", 14+8*r.Float64()), 8, 2+r.IntN(5))), fabric(onDemand("big", "90", 8, 0))},
			Options: placement.Options{OverTime: true, Period: day, Slices: 2, Gap: 1e-9}}
		if seed%2 == 1 {
			p.Options.Epoch = 3 * provider.Month
		}
		var buf bytes.Buffer
		if err := placement.WriteMPS(&buf, p); err != nil {
			t.Fatal(err)
		}
		want := cbcObjective(t, bin, buf.Bytes())
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(plan.Unplaced) > 0 {
			t.Fatalf("seed %d: unplaced %v", seed, plan.Unplaced[0].Err)
		}
		got, _ := plan.Total.Float64()
		if d := math.Abs(got - want); d > 1e-6*max(1, math.Abs(want)) {
			t.Errorf("seed %d: Solve total %.6f, cbc %.6f\n%v", seed, got, want, plan)
		}
		checkTurns(t, p, plan)
	}
}

// propGangsShare: two or three gangs on stock-limited offers (no unlimited
// one), over a year of yearly epochs: Solve never fails for the portfolio;
// every gang is placed, finishing by its deadline with the runs fitting
// the stock at every moment (checkTurns), or unplaced with ErrDeadline or
// ErrStock; and one unplaced with ErrStock has no run on the grid (every
// size, offer and moment) that fits beside the placed runs — leaving it
// out was needed.
func propGangsShare(t *rapid.T) {
	a := bare()
	offers := []provider.Offer{fabric(onDemand("od", fmt.Sprintf("%.2f", rapid.Float64Range(20, 60).Draw(t, "od rate")), 8, rapid.IntRange(1, 6).Draw(t, "od stock")))}
	if rapid.Bool().Draw(t, "reserved") {
		offers = append(offers, fabric(monthly("res", fmt.Sprintf("%.2f", rapid.Float64Range(10, 30).Draw(t, "res rate")), 8, rapid.IntRange(1, 6).Draw(t, "res stock"))))
	}
	var ws []workload.Workload
	for i := range rapid.IntRange(2, 3).Draw(t, "gangs") {
		l := fmt.Sprintf("gang %d ", i)
		g := pretrain(fmt.Sprintf("g%d", i), 8*rapid.IntRange(1, 4).Draw(t, l+"nodes"), rapid.Float64Range(2, 40).Draw(t, l+"days"),
			time.Duration(rapid.IntRange(5, 200).Draw(t, l+"deadline days"))*day)
		if rapid.Bool().Draw(t, l+"range") {
			g.GangSizes = workload.GangSizes{MinGPUs: 8, MaxGPUs: 32}
		}
		ws = append(ws, g)
	}
	p := placement.Problem{Workloads: ws, Offers: offers, Assumptions: a,
		Options: placement.Options{OverTime: true, Period: day, Slices: 1}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if plan.Status != placement.Optimal {
		t.Fatalf("status %v", plan.Status)
	}
	var placed []placement.GangRun
	for _, as := range plan.Assignments {
		g := as.Gang
		if g == nil {
			t.Fatalf("%s placed without a run", as.Workload)
		}
		placed = append(placed, *g)
	}
	if len(plan.Assignments)+len(plan.Unplaced) != len(ws) {
		t.Fatalf("%d placed, %d unplaced of %d", len(plan.Assignments), len(plan.Unplaced), len(ws))
	}
	checkTurns(t, p, plan)
	for _, u := range plan.Unplaced {
		if !errors.Is(u.Err, placement.ErrStock) {
			if !errors.Is(u.Err, placement.ErrDeadline) {
				t.Fatalf("%s unplaced with %v", u.Workload, u.Err)
			}
			continue
		}
		var w workload.Workload
		for _, x := range ws {
			if x.Name == u.Workload {
				w = x
			}
		}
		lo, hi := w.GangSizes.Sizes(w.GPUs)
		for _, o := range offers {
			for g := lo; g <= hi; g++ {
				if g%o.GPUsPerNode != 0 && g != w.GPUs {
					continue
				}
				wg := w
				wg.GPUs = g
				free := o
				free.Availability.MaxNodes = 0
				rep, err := tco.Evaluate(wg, free, a)
				if err != nil {
					t.Fatal(err)
				}
				nodes := (g + o.GPUsPerNode - 1) / o.GPUsPerNode
				for _, start := range bruteStarts(p, o.LeadTime()) {
					finish := start + rep.Finish - o.LeadTime()
					if finish > w.Deadline {
						break
					}
					fits := nodes <= o.Availability.MaxNodes
					for _, m := range append([]time.Duration{start}, startsOf(placed)...) {
						if m < start || m >= finish {
							continue
						}
						n := nodes
						for _, x := range placed {
							if x.Offer == o.ID && x.Start <= m && m < x.Finish {
								n += x.Nodes
							}
						}
						fits = fits && n <= o.Availability.MaxNodes
					}
					if fits {
						t.Fatalf("%s left out, but %d GPUs on %s from %v to %v fit beside %+v", w.Name, g, o.ID, start, finish, placed)
					}
				}
			}
		}
	}
}

// startsOf returns the runs' starts.
func startsOf(runs []placement.GangRun) []time.Duration {
	var out []time.Duration
	for _, r := range runs {
		out = append(out, r.Start)
	}
	return out
}

func TestGangsShare(t *testing.T) { checkFew(t, propGangsShare) }

func FuzzGangsShare(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propGangsShare)) }
