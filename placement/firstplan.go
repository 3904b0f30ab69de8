package placement

import (
	"cmp"
	"math"
	"slices"

	"github.com/gputco/gputco/placement/lp"
)

// greedyPlan is a feasible point of pool model pm built without the LP:
// every workload on the capacity it can use, cheapest first. A service's demand in each slice goes to its pairs in
// the order of their cost per GPU-hour with the one-off spread over the
// service's GPU-hours, each up to what its stock has left in the slice; a
// job's work to its aggregated use (unlimited pay-as-you-go) or, failing
// that, slice by slice within its width; a gang takes its cheapest run on
// pay-as-you-go capacity of unlimited stock. Placements and per-offer
// columns are set where used. With a spot share limit spot is left out.
// What a service's slice needs beyond the capacity held buys nodes of a
// commitment of its cheapest committed pair that covers the slice's
// stretch and fits the stock.
// The point is checked against every row and bound of the model; it
// returns nil when a workload cannot be placed so or a row fails (a
// budget, a job that needs committed capacity): the search then
// starts from the relaxation as before. The point is only an incumbent —
// it bounds the search and is what a limit returns when nothing better is
// known; it never changes the optimum.
//
// With a hint (from the coarse relaxation), its commitments are held from
// the start and each workload's pairs are tried in the order of the
// hint's use of them, most first, then by cost.
func (pm *poolModel) greedyPlan(in *instance, hint *coarseHint) ([]float64, float64) {
	var nodes map[int][]int
	var use map[int]float64
	if hint != nil {
		nodes, use = hint.nodes, hint.use
	}
	p := pm.prob
	x := make([]float64, p.NumCols())
	used := map[int]bool{} // pairs with use
	on := map[int]bool{}   // offers with use
	noSpot := in.s.MaxSpotShare > 0
	// held are the nodes of each commitment the plan holds: nodes, and what
	// grow adds.
	held := map[int][]int{}
	for k, cols := range pm.nCols {
		held[k] = make([]int, len(cols))
		if n := nodes[k]; n != nil {
			copy(held[k], n)
		}
	}
	// left[k][t] is the GPUs of limited pay-as-you-go or held committed
	// offer k still free in slice t (t its class's first slice).
	left := map[int][]float64{}
	room := func(k, t int) float64 {
		od := &in.os[k]
		if !od.committed && math.IsInf(od.stock, 1) {
			return math.Inf(1)
		}
		l, ok := left[k]
		if !ok {
			l = make([]float64, len(in.hours))
			for i := range l {
				if od.committed {
					l[i] = od.gpn * float64(heldAt(od, held[k], in.seg[i]))
				} else {
					l[i] = od.stock * od.gpn
				}
			}
			left[k] = l
		}
		return l[t]
	}
	take := func(k, t int, v float64) {
		if l, ok := left[k]; ok {
			l[t] -= v
		}
	}
	// grow adds to a commitment of committed offer k covering slice t's
	// stretch the nodes of need GPUs, within the stock (the commitment of
	// least fixed cost per node that can take them); it reports whether it
	// could.
	grow := func(k, t int, need float64) bool {
		od := &in.os[k]
		add := int(math.Ceil(need/od.gpn - 1e-9))
		s := in.seg[t]
		best := -1
		for i := range od.commits {
			c := &od.commits[i]
			if !c.covers(s) || pm.nCols[k][i] < 0 {
				continue
			}
			fits := true
			for u := c.first; u <= c.last && fits; u++ {
				fits = float64(heldAt(od, held[k], u)+add) <= od.stock
			}
			if fits && (best < 0 || c.fixedF < od.commits[best].fixedF) {
				best = i
			}
		}
		if best < 0 {
			return false
		}
		room(k, t) // the free GPUs are tracked from here on
		held[k][best] += add
		c := &od.commits[best]
		for u := range left[k] {
			if c.covers(in.seg[u]) {
				left[k][u] += float64(add) * od.gpn
			}
		}
		return true
	}
	payg := func(q int) bool {
		od := &in.os[in.pairs[q].k]
		return !od.dominated && !(noSpot && od.spot)
	}
	for _, w := range pm.pl.ws {
		wd := &in.ws[w]
		switch {
		case wd.gang:
			best := -1
			for i := range wd.runs {
				r := &wd.runs[i]
				od := &in.os[in.pairs[r.q].k]
				if od.committed || od.dominated || !math.IsInf(od.stock, 1) || noSpot && od.spot {
					continue
				}
				if best < 0 || r.cost < wd.runs[best].cost {
					best = i
				}
			}
			if best < 0 {
				return nil, math.Inf(1)
			}
			x[pm.gangCol[w][best]] = 1
			used[wd.runs[best].q], on[in.pairs[wd.runs[best].q].k] = true, true
		case wd.service:
			volume := 0.0
			for t, d := range wd.demand {
				volume += d * in.hours[t] * wd.reps[t]
			}
			var qs []int
			for _, q := range in.active(w) {
				if payg(q) {
					qs = append(qs, q)
				}
			}
			rate := func(q int) float64 { return in.pairs[q].cost + in.pairs[q].oneOff/max(volume, 1e-300) }
			slices.SortStableFunc(qs, func(a, b int) int {
				return cmp.Or(cmp.Compare(use[b], use[a]), cmp.Compare(rate(a), rate(b)))
			})
			for t, d := range wd.demand {
				if d <= 0 || pm.rep[t] != t {
					continue
				}
				need := d
				for _, q := range qs {
					j := pm.xCol[q][t]
					if j < 0 || need <= 0 {
						continue
					}
					k := in.pairs[q].k
					v := min(need, room(k, t), p.ColUpper[j])
					if v <= 0 {
						continue
					}
					x[j], need = v, need-v
					take(k, t, v)
					used[q], on[k] = true, true
				}
				// What the capacity held cannot serve: more nodes of its
				// cheapest committed pair (per GPU-hour of use) that can take
				// them.
				for _, q := range qs {
					j := pm.xCol[q][t]
					k := in.pairs[q].k
					if j < 0 || need <= minGPUs*1e-3 || !in.os[k].committed || !grow(k, t, need) {
						continue
					}
					v := min(need, room(k, t), p.ColUpper[j]-x[j])
					x[j], need = x[j]+v, need-v
					take(k, t, v)
					used[q], on[k] = true, true
				}
				if need > minGPUs*1e-3 {
					return nil, math.Inf(1)
				}
			}
		default:
			if !pm.greedyJob(in, w, x, use, payg, room, take, used, on) {
				return nil, math.Inf(1)
			}
		}
	}
	for k, n := range held {
		for i, v := range n {
			x[pm.nCols[k][i]] = float64(v)
		}
	}
	for q := range used {
		if y, ok := pm.yCol[q]; ok && y >= 0 {
			x[y] = 1
		}
	}
	for k, z := range pm.zCol {
		if z >= 0 && on[k] {
			x[z] = 1
		}
	}
	obj, ok := feasiblePoint(p, x)
	if !ok {
		return nil, math.Inf(1)
	}
	return x, obj
}

// greedyJob places job w's work for greedyPlan: on its cheapest aggregated
// pair when that holds it all, otherwise slice by slice on its pairs in
// order of use (greedyPlan's hint) and cost per unit of work (one-off
// spread over the work), each slice
// up to the width the job has left there and the offer's free stock. It
// reports whether the work was placed.
func (pm *poolModel) greedyJob(in *instance, w int, x []float64, use map[int]float64, payg func(int) bool, room func(k, t int) float64,
	take func(k, t int, v float64), used, on map[int]bool) bool {
	wd := &in.ws[w]
	p := pm.prob
	unit := func(q int) float64 {
		pr := &in.pairs[q]
		return (pr.cost + pr.oneOff/max(wd.work/pr.rate, 1e-300)) / pr.rate
	}
	var qs []int
	for _, q := range in.active(w) {
		if payg(q) && in.pairs[q].rate > 0 {
			qs = append(qs, q)
		}
	}
	slices.SortStableFunc(qs, func(a, b int) int { return cmp.Or(cmp.Compare(use[b], use[a]), cmp.Compare(unit(a), unit(b))) })
	for _, q := range qs {
		if h, ok := pm.hCol[q]; ok {
			if need := wd.work / in.pairs[q].rate; need <= p.ColUpper[h] {
				x[h] = need
				used[q], on[in.pairs[q].k] = true, true
				return true
			}
		}
	}
	need := wd.work
	width := make([]float64, len(in.hours))
	for t := range width {
		width[t] = wd.width
	}
	for _, q := range qs {
		if _, ok := pm.hCol[q]; ok {
			continue
		}
		pr := &in.pairs[q]
		for t, j := range pm.xCol[q] {
			if j < 0 || need <= 0 {
				continue
			}
			per := pr.rate * in.hours[t] * wd.reps[t] * pm.mult[t] // work per GPU of the column
			if per <= 0 {
				continue
			}
			v := min(need/per, width[t], room(pr.k, t), p.ColUpper[j])
			if v <= 0 {
				continue
			}
			x[j], need, width[t] = v, need-v*per, width[t]-v
			take(pr.k, t, v)
			used[q], on[pr.k] = true, true
		}
	}
	return need <= wd.work*1e-9
}

// feasiblePoint returns the objective of x in p and whether x keeps every
// bound and row of p (to a relative 1e-9).
func feasiblePoint(p *lp.Problem, x []float64) (float64, bool) {
	tol := func(v float64) float64 { return 1e-9 * max(1, math.Abs(v)) }
	obj := p.Offset
	act := make([]float64, p.NumRows())
	a := p.A
	for j, v := range x {
		if v < p.ColLower[j]-tol(p.ColLower[j]) || v > p.ColUpper[j]+tol(p.ColUpper[j]) {
			return math.Inf(1), false
		}
		if p.Integer != nil && p.Integer[j] && v != math.Round(v) {
			return math.Inf(1), false
		}
		if v == 0 {
			continue
		}
		obj += p.Cost[j] * v
		for i := a.Start[j]; i < a.Start[j+1]; i++ {
			act[a.Index[i]] += a.Value[i] * v
		}
	}
	for i, v := range act {
		if v < p.RowLower[i]-tol(p.RowLower[i]) || v > p.RowUpper[i]+tol(p.RowUpper[i]) {
			return math.Inf(1), false
		}
	}
	return obj, true
}

// boxBound is a lower bound of p's objective over its column bounds alone
// (each column at the bound of its least cost): valid for every point of
// p, and −Inf when a column of negative cost has no upper bound.
func boxBound(p *lp.Problem) float64 {
	b := p.Offset
	for j, c := range p.Cost {
		switch {
		case c > 0:
			b += c * p.ColLower[j]
		case c < 0:
			b += c * p.ColUpper[j]
		}
	}
	if math.IsNaN(b) {
		return math.Inf(-1)
	}
	return b
}

// coarseHint is what the coarse relaxation's point tells greedyPlan: the
// nodes of each commitment, rounded (by offer index, as poolModel.nCols),
// and the use of each pair (GPUs summed over the slices, or a job's
// aggregated GPU-hours).
type coarseHint struct {
	nodes map[int][]int
	use   map[int]float64
}
