package placement

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/gputco/gputco/placement/lp"
)

// greedyPlan is a feasible point of pool model pm built without the LP:
// every workload on the capacity it can use, cheapest first. A service's demand in each slice goes to its pairs in
// the order of their cost per GPU-hour with the one-off spread over the
// service's GPU-hours, each up to what its stock has left in the slice; a
// job's work to its aggregated use (unlimited pay-as-you-go) or, failing
// that, slice by slice within its width on the capacity left (limited
// stock, commitments held); a gang takes its cheapest run on
// pay-as-you-go capacity of unlimited stock. Placements and per-offer
// columns are set where used. With a spot share limit spot is left out.
// What a service's slice needs beyond the capacity held buys nodes of a
// commitment of its cheapest committed pair that covers the slice's
// stretch and fits the stock; what a job's work needs beyond it, the nodes
// of the commitment that do it at the least cost per unit of work.
// Workloads are placed in the pool's order; when one finds no capacity
// (a job whose limited stock the workloads before it took), it goes first
// and the plan is built again, up to maxGreedyTries orders.
// The point is checked against every row and bound of the model; it
// returns nil when a workload cannot be placed so or a row fails (a
// budget): the search then
// starts from the relaxation as before. The point is only an incumbent —
// it bounds the search and is what a limit returns when nothing better is
// known; it never changes the optimum.
//
// With a hint (from the coarse relaxation), its commitments are held from
// the start and each workload's pairs are tried in the order of the
// hint's use of them, most first, then by cost.
func (pm *poolModel) greedyPlan(in *instance, hint *coarseHint) ([]float64, float64) {
	order := slices.Clone(pm.pl.ws)
	for range maxGreedyTries {
		x, obj, failed := pm.greedyOrder(in, hint, order)
		if x != nil || failed < 0 {
			return x, obj
		}
		// The workload that found no capacity goes first.
		i := slices.Index(order, failed)
		if i <= 0 {
			break
		}
		copy(order[1:i+1], order[:i])
		order[0] = failed
	}
	return nil, math.Inf(1)
}

// maxGreedyTries bounds the orders of workloads greedyPlan tries.
const maxGreedyTries = 8

// greedyOrder is greedyPlan with the workloads placed in the order given.
// failed is the workload that found no capacity (−1 when every workload
// was placed or the point fails a row).
func (pm *poolModel) greedyOrder(in *instance, hint *coarseHint, order []int) (x []float64, obj float64, failed int) {
	var nodes map[int][]int
	var use map[int]float64
	if hint != nil {
		nodes, use = hint.nodes, hint.use
	}
	p := pm.prob
	x = make([]float64, p.NumCols())
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
	// free is the most nodes commitment i of committed offer k can add
	// within the stock.
	free := func(k, i int) float64 {
		od := &in.os[k]
		c := &od.commits[i]
		f := math.Inf(1)
		for u := c.first; u <= c.paid; u++ {
			f = min(f, od.stock-float64(heldAt(od, held[k], u)))
		}
		return f
	}
	// commit adds add nodes to commitment i of committed offer k.
	commit := func(k, i, add int) {
		od := &in.os[k]
		room(k, 0) // the free GPUs are tracked from here on
		held[k][i] += add
		c := &od.commits[i]
		for u := range left[k] {
			if c.covers(in.seg[u]) {
				left[k][u] += float64(add) * od.gpn
			}
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
			if float64(add) <= free(k, i) && (best < 0 || c.fixedF < od.commits[best].fixedF) {
				best = i
			}
		}
		if best < 0 {
			return false
		}
		commit(k, best, add)
		return true
	}
	payg := func(q int) bool {
		od := &in.os[in.pairs[q].k]
		return !od.dominated && !(noSpot && od.spot)
	}
	for _, w := range order {
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
				return nil, math.Inf(1), w
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
					return nil, math.Inf(1), w
				}
			}
		default:
			if !pm.greedyJob(in, w, x, use, payg, room, take, free, commit, used, on) {
				return nil, math.Inf(1), w
			}
		}
	}
	for k, n := range held {
		for i, v := range n {
			if j := pm.nCols[k][i]; j >= 0 {
				x[j] = float64(v)
			}
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
		failed = -1
		return nil, math.Inf(1), -1
	}
	return x, obj, -1
}

// greedyJob places job w's work for greedyPlan: on its cheapest aggregated
// pair when that holds it all, otherwise slice by slice on its pairs in
// order of use (greedyPlan's hint) and cost per unit of work (one-off
// spread over the work), each slice
// up to the width the job has left there and the offer's free stock or
// held capacity (room, take); then on more nodes of commitments (free,
// commit). It reports whether the work was placed.
func (pm *poolModel) greedyJob(in *instance, w int, x []float64, use map[int]float64, payg func(int) bool, room func(k, t int) float64,
	take func(k, t int, v float64), free func(k, i int) float64, commit func(k, i, add int), used, on map[int]bool) bool {
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
	// per is the work per GPU of pair q's column in slice t.
	per := func(q, t int) float64 {
		return in.pairs[q].rate * in.hours[t] * wd.reps[t] * pm.mult[t]
	}
	fill := func(q int) {
		pr := &in.pairs[q]
		for t, j := range xcols(pm.xCol[q]) {
			if j < 0 || need <= 0 {
				continue
			}
			pt := per(q, t)
			if pt <= 0 {
				continue
			}
			v := min(need/pt, width[t], room(pr.k, t), p.ColUpper[j]-x[j])
			if v <= 0 {
				continue
			}
			x[j], need, width[t] = x[j]+v, need-v*pt, width[t]-v
			take(pr.k, t, v)
			used[q], on[pr.k] = true, true
		}
	}
	for _, q := range qs {
		if _, ok := pm.hCol[q]; !ok {
			fill(q)
		}
	}
	// What the capacity free cannot take: nodes of the commitment of a
	// committed pair that do the work left at the least cost per unit of
	// work (its nodes' fixed cost, the use's variable cost and the
	// placement's one-off), the fewest that do all of it or else as many as
	// add work, until the work is placed or no commitment adds any.
	for need > wd.work*1e-9 {
		bq, bi, bn, bscore := -1, -1, 0, math.Inf(1)
		for _, q := range qs {
			pr := &in.pairs[q]
			od := &in.os[pr.k]
			if !od.committed || pm.xCol[q] == nil {
				continue
			}
			for i := range od.commits {
				c := &od.commits[i]
				if pm.nCols[pr.k][i] < 0 {
					continue
				}
				// gain is the work n more nodes of commitment i add.
				gain := func(n int) float64 {
					g := 0.0
					for t, j := range xcols(pm.xCol[q]) {
						if j >= 0 && c.covers(in.seg[t]) {
							g += min(float64(n)*od.gpn, width[t], p.ColUpper[j]-x[j]) * per(q, t)
						}
					}
					return g
				}
				most := min(free(pr.k, i), math.Ceil(wd.width/od.gpn))
				if most < 1 {
					continue
				}
				hi := int(most)
				full := gain(hi)
				if full <= 0 {
					continue
				}
				n := hi
				if full >= need {
					lo := 1 // the fewest nodes that do the work left
					for lo < hi {
						if mid := (lo + hi) / 2; gain(mid) >= need {
							hi = mid
						} else {
							lo = mid + 1
						}
					}
					n = lo
				}
				g := min(gain(n), need)
				cost := float64(n)*c.fixedF + g/pr.rate*pr.cost
				if !used[q] {
					cost += pr.oneOff
				}
				if score := cost / g; score < bscore {
					bq, bi, bn, bscore = q, i, n, score
				}
			}
		}
		if bq < 0 {
			break
		}
		commit(in.pairs[bq].k, bi, bn)
		fill(bq)
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

// polish improves first plan x of pool model pm by an LP restricted to
// the pairs x uses or allow admits: the other pairs' uses and placements
// fixed at zero, the gang runs at x's, the node counts, placements and
// per-offer columns relaxed within their bounds. The LP chooses the
// commitments and the uses of the pairs kept together, which the greedy
// plan fixes one workload at a time; its integers rounded up (a placement
// or per-offer column to 1 where positive) keep every capacity and link
// row, so the point is checked against every row and bound (a hold row or
// the budget may fail) and returned with its objective when it holds and
// is cheaper than x (otherwise nil, +Inf). Every point of the restriction
// is a point of the model: the plan is feasible, never a bound.
func (st *solveState) polish(ctx context.Context, pm *poolModel, x []float64, inc float64, allow map[int]bool) ([]float64, float64, error) {
	in, p := st.in, pm.prob
	lo, up := slices.Clone(p.ColLower), slices.Clone(p.ColUpper)
	for _, cols := range pm.gangCol {
		for _, j := range cols {
			lo[j], up[j] = x[j], x[j]
		}
	}
	keep := map[int]bool{}
	for q, ok := range allow {
		keep[q] = ok
	}
	pm.usedPairs(x, keep)
	for q, xs := range pm.xCol {
		if keep[q] {
			continue
		}
		for _, j := range xs {
			if j >= 0 {
				lo[j], up[j] = 0, 0
			}
		}
		if h, ok := pm.hCol[q]; ok {
			lo[h], up[h] = 0, 0
		}
		if y := pm.yCol[q]; y >= 0 {
			lo[y], up[y] = 0, 0
		}
	}
	r, obj, err := st.fixed(ctx, p, lo, up)
	if err != nil || r == nil || obj >= inc {
		return nil, math.Inf(1), err
	}
	v := slices.Clone(r) // the LP's values
	for j, isInt := range p.Integer {
		if !isInt || lo[j] == up[j] {
			continue
		}
		switch {
		case p.ColLower[j] == 0 && p.ColUpper[j] == 1:
			r[j] = 0
			if v[j] > 1e-9 {
				r[j] = 1
			}
		default:
			r[j] = min(p.ColUpper[j], math.Ceil(v[j]-1e-7))
		}
	}
	obj, ok := feasiblePoint(p, r)
	if ok {
		if obj >= inc {
			return nil, math.Inf(1), nil
		}
		return r, obj, nil
	}
	// Commitments that share a stock may hold more than it once rounded
	// up: the rounded-up ones of least fraction go back down until each
	// stretch keeps the stock, and the uses are solved again with every
	// integer fixed.
	if !pm.keepStock(in, r, v) {
		return nil, math.Inf(1), nil
	}
	for j, isInt := range p.Integer {
		if isInt {
			lo[j], up[j] = r[j], r[j]
		}
	}
	r, obj, err = st.fixed(ctx, p, lo, up)
	if err != nil || r == nil || obj >= inc {
		return nil, math.Inf(1), err
	}
	return r, obj, nil
}

// keepStock lowers, offer by offer, the node counts in x of commitments
// that v (the relaxed counts) holds fractionally and x rounds up, until
// the commitments of every stretch hold at most the offer's stock: in each
// stretch over it, the count of least fraction goes down by one. It
// reports whether every stretch keeps the stock.
func (pm *poolModel) keepStock(in *instance, x, v []float64) bool {
	for _, k := range pm.pl.os {
		cols := pm.nCols[k]
		od := &in.os[k]
		if len(cols) == 0 || math.IsInf(od.stock, 1) {
			continue
		}
		n := make([]int, len(cols))
		for i, j := range cols {
			if j >= 0 {
				n[i] = int(x[j])
			}
		}
		for s := range in.segs {
			for float64(heldAt(od, n, s)) > od.stock {
				best, frac := -1, math.Inf(1)
				for i, j := range cols {
					if j < 0 || !od.commits[i].holds(s) || float64(n[i]) <= math.Floor(v[j]+1e-7) {
						continue
					}
					if f := v[j] - math.Floor(v[j]); f < frac {
						best, frac = i, f
					}
				}
				if best < 0 {
					return false
				}
				n[best]--
				x[cols[best]] = float64(n[best])
			}
		}
	}
	return true
}

// usedPairs adds to set the pairs point x uses (a placement, or any use).
func (pm *poolModel) usedPairs(x []float64, set map[int]bool) {
	for q, xs := range pm.xCol {
		if y := pm.yCol[q]; y >= 0 && x[y] > 0 {
			set[q] = true
			continue
		}
		if h, ok := pm.hCol[q]; ok && x[h] > 0 {
			set[q] = true
			continue
		}
		for _, j := range xs {
			if j >= 0 && x[j] > 0 {
				set[q] = true
				break
			}
		}
	}
}

// priceBound is a lower bound of pool model pm's optimum from its rows of
// demand, work and gang runs alone, with the capacity rows of committed
// offers and the placements' link rows priced (Lagrangian relaxation):
// a link row at its placement's one-off cost, and slice t's capacity row at
//
//	π_t = min over the commitments i covering t of f_i·w_t / (GPUs per node · Σ_{t' ∈ i} w_t'),
//
// w_t the slice's hours times the slices it stands for, so that no
// commitment's node is worth more than its fixed cost f_i at the prices
// (its reduced cost stays ≥ 0). Every use then costs its own cost plus
// the price of the capacity it takes, each demand or work row is met by
// its cheapest columns within their bounds (a fractional knapsack), a
// gang by its cheapest run, and every other column and row is left at the
// bound of least cost or dropped: the bound of a relaxation, so never
// above the optimum. It needs no LP, which is its point on a model whose
// relaxations a limit does not leave time for; −Inf when some column of
// negative reduced cost has no upper bound or a row cannot be met.
func (pm *poolModel) priceBound(in *instance) float64 {
	b, _, _ := pm.pricedBase(in)
	return b
}

// pricedBase is priceBound, whether it prices the link rows of groups of
// shared uses (prices' grouped: tried first, then without them), and the
// pricer (pricer.go) that evaluated it, for ascendPrices.
func (pm *poolModel) pricedBase(in *instance) (float64, bool, *pricer) {
	pr := pm.newPricer()
	if b := pr.bound(pm.prices(in, true), nil); !math.IsInf(b, -1) {
		return b, true, pr
	}
	return pr.bound(pm.prices(in, false), nil), false, pr
}

// prices are priceBound's prices of the rows, by row: the capacity rows of
// committed offers (capacityPrices) and the placements' link rows.
//
// A placement's link row (its use over the horizon, scaled, at most its
// binary y) is priced at y's one-off cost: y's reduced cost stays ≥ 0 and
// every use pays its share of the one-off cost, as the relaxation does
// (on PortfolioM this is the gap between the relaxation and the bound
// without it: 27 818 202 against 26 869 825, the relaxation 27 819 953).
// Where other pairs' hours enter the row with a negative coefficient (a
// group of shared uses) their columns may price below 0: counted at their
// upper bounds, or, unbounded, making the bound −Inf, when the bound is
// taken again with those rows left out (grouped false).
func (pm *poolModel) prices(in *instance, grouped bool) []float64 {
	p := pm.prob
	price := make([]float64, p.NumRows())
	pm.capacityPrices(in, price)
	for q, r := range pm.linkRow {
		if y := pm.yCol[q]; y >= 0 && p.Cost[y] > 0 && (grouped || len(pm.groups[q]) <= 1) {
			price[r] = p.Cost[y] * (1 - 1e-9)
		}
	}
	return price
}

// capacityPrices sets the prices of the capacity rows of committed offers
// that priceBound takes (π_t above) in price.
func (pm *poolModel) capacityPrices(in *instance, price []float64) {
	for _, k := range pm.pl.os {
		od := &in.os[k]
		rows := pm.stockRow[k]
		if !od.committed || rows == nil {
			continue
		}
		for i := range od.commits {
			c := &od.commits[i]
			if pm.nCols[k][i] < 0 || c.fixedF <= 0 {
				continue
			}
			w := 0.0
			for t, r := range rows {
				if r >= 0 && c.covers(in.seg[t]) {
					w += in.hours[t] * pm.mult[t]
				}
			}
			if w <= 0 {
				continue
			}
			for t, r := range rows {
				if r < 0 || !c.covers(in.seg[t]) {
					continue
				}
				// A hair below the commitment's share, so that rounding in
				// the sums never leaves a node's reduced cost below zero.
				pi := c.fixedF * in.hours[t] * pm.mult[t] / (od.gpn * w) * (1 - 1e-9)
				if price[r] == 0 || pi < price[r] {
					price[r] = pi
				}
			}
		}
		// A slice that a commitment without fixed cost covers has capacity
		// at no cost: no price. (One that no commitment covers has none
		// either; its row, which holds its uses at zero, is dropped.)
		for t, r := range rows {
			if r < 0 {
				continue
			}
			for i := range od.commits {
				c := &od.commits[i]
				if pm.nCols[k][i] >= 0 && c.covers(in.seg[t]) && c.fixedF <= 0 {
					price[r] = 0 // a commitment free of fixed cost: no price
				}
			}
		}
	}
}
