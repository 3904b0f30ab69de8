package placement

import (
	"context"
	"math"
	"sort"

	"github.com/gputco/gputco/placement/lp"
)

// probeCols bounds the fractional integers a root probe tries; it stops
// at the first that neither tightens a bound nor closes probeGain of the
// gap (each probe is two re-solves of the whole relaxation).
const (
	probeCols = 8
	probeGain = 0.05
)

// probe is strong branching at the root, kept: for the fractional integer
// column of the relaxation r that costs most to round up, then of the
// relaxation the probe leaves, and so on (at most probeCols), it solves
// the relaxation with the column bounded down (≤ ⌊x⌋) and up (≥ ⌈x⌉),
// warm from r's basis. The optimum lies on one side, so min(z_down, z_up)
// is a proven bound; a side that is infeasible or whose relaxation costs at
// least the incumbent inc holds no better plan, so the column's bounds
// tighten to the other side for the rest of the search, whose relaxation
// (that side's) the next probes start from. A node count whose last
// partial node is worth keeping is the typical case: leaving it out costs
// more than the whole gap, and rounding it up raises the bound. Probing
// stops at a column that neither tightens a bound nor closes probeGain of
// the gap, and the probes together take at most the relaxation's
// iterations (at least 1000); one cut short tells nothing. It returns the
// column bounds, the relaxation at them, and the proven bound (inc when
// both sides of a column are cut off: inc is optimal).
//
// The re-solves are those of rm, the relaxation's lp.Model at relax's
// bounds, which probe leaves at bounds of its own.
func (st *solveState) probe(ctx context.Context, rm *lp.Model, relax *lp.Problem, r lp.Result, inc float64) ([]float64, []float64, lp.Result, float64, error) {
	work := *relax
	work.ColLower = append([]float64(nil), relax.ColLower...)
	work.ColUpper = append([]float64(nil), relax.ColUpper...)
	// set gives column j of work and rm the bounds lo, up.
	set := func(j int, lo, up float64) error {
		work.ColLower[j], work.ColUpper[j] = lo, up
		return rm.SetColBounds(j, lo, up)
	}
	bound := r.Objective
	const tol = 1e-6
	// next is the unprobed fractional integer of r that costs most to
	// round up (−1: none).
	probed := map[int]bool{}
	next := func() int {
		best, most := -1, math.Inf(-1)
		for j, isInt := range st.pm.prob.Integer {
			v := r.X[j]
			f := v - math.Floor(v)
			if !isInt || probed[j] || f <= tol || f >= 1-tol {
				continue
			}
			if c := relax.Cost[j] * (math.Ceil(v) - v); c > most {
				best, most = j, c
			}
		}
		return best
	}
	budget := max(r.Iterations, 1000)
	cutoff := inc - 1e-9*max(1, math.Abs(inc))
	for range probeCols {
		j := next()
		if j < 0 {
			break
		}
		probed[j] = true
		v := r.X[j]
		var side [2]lp.Result
		var cut [2]bool
		for s, up := range []bool{false, true} {
			if budget <= 0 || ctx.Err() != nil {
				return work.ColLower, work.ColUpper, r, bound, ctx.Err()
			}
			lo, hi := work.ColLower[j], work.ColUpper[j]
			var err error
			if up {
				err = set(j, math.Ceil(v), hi)
			} else {
				err = set(j, lo, math.Floor(v))
			}
			var rr lp.Result
			if err == nil {
				rr, err = rm.Solve(ctx, lp.Options{Basis: r.Basis, IterationLimit: budget})
			}
			if serr := set(j, lo, hi); err == nil {
				err = serr
			}
			st.stats.Iterations += rr.Iterations
			budget -= rr.Iterations
			if err != nil {
				if ctx.Err() != nil {
					return work.ColLower, work.ColUpper, r, bound, ctx.Err()
				}
				return nil, nil, r, bound, solverErr(err)
			}
			switch rr.Status {
			case lp.Infeasible:
				cut[s] = true
			case lp.Optimal:
				side[s], cut[s] = rr, rr.Objective >= cutoff
			default: // cut short: nothing learnt from this column
				return work.ColLower, work.ColUpper, r, bound, nil
			}
		}
		before := bound
		switch {
		case cut[0] && cut[1]:
			return work.ColLower, work.ColUpper, r, inc, nil
		case cut[0]:
			if err := set(j, math.Ceil(v), work.ColUpper[j]); err != nil {
				return nil, nil, r, bound, solverErr(err)
			}
			r = side[1]
			bound = max(bound, r.Objective)
		case cut[1]:
			if err := set(j, work.ColLower[j], math.Floor(v)); err != nil {
				return nil, nil, r, bound, solverErr(err)
			}
			r = side[0]
			bound = max(bound, r.Objective)
		default:
			bound = max(bound, min(side[0].Objective, side[1].Objective))
			if bound-before < probeGain*(inc-before) {
				return work.ColLower, work.ColUpper, r, bound, nil // probing no longer pays
			}
		}
	}
	return work.ColLower, work.ColUpper, r, bound, nil
}

// descend improves the plan x (objective inc, its integers whole) one
// integer at a time: of the integer columns the plan holds above the
// relaxation rx (rounded up: a placement the relaxation uses in part, a
// partial node) and above lo, it tries each one lower — a placement off, a
// node less — with the others as they are, by the LP with the integers
// fixed (fixed), the dearest first, and keeps every change that lowers the
// cost. It stops after budget simplex iterations. It returns the better
// point and its objective, or x and inc.
func (st *solveState) descend(ctx context.Context, p *lp.Problem, rx, lo, x []float64, inc float64, budget int) ([]float64, float64, error) {
	var cand []int
	for j, isInt := range p.Integer {
		if isInt && x[j] > rx[j]+1e-6 && x[j]-1 >= lo[j]-1e-9 {
			cand = append(cand, j)
		}
	}
	sort.SliceStable(cand, func(a, b int) bool { return p.Cost[cand[a]] > p.Cost[cand[b]] })
	flo, fup := make([]float64, len(x)), make([]float64, len(x))
	limit := st.stats.Iterations + budget
	for _, j := range cand {
		if ctx.Err() != nil || st.stats.Iterations >= limit {
			break
		}
		copy(flo, p.ColLower)
		copy(fup, p.ColUpper)
		for i, isInt := range p.Integer {
			if isInt {
				v := math.Round(x[i])
				flo[i], fup[i] = v, v
			}
		}
		flo[j]--
		fup[j]--
		nx, obj, err := st.fixed(ctx, p, flo, fup)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return x, inc, err
		}
		if nx != nil && obj < inc-1e-9*max(1, math.Abs(inc)) {
			x, inc = nx, obj
		}
	}
	return x, inc, nil
}
