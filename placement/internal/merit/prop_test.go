package merit

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// offerGen draws one offer: pay-as-you-go or committed, limited or not.
func offerGen() *rapid.Generator[Offer] {
	return rapid.Custom(func(t *rapid.T) Offer {
		o := Offer{
			VariablePerGPUHour: rapid.Float64Range(0, 10).Draw(t, "variablePerGPUHour"),
			LimitGPUs:          math.Inf(1),
		}
		if rapid.Bool().Draw(t, "committed") {
			o.FixedPerGPU = rapid.Float64Range(0, 200).Draw(t, "fixedPerGPU")
		}
		if rapid.IntRange(0, 3).Draw(t, "limited") > 0 {
			o.LimitGPUs = rapid.Float64Range(0, 60).Draw(t, "limitGPUs")
		}
		return o
	})
}

// problemGen draws a pool of up to 24 slices and 7 offers; the last offer
// is unlimited unless the draw says otherwise, so most problems are
// feasible and some are not.
func problemGen() *rapid.Generator[Problem] {
	return rapid.Custom(func(t *rapid.T) Problem {
		n := rapid.IntRange(1, 24).Draw(t, "slices")
		p := Problem{DemandGPUs: make([]float64, n)}
		for i := range p.DemandGPUs {
			p.DemandGPUs[i] = rapid.Float64Range(0, 100).Draw(t, "demandGPUs")
		}
		if rapid.Bool().Draw(t, "weighted") {
			p.Hours = make([]float64, n)
			for i := range p.Hours {
				p.Hours[i] = rapid.Float64Range(0.1, 10).Draw(t, "hours")
			}
		}
		p.Offers = rapid.SliceOfN(offerGen(), 1, 7).Draw(t, "offers")
		if rapid.IntRange(0, 9).Draw(t, "backstop") > 0 {
			p.Offers[len(p.Offers)-1].LimitGPUs = math.Inf(1)
		}
		return p
	})
}

// solveOrInfeasible solves p; an infeasible p must report the exact
// shortfall, and then the property has nothing more to check.
func solveOrInfeasible(t *rapid.T, p Problem) (Solution, bool) {
	s, err := Solve(p)
	var inf *InfeasibleError
	if errors.As(err, &inf) {
		peak, stock := 0.0, 0.0
		for _, d := range p.DemandGPUs {
			peak = math.Max(peak, d)
		}
		for _, o := range p.Offers {
			stock += o.usableLimit()
		}
		// The stock is summed in merit order by Solve, in input order here.
		if !(stock < peak+1e-9) || !relClose(inf.ShortfallGPUs, peak-stock, 1e-9) || !errors.Is(err, ErrInfeasible) {
			t.Fatalf("infeasible error %v with peak %g, stock %g", err, peak, stock)
		}
		return Solution{}, false
	}
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	return s, true
}

func propSolve(t *rapid.T) {
	p := problemGen().Draw(t, "problem")
	s, ok := solveOrInfeasible(t, p)
	if !ok {
		return
	}
	if err := Check(p, s, gpuTol(p)); err != nil {
		t.Fatalf("infeasible solution: %v", err)
	}
	c, err := Cost(p, s)
	if err != nil || !relClose(c, s.CostTotal, 1e-9) {
		t.Fatalf("recomputed cost %g (%v), solution says %g", c, err, s.CostTotal)
	}
	checkDuals(t, p, s)
	sc, err := Screen(p)
	if err != nil {
		t.Fatal(err)
	}
	if sc.CostTotal > s.CostTotal*(1+1e-9)+1e-9 {
		t.Fatalf("screening bound %g above the optimum %g", sc.CostTotal, s.CostTotal)
	}
	if sc.Exact && !relClose(sc.CostTotal, s.CostTotal, 1e-9) {
		t.Fatalf("screening exact at %g, DP %g", sc.CostTotal, s.CostTotal)
	}
	again, _ := Solve(p)
	if diff := cmp.Diff(s, again); diff != "" {
		t.Fatalf("not deterministic (-first +second):\n%s", diff)
	}
	// The duals are subgradients of the optimal value: changing the demand
	// of slice t by δ changes the optimum by at least p_t·δ, changing the
	// stock of offer k by δ by at least −μ_k·δ.
	slack := 1e-9 * math.Max(1, s.CostTotal)
	ts := rapid.IntRange(0, len(p.DemandGPUs)-1).Draw(t, "slice")
	delta := rapid.Float64Range(-p.DemandGPUs[ts], 20).Draw(t, "demandChange")
	moved := p
	moved.DemandGPUs = append([]float64(nil), p.DemandGPUs...)
	moved.DemandGPUs[ts] += delta
	if s2, err := Solve(moved); err == nil && s2.CostTotal < s.CostTotal+s.SlicePrice[ts]*delta-slack {
		t.Fatalf("demand of slice %d %+g: optimum %g below %g + %g·%g", ts, delta, s2.CostTotal, s.CostTotal, s.SlicePrice[ts], delta)
	}
	k := rapid.IntRange(0, len(p.Offers)-1).Draw(t, "offer")
	if l := p.Offers[k].usableLimit(); !math.IsInf(l, 1) {
		delta := rapid.Float64Range(-l, 20).Draw(t, "stockChange")
		moved := p
		moved.Offers = append([]Offer(nil), p.Offers...)
		moved.Offers[k].LimitGPUs = l + delta
		if s2, err := Solve(moved); err == nil && s2.CostTotal < s.CostTotal-s.StockValue[k]*delta-slack {
			t.Fatalf("stock of offer %d %+g: optimum %g below %g − %g·%g", k, delta, s2.CostTotal, s.CostTotal, s.StockValue[k], delta)
		}
	}
}

func propMonotone(t *rapid.T) {
	p := problemGen().Draw(t, "problem")
	s, ok := solveOrInfeasible(t, p)
	if !ok {
		return
	}
	// Adding an offer never raises the optimum.
	more := p
	more.Offers = append(append([]Offer(nil), p.Offers...), offerGen().Draw(t, "extra"))
	if s2, err := Solve(more); err != nil || s2.CostTotal > s.CostTotal*(1+1e-9)+1e-9 {
		t.Fatalf("adding an offer: %g (%v) > %g", s2.CostTotal, err, s.CostTotal)
	}
	// Raising a stock limit never raises the optimum.
	k := rapid.IntRange(0, len(p.Offers)-1).Draw(t, "raised")
	raised := p
	raised.Offers = append([]Offer(nil), p.Offers...)
	raised.Offers[k].LimitGPUs += rapid.Float64Range(0, 50).Draw(t, "extraGPUs")
	if s2, err := Solve(raised); err != nil || s2.CostTotal > s.CostTotal*(1+1e-9)+1e-9 {
		t.Fatalf("raising limit %d: %g (%v) > %g", k, s2.CostTotal, err, s.CostTotal)
	}
	// Scaling every price by f scales the optimum by f.
	f := rapid.Float64Range(0.01, 100).Draw(t, "priceFactor")
	scaled := p
	scaled.Offers = append([]Offer(nil), p.Offers...)
	for i := range scaled.Offers {
		scaled.Offers[i].FixedPerGPU *= f
		scaled.Offers[i].VariablePerGPUHour *= f
	}
	if s2, err := Solve(scaled); err != nil || !relClose(s2.CostTotal, f*s.CostTotal, 1e-9) {
		t.Fatalf("prices ×%g: %g (%v), want %g", f, s2.CostTotal, err, f*s.CostTotal)
	}
}

func TestSolveProperties(t *testing.T) { rapid.Check(t, propSolve) }
func FuzzSolveProperties(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propSolve)) }
func TestSolveMonotone(t *testing.T)   { rapid.Check(t, propMonotone) }
func FuzzSolveMonotone(f *testing.F)   { f.Fuzz(rapid.MakeFuzz(propMonotone)) }

// nodeProblemGen draws a pool whose committed offers have node sizes: one
// shared size or a mix (some possibly divisible).
func nodeProblemGen() *rapid.Generator[Problem] {
	return rapid.Custom(func(t *rapid.T) Problem {
		p := problemGen().Draw(t, "problem")
		p.Offers = append([]Offer(nil), p.Offers...)
		shared := rapid.SampledFrom([]float64{1, 2, 4, 8}).Draw(t, "sharedNodeGPUs")
		mixed := rapid.Bool().Draw(t, "mixedNodeSizes")
		for k := range p.Offers {
			p.Offers[k].NodeGPUs = shared
			if mixed {
				p.Offers[k].NodeGPUs = rapid.SampledFrom([]float64{0, 1, 2, 3, 8}).Draw(t, "nodeGPUs")
			}
		}
		return p
	})
}

func propSolveNodes(t *rapid.T) {
	p := nodeProblemGen().Draw(t, "nodeProblem")
	s, err := SolveNodes(context.Background(), p, NodeOptions{})
	if errors.Is(err, ErrInfeasible) {
		if _, err2 := Solve(p); !errors.Is(err2, ErrInfeasible) {
			t.Fatalf("SolveNodes infeasible (%v), Solve not (%v)", err, err2)
		}
		return
	}
	if err != nil {
		t.Fatalf("SolveNodes: %v", err)
	}
	if err := Check(p, s, gpuTol(p)); err != nil {
		t.Fatalf("infeasible: %v", err)
	}
	c, err := Cost(p, s)
	if err != nil || !relClose(c, s.CostTotal, 1e-9) {
		t.Fatalf("recomputed cost %g (%v), solution says %g", c, err, s.CostTotal)
	}
	if s.BoundTotal != s.CostTotal {
		t.Fatalf("finished search with bound %g != cost %g", s.BoundTotal, s.CostTotal)
	}
	relaxed, err := Solve(p)
	if err != nil || relaxed.CostTotal > s.CostTotal*(1+1e-9)+1e-9 {
		t.Fatalf("divisible optimum %g (%v) above whole nodes %g", relaxed.CostTotal, err, s.CostTotal)
	}
	bb, err := SolveNodes(context.Background(), p, NodeOptions{forceSearch: true})
	if err != nil || !relClose(bb.CostTotal, s.CostTotal, 1e-9) {
		t.Fatalf("branch-and-bound %g (%v), SolveNodes %g", bb.CostTotal, err, s.CostTotal)
	}
	more := p
	more.Offers = append(append([]Offer(nil), p.Offers...), offerGen().Draw(t, "extra"))
	if s2, err := SolveNodes(context.Background(), more, NodeOptions{}); err != nil || s2.CostTotal > s.CostTotal*(1+1e-9)+1e-9 {
		t.Fatalf("adding an offer: %g (%v) > %g", s2.CostTotal, err, s.CostTotal)
	}
	again, _ := SolveNodes(context.Background(), p, NodeOptions{})
	if diff := cmp.Diff(s, again); diff != "" {
		t.Fatalf("not deterministic (-first +second):\n%s", diff)
	}
}

func TestSolveNodesProperties(t *testing.T) { rapid.Check(t, propSolveNodes) }
func FuzzSolveNodesProperties(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propSolveNodes)) }

// gpuTol is the feasibility tolerance of a problem: 1e-9 of its peak.
func gpuTol(p Problem) float64 {
	peak := 0.0
	for _, d := range p.DemandGPUs {
		peak = math.Max(peak, d)
	}
	return 1e-9 * peak
}

// propLoadDuration: the curve's h and H against their definitions,
// h(y) = Σ_{t: d_t > y} Δ_t and H(y) = Σ_t Δ_t·min(d_t, y) for y ≥ 0
// (h(0) and 0 below).
func propLoadDuration(t *rapid.T) {
	p := problemGen().Draw(t, "problem")
	c := NewLoadDuration(p)
	for i := 1; i < len(c.LevelGPUs); i++ {
		if !(c.LevelGPUs[i-1] < c.LevelGPUs[i]) || !(c.DurationHours[i-1] > c.DurationHours[i]) {
			t.Fatalf("levels %v or durations %v not strictly monotone", c.LevelGPUs, c.DurationHours)
		}
	}
	ys := append([]float64{-1, 0}, c.LevelGPUs...)
	ys = append(ys, rapid.Float64Range(0, 120).Draw(t, "height"))
	for _, y := range ys {
		hours, energy := 0.0, 0.0
		for i, d := range p.DemandGPUs {
			if d > math.Max(y, 0) {
				hours += p.hours(i)
			}
			energy += p.hours(i) * math.Max(0, math.Min(d, y))
		}
		if !relClose(c.Hours(y), hours, 1e-12) || !relClose(c.Energy(y), energy, 1e-12) {
			t.Fatalf("at %g: h = %g (want %g), H = %g (want %g)", y, c.Hours(y), hours, c.Energy(y), energy)
		}
	}
}

func TestLoadDuration(t *testing.T) { rapid.Check(t, propLoadDuration) }
func FuzzLoadDuration(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propLoadDuration)) }
