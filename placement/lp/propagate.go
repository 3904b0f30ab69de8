package lp

import "math"

// This file holds domain propagation on the rows of a MILP: the activity
// bounds of each row (the smallest and largest value of aᵀx over the
// current column bounds) imply bounds on each of its columns,
//
//	a_j > 0:  x_j ≤ (u − (minAct − a_j·l_j)) / a_j,  x_j ≥ (l − (maxAct − a_j·u_j)) / a_j,
//
// and the reverse for a_j < 0, rounded inwards for integer columns. A row
// whose activity range misses [l, u] proves the bounds infeasible. Bound
// changes are recorded on a trail, so that a search can undo them back to
// a mark. The propagator serves the heuristics: the points it helps build
// are candidates, each checked on the original problem.

// Parameters of propagation.
const (
	propTol     = 1e-6 // feasibility tolerance of a row, relative to max(1, |bound|)
	propMinStep = 1e-3 // smallest tightening of a continuous bound, relative to max(1, range)
	propMaxWork = 50   // row visits per column per propagate call, at most (on average)
)

// propChange is an entry of the trail: a column's bounds before a change.
type propChange struct {
	col    int
	lo, up float64
}

// propagator holds the column bounds of a problem and the activity bounds
// of its rows under them.
type propagator struct {
	p              *Problem
	isInt          []bool
	rowCols        [][]int
	rowVals        [][]float64
	lo, up         []float64
	minAct, maxAct []float64 // finite parts of the activity bounds
	minInf, maxInf []int     // infinite contributions to them
	trail          []propChange
	queue          []int
	queued         []bool
}

// newPropagator returns a propagator for the rows of p (given by row in
// rowCols and rowVals) with the column bounds lo and up (copied).
func newPropagator(p *Problem, isInt []bool, rowCols [][]int, rowVals [][]float64, lo, up []float64) *propagator {
	m := p.NumRows()
	pr := &propagator{p: p, isInt: isInt, rowCols: rowCols, rowVals: rowVals,
		lo: append([]float64(nil), lo...), up: append([]float64(nil), up...),
		minAct: make([]float64, m), maxAct: make([]float64, m),
		minInf: make([]int, m), maxInf: make([]int, m), queued: make([]bool, m)}
	for i := 0; i < m; i++ {
		pr.recompute(i)
	}
	return pr
}

// contrib returns the smallest and largest value of a·x over [lo, up].
func contrib(a, lo, up float64) (mn, mx float64) {
	if a > 0 {
		return a * lo, a * up
	}
	return a * up, a * lo
}

// others returns the finite activity bound of a row without one column's
// contribution c, from the row's bound act (its finite part) and inf (how
// many contributions are infinite); false when the rest is infinite.
func others(act float64, inf int, c float64) (float64, bool) {
	switch {
	case inf == 0:
		return act - c, true
	case inf == 1 && math.IsInf(c, 0):
		return act, true
	}
	return 0, false
}

// recompute sets the activity bounds of row i from scratch.
func (pr *propagator) recompute(i int) {
	mn, mx, ni, xi := 0.0, 0.0, 0, 0
	for k, j := range pr.rowCols[i] {
		cmin, cmax := contrib(pr.rowVals[i][k], pr.lo[j], pr.up[j])
		if math.IsInf(cmin, 0) {
			ni++
		} else {
			mn += cmin
		}
		if math.IsInf(cmax, 0) {
			xi++
		} else {
			mx += cmax
		}
	}
	pr.minAct[i], pr.maxAct[i], pr.minInf[i], pr.maxInf[i] = mn, mx, ni, xi
}

// mark returns the current position of the trail.
func (pr *propagator) mark() int { return len(pr.trail) }

// undo restores the bounds recorded on the trail after mark.
func (pr *propagator) undo(mark int) {
	for len(pr.trail) > mark {
		c := pr.trail[len(pr.trail)-1]
		pr.trail = pr.trail[:len(pr.trail)-1]
		pr.apply(c.col, c.lo, c.up)
	}
	for _, i := range pr.queue {
		pr.queued[i] = false
	}
	pr.queue = pr.queue[:0]
}

// apply sets the bounds of column j, updating the activities of its rows
// (no trail entry, no queueing).
func (pr *propagator) apply(j int, lo, up float64) {
	p := pr.p
	olo, oup := pr.lo[j], pr.up[j]
	pr.lo[j], pr.up[j] = lo, up
	for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
		i, a := int(p.A.Index[k]), p.A.Value[k]
		if a == 0 {
			continue
		}
		omin, omax := contrib(a, olo, oup)
		nmin, nmax := contrib(a, lo, up)
		if math.IsInf(omin, 0) || math.IsInf(nmin, 0) || math.IsInf(omax, 0) || math.IsInf(nmax, 0) {
			pr.recompute(i)
			continue
		}
		pr.minAct[i] += nmin - omin
		pr.maxAct[i] += nmax - omax
	}
}

// set tightens the bounds of column j to [lo, up] (intersected with the
// current ones), records the change and queues j's rows. It reports false
// when the bounds cross or leave no finite value (an upper bound of −Inf,
// a lower one of +Inf, from data near float64's limits).
func (pr *propagator) set(j int, lo, up float64) bool {
	// A bound computed from data near float64's limits can be NaN (no
	// information) or an infinite one on the wrong side (−1e308/1e-12 =
	// −Inf as an upper bound: no finite value is left).
	if math.IsNaN(lo) {
		lo = pr.lo[j]
	}
	if math.IsNaN(up) {
		up = pr.up[j]
	}
	lo, up = max(lo, pr.lo[j]), min(up, pr.up[j])
	if lo == pr.lo[j] && up == pr.up[j] {
		return true
	}
	if lo > up || math.IsInf(lo, 1) || math.IsInf(up, -1) {
		return false
	}
	pr.trail = append(pr.trail, propChange{j, pr.lo[j], pr.up[j]})
	pr.apply(j, lo, up)
	p := pr.p
	for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
		if i := int(p.A.Index[k]); !pr.queued[i] {
			pr.queued[i] = true
			pr.queue = append(pr.queue, i)
		}
	}
	return true
}

// fix sets column j to v and propagates; it reports false on infeasibility
// (the bounds are then left as they were at the point of failure; undo to
// a mark restores them).
func (pr *propagator) fix(j int, v float64) bool {
	if !pr.set(j, v, v) {
		return false
	}
	return pr.propagate()
}

// propagate processes the queued rows until no bound changes, or the work
// limit; it reports false when a row proves the bounds infeasible.
func (pr *propagator) propagate() bool {
	work := propMaxWork * (len(pr.lo) + 1)
	for len(pr.queue) > 0 {
		i := pr.queue[0]
		pr.queue = pr.queue[1:]
		pr.queued[i] = false
		work -= len(pr.rowCols[i])
		if work < 0 {
			break
		}
		if !pr.propagateRow(i) {
			for _, r := range pr.queue {
				pr.queued[r] = false
			}
			pr.queue = pr.queue[:0]
			return false
		}
	}
	for _, r := range pr.queue {
		pr.queued[r] = false
	}
	pr.queue = pr.queue[:0]
	return true
}

// propagateRow tightens the bounds of row i's columns from its activity
// bounds; false on infeasibility.
func (pr *propagator) propagateRow(i int) bool {
	rl, ru := pr.p.RowLower[i], pr.p.RowUpper[i]
	tl, tu := propTol*max(1, math.Abs(rl)), propTol*max(1, math.Abs(ru))
	if pr.minInf[i] == 0 && pr.minAct[i] > ru+tu || pr.maxInf[i] == 0 && pr.maxAct[i] < rl-tl {
		return false
	}
	// Nothing to imply when neither side can bind.
	useU := !math.IsInf(ru, 1) && pr.minInf[i] <= 1
	useL := !math.IsInf(rl, -1) && pr.maxInf[i] <= 1
	if !useU && !useL {
		return true
	}
	for k, j := range pr.rowCols[i] {
		a := pr.rowVals[i][k]
		lo, up := pr.lo[j], pr.up[j]
		if lo == up {
			continue
		}
		cmin, cmax := contrib(a, lo, up)
		nlo, nup := lo, up
		if useU {
			// The others' smallest activity.
			if rest, ok := others(pr.minAct[i], pr.minInf[i], cmin); ok {
				if b := (ru - rest) / a; a > 0 {
					nup = min(nup, b+tu/a)
				} else {
					nlo = max(nlo, b+tu/a)
				}
			}
		}
		if useL {
			// The others' largest activity.
			if rest, ok := others(pr.maxAct[i], pr.maxInf[i], cmax); ok {
				if b := (rl - rest) / a; a > 0 {
					nlo = max(nlo, b-tl/a)
				} else {
					nup = min(nup, b-tl/a)
				}
			}
		}
		if pr.isInt[j] {
			nlo, nup = math.Ceil(nlo-intTol), math.Floor(nup+intTol)
		} else {
			step := propMinStep * max(1, up-lo)
			if math.IsInf(step, 0) {
				step = propMinStep * max(1, math.Abs(nlo), math.Abs(nup))
			}
			if nlo-lo < step {
				nlo = lo
			}
			if up-nup < step {
				nup = up
			}
		}
		if nlo > nup {
			return false
		}
		if nlo > lo || nup < up {
			pr.set(j, nlo, nup)
		}
	}
	return true
}
