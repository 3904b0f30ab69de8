package lp

import "math"

// This file holds the check that lets a simplex phase confirm optimality
// on the factorisation it has, updates included, instead of factorising
// the basis afresh: the primal and dual values are recomputed from the
// current factors, improved by one step of iterative refinement, and
// accepted only when that step — the estimate of their error — is far
// below the feasibility tolerances.

// refineShare is the largest error estimate of a recomputed value, as a
// share of its feasibility tolerance, that refresh accepts.
const refineShare = 0.01

// refresh recomputes the primal values and the duals from the current
// factors (x_B = B⁻¹·(−N·x_N), y = B⁻ᵀ·work_B, d = work − Aᵀy), as rebuild
// does after a fresh factorisation, refines each once from its residual
// and reports whether both corrections were below refineShare of the
// tolerances: each basic value within refineShare·tolP, each non-basic
// reduced cost within refineShare·tolD. On false the values are refined
// but doubtful: the caller factorises afresh.
func (s *simplex) refresh() bool {
	s.computePrimal()
	if !s.refinePrimal() {
		return false
	}
	s.computeDual()
	if !s.refineDual() {
		return false
	}
	s.unchecked = false
	return true
}

// refinePrimal computes the residual r = A·x_S + x_L of the rows, solves
// B·δ = r with the current factors and corrects x_B ← x_B − δ. It reports
// whether max |δ| ≤ refineShare·tolP.
func (s *simplex) refinePrimal() bool {
	v := s.col
	v.clear()
	r := v.val
	for j := 0; j < s.n; j++ {
		xj := s.x[j]
		if xj == 0 {
			continue
		}
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			i := s.aIndex[k]
			v.add(i)
			r[i] += s.aValue[k] * xj
		}
	}
	for i := 0; i < s.m; i++ {
		if xl := s.x[s.n+i]; xl != 0 {
			v.add(i)
			r[i] += xl
		}
	}
	s.lu.ftran(v)
	worst := 0.0
	for _, q := range v.idx[:v.n] {
		dq := v.val[q]
		s.x[s.head[q]] -= dq
		worst = max(worst, math.Abs(dq))
	}
	v.clear()
	return worst <= refineShare*s.tolP
}

// refineDual computes the residual r_q = work_{B_q} − a_{B_q}ᵀy of the
// basic variables, solves Bᵀ·δ = r with the current factors and corrects
// y ← y + δ and the non-basic reduced costs d_j ← d_j − a_jᵀδ. It reports
// whether every such correction is within refineShare·tolD.
func (s *simplex) refineDual() bool {
	v := s.row
	v.clear()
	for q, j := range s.head {
		var r float64
		if j < s.n {
			r = s.work[j]
			for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
				r -= s.aValue[k] * s.y[s.aIndex[k]]
			}
		} else {
			r = s.work[j] - s.y[j-s.n]
		}
		if r != 0 {
			v.set(q, r)
		}
	}
	if v.n == 0 {
		return true
	}
	s.lu.btran(v)
	dy := v.val
	for _, i := range v.idx[:v.n] {
		s.y[i] += dy[i]
	}
	worst := 0.0
	for j := 0; j < s.n; j++ {
		if s.state[j] == basic {
			continue
		}
		e := 0.0
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			e += s.aValue[k] * dy[s.aIndex[k]]
		}
		s.d[j] -= e
		worst = max(worst, math.Abs(e))
	}
	for i := 0; i < s.m; i++ {
		if lv := s.n + i; s.state[lv] != basic {
			s.d[lv] -= dy[i]
			worst = max(worst, math.Abs(dy[i]))
		}
	}
	v.clear()
	return worst <= refineShare*s.tolD
}
