package lp

import (
	"math"
	"sort"
	"time"
)

// This file holds the diving heuristic that looks for early incumbents:
// from a node's LP optimum, repeatedly round one fractional integer column
// (the least fractional one, towards its nearest integer; towards the
// incumbent's value once there is one) by tightening its bound, and
// re-solve warm; on an infeasible LP, try the other side once. It ends at
// an integral LP point (a candidate incumbent), a prunable bound, or its
// iteration budget; the node's bounds and basis are then restored.

// Parameters of diving.
const (
	diveEvery     = 25   // a dive every so many nodes at first (while within budget),
	diveBackoff   = 4    // twice as many after each dive that fails, up to 2^diveBackoff times
	diveBudget    = 0.1  // dive iterations per search iteration, at most,
	diveAllowance = 4000 // plus this many
	diveMaxDepth  = 1000 // rounding steps per dive at most
)

// diveDue reports whether a dive should start at the current node: at the
// root, then every diveEvery nodes, an interval that doubles after each
// dive that does not improve an incumbent (up to 2^diveBackoff times) and
// returns to diveEvery after one that does; within the iteration budget.
func (sr *mipSearch) diveDue() bool {
	if sr.nodes != 1 && (sr.nodes%diveEvery != 0 || sr.nodes < sr.diveNext) {
		return false
	}
	return float64(sr.diveIters) <= diveBudget*float64(sr.mdl.s.iters)+diveAllowance
}

// dive runs one dive from node nd, whose LP optimum (value z, values in
// sr.x) is in the model. It restores the model to nd's bounds and optimal
// basis before it returns; sr.x is restored too.
func (sr *mipSearch) dive(nd *mipNode, z float64) error {
	sr.dives++
	had, incZ := sr.hasInc, sr.incZ
	defer func() {
		switch {
		case !had:
			// Without an incumbent a dive is the search's best chance of
			// one (flugpl): no back-off.
		case sr.incZ < incZ:
			sr.diveFails = 0
		default:
			sr.diveFails = min(sr.diveFails+1, diveBackoff)
		}
		sr.diveNext = sr.nodes + diveEvery<<sr.diveFails
	}()
	saved := sr.mdl.basis()
	xs := append([]float64(nil), sr.x...)
	var touched []int
	it0 := sr.mdl.s.iters
	budget := int(diveBudget*float64(sr.mdl.s.iters)) + diveAllowance - sr.diveIters
	defer func() {
		for _, j := range touched {
			sr.mdl.setColBounds(j, sr.rootLo[j], sr.rootUp[j])
		}
		for _, c := range nd.changes {
			sr.mdl.setColBounds(c.col, c.lo, c.up)
		}
		_ = sr.mdl.setBasis(saved)
		copy(sr.x, xs)
		sr.diveIters += sr.mdl.s.iters - it0
	}()
	for step := 0; step < diveMaxDepth; step++ {
		if sr.prunable(z) {
			return nil
		}
		j, up := sr.diveChoice()
		if j < 0 {
			sr.tryIncumbent(sr.x, true)
			return nil
		}
		if step > 0 {
			sr.simpleRounding()
		}
		lo, hi := sr.mdl.colBounds(j)
		v := min(max(sr.x[j], lo), hi) // the LP's tolerances may leave it outside
		touched = append(touched, j)
		for attempt := 0; ; attempt++ {
			if up {
				sr.mdl.setColBounds(j, math.Ceil(v), hi)
			} else {
				sr.mdl.setColBounds(j, lo, math.Floor(v))
			}
			left := budget - (sr.mdl.s.iters - it0)
			if left <= 0 {
				return nil
			}
			st, err := sr.solveLP(left, false)
			if err != nil {
				if _, ok := err.(*errStop); ok {
					return err
				}
				return nil // a numerical failure ends the dive only
			}
			if st == Optimal {
				z = sr.lpObjective()
				break
			}
			if st != Infeasible || attempt == 1 {
				return nil
			}
			up = !up
		}
	}
	return nil
}

// diveChoice picks the column to round in a dive and the direction: the
// fractional integer column with the smallest distance to an integer
// (ties: lowest index), rounded to the nearest integer, or towards the
// incumbent's value when there is an incumbent. It returns −1 when the LP
// point is integral.
func (sr *mipSearch) diveChoice() (int, bool) {
	best, bestUp, bestD := -1, false, math.Inf(1)
	for _, j := range sr.intCols {
		v := sr.x[j]
		f := v - math.Floor(v)
		if f <= intTol || f >= 1-intTol {
			continue
		}
		up := f >= 0.5
		d := math.Min(f, 1-f)
		if sr.hasInc {
			up = sr.incX[j] > v
			d = math.Abs(sr.incX[j] - v)
		}
		if d < bestD {
			best, bestUp, bestD = j, up, d
		}
	}
	return best, bestUp
}

// lockRounding rounds the LP point's fractional integer columns in a
// direction in which no row of the original problem can become violated:
// first those that no row locks in one direction — up when raising the
// column cannot violate a row (its positive coefficients are in rows
// without an upper bound, its negative ones in rows without a lower
// bound), otherwise down when lowering it cannot — then the others, each
// to the nearer integer or else the farther one, whichever keeps every row
// it is in within its bounds at the activities of the point rounded so
// far (a site's choice y ≤ z, once its capacity z is rounded up). Every
// row holds at the LP point within the LP's tolerance, and no move
// worsens a row beyond it: a capacity bought in whole units, rounded up,
// still covers the load the continuous columns put on it. The columns for
// which neither value fits are rounded to the nearest integer; locked
// counts them (the point may then violate rows). It returns nil when the
// LP point is integral.
func (sr *mipSearch) lockRounding() (x []float64, locked int) {
	p := sr.p
	if sr.upLocks == nil {
		sr.upLocks, sr.downLocks = make([]int, p.NumCols()), make([]int, p.NumCols())
		for _, j := range sr.intCols {
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				i, a := p.A.Index[k], p.A.Value[k]
				hasUp, hasLo := !math.IsInf(p.RowUpper[i], 1), !math.IsInf(p.RowLower[i], -1)
				if a > 0 && hasUp || a < 0 && hasLo {
					sr.upLocks[j]++
				}
				if a > 0 && hasLo || a < 0 && hasUp {
					sr.downLocks[j]++
				}
			}
		}
	}
	var rest []int // fractional columns locked both ways
	for _, j := range sr.intCols {
		v := sr.x[j]
		if math.Abs(v-math.Round(v)) <= intTol {
			continue
		}
		if x == nil {
			x = append([]float64(nil), sr.x...)
		}
		switch {
		case sr.upLocks[j] == 0 && math.Ceil(v) <= sr.rootUp[j]:
			x[j] = math.Ceil(v)
		case sr.downLocks[j] == 0 && math.Floor(v) >= sr.rootLo[j]:
			x[j] = math.Floor(v)
		default:
			rest = append(rest, j)
		}
	}
	if x == nil {
		return nil, 0
	}
	if len(rest) > 0 {
		act := make([]float64, p.NumRows())
		for j, v := range x {
			if v == 0 {
				continue
			}
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				act[p.A.Index[k]] += p.A.Value[k] * v
			}
		}
		// fits reports whether moving column j by d keeps each of its rows
		// within bounds, or no further outside them than it is.
		fits := func(j int, d float64) bool {
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				i := int(p.A.Index[k])
				a := act[i] + p.A.Value[k]*d
				lo, up := p.RowLower[i], p.RowUpper[i]
				if a > up+strictTol*max(1, math.Abs(up)) && a > act[i] ||
					a < lo-strictTol*max(1, math.Abs(lo)) && a < act[i] {
					return false
				}
			}
			return true
		}
		for _, j := range rest {
			v := x[j]
			near, far := math.Round(v), math.Floor(v)
			if far == near {
				far = math.Ceil(v)
			}
			t := near
			switch {
			case near >= sr.rootLo[j] && near <= sr.rootUp[j] && fits(j, near-v):
			case far >= sr.rootLo[j] && far <= sr.rootUp[j] && fits(j, far-v):
				t = far
			default:
				locked++
			}
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				act[p.A.Index[k]] += p.A.Value[k] * (t - v)
			}
			x[j] = t
		}
	}
	for _, j := range sr.intCols {
		x[j] = math.Round(x[j])
	}
	return x, locked
}

// Parameters of the sub-MIP heuristics.
const (
	subMIPNodes   = 500 // node limit of one sub-MIP
	subMIPEvery   = 200 // a RINS sub-MIP every so many nodes at first (within budget),
	subMIPBackoff = 5   // twice as many after each that fails, up to 2^subMIPBackoff times
	subMIPMinFix  = 0.5 // smallest share of integer columns a sub-MIP must fix
	subMIPBudget  = 0.5 // sub-MIP nodes per search node, at most,
	subMIPAllowed = 1000
	// A sub-MIP whose problem keeps more than subMIPBigShare of the
	// working problem's size (its nonzeros, columns and rows) gets at most
	// subMIPBigIters times the root LP's iterations, or subMIPBigAllowed.
	subMIPBigShare   = 0.5
	subMIPBigIters   = 1
	subMIPBigAllowed = 20000
	// A RINS is also due after subMIPEffort times the root LP's
	// iterations (at least subMIPEffortMin) of the search's own, while
	// sub-MIPs have had at most subMIPShare of all iterations. The
	// minimum keeps it out of small trees (the MIPLIB instances of
	// TestMIPLIB take 60 000 iterations or fewer), where subMIPEvery
	// nodes pass soon enough.
	subMIPEffort    = 2
	subMIPEffortMin = 50000
	subMIPShare     = 0.15
)

// subMIPDue reports whether a sub-MIP heuristic should run at the current
// node: at the root (RENS), then with an incumbent (RINS) every
// subMIPEvery nodes, an interval that doubles after each RINS that does
// not improve the incumbent (up to 2^subMIPBackoff times) and returns to
// subMIPEvery after one that does; within the node budget. A RINS is also
// due when the search's own simplex iterations since the last sub-MIP
// reach subMIPEffort times the root LP's (doubled the same way), while
// the sub-MIPs below the root have had at most subMIPShare of all
// iterations (subMIPEffortDue): on a large model a node can cost seconds,
// so that subMIPEvery nodes may never pass within the time limit.
func (sr *mipSearch) subMIPDue() bool {
	if sr.isSub {
		return false
	}
	if sr.subMIPEffortDue() {
		return true
	}
	if sr.nodes != 1 && (sr.nodes%subMIPEvery != 0 || !sr.hasInc || sr.nodes < sr.subNext) {
		return false
	}
	return float64(sr.subNodes) <= subMIPBudget*float64(sr.nodes)+subMIPAllowed
}

// subMIPEffortDue reports whether a RINS is due by the search's effort
// (subMIPDue): an incumbent, below the root, at least subMIPEffort root
// LPs' worth of the model's own iterations (subMIPEffortMin at least;
// doubled subFails times) since the last sub-MIP (or RINS that could not
// run), and the iterations of the sub-MIPs below the root within
// subMIPShare of all of them. The root's RENS does not count:
// on a large model it takes about a root LP (a big sub-MIP's cap), which
// would hold the first RINS back until the search had done some six root
// LPs of its own (PortfolioS: never within 120 s).
func (sr *mipSearch) subMIPEffortDue() bool {
	if sr.isSub || sr.nodes <= 1 || !sr.hasInc || sr.rootIters <= 0 {
		return false
	}
	if sr.mdl.s.iters-sr.subMark < max(subMIPEffort*sr.rootIters, subMIPEffortMin)<<sr.subFails {
		return false
	}
	return float64(sr.subIters) <= subMIPShare*float64(sr.iterations())
}

// subMIP runs the sub-MIP heuristic at a node whose LP values are in sr.x:
// RENS without an incumbent (integer columns with integral LP values fixed,
// the others bounded by the floor and ceiling of their value), RINS with
// one (integer columns whose LP and incumbent values agree fixed). The
// restricted problem, with the root's cuts, is searched with a node limit
// by runSubMIP; a solution it finds becomes a candidate incumbent.
func (sr *mipSearch) subMIP() error {
	// The effort trigger counts from here, whether a sub-MIP runs or not.
	byEffort := sr.subMIPEffortDue()
	sr.subMark = sr.mdl.s.iters
	lo := append([]float64(nil), sr.rootLo...)
	up := append([]float64(nil), sr.rootUp...)
	fixed := 0
	var agree []int // RINS: the integer columns fixed
	for _, j := range sr.intCols {
		v := sr.x[j]
		r := math.Round(v)
		integral := math.Abs(v-r) <= intTol
		switch {
		case sr.hasInc && integral && sr.incX[j] == r:
			lo[j], up[j] = r, r
			fixed++
			agree = append(agree, j)
		case !sr.hasInc && integral:
			lo[j], up[j] = r, r
			fixed++
		case !sr.hasInc:
			lo[j], up[j] = max(lo[j], math.Floor(v)), min(up[j], math.Ceil(v))
		}
	}
	if sr.hasInc {
		fixed -= sr.widenRINS(agree, lo, up, len(sr.intCols)-fixed)
	}
	if float64(fixed) < subMIPMinFix*float64(len(sr.intCols)) {
		return nil
	}
	inc0 := sr.incZ
	iters := 0
	if byEffort {
		// Due by effort: capped like a big sub-MIP, so that it costs
		// at most a share of the effort that made it due.
		iters = max(subMIPBigIters*sr.rootIters, subMIPBigAllowed)
	}
	sub, err := sr.runSubMIP(lo, up, subMIPNodes, iters, false)
	if err != nil || sub == nil {
		return err
	}
	if sr.nodes > 1 {
		free := len(sr.intCols) - fixed
		switch {
		case sr.incZ < inc0:
			sr.subFails = 0
		case len(sub.open) == 0:
			// Searched to the end without a better point: the
			// neighbourhood was too small, the next one twice as large.
			sr.rinsFree = 2 * max(free, 1)
			sr.subFails = min(sr.subFails+1, subMIPBackoff)
		default:
			// Stopped by its node limit: too large.
			sr.rinsFree = free / 2
			sr.subFails = min(sr.subFails+1, subMIPBackoff)
		}
		sr.subNext = sr.nodes + subMIPEvery<<sr.subFails
	}
	return nil
}

// widenRINS enlarges a RINS neighbourhood: agree holds the integer
// columns RINS fixes (their bounds in lo and up), free is the number of
// integer columns it leaves free. It frees columns of agree, never so many
// that fewer than subMIPMinFix of the integer columns stay fixed, and
// returns how many it freed:
//
//   - the columns that share an equality row with a free integer column,
//     at most free of them. A free column of an equality row whose other
//     columns are all fixed cannot move: a gang's choice in its assignment
//     row, where the incumbent's choice disagrees with the LP and is free
//     while every other choice agrees on 0 and is fixed, so the sub-MIP can
//     only return the incumbent's choice (the over-time gang models);
//   - then others, until sr.rinsFree integer columns are free: the
//     neighbourhood grows after each sub-MIP searched to its end without a
//     better point (subMIP).
//
// Within each group, the columns whose reduced cost at the node is the
// smallest in magnitude (the cheapest to move) come first.
func (sr *mipSearch) widenRINS(agree []int, lo, up []float64, free int) int {
	maxFree := len(sr.intCols) - int(math.Ceil(subMIPMinFix*float64(len(sr.intCols))))
	if free >= maxFree || len(agree) == 0 {
		return 0
	}
	rowCols, _ := sr.rowWise()
	near := make([]bool, sr.p.NumCols())
	for i, cols := range rowCols {
		if sr.p.RowLower[i] != sr.p.RowUpper[i] {
			continue
		}
		hasFree := false
		for _, j := range cols {
			if sr.isInt[j] && lo[j] < up[j] {
				hasFree = true
				break
			}
		}
		if hasFree {
			for _, j := range cols {
				near[j] = true
			}
		}
	}
	nNear := 0
	for _, j := range agree {
		if near[j] {
			nNear++
		}
	}
	want := min(max(min(nNear, free), sr.rinsFree-free), maxFree-free, len(agree))
	if want <= 0 {
		return 0
	}
	s := sr.mdl.s
	cost := func(j int) float64 { return math.Abs(s.d[j] / sr.mdl.colScale[j]) }
	sort.SliceStable(agree, func(a, b int) bool {
		ja, jb := agree[a], agree[b]
		if near[ja] != near[jb] {
			return near[ja]
		}
		return cost(ja) < cost(jb)
	})
	for _, j := range agree[:want] {
		lo[j], up[j] = sr.rootLo[j], sr.rootUp[j]
	}
	return want
}

// bigSubMIP reports whether the reduced problem red of q keeps more than
// subMIPBigShare of q's size: its nonzeros, columns and rows.
func bigSubMIP(red, q *Problem) bool {
	size := func(p *Problem) float64 { return float64(len(p.A.Index) + p.NumCols() + p.NumRows()) }
	return size(red) > subMIPBigShare*size(q)
}

// runSubMIP searches the working problem (with the root's cuts) restricted
// to the column bounds lo and up, its fixed columns removed (submip.go),
// with the node limit and at most iters simplex iterations (0: no cap but
// the search's; a big sub-MIP, bigSubMIP, gets at most subMIPBigIters
// times the root LP's iterations, or subMIPBigAllowed), with a
// propagation dive at its root when dive is set, and offers the solution
// it finds as a candidate incumbent. A limit or a
// failure inside the sub-search only ends it: the search sees a limit at
// its next check. It returns the sub-search (nil when it could not run: no
// time or iterations left, bounds without an integer, or fixings that
// violate a row) and an error only for a failure of the model.
func (sr *mipSearch) runSubMIP(lo, up []float64, nodes, iters int, dive bool) (*mipSearch, error) {
	q := *sr.w
	q.ColLower, q.ColUpper = lo, up
	red, ok := reduceFixed(&q)
	if !ok {
		return nil, nil
	}
	if len(red.keep) == 0 {
		sr.tryIncumbent(red.x, true)
		return nil, nil
	}
	b := sr.mdl.basis()
	if bigSubMIP(red.q, &q) {
		// Most of the problem stays (the continuous columns are never
		// fixed): the sub-MIP's LPs cost about what the search's own do.
		// Its iterations are capped at a multiple of the root LP's, and
		// its basic columns stay in it, fixed or not, so that the basis,
		// reduced, is the model's optimal one (submip.go) instead of one
		// whose first LP is a solve of its own (PortfolioS: 14 853
		// iterations, 12 s). Uncapped, PortfolioS's root RENS ran 133 s
		// for 4 nodes; RINS at its root found a better incumbent after
		// 19 670 iterations in one run, none within 26 650 (the root LP's
		// iterations, its cap) in others.
		keep := make([]bool, q.NumCols())
		for j, st := range b.Cols {
			keep[j] = st == Basic
		}
		if red, ok = reduceFixedKeep(&q, keep); !ok {
			return nil, nil
		}
		c := max(subMIPBigIters*sr.rootIters, subMIPBigAllowed)
		if iters == 0 || c < iters {
			iters = c
		}
	}
	opt := Options{NodeLimit: nodes, Gap: sr.opt.Gap, noMIR: sr.opt.noMIR}
	if !sr.lim.Deadline.IsZero() {
		opt.TimeLimit = time.Until(sr.lim.Deadline)
		if opt.TimeLimit <= 0 {
			return nil, nil
		}
	}
	if sr.opt.IterationLimit > 0 {
		opt.IterationLimit = sr.opt.IterationLimit - sr.iterations()
		if opt.IterationLimit <= 0 {
			return nil, nil
		}
	}
	if iters > 0 && (opt.IterationLimit == 0 || iters < opt.IterationLimit) {
		opt.IterationLimit = iters
	}
	sub, err := newMIPSearch(sr.ctx, red.q, opt, time.Now())
	if err != nil {
		return nil, nil // e.g. a column whose bounds contain no integer
	}
	sub.isSub, sub.cutsDone, sub.propDived = true, true, !dive
	// Start from the model's basis, reduced (submip.go): a hint, the slack
	// basis without it.
	if b := red.basis(&q, b); b != nil {
		_ = sub.mdl.setBasis(b)
	}
	if sr.hasInc {
		sub.incX, sub.incZ, sub.hasInc = red.restrict(sr.incX), sr.incZ, true
	}
	_, _ = sub.search()
	sr.subNodes += sub.nodes
	if sr.nodes > 1 {
		sr.subIters += sub.iterations()
	}
	sr.subMark = sr.mdl.s.iters
	sr.givenUp += sub.givenUp
	sr.extraIters += sub.iterations()
	if sub.hasInc && (!sr.hasInc || sub.incZ < sr.incZ) {
		sr.tryIncumbent(red.expand(sub.incX), true)
	}
	return sub, nil
}
