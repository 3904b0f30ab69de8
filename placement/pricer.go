package placement

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/gputco/gputco/placement/lp"
)

// priceBound's prices are one choice among many: any price π_r ≥ 0 of a
// row r of the form Σ a_j·x_j ≤ u that it leaves out (capacity and stock
// rows, a job's width, the placements' links, a spot share, the budget)
// gives a bound, the same Lagrangian relaxation, provided no column
// without an upper bound is left with a negative reduced cost. Its
// capacity prices spread a node's fixed cost evenly over the slices, as
// if every node were busy in every slice; where services peak together
// the relaxation charges the peak slices, and where stock runs out it
// charges the offers in demand. ascendPrices finds such prices by
// projected subgradient steps (Polyak's step towards the first plan's
// cost, halved when the bound stops rising): the bound's point x uses
// row r by g_r = Σ a_j·x_j − u_r, and the prices move by g, then back
// within what keeps the columns without an upper bound at a reduced cost
// ≥ 0. Solve takes the steps on a large model's coarse model (coarse.go),
// whose relaxation is a relaxation of the model's, where a step takes a
// fraction of the time: on PortfolioL, whose relaxations take minutes,
// the bound rises from 94.7 million (priceBound of the model) to 127.7
// million in some 110 steps of 0.07 s on two cores (its first plan: 128.2
// million). The step is halved only after eight steps without a better
// bound: after three, the bound stopped at 127.5 million.

// Limits of ascendPrices.
const (
	ascentSteps   = 300  // the most steps
	ascentStall   = 8    // steps without a better bound before the step is halved
	ascentHalving = 6    // halvings before it stops
	ascentMinRise = 1e-5 // a better bound is better by this much (relative)
)

// ascendPrices returns a bound of pm's optimum at least b0, priceBound's
// bound (grouped and evaluated by pr, as pricedBase returns them), by
// subgradient steps on the prices
// of the rows priceBound leaves out or prices, towards target (a plan's
// cost: no bound is above it). It stops after ascentSteps steps, when the
// step has been halved ascentHalving times, when the bound is within
// 1e-6 of target, or when ctx ends; the steps and the bound do not depend
// on time otherwise. (A deadline does not cut the steps short: on the
// models that take them, the relaxation's bound comes minutes later, and
// a short limit's plan is the first plan with the best bound known.)
// report, if not nil, is called with each better bound.
func (pm *poolModel) ascendPrices(ctx context.Context, in *instance, pr *pricer, grouped bool, b0, target float64, report func(float64)) float64 {
	p := pm.prob
	m, n := p.NumRows(), p.NumCols()
	if math.IsInf(b0, 0) || math.IsNaN(b0) || !(target > b0) || math.IsInf(target, 0) {
		return b0
	}
	// The rows priced: every ≤ row but the kept ones (demand, work, gang
	// runs), which the bound meets at least cost.
	priced := make([]bool, m)
	var rows []int
	for i := range m {
		priced[i] = pr.kept[i] == 0 && math.IsInf(p.RowLower[i], -1) && !math.IsInf(p.RowUpper[i], 1)
		if priced[i] {
			rows = append(rows, i)
		}
	}
	price := pm.prices(in, grouped) // the start: priceBound's
	// The columns without an upper bound that have a negative entry in a
	// priced row: their reduced cost c_j + Σ π_r·a_rj must stay ≥ 0.
	type hold struct {
		rows []int
		coef []float64 // −a_rj
		cost float64
	}
	var holds []hold
	for j := range n {
		if !math.IsInf(p.ColUpper[j], 1) {
			continue
		}
		var h hold
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			if a := p.A.Value[e]; a < 0 && priced[p.A.Index[e]] {
				h.rows = append(h.rows, int(p.A.Index[e]))
				h.coef = append(h.coef, -a)
			}
		}
		if h.rows != nil {
			h.cost = max(p.Cost[j], 0)
			holds = append(holds, h)
		}
	}
	best := b0
	x := make([]float64, n)
	use := make([]float64, m)
	scale := make([]float64, m)
	theta, stall, halvings := 1.0, 0, 0
	for step := 0; step < ascentSteps; step++ {
		if ctx.Err() != nil {
			break
		}
		// The step from the current prices' point.
		clear(x)
		b := pr.bound(price, x)
		if math.IsInf(b, -1) || math.IsNaN(b) {
			break
		}
		rise := b > best+ascentMinRise*max(1, math.Abs(best))
		if b > best && report != nil {
			report(b)
		}
		best = max(best, b)
		if rise {
			stall = 0
		} else if stall++; stall >= ascentStall {
			if halvings++; halvings > ascentHalving {
				break
			}
			theta, stall = theta/2, 0
		}
		if best >= target-1e-6*max(1, math.Abs(target)) {
			break
		}
		clear(use)
		for j, v := range x {
			if v == 0 {
				continue
			}
			for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
				use[p.A.Index[e]] += p.A.Value[e] * v
			}
		}
		norm := 0.0
		for _, r := range rows {
			if g := use[r] - p.RowUpper[r]; price[r] > 0 || g > 0 {
				norm += g * g
			}
		}
		if !(norm > 0) || math.IsInf(norm, 1) {
			break // the point meets every priced row at its price: b is the relaxation's
		}
		t := theta * (target - b) / norm
		for _, r := range rows {
			price[r] = max(0, price[r]+t*(use[r]-p.RowUpper[r]))
		}
		// Back within the columns' holds: each hold's rows scaled down
		// (the least factor of a row's holds), a hair below.
		for _, r := range rows {
			scale[r] = 1
		}
		for _, h := range holds {
			sum := 0.0
			for k, r := range h.rows {
				sum += price[r] * h.coef[k]
			}
			if sum > h.cost {
				f := h.cost / sum * (1 - 1e-9)
				for _, r := range h.rows {
					scale[r] = min(scale[r], f)
				}
			}
		}
		for _, r := range rows {
			price[r] *= scale[r]
		}
	}
	return best
}

// pricer evaluates priceBound's relaxation at any prices of the rows it
// does not keep: the kept rows (a ≥ row of positive coefficients, demand
// or work, met by a fractional knapsack; a gang's row, its runs summing to
// one, met by its cheapest run) and the columns of each are found once.
type pricer struct {
	p    *lp.Problem
	kept []int8    // 1 a knapsack row, 2 a gang's row, 0 not kept
	row  []int32   // each column's kept row, −1: none
	coef []float64 // its coefficient there
	// The columns of kept row i are cols[start[i]:start[i+1]].
	start []int
	cols  []int32
	// ok says the model has the form the bound needs: no column in two
	// kept rows, positive coefficients there, a gang's runs binary with
	// coefficient 1.
	ok   bool
	d    []float64     // workspace: the reduced costs
	its  [][]priceItem // workspace: a row's columns, by goroutine
	part []float64     // workspace: the bound's part of each chunk
}

// priceItem is a column of a kept row: its reduced cost per unit of the
// row (a gang's: per run), the most of the row it meets, its coefficient.
type priceItem struct {
	j           int
	ratio, most float64
	a           float64
}

// newPricer finds pm's kept rows and their columns.
func (pm *poolModel) newPricer() *pricer {
	p := pm.prob
	m, n := p.NumRows(), p.NumCols()
	pr := &pricer{p: p, kept: make([]int8, m), row: make([]int32, n), coef: make([]float64, n),
		start: make([]int, m+1), d: make([]float64, n), ok: true}
	for _, rows := range pm.demandRow {
		for _, r := range rows {
			if r >= 0 {
				pr.kept[r] = 1
			}
		}
	}
	for _, r := range pm.workRow {
		pr.kept[r] = 1
	}
	for _, r := range pm.gangRow {
		pr.kept[r] = 2
	}
	for j := range n {
		pr.row[j] = -1
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			i := int(p.A.Index[e])
			if pr.kept[i] == 0 {
				continue
			}
			a := p.A.Value[e]
			if pr.row[j] >= 0 || a <= 0 || pr.kept[i] == 2 && (p.ColLower[j] != 0 || p.ColUpper[j] != 1 || a != 1) {
				pr.ok = false // not this model
				return pr
			}
			pr.row[j], pr.coef[j] = int32(i), a
			pr.start[i+1]++
		}
	}
	for i := range m {
		pr.start[i+1] += pr.start[i]
	}
	pr.cols = make([]int32, pr.start[m])
	next := slices.Clone(pr.start[:m])
	for j, r := range pr.row {
		if r >= 0 {
			pr.cols[next[r]] = int32(j)
			next[r]++
		}
	}
	return pr
}

// bound is the relaxation's bound at the prices price (of ≤ rows, ≥ 0)
// or −Inf (a column of negative reduced cost without an upper bound, a
// kept row that cannot be met, a model not of the form); with x, it sets
// x to the point that attains it.
//
// The columns, then the kept rows, are taken in chunks of fixed size, on
// up to GOMAXPROCS goroutines; each chunk's part of the bound is summed in
// the chunks' order, so the bound does not depend on the goroutines.
func (pr *pricer) bound(price, x []float64) float64 {
	if !pr.ok {
		return math.Inf(-1)
	}
	p := pr.p
	b := p.Offset
	for i, pi := range price {
		if pi != 0 {
			b -= pi * p.RowUpper[i] // 0: a capacity row's upper bound
		}
	}
	n, m := p.NumCols(), p.NumRows()
	cc, rc := chunks(n, priceChunkCols), chunks(m, priceChunkRows)
	if len(pr.part) < cc+rc {
		pr.part = make([]float64, cc+rc)
	}
	part := pr.part[:cc+rc]
	inParallel(cc, func(c, _ int) {
		part[c] = pr.columns(price, x, c*priceChunkCols, min(n, (c+1)*priceChunkCols))
	})
	for len(pr.its) < workers(rc) {
		pr.its = append(pr.its, nil)
	}
	inParallel(rc, func(c, w int) {
		part[cc+c] = pr.rows(x, c*priceChunkRows, min(m, (c+1)*priceChunkRows), w)
	})
	for _, v := range part {
		b += v
	}
	if math.IsNaN(b) {
		return math.Inf(-1)
	}
	return b
}

// Chunks of pricer.bound: of columns and of rows.
const (
	priceChunkCols = 1 << 16
	priceChunkRows = 1 << 13
)

// chunks is the number of chunks of size size that n items make.
func chunks(n, size int) int { return (n + size - 1) / size }

// columns sets the reduced costs of columns [lo, hi) at price and returns
// the part of the bound of those not in a kept row, at their bound of
// least cost (setting x there, if not nil); −Inf for one of negative
// reduced cost without an upper bound.
func (pr *pricer) columns(price, x []float64, lo, hi int) float64 {
	p, d := pr.p, pr.d
	b := 0.0
	for j := lo; j < hi; j++ {
		dj := p.Cost[j]
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			dj += price[p.A.Index[e]] * p.A.Value[e]
		}
		d[j] = dj
		if pr.row[j] >= 0 {
			continue // with its row
		}
		lo, up := p.ColLower[j], p.ColUpper[j]
		b += dj * lo
		v := lo
		if dj < 0 && up != lo {
			if math.IsInf(up, 1) {
				return math.Inf(-1)
			}
			b += dj * (up - lo)
			v = up
		}
		if x != nil {
			x[j] = v
		}
	}
	return b
}

// rows returns the part of the bound of kept rows [lo, hi), each met at
// least cost by its columns at the reduced costs columns set (setting x
// there, if not nil), or −Inf for one that cannot be met; w is the
// goroutine, whose workspace it uses.
func (pr *pricer) rows(x []float64, lo, hi, w int) float64 {
	p, d := pr.p, pr.d
	b := 0.0
	for i := lo; i < hi; i++ {
		k := pr.kept[i]
		if k == 0 {
			continue
		}
		need := p.RowLower[i]
		its := pr.its[w][:0]
		for _, j32 := range pr.cols[pr.start[i]:pr.start[i+1]] {
			j := int(j32)
			lo, up, a, dj := p.ColLower[j], p.ColUpper[j], pr.coef[j], d[j]
			b += dj * lo
			need -= a * lo
			if x != nil {
				x[j] = lo
			}
			switch {
			case up == lo:
			case dj < 0 && math.IsInf(up, 1):
				return math.Inf(-1)
			case dj < 0:
				b += dj * (up - lo)
				need -= a * (up - lo)
				if x != nil {
					x[j] = up
				}
			case k == 1:
				its = append(its, priceItem{j, dj / a, a * (up - lo), a})
			default:
				its = append(its, priceItem{j, dj, 1, 1})
			}
		}
		pr.its[w] = its
		if need <= 0 {
			continue // (a gang: a run's negative reduced cost already counted, the bound only lower)
		}
		// The cheapest column first (ties: the lowest), alone when it
		// meets the row or the row is a gang's.
		first := -1
		for k, it := range its {
			if first < 0 || it.ratio < its[first].ratio || it.ratio == its[first].ratio && it.j < its[first].j {
				first = k
			}
		}
		if first < 0 {
			return math.Inf(-1)
		}
		if k == 2 {
			b += its[first].ratio
			if x != nil {
				x[its[first].j] = 1
			}
			continue
		}
		if its[first].most < need {
			slices.SortFunc(its, func(u, v priceItem) int { return cmp.Or(cmp.Compare(u.ratio, v.ratio), cmp.Compare(u.j, v.j)) })
			first = 0
		}
		rest := need
		for _, it := range its[first:] {
			if rest <= 0 {
				break
			}
			v := min(rest, it.most)
			b += it.ratio * v
			rest -= v
			if x != nil {
				x[it.j] += v / it.a
			}
		}
		if rest > 1e-9*max(1, math.Abs(p.RowLower[i])) {
			return math.Inf(-1)
		}
	}
	return b
}
