package lp

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// This file holds branch-and-bound for mixed-integer problems. It works on
// the LP relaxation held by one lpModel: each node is the relaxation with
// tightened bounds on integer columns, re-solved warm by the dual simplex
// from its parent's optimal basis.
//
// Objective values inside are in the internal minimisation sense:
// z = sense·(cᵀx + Offset), sense = −1 for a maximisation.

// Tolerances of branch-and-bound.
const (
	intTol = 1e-6 // a value within intTol of an integer is integral
	// An incumbent must satisfy every bound within strictTol relative to the
	// bound plus magTol relative to the magnitude of the row's terms; a
	// point that fails even after the repair LP is accepted within feasTol
	// relative to the largest of both (the tolerance of Result.Verify in
	// the tests) rather than lose the node.
	strictTol = 1e-7
	magTol    = 1e-9
	feasTol   = 1e-6
	// defaultGap is the relative gap of Options.Gap 0: a node whose bound
	// is within it of the incumbent counts as proven no better.
	defaultGap = 1e-9
)

// Parameters of the search.
const (
	sbCandidates  = 8    // strong-branching candidates per node at most
	sbReliable    = 4    // pseudocost observations that make a direction reliable
	sbIterations  = 50   // iteration budget of one strong-branching solve (minimum)
	sbBudget      = 0.5  // strong-branching iterations per node-solve iteration, at most,
	sbAllowance   = 2000 // plus this many
	progressEvery = 5 * time.Millisecond
)

// bndChange is a bound of a column at a node (both bounds, problem units).
type bndChange struct {
	col    int
	lo, up float64
}

// mipNode is an open node of the tree.
type mipNode struct {
	bound   float64 // valid lower bound on the node's objective (internal)
	depth   int
	seq     int         // creation order, for deterministic ties
	changes []bndChange // bounds that differ from the root, in order (later wins)
	basis   *Basis      // warm start: the parent's optimal basis
	// Branching record, for the pseudocost update once the node is solved.
	branchCol int // -1 at the root
	up        bool
	frac      float64 // distance the branching moved the column's value
	parentObj float64
}

// nodeQueue is a min-heap of open nodes: lowest bound first, then the
// deeper, then the older node.
type nodeQueue []*mipNode

func (q nodeQueue) Len() int { return len(q) }
func (q nodeQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.bound != b.bound {
		return a.bound < b.bound
	}
	if a.depth != b.depth {
		return a.depth > b.depth
	}
	return a.seq < b.seq
}
func (q nodeQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *nodeQueue) Push(x any)   { *q = append(*q, x.(*mipNode)) }
func (q *nodeQueue) Pop() any {
	old := *q
	n := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return n
}

// mipSearch is the state of one branch-and-bound solve.
type mipSearch struct {
	p     *Problem // the caller's problem (never modified)
	w     *Problem // working copy: integer bounds rounded inwards
	mdl   *lpModel
	ctx   context.Context
	opt   Options
	lim   lpLimits
	sense float64

	intCols     []int
	isInt       []bool
	rootLo      []float64
	rootUp      []float64
	applied     []bndChange // changes currently applied to the model
	cutsDone    bool        // the root cut loop has run
	cutLog      []cut
	rowCols     [][]int     // original rows by row (for cover cuts), built on demand
	rowVals     [][]float64 // every cut added (tests check them against known solutions)
	vub, vlb    []varBound  // variable bounds of continuous columns, built on demand
	objIntegral bool        // z − sense·Offset is an integer at every integer point
	objStep     float64     // sense·Offset: integral objective values are objStep + k
	gapTol      float64
	scaleExp    int // bound of the model's scale factors (scaleFactors)

	// Incumbent.
	incX   []float64
	incZ   float64
	hasInc bool

	// Tree.
	open     nodeQueue
	curBound float64 // bound of the node being solved, +Inf between nodes, -Inf before the search (nothing proven yet)
	// dropped is the lowest bound of the nodes given up on (integral LP
	// points that fail the feasibility check even after repair), +Inf with
	// none: their region is not explored, so it stays in the bound.
	dropped float64
	// gapPruned is the lowest bound (rounded, internal) of the regions
	// pruned only because Options.Gap allows it (their bound is more than
	// defaultGap below the incumbent), +Inf with none: they are not
	// explored, so their bound stays in the search's bound.
	gapPruned float64
	givenUp   int // nodes given up on, those of sub-MIPs included
	// lpRetries counts node LPs solved again from scratch after a
	// numerical failure, unsolved those split unsolved (branchUnsolved).
	lpRetries, unsolved int
	seq                 int
	nodes               int

	// Pseudocosts per column: sums of objective gain per unit and counts.
	pcSum [2][]float64
	pcN   [2][]int

	nodeIters  int     // simplex iterations of node solves
	rootIters  int     // simplex iterations of the root's first LP solve
	sbIters    float64 // simplex iterations of strong-branching trials
	diveIters  int     // simplex iterations of diving heuristics
	dives      int
	diveFails  int  // dives in a row that did not improve the incumbent
	diveNext   int  // the node from which the next dive may start
	isSub      bool // a sub-MIP of a heuristic: no sub-MIPs of its own
	propDived  bool // the propagation dive has run, or must not
	subNodes   int  // nodes of sub-MIP heuristics
	subFails   int  // RINS sub-MIPs in a row that did not improve the incumbent
	subNext    int  // the node from which the next RINS may run
	rinsFree   int  // integer columns a RINS sub-MIP leaves free, at least (widenRINS)
	extraIters int  // simplex iterations of sub-MIPs
	subIters   int  // simplex iterations of sub-MIP heuristics below the root (runSubMIP)
	subMark    int  // the model's own iterations when the last sub-MIP heuristic ended

	// Locks of the columns (lockRounding), counted on first use: the rows
	// that an increase (upLocks) or a decrease (downLocks) of the column
	// could violate.
	upLocks, downLocks []int

	x        []float64 // scratch: LP values of the current node
	lastProg time.Time
}

// solveMIP solves p (a MIP, already validated with valid options) by
// branch-and-bound.
func solveMIP(ctx context.Context, p *Problem, opt Options, start time.Time) (Result, error) {
	sr, err := newMIPSearch(ctx, p, opt, start)
	if err != nil {
		return Result{}, err
	}
	// A context that has ended is honoured before any proof: the search
	// would stop at its first check, the gcd test below would not.
	if ctx.Err() != nil {
		return sr.result(Cancelled, start), context.Cause(ctx)
	}
	if latticeInfeasibleRow(p) >= 0 || equalitiesExcludeLattice(p) {
		return sr.result(Infeasible, start), nil
	}
	st, serr := sr.search()
	if st == Unbounded {
		return unboundedOrInfeasible(ctx, p, opt, start)
	}
	return sr.result(st, start), serr
}

// unboundedOrInfeasible decides a MIP whose relaxation is unbounded: it is
// unbounded when it has an integer point (for rational data), infeasible
// otherwise. The feasibility question is the same MIP with a zero
// objective; its point, when found, is returned as X with Status Unbounded
// (Objective is that point's value, Bound ∓Inf).
func unboundedOrInfeasible(ctx context.Context, p *Problem, opt Options, start time.Time) (Result, error) {
	q := *p
	q.Cost = make([]float64, p.NumCols())
	opt.Gap = 0
	sr, err := newMIPSearch(ctx, &q, opt, start)
	if err != nil {
		return Result{}, err
	}
	st, serr := sr.search()
	res := sr.result(st, start)
	if res.X != nil {
		res.Objective = p.Offset
		for j, v := range res.X {
			res.Objective += p.Cost[j] * v
		}
	}
	sense := 1.0
	if p.Maximize {
		sense = -1
	}
	switch {
	case st == Optimal:
		res.Status = Unbounded
		res.Bound = math.Inf(-1) * sense
		res.Gap = math.Inf(1)
	case st == Infeasible:
		res.Bound = math.Inf(1) * sense
	default:
		// A limit: report it, with the point if one was found.
		res.Bound = math.Inf(-1) * sense
		res.Gap = math.Inf(1)
	}
	if res.X != nil && !isFinite(res.Objective) {
		// The point's objective overflows float64 (a cost of 1e308 at
		// x = −1e308): it cannot be reported, nor Unbounded without it.
		return Result{Status: NotSolved, Iterations: res.Iterations, Nodes: res.Nodes, Bound: math.NaN(), Gap: math.Inf(1), Elapsed: res.Elapsed},
			fmt.Errorf("%w: the objective of the integer point of the unbounded relaxation is %v", ErrNumerical, res.Objective)
	}
	return res, serr
}

// newMIPSearch prepares the search: the working copy of p with integer
// bounds rounded inwards and its LP model.
func newMIPSearch(ctx context.Context, p *Problem, opt Options, start time.Time) (*mipSearch, error) {
	w := *p
	n := p.NumCols()
	w.ColLower = append([]float64(nil), p.ColLower...)
	w.ColUpper = append([]float64(nil), p.ColUpper...)
	sr := &mipSearch{p: p, w: &w, ctx: ctx, opt: opt, sense: 1, isInt: make([]bool, n), curBound: math.Inf(-1), dropped: math.Inf(1), gapPruned: math.Inf(1)}
	if p.Maximize {
		sr.sense = -1
	}
	for j := 0; j < n; j++ {
		if p.Integer[j] {
			sr.isInt[j] = true
			sr.intCols = append(sr.intCols, j)
			w.ColLower[j] = math.Ceil(w.ColLower[j] - intTol)
			w.ColUpper[j] = math.Floor(w.ColUpper[j] + intTol)
		}
	}
	sr.rootLo = w.ColLower
	sr.rootUp = w.ColUpper
	sr.gapTol = opt.Gap
	if sr.gapTol == 0 {
		sr.gapTol = defaultGap
	}
	sr.objIntegral = true
	for j := 0; j < n; j++ {
		c := p.Cost[j]
		if c != 0 && (!sr.isInt[j] || c != math.Round(c)) {
			sr.objIntegral = false
			break
		}
	}
	sr.objStep = sr.sense * p.Offset
	for i := range sr.pcSum {
		sr.pcSum[i] = make([]float64, n)
		sr.pcN[i] = make([]int, n)
	}
	sr.x = make([]float64, n)
	sr.scaleExp = scaleExp
	mdl, err := newLPModelScaled(&w, sr.scaleExp)
	if err != nil {
		return nil, err
	}
	sr.mdl = mdl
	if opt.Basis != nil {
		if err := mdl.setBasis(opt.Basis); err != nil {
			return nil, err
		}
	}
	sr.lim = lpLimits{IterationLimit: opt.IterationLimit, Start: start}
	if opt.TimeLimit > 0 {
		sr.lim.Deadline = start.Add(opt.TimeLimit)
	}
	if opt.Progress != nil {
		sr.lim.Progress = func(pr Progress) {
			pr.Nodes = sr.nodes
			sr.fillProgress(&pr)
			opt.Progress(pr)
		}
	}
	return sr, nil
}

// iterations is the number of simplex iterations so far, sub-MIPs
// included.
func (sr *mipSearch) iterations() int { return sr.mdl.s.iters + sr.extraIters }

// iterationsLeft is what Options.IterationLimit leaves of the search's
// iterations (≥ 0), or −1 without a limit.
func (sr *mipSearch) iterationsLeft() int {
	if sr.opt.IterationLimit == 0 {
		return -1
	}
	return max(sr.opt.IterationLimit-sr.iterations(), 0)
}

// iterationsOut reports whether Options.IterationLimit is reached.
func (sr *mipSearch) iterationsOut() bool { return sr.iterationsLeft() == 0 }

// fillProgress completes pr, reported by the simplex within a node, with
// the incumbent, the best bound of the tree and the gap.
func (sr *mipSearch) fillProgress(pr *Progress) {
	pr.Bound, pr.Incumbent = sr.sense*sr.bestBound(), sr.incumbentObjective()
	pr.Gap = sr.gap(pr.Incumbent, pr.Bound)
}

// incumbentObjective is the incumbent's objective in the problem's sense, or
// ±Inf (the worst value) without one.
func (sr *mipSearch) incumbentObjective() float64 {
	if !sr.hasInc {
		return sr.sense * math.Inf(1)
	}
	return sr.sense * sr.incZ
}

// gap is the documented relative gap of an incumbent and a bound.
func (sr *mipSearch) gap(inc, bound float64) float64 {
	if !sr.hasInc || math.IsInf(bound, 0) && bound*sr.sense < 0 {
		return math.Inf(1)
	}
	if math.IsInf(bound, 0) {
		return 0
	}
	return math.Abs(inc-bound) / max(1, math.Abs(inc))
}

// bestBound is the lowest bound of the open nodes, of the node being solved,
// of the nodes given up on and of the regions pruned within the gap
// (internal), capped by the incumbent; +Inf with none.
func (sr *mipSearch) bestBound() float64 {
	b := min(sr.curBound, sr.dropped, sr.gapPruned)
	if len(sr.open) > 0 {
		b = min(b, sr.open[0].bound)
	}
	if sr.hasInc {
		b = min(b, sr.incZ)
	}
	return b
}

// prunable reports whether a node with lower bound z cannot improve the
// incumbent by more than the gap.
func (sr *mipSearch) prunable(z float64) bool {
	if !sr.hasInc {
		return false
	}
	z = sr.roundBound(z)
	return sr.incZ-z <= sr.gapTol*max(1, math.Abs(sr.incZ))
}

// prune reports whether a region with lower bound z is discarded
// (prunable) and, when it is only because Options.Gap is looser than
// defaultGap, keeps z in gapPruned: the region may hold better points, so
// its bound is part of what the search proves.
func (sr *mipSearch) prune(z float64) bool {
	if !sr.prunable(z) {
		return false
	}
	if r := sr.roundBound(z); sr.incZ-r > defaultGap*max(1, math.Abs(sr.incZ)) {
		sr.gapPruned = min(sr.gapPruned, r)
	}
	return true
}

// roundBound raises a lower bound to the next attainable objective value
// when the objective is integral.
func (sr *mipSearch) roundBound(z float64) float64 {
	if sr.objIntegral && !math.IsInf(z, 0) {
		return math.Ceil(z-sr.objStep-1e-6) + sr.objStep
	}
	return z
}

// errStop carries the status with which the search stopped on a limit.
type errStop struct {
	st  Status
	err error
}

func (e *errStop) Error() string { return e.st.String() }

// search runs branch-and-bound and returns the final status.
func (sr *mipSearch) search() (Status, error) {
	if sr.opt.Start != nil && !sr.isSub {
		sr.tryIncumbent(sr.opt.Start, false)
	}
	root := &mipNode{bound: math.Inf(-1), branchCol: -1}
	heap.Push(&sr.open, root)
	var cur *mipNode
	for {
		// The node about to be solved (a child dived into, held outside
		// the open heap) bounds what is proven while the limits are
		// checked and progress reported.
		sr.curBound = math.Inf(1)
		if cur != nil {
			sr.curBound = cur.bound
		}
		if cur == nil {
			if len(sr.open) == 0 {
				break
			}
			if sr.prunable(sr.open[0].bound) {
				// Every open node is prunable: the gap is closed.
				return sr.finish(Optimal)
			}
			if st, err, stop := sr.checkLimits(); stop {
				return st, err
			}
			cur = heap.Pop(&sr.open).(*mipNode)
			sr.applyNode(cur)
			if cur.basis != nil {
				if err := sr.mdl.setBasis(cur.basis); err != nil {
					return NotSolved, err
				}
			}
		} else if st, err, stop := sr.checkLimits(); stop {
			heap.Push(&sr.open, cur)
			return st, err
		}
		sr.curBound = cur.bound
		next, err := sr.process(cur)
		if err != nil {
			var stop *errStop
			if errors.As(err, &stop) {
				heap.Push(&sr.open, cur)
				return stop.st, stop.err
			}
			return NotSolved, err
		}
		cur = next
		if cur != nil {
			sr.applyNode(cur)
		}
	}
	if sr.hasInc {
		return sr.finish(Optimal)
	}
	return sr.finish(Infeasible)
}

// finish returns st, or NotSolved with an ErrNumerical error when a node
// given up on could still hold a better solution than the incumbent (or
// any solution at all): optimality, or infeasibility, is then not proven.
// A heuristic's sub-MIP keeps st: its incumbents are only candidates, each
// checked on the original problem.
func (sr *mipSearch) finish(st Status) (Status, error) {
	if sr.isSub || sr.dropped == math.Inf(1) || sr.prune(sr.dropped) {
		return st, nil
	}
	return NotSolved, fmt.Errorf("%w: branch-and-bound gave up on a node of bound %.10g whose integral point fails the feasibility check, so the result is not proven",
		ErrNumerical, sr.sense*sr.dropped)
}

// checkLimits reports whether a node, time or iteration limit or the
// context stops the search before the next node.
func (sr *mipSearch) checkLimits() (Status, error, bool) {
	if sr.ctx != nil && sr.ctx.Err() != nil {
		return Cancelled, context.Cause(sr.ctx), true
	}
	if sr.opt.NodeLimit > 0 && sr.nodes >= sr.opt.NodeLimit {
		return NodeLimit, nil, true
	}
	if sr.iterationsOut() {
		return IterationLimit, nil, true
	}
	now := time.Now()
	if !sr.lim.Deadline.IsZero() && now.After(sr.lim.Deadline) {
		return TimeLimit, nil, true
	}
	if sr.opt.Progress != nil && now.Sub(sr.lastProg) >= progressEvery {
		sr.report(now)
	}
	return 0, nil, false
}

// report calls the progress callback.
func (sr *mipSearch) report(now time.Time) {
	sr.lastProg = now
	b := sr.bestBound()
	if sr.hasInc {
		b = min(sr.roundBound(b), sr.incZ)
	}
	pr := Progress{Iterations: sr.iterations(), Nodes: sr.nodes, Bound: sr.sense * b,
		Incumbent: sr.incumbentObjective(), Elapsed: now.Sub(sr.lim.Start)}
	pr.Gap = sr.gap(pr.Incumbent, pr.Bound)
	sr.opt.Progress(pr)
}

// applyNode sets the model's column bounds to those of nd.
func (sr *mipSearch) applyNode(nd *mipNode) {
	for _, c := range sr.applied {
		sr.mdl.setColBounds(c.col, sr.rootLo[c.col], sr.rootUp[c.col])
	}
	for _, c := range nd.changes {
		sr.mdl.setColBounds(c.col, c.lo, c.up)
	}
	sr.applied = nd.changes
}

// solveLP solves the model's LP with the search's limits and at most
// iterCap more iterations (0: no cap), by the fast warm path or, with
// trial, by the strong-branching path of lpModel.trial. A limit or
// cancellation of the search is returned as an *errStop; the cap shows as
// IterationLimit.
func (sr *mipSearch) solveLP(iterCap int, trial bool) (Status, error) {
	lim := sr.lim
	if lim.IterationLimit > 0 {
		// The model counts its own iterations only.
		lim.IterationLimit = max(lim.IterationLimit-sr.extraIters, sr.mdl.s.iters)
	}
	if iterCap > 0 {
		c := sr.mdl.s.iters + iterCap
		if lim.IterationLimit == 0 || c < lim.IterationLimit {
			lim.IterationLimit = c
		}
	}
	// Node solves take the fast warm path; strong-branching trials the
	// trial path, whose cost perturbation gives far better estimates within
	// the iteration budget on dual degenerate problems (gt2: 200 nodes
	// instead of 47,000).
	var st Status
	var err error
	if trial {
		st, err = sr.mdl.trial(sr.ctx, lim)
	} else {
		st, err = sr.mdl.resolve(sr.ctx, lim)
	}
	if stop := sr.stopOf(st, err); stop != nil {
		return st, stop
	}
	// A node LP that the full path could not verify is solved again from
	// scratch: from the slack basis by the warm path and the full one, then
	// by the full path alone, whose perturbation differs (the generator
	// moved on). process treats a node that still fails conservatively.
	for retry := 0; retry < 2 && err != nil && errors.Is(err, ErrNumerical); retry++ {
		sr.lpRetries++
		sr.mdl.s.initSlackBasis()
		if retry == 0 {
			st, err = sr.mdl.resolve(sr.ctx, lim)
		} else {
			st, err = sr.mdl.solve(sr.ctx, lim)
		}
		if stop := sr.stopOf(st, err); stop != nil {
			return st, stop
		}
	}
	return st, err
}

// stopOf is the *errStop of an LP solve that ended st (with err) on a limit
// or cancellation of the search, or nil: an iteration cap of the caller
// below the search's limit is no stop.
func (sr *mipSearch) stopOf(st Status, err error) error {
	switch {
	case st == Cancelled:
		return &errStop{Cancelled, err}
	case st == TimeLimit:
		return &errStop{TimeLimit, nil}
	case st == IterationLimit && sr.iterationsOut():
		return &errStop{IterationLimit, nil}
	}
	return nil
}

// lpObjective is the internal objective of the model's current primal
// values, which it writes into sr.x.
func (sr *mipSearch) lpObjective() float64 {
	return sr.sense * sr.mdl.primal(sr.x)
}

// process solves node nd (its bounds applied, its warm basis installed)
// and either prunes it, records an incumbent, or branches. It returns the
// child to dive into next (bounds not yet applied), or nil.
func (sr *mipSearch) process(nd *mipNode) (*mipNode, error) {
	sr.nodes++
	for resolve := false; ; resolve = true {
		st, err := sr.solveLP(0, false)
		sr.nodeIters += sr.mdl.lastIter
		if nd.depth == 0 && !resolve {
			sr.rootIters = sr.mdl.lastIter
		}
		var stop *errStop
		if err != nil && (nd.depth == 0 || errors.As(err, &stop) || !errors.Is(err, ErrNumerical)) {
			return nil, err
		}
		switch {
		case err != nil:
			// Not verified even from scratch (below the root).
			sr.branchUnsolved(nd)
			return nil, nil
		case st == Infeasible && nd.depth == 0:
			// Once per solve: the root's Farkas ray is checked, and the
			// root solved again with wider scaling if it fails.
			again, err := sr.checkRootRay(nd, Infeasible)
			if err != nil {
				return nil, err
			}
			if again {
				continue
			}
			return nil, nil
		case st == Infeasible:
			if !sr.rayHolds() {
				// Infeasible without a proof: the node is not pruned.
				sr.branchUnsolved(nd)
			}
			return nil, nil
		case st == Unbounded:
			if nd.branchCol < 0 {
				// The root's ray is checked as an infeasible root's
				// Farkas ray is.
				again, err := sr.checkRootRay(nd, Unbounded)
				if err != nil {
					return nil, err
				}
				if again {
					continue
				}
				return nil, &errStop{Unbounded, nil}
			}
			// Unbounded below a bounded root: a numerical failure.
			sr.branchUnsolved(nd)
			return nil, nil
		case st != Optimal:
			return nil, fmt.Errorf("%w: node LP ended %v", ErrNumerical, st)
		}
		z := sr.lpObjective()
		if nd.branchCol >= 0 && !resolve {
			sr.updatePseudocost(nd, z)
		}
		// The node's LP value bounds its subtree: it is the search's bound
		// while the node is processed (the root's cut rounds and sub-MIP
		// can take long on a large model) and when a limit stops it there.
		if z > nd.bound {
			nd.bound, sr.curBound = z, z
		}
		if sr.prune(z) {
			return nil, nil
		}
		frac := sr.fractional(intTol)
		if len(frac) == 0 {
			if sr.tryIncumbent(sr.x, true) {
				return nil, nil
			}
			// Integral within intTol but not feasible once rounded, even
			// after the repair LP: branch on the columns that are not
			// exactly integral, or give up on the node when there are none.
			if frac = sr.fractional(1e-12); len(frac) == 0 {
				if sr.iterationsOut() {
					// The repair LP may have been cut short by the
					// iteration limit: stop with the node open.
					return nil, &errStop{IterationLimit, nil}
				}
				sr.dropped = min(sr.dropped, z)
				sr.givenUp++
				return nil, nil
			}
		}
		sr.simpleRounding()
		if sr.prune(z) {
			return nil, nil
		}
		if nd.depth == 0 && !sr.cutsDone {
			sr.cutsDone = true
			if _, err := sr.rootCuts(z); err != nil {
				return nil, err
			}
			continue
		}
		changes := sr.reducedCostFixing(nd, z)
		if sr.subMIPDue() {
			if err := sr.subMIP(); err != nil {
				return nil, err
			}
			if sr.prune(z) {
				return nil, nil
			}
		}
		if sr.propDiveDue() {
			if err := sr.propDive(nd, z, sr.propDiveBudget()); err != nil {
				return nil, err
			}
			if sr.prune(z) {
				return nil, nil
			}
		}
		if sr.diveDue() {
			if err := sr.dive(nd, z); err != nil {
				return nil, err
			}
			if sr.prune(z) {
				return nil, nil
			}
		}
		col, childBound, fixed, err := sr.selectBranch(nd, z, frac)
		if err != nil {
			return nil, err
		}
		if len(changes) > 0 || len(fixed) > 0 {
			nd.changes = appendChanges(nd.changes, changes)
			nd.changes = appendChanges(nd.changes, fixed)
			sr.applyNode(nd)
		}
		if col < 0 {
			if childBound[0] == math.Inf(1) && childBound[1] == math.Inf(1) {
				return nil, nil
			}
			// Strong branching fixed columns: re-solve the node.
			continue
		}
		return sr.branch(nd, z, col, childBound), nil
	}
}

// rayHolds reports whether the Farkas ray of the node LP just found
// infeasible passes its certificate on the working problem with the
// node's bounds (as Result.Verify does for an LP at verifyTol): a node
// LP below the root is pruned, and a strong-branching child taken as
// infeasible, only when it does.
func (sr *mipSearch) rayHolds() bool {
	r := sr.mdl.result(Infeasible)
	return r.Verify(sr.nodeLP(), verifyTol) == nil
}

// nodeLP is the working problem as an LP with the current node's column
// bounds, for checking the model's certificates.
func (sr *mipSearch) nodeLP() *Problem {
	q := *sr.w
	q.Integer = nil
	q.ColLower = make([]float64, q.NumCols())
	q.ColUpper = make([]float64, q.NumCols())
	for j := range q.ColLower {
		q.ColLower[j], q.ColUpper[j] = sr.mdl.colBounds(j)
	}
	return &q
}

// checkRootRay checks the ray of the root LP, found st (Infeasible: its
// Farkas ray; Unbounded: its primal ray), on the working problem with the
// root node's bounds (as Result.Verify does for an LP at verifyTol). When
// it fails and the model's scaling held a factor at its bound, the model
// is rebuilt with factors up to 2^±wideScaleExp and again is true: the
// root must be solved again. When it fails otherwise, the answer is an
// ErrNumerical error rather than st.
func (sr *mipSearch) checkRootRay(nd *mipNode, st Status) (again bool, err error) {
	r := sr.mdl.result(st)
	if r.Verify(sr.nodeLP(), verifyTol) == nil {
		return false, nil
	}
	if sr.mdl.clamped && sr.scaleExp < wideScaleExp {
		sr.scaleExp = wideScaleExp
		iters := sr.mdl.s.iters
		if mdl, err := newLPModelScaled(sr.w, sr.scaleExp); err == nil {
			mdl.s.iters = iters
			sr.mdl = mdl
			sr.applied = nil
			sr.applyNode(nd)
			return true, nil
		}
	}
	if st == Unbounded {
		return false, fmt.Errorf("%w: the ray of the unbounded root LP fails its certificate", ErrNumerical)
	}
	return false, fmt.Errorf("%w: the Farkas ray of the infeasible root LP fails its certificate", ErrNumerical)
}

// branchUnsolved handles a node whose LP could not be solved: it has no
// LP point and no bound beyond its own (inherited from its parent, valid).
// It is split, keeping that bound, on the integer column with the widest
// finite domain (at the domain's middle), both children queued with the
// parent's basis as warm start: their LPs differ and usually solve. With
// no integer column left to split, the node is given up on: its bound
// stays in the search's bound (dropped), so the final status cannot claim
// optimality the node could refute.
func (sr *mipSearch) branchUnsolved(nd *mipNode) {
	sr.unsolved++
	col, width := -1, 0.0
	for _, j := range sr.intCols {
		lo, up := sr.mdl.colBounds(j)
		if w := up - lo; w > width && !math.IsInf(w, 1) {
			col, width = j, w
		}
	}
	if col < 0 {
		sr.dropped = min(sr.dropped, nd.bound)
		sr.givenUp++
		return
	}
	if sr.prune(nd.bound) {
		return
	}
	lo, up := sr.mdl.colBounds(col)
	mid := min(math.Floor(lo+width/2), up-1)
	for _, c := range [...]bndChange{{col: col, lo: lo, up: mid}, {col: col, lo: mid + 1, up: up}} {
		sr.seq++
		// frac 0: no pseudocost update from these children.
		heap.Push(&sr.open, &mipNode{bound: nd.bound, depth: nd.depth + 1, seq: sr.seq,
			changes: appendChanges(nd.changes, []bndChange{c}), basis: nd.basis,
			branchCol: col, parentObj: nd.bound})
	}
}

// appendChanges returns base extended by extra, copying base so that
// nodes sharing a prefix never alias.
func appendChanges(base, extra []bndChange) []bndChange {
	if len(extra) == 0 {
		return base
	}
	out := make([]bndChange, 0, len(base)+len(extra))
	out = append(out, base...)
	return append(out, extra...)
}

// fractional lists the integer columns whose LP value is more than tol
// away from an integer.
func (sr *mipSearch) fractional(tol float64) []int {
	var f []int
	for _, j := range sr.intCols {
		v := sr.x[j]
		if lo, up := sr.mdl.colBounds(j); !(lo < up) {
			continue // fixed: nothing to branch on, whatever v's noise
		}
		if math.Abs(v-math.Round(v)) > tol {
			f = append(f, j)
		}
	}
	return f
}

// splitFloor is where a branch on an integer column of value v and
// integral bounds lo < up splits its domain: [lo, fl] and [fl+1, up]. It
// is ⌊v⌋ for v inside the bounds, and lo or up − 1 for a v that the LP's
// tolerances left outside them (−5e-10 on [0, ∞) of a badly scaled LP,
// whose ⌊v⌋ = −1 would make the down branch [0, −1]).
func splitFloor(v, lo, up float64) float64 {
	return max(lo, min(math.Floor(v), up-1))
}

// branch creates the two children of nd on column col, queues one and
// returns the other to dive into.
func (sr *mipSearch) branch(nd *mipNode, z float64, col int, childBound [2]float64) *mipNode {
	v := sr.x[col]
	lo, up := sr.mdl.colBounds(col)
	fl := splitFloor(v, lo, up)
	basis := sr.mdl.basis()
	mk := func(isUp bool) *mipNode {
		c := bndChange{col: col, lo: lo, up: fl}
		f := v - fl
		if isUp {
			c = bndChange{col: col, lo: fl + 1, up: up}
			f = fl + 1 - v
		}
		b := z
		if isUp {
			b = max(b, childBound[1])
		} else {
			b = max(b, childBound[0])
		}
		sr.seq++
		return &mipNode{bound: b, depth: nd.depth + 1, seq: sr.seq,
			changes: appendChanges(nd.changes, []bndChange{c}), basis: basis,
			branchCol: col, up: isUp, frac: f, parentObj: z}
	}
	down, upc := mk(false), mk(true)
	// Dive into the child with the smaller expected degradation.
	dGain := sr.pseudocost(col, false) * (v - fl)
	uGain := sr.pseudocost(col, true) * (fl + 1 - v)
	first, second := upc, down
	if dGain < uGain || (dGain == uGain && v-fl < 0.5) {
		first, second = down, upc
	}
	if sr.prune(second.bound) {
		second = nil
	}
	if sr.prune(first.bound) {
		first, second = second, nil
	}
	if second != nil {
		heap.Push(&sr.open, second)
	}
	if first == nil {
		return nil
	}
	// Plunge only while the child stays near the best bound: beyond half the
	// gap, queue it and restart from the best node.
	if sr.hasInc && len(sr.open) > 0 {
		best := sr.open[0].bound
		if first.bound > best+0.5*(sr.incZ-best) {
			heap.Push(&sr.open, first)
			return nil
		}
	}
	return first
}

// dirIndex maps a branching direction to the pseudocost arrays.
func dirIndex(up bool) int {
	if up {
		return 1
	}
	return 0
}

// updatePseudocost records the objective gain per unit of the branching
// that created nd.
func (sr *mipSearch) updatePseudocost(nd *mipNode, z float64) {
	if nd.frac < intTol || math.IsInf(nd.parentObj, 0) {
		return
	}
	d := dirIndex(nd.up)
	sr.pcSum[d][nd.branchCol] += max(z-nd.parentObj, 0) / nd.frac
	sr.pcN[d][nd.branchCol]++
}

// pseudocost is the mean gain per unit of branching col in one direction,
// or the mean over all columns observed when col has no observation yet.
func (sr *mipSearch) pseudocost(col int, up bool) float64 {
	d := dirIndex(up)
	if n := sr.pcN[d][col]; n > 0 {
		return sr.pcSum[d][col] / float64(n)
	}
	sum, cnt := 0.0, 0
	for _, j := range sr.intCols {
		if sr.pcN[d][j] > 0 {
			sum += sr.pcSum[d][j] / float64(sr.pcN[d][j])
			cnt++
		}
	}
	if cnt == 0 {
		return 1
	}
	return sum / float64(cnt)
}

// score combines the gains of the two children (the product rule).
func score(down, up float64) float64 {
	const eps = 1e-6
	return max(down, eps) * max(up, eps)
}

// selectBranch chooses the branching column among the fractional ones by
// reliability branching: pseudocosts, with strong branching on the best
// candidates whose pseudocosts are not yet reliable. Strong branching may
// prove a child infeasible or prunable; the bounds it implies are returned
// in fixed (with col −1 when they must be applied and the node re-solved;
// with both childBound +Inf when the node itself is pruned). childBound
// holds valid lower bounds on the down and up children.
func (sr *mipSearch) selectBranch(nd *mipNode, z float64, frac []int) (col int, childBound [2]float64, fixed []bndChange, err error) {
	childBound = [2]float64{z, z}
	type cand struct {
		j     int
		score float64
	}
	cands := make([]cand, 0, len(frac))
	for _, j := range frac {
		v := sr.x[j]
		f := v - math.Floor(v)
		cands = append(cands, cand{j, score(sr.pseudocost(j, false)*f, sr.pseudocost(j, true)*(1-f))})
	}
	// Order by score, best first (insertion sort keeps ties in column order).
	for i := 1; i < len(cands); i++ {
		for k := i; k > 0 && cands[k].score > cands[k-1].score; k-- {
			cands[k], cands[k-1] = cands[k-1], cands[k]
		}
	}
	best, bestScore := cands[0].j, -1.0
	var bestBounds [2]float64
	bestBounds = [2]float64{z, z}
	var saved *Basis
	xs := append([]float64(nil), sr.x...)
	tried := 0
	// The budget: trials stop once they have cost half the iterations of
	// the node solves (plus a fixed allowance); each trial gets twice the
	// mean iterations of a node, within bounds.
	avgIter := sbIterations
	if sr.nodes > 1 {
		avgIter = min(max(sbIterations, 2*sr.nodeIters/sr.nodes), 10*sbIterations)
	}
	sbOK := func() bool { return sr.sbIters <= sbBudget*float64(sr.nodeIters)+sbAllowance }
	for _, c := range cands {
		j := c.j
		reliable := sr.pcN[0][j] >= sbReliable && sr.pcN[1][j] >= sbReliable
		if reliable || tried >= sbCandidates || !sbOK() {
			if c.score > bestScore {
				best, bestScore = j, c.score
				bestBounds = [2]float64{z, z}
			}
			continue
		}
		tried++
		if saved == nil {
			saved = sr.mdl.basis()
		}
		v := xs[j]
		lo, up := sr.mdl.colBounds(j)
		fl := splitFloor(v, lo, up)
		var gain [2]float64
		var exact [2]float64
		for d := 0; d < 2; d++ {
			if d == 0 {
				sr.mdl.setColBounds(j, lo, fl)
			} else {
				sr.mdl.setColBounds(j, fl+1, up)
			}
			it0 := sr.mdl.s.iters
			st, err := sr.solveLP(avgIter, true)
			sr.sbIters += float64(sr.mdl.s.iters - it0)
			if err != nil {
				var stop *errStop
				if errors.As(err, &stop) {
					return -1, childBound, nil, err
				}
				// A numerical failure in a trial: uninformative.
				st = NotSolved
			}
			if st == Infeasible && !sr.rayHolds() {
				st = NotSolved // an infeasibility without a proof
			}
			switch st {
			case Infeasible:
				gain[d], exact[d] = math.Inf(1), math.Inf(1)
			case Optimal:
				zc := sr.lpObjective()
				gain[d], exact[d] = max(zc-z, 0), max(zc, z)
				if sr.prune(zc) {
					exact[d] = math.Inf(1)
				}
			case IterationLimit: // an estimate only
				gain[d], exact[d] = max(sr.lpObjective()-z, 0), z
			default:
				gain[d], exact[d] = 0, z
			}
			sr.mdl.setColBounds(j, lo, up)
			if err := sr.mdl.setBasis(saved); err != nil {
				return -1, childBound, nil, err
			}
		}
		f := v - fl
		for d := 0; d < 2; d++ {
			den := f
			if d == 1 {
				den = 1 - f
			}
			if !math.IsInf(gain[d], 1) && den >= intTol {
				sr.pcSum[d][j] += gain[d] / den
				sr.pcN[d][j]++
			}
		}
		switch {
		case math.IsInf(exact[0], 1) && math.IsInf(exact[1], 1):
			copy(sr.x, xs)
			return -1, [2]float64{math.Inf(1), math.Inf(1)}, nil, nil
		case math.IsInf(exact[0], 1):
			fixed = append(fixed, bndChange{col: j, lo: fl + 1, up: up})
		case math.IsInf(exact[1], 1):
			fixed = append(fixed, bndChange{col: j, lo: lo, up: fl})
		default:
			if s := score(gain[0], gain[1]); s > bestScore {
				best, bestScore, bestBounds = j, s, exact
			}
		}
	}
	copy(sr.x, xs)
	if len(fixed) > 0 {
		return -1, childBound, fixed, nil
	}
	return best, bestBounds, nil, nil
}

// reducedCostFixing tightens the bounds of non-basic integer columns whose
// reduced cost shows that moving them away from their bound by more than
// some amount would push the objective past the incumbent.
func (sr *mipSearch) reducedCostFixing(nd *mipNode, z float64) []bndChange {
	if !sr.hasInc {
		return nil
	}
	s := sr.mdl.s
	slack := sr.incZ - z
	if slack < 0 {
		return nil
	}
	var out []bndChange
	for _, j := range sr.intCols {
		st := s.state[j]
		if st != atLower && st != atUpper {
			continue
		}
		lo, up := sr.mdl.colBounds(j)
		if lo == up {
			continue
		}
		d := s.d[j] / sr.mdl.colScale[j] // per unit of the column, internal sense
		switch {
		case st == atLower && d > 1e-9:
			if k := math.Floor(slack/d + 1e-9); lo+k < up {
				out = append(out, bndChange{col: j, lo: lo, up: lo + k})
			}
		case st == atUpper && d < -1e-9:
			if k := math.Floor(slack/(-d) + 1e-9); up-k > lo {
				out = append(out, bndChange{col: j, lo: up - k, up: up})
			}
		}
	}
	return out
}

// simpleRounding rounds the LP values of the integer columns and keeps
// the point if it is feasible: first by lockRounding (when no column is
// locked both ways), then each to the nearest integer. A point whose
// objective does not improve the incumbent is not checked.
func (sr *mipSearch) simpleRounding() {
	lx, locked := sr.lockRounding()
	if lx != nil && locked == 0 {
		sr.tryRounded(lx)
	}
	x := make([]float64, len(sr.x))
	copy(x, sr.x)
	same := lx != nil && locked == 0
	for _, j := range sr.intCols {
		x[j] = math.Round(x[j])
		same = same && x[j] == lx[j]
	}
	if !same {
		sr.tryRounded(x)
	}
}

// tryRounded offers x, integral on the integer columns, as an incumbent
// when its objective improves the incumbent.
func (sr *mipSearch) tryRounded(x []float64) {
	obj := sr.p.Offset
	for j, v := range x {
		obj += sr.p.Cost[j] * v
	}
	if sr.hasInc && sr.sense*obj >= sr.incZ {
		return
	}
	sr.tryIncumbent(x, false)
}

// tryIncumbent rounds the integer columns of x, checks the point against the
// original problem and keeps it when it improves the incumbent. With repair,
// a point whose continuous part is infeasible after rounding is repaired by
// re-solving the LP with the integer columns fixed. It reports whether x (or
// its repair) was feasible.
func (sr *mipSearch) tryIncumbent(x []float64, repair bool) bool {
	pt := make([]float64, len(x))
	copy(pt, x)
	for _, j := range sr.intCols {
		pt[j] = math.Round(pt[j])
		if pt[j] == 0 {
			pt[j] = 0 // not −0
		}
	}
	obj, ok := mipFeasible(sr.p, pt, true)
	if !ok && repair {
		var rp []float64
		rp, obj, ok = sr.repairContinuous(pt)
		if ok {
			pt = rp
		} else if rp != nil {
			pt = rp
			obj, ok = mipFeasible(sr.p, pt, false)
		} else {
			obj, ok = mipFeasible(sr.p, pt, false)
		}
	}
	if !ok {
		return false
	}
	z := sr.sense * obj
	if !sr.hasInc || z < sr.incZ {
		sr.incX, sr.incZ, sr.hasInc = pt, z, true
		if sr.opt.Progress != nil {
			sr.report(time.Now())
		}
	}
	return true
}

// repairContinuous fixes the integer columns at their values in pt and
// solves the LP over the continuous columns of the original problem (no
// cuts: their safety margins and tolerances could make the fixed LP
// slightly infeasible) from scratch, within the iterations that
// Options.IterationLimit leaves (none left: no repair). It returns the
// repaired point (nil when the LP is not optimal), its objective and
// whether it passes the strict check.
func (sr *mipSearch) repairContinuous(pt []float64) ([]float64, float64, bool) {
	if len(sr.intCols) == sr.p.NumCols() {
		return nil, 0, false
	}
	q := *sr.p
	q.ColLower = append([]float64(nil), sr.p.ColLower...)
	q.ColUpper = append([]float64(nil), sr.p.ColUpper...)
	for _, j := range sr.intCols {
		if pt[j] < sr.rootLo[j] || pt[j] > sr.rootUp[j] {
			return nil, 0, false
		}
		q.ColLower[j], q.ColUpper[j] = pt[j], pt[j]
	}
	mdl, err := newLPModel(&q)
	if err != nil {
		return nil, 0, false
	}
	lim := lpLimits{Deadline: sr.lim.Deadline, Start: sr.lim.Start}
	switch left := sr.iterationsLeft(); {
	case left == 0:
		return nil, 0, false
	case left > 0:
		lim.IterationLimit = left
	}
	st, err := mdl.solve(sr.ctx, lim)
	sr.extraIters += mdl.s.iters
	if err != nil || st != Optimal {
		return nil, 0, false
	}
	out := make([]float64, len(pt))
	mdl.primal(out)
	for _, j := range sr.intCols {
		out[j] = pt[j]
	}
	obj, ok := mipFeasible(sr.p, out, true)
	return out, obj, ok
}

// mipFeasible checks x against p: integrality, column and row bounds
// within the strict tolerances or, with strict false, within feasTol. The
// continuous columns outside their bounds (by at most the tolerance) are
// clamped into them when the clamped point still satisfies every row;
// otherwise x is kept as it is and the rows are checked on it: clamping
// moves a row by a_ij times the column's excess, which on a big-M row
// (365·x − 789·y ≤ 0, x = ±1.2e-8 where the LP's values cancel) turns a
// feasible point into one that misses the row by 4e-6. It returns the
// objective cᵀx + Offset of the point kept in x.
func mipFeasible(p *Problem, x []float64, strict bool) (float64, bool) {
	tol := func(b, mag float64) float64 {
		if strict {
			return strictTol*max(1, math.Abs(b)) + magTol*mag
		}
		return feasTol * max(1, math.Abs(b), mag)
	}
	clamped := false
	for j := range x {
		lo, up := p.ColLower[j], p.ColUpper[j]
		if !isFinite(x[j]) || p.Integer[j] && x[j] != math.Round(x[j]) {
			return 0, false
		}
		if x[j] < lo {
			if lo-x[j] > tol(lo, 0) {
				return 0, false
			}
			clamped = true
		}
		if x[j] > up {
			if x[j]-up > tol(up, 0) {
				return 0, false
			}
			clamped = true
		}
	}
	// Activities of x as given (act, magnitudes mag) and of the clamped
	// point (actC, magC).
	m := p.NumRows()
	act, mag := make([]float64, m), make([]float64, m)
	actC, magC := act, mag
	if clamped {
		actC, magC = make([]float64, m), make([]float64, m)
	}
	obj, objC := p.Offset, p.Offset
	for j, xj := range x {
		xc := min(max(xj, p.ColLower[j]), p.ColUpper[j])
		obj += p.Cost[j] * xj
		objC += p.Cost[j] * xc
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			i, a := p.A.Index[k], p.A.Value[k]
			if xj != 0 {
				act[i] += a * xj
				mag[i] += math.Abs(a * xj)
			}
			if clamped && xc != 0 {
				actC[i] += a * xc
				magC[i] += math.Abs(a * xc)
			}
		}
	}
	// A value, activity or objective that is not finite (an overflow: a
	// column at ±Inf, 1e-12·x = −1e308) would pass every comparison with
	// an infinite tolerance: such a point is no incumbent.
	rowsOK := func(act, mag []float64) bool {
		for i := range act {
			lo, up := p.RowLower[i], p.RowUpper[i]
			if !isFinite(act[i]) || !isFinite(mag[i]) {
				return false
			}
			if lo > math.Inf(-1) && act[i] < lo-tol(lo, mag[i]) {
				return false
			}
			if up < math.Inf(1) && act[i] > up+tol(up, mag[i]) {
				return false
			}
		}
		return true
	}
	if rowsOK(actC, magC) && isFinite(objC) {
		if clamped {
			for j := range x {
				x[j] = min(max(x[j], p.ColLower[j]), p.ColUpper[j])
			}
		}
		return objC, true
	}
	if clamped && rowsOK(act, mag) && isFinite(obj) {
		return obj, true
	}
	return 0, false
}

// result assembles the MILP Result of a search that ended with st.
func (sr *mipSearch) result(st Status, start time.Time) Result {
	if sr.hasInc && st != Cancelled && !sr.isSub {
		sr.polish()
	}
	res := Result{Status: st, Iterations: sr.iterations(), Nodes: sr.nodes}
	b := sr.bestBound()
	switch st {
	case Optimal:
		if len(sr.open) == 0 {
			// Nodes given up on within defaultGap count as proven; those
			// pruned within a looser Options.Gap do not.
			b = min(sr.incZ, sr.gapPruned)
		}
	case Infeasible:
		b = math.Inf(1)
	case Unbounded:
		b = math.Inf(-1)
	}
	if sr.hasInc {
		b = min(sr.roundBound(b), sr.incZ)
	}
	res.Bound = sr.sense * b
	if sr.hasInc {
		res.X = sr.incX
		res.Objective = sr.sense * sr.incZ
		res.RowActivity = rowActivity(sr.p, res.X)
		res.Gap = sr.gap(res.Objective, res.Bound)
	} else {
		res.Gap = math.Inf(1)
	}
	res.Elapsed = time.Since(start)
	return res
}

// polish re-solves the continuous part of the incumbent on the original
// problem (no cuts) with the integer columns fixed, and keeps the result
// when it is feasible and no worse within 1e-9: an LP point of the
// cut-strengthened problem may sit on a cut's safety margin, a hair away
// from the original row (0.999999995 for 1).
func (sr *mipSearch) polish() {
	x, obj, ok := sr.repairContinuous(sr.incX)
	if z := sr.sense * obj; ok && z <= sr.incZ+1e-9*max(1, math.Abs(sr.incZ)) {
		sr.incX, sr.incZ = x, z
	}
}
