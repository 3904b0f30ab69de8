package lp

import (
	"context"
	"fmt"
	"time"
)

// Solve solves the linear program p with the built-in bounded-variable dual
// simplex (see the package comment for the algorithm) and returns its
// Result in p's own terms.
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
// Mixed-integer problems (p.IsMIP) are solved by branch-and-bound; see
// solveMIP in mip.go for what their Result holds.
func Solve(ctx context.Context, p *Problem, opt Options) (Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	if err := validateOptions(&opt); err != nil {
		return Result{}, err
	}
	if p.IsMIP() {
		return solveMIP(ctx, p, opt, start)
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
	res.Elapsed = time.Since(start)
	return res, serr
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
