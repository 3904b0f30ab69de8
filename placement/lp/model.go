package lp

import (
	"context"
	"fmt"
	"math"
	"time"
)

// lpModel is an LP built once for repeated solves: the internal API that
// [Solve] uses for LPs and that branch-and-bound uses for its nodes.
//
// Use:
//
//	mdl, err := newLPModel(p)          // validated, scaled, slack basis
//	st, err := mdl.solve(ctx, lim)     // dual simplex; later calls warm-start
//	mdl.setColBounds(j, lo, up)        // e.g. a branching bound
//	st, err = mdl.solve(ctx, lim)      // dual simplex from the last basis
//	res := mdl.result(st)              // X, duals, basis … in p's terms
//
// Bounds and values passed in or out are in the problem's own units;
// scaling is internal. Costs never change, so after a bound change the old
// basis stays dual feasible and the dual simplex re-solves it warm. The
// basis can also be saved (basis) and restored (setBasis), e.g. to return
// to a parent node. The integrality flags of p are ignored: it solves the
// LP relaxation. An lpModel is not safe for concurrent use; p must not be
// modified while the model is in use.
type lpModel struct {
	p        *Problem
	s        *simplex
	rowScale []float64
	colScale []float64
	sense    float64 // +1 minimise, −1 maximise
	lastIter int     // iterations of the last solve
	clamped  bool    // a scale factor was held at its bound (scaleFactors)
}

// verifyTol is the relative tolerance at which lpModel.solve checks an
// optimal answer's certificate before returning it.
const verifyTol = 1e-7

// lpLimits are the limits of one lpModel.solve. Zero values mean none.
type lpLimits struct {
	Deadline       time.Time
	IterationLimit int // on the model's total iteration count
	Progress       func(Progress)
	Start          time.Time
}

// newLPModel validates p and builds its internal scaled form with the slack
// basis.
func newLPModel(p *Problem) (*lpModel, error) { return newLPModelScaled(p, scaleExp) }

// newLPModelScaled is newLPModel with scale factors within 2^±maxExp. With
// factors wider than the default ones, scaled data that over- or underflow
// (an infinite or zero value where p's is finite or non-zero) are an
// ErrNumerical error.
func newLPModelScaled(p *Problem, maxExp int) (*lpModel, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	m, n := p.NumRows(), p.NumCols()
	rs, cs, clamped := scaleFactors(&p.A, maxExp)
	s := newSimplex(m, n)
	mdl := &lpModel{p: p, s: s, rowScale: rs, colScale: cs, sense: 1, clamped: clamped}
	if p.Maximize {
		mdl.sense = -1
	}
	s.sense, s.offset = mdl.sense, p.Offset
	// Scaled matrix without explicit zeros, and its row-wise copy.
	s.aStart = make([]int, n+1)
	rowCount := make([]int, m+1)
	for j := 0; j < n; j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			if v := p.A.Value[k]; v != 0 {
				i := int(p.A.Index[k])
				s.aIndex = append(s.aIndex, i)
				s.aValue = append(s.aValue, v*rs[i]*cs[j])
				rowCount[i+1]++
			}
		}
		s.aStart[j+1] = len(s.aIndex)
	}
	for i := 0; i < m; i++ {
		rowCount[i+1] += rowCount[i]
	}
	s.arStart = append([]int(nil), rowCount...)
	s.arIndex = make([]int, len(s.aIndex))
	s.arValue = make([]float64, len(s.aIndex))
	fill := append([]int(nil), rowCount[:m]...)
	for j := 0; j < n; j++ {
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			i := s.aIndex[k]
			s.arIndex[fill[i]] = j
			s.arValue[fill[i]] = s.aValue[k]
			fill[i]++
		}
	}
	for j := 0; j < n; j++ {
		s.cost[j] = mdl.sense * p.Cost[j] * cs[j]
		s.setBounds(j, p.ColLower[j]/cs[j], p.ColUpper[j]/cs[j])
	}
	for i := 0; i < m; i++ {
		s.setBounds(n+i, -p.RowUpper[i]*rs[i], -p.RowLower[i]*rs[i])
	}
	if maxExp > scaleExp && !mdl.scaledDataSound() {
		return nil, fmt.Errorf("%w: the scaled problem over- or underflows", ErrNumerical)
	}
	copy(s.work, s.cost)
	s.initSlackBasis()
	return mdl, nil
}

// scaledDataSound reports whether every scaled coefficient, cost and bound
// is finite where p's is, and non-zero where p's is.
func (mdl *lpModel) scaledDataSound() bool {
	p, s := mdl.p, mdl.s
	sound := func(orig, scaled float64) bool {
		return math.IsInf(orig, 0) == math.IsInf(scaled, 0) && (orig == 0) == (scaled == 0)
	}
	k := 0
	for j := 0; j < s.n; j++ {
		for q := p.A.Start[j]; q < p.A.Start[j+1]; q++ {
			if v := p.A.Value[q]; v != 0 {
				if !sound(v, s.aValue[k]) {
					return false
				}
				k++
			}
		}
		if !sound(p.Cost[j], s.cost[j]) || !sound(p.ColLower[j], s.lower[j]) || !sound(p.ColUpper[j], s.upper[j]) {
			return false
		}
	}
	for i := 0; i < s.m; i++ {
		if !sound(p.RowUpper[i], s.lower[s.n+i]) || !sound(p.RowLower[i], s.upper[s.n+i]) {
			return false
		}
	}
	return true
}

// setColBounds changes the bounds of column j (problem units) for the next
// solve. It panics if lo > up or j is out of range (programmer errors).
func (mdl *lpModel) setColBounds(j int, lo, up float64) {
	if !(lo <= up) || math.IsInf(lo, 1) || math.IsInf(up, -1) {
		panic(fmt.Sprintf("lp: setColBounds(%d, %v, %v)", j, lo, up))
	}
	s := mdl.s
	s.setBounds(j, lo/mdl.colScale[j], up/mdl.colScale[j])
	if s.state[j] != basic {
		st := s.state[j]
		if (st == atLower && math.IsInf(s.lower[j], -1)) || (st == atUpper && math.IsInf(s.upper[j], 1)) || st == atZero {
			st = s.preferredState(j, s.d[j])
		}
		s.state[j] = st
		s.x[j] = s.boundValue(j)
	}
}

// colBounds returns the current bounds of column j (problem units).
func (mdl *lpModel) colBounds(j int) (lo, up float64) {
	return mdl.s.lower[j] * mdl.colScale[j], mdl.s.upper[j] * mdl.colScale[j]
}

// basis returns the current basis in the terms of [Basis].
func (mdl *lpModel) basis() *Basis {
	s := mdl.s
	b := &Basis{Cols: make([]BasisStatus, s.n), Rows: make([]BasisStatus, s.m)}
	for j := 0; j < s.n; j++ {
		b.Cols[j] = [...]BasisStatus{Basic, AtLower, AtUpper, Zero}[s.state[j]]
	}
	for i := 0; i < s.m; i++ {
		// The logical is −(row activity): its lower bound is the row's upper.
		b.Rows[i] = [...]BasisStatus{Basic, AtUpper, AtLower, Zero}[s.state[s.n+i]]
	}
	return b
}

// setBasis installs b (from a problem of the same shape). A basis of the
// wrong shape, with an unknown status or with a number of basic entries
// other than the number of rows, is an ErrInvalid error. Statuses are
// adapted to the bounds (AtLower on an infinite lower bound becomes the
// finite bound or Zero). A singular basis is repaired at the next solve.
func (mdl *lpModel) setBasis(b *Basis) error {
	s := mdl.s
	if len(b.Cols) != s.n || len(b.Rows) != s.m {
		return fmt.Errorf("%w: basis has %d column and %d row statuses, want %d and %d", ErrInvalid, len(b.Cols), len(b.Rows), s.n, s.m)
	}
	nb := 0
	for _, st := range b.Cols {
		if st < Basic || st > Zero {
			return fmt.Errorf("%w: basis status %d unknown", ErrInvalid, st)
		}
		if st == Basic {
			nb++
		}
	}
	for _, st := range b.Rows {
		if st < Basic || st > Zero {
			return fmt.Errorf("%w: basis status %d unknown", ErrInvalid, st)
		}
		if st == Basic {
			nb++
		}
	}
	if nb != s.m {
		return fmt.Errorf("%w: basis has %d basic entries, want %d (the number of rows)", ErrInvalid, nb, s.m)
	}
	k := 0
	set := func(v int, st varState) {
		if st == basic {
			s.state[v] = basic
			s.head[k] = v
			s.pos[v] = k
			s.dse[k] = 1
			k++
			return
		}
		s.pos[v] = -1
		l, u := s.lower[v], s.upper[v]
		switch {
		case st == atLower && l == math.Inf(-1), st == atUpper && u == math.Inf(1), st == atZero && (l > math.Inf(-1) || u < math.Inf(1)):
			st = s.preferredState(v, s.cost[v])
		}
		s.state[v] = st
		s.x[v] = s.boundValue(v)
	}
	for j, st := range b.Cols {
		set(j, [...]varState{basic, atLower, atUpper, atZero}[st])
	}
	for i, st := range b.Rows {
		set(s.n+i, [...]varState{basic, atUpper, atLower, atZero}[st])
	}
	s.factored = false
	return nil
}

// solve runs the simplex from the current basis. It returns the status
// (Optimal, Infeasible, Unbounded, IterationLimit, TimeLimit or Cancelled)
// and an error for Cancelled (the context's) and numerical failure
// (ErrNumerical).
func (mdl *lpModel) solve(ctx context.Context, lim lpLimits) (Status, error) {
	s := mdl.setLimits(ctx, lim)
	it0 := s.iters
	var o outcome
	if ctx != nil && ctx.Err() != nil {
		o = outCancelled
	} else {
		o = s.run()
		// The tolerances hold in the scaled problem; when the unscaled
		// answer fails its certificate at verifyTol, tighten them and go on
		// from the basis reached.
		for round := 0; o == outOptimal && round < 3; round++ {
			r := mdl.result(Optimal)
			if r.Verify(mdl.p, verifyTol) == nil {
				break
			}
			s.tracef("unscaled certificate fails: tightening tolerances")
			s.tolP, s.tolD = s.tolP/10, s.tolD/10
			o = s.refine()
		}
		s.tolP, s.tolD = primalTol, dualTol
	}
	mdl.lastIter = s.iters - it0
	s.lastStatus = o
	return statusOf(ctx, o)
}

// setLimits makes ctx and lim the simplex's for one solve (its start now
// when lim has none) and returns the simplex.
func (mdl *lpModel) setLimits(ctx context.Context, lim lpLimits) *simplex {
	s := mdl.s
	s.ctx = ctx
	s.deadline = lim.Deadline
	s.iterLimit = lim.IterationLimit
	s.progress = lim.Progress
	s.start = lim.Start
	if s.start.IsZero() {
		s.start = time.Now()
	}
	return s
}

// statusOf is the Status (and error: the context's for Cancelled,
// ErrNumerical when no verified optimal basis was reached) of a solve that
// ended with outcome o.
func statusOf(ctx context.Context, o outcome) (Status, error) {
	switch o {
	case outOptimal:
		return Optimal, nil
	case outInfeasible:
		return Infeasible, nil
	case outUnbounded:
		return Unbounded, nil
	case outIterationLimit:
		return IterationLimit, nil
	case outTimeLimit:
		return TimeLimit, nil
	case outCancelled:
		return Cancelled, context.Cause(ctx)
	}
	return NotSolved, fmt.Errorf("%w: the simplex could not reach a verified optimal basis", ErrNumerical)
}

// primal writes the unscaled column values into x (len n) and returns the
// objective cᵀx + Offset in the problem's sense.
func (mdl *lpModel) primal(x []float64) float64 {
	p, s := mdl.p, mdl.s
	obj := p.Offset
	for j := 0; j < s.n; j++ {
		v := s.x[j] * mdl.colScale[j]
		// Non-basic values sit exactly on their bound.
		switch s.state[j] {
		case atLower:
			v = p.ColLower[j]
			if lo, _ := mdl.colBounds(j); lo != v {
				v = lo
			}
		case atUpper:
			v = p.ColUpper[j]
			if _, up := mdl.colBounds(j); up != v {
				v = up
			}
		case atZero:
			v = 0
		}
		x[j] = v
		obj += p.Cost[j] * v
	}
	return obj
}

// result assembles the Result of the last solve with status st.
func (mdl *lpModel) result(st Status) Result {
	p, s := mdl.p, mdl.s
	res := Result{Status: st, Iterations: s.iters, Bound: math.NaN(), Gap: math.Inf(1)}
	if st == Optimal || st == Unbounded || (st != Infeasible && s.primalInfeasibility() <= s.tolP && s.factored) {
		res.X = make([]float64, s.n)
		res.Objective = mdl.primal(res.X)
		res.RowActivity = rowActivity(p, res.X)
	}
	res.Basis = mdl.basis()
	switch st {
	case Optimal:
		res.Bound, res.Gap = res.Objective, 0
		res.RowDual = make([]float64, s.m)
		for i := 0; i < s.m; i++ {
			res.RowDual[i] = mdl.sense * s.y[i] * mdl.rowScale[i]
		}
		res.ReducedCost = make([]float64, s.n)
		for j := 0; j < s.n; j++ {
			if s.state[j] == basic {
				continue
			}
			dj := p.Cost[j]
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				dj -= p.A.Value[k] * res.RowDual[p.A.Index[k]]
			}
			res.ReducedCost[j] = dj
		}
	case Infeasible:
		res.Ray = make([]float64, s.m)
		for i := 0; i < s.m; i++ {
			res.Ray[i] = s.raySign * s.rayRow[i] * mdl.rowScale[i]
		}
		res.Bound = math.Inf(1) * mdl.sense
	case Unbounded:
		res.Ray = make([]float64, s.n)
		q := s.rayEnter
		if q < s.n {
			res.Ray[q] = s.rayDir * mdl.colScale[q]
		}
		for i, v := range s.head {
			if v < s.n {
				res.Ray[v] = -s.rayDir * s.rayCol[i] * mdl.colScale[v]
			}
		}
		res.Bound = math.Inf(-1) * mdl.sense
	}
	if res.X != nil && st != Optimal {
		res.Gap = math.Inf(1)
	}
	return res
}

// rowActivity returns A·x.
func rowActivity(p *Problem, x []float64) []float64 {
	r := make([]float64, p.NumRows())
	for j := 0; j < p.NumCols(); j++ {
		if x[j] == 0 {
			continue
		}
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			r[p.A.Index[k]] += p.A.Value[k] * x[j]
		}
	}
	return r
}
