package lp

import "math"

// This file holds the reduction of a sub-MIP's problem: a heuristic's
// sub-MIP fixes most integer columns, and its LPs are far cheaper without
// them. The fixed columns are removed, their contribution moved into the
// row bounds and the objective's offset; rows left without a free column
// are removed once checked.

// reducedProblem is a problem with its fixed columns removed.
type reducedProblem struct {
	q    *Problem
	keep []int     // the original column of each reduced column
	rows []int     // the original row of each reduced row
	x    []float64 // the fixed values (every column; free ones unused)
}

// reduceFixed removes the fixed columns of p. It reports false when a row
// left without free columns is violated by the fixed values (beyond
// feasTol relative): p is then infeasible.
func reduceFixed(p *Problem) (reducedProblem, bool) { return reduceFixedKeep(p, nil) }

// reduceFixedKeep is reduceFixed keeping the fixed columns j with keep[j]
// (keep may be nil) as columns of the reduced problem, fixed there: the
// basic columns of a basis, so that the reduced problem's basis (basis) is
// the original one without the removed rows and their logicals, optimal
// when the original was, instead of one with row logicals made basic in
// their place, whose first LP is a solve of its own.
func reduceFixedKeep(p *Problem, keep []bool) (reducedProblem, bool) {
	n, m := p.NumCols(), p.NumRows()
	r := reducedProblem{x: make([]float64, n)}
	act := make([]float64, m)
	mag := make([]float64, m)
	free := make([]int, m)
	q := &Problem{Name: p.Name, Maximize: p.Maximize, Offset: p.Offset}
	for j := 0; j < n; j++ {
		lo, up := p.ColLower[j], p.ColUpper[j]
		if lo == up && (keep == nil || !keep[j]) {
			r.x[j] = lo
			q.Offset += p.Cost[j] * lo
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				i := int(p.A.Index[k])
				act[i] += p.A.Value[k] * lo
				mag[i] += math.Abs(p.A.Value[k] * lo)
			}
			continue
		}
		r.keep = append(r.keep, j)
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			if p.A.Value[k] != 0 {
				free[p.A.Index[k]]++
			}
		}
	}
	newRow := make([]int, m)
	for i := 0; i < m; i++ {
		lo, up := p.RowLower[i], p.RowUpper[i]
		if free[i] == 0 {
			tol := feasTol * max(1, math.Abs(lo), math.Abs(up), mag[i])
			if math.IsInf(lo, -1) {
				tol = feasTol * max(1, math.Abs(up), mag[i])
			} else if math.IsInf(up, 1) {
				tol = feasTol * max(1, math.Abs(lo), mag[i])
			}
			if act[i] < lo-tol || act[i] > up+tol {
				return r, false
			}
			newRow[i] = -1
			continue
		}
		newRow[i] = q.NumRows()
		r.rows = append(r.rows, i)
		q.RowLower = append(q.RowLower, lo-act[i])
		q.RowUpper = append(q.RowUpper, up-act[i])
		if p.RowNames != nil {
			q.RowNames = append(q.RowNames, p.RowNames[i])
		}
	}
	nc := len(r.keep)
	q.Cost = make([]float64, nc)
	q.ColLower = make([]float64, nc)
	q.ColUpper = make([]float64, nc)
	if p.Integer != nil {
		q.Integer = make([]bool, nc)
	}
	if p.ColNames != nil {
		q.ColNames = make([]string, nc)
	}
	q.A = Matrix{Rows: q.NumRows(), Cols: nc, Start: make([]int, nc+1)}
	for t, j := range r.keep {
		q.Cost[t], q.ColLower[t], q.ColUpper[t] = p.Cost[j], p.ColLower[j], p.ColUpper[j]
		if p.Integer != nil {
			q.Integer[t] = p.Integer[j]
		}
		if p.ColNames != nil {
			q.ColNames[t] = p.ColNames[j]
		}
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			if i := newRow[p.A.Index[k]]; i >= 0 && p.A.Value[k] != 0 {
				q.A.Index = append(q.A.Index, int32(i))
				q.A.Value = append(q.A.Value, p.A.Value[k])
			}
		}
		q.A.Start[t+1] = len(q.A.Index)
	}
	r.q = q
	return r, true
}

// expand returns the point of the original problem whose free columns take
// the values y of the reduced problem.
func (r reducedProblem) expand(y []float64) []float64 {
	x := append([]float64(nil), r.x...)
	for t, j := range r.keep {
		x[j] = y[t]
	}
	return x
}

// restrict returns the free columns' values of x.
func (r reducedProblem) restrict(x []float64) []float64 {
	y := make([]float64, len(r.keep))
	for t, j := range r.keep {
		y[t] = x[j]
	}
	return y
}

// basis returns the basis of the reduced problem that b, a basis of the
// original one, induces: the statuses of the kept columns and rows, with
// as many row logicals made basic as removed columns were basic — first
// those of the rows the removed columns have entries in, then any — so
// that the count of basic entries is the number of rows. From the
// parent's optimal basis this is the sub-MIP's root optimum or close to
// it, instead of a solve from the slack basis of a problem as large as
// the parent's when it has few integer columns among many continuous ones.
// It returns nil when the count cannot be matched that way (rows removed
// with nonbasic logicals leave too many basic entries).
func (r reducedProblem) basis(p *Problem, b *Basis) *Basis {
	q := r.q
	if len(b.Cols) != p.NumCols() || len(b.Rows) != p.NumRows() {
		return nil
	}
	nb := &Basis{Cols: make([]BasisStatus, len(r.keep)), Rows: make([]BasisStatus, len(r.rows))}
	basic := 0
	for t, j := range r.keep {
		nb.Cols[t] = b.Cols[j]
		if b.Cols[j] == Basic {
			basic++
		}
	}
	newRow := make([]int, p.NumRows())
	for i := range newRow {
		newRow[i] = -1
	}
	for t, i := range r.rows {
		newRow[i] = t
		nb.Rows[t] = b.Rows[i]
		if b.Rows[i] == Basic {
			basic++
		}
	}
	if basic > q.NumRows() {
		return nil
	}
	kept := make([]bool, p.NumCols())
	for _, j := range r.keep {
		kept[j] = true
	}
	promote := func(t int) {
		if basic < q.NumRows() && nb.Rows[t] != Basic {
			nb.Rows[t] = Basic
			basic++
		}
	}
	for j := 0; j < p.NumCols() && basic < q.NumRows(); j++ {
		if kept[j] || b.Cols[j] != Basic {
			continue
		}
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			if t := newRow[p.A.Index[k]]; t >= 0 && nb.Rows[t] != Basic && p.A.Value[k] != 0 {
				promote(t)
				break
			}
		}
	}
	for t := 0; t < len(nb.Rows) && basic < q.NumRows(); t++ {
		promote(t)
	}
	return nb
}
