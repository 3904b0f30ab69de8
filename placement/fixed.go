package placement

import (
	"context"
	"math"

	"github.com/gputco/gputco/placement/lp"
)

// solveFixed solves the LP p with column bounds lo and up, where every
// column with lo = up is substituted out first: its value moves into the
// row bounds, rows left without a free column are checked and dropped. The
// LP a plan's integers fix is mostly such columns — every use of an offer
// the plan does not place a workload on, every node count — so what is
// solved is the small LP of the uses the plan keeps, from scratch (a warm
// start from the relaxation's basis would first have to pivot the
// relaxation's fractional placements out). It returns the point in p's
// columns, its objective, the LP's status and its iterations.
func solveFixed(ctx context.Context, p *lp.Problem, lo, up []float64) ([]float64, float64, lp.Status, int, error) {
	q, keep, x, obj, ok := restrict(p, lo, up)
	if !ok {
		return nil, math.Inf(1), lp.Infeasible, 0, nil
	}
	if len(keep) == 0 {
		return x, obj, lp.Optimal, 0, nil
	}
	q.Integer = nil
	r, err := lp.Solve(ctx, q, lp.Options{})
	if err != nil {
		return nil, math.Inf(1), r.Status, r.Iterations, err
	}
	if r.Status != lp.Optimal {
		return nil, math.Inf(1), r.Status, r.Iterations, nil
	}
	for c, j := range keep {
		x[j] = r.X[c]
	}
	return x, obj + r.Objective, lp.Optimal, r.Iterations, nil
}

// restrict returns p at column bounds lo, up with every column lo = up
// substituted out (its value in the row bounds; rows left without a free
// column checked and dropped), the columns kept (q's column c is p's
// keep[c], integer where p's is), the point in p's columns with the fixed
// values set, and their objective with p's offset. ok is false when a
// dropped row does not hold.
func restrict(p *lp.Problem, lo, up []float64) (q *lp.Problem, keep []int, x []float64, obj float64, ok bool) {
	n, m := p.NumCols(), p.NumRows()
	keep = make([]int, 0, n)
	shift := make([]float64, m)
	x = make([]float64, n)
	obj = p.Offset
	for j := range n {
		if lo[j] < up[j] {
			keep = append(keep, j)
			continue
		}
		v := lo[j]
		x[j] = v
		obj += p.Cost[j] * v
		if v != 0 {
			for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
				shift[p.A.Index[e]] += p.A.Value[e] * v
			}
		}
	}
	// Rows with a free column stay, their bounds shifted; the others must
	// hold as they are.
	live := make([]bool, m)
	for _, j := range keep {
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			live[p.A.Index[e]] = true
		}
	}
	rowAt := make([]int, m)
	q = &lp.Problem{Name: p.Name, Maximize: p.Maximize}
	for i := range m {
		rowAt[i] = -1
		if !live[i] {
			tol := 1e-7 * max(1, math.Abs(shift[i]))
			if shift[i] < p.RowLower[i]-tol || shift[i] > p.RowUpper[i]+tol {
				return nil, nil, nil, math.Inf(1), false
			}
			continue
		}
		rowAt[i] = len(q.RowLower)
		q.RowLower = append(q.RowLower, p.RowLower[i]-shift[i])
		q.RowUpper = append(q.RowUpper, p.RowUpper[i]-shift[i])
	}
	q.A = lp.Matrix{Rows: len(q.RowLower), Cols: len(keep), Start: make([]int, len(keep)+1)}
	ints := false
	for c, j := range keep {
		q.Cost = append(q.Cost, p.Cost[j])
		q.ColLower = append(q.ColLower, lo[j])
		q.ColUpper = append(q.ColUpper, up[j])
		isInt := p.Integer != nil && p.Integer[j]
		q.Integer = append(q.Integer, isInt)
		ints = ints || isInt
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			q.A.Index = append(q.A.Index, int32(rowAt[p.A.Index[e]]))
			q.A.Value = append(q.A.Value, p.A.Value[e])
		}
		q.A.Start[c+1] = len(q.A.Index)
	}
	if !ints {
		q.Integer = nil
	}
	return q, keep, x, obj, true
}

// fixUnused sets to zero the upper bounds of the uses the integer bounds
// in lo, up rule out: every use of a pair whose placement is fixed at 0,
// every use of committed capacity whose node counts are all fixed at 0.
// The rows would force them to zero anyway; as bounds they drop out of the
// LP solveFixed solves.
func (pm *poolModel) fixUnused(in *instance, lo, up []float64) {
	off := func(q int) bool { y := pm.yCol[q]; return y >= 0 && up[y] == 0 }
	zero := func(q int) {
		// A representative's columns are its group's use: zero only when
		// every pair of the group is ruled out.
		for _, m := range pm.groups[q] {
			if !off(m) {
				return
			}
		}
		for _, j := range xcols(pm.xCol[q]) {
			if j >= 0 {
				lo[j], up[j] = 0, 0
			}
		}
		if h, ok := pm.hCol[q]; ok {
			lo[h], up[h] = 0, 0
		}
		if v, ok := pm.vCol[q]; ok {
			lo[v], up[v] = 0, 0
		}
	}
	for q := range pm.yCol {
		if off(q) {
			zero(q)
		}
	}
	for k, cols := range pm.nCols {
		none := true
		for _, j := range cols {
			none = none && (j < 0 || up[j] == 0)
		}
		if none && len(in.os[k].commits) == len(cols) {
			for _, q := range in.os[k].pairs {
				if _, ok := pm.xCol[q]; ok {
					zero(q)
				}
			}
		}
	}
}
