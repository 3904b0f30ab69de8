package merit

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// randomNodes draws a small instance with integer demand and limits whose
// committed offers have node sizes drawn from sizes.
func randomNodes(r *rand.Rand, maxT, maxK int, sizes []float64) Problem {
	p := Problem{DemandGPUs: make([]float64, 1+r.IntN(maxT))}
	peak := 0.0
	for j := range p.DemandGPUs {
		p.DemandGPUs[j] = float64(r.IntN(13))
		peak = math.Max(peak, p.DemandGPUs[j])
	}
	k := 1 + r.IntN(maxK)
	stock := 0.0
	for j := range k {
		o := Offer{VariablePerGPUHour: float64(r.IntN(9)) / 2, LimitGPUs: float64(r.IntN(13)), NodeGPUs: sizes[r.IntN(len(sizes))]}
		if r.IntN(3) > 0 {
			o.FixedPerGPU = float64(1 + r.IntN(30))
		}
		if j == k-1 && stock+o.usableLimit() < peak {
			o.LimitGPUs = math.Inf(1)
		}
		stock += o.usableLimit()
		p.Offers = append(p.Offers, o)
	}
	return p
}

// bruteNodes enumerates every integer capacity vector — whole nodes for
// committed offers with a node size, whole GPUs otherwise — and returns the
// least greedyCost. With integer data some optimum of the rest is integral.
func bruteNodes(p Problem) float64 {
	peak := 0.0
	for _, d := range p.DemandGPUs {
		peak = math.Max(peak, d)
	}
	best := math.Inf(1)
	c := make([]float64, len(p.Offers))
	var walk func(j int)
	walk = func(j int) {
		if j == len(p.Offers) {
			best = math.Min(best, greedyCost(p, c))
			return
		}
		o := p.Offers[j]
		step := 1.0
		if o.FixedPerGPU > 0 && o.NodeGPUs > 0 {
			step = o.NodeGPUs
		}
		top := math.Min(o.usableLimit(), peak+step)
		for v := 0.0; v <= top; v += step {
			c[j] = v
			walk(j + 1)
		}
	}
	walk(0)
	return best
}

func checkNodes(t *testing.T, name string, p Problem, s Solution) {
	t.Helper()
	if err := Check(p, s, 1e-9); err != nil {
		t.Fatalf("%s: infeasible: %v", name, err)
	}
	c, err := Cost(p, s)
	if err != nil || !relClose(c, s.CostTotal, 1e-9) {
		t.Fatalf("%s: recomputed cost %.12g (%v), solution %.12g", name, c, err, s.CostTotal)
	}
}

// TestSolveNodesMatchesBruteForce: whole nodes, one shared node size
// (lattice programme) and mixed sizes (branch-and-bound), against full
// enumeration; the lattice programme also against the search.
func TestSolveNodesMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sizes := range [][]float64{{2}, {3}, {4}, {1, 2, 4}, {2, 3}, {0, 2}} {
		for i := range 150 {
			p := randomNodes(r, 6, 4, sizes)
			s, err := SolveNodes(context.Background(), p, NodeOptions{})
			if err != nil {
				t.Fatalf("sizes %v instance %d: %v", sizes, i, err)
			}
			checkNodes(t, "SolveNodes", p, s)
			if want := bruteNodes(p); !relClose(s.CostTotal, want, 1e-9) {
				t.Fatalf("sizes %v instance %d: SolveNodes %.12g, brute force %.12g\n%+v\nnodes %v caps %v", sizes, i, s.CostTotal, want, p, s.Nodes, s.CapacityGPUs)
			}
			bb, err := SolveNodes(context.Background(), p, NodeOptions{forceSearch: true})
			if err != nil || !relClose(bb.CostTotal, s.CostTotal, 1e-9) {
				t.Fatalf("sizes %v instance %d: search %.12g (%v), SolveNodes %.12g", sizes, i, bb.CostTotal, err, s.CostTotal)
			}
			checkNodes(t, "search", p, bb)
			relaxed, _ := Solve(p)
			if relaxed.CostTotal > s.CostTotal*(1+1e-12) {
				t.Fatalf("sizes %v instance %d: relaxation %.12g above whole nodes %.12g", sizes, i, relaxed.CostTotal, s.CostTotal)
			}
		}
	}
}

// TestSolveNodesStops: a search stopped by its node limit or by its context
// returns a feasible solution, a proven bound below it, and the reason.
func TestSolveNodesStops(t *testing.T) {
	p := withNodes(shrink(benchInstance(168, 20, 12, true), 25), 3, []float64{4, 8})
	full, err := SolveNodes(context.Background(), p, NodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var calls int
	var last [2]float64
	progress := func(bound, incumbent float64) {
		calls++
		if bound > incumbent*(1+1e-12) {
			t.Errorf("progress: bound %g above incumbent %g", bound, incumbent)
		}
		if calls > 1 && incumbent > last[1] {
			t.Errorf("progress: incumbent rose from %g to %g", last[1], incumbent)
		}
		last = [2]float64{bound, incumbent}
	}
	limited, err := SolveNodes(context.Background(), p, NodeOptions{MaxNodes: 1, Progress: progress})
	if !errors.Is(err, ErrNodeLimit) {
		t.Fatalf("MaxNodes 1: got %v, want ErrNodeLimit", err)
	}
	if calls == 0 {
		t.Error("Progress never called")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cancelled, err := SolveNodes(ctx, p, NodeOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v, want context.Canceled", err)
	}
	for name, s := range map[string]Solution{"node limit": limited, "cancelled": cancelled} {
		checkNodes(t, name, p, s)
		if !(s.BoundTotal <= full.CostTotal*(1+1e-12) && full.CostTotal <= s.CostTotal*(1+1e-12)) {
			t.Errorf("%s: want bound %g ≤ optimum %g ≤ cost %g", name, s.BoundTotal, full.CostTotal, s.CostTotal)
		}
	}
}
