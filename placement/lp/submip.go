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
	x    []float64 // the fixed values (every column; free ones unused)
}

// reduceFixed removes the fixed columns of p. It reports false when a row
// left without free columns is violated by the fixed values (beyond
// feasTol relative): p is then infeasible.
func reduceFixed(p *Problem) (reducedProblem, bool) {
	n, m := p.NumCols(), p.NumRows()
	r := reducedProblem{x: make([]float64, n)}
	act := make([]float64, m)
	mag := make([]float64, m)
	free := make([]int, m)
	q := &Problem{Name: p.Name, Maximize: p.Maximize, Offset: p.Offset}
	for j := 0; j < n; j++ {
		lo, up := p.ColLower[j], p.ColUpper[j]
		if lo == up {
			r.x[j] = lo
			q.Offset += p.Cost[j] * lo
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				i := p.A.Index[k]
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
				q.A.Index = append(q.A.Index, i)
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
