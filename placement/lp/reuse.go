package lp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Model is an LP built once and solved again and again as its column
// bounds change: a dive or a probe that bounds one column at a time, a
// sequence of what-if questions on one model. [Solve] builds, scales and
// factorises the whole LP on every call; a Model keeps all of it, and each
// Solve starts from the basis the last one reached. After bound changes
// alone that basis stays dual feasible, so the dual simplex goes on from
// it at once, usually for a few iterations.
//
// A Model solves the LP relaxation: the integrality flags of its problem
// are ignored. Every Optimal, Infeasible and Unbounded answer is checked
// against the problem with the current bounds, as [Solve]'s are, and
// solved afresh from the basis reached when it fails. A Model is not safe
// for concurrent use.
type Model struct {
	p   Problem // the problem with the current column bounds (own slices)
	mdl *lpModel
}

// NewModel builds the Model of p's LP relaxation, with p's bounds and the
// slack basis. It copies what it changes later (the column bounds), so p
// stays the caller's; p's other data must not be modified while the Model
// is in use. An invalid problem is an ErrInvalid error.
func NewModel(p *Problem) (*Model, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	m := &Model{p: *p}
	m.p.ColLower = append([]float64(nil), p.ColLower...)
	m.p.ColUpper = append([]float64(nil), p.ColUpper...)
	m.p.Integer = nil
	if m.p.NumCols() == 0 {
		return m, nil
	}
	mdl, err := newLPModel(&m.p)
	if err != nil {
		return nil, err
	}
	m.mdl = mdl
	return m, nil
}

// NumCols returns the number of columns of the model.
func (m *Model) NumCols() int { return m.p.NumCols() }

// ColBounds returns the current bounds of column j (it panics when j is
// out of range, like a slice index).
func (m *Model) ColBounds(j int) (lower, upper float64) { return m.p.ColLower[j], m.p.ColUpper[j] }

// SetColBounds sets the bounds of column j for the next solves. A column
// out of range, a NaN bound, lower > upper, a lower bound of +Inf or an
// upper one of −Inf is an ErrInvalid error (the bounds are then unchanged).
func (m *Model) SetColBounds(j int, lower, upper float64) error {
	if j < 0 || j >= m.p.NumCols() {
		return fmt.Errorf("%w: column %d of %d", ErrInvalid, j, m.p.NumCols())
	}
	if !(lower <= upper) || math.IsInf(lower, 1) || math.IsInf(upper, -1) {
		return fmt.Errorf("%w: bounds [%v, %v] of column %d", ErrInvalid, lower, upper, j)
	}
	if m.p.ColLower[j] == lower && m.p.ColUpper[j] == upper {
		return nil
	}
	m.p.ColLower[j], m.p.ColUpper[j] = lower, upper
	m.mdl.setColBounds(j, lower, upper)
	return nil
}

// SetBasis installs b (typically Result.Basis of an earlier solve of this
// model or of a problem of the same shape) as the start of the next solve.
// A nil basis, one of the wrong shape, with an unknown status, or whose
// number of Basic entries is not the number of rows is an ErrInvalid
// error.
func (m *Model) SetBasis(b *Basis) error {
	if b == nil {
		return fmt.Errorf("%w: nil basis", ErrInvalid)
	}
	if m.mdl == nil {
		if len(b.Cols) != 0 || len(b.Rows) != m.p.NumRows() {
			return fmt.Errorf("%w: basis has %d column and %d row statuses, want 0 and %d", ErrInvalid, len(b.Cols), len(b.Rows), m.p.NumRows())
		}
		return nil
	}
	return m.mdl.setBasis(b)
}

// Solve solves the LP at the current bounds from the basis the last solve
// reached (the slack basis at first; opt.Basis, when given, is installed
// first as by SetBasis). opt.TimeLimit and opt.IterationLimit bound this
// call alone, and Result.Iterations counts its iterations; opt.Progress is
// called as by [Solve]. opt.NodeLimit, opt.Gap and opt.Start, which are a
// MILP's, are ignored. The answer is [Solve]'s for the problem with the
// current bounds: same statuses, errors and certificates.
func (m *Model) Solve(ctx context.Context, opt Options) (Result, error) {
	start := time.Now()
	if err := validateOptions(&opt); err != nil {
		return Result{}, err
	}
	if opt.Basis != nil {
		if err := m.SetBasis(opt.Basis); err != nil {
			return Result{}, err
		}
	}
	if m.mdl == nil {
		if err := ctx.Err(); err != nil {
			return Result{Status: Cancelled, Bound: math.NaN(), Gap: math.Inf(1), Elapsed: time.Since(start)}, err
		}
		return solveNoColumns(&m.p, start), nil
	}
	s := m.mdl.s
	it0 := s.iters
	lim := lpLimits{Progress: opt.Progress, Start: start}
	if opt.IterationLimit > 0 {
		lim.IterationLimit = it0 + opt.IterationLimit
	}
	if opt.TimeLimit > 0 {
		lim.Deadline = start.Add(opt.TimeLimit)
	}
	st, err := m.mdl.resolve(ctx, lim)
	res := m.mdl.result(st)
	if !certified(&m.p, &res) && err == nil {
		// The fast warm path ended on an answer that fails its
		// certificate: the full path from the basis reached, whose
		// tolerances tighten until it passes.
		st, err = m.mdl.solve(ctx, lim)
		res = m.mdl.result(st)
	}
	res.Iterations = s.iters - it0
	if !certified(&m.p, &res) || errors.Is(err, ErrNumerical) {
		// As Solve: wider scaling from the slack basis, else no claim.
		wl := lpLimits{IterationLimit: opt.IterationLimit, Progress: opt.Progress, Start: start, Deadline: lim.Deadline}
		res, err = solveWide(ctx, &m.p, wl, m.mdl, res, err)
		if errors.Is(err, ErrNumerical) {
			// The next solve starts afresh rather than from a basis that
			// led here.
			m.mdl.s.initSlackBasis()
		}
	}
	res.Elapsed = time.Since(start)
	return res, err
}
