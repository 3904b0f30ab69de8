package placement_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/placement/lp"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestRelaxationDuality is oracle 4, first half: the LP relaxation of the
// exported model has an optimal basis whose duals certify it (lp's
// Result.Verify: primal and dual feasibility, complementary slackness,
// equal objectives), and Solve's bound is at least that relaxation's
// optimum and at most its plan's total.
func TestRelaxationDuality(t *testing.T) {
	n := uint64(8)
	if testing.Short() {
		n = 3
	}
	for seed := range n {
		p := portfolio(seed+40, 3, 2, 6, 24*time.Hour, seed%2 == 0)
		m, err := placement.Model(p)
		if err != nil {
			t.Fatal(err)
		}
		relax := *m
		relax.Integer = nil
		r, err := lp.Solve(context.Background(), &relax, lp.Options{})
		if err != nil || r.Status != lp.Optimal {
			t.Fatalf("seed %d: relaxation %v %v", seed, r.Status, err)
		}
		if err := r.Verify(&relax, 1e-6); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		b, total := f64(plan.Bound), f64(plan.Total)
		if b < r.Objective*(1-1e-9)-1e-6 || b > total*(1+1e-12) {
			t.Errorf("seed %d: bound %.6f outside [relaxation %.6f, total %.6f]", seed, b, r.Objective, total)
		}
	}
}

// TestBruteForce is oracle 4, second half: on tiny portfolios, every
// integer assignment of the model's node counts and placements, each with
// its best continuous use (an LP), gives the optimum Solve finds.
func TestBruteForce(t *testing.T) {
	cases, n, enough := 0, uint64(40), 10
	if testing.Short() {
		n, enough = 12, 3
	}
	for seed := range n {
		p := portfolio(seed+200, 1+int(seed%2), int(seed%2), 2, 4*time.Hour, seed%3 != 0)
		p.Options.Slices = 4
		for i := range p.Offers { // small stocks keep the enumeration small
			if p.Offers[i].Availability.MaxNodes == 0 || p.Offers[i].Availability.MaxNodes > 3 {
				p.Offers[i].Availability.MaxNodes = 3
			}
		}
		m, err := placement.Model(p)
		if err != nil {
			t.Fatal(err)
		}
		var ints []int
		combos := 1.0
		for j, isInt := range m.Integer {
			if isInt {
				ints = append(ints, j)
				combos *= m.ColUpper[j] - m.ColLower[j] + 1
			}
		}
		if combos > 4096 {
			continue
		}
		cases++
		best := math.Inf(1)
		fixed := *m
		fixed.Integer = nil
		fixed.ColLower = append([]float64(nil), m.ColLower...)
		fixed.ColUpper = append([]float64(nil), m.ColUpper...)
		var walk func(i int)
		walk = func(i int) {
			if i == len(ints) {
				r, err := lp.Solve(context.Background(), &fixed, lp.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if r.Status == lp.Optimal {
					best = min(best, r.Objective)
				}
				return
			}
			j := ints[i]
			for v := m.ColLower[j]; v <= m.ColUpper[j]; v++ {
				fixed.ColLower[j], fixed.ColUpper[j] = v, v
				walk(i + 1)
			}
		}
		walk(0)
		p.Options.Gap = 1e-9
		plan, err := placement.Solve(context.Background(), p)
		if math.IsInf(best, 1) {
			if !errors.Is(err, placement.ErrInfeasible) {
				t.Errorf("seed %d: no integer point is feasible, Solve returned %v", seed, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got := f64(plan.Total); math.Abs(got-best) > 1e-6*max(1, best) {
			t.Errorf("seed %d (%d integers): Solve %.6f, brute force %.6f", seed, len(ints), got, best)
		}
	}
	if cases < enough {
		t.Errorf("only %d tiny cases enumerated", cases)
	}
}

// TestMarginalValues checks the marginal values against re-solves: on a
// service whose cheap reservation is capped, one more node of stock saves
// what Plan.Stock says, and one more GPU of peak costs what
// PeakGPUValue says (the relaxation's rates are exact over these steps:
// demand in whole GPUs, nodes of one GPU, the capped reservation full).
func TestMarginalValues(t *testing.T) {
	solve := func(gpus, stock int) placement.Plan {
		p := placement.Problem{Workloads: []workload.Workload{steps("svc", gpus)},
			Offers:      []provider.Offer{reserved("res", "1.5", 1, stock), onDemand("od", "4", 1, 0)},
			Assumptions: bare(), Options: placement.Options{Period: workload.Day}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return plan
	}
	a, b, c := solve(8, 3), solve(8, 4), solve(9, 3)
	if len(a.Stock) != 1 || a.Stock[0].Offer != "res" {
		t.Fatalf("stock values %+v, want the reservation's", a.Stock)
	}
	checkClose(t, "stock value vs re-solve", a.Stock[0].SavingPerNode, a.Total.Sub(b.Total), 1e-9)
	checkClose(t, "peak GPU value vs re-solve", a.Assignments[0].PeakGPUValue, c.Total.Sub(a.Total), 1e-9)
}

// TestStockValueGeneralPath checks Plan.Stock on the general (LP) path
// against re-solves with one more node of stock: a lone service on a
// capped offer, where the cap sits in the bounds of its use columns (no
// stock row is needed) and, for committed capacity, also in the node
// count's bound — the relaxation may put the dual on either. The spot-share
// option (no offer is spot) keeps the pool off the merit-order path.
func TestStockValueGeneralPath(t *testing.T) {
	for _, c := range []struct {
		name   string
		capped func(stock int) provider.Offer
	}{
		{"reserved", func(s int) provider.Offer { return reserved("capped", "1.5", 1, s) }},
		{"on-demand", func(s int) provider.Offer { return onDemand("capped", "2", 1, s) }},
		{"reserved nodes of 2", func(s int) provider.Offer { return reserved("capped", "3", 2, s) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			solve := func(stock int) placement.Plan {
				p := placement.Problem{Workloads: []workload.Workload{steps("svc", 8)},
					Offers:      []provider.Offer{c.capped(stock), onDemand("od", "4", 1, 0)},
					Assumptions: bare(), Options: placement.Options{Period: workload.Day, MaxSpotShare: 0.5}}
				plan, err := placement.Solve(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				if plan.Stats.FastPools != 0 {
					t.Fatalf("solved on the merit-order path")
				}
				return plan
			}
			a, b := solve(1), solve(2)
			if len(a.Stock) != 1 || a.Stock[0].Offer != "capped" {
				t.Fatalf("stock values %+v, want the capped offer's", a.Stock)
			}
			checkClose(t, "stock value vs re-solve", a.Stock[0].SavingPerNode, a.Total.Sub(b.Total), 1e-9)
		})
	}
}
