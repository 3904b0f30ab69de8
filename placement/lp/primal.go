package lp

import "math"

// primalPhase2 runs the bounded primal simplex from a primal feasible basis
// (within s.tolP) with the working costs: Dantzig pricing, a two-pass
// Harris ratio test and bound flips of the entering variable. It serves as
// the clean-up after the dual simplex (perturbation removed) and to find a
// ray of an unbounded problem.
func (s *simplex) primalPhase2() outcome {
	confirmed := false
	for {
		if !s.factored || s.lu.needRefactor(s.rebuildWork()) {
			s.rebuild()
		}
		if o, stop := s.limit(); stop {
			return o
		}
		q, best := -1, 0.0
		for j := 0; j < s.nt; j++ {
			if s.state[j] == basic || !s.dualInfeasible(j) {
				continue
			}
			if a := math.Abs(s.d[j]); a > best {
				q, best = j, a
			}
		}
		if q < 0 {
			if s.lu.numEtas() > 0 && !confirmed {
				s.invalidate()
				confirmed = true
				continue
			}
			return outOptimal
		}
		confirmed = false
		dir := 1.0
		if s.d[q] > 0 {
			dir = -1
		}
		s.ftranColumn(q)
		// x_B(t) = x_B − dir·t·α_q.
		tmax := math.Inf(1)
		for _, i := range s.col.idx[:s.col.n] {
			a := dir * s.col.val[i]
			v := s.head[i]
			if a > pivotTol && s.lower[v] > math.Inf(-1) {
				tmax = min(tmax, (s.x[v]-s.lower[v]+s.tolP)/a)
			} else if a < -pivotTol && s.upper[v] < math.Inf(1) {
				tmax = min(tmax, (s.x[v]-s.upper[v]-s.tolP)/a)
			}
		}
		flip := s.upper[q] - s.lower[q]
		if math.IsInf(tmax, 1) && math.IsInf(flip, 1) {
			if s.lu.numEtas() > 0 {
				s.invalidate()
				continue
			}
			s.rayCol = append(s.rayCol[:0], s.col.val...)
			s.rayEnter, s.rayDir = q, dir
			return outUnbounded
		}
		r, bestA, theta := -1, 0.0, 0.0
		for _, i := range s.col.idx[:s.col.n] {
			a := dir * s.col.val[i]
			v := s.head[i]
			var t float64
			if a > pivotTol && s.lower[v] > math.Inf(-1) {
				t = (s.x[v] - s.lower[v]) / a
			} else if a < -pivotTol && s.upper[v] < math.Inf(1) {
				t = (s.x[v] - s.upper[v]) / a
			} else {
				continue
			}
			if t <= tmax && math.Abs(a) > bestA {
				r, bestA, theta = i, math.Abs(a), t
			}
		}
		if r < 0 || flip <= theta {
			// The entering variable reaches its other bound first.
			for _, i := range s.col.idx[:s.col.n] {
				s.x[s.head[i]] -= dir * flip * s.col.val[i]
				s.touch(i)
			}
			if s.state[q] == atLower {
				s.state[q], s.x[q] = atUpper, s.upper[q]
			} else {
				s.state[q], s.x[q] = atLower, s.lower[q]
			}
			s.iters++
			s.unchecked = true
			continue
		}
		theta = max(theta, 0)
		lv := s.head[r]
		toLower := dir*s.col.val[r] > 0
		s.btranUnit(r)
		s.price()
		ac, ar := s.col.val[r], s.alpha[q]
		if math.Abs(ac-ar) > checkTol*max(1, math.Abs(ac)) && s.lu.numEtas() > 0 {
			s.invalidate()
			continue
		}
		for _, i := range s.col.idx[:s.col.n] {
			s.x[s.head[i]] -= dir * theta * s.col.val[i]
			s.touch(i)
		}
		s.x[q] += dir * theta
		if toLower {
			s.x[lv] = s.lower[lv]
		} else {
			s.x[lv] = s.upper[lv]
		}
		thetaD := s.d[q] / ac
		for _, j := range s.alphaIdx {
			s.d[j] -= thetaD * s.alpha[j]
		}
		s.d[q] = 0
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
		s.d[lv] = -thetaD
		s.dse[r] = 1
		if s.lu.update(r, s.col) {
			s.luHead[r] = q
		} else {
			s.invalidate()
		}
		s.touch(r)
		s.iters++
		s.unchecked = true
	}
}
