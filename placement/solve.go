package placement

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gputco/gputco/placement/internal/merit"
	"github.com/gputco/gputco/placement/lp"
)

// Solve places p's workloads on its offers at the least total cost and
// proves how close to optimal the plan is (Plan.Bound, Plan.Gap). Workloads
// no offer can take, and gang jobs left out because the gangs sharing
// their capacity cannot all fit, are listed in Plan.Unplaced, not returned
// as errors.
//
// Errors: an invalid problem (wrapping ErrInvalid, tco's validation
// errors, or ErrCurrency); a portfolio whose placeable workloads no plan
// satisfies (ErrInfeasible, naming the pool and the binding constraint);
// a model larger than Options.MaxColumns (ErrTooLarge, before it is
// built); a solver failure (ErrSolver, lp.ErrSolverUnavailable). When ctx ends,
// Solve returns the best feasible plan found so far (Status Feasible, or
// Optimal when its bound already proves it within Options.Gap; NoPlan
// when a pool had none yet) with ctx's error. Reaching Options.TimeLimit
// is no error: Solve returns the best plan found with its bound and
// Status Feasible (Optimal when proven so), or, when no plan is known yet,
// a NoPlan plan with ErrTimeLimit (which wraps context.DeadlineExceeded).
//
// Solve is deterministic: the same problem gives the same plan (Stats.Elapsed
// aside). It does not modify p. It spreads parts of its work (the costs of
// every workload on every offer, the model's matrix, the priced bounds of
// a large model, the runners-up) over up to GOMAXPROCS goroutines, which
// end before it returns; the plan does not depend on their number (but
// under a time limit, more of them may reach a better plan in the time).
func Solve(ctx context.Context, p Problem) (Plan, error) {
	start := time.Now()
	in, err := prepare(&p)
	if err != nil {
		return Plan{}, err
	}
	caller := ctx
	if in.s.TimeLimit > 0 {
		// The limit counts from Solve's start, as Stats.Elapsed does:
		// preparing a large problem (its tco terms) takes seconds.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(in.s.TimeLimit))
		defer cancel()
	}
	// limited solves in within the time limit: reaching the limit (not
	// the caller's ctx ending) is a status, not an error, when a plan is
	// known, and ErrTimeLimit when none is.
	limited := func(in *instance) (Plan, error) {
		plan, err := in.solve(ctx, start)
		if err != nil && in.s.TimeLimit > 0 && caller.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			if plan.Status != NoPlan {
				return plan, nil
			}
			return plan, fmt.Errorf("%w: no plan within %v: %w", ErrTimeLimit, in.s.TimeLimit, err)
		}
		return plan, err
	}
	plan, err := limited(in)
	// The budget row holds within the solver's tolerance, the plan's
	// decimal total to the cent: a plan over the budget is solved again
	// with the row tightened by more than the excess, a few times, then
	// refused.
	for try := 0; err == nil && in.overBudget(plan); try++ {
		if try == maxBudgetTries {
			return Plan{}, in.infeasible(in.pools()[0], fmt.Errorf("the plan's total %s exceeds the budget after %d tightenings", plan.Total, try))
		}
		excess, _ := plan.Total.Sub(in.s.Budget).Float64()
		b, _ := in.s.Budget.Float64()
		slack := max(2*in.budgetSlack, 2*excess, 1e-9*b)
		if in, err = prepare(&p); err != nil {
			return Plan{}, err
		}
		in.budgetSlack = slack
		plan, err = limited(in)
	}
	return plan, err
}

// maxBudgetTries is how many times Solve tightens the budget row before it
// refuses a plan over the budget.
const maxBudgetTries = 4

// overBudget says plan's total exceeds the budget (none: false).
func (in *instance) overBudget(plan Plan) bool {
	return !in.s.Budget.IsZero() && plan.Status != NoPlan && plan.Total.GreaterThan(in.s.Budget)
}

// solve solves the pools of in one by one and assembles the plan (Solve).
func (in *instance) solve(ctx context.Context, start time.Time) (Plan, error) {
	pools := in.pools()
	st := &solveState{in: in, start: start, pools: len(pools)}
	sols := make([]*poolSolution, len(pools))
	var stop error
	for i, pl := range pools {
		st.pool = i + 1
		sol, err := st.solvePool(ctx, pl)
		if err != nil && sol == nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				stop = err
				break
			}
			return Plan{}, err
		}
		sols[i] = sol
		st.firstPlan()
		st.bound += sol.bound
		st.cost += sol.cost
		if err != nil {
			stop = err
			break
		}
		st.report(0, 0)
	}
	plan := in.plan(pools, sols)
	plan.Stats = st.stats
	plan.Stats.Pools = len(pools)
	plan.Stats.Solver = in.s.Solver.String()
	plan.Stats.Elapsed = time.Since(start)
	// A plan stopped by ctx is Optimal only when every pool's bound proves
	// its plan within Options.Gap (in.plan: a pool not solved leaves no
	// plan).
	return plan, stop
}

// solveState carries the progress of Solve over the pools.
type solveState struct {
	in          *instance
	start       time.Time
	pool, pools int
	bound, cost float64 // of the pools solved
	stats       Stats
	// planned is the pool that last had its first plan (Stats.FirstPlan).
	planned int
	// pm is the model of the pool being solved as a MILP.
	pm *poolModel
}

// firstPlan records the time of the current pool's first plan: with the
// pools before it solved, the time to a first plan of the whole problem.
func (st *solveState) firstPlan() {
	if st.planned < st.pool {
		st.planned = st.pool
		st.stats.FirstPlan = time.Since(st.start)
	}
}

// report calls the progress callback with the pools solved plus the
// current pool's bound and incumbent.
func (st *solveState) report(bound, inc float64) {
	f := st.in.s.Progress
	if f == nil {
		return
	}
	b, c := st.bound+bound, st.cost+inc
	f(Progress{Pool: st.pool, Pools: st.pools, Bound: b, Incumbent: c, Gap: relGap(c, b), Elapsed: time.Since(st.start)})
}

// relGap is (inc − bound)/max(1, |inc|), +Inf for an infinite incumbent.
func relGap(inc, bound float64) float64 {
	if math.IsInf(inc, 0) || math.IsNaN(inc) {
		return math.Inf(1)
	}
	return max(0, inc-bound) / max(1, math.Abs(inc))
}

// poolSolution is a feasible plan of one pool: node counts, use of every
// pair in every slice, placements; its cost and proven bound; the duals
// behind the marginal values.
type poolSolution struct {
	nodes map[int]int // by offer index: the most held at once
	// held is the nodes of each commitment of a committed offer (by offer
	// index, as instance.os[k].commits); absent where nodes says it all
	// (one commitment, as the merit-order path sets it).
	held  map[int][]int
	use   map[int][]float64 // by pair index, per slice (GPUs)
	used  map[int]bool      // pairs placed (one-off paid)
	perOf map[int]bool      // offers whose per-offer cost is paid
	gang  map[int]int       // the run of each gang, by workload index
	cost  float64
	bound float64
	// stockValue is money saved per extra node of stock, by offer index;
	// peakValue the cost of one more GPU of a service's peak (or reference
	// GPU-hour of a job's work), by workload index.
	stockValue map[int]float64
	peakValue  map[int]float64
	optimal    bool
}

// solvePool solves pool pl: by the merit-order programme when it is one
// uncoupled service and the programme proves the plan within the gap,
// otherwise as a MILP.
func (st *solveState) solvePool(ctx context.Context, pl pool) (*poolSolution, error) {
	in := st.in
	// The time limit counts from Solve's start: when preparing the costs
	// took it all, the first pool still gets its model and first plan
	// (Options.TimeLimit).
	if err := ctx.Err(); err != nil && !(st.pool == 1 && in.s.TimeLimit > 0 && errors.Is(err, context.DeadlineExceeded)) {
		return nil, err
	}
	if in.fastPath(pl) {
		sol, err := in.solveMerit(ctx, pl)
		if err != nil {
			return nil, err
		}
		if sol != nil && relGap(sol.cost, sol.bound) <= in.s.Gap {
			st.stats.FastPools++
			sol.optimal = true
			return sol, nil
		}
	}
	return st.solveMILP(ctx, pl)
}

// solveMerit solves a single-service pool with merit.SolveNodes; the
// one-off costs of the offers it uses are added to its cost, and the least
// one-off to its bound (some offer must be placed on). Nil when the pool
// needs the general path to prove its plan.
func (in *instance) solveMerit(ctx context.Context, pl pool) (*poolSolution, error) {
	mp := in.meritProblem(pl)
	wd := &in.ws[pl.ws[0]]
	ms, err := merit.SolveNodes(ctx, mp, merit.NodeOptions{})
	if err != nil {
		if errors.Is(err, merit.ErrInfeasible) {
			return nil, in.infeasible(pl, err)
		}
		if errors.Is(err, merit.ErrNodeLimit) || ctx.Err() != nil {
			return nil, nil // the general path decides
		}
		return nil, fmt.Errorf("%w: %w", ErrSolver, err)
	}
	sol := &poolSolution{nodes: map[int]int{}, use: map[int][]float64{}, used: map[int]bool{}, perOf: map[int]bool{},
		stockValue: map[int]float64{}, peakValue: map[int]float64{}, cost: ms.CostTotal, bound: ms.BoundTotal}
	least := math.Inf(1)
	anyDemand := false
	for _, d := range wd.demand {
		anyDemand = anyDemand || d > 0
	}
	for i, q := range wd.pairs {
		pr := &in.pairs[q]
		least = min(least, pr.oneOff)
		od := &in.os[pr.k]
		if od.committed && ms.Nodes != nil && ms.Nodes[i] > 0 {
			sol.nodes[pr.k] = ms.Nodes[i]
		}
		u := ms.UseGPUs[i]
		peak := 0.0
		for _, v := range u {
			peak = max(peak, v)
		}
		if peak > 1e-9 || sol.nodes[pr.k] > 0 {
			sol.use[q] = append([]float64(nil), u...)
			sol.used[q] = true
			sol.cost += pr.oneOff
		}
	}
	if anyDemand {
		sol.bound += least
	}
	sol.bound = min(sol.bound, sol.cost)
	// Marginal values from the plan's merit order (meritMargins), else
	// from the divisible programme's duals.
	ok, peak := in.meritMargins(pl, mp, sol)
	if ok && peak {
		return sol, nil
	}
	if ds, err := merit.Solve(mp); err == nil {
		for i, q := range wd.pairs {
			k := in.pairs[q].k
			if v := ds.StockValue[i]; v > 0 && !ok {
				sol.stockValue[k] = v * in.os[k].gpn
			}
		}
		pv := 0.0
		for t, price := range ds.SlicePrice {
			pv += price * wd.peak[t]
		}
		sol.peakValue[pl.ws[0]] = pv
	}
	return sol, nil
}

// infeasible explains an infeasible pool.
func (in *instance) infeasible(pl pool, cause error) error {
	names := make([]string, 0, len(pl.ws))
	for _, w := range pl.ws {
		names = append(names, in.ws[w].w.Name)
	}
	what := "the stock of their offers"
	if !in.s.Budget.IsZero() {
		what = "the stock of their offers, the budget of " + in.s.Budget.String()
	}
	if in.s.MaxSpotShare > 0 {
		what += fmt.Sprintf(", the spot share of %g", in.s.MaxSpotShare)
	}
	return fmt.Errorf("%w: workloads %q: no plan within %s: %v", ErrInfeasible, names, what, cause)
}

// solveMILP solves pool pl as a MILP: the LP relaxation with the built-in
// simplex (bound and duals), a rounded plan re-optimised with the integers
// fixed (first incumbent), then, when the gap is above the target, the
// MILP solver chosen by the options.
func (st *solveState) solveMILP(ctx context.Context, pl pool) (*poolSolution, error) {
	in := st.in
	pm, err := in.model(pl)
	if err != nil {
		return nil, err
	}
	st.pm = pm
	p := pm.prob
	ints := 0
	for _, b := range p.Integer {
		if b {
			ints++
		}
	}
	if p.NumRows()+p.NumCols() > st.stats.Rows+st.stats.Cols {
		st.stats.Rows, st.stats.Cols, st.stats.Integers = p.NumRows(), p.NumCols(), ints
	}
	relax := *p
	relax.Integer = nil
	// A first plan without the LP (firstplan.go): what a limit returns when
	// the relaxation is not solved in time, and a candidate incumbent.
	var hx []float64
	hinc := math.Inf(1)
	if ints > 0 {
		began := time.Now()
		hx, hinc = pm.greedyPlan(in, nil)
		if hx != nil {
			st.firstPlan()
			// Writing the plan is a pass over the model, as the first plan
			// was: the search stops twice that long before a deadline, so
			// that the plan is written within it.
			if d, ok := ctx.Deadline(); ok {
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(ctx, d.Add(-2*time.Since(began)))
				defer cancel()
			}
		}
	}
	// cbound is the best bound known before the relaxation: the priced
	// one (firstplan.go), which needs no LP, or a large model's early
	// bounds, of its coarse model (coarse.go), a fraction of its size:
	// the priced one raised by better prices (pricer.go), then its
	// relaxation.
	cbound := math.Inf(-1)
	coarse := ints > 0 && p.NumCols() >= coarseMinCols
	priced := ints > 0 && (!coarse || math.IsInf(hinc, 1))
	if priced {
		// (A large model with a first plan has its coarse model's prices
		// raised instead, coarseBound: the bound is better and sooner.)
		cbound = pm.priceBound(in)
	}
	// While an LP is solved before the relaxation's optimum is known, the
	// pool reports the best bound known (the simplex's objective on the way
	// is none; sifting's Lagrangian bounds are, of the coarse relaxation or
	// the whole one), or nothing when that is not finite, and its first
	// plan.
	box := boxBound(p)
	sb := math.Inf(-1) // the best bound sifting reported
	early := func(pr lp.Progress) {
		if !math.IsNaN(pr.Bound) && !math.IsInf(pr.Bound, 1) {
			sb = max(sb, pr.Bound)
		}
		b := max(cbound, box, sb)
		if math.IsInf(b, 0) {
			b = 0
		}
		st.report(min(b, hinc), hinc)
	}
	// allow are the pairs the polish of the first plan may use besides its
	// own: those of the other greedy plan and of the coarse relaxation.
	allow := map[int]bool{}
	if coarse && ctx.Err() != nil && !priced {
		cbound = pm.priceBound(in) // no time left for the coarse model's
	}
	if coarse && ctx.Err() == nil {
		var hint *coarseHint
		var cb float64
		cb, hint = st.coarseBound(ctx, pl, hinc, early)
		cbound = max(cbound, cb)
		// The coarse relaxation's commitments, rounded, held by a greedy plan
		// that prefers the pairs the relaxation uses.
		if hint != nil {
			for q, u := range hint.use {
				allow[q] = u > 0
			}
			cx, cinc := pm.greedyPlan(in, hint)
			if cx != nil && cinc < hinc {
				if hx != nil {
					pm.usedPairs(hx, allow)
				}
				hx, hinc = cx, cinc
				st.firstPlan()
			} else if cx != nil {
				pm.usedPairs(cx, allow)
			}
		}
	}
	// The first plan polished by an LP over the pairs it uses (firstplan.go).
	if hx != nil && ctx.Err() == nil {
		px, pinc, perr := st.polish(ctx, pm, hx, hinc, allow)
		if perr != nil && ctx.Err() == nil {
			return nil, perr
		}
		if px != nil {
			hx, hinc = px, pinc
		}
	}
	if coarse {
		st.report(max(cbound, box), hinc)
	}
	// heuristic is the pool's plan when ctx ended before a better one: the
	// first plan with the best bound known (the priced or coarse one, or
	// that of the column bounds alone).
	heuristic := func(bound float64) (*poolSolution, error) {
		sol := pm.solution(in, hx, hinc, min(max(bound, cbound, box), hinc))
		return sol, ctx.Err()
	}
	opt := lp.Options{Progress: early}
	if hx != nil && ctx.Err() != nil {
		return heuristic(math.Inf(-1)) // no time left for the relaxation
	}
	// A wide model's relaxation is sifted from the first plan's columns
	// (sift.go); the whole model's simplex then starts at its optimum.
	var sr sifted
	if hx != nil && (in.siftAll || wide(p)) {
		sr = sift(ctx, &relax, p.Integer, hx, in.siftLimit(p), 0, early)
		st.stats.Iterations += sr.iters
		if ctx.Err() != nil {
			return heuristic(sr.bound) // the best Lagrangian bound of its rounds
		}
	}
	// The relaxation is an lp.Model, kept for the re-solves of the dive
	// and of probing after their bound changes.
	rm, err := lp.NewModel(&relax)
	if err != nil {
		return nil, solverErr(err)
	}
	if sr.basis != nil {
		if err := rm.SetBasis(sr.basis); err != nil {
			return nil, solverErr(err)
		}
	}
	r, err := rm.Solve(ctx, opt)
	st.stats.Iterations += r.Iterations
	if err != nil {
		if hx != nil && ctx.Err() != nil {
			return heuristic(math.Inf(-1))
		}
		return nil, solverErr(err)
	}
	switch r.Status {
	case lp.Optimal:
	case lp.Infeasible:
		if sol, ok, err := st.withoutGangs(ctx, pl, pm); ok { // gangmodel.go
			return sol, err
		}
		return nil, in.infeasible(pl, errors.New("the LP relaxation is infeasible"))
	default:
		return nil, fmt.Errorf("%w: LP relaxation ended %s", ErrSolver, r.Status)
	}
	bound := max(r.Objective, cbound)
	duals := pm.duals(in, &r)
	if ints == 0 {
		sol := pm.solution(in, r.X, r.Objective, r.Objective)
		m := st.margins(ctx, pm, r.X, duals)
		sol.stockValue, sol.peakValue, sol.optimal = m.stock, m.peak, true
		return sol, nil
	}
	// A first plan: the relaxation's integers rounded up, the rest
	// re-optimised; enough when it is within the gap.
	x, inc, err := st.roundAndFix(ctx, &relax, p, r, pm.runGroups())
	if err != nil && x == nil {
		if hx != nil && ctx.Err() != nil {
			return heuristic(bound)
		}
		return nil, err
	}
	if hx != nil && hinc < inc {
		x, inc = hx, hinc
	}
	if x != nil {
		st.firstPlan()
	}
	if relGap(inc, bound) > in.s.Gap && ctx.Err() == nil {
		// A better first plan, perhaps within the gap: a dive.
		dx, dinc, derr := st.dive(ctx, rm, &relax, p, r)
		if derr != nil && ctx.Err() == nil {
			return nil, derr
		}
		if dx != nil && dinc < inc {
			x, inc = dx, dinc
		}
	}
	// Root probing (tighter bounds and a better bound for the search, see
	// probe) and a descent from the plan, one integer at a time.
	mp, lo, relaxIters := p, p.ColLower, r.Iterations
	cutOff := false // whether probing cut off bounds where no plan beats inc
	if x != nil && relGap(inc, bound) > in.s.Gap && ctx.Err() == nil && in.s.Solver != CBC {
		plo, pup, pr, pb, perr := st.probe(ctx, rm, &relax, r, inc)
		if perr != nil && ctx.Err() == nil {
			return nil, perr
		}
		if plo != nil {
			tight := *p
			tight.ColLower, tight.ColUpper = plo, pup
			mp, lo, r, bound = &tight, plo, pr, max(bound, min(pb, inc))
			cutOff = !slices.Equal(plo, p.ColLower) || !slices.Equal(pup, p.ColUpper)
		}
		st.report(bound, inc)
	}
	if x != nil && relGap(inc, bound) > in.s.Gap && ctx.Err() == nil {
		dx, dinc, derr := st.descend(ctx, p, r.X, lo, x, inc, 4*max(relaxIters, 1000))
		if derr != nil && ctx.Err() == nil {
			return nil, derr
		}
		x, inc = dx, dinc
	}
	st.report(bound, inc)
	if x != nil && relGap(inc, bound) <= in.s.Gap || ctx.Err() != nil {
		if x == nil {
			return nil, ctx.Err()
		}
		sol := pm.solution(in, x, inc, min(bound, inc))
		m := st.margins(ctx, pm, x, duals)
		sol.stockValue, sol.peakValue = m.stock, m.peak
		sol.optimal = relGap(inc, bound) <= in.s.Gap
		return sol, ctx.Err()
	}
	// The MILP, warm-started at the relaxation's basis with the first plan
	// as its incumbent (the built-in branch-and-bound), or handed to cbc.
	var solver lp.Solver = builtinMIP{}
	// A bound lp reports (-Inf until its root is solved) counts while the
	// search runs only below its incumbent; the result gives the final one.
	mopt := lp.Options{Gap: in.s.Gap, NodeLimit: in.s.NodeLimit, Basis: r.Basis, Start: x,
		Progress: func(pr lp.Progress) {
			b := bound
			if pr.Bound < pr.Incumbent {
				b = max(b, pr.Bound)
			}
			st.report(b, min(inc, pr.Incumbent))
		}}
	if in.s.Solver == CBC {
		solver, mopt.Basis, mopt.Start = lp.CBC{Path: in.s.CBCPath}, nil, nil
	}
	mr, merr := solver.Solve(ctx, mp, mopt)
	st.stats.Iterations += mr.Iterations
	st.stats.Nodes += mr.Nodes
	unsupported := errors.Is(merr, lp.ErrUnsupported)
	if merr != nil && !unsupported && ctx.Err() == nil {
		return nil, solverErr(merr)
	}
	if mr.HasSolution() && (x == nil || mr.Objective < inc) {
		x, inc = mr.X, mr.Objective
	}
	optimal := mr.Status == lp.Optimal
	if b := mr.Bound; !math.IsInf(b, 0) && !math.IsNaN(b) && mr.Status != lp.Infeasible {
		bound = max(bound, min(b, inc))
	}
	if mr.Status == lp.Infeasible && cutOff {
		// Probing kept only the sides of its columns that may hold a plan
		// cheaper than the incumbent (whose own point may lie outside):
		// none does, so the incumbent is optimal.
		bound = inc
	}
	if mr.Status == lp.Infeasible && x == nil {
		if sol, ok, err := st.withoutGangs(ctx, pl, pm); ok { // gangmodel.go
			return sol, err
		}
		return nil, in.infeasible(pl, errors.New("no integer plan"))
	}
	if x == nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: no feasible plan found (%s)", ErrSolver, mr.Status)
	}
	sol := pm.solution(in, x, inc, min(bound, inc))
	m := st.margins(ctx, pm, x, duals)
	sol.stockValue, sol.peakValue = m.stock, m.peak
	sol.optimal = optimal || relGap(inc, bound) <= in.s.Gap
	return sol, ctx.Err()
}

// coarseBound is the optimum of the LP relaxation of pool pl's coarse model
// (coarse.go), or when that was sifted a bound of it within coarseSiftGap:
// a lower bound of the pool's optimum; when there is no coarse model or
// its relaxation is not solved, the best bound found on the way (the
// price ascent's towards target, a plan's cost, +Inf for none; sifting's
// Lagrangian bounds), −Inf for none. With the relaxation's point (the
// restricted optimum's, when sifting stopped early) as a hint for
// greedyPlan (nil with no bound). progress is called now and then, with
// the ascent's and sifting's bounds, while the relaxation is solved.
func (st *solveState) coarseBound(ctx context.Context, pl pool, target float64, progress func(lp.Progress)) (float64, *coarseHint) {
	// Before any LP, priceBound's prices raised towards target, the first
	// plan's cost (pricer.go), reported as progress: of the coarse model,
	// whose steps take a fraction of the time, or, without one, of the
	// model itself. (The coarse relaxation is a relaxation of the model's.)
	ab := math.Inf(-1)
	ascend := func(in *instance, pm *poolModel) {
		if math.IsInf(target, 1) {
			return // (no plan: solveMILP took the model's own priced bound)
		}
		// (b itself when ctx has ended: the priced bound still counts.)
		b, grouped, pr := pm.pricedBase(in)
		ab = pm.ascendPrices(ctx, in, pr, grouped, b, target, func(b float64) {
			if progress != nil {
				progress(lp.Progress{Bound: b})
			}
		})
	}
	cp := st.in.coarse(pl)
	var cm *poolModel
	if cp != nil {
		var err error
		if cm, err = cp.model(pl); err != nil {
			cm = nil
		}
	}
	if cm == nil {
		ascend(st.in, st.pm)
		return ab, nil
	}
	ascend(cp, cm)
	if ctx.Err() != nil {
		return ab, nil
	}
	relax := *cm.prob
	relax.Integer = nil
	// A wide coarse model is sifted from its own greedy plan (sift.go),
	// until its bound is within coarseSiftGap: the bound of its duals and
	// its point are then the coarse relaxation's bound and hint.
	var r lp.Result
	opt := lp.Options{Progress: progress}
	sb := ab // sifting's bound, when it stopped short, or the ascent's
	if st.in.siftAll || wide(cm.prob) {
		if cx, _ := cm.greedyPlan(cp, nil); cx != nil {
			sr := sift(ctx, &relax, cm.prob.Integer, cx, st.in.siftLimit(cm.prob), coarseSiftGap, progress)
			st.stats.Iterations += sr.iters
			opt.Basis = sr.basis
			if sr.basis == nil && sr.within(coarseSiftGap) {
				r = lp.Result{Status: lp.Optimal, Objective: sr.bound, X: sr.x}
			} else if ctx.Err() != nil {
				return max(ab, sr.bound), nil // the best Lagrangian bound of its rounds, if any
			}
			sb = max(ab, sr.bound)
		}
	}
	if r.X == nil {
		var err error
		r, err = lp.Solve(ctx, &relax, opt)
		st.stats.Iterations += r.Iterations
		if err != nil || r.Status != lp.Optimal {
			return sb, nil
		}
	}
	h := &coarseHint{nodes: map[int][]int{}, use: map[int]float64{}}
	for k, cols := range cm.nCols {
		n := make([]int, len(cols))
		for i, j := range cols {
			if j >= 0 {
				n[i] = int(min(relax.ColUpper[j], math.Round(r.X[j])))
			}
		}
		h.nodes[k] = n
	}
	shares := cm.share(cp, r.X) // a group's use, shared among its pairs
	for q, xs := range cm.xCol {
		if _, ok := cm.groups[q]; ok {
			continue
		}
		for t, j := range xs {
			if j >= 0 {
				h.use[q] += r.X[j] * cm.mult[t]
			}
		}
	}
	for q, u := range shares {
		for t, v := range u {
			if cm.rep[t] == t {
				h.use[q] += v * cm.mult[t]
			}
		}
	}
	for q, j := range cm.hCol {
		h.use[q] += r.X[j]
	}
	return r.Objective, h
}

// builtinMIP solves a MILP with lp.Solve (branch-and-bound where lp has it).
type builtinMIP struct{}

// Solve calls lp.Solve.
func (builtinMIP) Solve(ctx context.Context, p *lp.Problem, opt lp.Options) (lp.Result, error) {
	return lp.Solve(ctx, p, opt)
}

// solverErr wraps a solver's error in ErrSolver unless it is a context's.
func solverErr(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrSolver, err)
}

// roundAndFix turns the relaxation's solution into a feasible MILP point:
// it rounds every integer column up (a binary to 1 where it is positive),
// except that of each group of binaries summing to one (a gang's runs,
// groups) the largest alone is set to 1 (pickRuns; repairRuns when the
// chosen runs need more capacity or do not fit together), re-solves the
// relaxation with those values as upper bounds until the rounding is
// stable, and solves the LP with the integers fixed. It returns the point
// and its objective (nil, +Inf when the rounded plan is infeasible, as a
// budget can make it).
func (st *solveState) roundAndFix(ctx context.Context, relax, p *lp.Problem, r lp.Result, groups [][]int) ([]float64, float64, error) {
	if p.Integer == nil {
		return r.X, r.Objective, nil
	}
	work := *relax
	work.ColLower = append([]float64(nil), relax.ColLower...)
	work.ColUpper = append([]float64(nil), relax.ColUpper...)
	x, basis := r.X, r.Basis
	round := func(j int, v float64) float64 {
		if p.ColUpper[j] == 1 && p.ColLower[j] == 0 {
			if v > 1e-9 {
				return 1
			}
			return 0
		}
		return min(p.ColUpper[j], math.Ceil(v-1e-7))
	}
	for range 1 {
		changed := false
		for j, isInt := range p.Integer {
			if !isInt {
				continue
			}
			if u := round(j, x[j]); u != work.ColUpper[j] {
				work.ColUpper[j], changed = u, true
			}
		}
		if len(groups) > 0 { // one run per gang
			pickRuns(groups, x, work.ColLower, work.ColUpper)
			changed = true
		}
		if !changed {
			break
		}
		rr, err := lp.Solve(ctx, &work, lp.Options{Basis: basis})
		st.stats.Iterations += rr.Iterations
		if err == nil && rr.Status != lp.Optimal && len(groups) > 0 {
			rr, err = st.repairRuns(ctx, &work, p, groups, basis)
		}
		if err != nil {
			return nil, math.Inf(1), solverErr(err)
		}
		if rr.Status != lp.Optimal {
			if len(groups) > 0 {
				return nil, math.Inf(1), nil
			}
			break
		}
		x, basis = rr.X, rr.Basis
	}
	for j, isInt := range p.Integer {
		if isInt {
			v := round(j, x[j])
			work.ColLower[j], work.ColUpper[j] = v, v
		}
	}
	return st.fixed(ctx, p, work.ColLower, work.ColUpper)
}

// fixed solves the LP of p at the bounds lo, up that fix every integer
// column: the uses they rule out fixed at zero (when p is the model st.pm
// of the pool being solved), the rest by solveFixed. It returns the point
// and its objective (nil, +Inf when it is infeasible).
func (st *solveState) fixed(ctx context.Context, p *lp.Problem, lo, up []float64) ([]float64, float64, error) {
	lo, up = append([]float64(nil), lo...), append([]float64(nil), up...)
	if st.pm != nil && st.pm.prob == p {
		st.pm.fixUnused(st.in, lo, up)
	}
	x, obj, status, iters, err := solveFixed(ctx, p, lo, up)
	st.stats.Iterations += iters
	if err != nil {
		return nil, math.Inf(1), solverErr(err)
	}
	if status != lp.Optimal {
		return nil, math.Inf(1), nil
	}
	return x, obj, nil
}
