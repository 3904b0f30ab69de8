package placement

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/gputco/gputco/placement/lp"
)

// ModelFull is Model without the exact reductions of reduce.go: every
// compatible pair and offer, every use a column per slice — the model of
// the package comment term by term, for tests that check the reductions.
func ModelFull(p Problem) (*lp.Problem, error) {
	in, err := prepareModel(&p, false)
	if err != nil {
		return nil, err
	}
	return in.wholeModel()
}

// SolveFull is Solve of the full model (ModelFull's): every compatible
// pair and offer, every use a column per slice — without Solve's budget
// retries — for tests that hold a reduced model's plan to the full one's.
func SolveFull(ctx context.Context, p Problem) (Plan, error) {
	in, err := prepareModel(&p, false)
	if err != nil {
		return Plan{}, err
	}
	return in.solve(ctx, time.Now())
}

// SolveSifted is Solve without its budget retries, every pool's
// relaxation sifted (sift) whatever its width, when it has a first plan.
func SolveSifted(ctx context.Context, p Problem) (Plan, error) {
	in, err := prepare(&p)
	if err != nil {
		return Plan{}, err
	}
	in.siftAll = true
	return in.solve(ctx, time.Now())
}

// SolveFixed is solveFixed: the LP p at bounds lo, up with the fixed
// columns substituted out.
var SolveFixed = solveFixed

// RootProbe builds the model of p's first pool, solves its relaxation and
// its first plan (rounded up, re-optimised), and probes the root from them
// (probe): it returns the relaxation's optimum, the probe's bound, the
// plan's cost, the MILP with the probe's column bounds and the number of
// columns whose bounds the probe tightened.
func RootProbe(p Problem) (relaxed, bound, inc float64, tight *lp.Problem, tightened int, err error) {
	in, err := prepare(&p)
	if err != nil {
		return 0, 0, 0, nil, 0, err
	}
	pm, err := in.model(in.pools()[0])
	if err != nil {
		return 0, 0, 0, nil, 0, err
	}
	st := &solveState{in: in, pm: pm}
	relax := *pm.prob
	relax.Integer = nil
	ctx := context.Background()
	rm, err := lp.NewModel(&relax)
	if err != nil {
		return 0, 0, 0, nil, 0, err
	}
	r, err := rm.Solve(ctx, lp.Options{})
	if err != nil || r.Status != lp.Optimal {
		return 0, 0, 0, nil, 0, fmt.Errorf("relaxation %v: %v", r.Status, err)
	}
	x, inc, err := st.roundAndFix(ctx, &relax, pm.prob, r, pm.runGroups())
	if err != nil || x == nil {
		return 0, 0, 0, nil, 0, fmt.Errorf("no first plan: %v", err)
	}
	lo, up, _, bound, err := st.probe(ctx, rm, &relax, r, inc)
	if err != nil {
		return 0, 0, 0, nil, 0, err
	}
	t := *pm.prob
	t.ColLower, t.ColUpper = lo, up
	for j := range lo {
		if lo[j] != pm.prob.ColLower[j] || up[j] != pm.prob.ColUpper[j] {
			tightened++
		}
	}
	return r.Objective, bound, inc, &t, tightened, nil
}

// siftSetup builds the model of p's first pool, solves its LP relaxation
// whole from the slack basis, and builds the pool's greedy first plan (nil
// when there is none).
func siftSetup(p Problem) (pm *poolModel, relax *lp.Problem, whole lp.Result, x []float64, err error) {
	in, err := prepare(&p)
	if err != nil {
		return nil, nil, lp.Result{}, nil, err
	}
	if pm, err = in.model(in.pools()[0]); err != nil {
		return nil, nil, lp.Result{}, nil, err
	}
	r := *pm.prob
	r.Integer = nil
	if whole, err = lp.Solve(context.Background(), &r, lp.Options{}); err != nil {
		return nil, nil, lp.Result{}, nil, err
	}
	x, _ = pm.greedyPlan(in, nil)
	return pm, &r, whole, x, nil
}

// SiftRelaxation solves the LP relaxation of the model of p's first pool
// twice: from the basis sift reaches from the pool's greedy first plan,
// and as a whole from the slack basis. rounds are the restricted LPs sift
// solved (0: it did not apply; no first plan).
func SiftRelaxation(p Problem) (sifted, whole lp.Result, rounds int, err error) {
	pm, relax, whole, x, err := siftSetup(p)
	if err != nil || x == nil {
		return lp.Result{}, whole, 0, err
	}
	ctx := context.Background()
	sr := sift(ctx, relax, pm.prob.Integer, x, relax.NumCols(), 0, nil)
	if sr.basis == nil {
		return lp.Result{}, whole, sr.rounds, fmt.Errorf("sift ended without a basis after %d rounds", sr.rounds)
	}
	rm, err := lp.NewModel(relax)
	if err != nil {
		return lp.Result{}, lp.Result{}, 0, err
	}
	if err := rm.SetBasis(sr.basis); err != nil {
		return lp.Result{}, lp.Result{}, 0, err
	}
	sifted, err = rm.Solve(ctx, lp.Options{})
	return sifted, whole, sr.rounds, err
}

// CoarseBound is the bound of the coarse relaxation (coarseBound) of p's
// first pool, its LP sifted from the coarse model's greedy plan or solved
// whole; -Inf when the pool has no coarse model.
func CoarseBound(p Problem, sifted bool) (float64, error) {
	in, err := prepare(&p)
	if err != nil {
		return 0, err
	}
	in.siftAll = sifted
	st := &solveState{in: in, start: time.Now()}
	b, _ := st.coarseBound(context.Background(), in.pools()[0], math.Inf(1), nil)
	return b, nil
}

// SiftStop is where sifting stopped for one gap: the restricted optimum,
// the bound it ended with, and whether it ended at the relaxation's optimum
// (with a basis).
type SiftStop struct {
	Gap, Obj, Bound float64
	Optimal         bool
}

// SiftBound sifts the LP relaxation of the model of p's first pool from
// its greedy first plan, once for each of gaps, until the Lagrangian bound
// is within the gap of the restricted optimum (gap 0: to the end). It
// returns where each stopped and the relaxation's optimum solved whole (the
// model is built and solved whole once); ok is false when the pool has no
// first plan.
func SiftBound(p Problem, gaps ...float64) (stops []SiftStop, whole float64, ok bool, err error) {
	pm, relax, r, x, err := siftSetup(p)
	if err != nil || r.Status != lp.Optimal {
		return nil, 0, false, fmt.Errorf("relaxation %v: %v", r.Status, err)
	}
	if x == nil {
		return nil, r.Objective, false, nil
	}
	for _, gap := range gaps {
		sr := sift(context.Background(), relax, pm.prob.Integer, x, relax.NumCols(), gap, nil)
		if sr.x == nil {
			return nil, r.Objective, false, fmt.Errorf("gap %g: sift solved no restricted LP in %d rounds", gap, sr.rounds)
		}
		stops = append(stops, SiftStop{Gap: gap, Obj: sr.obj, Bound: sr.bound, Optimal: sr.basis != nil})
	}
	return stops, r.Objective, true, nil
}
