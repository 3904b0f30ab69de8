package placement_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// fabric gives an offer an InfiniBand fabric, so that gangs may span its
// nodes.
func fabric(o provider.Offer) provider.Offer {
	o.Interconnect = provider.Interconnect{Fabric: provider.InfiniBand, GbpsPerNode: 3200, NVLink: true}
	return o
}

// pretrain is a gang training run of gpus GPUs for days days at full speed,
// due by deadline.
func pretrain(name string, gpus int, days float64, deadline time.Duration) workload.Workload {
	return workload.Workload{Name: name, Kind: workload.Training, GPUs: gpus, WorkGPUHours: float64(gpus) * days * 24,
		Deadline: deadline, Requirements: workload.Requirements{Interconnect: workload.Interconnect{Fabric: provider.InfiniBand}}}
}

// TestGangLeadTime is the fixed case of a 512-GPU, 30-day pre-training run
// due in 60 days, against a catalog whose owned servers (the cheapest per
// GPU-hour) take 9 months to arrive: the run is never placed on them. In
// a plan of 400 days with a steady inference service next to it, the
// servers are bought for the service's base and the run rents.
func TestGangLeadTime(t *testing.T) {
	lead := 9 * provider.Month
	a := bare()
	a.Horizon = 400 * 24 * time.Hour
	offers := []provider.Offer{fabric(ownedNode("own", "250000", 8, lead)), fabric(onDemand("od", "40", 8, 0)),
		fabric(monthly("month", "28", 8, 0))}
	for _, withService := range []bool{false, true} {
		ws := []workload.Workload{pretrain("pretrain", 512, 30, 60*24*time.Hour)}
		if withService {
			ws = append(ws, steady("chat", 32, 1))
		}
		p := placement.Problem{Workloads: ws, Offers: offers, Assumptions: a,
			Options: placement.Options{OverTime: true, Epoch: provider.Month, Period: 24 * time.Hour, Slices: 2}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if len(plan.Unplaced) > 0 {
			t.Fatalf("unplaced: %v", plan.Unplaced[0].Err)
		}
		g := plan.Assignments[0].Gang
		if g == nil || g.Offer == "own" || g.GPUs != 512 || g.Finish > 60*24*time.Hour || len(plan.Assignments[0].Uses) != 1 {
			t.Fatalf("service %v: gang run %+v, uses %+v; want 512 GPUs on one rented offer, done by day 60", withService, g, plan.Assignments[0].Uses)
		}
		if !withService {
			continue
		}
		for _, c := range plan.Commitments {
			if c.Offer == "own" && (len(c.Held) != 1 || c.Held[0].Start != lead) {
				t.Errorf("owned servers %+v, want one purchase arriving at %v", c.Held, lead)
			}
		}
		owned := false
		for _, e := range plan.Epochs {
			for _, h := range e.Held {
				owned = owned || h.Offer == "own"
			}
		}
		if !owned {
			t.Errorf("no owned servers for the service's base:\n%v", plan)
		}
	}
}

// TestGangNotOverTime: without planning over time a gang is unplaced with
// ErrGang, as before.
func TestGangNotOverTime(t *testing.T) {
	a := bare()
	p := placement.Problem{Workloads: []workload.Workload{pretrain("g", 16, 2, 0), steady("s", 4, 1)},
		Offers: []provider.Offer{fabric(onDemand("od", "40", 8, 0))}, Assumptions: a}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Unplaced) != 1 || !errors.Is(plan.Unplaced[0].Err, placement.ErrGang) {
		t.Fatalf("unplaced %+v, want the gang with ErrGang", plan.Unplaced)
	}
}

// gangOption is one way to run a gang in the brute force: offer, nodes,
// the time it holds them, its own cost.
type gangOption struct {
	offer         int
	nodes         int
	start, finish time.Duration
	cost          float64
}

// TestGangBruteForce checks Solve against a brute force over the gang
// assignments of tiny instances: one to three gangs with ranges of sizes
// and deadlines, over three monthly epochs, on a stock-limited on-demand
// offer, a stock-limited monthly reservation and an on-demand offer that
// arrives after a month. The brute force prices each run with tco (the
// deadline counted from its start, after the offer's lead time), starts it
// at every moment of the documented grid (the month starts and every
// max(epoch/12, period, horizon/96) from the offer's arrival), lets gangs
// take turns on the same nodes (a run holds its nodes over [start,
// finish)), tries every combination within the stock at every moment, and
// pays for the reserved nodes each month needs at its busiest moment.
func TestGangBruteForce(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 8
	}
	compared := 0
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 7))
		a := bare()
		a.Horizon = 3 * provider.Month
		offers := []provider.Offer{
			fabric(onDemand("od", fmt.Sprintf("%.2f", 30+10*r.Float64()), 8, 2+r.IntN(4))),
			fabric(monthly("res", fmt.Sprintf("%.2f", 12+12*r.Float64()), 8, 1+r.IntN(4))),
			fabric(onDemand("late", fmt.Sprintf("%.2f", 20+10*r.Float64()), 8, 0)),
		}
		offers[2].Availability.LeadTime = provider.Month
		var ws []workload.Workload
		for i := range 1 + r.IntN(3) {
			g := pretrain(fmt.Sprintf("g%d", i), 8*(1+r.IntN(3)), 3+25*r.Float64(), 0)
			if r.IntN(2) == 0 {
				g.GangSizes = workload.GangSizes{MinGPUs: 8, MaxGPUs: 32}
			}
			if r.IntN(3) > 0 {
				g.Deadline = time.Duration(10+r.IntN(80)) * 24 * time.Hour
			}
			ws = append(ws, g)
		}
		p := placement.Problem{Workloads: ws, Offers: offers, Assumptions: a,
			Options: placement.Options{Epoch: provider.Month, Period: 24 * time.Hour, Slices: 1, Gap: 1e-9}}
		want, ok := bruteGangs(t, p)
		plan, err := placement.Solve(context.Background(), p)
		if !ok {
			if err == nil && len(plan.Unplaced) == 0 {
				t.Errorf("seed %d: no combination fits, Solve placed all (total %s)", seed, plan.Total)
			}
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(plan.Unplaced) > 0 {
			t.Fatalf("seed %d: unplaced %v, the brute force placed all", seed, plan.Unplaced[0].Err)
		}
		got, _ := plan.Total.Float64()
		if math.Abs(got-want) > 1e-6*max(1, want) {
			t.Errorf("seed %d: Solve %.4f, brute force %.4f\n%v", seed, got, want, plan)
		}
		compared++
	}
	if compared < n/2 {
		t.Errorf("%d of %d instances compared: the generator makes too few feasible ones", compared, n)
	}
}

// bruteStarts are the moments the documented grid lets a gang start at on
// capacity arriving at lead: the epoch starts (and lead, where capacity
// arrives) and the multiples of max(epoch/12, period, ⌈horizon/96⌉).
func bruteStarts(p placement.Problem, lead time.Duration) []time.Duration {
	h := p.Assumptions.Horizon
	epoch := p.Options.Epoch
	if epoch == 0 {
		epoch = placement.DefaultEpoch
	}
	step := max(epoch/12, p.Options.Period, (h+95)/96)
	seen := map[time.Duration]bool{}
	var out []time.Duration
	add := func(t time.Duration) {
		if t >= lead && t < h && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	add(lead)
	for e := time.Duration(0); e < h; e += epoch {
		add(e)
	}
	for t := time.Duration(0); t < h; t += step {
		add(t)
	}
	slices.Sort(out)
	return out
}

// bruteGangs is the least cost of p's gangs by enumeration; false when no
// combination fits.
func bruteGangs(t *testing.T, p placement.Problem) (float64, bool) {
	t.Helper()
	months := int(p.Assumptions.Horizon / provider.Month)
	var opts [][]gangOption
	for _, w := range p.Workloads {
		var os []gangOption
		lo, hi := w.GangSizes.Sizes(w.GPUs)
		for k, o := range p.Offers {
			free := o
			free.Availability.MaxNodes = 0
			for g := lo; g <= hi; g++ {
				if g%o.GPUsPerNode != 0 && g != w.GPUs {
					continue
				}
				wg := w
				wg.GPUs = g
				rep, err := tco.Evaluate(wg, free, p.Assumptions)
				if err != nil {
					t.Fatal(err)
				}
				terms, err := tco.CostTerms(wg, free, p.Assumptions)
				if err != nil {
					t.Fatal(err)
				}
				cost := terms.VariablePerNodeHour.InexactFloat64()*terms.Own.NodeHours + terms.OneOff.InexactFloat64()
				nodes := (g + o.GPUsPerNode - 1) / o.GPUsPerNode
				if nodes > o.Availability.MaxNodes && o.Availability.MaxNodes > 0 {
					continue
				}
				due := p.Assumptions.Horizon
				if w.Deadline > 0 {
					due = min(due, w.Deadline)
				}
				for _, start := range bruteStarts(p, o.LeadTime()) {
					finish := start + rep.Finish - o.LeadTime()
					if finish > due {
						break
					}
					os = append(os, gangOption{offer: k, nodes: nodes, start: start, finish: finish, cost: cost})
				}
			}
		}
		if len(os) == 0 {
			return 0, false
		}
		slices.SortStableFunc(os, func(a, b gangOption) int { return cmp.Compare(a.cost, b.cost) })
		opts = append(opts, os)
	}
	monthly := make([]float64, len(p.Offers))
	for k, o := range p.Offers {
		if _, ok := o.Pricing.(provider.Reserved); ok {
			b := p.Assumptions
			b.Horizon = provider.Month
			o.Availability.MaxNodes = 0
			terms, err := tco.CostTerms(p.Workloads[0], o, b)
			if err != nil {
				t.Fatal(err)
			}
			monthly[k] = terms.FixedPerNode.InexactFloat64()
		}
	}
	// busiest is the most nodes of offer k the chosen runs hold at once
	// within [from, to): at one of the moments a run starts, or at from.
	busiest := func(chosen []gangOption, k int, from, to time.Duration) int {
		most := 0
		for _, at := range chosen {
			m := max(at.start, from)
			if at.offer != k || m >= to {
				continue
			}
			n := 0
			for _, x := range chosen {
				if x.offer == k && x.start <= m && m < x.finish {
					n += x.nodes
				}
			}
			most = max(most, n)
		}
		return most
	}
	// fixed is the reserved nodes' cost of the chosen runs, -1 when they
	// exceed a stock.
	fixed := func(chosen []gangOption) float64 {
		cost := 0.0
		for k, o := range p.Offers {
			if lim := o.Availability.MaxNodes; lim > 0 && busiest(chosen, k, 0, p.Assumptions.Horizon) > lim {
				return -1
			}
			if monthly[k] == 0 {
				continue
			}
			for m := range months {
				from := time.Duration(m) * provider.Month
				cost += float64(busiest(chosen, k, from, from+provider.Month)) * monthly[k]
			}
		}
		return cost
	}
	// least[i] is the least own cost of gangs i and after: a bound.
	least := make([]float64, len(opts)+1)
	for i := len(opts) - 1; i >= 0; i-- {
		least[i] = least[i+1] + opts[i][0].cost
	}
	best, found := math.Inf(1), false
	chosen := make([]gangOption, 0, len(opts))
	var walk func(i int, own float64)
	walk = func(i int, own float64) {
		f := fixed(chosen)
		if f < 0 || own+f+least[i] >= best*(1+1e-12) {
			return
		}
		if i == len(opts) {
			best, found = own+f, true
			return
		}
		for _, x := range opts[i] {
			chosen = append(chosen, x)
			walk(i+1, own+x.cost)
			chosen = chosen[:len(chosen)-1]
		}
	}
	walk(0, 0)
	return best, found
}

// TestGangUnplaced: a gang that cannot finish by its deadline on any offer
// is unplaced with ErrDeadline, naming its earliest finish; one whose nodes
// fit no offer's stock with ErrStock. The rest of the portfolio is placed.
func TestGangUnplaced(t *testing.T) {
	a := bare()
	p := placement.Problem{
		Workloads:   []workload.Workload{pretrain("late", 64, 30, 20*24*time.Hour), pretrain("wide", 64, 2, 0), steady("s", 8, 1)},
		Offers:      []provider.Offer{fabric(onDemand("od", "40", 8, 4))},
		Assumptions: a, Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 1},
	}
	p.Workloads[2].Horizon = a.Horizon
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Unplaced) != 2 || len(plan.Assignments) != 1 {
		t.Fatalf("unplaced %+v, assignments %d; want both gangs unplaced, the service placed", plan.Unplaced, len(plan.Assignments))
	}
	p.Offers[0].Availability.MaxNodes = 0 // no stock limit: only the deadline stands in the way
	plan, err = placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Unplaced) != 1 || plan.Unplaced[0].Workload != "late" || !errors.Is(plan.Unplaced[0].Err, placement.ErrDeadline) ||
		!strings.Contains(plan.Unplaced[0].Err.Error(), "earliest") {
		t.Fatalf("unplaced %+v, want late with ErrDeadline naming its earliest finish", plan.Unplaced)
	}
	p.Offers[0].Availability.MaxNodes = 4
	p.Workloads = p.Workloads[1:]
	plan, err = placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Unplaced) != 1 || !errors.Is(plan.Unplaced[0].Err, placement.ErrStock) {
		t.Fatalf("unplaced %+v, want wide (8 nodes, stock 4) with ErrStock", plan.Unplaced)
	}
}
