package lp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Solve solves the linear program p with the built-in bounded-variable dual
// simplex and returns its Result in p's own terms.
//
// Algorithm: the problem is scaled (geometric-mean passes and column
// equilibration, powers of two) and put in the internal form
// A·x + s = 0 with one logical per row carrying the row's bounds; every
// variable is a bounded variable (no bound rows). The basis is factorised
// by a sparse LU (singleton passes, then right-looking Markowitz with
// threshold pivoting) kept up to date by product-form etas and
// refactorised every 100 updates; FTRAN and BTRAN exploit sparse
// right-hand sides. The dual simplex uses dual steepest-edge pricing, a
// bound-flipping ratio test with Harris tolerances and cost shifting, and
// a cost perturbation against degeneracy; free and one-sided columns that
// are dual infeasible are handled by a dual phase 1 on the auxiliary
// problem with box bounds. After the perturbation is removed a bounded
// primal simplex cleans up; it also finds the ray of an unbounded problem.
// An optimal answer is checked with Result.Verify before it is returned
// and refined with tighter tolerances if its unscaled certificate fails;
// an infeasible answer's Farkas ray and an unbounded answer's ray (with
// its point X) are checked too. When a numerical failure or a failing
// certificate comes from a scaling that held a factor at its bound (2^±50:
// a coefficient such as 1e-40 stays far from 1 scaled and looks like 0 to
// the simplex), the LP is solved again from the slack basis with factors
// up to 2^±500. An Optimal, Infeasible or Unbounded answer whose
// certificate still fails at 1e-7 is not returned: the solve ends
// NotSolved with an ErrNumerical error. So does an LP whose optimum is
// beyond float64's range (bounds of 1e308 are finite, not infinite as
// CLP and CBC take bounds of 1e30 and above: min −x − y with x, y ≤ 1e308
// has the optimum −2e308).
//
// An LP solved to Optimal comes with primal values, row activities, row
// duals, reduced costs and the final basis; Infeasible with a Farkas ray;
// Unbounded with a primal ray (and the feasible point X it starts from).
// On a time or iteration limit the Result holds the basis reached (to
// continue from with Options.Basis) and X when that basis is primal
// feasible. opt.Basis warm-starts the solve: a basis of the wrong shape is
// an ErrInvalid error, a singular one is repaired by replacing dependent
// columns with row logicals. A cancelled ctx ends the solve with Status
// Cancelled and ctx's error. The solve is deterministic: the same problem
// and options give the same Result (Elapsed aside).
//
// A mixed-integer problem (p.IsMIP) is solved by branch-and-bound on the
// LP relaxation, re-solved warm by the dual simplex at every node, with
// Gomory mixed-integer, MIR, c-MIR (rows aggregated, variable bounds
// substituted) and knapsack cover cuts at the root, reliability branching
// (strong-branching trials of a few warm dual iterations, then
// pseudocosts), best-bound search with plunging, and for early incumbents
// rounding, diving, a propagation dive at the root (fix, propagate on the
// rows, backtrack, hand the rest to a sub-MIP) and RENS/RINS sub-MIPs. A
// node LP that cannot be verified is retried from the slack basis and,
// failing that, branched on with its bound kept, so the search never
// prunes on an unverified bound. An infeasible root LP's Farkas ray and
// an unbounded root LP's ray are checked as an LP's are (wider scaling,
// then ErrNumerical); a node or strong-branching LP below the root is
// taken as infeasible only when its Farkas ray passes the same check (a
// node whose ray fails is handled as one whose LP could not be solved). Before the search, a row whose columns
// are all integer and whose (scaled) integer coefficients have a gcd with
// no multiple in the row's range proves the MIP infeasible, whatever the
// column bounds; so do equality rows of that kind with no common integer
// solution (found by unimodular column operations, within a work limit).
// Its
// Result holds the incumbent (X, Objective, RowActivity: integer columns
// exactly integral, every row and bound satisfied within 1e-7 relative),
// Bound (the best bound of the open nodes and of the nodes pruned only
// within opt.Gap, rounded up to the next attainable value when the
// objective is integral), Gap and Nodes; no
// duals, basis or ray. Optimal means proven within opt.Gap (default
// 1e-9). Infeasible means no integer point exists; Unbounded that the
// relaxation is unbounded and an integer point (X) exists (NotSolved with
// an ErrNumerical error when that point's objective overflows float64).
// A point whose values, row activities or objective are not finite is
// never an incumbent. On a node, time
// or iteration limit or cancellation it returns the incumbent, if any,
// with the limit's status (and ctx's error when cancelled). opt.Basis
// warm-starts the root LP; opt.Start, when it passes the feasibility
// check, is the first incumbent.
func Solve(ctx context.Context, p *Problem, opt Options) (Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	if err := validateOptions(&opt); err != nil {
		return Result{}, err
	}
	if err := validateStart(p, &opt); err != nil {
		return Result{}, err
	}
	if p.IsMIP() {
		return solveMIP(ctx, p, opt, start)
	}
	if p.NumCols() == 0 {
		if b := opt.Basis; b != nil && (len(b.Cols) != 0 || len(b.Rows) != p.NumRows()) {
			return Result{}, fmt.Errorf("%w: basis has %d column and %d row statuses, want 0 and %d", ErrInvalid, len(b.Cols), len(b.Rows), p.NumRows())
		}
		if err := ctx.Err(); err != nil {
			return Result{Status: Cancelled, Bound: math.NaN(), Gap: math.Inf(1), Elapsed: time.Since(start)}, err
		}
		return solveNoColumns(p, start), nil
	}
	if err := ctx.Err(); err != nil {
		// Ended before it began: building the model of a large LP (its
		// scaling and copies) takes seconds.
		return Result{Status: Cancelled, Bound: math.NaN(), Gap: math.Inf(1), Elapsed: time.Since(start)}, err
	}
	mdl, err := newLPModel(p)
	if err != nil {
		return Result{}, err
	}
	if opt.Basis != nil {
		if err := mdl.setBasis(opt.Basis); err != nil {
			return Result{}, err
		}
	}
	lim := lpLimits{IterationLimit: opt.IterationLimit, Progress: opt.Progress, Start: start}
	if opt.TimeLimit > 0 {
		lim.Deadline = start.Add(opt.TimeLimit)
	}
	st, serr := mdl.solve(ctx, lim)
	res := mdl.result(st)
	if !certified(p, &res) || errors.Is(serr, ErrNumerical) {
		res, serr = solveWide(ctx, p, lim, mdl, res, serr)
	}
	res.Elapsed = time.Since(start)
	return res, serr
}

// solveWide answers an LP whose solve by mdl ended in res and serr with a
// Farkas ray that fails its certificate or with a numerical failure. When
// mdl's scaling held a factor at its bound (a coefficient far from 1, such
// as 1e-40, stays far from 1 scaled and the simplex takes it for 0), the LP
// is solved again from the slack basis with factors up to 2^±wideScaleExp,
// within the iterations the limit leaves. An Infeasible answer whose ray
// still fails is not returned: the result is NotSolved with an
// ErrNumerical error.
func solveWide(ctx context.Context, p *Problem, lim lpLimits, mdl *lpModel, res Result, serr error) (Result, error) {
	iters := res.Iterations
	left := lim.IterationLimit - iters
	if mdl.clamped && (lim.IterationLimit == 0 || left > 0) {
		if wide, err := newLPModelScaled(p, wideScaleExp); err == nil {
			wl := lim
			if lim.IterationLimit > 0 {
				wl.IterationLimit = left
			}
			st, werr := wide.solve(ctx, wl)
			res, serr = wide.result(st), werr
			res.Iterations += iters
		}
	}
	if !certified(p, &res) {
		what := map[Status]string{
			Optimal:    "the optimal answer fails its certificate (an objective beyond float64's range, or values the simplex could not make exact enough)",
			Infeasible: "the Farkas ray of the infeasible answer fails its certificate",
			Unbounded:  "the ray of the unbounded answer fails its certificate",
		}[res.Status]
		res = Result{Status: NotSolved, Iterations: res.Iterations, Basis: res.Basis, Bound: math.NaN(), Gap: math.Inf(1)}
		serr = fmt.Errorf("%w: %s", ErrNumerical, what)
	}
	return res, serr
}

// certified reports whether res, an answer of the LP p, is one Solve may
// return: an Optimal, Infeasible or Unbounded answer must pass Verify at
// verifyTol (an objective that overflows float64, a Farkas ray or a
// primal ray that fails fails it); any other status is not a claim.
func certified(p *Problem, res *Result) bool {
	switch res.Status {
	case Optimal, Infeasible, Unbounded:
		return res.Verify(p, verifyTol) == nil
	}
	return true
}

// validateOptions checks the limits of opt.
func validateOptions(opt *Options) error {
	switch {
	case opt.TimeLimit < 0:
		return fmt.Errorf("%w: negative time limit %v", ErrInvalid, opt.TimeLimit)
	case opt.IterationLimit < 0:
		return fmt.Errorf("%w: negative iteration limit %d", ErrInvalid, opt.IterationLimit)
	case opt.NodeLimit < 0:
		return fmt.Errorf("%w: negative node limit %d", ErrInvalid, opt.NodeLimit)
	case !(opt.Gap >= 0):
		return fmt.Errorf("%w: gap %v is not a non-negative number", ErrInvalid, opt.Gap)
	}
	return nil
}

// validateStart checks opt.Start against p: one finite value per column
// (a NaN would pass every bound and row comparison).
func validateStart(p *Problem, opt *Options) error {
	if opt.Start == nil {
		return nil
	}
	if len(opt.Start) != p.NumCols() {
		return fmt.Errorf("%w: start point of %d values for %d columns", ErrInvalid, len(opt.Start), p.NumCols())
	}
	for j, v := range opt.Start {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: start point value %g of column %d", ErrInvalid, v, j)
		}
	}
	return nil
}
