package lp

import (
	"errors"
	"math"
	"sort"
)

// This file holds the propagation dive and the fix-and-propagate
// completion it calls at every step. The dive fixes fractional integer
// columns one at a time, propagates each fixing on the rows (propagate.go),
// applies the implied bounds to the LP and re-solves warm, backtracking on
// infeasibility; once it has fixed most integer columns it hands the rest
// to a sub-MIP (heuristics.go), whose small LPs solve the remainder
// exactly. The completion fixes the remaining columns without LPs, to their
// LP values rounded, each fixing propagated, with a few backtracks. Every
// point either finds is a candidate incumbent, checked on the original
// problem. Without a sub-MIP at the end, 10teams's dive finds 948 at best;
// with it, the optimum 924 at the root.

// fixPropQuick is the number of backtracks of a completion inside a dive.
const fixPropQuick = 20

// fixAndPropagateFrom completes the fixings of pr by fix-and-propagate
// (values rounded to the nearest, few backtracks) from the LP point x and
// returns the point found or nil; pr is left as it was.
func (sr *mipSearch) fixAndPropagateFrom(pr *propagator, x []float64) []float64 {
	m := pr.mark()
	defer pr.undo(m)
	return sr.complete(pr, x, fixPropQuick)
}

// complete fixes the free integer columns of pr in the order of their
// values in x, largest first, each to its value rounded to the nearest
// integer (the other neighbour when that fails), with at most maxBack
// backtracks, and returns the point found or nil. It leaves pr with its
// fixings (the caller undoes them when it must).
func (sr *mipSearch) complete(pr *propagator, x []float64, maxBack int) []float64 {
	order := append([]int(nil), sr.intCols...)
	key := func(j int) float64 { return min(max(x[j], sr.rootLo[j]), sr.rootUp[j]) }
	sort.SliceStable(order, func(a, b int) bool { return key(order[a]) > key(order[b]) })
	// choice records a free decision: the column, the trail mark before it
	// and whether its other value remains to be tried.
	type choice struct {
		k      int // position in order
		col    int
		mark   int
		alt    float64
		hasAlt bool
	}
	var stack []choice
	first := func(j int) (float64, float64) {
		v := min(max(x[j], pr.lo[j]), pr.up[j])
		fl := math.Floor(v + intTol)
		var a, b float64
		switch {
		case v-fl <= intTol:
			a, b = fl, fl+1
			if fl+1 > pr.up[j] {
				b = fl - 1
			}
		case v-fl >= 0.5:
			a, b = fl+1, fl
		default:
			a, b = fl, fl+1
		}
		return a, b
	}
	backtracks := 0
	k := 0
	for {
		// Next free column.
		for k < len(order) && pr.lo[order[k]] == pr.up[order[k]] {
			k++
		}
		if k == len(order) {
			break
		}
		j := order[k]
		a, b := first(j)
		m := pr.mark()
		if pr.fix(j, a) {
			stack = append(stack, choice{k: k, mark: m, alt: b, hasAlt: true, col: j})
			k++
			continue
		}
		pr.undo(m)
		if b >= pr.lo[j] && b <= pr.up[j] && pr.fix(j, b) {
			// Forced: no choice left at this column.
			stack = append(stack, choice{k: k, mark: m, col: j})
			k++
			continue
		}
		pr.undo(m)
		// Backtrack to the last choice with an alternative.
		for {
			if len(stack) == 0 || backtracks >= maxBack {
				return nil
			}
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pr.undo(c.mark)
			if !c.hasAlt {
				continue
			}
			backtracks++
			jc := c.col
			if c.alt >= pr.lo[jc] && c.alt <= pr.up[jc] && pr.fix(jc, c.alt) {
				stack = append(stack, choice{k: c.k, mark: c.mark, col: jc})
				k = c.k + 1
				break
			}
			pr.undo(c.mark)
		}
	}
	pt := make([]float64, len(x))
	for j := range pt {
		pt[j] = min(max(x[j], pr.lo[j]), pr.up[j])
	}
	for _, j := range sr.intCols {
		pt[j] = pr.lo[j]
	}
	return pt
}

// errDiveOver ends a dive that met its budget or a numerical failure.
var errDiveOver = errors.New("dive over")

// Parameters of the propagation dive.
const (
	propDiveSteps      = 500  // fixings per dive at most
	propDiveBacktracks = 50   // backtracks per dive at most
	propDiveMul        = 2    // iterations per root iteration, at most
	propDiveComplete   = 4    // a completion every so many steps, or with at most as many fractional columns
	propDiveRepairs    = 3    // completions repaired by an LP per dive, at most
	propDiveSubFix     = 0.75 // share of fixed integer columns at which the dive hands over to a sub-MIP
)

// propDiveDue reports whether a propagation dive should start at the
// current node: once, at the root (of the search or of a dive's sub-MIP),
// when the heuristics before it found no incumbent.
func (sr *mipSearch) propDiveDue() bool { return sr.nodes == 1 && !sr.hasInc && !sr.propDived }

// propDiveBudget is the iteration budget of a propagation dive: a multiple
// of the iterations of the root (its LP and cut loop), plus an allowance.
func (sr *mipSearch) propDiveBudget() int { return propDiveMul*sr.mdl.s.iters + diveAllowance }

// propDive dives from node nd, whose LP optimum (value z, values in sr.x)
// is in the model: it fixes the fractional integer column of largest LP
// value to its ceiling (binaries: 1), propagates, applies every bound that
// propagation implied to the LP and re-solves warm; on an infeasible
// fixing (by propagation or by the LP) it fixes the column to its floor
// instead, and gives up when both fail. An integral LP point is a
// candidate incumbent; so is, at every step, the fix-and-propagate
// completion of the LP point. The model's bounds and basis and sr.x are
// restored before it returns; iterations count as dive iterations and
// against budget.
func (sr *mipSearch) propDive(nd *mipNode, z float64, budget int) error {
	sr.propDived = true
	n := sr.w.NumCols()
	lo, up := make([]float64, n), make([]float64, n)
	for j := 0; j < n; j++ {
		lo[j], up[j] = sr.mdl.colBounds(j)
	}
	cols, vals := sr.rowWise()
	pr := newPropagator(sr.p, sr.isInt, cols, vals, lo, up)
	if !pr.propagate() {
		return nil
	}
	saved := sr.mdl.basis()
	xs := append([]float64(nil), sr.x...)
	it0 := sr.mdl.s.iters
	defer func() {
		for j := 0; j < n; j++ {
			if l, u := sr.mdl.colBounds(j); l != lo[j] || u != up[j] {
				sr.mdl.setColBounds(j, lo[j], up[j])
			}
		}
		_ = sr.mdl.setBasis(saved)
		copy(sr.x, xs)
		sr.diveIters += sr.mdl.s.iters - it0
	}()
	// sync applies the propagator's bounds of the columns on the trail
	// after mark to the model.
	sync := func(mark int) {
		for _, c := range pr.trail[mark:] {
			sr.mdl.setColBounds(c.col, pr.lo[c.col], pr.up[c.col])
		}
	}
	unsync := func(mark int) {
		for t := len(pr.trail) - 1; t >= mark; t-- {
			c := pr.trail[t]
			sr.mdl.setColBounds(c.col, c.lo, c.up)
		}
		pr.undo(mark)
	}
	sync(0)
	// try fixes column j to val, propagates and re-solves; it reports
	// whether the LP stays feasible and not prunable, and leaves the model
	// and pr as they were when not.
	var stopErr error
	try := func(j int, val float64) bool {
		m := pr.mark()
		if !pr.fix(j, val) {
			unsync(m)
			return false
		}
		sync(m)
		left := budget - (sr.mdl.s.iters - it0)
		if left <= 0 {
			unsync(m)
			stopErr = errDiveOver
			return false
		}
		st, err := sr.solveLP(left, false)
		if err != nil {
			unsync(m)
			if _, ok := err.(*errStop); ok {
				stopErr = err
			} else {
				stopErr = errDiveOver
			}
			return false
		}
		switch st {
		case Optimal:
			if zc := sr.lpObjective(); !sr.prunable(zc) {
				z = zc
				return true
			}
		case Infeasible:
		default:
			stopErr = errDiveOver
		}
		unsync(m)
		return false
	}
	type decision struct {
		col    int
		mark   int
		alt    float64
		hasAlt bool
	}
	var stack []decision
	var last []float64 // the last completion tried
	backtracks, repairs := 0, 0
	subDone := false
	for step := 0; step < propDiveSteps; step++ {
		j := -1
		best := -1.0
		for _, c := range sr.intCols {
			v := sr.x[c]
			f := v - math.Floor(v)
			if f <= intTol || f >= 1-intTol || pr.lo[c] == pr.up[c] {
				continue
			}
			if f > best {
				j, best = c, f
			}
		}
		if j < 0 {
			if len(sr.fractional(intTol)) == 0 {
				sr.tryIncumbent(sr.x, true)
			}
			return nil
		}
		v := sr.x[j]
		m := pr.mark()
		switch {
		case try(j, math.Ceil(v)):
			stack = append(stack, decision{j, m, math.Floor(v), true})
		case stopErr == nil && try(j, math.Floor(v)):
			stack = append(stack, decision{j, m, 0, false})
		default:
			// Backtrack to the latest decision whose other value is left.
			for {
				if stopErr != nil || len(stack) == 0 || backtracks >= propDiveBacktracks {
					if stopErr == errDiveOver {
						return nil
					}
					return stopErr
				}
				d := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				unsync(d.mark)
				if !d.hasAlt {
					continue
				}
				backtracks++
				if try(d.col, d.alt) {
					stack = append(stack, decision{d.col, d.mark, 0, false})
					break
				}
			}
		}
		if step%propDiveComplete == 0 || len(sr.fractional(intTol)) <= propDiveComplete {
			last, repairs = sr.tryCompletion(pr, last, repairs)
		}
		if !subDone && !sr.isSub {
			fixed := 0
			for _, c := range sr.intCols {
				if pr.lo[c] == pr.up[c] {
					fixed++
				}
			}
			if float64(fixed) >= propDiveSubFix*float64(len(sr.intCols)) {
				subDone = true
				inc0, had := sr.incZ, sr.hasInc
				if _, err := sr.runSubMIP(pr.lo, pr.up, subMIPNodes, max(budget-(sr.mdl.s.iters-it0), diveAllowance), true); err != nil {
					return err
				}
				if sr.hasInc && (!had || sr.incZ < inc0) {
					return nil
				}
			}
		}
	}
	return nil
}

// sameIntegers reports whether x and y (y possibly nil) agree on the
// integer columns.
func sameIntegers(intCols []int, x, y []float64) bool {
	if y == nil {
		return false
	}
	for _, j := range intCols {
		if x[j] != y[j] {
			return false
		}
	}
	return true
}

// tryCompletion offers the fix-and-propagate completion of pr from the LP
// point in sr.x as a candidate incumbent, unless its integer part is that
// of last, the previous completion tried. A candidate whose continuous part
// fails the check is repaired by an LP over the continuous columns (from
// scratch, so at most propDiveRepairs times a dive, counted by repairs)
// when its estimate could improve the incumbent. It returns the new last
// and repairs.
func (sr *mipSearch) tryCompletion(pr *propagator, last []float64, repairs int) ([]float64, int) {
	pt := sr.fixAndPropagateFrom(pr, sr.x)
	if pt == nil || sameIntegers(sr.intCols, pt, last) {
		return last, repairs
	}
	est := sr.p.Offset
	for j, v := range pt {
		est += sr.p.Cost[j] * v
	}
	if sr.hasInc && sr.sense*est >= sr.incZ {
		return pt, repairs
	}
	if !sr.tryIncumbent(pt, false) && repairs < propDiveRepairs && len(sr.intCols) < len(pt) {
		repairs++
		sr.tryIncumbent(pt, true)
	}
	return pt, repairs
}
