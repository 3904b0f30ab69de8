package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// This file holds a seeded generator of random LPs and MILPs of varied
// shape, for oracle tests that compare solvers (see oracle_test.go) and for
// any test that needs many small problems. Use randomProblem.

// randomKind says what a generated problem is built to be.
type randomKind int8

const (
	// randomFeasible: a point x0 inside the column bounds satisfies every
	// row; with every column boxed by its bounds or by rows, the optimum is
	// finite.
	randomFeasible randomKind = iota
	// randomInfeasible: feasible rows plus one pair of rows that
	// contradict each other.
	randomInfeasible
	// randomUnbounded: feasible, plus a column with a cost that improves
	// without limit along a direction the rows do not see.
	randomUnbounded
)

func (k randomKind) String() string {
	return [...]string{"feasible", "infeasible", "unbounded"}[k]
}

// randomProblem returns a seeded random problem with m rows and n columns
// (m ≥ 1, n ≥ 1), of the given kind, integer columns where integer is true
// (each column integer with probability 1/2 then; integer columns have
// finite bounds, so that brute force can enumerate them, except the "ray"
// column of an unbounded problem). Shape variety: rows are
// equalities, ≤, ≥, ranges or (rarely) free; columns are boxed, bounded on
// one side, free (boxed by a ranged row instead), fixed or (integer) binary;
// coefficients are small integers or short decimals so that the numerics
// stay tame; some problems maximise, some have an objective constant. The
// same seed gives the same problem.
func randomProblem(seed uint64, m, n int, kind randomKind, integer bool) *Problem {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	inf := math.Inf(1)
	var b Builder
	b.SetName(fmt.Sprintf("rand-%d-%s", seed, kind))
	maximize := rng.IntN(3) == 0
	b.SetObjective(maximize, float64(rng.IntN(21)-10)/2)
	coef := func() float64 {
		if rng.IntN(3) == 0 {
			return float64(rng.IntN(41)-20) / 4 // quarter steps
		}
		return float64(rng.IntN(19) - 9)
	}
	x0 := make([]float64, n)
	colLo, colUp := make([]float64, n), make([]float64, n)
	for j := 0; j < n; j++ {
		isInt := integer && rng.IntN(2) == 0
		lo, up := 0.0, inf
		r := rng.IntN(10)
		if isInt && r >= 4 && r < 8 {
			r = rng.IntN(4) // integer columns are boxed, fixed or binary
		}
		switch {
		case r < 4: // boxed
			lo = float64(rng.IntN(7) - 3)
			up = lo + float64(1+rng.IntN(8))
		case r < 6: // lower bound only
			lo = float64(rng.IntN(7) - 3)
		case r < 7: // upper bound only
			lo, up = -inf, float64(rng.IntN(7)-3)
		case r < 8: // free, boxed by a ranged row below
			lo, up = -inf, inf
		case r < 9: // fixed
			lo = float64(rng.IntN(7) - 3)
			up = lo
		default: // binary (or [0, 1] continuous)
			lo, up = 0, 1
		}
		// A point inside the bounds, integral for integer columns.
		a, c := math.Max(lo, -5), math.Min(up, 5)
		if a > c { // one-sided bounds far from [-5, 5]
			a, c = lo, lo
			if math.IsInf(lo, -1) {
				a, c = up, up
			}
		}
		v := a + rng.Float64()*(c-a)
		if isInt {
			v = math.Max(math.Ceil(a), math.Min(math.Floor(c), math.Round(v)))
		} else {
			v = math.Round(v*4) / 4
		}
		x0[j], colLo[j], colUp[j] = v, lo, up
		cost := coef()
		if isInt {
			b.AddIntCol(fmt.Sprintf("x%d", j), cost, lo, up)
		} else {
			b.AddCol(fmt.Sprintf("x%d", j), cost, lo, up)
		}
	}
	// Rows: random sparse combinations with bounds around their value at
	// x0.
	for i := 0; i < m; i++ {
		var cols []int
		var vals []float64
		act := 0.0
		for j := 0; j < n; j++ {
			if rng.IntN(3) == 0 {
				c := coef()
				if c == 0 {
					continue
				}
				cols = append(cols, j)
				vals = append(vals, c)
				act += c * x0[j]
			}
		}
		slack := func() float64 { return float64(rng.IntN(9)) / 2 }
		lo, up := -inf, inf
		switch r := rng.IntN(20); {
		case r < 5:
			lo, up = act, act
		case r < 10:
			up = act + slack()
		case r < 15:
			lo = act - slack()
		case r < 19:
			lo, up = act-slack(), act+slack()
		}
		b.AddRow(fmt.Sprintf("r%d", i), lo, up, cols, vals)
	}
	// Free columns and one-sided ones get a box from a ranged row (or the
	// optimum could be unbounded by chance).
	for j := 0; j < n; j++ {
		if math.IsInf(colLo[j], -1) || math.IsInf(colUp[j], 1) {
			b.AddRow(fmt.Sprintf("box%d", j), -20, 20, []int{j}, []float64{1})
		}
	}
	switch kind {
	case randomInfeasible:
		// Two rows over the same columns whose bounds cannot both hold.
		k := rng.IntN(n)
		cols := []int{k}
		vals := []float64{1}
		if n > 1 {
			cols = append(cols, (k+1)%n)
			vals = append(vals, -2)
		}
		act := x0[cols[0]]
		if n > 1 {
			act -= 2 * x0[cols[1]]
		}
		b.AddRow("conflict_lo", act+3, inf, cols, vals)
		b.AddRow("conflict_hi", -inf, act+1, cols, vals)
	case randomUnbounded:
		// A new column, in no row, whose cost improves without limit.
		cost := -1.0 - float64(rng.IntN(3))
		if maximize {
			cost = -cost
		}
		if integer && rng.IntN(2) == 0 {
			b.AddIntCol("ray", cost, 0, inf)
		} else {
			b.AddCol("ray", cost, 0, inf)
		}
	}
	p, err := b.Problem()
	if err != nil {
		panic(fmt.Sprintf("randomProblem(%d): %v", seed, err)) // a bug of the generator
	}
	if kind != randomInfeasible {
		// x0 (extended by 0 for the ray column) must be feasible.
		x := append(x0, 0)[:p.NumCols()]
		act := make([]float64, p.NumRows())
		for j := range x {
			if x[j] < p.ColLower[j] || x[j] > p.ColUpper[j] {
				panic(fmt.Sprintf("randomProblem(%d): x0[%d] = %v outside [%v, %v]", seed, j, x[j], p.ColLower[j], p.ColUpper[j]))
			}
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				act[p.A.Index[k]] += p.A.Value[k] * x[j]
			}
		}
		for i, a := range act {
			if a < p.RowLower[i]-1e-9 || a > p.RowUpper[i]+1e-9 {
				panic(fmt.Sprintf("randomProblem(%d): row %s = %v at x0, outside [%v, %v]", seed, p.RowName(i), a, p.RowLower[i], p.RowUpper[i]))
			}
		}
	}
	return p
}
