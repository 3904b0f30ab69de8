package lp

import (
	"errors"
	"fmt"
	"math"
)

// Matrix is a sparse m×n matrix in compressed sparse column (CSC) form: the
// non-zeros of column j are Value[Start[j]:Start[j+1]], in the rows
// Index[Start[j]:Start[j+1]]. Within a column the row indices are strictly
// increasing. Explicit zeros are allowed but wasteful. The zero Matrix is the
// empty 0×0 matrix.
//
// Row indices take four bytes (a matrix has at most [MaxRows] rows): a
// large model's matrix is mostly its indices and values, and its memory
// and the time to read it fall with them.
type Matrix struct {
	Rows, Cols int
	Start      []int   // len Cols+1, Start[0] = 0, non-decreasing
	Index      []int32 // len Start[Cols]
	Value      []float64
}

// MaxRows is the most rows a [Problem] may have: a [Matrix] keeps a row
// index in four bytes.
const MaxRows = math.MaxInt32

// NNZ returns the number of stored entries of m.
func (m *Matrix) NNZ() int {
	if len(m.Start) == 0 {
		return 0
	}
	return m.Start[len(m.Start)-1]
}

// Problem is a linear or mixed-integer program (see the package comment). Its
// fields are plain data; build one directly or with a [Builder]. Solvers never
// modify a Problem, so one Problem may be solved concurrently by several
// goroutines. Call [Problem.Validate] to check its shape and values.
//
// The zero Problem is the empty program, with optimum 0.
type Problem struct {
	// Name is informative only (the NAME section of MPS).
	Name string
	// Maximize reverses the sense of the objective: maximise cᵀx + Offset.
	Maximize bool
	// Offset is a constant added to the objective.
	Offset float64

	// Cost, ColLower and ColUpper have one entry per column. Bounds may be
	// -Inf / +Inf; ColLower[j] ≤ ColUpper[j] is required.
	Cost     []float64
	ColLower []float64
	ColUpper []float64
	// Integer marks integer columns. nil means a pure LP; otherwise it has
	// one entry per column.
	Integer []bool
	// ColNames, nil or one entry per column, name the columns in output
	// formats and error messages.
	ColNames []string

	// RowLower and RowUpper have one entry per row; ±Inf allowed;
	// RowLower[i] ≤ RowUpper[i] is required.
	RowLower []float64
	RowUpper []float64
	// RowNames, nil or one entry per row.
	RowNames []string

	// A is the constraint matrix, len(RowLower) × len(Cost).
	A Matrix
}

// NumRows returns the number of constraint rows.
func (p *Problem) NumRows() int { return len(p.RowLower) }

// NumCols returns the number of columns (variables).
func (p *Problem) NumCols() int { return len(p.Cost) }

// IsMIP reports whether any column is marked integer.
func (p *Problem) IsMIP() bool {
	for _, b := range p.Integer {
		if b {
			return true
		}
	}
	return false
}

// ColName returns the name of column j, or "C<j>" when it has none.
func (p *Problem) ColName(j int) string {
	if j < len(p.ColNames) && p.ColNames[j] != "" {
		return p.ColNames[j]
	}
	return fmt.Sprintf("C%d", j)
}

// RowName returns the name of row i, or "R<i>" when it has none.
func (p *Problem) RowName(i int) string {
	if i < len(p.RowNames) && p.RowNames[i] != "" {
		return p.RowNames[i]
	}
	return fmt.Sprintf("R%d", i)
}

// maxValidateProblems bounds the number of problems Validate reports.
const maxValidateProblems = 20

// Validate checks the shape of p and its values: slice lengths agree, the
// matrix is well formed (start offsets, strictly increasing row indices in
// range), costs and matrix entries are finite, bounds are not NaN, lower ≤
// upper, a lower bound is not +Inf and an upper bound not -Inf, and integer
// columns have bounds that contain an integer. It returns nil or an error
// wrapping [ErrInvalid] that lists up to 20 problems.
func (p *Problem) Validate() error {
	var errs []error
	add := func(format string, args ...any) bool {
		if len(errs) < maxValidateProblems {
			errs = append(errs, fmt.Errorf(format, args...))
		}
		return len(errs) < maxValidateProblems
	}
	n, m := len(p.Cost), len(p.RowLower)
	if math.IsNaN(p.Offset) || math.IsInf(p.Offset, 0) {
		add("objective offset %v is not finite", p.Offset)
	}
	if len(p.ColLower) != n || len(p.ColUpper) != n {
		add("%d costs but %d lower and %d upper column bounds", n, len(p.ColLower), len(p.ColUpper))
	}
	if p.Integer != nil && len(p.Integer) != n {
		add("%d columns but %d integer flags", n, len(p.Integer))
	}
	if p.ColNames != nil && len(p.ColNames) != n {
		add("%d columns but %d column names", n, len(p.ColNames))
	}
	if len(p.RowUpper) != m {
		add("%d lower but %d upper row bounds", m, len(p.RowUpper))
	}
	if p.RowNames != nil && len(p.RowNames) != m {
		add("%d rows but %d row names", m, len(p.RowNames))
	}
	if p.A.Rows != m || p.A.Cols != n {
		add("matrix is %d×%d, want %d×%d", p.A.Rows, p.A.Cols, m, n)
	}
	if m > MaxRows {
		add("%d rows, more than %d", m, MaxRows)
	}
	if len(errs) > 0 {
		return wrapInvalid(errs)
	}
	a := &p.A
	if n > 0 || len(a.Start) > 0 {
		if len(a.Start) != n+1 {
			add("matrix has %d column starts, want %d", len(a.Start), n+1)
			return wrapInvalid(errs)
		}
		if a.Start[0] != 0 {
			add("matrix column 0 starts at %d, want 0", a.Start[0])
		}
		nnz := a.Start[n]
		if nnz < 0 || len(a.Index) != nnz || len(a.Value) != nnz {
			add("matrix has %d non-zeros by its starts, %d row indices and %d values", nnz, len(a.Index), len(a.Value))
			return wrapInvalid(errs)
		}
		for j := 0; j < n; j++ {
			s, e := a.Start[j], a.Start[j+1]
			if s > e || s < 0 || e > nnz {
				if !add("column %s: start offsets %d..%d out of order", p.ColName(j), s, e) {
					break
				}
				return wrapInvalid(errs)
			}
			prev := -1
			for k := s; k < e; k++ {
				i := int(a.Index[k])
				if i < 0 || i >= m {
					if !add("column %s: row index %d out of range [0,%d)", p.ColName(j), i, m) {
						return wrapInvalid(errs)
					}
				} else if i <= prev {
					if !add("column %s: row indices not strictly increasing (%d after %d)", p.ColName(j), i, prev) {
						return wrapInvalid(errs)
					}
				}
				prev = i
				if v := a.Value[k]; math.IsNaN(v) || math.IsInf(v, 0) {
					if !add("column %s row %d: coefficient %v is not finite", p.ColName(j), i, v) {
						return wrapInvalid(errs)
					}
				}
			}
		}
	}
	for j := 0; j < n; j++ {
		if c := p.Cost[j]; math.IsNaN(c) || math.IsInf(c, 0) {
			if !add("column %s: cost %v is not finite", p.ColName(j), c) {
				break
			}
		}
		if err := checkBounds(p.ColLower[j], p.ColUpper[j]); err != nil {
			if !add("column %s: %v", p.ColName(j), err) {
				break
			}
			continue
		}
		if p.Integer != nil && p.Integer[j] && math.Ceil(p.ColLower[j]) > math.Floor(p.ColUpper[j]) {
			if !add("integer column %s: bounds [%v, %v] contain no integer", p.ColName(j), p.ColLower[j], p.ColUpper[j]) {
				break
			}
		}
	}
	for i := 0; i < m; i++ {
		if err := checkBounds(p.RowLower[i], p.RowUpper[i]); err != nil {
			if !add("row %s: %v", p.RowName(i), err) {
				break
			}
		}
	}
	if len(errs) > 0 {
		return wrapInvalid(errs)
	}
	return nil
}

func checkBounds(lo, up float64) error {
	switch {
	case math.IsNaN(lo) || math.IsNaN(up):
		return fmt.Errorf("bound is NaN")
	case math.IsInf(lo, 1):
		return fmt.Errorf("lower bound is +Inf")
	case math.IsInf(up, -1):
		return fmt.Errorf("upper bound is -Inf")
	case lo > up:
		return fmt.Errorf("lower bound %v above upper bound %v", lo, up)
	}
	return nil
}

func wrapInvalid(errs []error) error {
	if len(errs) >= maxValidateProblems {
		errs = append(errs, fmt.Errorf("(stopped after %d problems)", maxValidateProblems))
	}
	return fmt.Errorf("%w: %w", ErrInvalid, errors.Join(errs...))
}
