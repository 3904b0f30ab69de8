package placement

import (
	"context"
	"math"

	"github.com/gputco/gputco/placement/lp"
)

// diveSteps bounds the re-solves of a dive per fractional integer of the
// relaxation.
const diveSteps = 3

// dive is a diving heuristic from the relaxation r: it bounds the
// fractional integer closest to a whole value in its rounding direction (a
// placement to 0 or 1, a node count to at least ⌈n⌉ or at most ⌊n⌋),
// re-solves warm, and repeats until the relaxation is integral — a plan
// whose integers the relaxation chose one at a time, where rounding all of
// them up at once pays every thin placement's one-off and every partial
// node. A bound that makes the relaxation infeasible is replaced by the
// opposite one; when both are, after diveSteps re-solves per fractional
// integer of r, or after a quarter of the simplex iterations the
// relaxation took (at least 1000), the dive gives up. It returns the point with its integers
// fixed and the rest re-optimised, and its objective (nil, +Inf when it
// gave up).
//
// The re-solves are those of rm, the relaxation's lp.Model, from r's basis;
// rm is left at the relaxation's bounds.
func (st *solveState) dive(ctx context.Context, rm *lp.Model, relax, p *lp.Problem, r lp.Result) ([]float64, float64, error) {
	work := *relax
	work.ColLower = append([]float64(nil), relax.ColLower...)
	work.ColUpper = append([]float64(nil), relax.ColUpper...)
	x := r.X
	if err := rm.SetBasis(r.Basis); err != nil {
		return nil, math.Inf(1), solverErr(err)
	}
	var touched []int
	defer func() {
		for _, j := range touched {
			_ = rm.SetColBounds(j, relax.ColLower[j], relax.ColUpper[j]) // the relaxation's own: valid
		}
	}()
	const tol = 1e-6
	fractional := func(x []float64) (best int, up bool, n int) {
		best, dist := -1, math.Inf(1)
		for j, isInt := range p.Integer {
			if !isInt {
				continue
			}
			f := x[j] - math.Floor(x[j])
			if f <= tol || f >= 1-tol {
				continue
			}
			n++
			if d := min(f, 1-f); d < dist {
				best, dist, up = j, d, f >= 0.5
			}
		}
		return best, up, n
	}
	j, up, n := fractional(x)
	// The dive's re-solves together take at most a quarter of the
	// relaxation's iterations (at least 1000): on a large model a re-solve
	// after a bound costs a few hundred iterations of the whole LP, and the
	// branch-and-bound, seeded with the first plan, dives too.
	budget := max(r.Iterations/4, 1000)
	solve := func(j int) (lp.Result, error) {
		if err := rm.SetColBounds(j, work.ColLower[j], work.ColUpper[j]); err != nil {
			return lp.Result{}, solverErr(err)
		}
		touched = append(touched, j)
		rr, err := rm.Solve(ctx, lp.Options{IterationLimit: max(1, budget)})
		st.stats.Iterations += rr.Iterations
		budget -= rr.Iterations
		if err != nil {
			return rr, solverErr(err)
		}
		return rr, nil
	}
	for steps := diveSteps * n; j >= 0; steps-- {
		if steps <= 0 || budget <= 0 || ctx.Err() != nil {
			return nil, math.Inf(1), ctx.Err()
		}
		lo, hi := work.ColLower[j], work.ColUpper[j]
		bound := func(up bool) {
			work.ColLower[j], work.ColUpper[j] = lo, hi
			if up {
				work.ColLower[j] = math.Ceil(x[j])
			} else {
				work.ColUpper[j] = math.Floor(x[j])
			}
		}
		bound(up)
		rr, err := solve(j)
		if err != nil {
			return nil, math.Inf(1), err
		}
		if rr.Status == lp.IterationLimit {
			return nil, math.Inf(1), nil // out of budget
		}
		if rr.Status != lp.Optimal {
			bound(!up)
			if rr, err = solve(j); err != nil {
				return nil, math.Inf(1), err
			}
			if rr.Status != lp.Optimal {
				return nil, math.Inf(1), nil
			}
		}
		x = rr.X
		j, up, _ = fractional(x)
	}
	// Integral within the tolerance: fix the integers at their whole
	// values and re-optimise the rest.
	for j, isInt := range p.Integer {
		if isInt {
			v := math.Round(x[j])
			work.ColLower[j], work.ColUpper[j] = v, v
		}
	}
	return st.fixed(ctx, p, work.ColLower, work.ColUpper)
}
