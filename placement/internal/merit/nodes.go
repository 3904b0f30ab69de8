package merit

import (
	"container/heap"
	"context"
	"fmt"
	"math"
)

// maxNodeCount bounds the node count of any offer in SolveNodes.
const maxNodeCount = 1 << 40

// NodeOptions configures SolveNodes. The zero value means the defaults.
type NodeOptions struct {
	// MaxNodes bounds the branch-and-bound search used when committed
	// offers have different node sizes (default 20000 relaxations). The
	// lattice programme used when they share one node size ignores it.
	MaxNodes int
	// Progress, when set, is called by the branch-and-bound search after
	// every improvement of the incumbent, with the best proven lower bound
	// and the incumbent's cost. It must not retain or modify anything of the
	// search and is called on the caller's goroutine.
	Progress func(bound, incumbent float64)
	// forceSearch makes SolveNodes use branch-and-bound even when the
	// lattice programme applies (tests compare the two).
	forceSearch bool
}

// SolveNodes returns an optimal placement in which the capacity of every
// committed offer (FixedPerGPU > 0) with a node size (NodeGPUs > 0) is a
// whole number of nodes; pay-as-you-go offers (FixedPerGPU = 0) and offers
// without a node size stay divisible. Solution.Nodes holds the node counts;
// no duals are set (an integer programme has none).
//
// Exactness (see the package documentation, "Whole nodes"): when every
// committed offer has the same node size g — or none has one — the result
// is exact and computed by one run of the dynamic programme over the
// lattice of node counts. Otherwise a branch-and-bound search over the node
// counts, bounded by the divisible problem, proves optimality (relative gap
// 1e-9) unless it reaches opt.MaxNodes or ctx is done: then the best
// solution found is returned with ErrNodeLimit or the context's error, and
// Solution.BoundTotal ≤ CostTotal is the proven bound. The lattice
// programme is one pass and does not watch ctx.
//
// Errors: as Solve, and ErrInvalid when the peak is more than 2^40 nodes of
// some committed offer.
func SolveNodes(ctx context.Context, p Problem, opt NodeOptions) (Solution, error) {
	pl, err := newPool(p)
	if err != nil {
		return Solution{}, err
	}
	g, uniform := 0.0, true
	for _, o := range p.Offers {
		if o.FixedPerGPU == 0 || o.NodeGPUs == 0 {
			continue
		}
		if g == 0 {
			g = o.NodeGPUs
		} else if o.NodeGPUs != g {
			uniform = false
		}
	}
	// Node counts must stay exact integers in float64.
	for _, o := range p.Offers {
		if o.FixedPerGPU > 0 && o.NodeGPUs > 0 && pl.peak/o.NodeGPUs > maxNodeCount {
			return Solution{}, fmt.Errorf("%w: peak demand %g GPUs is more than %g nodes of %g GPUs",
				ErrInvalid, pl.peak, float64(maxNodeCount), o.NodeGPUs)
		}
	}
	divisibleCommitted := false
	for _, o := range p.Offers {
		if o.FixedPerGPU > 0 && o.NodeGPUs == 0 {
			divisibleCommitted = true
		}
	}
	if g == 0 {
		// No committed offer has a node size: the divisible optimum.
		k := len(pl.order)
		x := make([]float64, k)
		cost, _ := pl.relax(make([]float64, k), pl.limit, x, newWorkspace(k))
		return pl.nodeSolution(x, cost, cost), nil
	}
	if uniform && !divisibleCommitted && !opt.forceSearch {
		return pl.lattice(g), nil
	}
	return pl.search(ctx, opt)
}

// nodeSolution builds the Solution of capacities x (merit order): dispatch,
// node counts, and the capacity of every pay-as-you-go offer trimmed to its
// peak use (free, so any capacity ≥ it is as good).
func (pl *pool) nodeSolution(x []float64, cost, bound float64) Solution {
	s := pl.solution(x)
	s.CostTotal, s.BoundTotal = cost, bound
	s.Nodes = make([]int, len(pl.order))
	for i, o := range pl.order {
		off := pl.p.Offers[o]
		switch {
		case pl.fixed[i] == 0:
			peak := 0.0
			for _, u := range s.UseGPUs[o] {
				peak = math.Max(peak, u)
			}
			s.CapacityGPUs[o] = peak
		case off.NodeGPUs > 0:
			s.Nodes[o] = int(math.Round(x[i] / off.NodeGPUs))
		}
	}
	return s
}

// lattice solves the whole-node problem when every committed offer has the
// node size g (see the package documentation, "Whole nodes"): the capacity
// of a pay-as-you-go offer is its stock (up to the peak) and the state of
// the chain is the number N of committed nodes, Q_i = g·N_i + S_i.
func (pl *pool) lattice(g float64) Solution {
	k := len(pl.order)
	p := pl.peak
	slope, lo, hi := make([]float64, k), make([]float64, k), make([]float64, k)
	shift := make([]float64, k) // S_i
	nodes, s := 0.0, 0.0
	for i := range k {
		if pl.fixed[i] > 0 {
			slope[i] = pl.fixed[i] * g
			hi[i] = math.Floor(pl.limit[i] / g) // +Inf stays +Inf
			nodes += hi[i]
		} else {
			s += math.Min(pl.limit[i], p)
		}
		shift[i] = s
	}
	// The fewest committed nodes that, with the pay-as-you-go stock, cover
	// the peak (the quotient's rounding corrected by the comparison itself).
	need := math.Max(0, math.Ceil((p-s)/g))
	for need > 0 && g*(need-1)+s >= p {
		need--
	}
	limit := math.Max(need, math.Min(nodes, math.Floor(p/g)+1))
	var cached curve
	cachedShift := math.NaN()
	ws := newWorkspace(k)
	c := chain{
		slope: slope, lo: lo, hi: hi, coef: ws.coef(pl.vari),
		curve: func(i int) curve {
			if shift[i] != cachedShift {
				cached, cachedShift = pl.latticeCurve(g, shift[i], limit), shift[i]
			}
			return cached
		},
		need: need, limit: limit, constant: pl.vari[k-1] * pl.energy,
	}
	n := make([]float64, k)
	cost := c.solve(n, ws)
	x := make([]float64, k)
	for i := range k {
		if pl.fixed[i] > 0 {
			x[i] = math.Round(n[i]) * g
		} else {
			x[i] = math.Min(pl.limit[i], p)
		}
	}
	return pl.nodeSolution(x, cost, cost)
}

// latticeCurve returns G(N) = H(g·N + shift) interpolated between the
// integers N = 0, 1, …, up to limit: on [N, N+1] its slope is the chord
// H(g(N+1)+shift) − H(gN+shift), which is g·h where the step lies inside one
// layer; runs of equal slope are one piece.
func (pl *pool) latticeCurve(g, shift, limit float64) curve {
	levels, durations := pl.ldc.LevelGPUs, pl.ldc.DurationHours
	var ends, slopes []float64
	push := func(end, slope float64) {
		if m := len(slopes); m > 0 && slopes[m-1] == slope {
			ends[m-1] = end
			return
		}
		ends = append(ends, end)
		slopes = append(slopes, slope)
	}
	j := 0 // the layer holding a: levels[j−1] ≤ a < levels[j]
	for n := 0.0; n < limit; {
		a := g*n + shift
		if a >= pl.peak {
			break
		}
		for j < len(levels) && levels[j] <= a {
			j++
		}
		b := a + g
		if b <= levels[j] {
			// Whole steps inside layer j up to N = last.
			last := math.Floor((levels[j] - shift) / g)
			if last > n+1 && g*last+shift > levels[j] {
				last-- // the quotient rounded up
			}
			last = math.Max(math.Min(last, limit), n+1)
			push(last, g*durations[j])
			n = last
			continue
		}
		push(n+1, pl.ldc.Energy(b)-pl.ldc.Energy(a))
		n++
	}
	return curve{ends: ends, slopes: slopes, at: func(n float64) float64 { return pl.ldc.Energy(g*n + shift) }}
}

// bbNode is one node of the branch-and-bound search: bounds on the
// capacities (merit order) and the relaxation's value.
type bbNode struct {
	lo, hi []float64
	bound  float64
}

type bbQueue []*bbNode

func (q bbQueue) Len() int           { return len(q) }
func (q bbQueue) Less(a, b int) bool { return q[a].bound < q[b].bound }
func (q bbQueue) Swap(a, b int)      { q[a], q[b] = q[b], q[a] }
func (q *bbQueue) Push(x any)        { *q = append(*q, x.(*bbNode)) }
func (q *bbQueue) Pop() any {
	old := *q
	n := old[len(old)-1]
	*q = old[:len(old)-1]
	return n
}

// search is a best-first branch-and-bound over the node counts of the
// committed offers with a node size, each node bounded by the divisible
// problem with capacity boxes (relax). Branching on a fractional capacity
// x_i of node size g_i makes two children, x_i ≤ ⌊x_i/g_i⌋·g_i and
// x_i ≥ ⌈x_i/g_i⌉·g_i. Incumbents fix the node-sized capacities at their
// rounded values and re-optimise the divisible offers.
func (pl *pool) search(ctx context.Context, opt NodeOptions) (Solution, error) {
	k := len(pl.order)
	maxNodes := opt.MaxNodes
	if maxNodes <= 0 {
		maxNodes = 20000
	}
	size := make([]float64, k) // node size of committed offers, 0 otherwise
	for i, o := range pl.order {
		if pl.fixed[i] > 0 {
			size[i] = pl.p.Offers[o].NodeGPUs
		}
	}
	ws := newWorkspace(k)
	x, y := make([]float64, k), make([]float64, k)
	tol := 1e-9 * pl.peak
	bestCost, best := math.Inf(1), []float64(nil)
	// consider fixes the node-sized capacities at caps and re-optimises the
	// divisible ones (merit position i has size[i] > 0 or is free).
	flo, fhi := make([]float64, k), make([]float64, k)
	var open *bbQueue
	// openBound is the least bound of the open nodes (the search's proven
	// bound, the incumbent once none is open; −Inf before the root).
	openBound := func() float64 {
		if open == nil {
			return math.Inf(-1)
		}
		b := bestCost
		for _, nd := range *open {
			b = math.Min(b, nd.bound)
		}
		return b
	}
	consider := func(caps []float64) bool {
		for i := range k {
			if size[i] > 0 {
				flo[i], fhi[i] = caps[i], caps[i]
			} else {
				flo[i], fhi[i] = 0, pl.limit[i]
			}
		}
		c, ok := pl.relax(flo, fhi, y, ws)
		if ok && c < bestCost {
			bestCost, best = c, append(best[:0], y...)
			if opt.Progress != nil {
				opt.Progress(openBound(), bestCost)
			}
		}
		return ok
	}
	// A first incumbent: every node-sized offer at its stock, or at enough
	// whole nodes for the peak (feasible: the stock covers the peak).
	first := make([]float64, k)
	for i := range k {
		if size[i] > 0 {
			first[i] = math.Min(pl.limit[i], math.Ceil(pl.peak/size[i])*size[i])
		}
	}
	consider(first)
	root := &bbNode{lo: make([]float64, k), hi: append([]float64(nil), pl.limit...), bound: math.Inf(-1)}
	open = &bbQueue{root}
	explored := 0
	var stop error
	for open.Len() > 0 {
		if explored >= maxNodes {
			stop = ErrNodeLimit
			break
		}
		if err := ctx.Err(); err != nil {
			stop = err
			break
		}
		nd := heap.Pop(open).(*bbNode)
		if nd.bound >= bestCost-1e-9*math.Abs(bestCost) {
			continue
		}
		explored++
		bound, ok := pl.relax(nd.lo, nd.hi, x, ws)
		if !ok || bound >= bestCost-1e-9*math.Abs(bestCost) {
			continue
		}
		// The most expensive fractional node; incumbents from rounding the
		// node-sized capacities to the nearest whole node where they are
		// within rounding of one, and up elsewhere.
		branch, worst := -1, -1.0
		near := append([]float64(nil), x...)
		up := append([]float64(nil), x...)
		for i := range k {
			if size[i] == 0 {
				continue
			}
			n := x[i] / size[i]
			r := math.Round(n)
			near[i], up[i] = r*size[i], r*size[i]
			if math.Abs(n-r)*size[i] <= tol {
				continue
			}
			near[i], up[i] = math.Floor(n)*size[i], math.Min(math.Ceil(n)*size[i], nd.hi[i])
			if w := pl.fixed[i] * size[i]; w > worst {
				branch, worst = i, w
			}
		}
		if branch < 0 {
			if !consider(near) {
				consider(up)
			}
			continue
		}
		consider(up)
		n := x[branch] / size[branch]
		down := &bbNode{lo: append([]float64(nil), nd.lo...), hi: append([]float64(nil), nd.hi...), bound: bound}
		down.hi[branch] = math.Floor(n) * size[branch]
		upper := &bbNode{lo: append([]float64(nil), nd.lo...), hi: append([]float64(nil), nd.hi...), bound: bound}
		upper.lo[branch] = math.Ceil(n) * size[branch]
		heap.Push(open, down)
		if upper.lo[branch] <= upper.hi[branch] {
			heap.Push(open, upper)
		}
	}
	bound := openBound()
	s := pl.nodeSolution(best, bestCost, bound)
	if stop != nil && bound < bestCost-1e-9*math.Abs(bestCost) {
		return s, stop
	}
	s.BoundTotal = bestCost
	return s, nil
}
