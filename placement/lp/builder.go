package lp

import (
	"fmt"
	"math"
	"sort"
)

// Builder assembles a Problem row by row or entry by entry. Entries may
// arrive in any order; duplicates of the same (row, column) are summed.
// The zero Builder is ready to use. A Builder is not safe for concurrent
// use.
type Builder struct {
	p       Problem
	entries []entry
}

type entry struct {
	row, col int
	v        float64
}

// AddCol adds a column with the given cost and bounds and returns its index.
func (b *Builder) AddCol(name string, cost, lower, upper float64) int {
	b.p.Cost = append(b.p.Cost, cost)
	b.p.ColLower = append(b.p.ColLower, lower)
	b.p.ColUpper = append(b.p.ColUpper, upper)
	b.p.ColNames = append(b.p.ColNames, name)
	if b.p.Integer != nil {
		b.p.Integer = append(b.p.Integer, false)
	}
	return len(b.p.Cost) - 1
}

// AddIntCol adds an integer column and returns its index.
func (b *Builder) AddIntCol(name string, cost, lower, upper float64) int {
	j := b.AddCol(name, cost, lower, upper)
	if b.p.Integer == nil {
		b.p.Integer = make([]bool, len(b.p.Cost))
	}
	b.p.Integer[j] = true
	return j
}

// AddRow adds a row lower ≤ Σ vals[k]·x[cols[k]] ≤ upper and returns its
// index. It panics if len(cols) != len(vals) (a programmer error).
func (b *Builder) AddRow(name string, lower, upper float64, cols []int, vals []float64) int {
	if len(cols) != len(vals) {
		panic(fmt.Sprintf("lp: AddRow with %d columns and %d values", len(cols), len(vals)))
	}
	i := len(b.p.RowLower)
	b.p.RowLower = append(b.p.RowLower, lower)
	b.p.RowUpper = append(b.p.RowUpper, upper)
	b.p.RowNames = append(b.p.RowNames, name)
	for k, j := range cols {
		b.entries = append(b.entries, entry{i, j, vals[k]})
	}
	return i
}

// Set adds v to the coefficient of column col in row row.
func (b *Builder) Set(row, col int, v float64) {
	b.entries = append(b.entries, entry{row, col, v})
}

// SetObjective sets the sense and constant of the objective.
func (b *Builder) SetObjective(maximize bool, offset float64) {
	b.p.Maximize, b.p.Offset = maximize, offset
}

// NumRows and NumCols return the sizes so far.
func (b *Builder) NumRows() int { return len(b.p.RowLower) }

// NumCols returns the number of columns added so far.
func (b *Builder) NumCols() int { return len(b.p.Cost) }

// Problem returns the assembled problem, validated. Entries that sum to zero
// are dropped. The Builder may go on being used; the returned Problem shares
// no memory with it.
func (b *Builder) Problem() (*Problem, error) {
	m, n := len(b.p.RowLower), len(b.p.Cost)
	if m > MaxRows {
		return nil, fmt.Errorf("%w: %d rows, more than %d", ErrInvalid, m, MaxRows)
	}
	for _, e := range b.entries {
		if e.row < 0 || e.row >= m || e.col < 0 || e.col >= n {
			return nil, fmt.Errorf("%w: entry (%d, %d) outside the %d×%d matrix", ErrInvalid, e.row, e.col, m, n)
		}
	}
	es := append([]entry(nil), b.entries...)
	sort.SliceStable(es, func(a, c int) bool {
		if es[a].col != es[c].col {
			return es[a].col < es[c].col
		}
		return es[a].row < es[c].row
	})
	p := &Problem{
		Name: b.p.Name, Maximize: b.p.Maximize, Offset: b.p.Offset,
		Cost:     append([]float64(nil), b.p.Cost...),
		ColLower: append([]float64(nil), b.p.ColLower...),
		ColUpper: append([]float64(nil), b.p.ColUpper...),
		ColNames: append([]string(nil), b.p.ColNames...),
		RowLower: append([]float64(nil), b.p.RowLower...),
		RowUpper: append([]float64(nil), b.p.RowUpper...),
		RowNames: append([]string(nil), b.p.RowNames...),
	}
	if b.p.Integer != nil {
		p.Integer = append([]bool(nil), b.p.Integer...)
	}
	a := Matrix{Rows: m, Cols: n, Start: make([]int, n+1)}
	for k := 0; k < len(es); {
		e := es[k]
		v := 0.0
		for k < len(es) && es[k].row == e.row && es[k].col == e.col {
			v += es[k].v
			k++
		}
		if v != 0 || math.IsNaN(v) {
			a.Index = append(a.Index, int32(e.row))
			a.Value = append(a.Value, v)
			a.Start[e.col+1]++
		}
	}
	for j := 0; j < n; j++ {
		a.Start[j+1] += a.Start[j]
	}
	p.A = a
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// SetName sets the problem's name.
func (b *Builder) SetName(name string) { b.p.Name = name }
