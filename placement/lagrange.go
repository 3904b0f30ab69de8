package placement

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/gputco/gputco/placement/lp"
)

// The Lagrangian bound of an LP min cᵀx subject to l ≤ Ax ≤ u and the
// column bounds, at row duals y, is
//
//	L(y) = Σ_i y_i·(l_i if y_i > 0, u_i if y_i < 0) + Σ_j min over x_j's bounds of d_j·x_j + offset,
//
// d = c − Aᵀy: a lower bound of the LP's optimum for every y (−Inf when a
// needed bound is infinite). Sifting's restricted LPs give duals whose
// bound is poor until the last rounds: the columns left out price with
// reduced costs far below 0 (the restriction's demand rows are dear), and
// each such column counts at its upper bound. L is concave and piecewise
// linear in each y_i alone, so coordinate ascent (ascend) raises it
// cheaply: for a demand row, the dual falls to what covering the demand
// on the columns' cheapest adjusted costs is worth. It stalls where rows
// must move together (the capacity rows of a committed offer and its node
// column, a service's demand rows): on OverTimeM's coarse model the second
// round's bound rises from −6.2e8 to 9.45e7 against a restricted optimum
// of 1.29e8, and projected subgradient steps from there (tried) raise it
// no further.

// rowMajor is a matrix's entries row by row.
type rowMajor struct {
	start []int
	col   []int32
	val   []float64
}

// byRows transposes p's matrix.
func byRows(p *lp.Problem) rowMajor {
	m, n := p.NumRows(), p.NumCols()
	r := rowMajor{start: make([]int, m+1)}
	for _, i := range p.A.Index {
		r.start[i+1]++
	}
	for i := range m {
		r.start[i+1] += r.start[i]
	}
	r.col = make([]int32, len(p.A.Index))
	r.val = make([]float64, len(p.A.Index))
	next := slices.Clone(r.start[:m])
	for j := range n {
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			i := int(p.A.Index[e])
			r.col[next[i]] = int32(j)
			r.val[next[i]] = p.A.Value[e]
			next[i]++
		}
	}
	return r
}

// signedDuals sets y to the duals of p's rows, a dual of the wrong sign
// for its row's one bound (a tolerance's worth, from the simplex) 0: the
// duals lagrangeBound and ascend take.
func signedDuals(p *lp.Problem, y, duals []float64) {
	for i, v := range duals {
		if v > 0 && math.IsInf(p.RowLower[i], -1) || v < 0 && math.IsInf(p.RowUpper[i], 1) {
			v = 0
		}
		y[i] = v
	}
}

// lagrangeBound is L(y) with d = c − Aᵀy (the caller's, in step with y): a
// dual of the wrong sign for a row's bound must already be 0
// (signedDuals). A reduced cost within siftDualTol (relative to the
// column's cost, at least 1) toward an infinite bound counts as 0: what
// the simplex leaves of a non-basic column's reduced cost of the wrong
// sign. −Inf when not finite.
func lagrangeBound(p *lp.Problem, y, d []float64) float64 {
	bound := p.Offset
	for i, v := range y {
		switch {
		case v > 0:
			bound += v * p.RowLower[i]
		case v < 0:
			bound += v * p.RowUpper[i]
		}
	}
	for j, dj := range d {
		switch tiny := math.Abs(dj) <= siftDualTol*max(1, math.Abs(p.Cost[j])); {
		case dj > 0 && !(tiny && math.IsInf(p.ColLower[j], -1)):
			bound += dj * p.ColLower[j]
		case dj < 0 && !(tiny && math.IsInf(p.ColUpper[j], 1)):
			bound += dj * p.ColUpper[j]
		}
	}
	if math.IsNaN(bound) {
		return math.Inf(-1)
	}
	return bound
}

// ascend raises L(y) by passes of coordinate ascent over p's rows (r, its
// transpose), each row's dual moved to a maximum of L along it with the
// others fixed; d = c − Aᵀy is kept in step. A row along which L has no
// finite maximum within the duals that keep L finite is left as it is.
// It stops early when ctx ends.
func ascend(ctx context.Context, p *lp.Problem, r rowMajor, y, d []float64, passes int) {
	type brk struct{ t, drop float64 }
	var bs []brk
	m := p.NumRows()
	for range passes {
		for i := range m {
			if i%(1<<12) == 0 && ctx.Err() != nil {
				return
			}
			rl, ru := p.RowLower[i], p.RowUpper[i]
			lo, hi := math.Inf(-1), math.Inf(1)
			if math.IsInf(rl, -1) {
				hi = 0
			}
			if math.IsInf(ru, 1) {
				lo = 0
			}
			t0 := y[i]
			bs = bs[:0]
			// slope is L's slope along y_i below every breakpoint of the
			// columns (the row's own term apart), fixed the columns' terms
			// that have none.
			slope := 0.0
			for e := r.start[i]; e < r.start[i+1]; e++ {
				j, a := r.col[e], r.val[e]
				if a == 0 {
					continue
				}
				cl, cu := p.ColLower[j], p.ColUpper[j]
				tj := (d[j] + a*t0) / a // d_j vanishes at y_i = tj
				switch lInf, uInf := math.IsInf(cl, -1), math.IsInf(cu, 1); {
				case lInf && uInf: // d_j must be 0
					lo, hi = max(lo, tj), min(hi, tj)
				case uInf: // d_j ≥ 0; x_j = cl inside
					if a > 0 {
						hi = min(hi, tj)
					} else {
						lo = max(lo, tj)
					}
					slope -= a * cl
				case lInf: // d_j ≤ 0; x_j = cu inside
					if a > 0 {
						lo = max(lo, tj)
					} else {
						hi = min(hi, tj)
					}
					slope -= a * cu
				default:
					// Below tj, x_j is at cl (a > 0: d_j > 0) or cu (a < 0);
					// above, at the other bound.
					if a > 0 {
						slope -= a * cl
					} else {
						slope -= a * cu
					}
					if cu > cl {
						bs = append(bs, brk{tj, math.Abs(a) * (cu - cl)})
					}
				}
			}
			if !(lo <= hi) {
				continue
			}
			// The row's own term: slope ru below 0, rl above.
			if lo < 0 {
				slope += ru
				if hi > 0 {
					bs = append(bs, brk{0, ru - rl})
				}
			} else {
				slope += rl
			}
			slices.SortFunc(bs, func(a, b brk) int { return cmp.Compare(a.t, b.t) })
			// Start at lo: take every breakpoint at or below it.
			k := 0
			for k < len(bs) && bs[k].t <= lo {
				slope -= bs[k].drop
				k++
			}
			t := lo
			if math.IsInf(lo, -1) && slope < 0 {
				continue // L grows without end as y_i falls
			}
			for k < len(bs) && bs[k].t < hi && (slope > 0 || math.IsInf(t, -1)) {
				t = bs[k].t
				slope -= bs[k].drop
				k++
			}
			if slope > 0 || math.IsInf(t, -1) {
				if math.IsInf(hi, 1) {
					continue // no finite maximum
				}
				t = hi
			}
			if t == t0 || math.IsNaN(t) || math.IsInf(t, 0) {
				continue
			}
			// A dual of the wrong sign for an infinite row bound is 0 at
			// most (lo, hi kept it so); round-off must not flip it.
			if math.IsInf(rl, -1) {
				t = min(t, 0)
			}
			if math.IsInf(ru, 1) {
				t = max(t, 0)
			}
			for e := r.start[i]; e < r.start[i+1]; e++ {
				d[r.col[e]] -= r.val[e] * (t - t0)
			}
			y[i] = t
		}
	}
}
