package lp

import "math"

// run solves the internal LP from the current basis and returns how it
// ended. On outOptimal the working costs equal the true costs and x, d, y
// are those of a fresh factorisation; on outInfeasible s.rayRow holds the
// Farkas row, on outUnbounded s.rayCol the primal direction.
//
// The path: make the basis dual feasible (flipping boxed variables; a dual
// phase 1 on the auxiliary box-bounded problem when free or one-sided
// variables remain dual infeasible); perturb the costs; dual simplex
// phase 2; remove the perturbation and clean up with the primal simplex.
// When the problem is dual infeasible, a dual phase 2 with zero costs finds
// a feasible point (or proves infeasibility) and the primal simplex then
// finds the ray.
func (s *simplex) run() outcome {
	s.rebuild()
	copy(s.work, s.cost)
	s.computeDual()
	inf, flipped := s.flipToDualFeasible(false)
	if flipped {
		s.computePrimal()
	}
	if inf == 0 && s.primalInfeasibility() <= s.tolP {
		// A start that is optimal already (a warm start from an optimal
		// basis) takes no iteration: perturbing its costs could make a
		// degenerate one pivot to another optimal vertex.
		return outOptimal
	}
	if inf > 0 {
		if s.primalInfeasibility() <= s.tolP {
			// Primal feasible: the primal simplex fixes the dual side.
			if o := s.primalPhase2(); o != outOptimal {
				return o
			}
			if s.finalCheck() {
				return outOptimal
			}
		} else {
			auxObj, o := s.dualPhase1()
			s.tracef("dual phase 1: %d after %d iterations, auxiliary objective %g", o, s.iters, auxObj)
			if o != outOptimal {
				return o
			}
			copy(s.work, s.cost)
			s.computeDual()
			if auxObj < 0 {
				return s.dualInfeasibleCase()
			}
		}
		// Small leftovers are shifted away (removed at the end).
		if _, flipped = s.flipToDualFeasible(true); flipped {
			s.computePrimal()
		}
	}
	s.perturb()
	for attempt := 0; ; attempt++ {
		s.tracef("attempt %d: dual phase 2 from infeasibility %g", attempt, s.primalInfeasibility())
		o := s.dualPhase2()
		s.tracef("dual phase 2: %d after %d iterations", o, s.iters)
		if o != outOptimal {
			return o
		}
		// Remove perturbation and shifts.
		copy(s.work, s.cost)
		s.rebuild()
		s.tracef("after removing perturbation: primal infeasibility %g, %d dual infeasibilities", s.primalInfeasibility(), s.countDualInf())
		// Boxed variables that lost dual feasibility are flipped and the
		// dual simplex goes on without perturbation, the others shifted;
		// what remains is left to the primal simplex.
		if attempt < 4 {
			if _, flipped := s.flipToDualFeasible(false); flipped {
				s.flipToDualFeasible(true)
				s.computePrimal()
				continue
			}
		}
		if s.primalInfeasibility() <= s.tolP {
			o = s.primalPhase2()
			s.tracef("primal phase 2: %d after %d iterations", o, s.iters)
			if o != outOptimal {
				return o
			}
		}
		if s.finalCheck() {
			return outOptimal
		}
		if attempt >= 8 {
			return outNumerical
		}
		if _, flipped := s.flipToDualFeasible(true); flipped {
			s.computePrimal()
		}
	}
}

// finalCheck refactorises and reports whether the basis is primal and dual
// feasible with the true costs.
func (s *simplex) finalCheck() bool {
	copy(s.work, s.cost)
	s.rebuild()
	if s.primalInfeasibility() > s.tolP {
		return false
	}
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic && s.dualInfeasible(j) {
			return false
		}
	}
	return true
}

// dualInfeasibleCase handles a problem with no dual feasible basis: it is
// infeasible or unbounded. A dual simplex with zero costs decides
// feasibility; from a feasible basis the primal simplex with the true costs
// then finds the unbounded ray.
func (s *simplex) dualInfeasibleCase() outcome {
	clear(s.work)
	s.computeDual()
	s.perturb()
	o := s.dualPhase2()
	if o != outOptimal {
		return o
	}
	copy(s.work, s.cost)
	s.rebuild()
	if s.primalInfeasibility() > s.tolP {
		return outNumerical
	}
	o = s.primalPhase2()
	if o == outOptimal && !s.finalCheck() {
		return outNumerical
	}
	return o
}

// dualPhase1 solves the auxiliary problem in which every variable gets box
// bounds (free [−1, 1], lower-bounded [0, 1], upper-bounded [−1, 0], boxed
// [0, 0]) with the dual simplex; its optimal basis is dual feasible for the
// original problem unless the original has no dual feasible basis. The
// original bounds are restored and the non-basic variables placed on the
// bounds their reduced costs call for.
//
// It returns the optimal auxiliary objective with the true costs,
// Σ cost_j·x_j, when it is clearly negative (the problem has no dual
// feasible basis), and 0 otherwise.
func (s *simplex) dualPhase1() (float64, outcome) {
	lo := append([]float64(nil), s.lower...)
	up := append([]float64(nil), s.upper...)
	inf := math.Inf(1)
	for j := 0; j < s.nt; j++ {
		l, u := lo[j], up[j]
		switch {
		case l == -inf && u == inf:
			s.setBounds(j, -1, 1)
		case u == inf:
			s.setBounds(j, 0, 1)
		case l == -inf:
			s.setBounds(j, -1, 0)
		default:
			s.setBounds(j, 0, 0)
		}
	}
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic {
			s.state[j] = s.preferredState(j, s.d[j])
			s.x[j] = s.boundValue(j)
		}
	}
	s.computePrimal()
	o := s.dualPhase2()
	auxObj, mag := 0.0, 0.0
	for j := 0; j < s.n; j++ {
		auxObj += s.cost[j] * s.x[j]
		mag += math.Abs(s.cost[j] * s.x[j])
	}
	if auxObj >= -1e-6*(1+mag) {
		auxObj = 0
	}
	for j := range lo {
		s.setBounds(j, lo[j], up[j])
	}
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic {
			s.state[j] = s.preferredState(j, s.d[j])
			s.x[j] = s.boundValue(j)
		}
	}
	s.computePrimal()
	if o == outInfeasible {
		// The auxiliary problem is feasible (x = 0): a numerical failure.
		return 0, outNumerical
	}
	return auxObj, o
}

// perturb adds small random amounts to the working costs of the
// structurals, in the direction that keeps their reduced costs dual
// feasible, against dual degeneracy. run removes it before the end.
func (s *simplex) perturb() {
	for j := 0; j < s.n; j++ {
		l, u := s.lower[j], s.upper[j]
		if l == u {
			continue
		}
		xi := (1 + math.Abs(s.work[j])) * 5e-7 * (1 + s.rand())
		switch {
		case l > math.Inf(-1) && u == math.Inf(1):
		case l == math.Inf(-1) && u < math.Inf(1):
			xi = -xi
		case l > math.Inf(-1):
			if s.state[j] == atUpper {
				xi = -xi
			}
		default:
			continue
		}
		s.work[j] += xi
	}
	s.perturbed = true
	s.computeDual()
}

// rand returns a deterministic pseudo-random number in [0, 1).
func (s *simplex) rand() float64 {
	s.rng ^= s.rng << 13
	s.rng ^= s.rng >> 7
	s.rng ^= s.rng << 17
	return float64(s.rng>>11) / (1 << 53)
}

func (s *simplex) countDualInf() int {
	c := 0
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic && s.dualInfeasible(j) {
			c++
		}
	}
	return c
}

// refine continues from the current basis after the tolerances were
// tightened: no phase 1 and no perturbation. Dual infeasibilities are
// shifted away while the dual simplex restores primal feasibility; the
// primal simplex then removes them with the true costs.
func (s *simplex) refine() outcome {
	copy(s.work, s.cost)
	s.rebuild()
	for attempt := 0; attempt < 4; attempt++ {
		if s.primalInfeasibility() > s.tolP {
			if _, flipped := s.flipToDualFeasible(true); flipped {
				s.computePrimal()
			}
			if o := s.dualPhase2(); o != outOptimal {
				return o
			}
			copy(s.work, s.cost)
			s.rebuild()
			if s.primalInfeasibility() > s.tolP {
				continue
			}
		}
		if o := s.primalPhase2(); o != outOptimal {
			return o
		}
		if s.finalCheck() {
			return outOptimal
		}
	}
	return outNumerical
}
