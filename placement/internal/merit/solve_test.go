package merit

import (
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSolveMatchesSimplex compares the DP with gonum's simplex on the full
// time-indexed LP, and checks feasibility, the recomputed cost and the duals.
func TestSolveMatchesSimplex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() || raceEnabled {
		n = 60
	}
	for i := range n {
		p := randomSmall(r, 6, 4)
		s, err := Solve(p)
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		want := simplexCost(t, p)
		if !relClose(s.CostTotal, want, 1e-9) {
			t.Fatalf("instance %d: DP %.12g, simplex %.12g\n%+v", i, s.CostTotal, want, p)
		}
		if err := Check(p, s, 1e-9); err != nil {
			t.Fatalf("instance %d: infeasible: %v", i, err)
		}
		c, err := Cost(p, s)
		if err != nil || !relClose(c, s.CostTotal, 1e-9) {
			t.Fatalf("instance %d: recomputed cost %g (%v), DP %g", i, c, err, s.CostTotal)
		}
		checkDuals(t, p, s)
	}
}

// TestSolveEqualsScreeningWithoutLimits: without stock limits the screening
// curve is the optimum (oracle 1), at every size of the benchmark generator.
func TestSolveEqualsScreeningWithoutLimits(t *testing.T) {
	sizes := [][2]int{{24, 1}, {24, 5}, {168, 10}, {168, 50}, {720, 20}, {720, 200}}
	seeds := uint64(3)
	if testing.Short() || raceEnabled {
		seeds = 1
	}
	for _, sz := range sizes {
		for seed := uint64(1); seed <= seeds; seed++ {
			p := benchInstance(sz[0], sz[1], seed, false)
			s, err := Solve(p)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := Screen(p)
			if err != nil {
				t.Fatal(err)
			}
			if !sc.Exact || !relClose(s.CostTotal, sc.CostTotal, 1e-9) {
				t.Errorf("(%d,%d) seed %d: DP %.12g, screening %.12g (exact %v)", sz[0], sz[1], seed, s.CostTotal, sc.CostTotal, sc.Exact)
			}
			withLimits := benchInstance(sz[0], sz[1], seed, true)
			s2, err := Solve(withLimits)
			if err != nil {
				t.Fatal(err)
			}
			sc2, _ := Screen(withLimits)
			if sc2.CostTotal > s2.CostTotal*(1+1e-12) {
				t.Errorf("(%d,%d) seed %d with limits: screening %.12g above DP %.12g", sz[0], sz[1], seed, sc2.CostTotal, s2.CostTotal)
			}
		}
	}
}

// greedyCost is the cost of capacities c with each slice's demand met by
// the offers in ascending variable cost, computed slice by slice (not
// through the load-duration curve); +Inf when c cannot meet the demand.
func greedyCost(p Problem, c []float64) float64 {
	idx := make([]int, len(p.Offers))
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return p.Offers[idx[a]].VariablePerGPUHour < p.Offers[idx[b]].VariablePerGPUHour
	})
	total := 0.0
	for k, o := range p.Offers {
		total += o.FixedPerGPU * c[k]
	}
	for t, d := range p.DemandGPUs {
		for _, k := range idx {
			u := math.Min(d, c[k])
			total += p.Offers[k].VariablePerGPUHour * p.hours(t) * u
			d -= u
		}
		if d > 1e-12 {
			return math.Inf(1)
		}
	}
	return total
}

// TestSolveMatchesBruteForce: on 1–3 offers with integer demand and limits,
// some optimum has integer capacities (the LDC form is a transportation
// problem), so the best point of the integer grid is the optimum.
func TestSolveMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 200 {
		k := 1 + r.IntN(3)
		p := Problem{DemandGPUs: make([]float64, 1+r.IntN(8))}
		peak := 0.0
		for j := range p.DemandGPUs {
			p.DemandGPUs[j] = float64(r.IntN(11))
			peak = math.Max(peak, p.DemandGPUs[j])
		}
		stock := 0.0
		for j := range k {
			o := Offer{FixedPerGPU: float64(r.IntN(30)), VariablePerGPUHour: float64(r.IntN(9)) / 2, LimitGPUs: float64(r.IntN(11))}
			if j == k-1 && stock+o.LimitGPUs < peak {
				o.LimitGPUs = peak
			}
			stock += o.LimitGPUs
			p.Offers = append(p.Offers, o)
		}
		best := math.Inf(1)
		c := make([]float64, k)
		var walk func(j int)
		walk = func(j int) {
			if j == k {
				best = math.Min(best, greedyCost(p, c))
				return
			}
			for v := 0.0; v <= math.Min(p.Offers[j].LimitGPUs, peak); v++ {
				c[j] = v
				walk(j + 1)
			}
		}
		walk(0)
		s, err := Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		if !relClose(s.CostTotal, best, 1e-12) {
			t.Fatalf("instance %d: DP %.15g, brute force %.15g\n%+v", i, s.CostTotal, best, p)
		}
	}
}

func TestSolveEdgeCases(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name     string
		reason   string
		p        Problem
		cost     float64
		capacity []float64
	}{
		{"no demand", "nothing to serve: no capacity, no cost",
			Problem{DemandGPUs: []float64{0, 0}, Offers: []Offer{{FixedPerGPU: 5, LimitGPUs: inf}, {VariablePerGPUHour: 2, LimitGPUs: inf}}},
			0, []float64{0, 0}},
		{"one slice", "a flat hour: the cheaper of F + v·1 wins all",
			Problem{DemandGPUs: []float64{3}, Offers: []Offer{{FixedPerGPU: 5, LimitGPUs: inf}, {VariablePerGPUHour: 2, LimitGPUs: inf}}},
			6, []float64{0, 3}},
		{"weighted slice", "a 4-hour slice makes the committed offer cheaper (5 < 2·4)",
			Problem{DemandGPUs: []float64{3}, Hours: []float64{4}, Offers: []Offer{{FixedPerGPU: 5, LimitGPUs: inf}, {VariablePerGPUHour: 2, LimitGPUs: inf}}},
			15, []float64{3, 0}},
		{"zero stock", "an offer without stock takes nothing, however cheap",
			Problem{DemandGPUs: []float64{2, 1}, Offers: []Offer{{LimitGPUs: 0}, {VariablePerGPUHour: 1, LimitGPUs: inf}}},
			3, []float64{0, 2}},
		{"exact stock", "stock equal to the peak is feasible and all of it is used",
			Problem{DemandGPUs: []float64{4, 2}, Offers: []Offer{{FixedPerGPU: 1, LimitGPUs: 1}, {VariablePerGPUHour: 1, LimitGPUs: 3}}},
			1 + 1*(3+1), []float64{1, 3}},
		{"node stock", "stock rounds down to whole nodes: 7 GPUs of 4-GPU nodes are 4",
			Problem{DemandGPUs: []float64{6}, Offers: []Offer{{FixedPerGPU: 1, LimitGPUs: 7, NodeGPUs: 4}, {VariablePerGPUHour: 2, LimitGPUs: inf}}},
			4 + 2*2, []float64{4, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Solve(tc.p)
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if !relClose(s.CostTotal, tc.cost, 1e-12) {
				t.Errorf("%s: cost %g, want %g", tc.reason, s.CostTotal, tc.cost)
			}
			if diff := cmp.Diff(tc.capacity, s.CapacityGPUs); diff != "" {
				t.Errorf("%s: capacities (-want +got):\n%s", tc.reason, diff)
			}
			if want := simplexCost(t, tc.p); !relClose(s.CostTotal, want, 1e-9) {
				t.Errorf("%s: simplex says %g", tc.reason, want)
			}
			checkDuals(t, tc.p, s)
		})
	}
}

// TestStockSavings: the savings equal direct re-solves, are 0 where the
// stock value is 0, and never exceed μ_k·δ.
func TestStockSavings(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	positive := 0
	for i := range 200 {
		p := randomSmall(r, 8, 5)
		s, err := Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		extra := make([]float64, len(p.Offers))
		for k := range extra {
			extra[k] = float64(r.IntN(4))
		}
		got, err := StockSavings(p, s, extra)
		if err != nil {
			t.Fatal(err)
		}
		for k := range p.Offers {
			more := p
			more.Offers = append([]Offer(nil), p.Offers...)
			more.Offers[k].LimitGPUs += extra[k]
			r, err := Solve(more)
			if err != nil {
				t.Fatal(err)
			}
			want := s.CostTotal - r.CostTotal
			if math.Abs(got[k]-want) > 1e-9*math.Max(1, s.CostTotal) {
				t.Fatalf("instance %d offer %d: saving %g, re-solve says %g", i, k, got[k], want)
			}
			if got[k] > s.StockValue[k]*extra[k]*(1+1e-9)+1e-9 {
				t.Fatalf("instance %d offer %d: saving %g above μ·δ = %g", i, k, got[k], s.StockValue[k]*extra[k])
			}
			if got[k] > 0 {
				positive++
			}
		}
	}
	if positive == 0 {
		t.Fatal("no instance had a positive saving: the test checks nothing")
	}
	p := Problem{DemandGPUs: []float64{1}, Offers: []Offer{{LimitGPUs: math.Inf(1)}}}
	s, _ := Solve(p)
	if _, err := StockSavings(p, s, []float64{-1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative extra accepted: %v", err)
	}
	if _, err := StockSavings(p, Solution{}, []float64{1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("solution without duals accepted: %v", err)
	}
}
