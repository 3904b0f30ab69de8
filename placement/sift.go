package placement

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"

	"github.com/gputco/gputco/placement/lp"
)

// siftMinCols is the least number of columns of a pool's model whose LP
// relaxation Solve solves by sifting (sift) when it has a first plan: a
// model that wide (a service's use of every compatible offer in every
// slice class) uses few of its columns at the optimum, and the simplex
// over all of them prices every one at every iteration.
const siftMinCols = 200_000

// siftRatio is how many times more columns than rows a model has, at
// least, for sifting to pay.
const siftRatio = 12

// sifted is what sift reached.
type sifted struct {
	// basis is a basis of the relaxation at its optimum (the restriction's
	// optimal basis, the columns left out non-basic at their lower bound of
	// 0), from which its own simplex ends at once or nearly; nil when
	// sifting did not end there.
	basis *lp.Basis
	// x is the last restriction's optimum in the relaxation's columns (a
	// point of it) and obj its objective; bound is the best Lagrangian
	// bound of the rounds' row duals (a lower bound of the relaxation's
	// optimum, −Inf when not finite; obj with a basis). x is nil when no
	// restricted LP was solved to optimality.
	x          []float64
	obj, bound float64
	// iters are the simplex iterations spent, rounds the restricted LPs
	// solved.
	iters, rounds int
}

// within reports whether the bound is within gap (relative) of the
// restricted optimum.
func (s *sifted) within(gap float64) bool {
	return s.x != nil && s.bound >= s.obj-gap*max(1, math.Abs(s.obj))
}

// sift solves the LP relaxation relax of a wide model by sifting: the
// simplex solves the LP restricted to the columns that feasible point x
// uses (with every integer column of the MILP, integer[j], and every column
// whose lower bound is not 0); the whole model's columns are priced with
// the restricted optimum's row duals, and those of negative reduced cost
// join the restriction, the most negative first, at most the larger of the
// model's rows and half the restriction's columns in a round. It ends when
// none is left, the restricted optimum then optimal for relax (the result
// has a basis); or when the Lagrangian bound of the duals is within gap
// (relative) of the restricted optimum, when gap > 0 (the bound then
// raised by coordinate ascent from the duals, lagrange.go, and the best of
// the rounds' bounds kept); or when the restriction would hold more than
// limit columns, ctx ends or a restricted LP is not solved to optimality
// (sifting does not pay or fails: the caller solves relax as a whole).
// Each restricted LP starts from the basis the last one reached, the
// columns that join at their lower bound of 0. Every restricted LP is
// feasible: x's restriction is a point of it. Sifting does not apply (the
// result is empty) to a maximisation or without a point. progress is
// passed to every restricted LP's solve, and called after each round that
// does not end sifting with the bound so far (Progress.Bound, finite or
// −Inf) and the restricted optimum (Incumbent).
func sift(ctx context.Context, relax *lp.Problem, integer []bool, x []float64, limit int, gap float64, progress func(lp.Progress)) sifted {
	start := time.Now()
	n, m := relax.NumCols(), relax.NumRows()
	out := sifted{obj: math.Inf(1), bound: math.Inf(-1)}
	if len(x) != n || relax.Maximize {
		return out
	}
	in := make([]bool, n)
	var cols []int
	for j := range n {
		if x[j] != 0 || relax.ColLower[j] != 0 || j < len(integer) && integer[j] {
			in[j] = true
			cols = append(cols, j)
		}
	}
	var basis *lp.Basis
	type cand struct {
		j int
		d float64
	}
	var cands []cand
	y := make([]float64, m)
	d := make([]float64, n)
	var rows rowMajor
	for ctx.Err() == nil {
		sub := siftCols(relax, cols)
		r, err := lp.Solve(ctx, sub, lp.Options{Basis: basis, Progress: progress})
		out.iters += r.Iterations
		out.rounds++
		if err != nil || r.Status != lp.Optimal {
			return out
		}
		out.x = make([]float64, n)
		for k, j := range cols {
			out.x[j] = r.X[k]
		}
		out.obj = r.Objective
		signedDuals(relax, y, r.RowDual)
		cands = cands[:0]
		for j := range n {
			if j%(1<<16) == 0 && ctx.Err() != nil {
				return out // a model of millions of columns takes a while to price
			}
			dj := relax.Cost[j]
			for e := relax.A.Start[j]; e < relax.A.Start[j+1]; e++ {
				dj -= relax.A.Value[e] * y[relax.A.Index[e]]
			}
			d[j] = dj
			if !in[j] && dj < -siftTol*max(1, math.Abs(relax.Cost[j])) && relax.ColUpper[j] > 0 {
				cands = append(cands, cand{j, dj})
			}
		}
		bound := lagrangeBound(relax, y, d)
		if len(cands) > 0 && gap > 0 {
			// Sifting goes on: coordinate ascent from the duals for a
			// bound that holds should it stop before the end.
			if rows.start == nil {
				rows = byRows(relax)
			}
			for range siftAscents {
				ascend(ctx, relax, rows, y, d, 1)
				b := lagrangeBound(relax, y, d)
				rise := b - bound
				bound = max(bound, b)
				if !(rise > siftAscentRise*max(1, math.Abs(out.obj))) {
					break
				}
			}
		}
		out.bound = max(out.bound, min(bound, out.obj))
		if progress != nil && len(cands) > 0 {
			// The restricted optimum is a point of relax, the bound a bound.
			progress(lp.Progress{Iterations: out.iters, Bound: out.bound, Incumbent: out.obj,
				Gap: relGap(out.obj, out.bound), Elapsed: time.Since(start)})
		}
		if len(cands) == 0 {
			out.basis = &lp.Basis{Cols: make([]lp.BasisStatus, n), Rows: r.Basis.Rows}
			for j := range out.basis.Cols {
				out.basis.Cols[j] = lp.AtLower
			}
			for k, j := range cols {
				out.basis.Cols[j] = r.Basis.Cols[k]
			}
			out.bound = out.obj
			return out
		}
		if gap > 0 && out.within(gap) {
			return out
		}
		slices.SortFunc(cands, func(a, b cand) int { return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.j, b.j)) })
		if most := max(m, len(cols)/2); len(cands) > most {
			cands = cands[:most]
		}
		if len(cols)+len(cands) > limit {
			// Too much of the model is needed: sifting does not pay.
			return out
		}
		basis = r.Basis
		for _, c := range cands {
			in[c.j] = true
			cols = append(cols, c.j)
			basis.Cols = append(basis.Cols, lp.AtLower)
		}
	}
	return out
}

// wide reports whether p is wide enough for its relaxation to be sifted:
// at least siftMinCols columns and siftRatio times as many as rows.
func wide(p *lp.Problem) bool {
	return p.NumCols() >= siftMinCols && p.NumCols() >= siftRatio*p.NumRows()
}

// siftLimit is the most columns sifting lets the restriction of p hold in
// Solve: half the model's (the restriction of a model that needs more
// grows round after round and costs more than the whole model's simplex);
// all of them with in.siftAll (tests).
func (in *instance) siftLimit(p *lp.Problem) int {
	if in.siftAll {
		return p.NumCols()
	}
	return p.NumCols() / 2
}

// coarseSiftGap is how close (relative) the Lagrangian bound of sifting's
// duals comes to the restricted optimum before sifting the coarse
// relaxation stops: the last rounds price in a few columns, each costing
// the simplex thousands of iterations (on PortfolioL's coarse model, 70 s
// from 1.7e-5 to the optimum), for a bound that serves only until the
// model's own relaxation is solved.
const coarseSiftGap = 1e-4

// siftAscents is how many passes of coordinate ascent (ascend) sifting
// for a bound (gap > 0) makes from each round's duals, at most; it stops
// sooner when a pass raises the bound by less than siftAscentRise
// (relative to the restricted optimum). On PortfolioL's coarse model a
// pass takes 0.4 s and the third round's bound rises from 116.1 M to
// 124.1, 126.8, 127.1, 127.14 and 127.15 M (its optimum is 127.84 M).
const siftAscents = 5

// siftAscentRise is the least rise of the bound, relative to the
// restricted optimum, for which sifting makes another pass of ascent.
const siftAscentRise = 1e-4

// siftDualTol is the reduced cost, relative to the column's cost (at
// least 1), that the Lagrangian bound of sift takes for 0 toward an
// infinite bound: what the simplex leaves of a non-basic column's reduced
// cost of the wrong sign.
const siftDualTol = 1e-7

// siftTol is the reduced cost, relative to the column's cost (at least 1),
// below which sift adds a column: the final solve of the whole model
// settles smaller ones.
const siftTol = 1e-9

// siftCols returns the LP of p restricted to columns cols, in that order,
// sharing p's rows.
func siftCols(p *lp.Problem, cols []int) *lp.Problem {
	nnz := 0
	for _, j := range cols {
		nnz += p.A.Start[j+1] - p.A.Start[j]
	}
	s := &lp.Problem{Name: p.Name, RowLower: p.RowLower, RowUpper: p.RowUpper, Offset: p.Offset,
		Cost: make([]float64, len(cols)), ColLower: make([]float64, len(cols)), ColUpper: make([]float64, len(cols)),
		A: lp.Matrix{Rows: p.NumRows(), Cols: len(cols), Start: make([]int, len(cols)+1),
			Index: make([]int32, 0, nnz), Value: make([]float64, 0, nnz)}}
	for k, j := range cols {
		s.Cost[k], s.ColLower[k], s.ColUpper[k] = p.Cost[j], p.ColLower[j], p.ColUpper[j]
		s.A.Index = append(s.A.Index, p.A.Index[p.A.Start[j]:p.A.Start[j+1]]...)
		s.A.Value = append(s.A.Value, p.A.Value[p.A.Start[j]:p.A.Start[j+1]]...)
		s.A.Start[k+1] = len(s.A.Index)
	}
	return s
}
