package lp

import (
	"math"
	"time"
)

// solveNoColumns solves an LP without columns: every row's activity is 0,
// so the problem is optimal with objective p.Offset when every row's range
// holds 0 (within the primal tolerance), and infeasible otherwise, the
// Farkas ray being ±1 on the first row whose range excludes 0 (+1 when its
// lower bound is above 0, −1 when its upper bound is below). The simplex
// is not run: its pricing assumes at least one column.
func solveNoColumns(p *Problem, start time.Time) Result {
	m := p.NumRows()
	sense := 1.0
	if p.Maximize {
		sense = -1
	}
	for i := 0; i < m; i++ {
		l, u := p.RowLower[i], p.RowUpper[i]
		y := 0.0
		switch {
		case l > primalTol*(1+math.Abs(l)):
			y = 1
		case u < -primalTol*(1+math.Abs(u)):
			y = -1
		default:
			continue
		}
		ray := make([]float64, m)
		ray[i] = y
		rows := make([]BasisStatus, m)
		return Result{
			Status:  Infeasible,
			Ray:     ray,
			Basis:   &Basis{Cols: []BasisStatus{}, Rows: rows},
			Bound:   math.Inf(1) * sense,
			Gap:     math.Inf(1),
			Elapsed: time.Since(start),
		}
	}
	rows := make([]BasisStatus, m) // every row logical is basic
	return Result{
		Status:      Optimal,
		Objective:   p.Offset,
		X:           []float64{},
		RowActivity: make([]float64, m),
		RowDual:     make([]float64, m),
		ReducedCost: []float64{},
		Basis:       &Basis{Cols: []BasisStatus{}, Rows: rows},
		Bound:       p.Offset,
		Elapsed:     time.Since(start),
	}
}
