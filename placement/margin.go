package placement

import (
	"context"
	"maps"
	"math"
	"slices"

	"github.com/gputco/gputco/placement/lp"
)

// margins are a pool's marginal values read from its plan (see
// Assignment.PeakGPUValue and StockValue): the change of the optimum of the
// plan's fixed LP — the pool's model with every integer column fixed at the
// plan's value (node counts, placements, per-offer and gang columns), every
// use the plan rules out fixed at zero (fixUnused) — when one unit is
// added:
//
//   - a service's peak: every slice's demand, and the bounds of its uses
//     and its spot share with it, rises by the slice's peak fraction; a
//     job's work by one reference GPU-hour; the value is the new optimum
//     less the old one;
//   - an offer's stock: its stock rows and the stock bounds of its uses
//     rise by a node's GPUs; for committed capacity the plan also holds one
//     more node of a commitment that needs the stock for it (the best such
//     commitment); the value is the old optimum less the new one.
//
// The fixed LP is restricted once to the plan's uses (restrict); a change
// is priced at once when a plan for it built from the optimum meets the
// duals' lower bound (peakAtOnce), else by that LP warm-started from its
// basis. When one more unit does not fit on what the plan holds and places,
// the workload is placed on one more of its offers, the cheapest
// (newPlacement). The plan's integers held, the peak value is at least
// what a re-solve of the whole problem would add, the stock value at most
// what it would save, each equal to it when the re-solve keeps the plan's
// integers. A value whose LP is infeasible even so, or that is not reached
// within the budget of simplex iterations (marginBudget) or before ctx
// ends, keeps the relaxation's (base); so do all when the fixed LP itself
// cannot be solved.
func (st *solveState) margins(ctx context.Context, pm *poolModel, x []float64, base modelDuals) modelDuals {
	in := st.in
	if ctx.Err() != nil || x == nil || len(x) != pm.prob.NumCols() {
		return base
	}
	p := pm.prob
	lo, up := pm.fixAt(in, x, false)
	f, ok := newFixedLP(ctx, p, lo, up)
	if !ok && ctx.Err() == nil {
		// A MILP point within its tolerances may use a pair by a hair's
		// breadth with its placement rounded to 0: placed.
		st.stats.Iterations += f.total
		lo, up = pm.fixAt(in, x, true)
		f, ok = newFixedLP(ctx, p, lo, up)
	}
	defer func() { st.stats.Iterations += f.total }()
	if !ok {
		return base
	}
	b0 := f.obj
	out := modelDuals{stock: map[int]float64{}, peak: map[int]float64{}}
	for w, v := range base.peak {
		out.peak[w] = v
	}
	tol := 1e-9 * max(1, math.Abs(b0))
	// What one more unit of a workload's demand or work costs.
	for _, w := range pm.pl.ws {
		if in.ws[w].gang {
			continue
		}
		c, ok := pm.moreDemand(in, w, f)
		if !ok {
			continue
		}
		if v, ok := pm.peakAtOnce(in, w, f, c); ok {
			out.peak[w] = v
			continue
		}
		b1, ok := f.solve(c)
		if !ok && !f.spent() {
			// No room on the offers it is placed on: on one more.
			b1, ok = pm.newPlacement(in, w, f, c)
		}
		if ok {
			v := b1 - b0
			if math.Abs(v) < tol {
				v = 0
			}
			out.peak[w] = v
		}
	}
	// What one more node of an offer's stock saves.
	for _, k := range pm.pl.os {
		od := &in.os[k]
		if od.dominated || math.IsInf(od.stock, 1) {
			continue
		}
		saving := 0.0
		for _, c := range pm.moreStock(in, k, f) {
			if b1, ok := f.solve(c); ok {
				saving = max(saving, b0-b1)
			}
		}
		if f.spent() { // not all its cases solved: the relaxation's value
			if v := base.stock[k]; v > 0 {
				out.stock[k] = v
			}
			continue
		}
		if saving > tol {
			out.stock[k] = saving
		}
	}
	return out
}

// fixAt returns the column bounds of the pool's model that fix its integer
// columns at their values in the MILP point x, rounded, and the uses they
// rule out at zero (fixUnused); with support, a placement rounded to 0
// whose pair x uses all the same is fixed at 1 (and its offer's per-offer
// column with it).
func (pm *poolModel) fixAt(in *instance, x []float64, support bool) (lo, up []float64) {
	p := pm.prob
	lo, up = slices.Clone(p.ColLower), slices.Clone(p.ColUpper)
	for j, isInt := range p.Integer {
		if isInt {
			v := min(p.ColUpper[j], max(p.ColLower[j], math.Round(x[j])))
			lo[j], up[j] = v, v
		}
	}
	if support {
		for q, y := range pm.yCol {
			if y < 0 || lo[y] != 0 || !pm.uses(q, x) {
				continue
			}
			lo[y], up[y] = 1, 1
			if z := pm.zCol[in.pairs[q].k]; z >= 0 {
				lo[z], up[z] = 1, 1
			}
		}
	}
	pm.fixUnused(in, lo, up)
	return lo, up
}

// uses reports whether pair q has a positive use in x.
func (pm *poolModel) uses(q int, x []float64) bool {
	for _, j := range xcols(pm.xCol[q]) {
		if j >= 0 && x[j] > 0 {
			return true
		}
	}
	if h, ok := pm.hCol[q]; ok && x[h] > 0 {
		return true
	}
	if v, ok := pm.vCol[q]; ok && x[v] > 0 {
		return true
	}
	return false
}

// marginBudget is the work the solves of the marginal values may take in
// all, in simplex iterations, after the fixed LP's own solve from scratch
// (iters): four times that solve, each later solve counting its iterations
// plus a fifth of it (setup: scaling, factorisation; about what a warm
// re-solve takes beyond its pivots), and at least 20 000. It bounds them to
// the work of a few solves of the fixed LP — the size of the plan's uses,
// a fraction of the relaxation the plan needed — whatever the number of
// workloads and offers. An iteration count, not a time, so that the same
// problem gives the same plan.
func marginBudget(iters int) int {
	return max(4*iters, 20_000)
}

// setupCost is what a solve counts against marginBudget beyond its
// iterations, for a fixed LP whose solve from scratch took iters.
func setupCost(iters int) int { return 1 + iters/5 }

// change is a change of a pool's fixed LP, in the model's rows and
// columns: new row bounds, new upper bounds of free columns, new values of
// fixed columns, and rows Σ x_j ≤ up added.
type change struct {
	rowLo, rowUp map[int]float64
	colUp        map[int]float64
	fix          map[int]float64
	rows         []extraRow
}

func newChange() change {
	return change{rowLo: map[int]float64{}, rowUp: map[int]float64{}, colUp: map[int]float64{}, fix: map[int]float64{}}
}

// extraRow is a row Σ x_j ≤ up over columns cols of a pool's model.
type extraRow struct {
	cols []int
	up   float64
}

// fixedLP is a pool's model p at column bounds lo, up that fix every
// integer column, restricted to its free columns (restrict) and solved;
// solve solves it again after a change, warm-started from its basis.
type fixedLP struct {
	ctx    context.Context
	p      *lp.Problem
	lo, up []float64
	// q is the restricted LP: q's column c is p's keep[c]; colAt and rowAt
	// map p's columns and rows to q's (−1: fixed, dropped); shift is the
	// fixed columns' part of each of p's rows, fixedObj their cost.
	q            *lp.Problem
	keep         []int
	colAt, rowAt []int
	shift        []float64
	fixedObj     float64
	basis        *lp.Basis
	// rowDual and redCost are the duals of q's rows and columns.
	rowDual, redCost []float64
	// x is the optimum in p's columns, act its row activities, obj its
	// objective.
	x, act []float64
	obj    float64
	// iters is the iterations of its solve; budget the work left for the
	// solves of changes (marginBudget); out when it or ctx ran out; total
	// counts the iterations of every solve.
	iters, budget, total int
	out                  bool
}

// newFixedLP restricts and solves p at lo, up; ok false when it is
// infeasible or not solved.
func newFixedLP(ctx context.Context, p *lp.Problem, lo, up []float64) (*fixedLP, bool) {
	f := &fixedLP{ctx: ctx, p: p, lo: lo, up: up}
	q, keep, x, obj, ok := restrict(p, lo, up)
	if !ok {
		return f, false
	}
	q.Integer = nil
	f.q, f.keep, f.fixedObj = q, keep, obj
	n, m := p.NumCols(), p.NumRows()
	f.colAt, f.rowAt, f.shift = make([]int, n), make([]int, m), make([]float64, m)
	for j := range f.colAt {
		f.colAt[j] = -1
	}
	for c, j := range keep {
		f.colAt[j] = c
	}
	live := make([]bool, m)
	for j := range n {
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			i := int(p.A.Index[e])
			if f.colAt[j] >= 0 {
				live[i] = true
			} else {
				f.shift[i] += p.A.Value[e] * x[j]
			}
		}
	}
	r := 0
	for i := range m {
		f.rowAt[i] = -1
		if live[i] {
			f.rowAt[i] = r
			r++
		}
	}
	if len(keep) > 0 {
		res, err := lp.Solve(ctx, q, lp.Options{})
		f.total += res.Iterations
		if err != nil || res.Status != lp.Optimal {
			return f, false
		}
		f.basis, f.rowDual, f.redCost = res.Basis, res.RowDual, res.ReducedCost
		for c, j := range keep {
			x[j] = res.X[c]
		}
		obj += res.Objective
		f.iters, f.budget = res.Iterations, marginBudget(res.Iterations)
	}
	f.x, f.obj, f.act = x, obj, activities(p, x)
	return f, true
}

// spent reports whether no more solves may be made.
func (f *fixedLP) spent() bool { return f.out || f.ctx.Err() != nil }

// solve returns the optimum of the fixed LP after change c; ok false when
// it is infeasible or not solved within the budget.
func (f *fixedLP) solve(c change) (float64, bool) {
	if f.spent() {
		return 0, false
	}
	p, q := f.p, *f.q
	q.RowLower, q.RowUpper = slices.Clone(f.q.RowLower), slices.Clone(f.q.RowUpper)
	q.ColUpper = slices.Clone(f.q.ColUpper)
	const tol = 1e-7
	holds := func(i int, shift float64) bool { // a dropped row
		lo, up := p.RowLower[i], p.RowUpper[i]
		if v, ok := c.rowLo[i]; ok {
			lo = v
		}
		if v, ok := c.rowUp[i]; ok {
			up = v
		}
		t := tol * max(1, math.Abs(shift))
		return shift >= lo-t && shift <= up+t
	}
	shift := map[int]float64{} // the changes of the fixed part of rows
	obj := f.fixedObj
	for j, v := range c.fix {
		d := v - f.x[j]
		obj += p.Cost[j] * d
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			shift[int(p.A.Index[e])] += p.A.Value[e] * d
		}
	}
	for i, v := range c.rowLo {
		if r := f.rowAt[i]; r >= 0 {
			q.RowLower[r] = v - f.shift[i]
		}
	}
	for i, v := range c.rowUp {
		if r := f.rowAt[i]; r >= 0 {
			q.RowUpper[r] = v - f.shift[i]
		}
	}
	for i, d := range shift {
		if r := f.rowAt[i]; r >= 0 {
			q.RowLower[r] -= d
			q.RowUpper[r] -= d
		}
	}
	for i := range c.rowLo {
		if f.rowAt[i] < 0 && !holds(i, f.shift[i]+shift[i]) {
			return 0, false
		}
	}
	for i := range c.rowUp {
		if _, ok := c.rowLo[i]; !ok && f.rowAt[i] < 0 && !holds(i, f.shift[i]+shift[i]) {
			return 0, false
		}
	}
	for i, d := range shift {
		if _, ok := c.rowLo[i]; ok {
			continue
		}
		if _, ok := c.rowUp[i]; ok {
			continue
		}
		if d != 0 && f.rowAt[i] < 0 && !holds(i, f.shift[i]+d) {
			return 0, false
		}
	}
	for j, v := range c.colUp {
		if col := f.colAt[j]; col >= 0 {
			q.ColUpper[col] = v
		}
	}
	m := q.NumRows()
	if len(c.rows) > 0 {
		ok := true
		if q, ok = f.addRows(q, c.rows, c.fix); !ok {
			return 0, false
		}
	}
	if len(f.keep) == 0 {
		return obj, true
	}
	if f.budget <= 0 {
		f.out = true
		return 0, false
	}
	opt := lp.Options{IterationLimit: f.budget}
	if b := f.basis; b != nil {
		opt.Basis = b
		if q.NumRows() > m { // the rows added start with their slacks basic
			opt.Basis = &lp.Basis{Cols: b.Cols, Rows: slices.Clone(b.Rows)}
			for range q.NumRows() - m {
				opt.Basis.Rows = append(opt.Basis.Rows, lp.Basic)
			}
		}
	}
	r, err := lp.Solve(f.ctx, &q, opt)
	return f.account(obj, r, err)
}

// solveAt returns the optimum of f's model at row bounds rl, ru and column
// bounds lo, up (every integer column fixed) with rows added, restricted
// and solved from scratch within f's budget; ok false when it is
// infeasible or not solved.
func (f *fixedLP) solveAt(rl, ru, lo, up []float64, rows []extraRow) (float64, bool) {
	if f.spent() {
		return 0, false
	}
	p := *f.p
	p.RowLower, p.RowUpper = rl, ru
	q, keep, x, obj, ok := restrict(&p, lo, up)
	if !ok {
		return 0, false
	}
	if len(rows) > 0 {
		colAt := make([]int, p.NumCols())
		for j := range colAt {
			colAt[j] = -1
		}
		for c, j := range keep {
			colAt[j] = c
		}
		qq, ok := addRows(*q, colAt, x, rows, nil)
		if !ok {
			return 0, false
		}
		q = &qq
	}
	if len(keep) == 0 {
		return obj, true
	}
	if f.budget <= 0 {
		f.out = true
		return 0, false
	}
	q.Integer = nil
	r, err := lp.Solve(f.ctx, q, lp.Options{IterationLimit: f.budget})
	return f.account(obj, r, err)
}

// account charges f's budget with a solve's iterations and returns obj
// plus its optimum; ok false when it is infeasible or not solved (a limit
// or an error also marks f out).
func (f *fixedLP) account(obj float64, r lp.Result, err error) (float64, bool) {
	f.total += r.Iterations
	f.budget -= r.Iterations + setupCost(f.iters)
	switch {
	case err != nil:
		f.out = true
		return 0, false
	case r.Status == lp.Infeasible:
		return 0, false
	case r.Status != lp.Optimal:
		f.out = true // a limit
		return 0, false
	}
	return obj + r.Objective, true
}

// addRows returns q with rows added (in p's columns, the fixed ones at
// their values, or fix's); ok false when one of them has no free column
// and does not hold.
func (f *fixedLP) addRows(q lp.Problem, rows []extraRow, fix map[int]float64) (lp.Problem, bool) {
	return addRows(q, f.colAt, f.x, rows, fix)
}

// addRows returns q, a restriction of a pool's model whose columns colAt
// maps (−1: fixed at its value in x), with rows added (in the model's
// columns; the fixed ones at their values in x, or fix's); ok false when
// one of them has no free column and does not hold.
func addRows(q lp.Problem, colAt []int, x []float64, rows []extraRow, fix map[int]float64) (lp.Problem, bool) {
	n, m := q.NumCols(), q.NumRows()
	type entry struct {
		row int
		v   float64
	}
	add := make([][]entry, n)
	for _, r := range rows {
		shift := 0.0
		live := false
		for _, j := range r.cols {
			if c := colAt[j]; c >= 0 {
				add[c] = append(add[c], entry{len(q.RowLower), 1})
				live = true
			} else if v, ok := fix[j]; ok {
				shift += v
			} else {
				shift += x[j]
			}
		}
		if !live {
			if shift > r.up+1e-7*max(1, math.Abs(r.up)) {
				return q, false
			}
			continue
		}
		q.RowLower = append(q.RowLower, math.Inf(-1))
		q.RowUpper = append(q.RowUpper, r.up-shift)
	}
	if len(q.RowLower) == m {
		return q, true
	}
	a := lp.Matrix{Rows: len(q.RowLower), Cols: n, Start: make([]int, n+1)}
	for c := range n {
		for e := q.A.Start[c]; e < q.A.Start[c+1]; e++ {
			a.Index = append(a.Index, q.A.Index[e])
			a.Value = append(a.Value, q.A.Value[e])
		}
		for _, en := range add[c] {
			a.Index = append(a.Index, int32(en.row))
			a.Value = append(a.Value, en.v)
		}
		a.Start[c+1] = len(a.Index)
	}
	q.A = a
	return q, true
}

// newPlacement is the least optimum of the fixed LP f after change c
// (one more unit of workload w) with w placed on one more of its offers,
// its one-off (and per-offer) cost paid: for each pair of w the plan does
// not place, the LP with its placement fixed at 1 and its uses free,
// solved from scratch (restrict), within f's budget. ok is false when
// none is feasible.
func (pm *poolModel) newPlacement(in *instance, w int, f *fixedLP, c change) (float64, bool) {
	wd := &in.ws[w]
	p := f.p
	best, found := math.Inf(1), false
	for _, q := range in.active(w) {
		y := pm.yCol[q]
		if y < 0 || f.lo[y] != 0 || f.spent() {
			continue
		}
		k := in.pairs[q].k
		od := &in.os[k]
		lo, up := slices.Clone(f.lo), slices.Clone(f.up)
		for j, v := range c.fix {
			lo[j], up[j] = v, v
		}
		for j, v := range c.colUp {
			up[j] = v
		}
		lo[y], up[y] = 1, 1
		if z := pm.zCol[k]; z >= 0 {
			lo[z], up[z] = 1, 1
		}
		for t, j := range xcols(pm.xCol[q]) {
			if j < 0 {
				continue
			}
			lo[j], up[j] = p.ColLower[j], p.ColUpper[j]
			if wd.service {
				ub := wd.demand[t] + wd.peak[t]
				if !math.IsInf(od.stock, 1) {
					ub = min(ub, od.stock*od.gpn)
				}
				up[j] = max(up[j], ub)
			}
		}
		if h, ok := pm.hCol[q]; ok {
			lo[h], up[h] = p.ColLower[h], p.ColUpper[h]
		}
		if v, ok := pm.vCol[q]; ok {
			lo[v], up[v] = p.ColLower[v], math.Inf(1)
		}
		rl, ru := slices.Clone(p.RowLower), slices.Clone(p.RowUpper)
		for i, v := range c.rowLo {
			rl[i] = v
		}
		for i, v := range c.rowUp {
			ru[i] = v
		}
		if i, ok := pm.linkRow[q]; ok {
			ru[i] = math.Inf(1)
		}
		if b, ok := f.solveAt(rl, ru, lo, up, c.rows); ok {
			best, found = min(best, b), true
		}
	}
	return best, found
}

// moreDemand is the change of the fixed LP f with one more unit of
// workload w: a service's demand in every slice raised by its peak
// fraction there (its demand rows, the upper bounds of its uses, below the
// stock of their offers, and its spot share), a job's work by one
// reference GPU-hour. The links of its placed pairs (y fixed at 1) are
// dropped: their big-M, the use's old bound, no longer bounds it. Stock
// rows of pay-as-you-go offers that the model left out as unable to bind,
// and that the wider bounds may now make bind, are added. ok is false when
// the model has no row for it, or when such a stock row would need gang
// runs.
func (pm *poolModel) moreDemand(in *instance, w int, f *fixedLP) (change, bool) {
	wd := &in.ws[w]
	p := pm.prob
	c := newChange()
	act := in.active(w)
	for _, q := range act {
		if i, ok := pm.linkRow[q]; ok && pm.yCol[q] >= 0 && f.lo[pm.yCol[q]] == 1 {
			c.rowUp[i] = math.Inf(1)
		}
	}
	if !wd.service {
		i, ok := pm.workRow[w]
		if !ok {
			return c, false
		}
		c.rowLo[i] = p.RowLower[i] + 1
		if s, ok := pm.spotRow[w]; ok {
			c.rowUp[s] = p.RowUpper[s] + in.s.MaxSpotShare
		}
		return c, true
	}
	demand, ok := pm.demandRow[w]
	if !ok {
		return c, false
	}
	for t, i := range demand {
		if i >= 0 {
			c.rowLo[i] = p.RowLower[i] + wd.peak[t]
		}
	}
	if len(c.rowLo) == 0 {
		return c, false
	}
	if s, ok := pm.spotRow[w]; ok {
		more := 0.0
		for t, d := range wd.demand {
			if d > 0 {
				more += wd.peak[t] * in.hours[t] * wd.reps[t]
			}
		}
		c.rowUp[s] = p.RowUpper[s] + in.s.MaxSpotShare*more
	}
	upper := func(j int) float64 {
		if v, ok := c.colUp[j]; ok {
			return v
		}
		return f.up[j]
	}
	for _, q := range act {
		od := &in.os[in.pairs[q].k]
		for t, j := range xcols(pm.xCol[q]) {
			if j < 0 || f.colAt[j] < 0 { // none, or ruled out by the plan
				continue
			}
			ub := wd.demand[t] + wd.peak[t]
			if !math.IsInf(od.stock, 1) {
				ub = min(ub, od.stock*od.gpn)
			}
			if ub > f.up[j] {
				c.colUp[j] = ub
			}
		}
		// The GPU-hours of the other pairs of its group are bounded by the
		// sharing rows (and by the representative's uses).
		for _, m := range pm.groups[q][min(1, len(pm.groups[q])):] {
			if v, ok := pm.vCol[m]; ok && f.colAt[v] >= 0 {
				c.colUp[v] = math.Inf(1)
			}
		}
	}
	// Stock rows the model left out as unable to bind, which with the
	// wider bounds might.
	seen := map[int]bool{}
	for _, q := range act {
		k := in.pairs[q].k
		od := &in.os[k]
		if seen[k] || od.committed || math.IsInf(od.stock, 1) {
			continue
		}
		seen[k] = true
		for t := range pm.xCol[q] {
			if r := pm.stockRow[k]; r != nil && r[t] >= 0 {
				continue
			}
			var cols []int
			most := 0.0
			for _, q2 := range od.pairs {
				if in.ws[in.pairs[q2].w].gang {
					if pm.gangCol[in.pairs[q2].w] != nil {
						return c, false // gang runs hold it too
					}
					continue
				}
				if xs, ok := pm.xCol[q2]; ok && xs[t] >= 0 {
					cols = append(cols, int(xs[t]))
					most += upper(int(xs[t]))
				}
			}
			if most > od.stock*od.gpn*(1+1e-12) {
				c.rows = append(c.rows, extraRow{cols: cols, up: od.stock * od.gpn})
			}
		}
	}
	return c, true
}

// peakAtOnce is the change of the fixed LP f's optimum by change c, one
// more unit of workload w, when it is known without a solve: when a plan
// for the change, built from f's optimum by adding each of the workload's
// extra needs (a service's GPUs in each slice, a job's GPU-hour of work)
// to the cheapest of its uses that can take them within every row and
// bound, costs what f's duals prove the change costs at least (weak
// duality: the duals stay feasible for the changed LP). ok is false
// otherwise.
func (pm *poolModel) peakAtOnce(in *instance, w int, f *fixedLP, c change) (float64, bool) {
	wd := &in.ws[w]
	if len(c.rows) > 0 || len(c.fix) > 0 || f.rowDual == nil {
		return 0, false
	}
	p := pm.prob
	// The least the change costs (summed in a fixed order: the same
	// problem, the same plan).
	lower := 0.0
	for _, i := range slices.Sorted(maps.Keys(c.rowLo)) {
		v := c.rowLo[i]
		r := f.rowAt[i]
		if r < 0 {
			return 0, false
		}
		if y := f.rowDual[r]; y > 0 {
			lower += y * (v - p.RowLower[i])
		}
	}
	for _, i := range slices.Sorted(maps.Keys(c.rowUp)) {
		v := c.rowUp[i]
		r := f.rowAt[i]
		if r < 0 {
			continue // no free column: the row binds nothing
		}
		if y := f.rowDual[r]; y < 0 {
			if math.IsInf(v, 1) {
				return 0, false
			}
			lower += y * (v - p.RowUpper[i])
		}
	}
	for _, j := range slices.Sorted(maps.Keys(c.colUp)) {
		v := c.colUp[j]
		if d := f.redCost[f.colAt[j]]; d < 0 {
			if math.IsInf(v, 1) {
				return 0, false
			}
			lower += d * (v - f.up[j])
		}
	}
	// What a plan for it costs: each need on the cheapest use that takes
	// it.
	const tol = 1e-9
	rowLo := func(i int) float64 {
		if v, ok := c.rowLo[i]; ok {
			return v
		}
		return p.RowLower[i]
	}
	rowUp := func(i int) float64 {
		if v, ok := c.rowUp[i]; ok {
			return v
		}
		return p.RowUpper[i]
	}
	colUp := func(j int) float64 {
		if v, ok := c.colUp[j]; ok {
			return v
		}
		return f.up[j]
	}
	within := func(v, lo, up float64) bool {
		return v >= lo-tol*max(1, math.Abs(lo)) && v <= up+tol*max(1, math.Abs(up))
	}
	delta := map[int]float64{} // the plan's change of row activities
	// fits reports whether column j can take d more with the rows' changes
	// so far.
	fits := func(j int, d float64) bool {
		if !within(f.x[j]+d, f.lo[j], colUp(j)) {
			return false
		}
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			i := int(p.A.Index[e])
			if _, ok := c.rowLo[i]; ok && p.A.Value[e] > 0 {
				continue // the need's own row: checked at the end
			}
			if !within(f.act[i]+delta[i]+p.A.Value[e]*d, rowLo(i), rowUp(i)) {
				return false
			}
		}
		return true
	}
	upper := 0.0
	// need adds need to row i on the cheapest of cols.
	need := func(i int, need float64, cols []int) bool {
		best, bj, bd := math.Inf(1), -1, 0.0
		for _, j := range cols {
			if j < 0 || f.colAt[j] < 0 {
				continue
			}
			a := 0.0
			for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
				if int(p.A.Index[e]) == i {
					a = p.A.Value[e]
				}
			}
			if a <= 0 {
				continue
			}
			d := need / a
			if cost := p.Cost[j] * d; cost < best && fits(j, d) {
				best, bj, bd = cost, j, d
			}
		}
		if bj < 0 {
			return false
		}
		upper += best
		for e := p.A.Start[bj]; e < p.A.Start[bj+1]; e++ {
			delta[int(p.A.Index[e])] += p.A.Value[e] * bd
		}
		return true
	}
	act := in.active(w)
	if wd.service {
		cols := make([]int, 0, len(act))
		for t, i := range pm.demandRow[w] {
			if i < 0 {
				continue
			}
			cols = cols[:0]
			for _, q := range act {
				if xs := pm.xCol[q]; xs != nil {
					cols = append(cols, int(xs[t]))
				}
			}
			if !need(i, wd.peak[t], cols) {
				return 0, false
			}
		}
	} else {
		i, ok := pm.workRow[w]
		if !ok {
			return 0, false
		}
		var cols []int
		for _, q := range act {
			if h, ok := pm.hCol[q]; ok {
				cols = append(cols, h)
			}
			for _, j := range xcols(pm.xCol[q]) {
				cols = append(cols, j)
			}
		}
		if !need(i, 1, cols) {
			return 0, false
		}
	}
	// Every row the plan changes, and every row the change moves, holds.
	for i, d := range delta {
		if !within(f.act[i]+d, rowLo(i), rowUp(i)) {
			return 0, false
		}
	}
	for i := range c.rowLo {
		if !within(f.act[i]+delta[i], rowLo(i), rowUp(i)) {
			return 0, false
		}
	}
	if upper-lower > 1e-9*max(1, math.Abs(f.obj)) {
		return 0, false
	}
	return upper, true
}

// moreStock returns the changes of the fixed LP f with one more node of
// offer k's stock, when the plan meets the stock: for pay-as-you-go
// capacity, its stock rows and its uses' stock bounds raised by a node's
// GPUs (and their links to their placements, whose big-M is the old
// bound, dropped); for committed capacity, for each commitment whose next
// node would exceed the stock, that node held too, the hold rows and the
// uses' bounds raised. None when the plan leaves the stock free, which one more node
// cannot then lower.
func (pm *poolModel) moreStock(in *instance, k int, f *fixedLP) []change {
	od := &in.os[k]
	p := pm.prob
	limit := od.stock * od.gpn
	const tol = 1e-9
	binds := false
	c := newChange()
	pm.stockBounded(in, k, func(q, j int, own float64) {
		if f.colAt[j] < 0 {
			return
		}
		binds = binds || f.x[j] >= f.up[j]-tol*max(1, f.up[j])
		c.colUp[j] = min(own, limit+od.gpn)
		// Its link's big-M is the old bound: dropped where placed.
		if i, ok := pm.linkRow[q]; ok && pm.yCol[q] >= 0 && f.lo[pm.yCol[q]] == 1 {
			c.rowUp[i] = math.Inf(1)
		}
	})
	if !od.committed {
		for _, i := range pm.stockRow[k] {
			if i >= 0 {
				binds = binds || f.act[i] >= p.RowUpper[i]-tol*max(1, math.Abs(p.RowUpper[i]))
				c.rowUp[i] = p.RowUpper[i] + od.gpn
			}
		}
		if !binds {
			return nil
		}
		return []change{c}
	}
	for _, i := range pm.holdRow[k] {
		if i >= 0 {
			c.rowUp[i] = p.RowUpper[i] + 1
		}
	}
	cols := pm.nCols[k]
	held := make([]int, len(cols))
	for i, j := range cols {
		if j >= 0 { // −1: a commitment others make (markChains)
			held[i] = int(f.lo[j])
		}
	}
	var out []change
	for i, j := range cols {
		if j < 0 || f.lo[j] != f.up[j] {
			continue
		}
		held[i]++
		over := false
		for s := range in.segs {
			if od.commits[i].holds(s) && float64(heldAt(od, held, s)) > od.stock {
				over = true
			}
		}
		held[i]--
		if !over {
			continue
		}
		ci := c
		ci.fix = map[int]float64{j: f.lo[j] + 1}
		out = append(out, ci)
	}
	return out
}

// activities is p's matrix times x, one per row.
func activities(p *lp.Problem, x []float64) []float64 {
	a := make([]float64, p.NumRows())
	for j, v := range x {
		if v == 0 {
			continue
		}
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			a[p.A.Index[e]] += p.A.Value[e] * v
		}
	}
	return a
}
