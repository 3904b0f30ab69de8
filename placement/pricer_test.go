package placement_test

import (
	"math"
	"testing"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"pgregory.net/rapid"
)

// propAscentBound: the bound ascendPrices reaches from priceBound's is a
// bound — never above the optimum of the LP relaxation (an independent
// solve) — and never below priceBound's, on random portfolios with and
// without stock limits.
func propAscentBound(t *rapid.T) {
	c := drawCase(t, rapid.Bool().Draw(t, "limits"))
	price, ascent, _, relax, err := placement.AscentBounds(c.problem(1))
	if err != nil {
		t.Fatal(err)
	}
	for i := range price {
		if ascent[i] > relax[i]+1e-7*max(1, math.Abs(relax[i])) {
			t.Fatalf("pool %d: ascended bound %v above the relaxation's optimum %v", i, ascent[i], relax[i])
		}
		if !(ascent[i] >= price[i]) && !math.IsInf(price[i], -1) {
			t.Fatalf("pool %d: ascended bound %v below the priced bound %v", i, ascent[i], price[i])
		}
	}
}

func TestAscentBound(t *testing.T) { rapid.Check(t, propAscentBound) }

func FuzzAscentBound(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propAscentBound)) }

// TestAscentRaises: on portfolios of the benchmarks' kind (services that
// peak at different hours sharing committed offers, hidden costs, stock
// limits) and over time, priceBound's even capacity prices leave much of
// the relaxation out; the ascent, where it has a plan to aim at, closes
// part of the distance in every pool and about half of it in all, never
// passing the relaxation.
func TestAscentRaises(t *testing.T) {
	var closed, open float64
	ran := 0
	for seed := range uint64(4) {
		for _, p := range []placement.Problem{
			realistic(t, seed, 16, 12, 24),
			timePortfolio(seed+1, 2, 2, 1, 4, 3, provider.Year, 3*provider.Month, seed%2 == 1),
		} {
			price, ascent, target, relax, err := placement.AscentBounds(p)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			for i := range price {
				t.Logf("seed %d pool %d: priced %.2f, ascended %.2f, relaxation %.2f, plan %.2f", seed, i, price[i], ascent[i], relax[i], target[i])
				if ascent[i] > relax[i]+1e-7*max(1, math.Abs(relax[i])) || ascent[i] < price[i] {
					t.Errorf("seed %d pool %d: ascended %v outside [%v, %v]", seed, i, ascent[i], price[i], relax[i])
				}
				if math.IsInf(price[i], -1) || math.IsInf(target[i], 1) || !(relax[i] > price[i]) {
					continue
				}
				ran++
				open += relax[i] - price[i]
				closed += ascent[i] - price[i]
				if !(ascent[i] > price[i]) {
					t.Errorf("seed %d pool %d: the ascent did not raise the bound %v (relaxation %v)", seed, i, price[i], relax[i])
				}
			}
		}
	}
	t.Logf("in %d pools the ascent closes %.1f %% of the priced bounds' distance to the relaxations", ran, 100*closed/open)
	if ran < 3 || !(closed >= 0.4*open) {
		t.Errorf("in %d pools the ascent closes %.1f %% of the distance, want at least 40 %% in 3 or more", ran, 100*closed/open)
	}
}

// TestCoarseAscentBound: Solve raises the prices of a large model's coarse
// model (coarseBound); that bound is one of the model's — never above its
// own relaxation's optimum (an independent solve) — and it rises.
func TestCoarseAscentBound(t *testing.T) {
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	seeds := []uint64{0, 1, 2, 3}
	if testing.Short() {
		seeds = []uint64{1} // the smallest (see TestCoarseRelaxes)
	}
	pools, rose := 0, 0
	for _, seed := range seeds {
		p := timePortfolio(seed+1, 3, 1, 1, 4, 12, provider.Year, 3*provider.Month, seed%2 == 1)
		price, ascent, relax, err := placement.CoarseAscents(p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for i := range price {
			pools++
			t.Logf("seed %d pool %d: coarse priced %.2f, ascended %.2f; the model's relaxation %.2f", seed, i, price[i], ascent[i], relax[i])
			if ascent[i] > relax[i]+1e-7*max(1, math.Abs(relax[i])) {
				t.Errorf("seed %d pool %d: the coarse model's ascended bound %v above the model's relaxation %v", seed, i, ascent[i], relax[i])
			}
			if ascent[i] < price[i] {
				t.Errorf("seed %d pool %d: ascended %v below the priced bound %v", seed, i, ascent[i], price[i])
			}
			if ascent[i] > price[i] {
				rose++
			}
		}
	}
	if pools == 0 || rose == 0 {
		t.Errorf("%d pools, the bound rose in %d: the cases do not test the ascent", pools, rose)
	}
}
