package merit

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSolveMatchesSimplex compares the DP with gonum's simplex on the full
// time-indexed LP, and checks feasibility, the recomputed cost and the duals.
func TestSolveMatchesSimplex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
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
	for _, sz := range sizes {
		for seed := uint64(1); seed <= 3; seed++ {
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
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Compare(p.Offers[a].VariablePerGPUHour, p.Offers[b].VariablePerGPUHour)
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
