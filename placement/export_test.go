package placement

import (
	"context"
	"fmt"
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
