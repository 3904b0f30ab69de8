package placement_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
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
// the months it spans, its own cost.
type gangOption struct {
	offer       int
	nodes       int
	first, last int
	cost        float64
}

// TestGangBruteForce checks Solve against a brute force over the gang
// assignments of tiny instances: one to three gangs with ranges of sizes
// and deadlines, over three monthly epochs, on a stock-limited on-demand
// offer, a stock-limited monthly reservation and an on-demand offer that
// arrives after a month. The brute force prices each run with tco (the
// deadline counted from its start, after the offer's lead time), tries
// every combination within the stock in every month, and pays for the
// reserved nodes each month needs.
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
				for m := range months {
					start := time.Duration(m) * provider.Month
					if start < o.LeadTime() {
						continue
					}
					finish := start + rep.Finish - o.LeadTime()
					if finish > due {
						break
					}
					last := int((finish - 1) / provider.Month)
					os = append(os, gangOption{offer: k, nodes: nodes, first: m, last: last, cost: cost})
				}
			}
		}
		if len(os) == 0 {
			return 0, false
		}
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
	best, found := math.Inf(1), false
	pick := make([]int, len(opts))
	var walk func(i int)
	walk = func(i int) {
		if i < len(opts) {
			for j := range opts[i] {
				pick[i] = j
				walk(i + 1)
			}
			return
		}
		cost := 0.0
		for k, o := range p.Offers {
			for m := range months {
				nodes := 0
				for g, j := range pick {
					if x := opts[g][j]; x.offer == k && x.first <= m && m <= x.last {
						nodes += x.nodes
					}
				}
				if lim := o.Availability.MaxNodes; lim > 0 && nodes > lim {
					return
				}
				cost += float64(nodes) * monthly[k]
			}
		}
		for g, j := range pick {
			cost += opts[g][j].cost
		}
		if cost < best {
			best, found = cost, true
		}
	}
	walk(0)
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
