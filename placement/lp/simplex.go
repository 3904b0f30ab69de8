package lp

import (
	"context"
	"math"
	"time"
)

// This file holds the simplex engine proper. It works on an internal,
// scaled, minimisation form of the problem:
//
//	minimise   Σ cost_j·x_j          over the n structurals and m logicals
//	subject to A·x_S + x_L = 0       (one logical per row: x_L = −A·x_S)
//	           lower_j ≤ x_j ≤ upper_j
//
// so the logical of row i has bounds [−rowUpper_i, −rowLower_i] and the
// slack basis is the identity. All n+m variables are bounded variables;
// there are no bound rows. The matrix is scaled (see scale.go).

// varState is the status of a variable in the internal form.
type varState int8

const (
	basic   varState = iota
	atLower          // non-basic at its (finite) lower bound
	atUpper          // non-basic at its (finite) upper bound
	atZero           // non-basic free variable at zero
)

// Tolerances of the internal (scaled) form.
const (
	primalTol = 1e-7 // primal feasibility (default)
	dualTol   = 1e-7 // dual feasibility (default)
	pivotTol  = 1e-7 // smallest |α| accepted in a ratio test
	checkTol  = 1e-7 // relative disagreement of row-wise and column-wise pivots that triggers a refactorisation
	dseFloor  = 1e-8 // smallest dual steepest-edge weight
)

// outcome is how one simplex phase ended.
type outcome int8

const (
	outOptimal outcome = iota
	outInfeasible
	outUnbounded
	outIterationLimit
	outTimeLimit
	outCancelled
	outNumerical
)

// simplex is the state of the bounded-variable simplex on the internal
// form. It is not safe for concurrent use.
type simplex struct {
	m, n, nt int

	// Scaled structural columns (CSC) and their row-wise copy.
	aStart, aIndex   []int
	aValue           []float64
	arStart, arIndex []int
	arValue          []float64

	// Row-wise copy of the non-basic structurals (pricing.go).
	nbStart, nbEnd, nbIndex, nbEnt, nbPos []int
	nbValue                               []float64
	nbBasic                               []bool

	cost         []float64 // scaled minimisation costs (0 for logicals)
	work         []float64 // working costs: cost + perturbation + shifts
	lower, upper []float64 // bounds, set by setBounds
	fixed        []bool    // lower == upper (a byte the ratio test reads instead of two bounds)

	head  []int // basis position → variable
	pos   []int // variable → basis position, or -1
	state []varState
	x, d  []float64 // values and reduced costs of all variables
	y     []float64 // row duals of the last computeDual
	dse   []float64 // dual steepest-edge weights by position

	lu                  luFactor
	factored            bool      // lu factorises the basis head
	luHead              []int     // the basis (position → variable) that lu factorises
	luOK                bool      // lu is a sound factorisation of luHead
	luMark              []bool    // workspace of warmUpdate
	warmLeave           []int     // …
	warmEnter           []int     // …
	warmDse             []float64 // …
	col, row, tau, fvec *svec
	alpha               []float64 // pricing row over all variables
	alphaIdx            []int
	alphaHeld           []int       // workspace of price
	cands, front        []ratioCand // workspace of dualRatio
	ratioIdx            []int       // …
	flips               []int
	unitIdx             []int
	one                 []float64

	// Limits and reporting.
	ctx       context.Context
	start     time.Time
	deadline  time.Time
	iterLimit int
	progress  func(Progress)
	lastProg  time.Time
	sense     float64 // +1 minimise, −1 maximise (for progress reports)
	offset    float64
	passes    int

	iters      int
	perturbed  bool
	rng        uint64
	repairs    int // singular-basis repairs
	rayRow     []float64
	raySign    float64
	rayCol     []float64
	rayEnter   int
	rayDir     float64
	lastStatus outcome
	trace      func(format string, args ...any)
	tolP, tolD float64 // current feasibility tolerances
	infList    []int   // positions that may be primal infeasible (dual simplex)
	infIn      []bool
	// chuzr's scores of the listed positions, reused while the
	// position's value and weight are unchanged (not stale) and nothing
	// but a dual simplex iteration happened since the last chuzr (scoreOK).
	infScore []float64
	infStale []bool
	scoreOK  bool
	nCheck   int
	nRefresh int // optimality confirmed on updated factors (residual.go)
	// unchecked: x, y or d were changed by pivots or computed from updated
	// factors since the last rebuild or successful refresh, so optimality
	// must be confirmed (dualPhase2).
	unchecked bool
	// valid: the values are those of a confirmed optimum of resolveWarm or
	// trialRun, for the non-basic values in xSnap (see warmValues).
	valid bool
	xSnap []float64
}

// ratioCand is a breakpoint of the dual ratio test.
type ratioCand struct {
	j             int
	ratio, harris float64
	abs           float64
}

// newSimplex allocates the engine for m rows and n structurals; the caller
// fills the matrix, costs and bounds and calls initSlackBasis.
func newSimplex(m, n int) *simplex {
	nt := n + m
	s := &simplex{m: m, n: n, nt: nt,
		cost: make([]float64, nt), work: make([]float64, nt),
		lower: make([]float64, nt), upper: make([]float64, nt), fixed: make([]bool, nt),
		head: make([]int, m), pos: make([]int, nt), state: make([]varState, nt),
		x: make([]float64, nt), d: make([]float64, nt), y: make([]float64, m),
		dse: make([]float64, m),
		col: newSvec(m), row: newSvec(m), tau: newSvec(m), fvec: newSvec(m),
		alpha:   make([]float64, nt),
		unitIdx: make([]int, m), one: []float64{1},
		rng: 0x9e3779b97f4a7c15, infIn: make([]bool, m), tolP: primalTol, tolD: dualTol,
		infScore: make([]float64, m), infStale: make([]bool, m),
	}
	for i := range m {
		s.unitIdx[i] = i
	}
	for j := range s.fixed {
		s.fixed[j] = true // the bounds are [0, 0]
	}
	return s
}

// setBounds sets the bounds of variable j (internal form).
func (s *simplex) setBounds(j int, lo, up float64) {
	s.lower[j], s.upper[j] = lo, up
	s.fixed[j] = lo == up
}

// column returns the internal column of variable v.
func (s *simplex) column(v int) ([]int, []float64) {
	if v < s.n {
		a, b := s.aStart[v], s.aStart[v+1]
		return s.aIndex[a:b], s.aValue[a:b]
	}
	i := v - s.n
	return s.unitIdx[i : i+1], s.one
}

// initSlackBasis makes every logical basic and puts every structural at the
// bound its cost prefers.
func (s *simplex) initSlackBasis() {
	for j := 0; j < s.n; j++ {
		s.pos[j] = -1
		s.state[j] = s.preferredState(j, s.cost[j])
		s.x[j] = s.boundValue(j)
	}
	for i := 0; i < s.m; i++ {
		v := s.n + i
		s.head[i] = v
		s.pos[v] = i
		s.state[v] = basic
		s.dse[i] = 1
	}
	s.factored = false
}

// preferredState is the non-basic state of j that suits a reduced cost dj.
func (s *simplex) preferredState(j int, dj float64) varState {
	l, u := s.lower[j], s.upper[j]
	switch {
	case l > math.Inf(-1) && u < math.Inf(1):
		if dj < 0 {
			return atUpper
		}
		return atLower
	case l > math.Inf(-1):
		return atLower
	case u < math.Inf(1):
		return atUpper
	}
	return atZero
}

// nearestState is the non-basic state of j nearest to its current value.
func (s *simplex) nearestState(j int) varState {
	l, u, v := s.lower[j], s.upper[j], s.x[j]
	switch {
	case l > math.Inf(-1) && u < math.Inf(1):
		if v-l > u-v {
			return atUpper
		}
		return atLower
	case l > math.Inf(-1):
		return atLower
	case u < math.Inf(1):
		return atUpper
	}
	return atZero
}

// boundValue is the value of non-basic j in its state.
func (s *simplex) boundValue(j int) float64 {
	switch s.state[j] {
	case atLower:
		return s.lower[j]
	case atUpper:
		return s.upper[j]
	}
	return 0
}

// refactor factorises the basis, repairing a singular one by logicals.
// When the basis was replaced from outside (setBasis: factored is false
// but lu is still sound) and differs from the factorised one in a few
// columns, the factorisation is updated instead (warmUpdate).
func (s *simplex) refactor() {
	if !s.factored && s.luOK && s.warmUpdate() {
		s.factored = true
		s.syncNonbasic()
		return
	}
	singPos, singRow := s.lu.factor(s.m, func(q int) ([]int, []float64) { return s.column(s.head[q]) })
	for k, q := range singPos {
		v := s.head[q]
		s.pos[v] = -1
		s.state[v] = s.nearestState(v)
		s.x[v] = s.boundValue(v)
		lv := s.n + singRow[k]
		s.head[q] = lv
		s.pos[lv] = q
		s.state[lv] = basic
		s.dse[q] = 1
		s.repairs++
	}
	s.luHead = append(s.luHead[:0], s.head...)
	s.luOK = true
	s.factored = true
	s.syncNonbasic()
}

// invalidate asks for a fresh factorisation at the next refactor.
func (s *simplex) invalidate() {
	s.factored = false
	s.luOK = false
}

// warmChanges is the largest number of basis changes warmUpdate makes by
// updates rather than by a fresh factorisation.
func (s *simplex) warmChanges() int { return max(8, s.m/16) }

// warmUpdate brings the factorisation of luHead to the basis head, which
// may list its variables in other positions, by one update per variable
// that entered, when there are few. The variables that stayed keep their
// factorised positions (head, pos and dse are permuted accordingly). It
// reports false when it does not apply or a pivot is unacceptable; lu is
// then unsound and the caller factorises afresh.
func (s *simplex) warmUpdate() bool {
	if len(s.luHead) != s.m {
		return false
	}
	leave := s.warmLeave[:0]
	for q, v := range s.luHead {
		if s.state[v] != basic {
			leave = append(leave, q)
		}
	}
	s.warmLeave = leave
	if len(leave) > s.warmChanges() || s.lu.numEtas()+len(leave) >= minUpdates {
		return false
	}
	if len(s.luMark) != s.nt {
		s.luMark = make([]bool, s.nt)
	}
	for _, v := range s.luHead {
		s.luMark[v] = true
	}
	enter := s.warmEnter[:0]
	for _, v := range s.head {
		if !s.luMark[v] {
			enter = append(enter, v)
		}
	}
	s.warmEnter = enter
	for _, v := range s.luHead {
		s.luMark[v] = false
	}
	// The entering variables are pivoted in in the order of head, each on
	// the free leaving position of largest |α|; luHead becomes the new
	// basis as they go.
	for _, e := range enter {
		s.ftranColumn(e)
		r, best, cmax := -1, 0.0, 0.0
		for _, i := range s.col.idx[:s.col.n] {
			cmax = max(cmax, math.Abs(s.col.val[i]))
		}
		for t, q := range leave {
			if q >= 0 {
				if a := math.Abs(s.col.val[q]); a > best {
					r, best = t, a
				}
			}
		}
		ok := r >= 0 && best >= pivotTol*max(1, cmax) && s.lu.update(leave[r], s.col)
		s.col.clear()
		if !ok {
			s.luOK = false
			return false
		}
		s.luHead[leave[r]] = e
		leave[r] = -1
	}
	// Permute the weights with the positions.
	if len(s.warmDse) != s.m {
		s.warmDse = make([]float64, s.m)
	}
	for q, v := range s.luHead {
		s.warmDse[q] = s.dse[s.pos[v]]
	}
	copy(s.dse, s.warmDse)
	copy(s.head, s.luHead)
	for q, v := range s.head {
		s.pos[v] = q
	}
	return true
}

// computePrimal sets the basic values from the non-basic ones:
// x_B = B⁻¹·(−N·x_N).
func (s *simplex) computePrimal() {
	v := s.col
	v.clear()
	b := v.val
	for j := 0; j < s.nt; j++ {
		if s.state[j] == basic {
			continue
		}
		xj := s.x[j]
		if xj == 0 {
			continue
		}
		if j < s.n {
			for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
				v.add(s.aIndex[k])
				b[s.aIndex[k]] -= s.aValue[k] * xj
			}
		} else {
			v.add(j - s.n)
			b[j-s.n] -= xj
		}
	}
	s.lu.ftran(v)
	for i, h := range s.head {
		s.x[h] = v.val[i]
	}
	v.clear()
	s.resetInfeasible()
	s.unchecked = s.unchecked || s.lu.numEtas() > 0
}

// computeDual sets y = B⁻ᵀ·work_B and the reduced costs d = work − Aᵀy.
func (s *simplex) computeDual() {
	v := s.row
	v.clear()
	for i, h := range s.head {
		if s.work[h] != 0 {
			v.set(i, s.work[h])
		}
	}
	s.lu.btran(v)
	copy(s.y, v.val)
	v.clear()
	for j := 0; j < s.n; j++ {
		if s.state[j] == basic {
			s.d[j] = 0
			continue
		}
		dj := s.work[j]
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			dj -= s.aValue[k] * s.y[s.aIndex[k]]
		}
		s.d[j] = dj
	}
	for i := 0; i < s.m; i++ {
		v := s.n + i
		if s.state[v] == basic {
			s.d[v] = 0
		} else {
			s.d[v] = s.work[v] - s.y[i]
		}
	}
	s.unchecked = s.unchecked || s.lu.numEtas() > 0
}

// rebuildWork is the cost of rebuild besides the factorisation, in
// entries touched (see luFactor.needRefactor): computePrimal and
// computeDual pass over the matrix and all variables, and the passes after
// a rebuild (syncNonbasic, flipToDualFeasible, the first chuzr) over the
// variables again.
func (s *simplex) rebuildWork() int { return 2*len(s.aIndex) + 5*s.nt }

// rebuild refactorises and recomputes primal and dual values.
func (s *simplex) rebuild() {
	s.refactor()
	s.unchecked = false
	s.computePrimal()
	s.computeDual()
}

// dualInfeasible reports whether non-basic j violates dual feasibility.
func (s *simplex) dualInfeasible(j int) bool {
	if s.lower[j] == s.upper[j] {
		return false
	}
	switch s.state[j] {
	case atLower:
		return s.d[j] < -s.tolD
	case atUpper:
		return s.d[j] > s.tolD
	case atZero:
		return math.Abs(s.d[j]) > s.tolD
	}
	return false
}

// flipToDualFeasible moves boxed non-basic variables to the bound their
// reduced cost calls for. With shift, the others that remain dual
// infeasible get their working cost shifted so that d_j = 0; it returns the
// number of such variables (shifted or not) and whether any flip happened
// (the caller then recomputes the primal values).
func (s *simplex) flipToDualFeasible(shift bool) (infeasible int, flipped bool) {
	for j := 0; j < s.nt; j++ {
		if s.state[j] == basic || !s.dualInfeasible(j) {
			continue
		}
		l, u := s.lower[j], s.upper[j]
		if l > math.Inf(-1) && u < math.Inf(1) {
			if s.d[j] < 0 {
				s.state[j] = atUpper
				s.x[j] = u
			} else {
				s.state[j] = atLower
				s.x[j] = l
			}
			flipped = true
			continue
		}
		infeasible++
		if shift {
			s.work[j] -= s.d[j]
			s.d[j] = 0
		}
	}
	return infeasible, flipped
}

// primalInfeasibility returns the largest bound violation of the basic
// variables (see violation).
func (s *simplex) primalInfeasibility() float64 {
	worst := 0.0
	for _, v := range s.head {
		worst = max(worst, s.violation(v))
	}
	return worst
}

// violation returns how far variable v lies outside its bounds (0 inside).
// It is the one measure of primal infeasibility: chuzr and
// primalInfeasibility must agree on which values exceed tolP, or the dual
// simplex ends "optimal" on a basis that the final check rejects, over and
// over (vpm2: x = 300.0000001000000 above an upper bound of 300 differs
// from it by 1.0000002e-7 > tolP although x ≤ 300+tolP after rounding).
func (s *simplex) violation(v int) float64 {
	return max(s.lower[v]-s.x[v], s.x[v]-s.upper[v], 0)
}

// limit checks the iteration limit every pass and the context, the time
// limit and the progress callback every 32 passes.
func (s *simplex) limit() (outcome, bool) {
	if s.iterLimit > 0 && s.iters >= s.iterLimit {
		return outIterationLimit, true
	}
	s.passes++
	if s.passes&31 != 0 {
		return 0, false
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		return outCancelled, true
	}
	if !s.deadline.IsZero() || s.progress != nil {
		now := time.Now()
		if !s.deadline.IsZero() && now.After(s.deadline) {
			return outTimeLimit, true
		}
		if s.progress != nil && now.Sub(s.lastProg) >= 5*time.Millisecond {
			s.lastProg = now
			// No bound is proven before the LP's end: the working
			// objective is the primal phases' (above the optimum) or the
			// perturbed costs' dual one.
			s.progress(Progress{Iterations: s.iters, Bound: s.sense * math.Inf(-1),
				Incumbent: s.sense * math.Inf(1), Gap: math.Inf(1), Elapsed: now.Sub(s.start)})
		}
	}
	return 0, false
}

// workObjective is Σ work_j·x_j (internal, minimisation, scaled).
func (s *simplex) workObjective() float64 {
	obj := 0.0
	for j := 0; j < s.n; j++ {
		obj += s.work[j] * s.x[j]
	}
	return obj
}

// chuzr chooses the leaving row of the dual simplex: the basic variable
// with the largest squared infeasibility over its steepest-edge weight
// (ties: the lowest position). It scans only the positions listed as
// possibly infeasible and drops those found feasible. Right after a dual
// simplex iteration (scoreOK) the positions it did not touch keep their
// last scores: their values, bounds and weights are the same.
func (s *simplex) chuzr() int {
	reuse := s.scoreOK
	s.scoreOK = false
	best, r := 0.0, -1
	k := 0
	for _, i := range s.infList {
		score := s.infScore[i]
		if !reuse || s.infStale[i] {
			s.infStale[i] = false
			inf := s.violation(s.head[i])
			if !(inf > s.tolP) {
				s.infIn[i] = false
				continue
			}
			score = inf * inf / s.dse[i]
			s.infScore[i] = score
		}
		s.infList[k] = i
		k++
		if score > best || (score == best && i < r) {
			best, r = score, i
		}
	}
	s.infList = s.infList[:k]
	return r
}

// touch lists position i as possibly infeasible after its value or weight
// changed.
func (s *simplex) touch(i int) {
	s.infStale[i] = true
	if !s.infIn[i] {
		s.infIn[i] = true
		s.infList = append(s.infList, i)
	}
}

// resetInfeasible lists every position, for chuzr to sift.
func (s *simplex) resetInfeasible() {
	s.scoreOK = false
	s.infList = s.infList[:0]
	for i := 0; i < s.m; i++ {
		s.infIn[i] = true
		s.infList = append(s.infList, i)
	}
}

// btranUnit sets s.row to row r of B⁻¹ (by row index).
func (s *simplex) btranUnit(r int) {
	v := s.row
	v.clear()
	v.set(r, 1)
	s.lu.btranUnit(v, r)
}

// ftranColumn sets s.col to B⁻¹·a_q (by position) and keeps the spike
// of a_q for the update that brings q into the basis.
func (s *simplex) ftranColumn(q int) {
	v := s.col
	v.clear()
	idx, val := s.column(q)
	for k, i := range idx {
		v.set(i, val[k])
	}
	s.lu.ftranSpike(v)
}

// price computes α_j = ρᵀa_j for the non-basic variables, ρ = s.row,
// into s.alpha over the index list s.alphaIdx (each variable once), from
// every non-zero of ρ (the exact row that cuts derive from). The simplex
// iterations call pricePivot instead.
func (s *simplex) price() { s.priceRow(0) }

// pricePivot is price without the entries of ρ below rhoDrop in
// magnitude, for the pivot row of a simplex iteration.
func (s *simplex) pricePivot() { s.priceRow(rhoDrop) }

// rhoDrop is the magnitude below which an entry of ρ takes no part in the
// pivot row of an iteration. Such entries are the rounding left where
// B⁻¹'s row cancels to zero: at the PortfolioS root nearly half of ρ's
// entries lie below 1e-14 (against entries of order one), and they were
// half the work of price and of the pivot row's length. Their products
// with the scaled matrix are far below pivotTol and dualTol, so the ratio
// test cannot take them; the reduced costs they leave out are recomputed
// at every factorisation and before optimality is declared (dualPhase2).
const rhoDrop = 1e-14

// priceRow is price over the entries of ρ above drop in magnitude.
//
// While it accumulates, a zero α_j means "not listed yet": a sum that
// cancels to zero is held as alphaHeld (listed in s.alphaHeld) and put
// back to zero at the end, so the row needs no marks (one random access
// per entry instead of two). The values are those of plain accumulation,
// bit for bit: alphaHeld plus a product is the product, for any product
// above 1e-284 in magnitude.
func (s *simplex) priceRow(drop float64) {
	alpha := s.alpha
	for _, j := range s.alphaIdx {
		alpha[j] = 0
	}
	if cap(s.alphaIdx) < s.nt {
		s.alphaIdx = make([]int, 0, s.nt)
	}
	list := s.alphaIdx[:s.nt]
	n := 0
	held := s.alphaHeld[:0]
	rho := s.row
	for _, i := range rho.idx[:rho.n] {
		ri := rho.val[i]
		if math.Abs(ri) <= drop {
			continue
		}
		if lv := s.n + i; s.state[lv] != basic {
			// Only row i meets its logical.
			list[n] = lv
			n++
			alpha[lv] = ri
		}
		a, b := s.nbStart[i], s.nbEnd[i]
		vals := s.nbValue[a:b]
		for k, j := range s.nbIndex[a:b] {
			v := alpha[j]
			// Listed unconditionally, kept by a conditional move: whether
			// j is new follows no pattern a branch predictor could learn.
			list[n] = j
			inc := 0
			if v == 0 {
				inc = 1
			}
			n += inc
			v += ri * vals[k]
			if v == 0 {
				v = alphaHeld
				held = append(held, j)
			}
			alpha[j] = v
		}
	}
	s.alphaIdx = list[:n]
	for _, j := range held {
		if alpha[j] == alphaHeld {
			alpha[j] = 0
		}
	}
	s.alphaHeld = held
}

// alphaHeld stands for a zero sum in price's accumulation: small enough
// that adding it to any product of the row changes nothing, large enough
// to stay a normal number.
const alphaHeld = 1e-300

// dualRatio is the bound-flipping ratio test with Harris tolerances for a
// leaving variable that must move by |delta| (to its lower bound when
// toLower). It returns the entering variable (or -1: dual unbounded) and
// leaves the variables to flip in s.flips.
func (s *simplex) dualRatio(toLower bool, delta float64) int {
	sign := 1.0
	if toLower {
		sign = -1
	}
	// First the variables whose status lets them move the way the sign of
	// their α asks, without branches: which ones pass follows no pattern a
	// branch predictor could learn, and most fail.
	if cap(s.ratioIdx) < len(s.alphaIdx) {
		s.ratioIdx = make([]int, len(s.alphaIdx), s.nt)
	}
	pass := s.ratioIdx[:len(s.alphaIdx)]
	// Locals: the compiler cannot keep fields of s in registers across
	// the appends.
	alpha, state := s.alpha, s.state
	n := 0
	for _, j := range s.alphaIdx {
		a := sign * alpha[j]
		var up, down uint8
		if a > pivotTol {
			up = 1
		}
		if a < -pivotTol {
			down = 1
		}
		pass[n] = j
		n += int((moveMask[state[j]&3]&(up|down<<1) + 1) >> 1)
	}
	pass = pass[:n]
	cands := s.cands[:0]
	fixed, d, tolD := s.fixed, s.d, s.tolD
	tmax := math.Inf(1)
	for _, j := range pass {
		if fixed[j] {
			continue
		}
		a := sign * alpha[j]
		dj := d[j]
		h := (dj + tolD) / a
		if a < 0 {
			h = (dj - tolD) / a
		}
		// Not min: its NaN and signed-zero rules cost a branch chain,
		// and the bounds are numbers.
		if h < tmax {
			tmax = h
		}
		cands = append(cands, ratioCand{j: j, ratio: dj / a, harris: h, abs: math.Abs(a)})
	}
	s.flips = s.flips[:0]
	slope := math.Abs(delta)
	// Each pass takes the breakpoints within the Harris bound tmax that
	// no earlier pass took (those above the last bound, lo: the bounds
	// grow, as a breakpoint's Harris bound is at least its ratio), in
	// their order, and finds the next bound among the breakpoints above
	// tmax. It only reads cands.
	front := s.front[:0]
	lo := math.Inf(-1)
	for {
		front = front[:0]
		drop, next := 0.0, math.Inf(1)
		for _, c := range cands {
			if c.ratio > tmax {
				if c.harris < next {
					next = c.harris
				}
			} else if c.ratio > lo {
				front = append(front, c)
				drop += c.abs * (s.upper[c.j] - s.lower[c.j])
			}
		}
		if len(front) == 0 {
			break
		}
		if slope-drop > s.tolP && !math.IsInf(drop, 0) && !math.IsNaN(drop) {
			for _, c := range front {
				s.flips = append(s.flips, c.j)
			}
			slope -= drop
			lo, tmax = tmax, next
			continue
		}
		q, best, bratio := -1, 0.0, 0.0
		for _, c := range front {
			if c.abs > best || (c.abs == best && c.ratio < bratio) {
				q, best, bratio = c.j, c.abs, c.ratio
			}
		}
		s.cands, s.front = cands[:0], front[:0]
		return q
	}
	s.cands, s.front = cands[:0], front[:0]
	return -1
}

// moveMask tells by status which way a non-basic variable may move in the
// dual ratio test: 1 up (α > 0), 2 down (α < 0).
var moveMask = [4]uint8{basic: 0, atLower: 1, atUpper: 2, atZero: 3}

// dualPhase2 runs the dual simplex from a dual feasible basis until it is
// primal feasible (optimal), the primal is proved infeasible (the ray is
// stored), or a limit is reached.
func (s *simplex) dualPhase2() outcome {
	confirmed := false
	s.scoreOK = false
	for {
		if !s.factored || s.lu.needRefactor(s.rebuildWork()) {
			s.rebuild()
			if _, fl := s.flipToDualFeasible(true); fl {
				s.computePrimal()
			}
		}
		if o, stop := s.limit(); stop {
			return o
		}
		r := s.chuzr()
		if s.trace != nil && s.iters%500 == 0 {
			s.tracef("  dual %d: objective %.10g, %d listed infeasible, updates %d (eta nnz %d), L %d U %d, %d factorisations, %d updates refused, %d pivot checks failed", s.iters, s.workObjective(), len(s.infList), s.lu.numEtas(), len(s.lu.eIdx), len(s.lu.lIdx), s.lu.uNZ, s.lu.nFactor, s.lu.nRefused, s.nCheck)
		}
		if r < 0 {
			if s.unchecked && !confirmed {
				// Confirm on values recomputed from the current factors
				// and refined (see refresh), or on a fresh factorisation
				// when the refinement shows doubtful values; then as after
				// rebuild.
				confirmed = true
				ok := s.refresh()
				if ok {
					if _, fl := s.flipToDualFeasible(true); fl {
						s.computePrimal()
						ok = s.refinePrimal()
					}
				}
				if ok {
					s.unchecked = false
					s.nRefresh++
				} else {
					s.rebuild()
					if _, fl := s.flipToDualFeasible(true); fl {
						s.computePrimal()
					}
				}
				continue
			}
			return outOptimal
		}
		confirmed = false
		lv := s.head[r]
		toLower := s.x[lv] < s.lower[lv]
		target := s.upper[lv]
		if toLower {
			target = s.lower[lv]
		}
		delta := s.x[lv] - target
		s.btranUnit(r)
		s.pricePivot()
		q := s.dualRatio(toLower, delta)
		if q < 0 {
			if s.lu.numEtas() > 0 {
				s.invalidate()
				continue
			}
			s.rayRow = append(s.rayRow[:0], s.row.val...)
			s.raySign = 1
			if toLower {
				s.raySign = -1
			}
			return outInfeasible
		}
		sign := 1.0
		if toLower {
			sign = -1
		}
		s.ftranColumn(q)
		ac, ar := s.col.val[r], s.alpha[q]
		if math.Abs(ac-ar) > checkTol*max(1, math.Abs(ac)) || math.Abs(ac) < pivotTol {
			s.nCheck++
			if s.lu.numEtas() > 0 {
				s.invalidate()
				continue
			}
		}
		if ac == 0 {
			return outNumerical
		}
		// Dual step.
		thetaD := s.d[q] / (sign * ar)
		if thetaD < 0 {
			s.work[q] -= s.d[q]
			s.d[q] = 0
			thetaD = 0
		}
		// Steepest-edge data before the basis changes.
		wr := 0.0
		for _, i := range s.row.idx[:s.row.n] {
			wr += s.row.val[i] * s.row.val[i]
		}
		// τ = B⁻¹ρ, in place: ρ is not needed any more this iteration.
		s.tau.clear()
		s.row, s.tau = s.tau, s.row
		s.lu.ftranKind(s.tau, solveDSE)

		// The reduced costs, clearing the row for the next price on the
		// way (the pass price would otherwise make).
		ts := thetaD * sign
		d, alpha := s.d, s.alpha
		for _, j := range s.alphaIdx {
			d[j] -= ts * alpha[j]
			alpha[j] = 0
		}
		s.alphaIdx = s.alphaIdx[:0]
		s.d[q] = 0
		// Bound flips.
		if len(s.flips) > 0 {
			s.applyFlips()
		}
		// Primal step.
		thetaP := (s.x[lv] - target) / ac
		for _, i := range s.col.idx[:s.col.n] {
			s.x[s.head[i]] -= thetaP * s.col.val[i]
			s.touch(i)
		}
		s.x[q] += thetaP
		s.x[lv] = target
		// Weights.
		for _, i := range s.col.idx[:s.col.n] {
			if i == r {
				continue
			}
			k := s.col.val[i] / ac
			s.dse[i] = max(s.dse[i]+k*(k*wr-2*s.tau.val[i]), dseFloor)
		}
		s.dse[r] = max(wr/(ac*ac), dseFloor)
		// Basis change.
		s.head[r] = q
		s.pos[q] = r
		s.state[q] = basic
		s.pos[lv] = -1
		s.nbBasisChange(q, lv)
		if toLower {
			s.state[lv] = atLower
		} else {
			s.state[lv] = atUpper
		}
		s.d[lv] = -sign * thetaD
		if s.lu.update(r, s.col) {
			s.luHead[r] = q
		} else {
			s.invalidate()
		}
		s.touch(r)
		s.iters++
		s.unchecked = true
		s.scoreOK = true // every change of a basic value or weight was touched
	}
}

// applyFlips moves the variables in s.flips to their other bound and
// updates the basic values.
func (s *simplex) applyFlips() {
	rhs := s.fvec
	for _, j := range s.flips {
		var dx float64
		if s.state[j] == atLower {
			s.state[j] = atUpper
			dx = s.upper[j] - s.lower[j]
			s.x[j] = s.upper[j]
		} else {
			s.state[j] = atLower
			dx = s.lower[j] - s.upper[j]
			s.x[j] = s.lower[j]
		}
		if j < s.n {
			for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
				rhs.add(s.aIndex[k])
				rhs.val[s.aIndex[k]] -= s.aValue[k] * dx
			}
		} else {
			rhs.add(j - s.n)
			rhs.val[j-s.n] -= dx
		}
	}
	s.lu.ftranKind(rhs, solveFlips)
	for _, i := range rhs.idx[:rhs.n] {
		s.x[s.head[i]] += rhs.val[i]
		s.touch(i)
	}
	rhs.clear()
}
