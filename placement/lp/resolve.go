package lp

import (
	"context"
	"slices"
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
	s.warmValues()
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
	defer func() { s.iterLimit = limit }()
	for round := 0; ; round++ {
		switch o := s.dualPhase2(); o {
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
		// Optimal for the working costs (dualPhase2 ends on values
		// recomputed from factors whose accuracy it checked, see refresh).
		// The ratio test may have shifted costs by at most the dual
		// tolerance: with the true costs restored the basis usually stays
		// dual feasible, or becomes so by flips that the dual simplex then
		// follows; otherwise the full path takes over.
		if !slices.Equal(s.work, s.cost) {
			if round >= trialRounds {
				return 0, false
			}
			copy(s.work, s.cost)
			if !s.refresh() {
				s.rebuild()
			}
			inf, flipped := s.flipToDualFeasible(false)
			if inf > 0 {
				return 0, false
			}
			if flipped {
				s.computePrimal()
				continue
			}
			if s.primalInfeasibility() > s.tolP {
				continue
			}
		}
		break
	}
	if s.primalInfeasibility() > primalTol {
		return 0, false
	}
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic && s.dualInfeasible(j) {
			return 0, false
		}
	}
	s.markValid()
	return outOptimal, true
}

// warmValues prepares the start of a warm re-solve with the true costs:
// the basis factorised and its primal and dual values. After a confirmed
// optimum (valid) on the same basis (still factorised: setBasis and
// initSlackBasis clear factored) the duals still hold, and so do the
// primal values unless a non-basic value moved (a bound change on a
// non-basic column; the bounds of basic ones only change which values are
// infeasible); otherwise both are recomputed.
func (s *simplex) warmValues() {
	keep := s.valid && s.factored
	s.valid = false
	if !s.factored || s.lu.needRefactor(s.rebuildWork()) {
		rep := s.repairs
		s.refactor()
		keep = keep && s.repairs == rep
	}
	if keep {
		for j := range s.work {
			if s.work[j] != s.cost[j] {
				keep = false
				break
			}
		}
	}
	if !keep {
		copy(s.work, s.cost)
		s.computePrimal()
		s.computeDual()
		return
	}
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic && s.x[j] != s.xSnap[j] {
			s.computePrimal()
			return
		}
	}
	s.resetInfeasible()
}

// markValid records the values of a confirmed optimum for warmValues.
func (s *simplex) markValid() {
	if len(s.xSnap) != s.nt {
		s.xSnap = make([]float64, s.nt)
	}
	copy(s.xSnap, s.x)
	s.valid = true
}

// resolve is lpModel.solve with the fast warm path first: for the nodes of
// branch-and-bound, after bound changes.
func (mdl *lpModel) resolve(ctx context.Context, lim lpLimits) (Status, error) {
	s := mdl.setLimits(ctx, lim)
	if ctx != nil && ctx.Err() != nil {
		return mdl.solve(ctx, lim)
	}
	it0 := s.iters
	o, final := s.resolveWarm()
	if !final {
		st, err := mdl.solve(ctx, lim)
		mdl.lastIter = s.iters - it0
		if st == Optimal && err == nil {
			// solve ends on a fresh factorisation with the true costs.
			s.markValid()
		}
		return st, err
	}
	mdl.lastIter = s.iters - it0
	s.lastStatus = o
	return statusOf(ctx, o)
}

// trialRounds is the number of rounds in which trialRun removes the cost
// perturbation and goes on with the dual simplex before it gives up on an
// exact answer.
const trialRounds = 3

// trialRun solves the LP of a strong-branching trial from the current
// basis (dual feasible for the true costs after a bound change): the dual
// simplex on perturbed costs — far better estimates within a small
// iteration budget on dual degenerate problems than unperturbed costs (gt2)
// —, then without the perturbation. It ends outOptimal only on a basis
// primal and dual feasible for the true costs, confirmed on values whose
// residuals refresh checked (or on a fresh factorisation); outInfeasible
// with the Farkas row stored; outIterationLimit when the budget ran out or
// the perturbation could not be removed within trialRounds (x then holds a
// dual feasible basis's values: its objective is an estimate, not a
// bound); outNumerical when the start is not dual feasible (the caller
// then takes the full path).
func (s *simplex) trialRun() outcome {
	s.warmValues()
	inf, flipped := s.flipToDualFeasible(false)
	if inf > 0 {
		return outNumerical
	}
	if flipped {
		s.computePrimal()
	}
	s.perturb()
	for round := 0; ; round++ {
		if o := s.dualPhase2(); o != outOptimal {
			return o
		}
		if !s.perturbed {
			break
		}
		// Remove the perturbation: boxed variables that lost dual
		// feasibility are flipped and the dual simplex goes on.
		copy(s.work, s.cost)
		s.perturbed = false
		if !s.refresh() {
			s.rebuild()
		}
		inf, flipped := s.flipToDualFeasible(false)
		if inf > 0 || round+1 >= trialRounds {
			return outIterationLimit
		}
		if !flipped {
			break
		}
		s.computePrimal()
	}
	// The dual simplex may have shifted costs: judge the basis on the true
	// ones.
	copy(s.work, s.cost)
	if !s.refresh() {
		s.rebuild()
	}
	if s.primalInfeasibility() > s.tolP {
		return outIterationLimit
	}
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic && s.dualInfeasible(j) {
			return outIterationLimit
		}
	}
	return outOptimal
}

// trial solves a strong-branching trial LP by trialRun with lim, falling
// back to solve when its start is not dual feasible. Its Optimal answers
// are primal and dual feasible bases in the scaled form (not checked by
// Result.Verify: a trial only estimates a child's bound, and the child is
// solved again as a node).
func (mdl *lpModel) trial(ctx context.Context, lim lpLimits) (Status, error) {
	s := mdl.setLimits(ctx, lim)
	if ctx != nil && ctx.Err() != nil {
		return mdl.solve(ctx, lim)
	}
	it0 := s.iters
	o := s.trialRun()
	copy(s.work, s.cost)
	s.perturbed = false
	if o == outNumerical {
		st, err := mdl.solve(ctx, lim)
		mdl.lastIter = s.iters - it0
		return st, err
	}
	mdl.lastIter = s.iters - it0
	s.lastStatus = o
	return statusOf(ctx, o)
}
