package placement

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/gputco/gputco/placement/lp"
)

// FirstPlanAtLimit is Solve's plan when its time limit ends as each pool's
// LP relaxation starts: every pool's MILP path is taken (the merit-order
// programme skipped) with a context that has ended, so each pool has the
// first plan greedyPlan builds or none. built says how many pools had one,
// of pools.
func FirstPlanAtLimit(p Problem) (plan Plan, built, pools int, err error) {
	in, err := prepare(&p)
	if err != nil {
		return Plan{}, 0, 0, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pls := in.pools()
	st := &solveState{in: in, start: time.Now(), pools: len(pls)}
	sols := make([]*poolSolution, len(pls))
	for i, pl := range pls {
		st.pool = i + 1
		sol, _ := st.solveMILP(ctx, pl)
		if sol == nil {
			return Plan{Status: NoPlan}, built, len(pls), nil
		}
		sols[i] = sol
		built++
	}
	plan = in.plan(pls, sols)
	plan.Stats = st.stats
	return plan, built, len(pls), nil
}

// GreedyPlans returns the model of each pool of p and greedyPlan's points
// in it with their objectives (nil, +Inf where it built none): on
// pay-as-you-go capacity alone, and holding the commitments of the pool's
// coarse relaxation rounded up (coarseBound).
func GreedyPlans(p Problem) (models []*lp.Problem, points [][]float64, objs []float64, err error) {
	in, err := prepare(&p)
	if err != nil {
		return nil, nil, nil, err
	}
	st := &solveState{in: in, start: time.Now()}
	for _, pl := range in.pools() {
		pm, err := in.model(pl)
		if err != nil {
			return nil, nil, nil, err
		}
		x, obj := pm.greedyPlan(in, nil)
		models, points, objs = append(models, pm.prob), append(points, x), append(objs, obj)
		if _, hint := st.coarseBound(context.Background(), pl, math.Inf(1), nil); hint != nil {
			x, obj := pm.greedyPlan(in, hint)
			models, points, objs = append(models, pm.prob), append(points, x), append(objs, obj)
		}
	}
	return models, points, objs, nil
}

// coarseModels returns pool pl's coarse instance and model and its own
// model, or a nil instance when it has no coarse model.
func coarseModels(in *instance, pl pool) (cp *instance, cm, fm *poolModel, err error) {
	if cp = in.coarse(pl); cp == nil {
		return nil, nil, nil, nil
	}
	if cm, err = cp.model(pl); err != nil {
		return nil, nil, nil, err
	}
	if fm, err = in.model(pl); err != nil {
		return nil, nil, nil, err
	}
	return cp, cm, fm, nil
}

// CoarseOptima returns, for each pool of p whose coarse relaxation merges
// slices, the optimum of that relaxation's MILP and of the pool's own
// model (both by lp.Solve to a gap of 1e-9), and the columns of each.
func CoarseOptima(p Problem) (coarse, full []float64, coarseCols, fullCols []int, err error) {
	in, err := prepare(&p)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	ctx := context.Background()
	for _, pl := range in.pools() {
		cp, cm, fm, err := coarseModels(in, pl)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if cp == nil {
			continue
		}
		cr, err := lp.Solve(ctx, cm.prob, lp.Options{Gap: 1e-9})
		if err != nil {
			return nil, nil, nil, nil, err
		}
		fr, err := lp.Solve(ctx, fm.prob, lp.Options{Gap: 1e-9})
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if cr.Status != lp.Optimal || fr.Status != lp.Optimal {
			continue
		}
		coarse, full = append(coarse, cr.Objective), append(full, fr.Objective)
		coarseCols, fullCols = append(coarseCols, cm.prob.NumCols()), append(fullCols, fm.prob.NumCols())
	}
	return coarse, full, coarseCols, fullCols, nil
}

// PolishedPlans returns the model of each pool of p with a first plan
// (greedyPlan on pay-as-you-go capacity), that plan's objective, and the
// point polish makes of it with its objective (nil, +Inf where it found
// none better).
func PolishedPlans(p Problem) (models []*lp.Problem, greedy []float64, points [][]float64, objs []float64, err error) {
	in, err := prepare(&p)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	st := &solveState{in: in, start: time.Now()}
	for _, pl := range in.pools() {
		pm, err := in.model(pl)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		x, obj := pm.greedyPlan(in, nil)
		if x == nil {
			continue
		}
		st.pm = pm
		px, pobj, err := st.polish(context.Background(), pm, x, obj, nil)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		models, greedy, points, objs = append(models, pm.prob), append(greedy, obj), append(points, px), append(objs, pobj)
	}
	return models, greedy, points, objs, nil
}

// PriceBounds returns, for each pool of p with integers, priceBound and
// the optimum of the pool model's LP relaxation.
func PriceBounds(p Problem) (price, relax []float64, err error) {
	in, err := prepare(&p)
	if err != nil {
		return nil, nil, err
	}
	for _, pl := range in.pools() {
		pm, err := in.model(pl)
		if err != nil {
			return nil, nil, err
		}
		r := *pm.prob
		r.Integer = nil
		res, err := lp.Solve(context.Background(), &r, lp.Options{})
		if err != nil {
			return nil, nil, err
		}
		if res.Status != lp.Optimal {
			continue
		}
		price, relax = append(price, pm.priceBound(in)), append(relax, res.Objective)
	}
	return price, relax, nil
}

// AscentBounds returns, for each pool of p with integers whose LP
// relaxation is solved, priceBound, ascendPrices's bound from it towards
// target, the cost of the pool's greedy plan (no deadline; +Inf without a
// plan: no ascent), and the relaxation's optimum.
func AscentBounds(p Problem) (price, ascent, target, relax []float64, err error) {
	in, err := prepare(&p)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for _, pl := range in.pools() {
		pm, err := in.model(pl)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		r := *pm.prob
		r.Integer = nil
		res, err := lp.Solve(context.Background(), &r, lp.Options{})
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if res.Status != lp.Optimal {
			continue
		}
		b, grouped, pr := pm.pricedBase(in)
		_, t := pm.greedyPlan(in, nil)
		price, target, relax = append(price, b), append(target, t), append(relax, res.Objective)
		ascent = append(ascent, pm.ascendPrices(context.Background(), in, pr, grouped, b, t, nil))
	}
	return price, ascent, target, relax, nil
}

// PricedBounds returns, for each pool of p with integers, priceBound's
// bound (pricer.bound at its prices) and the model's number of columns and
// rows; no LP is solved.
func PricedBounds(p Problem) (bound []float64, cols, rows []int, err error) {
	in, err := prepare(&p)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, pl := range in.pools() {
		pm, err := in.model(pl)
		if err != nil {
			return nil, nil, nil, err
		}
		if !slices.Contains(pm.prob.Integer, true) {
			continue
		}
		b := pm.priceBound(in)
		bound = append(bound, b)
		cols, rows = append(cols, pm.prob.NumCols()), append(rows, pm.prob.NumRows())
	}
	return bound, cols, rows, nil
}

// CoarseAscents returns, for each pool of p with a coarse model and a
// greedy plan, the coarse model's priced bound, its bound raised by
// ascendPrices towards the greedy plan's cost (as coarseBound raises it),
// and the optimum of the model's own LP relaxation.
func CoarseAscents(p Problem) (price, ascent, relax []float64, err error) {
	in, err := prepare(&p)
	if err != nil {
		return nil, nil, nil, err
	}
	ctx := context.Background()
	for _, pl := range in.pools() {
		cp, cm, fm, err := coarseModels(in, pl)
		if err != nil {
			return nil, nil, nil, err
		}
		if cp == nil {
			continue
		}
		_, target := fm.greedyPlan(in, nil)
		if math.IsInf(target, 1) {
			continue
		}
		r := *fm.prob
		r.Integer = nil
		fr, err := lp.Solve(ctx, &r, lp.Options{})
		if err != nil {
			return nil, nil, nil, err
		}
		if fr.Status != lp.Optimal {
			continue
		}
		b, grouped, pr := cm.pricedBase(cp)
		price, relax = append(price, b), append(relax, fr.Objective)
		ascent = append(ascent, cm.ascendPrices(ctx, cp, pr, grouped, b, target, nil))
	}
	return price, ascent, relax, nil
}
