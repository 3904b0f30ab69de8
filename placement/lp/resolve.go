package lp

import (
	"context"
	"time"
)

// This file holds the fast warm re-solve of branch-and-bound: after bound
// changes the last optimal basis stays dual feasible, so the dual simplex
// phase 2 can start from it at once, with no cost perturbation, no primal
// clean-up and at most one refactorisation. When anything unusual happens
// (a cost shift, a dual infeasibility, too many iterations, a numerical
// doubt) it falls back to the full path of lpModel.solve, from the basis
// reached.

// warmCap bounds the iterations of the fast path before the fallback.
func (s *simplex) warmCap() int { return 100 + s.m }

// resolveWarm tries the fast path. It returns the outcome and whether it is
// final (false: the caller runs the full path).
func (s *simplex) resolveWarm() (outcome, bool) {
	if !s.factored || s.lu.needRefactor() {
		s.refactor()
	}
	copy(s.work, s.cost)
	s.computePrimal()
	s.computeDual()
	inf, flipped := s.flipToDualFeasible(false)
	if inf > 0 {
		return 0, false
	}
	if flipped {
		s.computePrimal()
	}
	limit := s.iterLimit
	cp := s.iters + s.warmCap()
	if limit == 0 || cp < limit {
		s.iterLimit = cp
	}
	o := s.dualPhase2()
	s.iterLimit = limit
	switch o {
	case outInfeasible, outTimeLimit, outCancelled:
		return o, true
	case outIterationLimit:
		if limit > 0 && s.iters >= limit {
			return o, true
		}
		return 0, false
	case outOptimal:
	default:
		return 0, false
	}
	// Optimal for the working costs; final only if they are the true costs
	// and the basis is dual feasible (dualPhase2 ends on a fresh
	// factorisation when it has updates).
	for j := range s.work {
		if s.work[j] != s.cost[j] {
			return 0, false
		}
	}
	if s.primalInfeasibility() > primalTol {
		return 0, false
	}
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic && s.dualInfeasible(j) {
			return 0, false
		}
	}
	return outOptimal, true
}

// resolve is lpModel.solve with the fast warm path first: for the nodes of
// branch-and-bound, after bound changes.
func (mdl *lpModel) resolve(ctx context.Context, lim lpLimits) (Status, error) {
	s := mdl.s
	s.ctx = ctx
	s.deadline = lim.Deadline
	s.iterLimit = lim.IterationLimit
	s.progress = lim.Progress
	s.start = lim.Start
	if s.start.IsZero() {
		s.start = time.Now()
	}
	if ctx != nil && ctx.Err() != nil {
		return mdl.solve(ctx, lim)
	}
	it0 := s.iters
	o, final := s.resolveWarm()
	if !final {
		st, err := mdl.solve(ctx, lim)
		mdl.lastIter = s.iters - it0
		return st, err
	}
	mdl.lastIter = s.iters - it0
	s.lastStatus = o
	switch o {
	case outOptimal:
		return Optimal, nil
	case outInfeasible:
		return Infeasible, nil
	case outIterationLimit:
		return IterationLimit, nil
	case outTimeLimit:
		return TimeLimit, nil
	}
	return Cancelled, context.Cause(ctx)
}
