package placement

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gputco/gputco/placement/lp"
	"github.com/gputco/gputco/workload"
)

// gangCol is the column j of gang run r in a pool's model, with the GPUs
// it holds.
type gangCol struct {
	j    int
	r    *gangRun
	held float64
}

// gangHold is how the gang runs on one offer enter its capacity (or stock)
// rows, stretch by stretch: where one moment of the stretch meets every run
// that meets the stretch, the runs themselves (direct), each holding its
// GPUs in every slice; otherwise a column peak, the most GPUs the runs hold
// at once in the stretch, at least what they hold at every moment a run
// starts (or the stretch does) — the moments at which the GPUs held by
// runs over [start, finish) reach each of their maxima.
type gangHold struct {
	direct map[int][]gangCol
	peak   map[int]int
	// most is the most GPUs the runs can hold at once in each stretch.
	most map[int]float64
}

// holdGangs builds the gang holdings of offer k from its runs' columns,
// adding the peak columns and their rows to b.
func (in *instance) holdGangs(b *colBuilder, k int, runs []gangCol) *gangHold {
	h := &gangHold{direct: map[int][]gangCol{}, peak: map[int]int{}, most: map[int]float64{}}
	for s, sg := range in.segs {
		var meet []gangCol
		moments := []int64{int64(sg.start)}
		for _, g := range runs {
			if g.r.first <= s && s <= g.r.last {
				meet = append(meet, g)
				if g.r.start > sg.start {
					moments = append(moments, int64(g.r.start))
				}
			}
		}
		if len(meet) == 0 {
			continue
		}
		slices.Sort(moments)
		moments = slices.Compact(moments)
		// The runs holding their nodes at each moment; a set within another
		// adds no row.
		var sets [][]int
		for _, m := range moments {
			var set []int
			for i, g := range meet {
				if int64(g.r.start) <= m && m < int64(g.r.finish) {
					set = append(set, i)
				}
			}
			if len(set) > 0 {
				sets = append(sets, set)
			}
		}
		sets = maximalSets(sets)
		if len(sets) == 1 {
			h.direct[s] = meet
			for _, g := range meet {
				h.most[s] += g.held
			}
			continue
		}
		most := 0.0
		for _, set := range sets {
			sum := 0.0
			for _, i := range set {
				sum += meet[i].held
			}
			most = max(most, sum)
		}
		od := &in.os[k]
		p := b.AddCol("gh_"+itoa(od.idx)+"_"+itoa(s), 0, 0, most)
		for i, set := range sets {
			cols, vals := make([]int, 0, len(set)+1), make([]float64, 0, len(set)+1)
			for _, r := range set {
				cols, vals = append(cols, meet[r].j), append(vals, meet[r].held)
			}
			cols, vals = append(cols, p), append(vals, -1)
			b.AddRow("ghold_"+itoa(od.idx)+"_"+itoa(s)+"_"+itoa(i), math.Inf(-1), 0, cols, vals)
		}
		h.peak[s], h.most[s] = p, most
	}
	return h
}

// maximalSets returns the sets (ascending indices) that no other set
// contains, in order, each once.
func maximalSets(sets [][]int) [][]int {
	var out [][]int
	for i, a := range sets {
		within := false
		for j, b := range sets {
			if i != j && subset(a, b) && (len(a) < len(b) || j < i) {
				within = true
				break
			}
		}
		if !within {
			out = append(out, a)
		}
	}
	return out
}

// subset reports whether ascending a is within ascending b.
func subset(a, b []int) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
	}
	return true
}

// slice adds the gang holdings of stretch s to a capacity row (cols, vals)
// whose columns can use at most most GPUs, returning the row and the new
// most.
func (h *gangHold) slice(s int, cols []int, vals []float64, most float64) ([]int, []float64, float64) {
	if h == nil {
		return cols, vals, most
	}
	if p, ok := h.peak[s]; ok {
		return append(cols, p), append(vals, 1), most + h.most[s]
	}
	for _, g := range h.direct[s] {
		cols, vals = append(cols, g.j), append(vals, g.held)
	}
	return cols, vals, most + h.most[s]
}

// runGroups returns the run columns of every gang of the pool (one of each
// group is chosen), in the pool's order of workloads.
func (pm *poolModel) runGroups() [][]int {
	var out [][]int
	for _, w := range pm.pl.ws {
		if cols := pm.gangCol[w]; len(cols) > 0 {
			out = append(out, cols)
		}
	}
	return out
}

// pickRuns fixes in every group the column of largest value in x at 1 and
// the others at 0 (of equal values, the first): one run per gang.
func pickRuns(groups [][]int, x, lower, upper []float64) {
	for _, g := range groups {
		best := g[0]
		for _, j := range g[1:] {
			if x[j] > x[best]+1e-9 {
				best = j
			}
		}
		for _, j := range g {
			lower[j], upper[j] = 0, 0
		}
		lower[best], upper[best] = 1, 1
	}
}

// repairRuns finds an LP point of work with one run per gang when the runs
// pickRuns chose do not fit the capacity rounded from the relaxation: first
// with the other integers free again (up to their bounds in p), so that
// commitments grow to what the chosen runs need; then, when the chosen runs
// do not fit together at all, by a dive: gang by gang, the run of largest
// value in the current relaxation is fixed, and a run whose fixing leaves
// no LP point is excluded and the next tried. work's bounds are left at the
// point's choice; a status other than Optimal says no point was found.
func (st *solveState) repairRuns(ctx context.Context, work, p *lp.Problem, groups [][]int, basis *lp.Basis) (lp.Result, error) {
	in := make(map[int]bool)
	for _, g := range groups {
		for _, j := range g {
			in[j] = true
		}
	}
	for j, isInt := range p.Integer {
		if isInt && !in[j] {
			work.ColLower[j], work.ColUpper[j] = p.ColLower[j], p.ColUpper[j]
		}
	}
	solve := func() (lp.Result, error) {
		r, err := lp.Solve(ctx, work, lp.Options{Basis: basis})
		st.stats.Iterations += r.Iterations
		if err != nil {
			return r, solverErr(err)
		}
		if r.Status == lp.Optimal {
			basis = r.Basis
		}
		return r, nil
	}
	r, err := solve()
	if err != nil || r.Status == lp.Optimal {
		return r, err
	}
	for _, g := range groups {
		for _, j := range g {
			work.ColLower[j], work.ColUpper[j] = 0, 1
		}
	}
	if r, err = solve(); err != nil || r.Status != lp.Optimal {
		return r, err
	}
	for _, g := range groups {
		for {
			best := -1
			for _, j := range g {
				if work.ColUpper[j] > 0 && (best < 0 || r.X[j] > r.X[best]+1e-9) {
					best = j
				}
			}
			if best < 0 {
				return lp.Result{Status: lp.Infeasible}, nil
			}
			saved := make([]float64, len(g))
			for i, j := range g {
				saved[i] = work.ColUpper[j]
				work.ColUpper[j] = 0
			}
			work.ColLower[best], work.ColUpper[best] = 1, 1
			next, err := solve()
			if err != nil {
				return next, err
			}
			if next.Status == lp.Optimal {
				r = next
				break
			}
			for i, j := range g { // exclude best, try the next
				work.ColUpper[j] = saved[i]
			}
			work.ColLower[best], work.ColUpper[best] = 0, 0
		}
	}
	return r, nil
}

// withoutGangs plans pool pl, whose model pm is infeasible, without the
// gangs that cannot fit (gangsLeftOut): those gangs are reported in
// Plan.Unplaced (ErrStock) and the pool is solved again without them. It
// reports false when leaving gangs out does not make the pool feasible.
func (st *solveState) withoutGangs(ctx context.Context, pl pool, pm *poolModel) (*poolSolution, bool, error) {
	if !st.in.mayLeaveOut(pl) {
		return nil, false, nil
	}
	left, err := st.gangsLeftOut(ctx, pl, pm)
	if err != nil {
		return nil, true, err
	}
	if left == nil {
		return nil, false, nil
	}
	sol, err := st.solveMILP(ctx, st.in.leaveOut(pl, left))
	return sol, true, err
}

// gangsLeftOut returns the gangs of pool pl (model pm) that cannot fit
// together, by the fewest left out: when the pool is feasible once some of
// its gangs are left out (the budget aside, whose infeasibility stays an
// error), a MILP over pm's rows with a "not placed" column in each gang's
// row, minimising how many are taken; of the ways to leave that many out,
// the one of least cost (the same MILP at the pool's costs with at most
// that many taken). It returns nil when none need be left out — the pool is
// feasible as it is, the budget aside — or leaving gangs out does not make
// it feasible; an error only when ctx ends.
func (st *solveState) gangsLeftOut(ctx context.Context, pl pool, pm *poolModel) (map[int]bool, error) {
	in := st.in
	var gangs []int
	for _, w := range pl.ws {
		if in.ws[w].gang {
			gangs = append(gangs, w)
		}
	}
	if len(gangs) == 0 {
		return nil, nil
	}
	var solver lp.Solver = builtinMIP{}
	if in.s.Solver == CBC {
		solver = lp.CBC{Path: in.s.CBCPath}
	}
	fewest := withDropColumns(pm, gangs, false, -1)
	r, err := solver.Solve(ctx, fewest, lp.Options{NodeLimit: in.s.NodeLimit})
	st.stats.Iterations += r.Iterations
	st.stats.Nodes += r.Nodes
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil || !r.HasSolution() {
		return nil, nil
	}
	n := len(pm.prob.Cost)
	x := r.X
	most := 0
	for i := range gangs {
		if x[n+i] > 0.5 {
			most++
		}
	}
	if most == 0 {
		return nil, nil
	}
	least := withDropColumns(pm, gangs, true, most)
	if r2, err := solver.Solve(ctx, least, lp.Options{Gap: in.s.Gap, NodeLimit: in.s.NodeLimit}); err == nil && r2.HasSolution() {
		st.stats.Iterations += r2.Iterations
		st.stats.Nodes += r2.Nodes
		x = r2.X
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	left := map[int]bool{}
	for i, w := range gangs {
		if x[n+i] > 0.5 {
			left[w] = true
		}
	}
	for _, w := range gangs {
		if !left[w] {
			continue
		}
		wd := &in.ws[w]
		wd.dropped = true
		err := fmt.Errorf("%w: no run of the gang fits the capacity left by the rest of the portfolio before its deadline (%d of the %d gangs that share its offers fit at most)",
			ErrStock, len(gangs)-most, len(gangs))
		u := Unplaced{Workload: wd.w.Name, Err: &UnplacedError{Workload: wd.w.Name, Err: err}}
		at := len(in.unplaced)
		for i, v := range in.unplaced {
			if slices.IndexFunc(in.p.Workloads, func(x workload.Workload) bool { return x.Name == v.Workload }) > wd.idx {
				at = i
				break
			}
		}
		in.unplaced = slices.Insert(in.unplaced, at, u)
	}
	return left, nil
}

// leaveOut returns pool pl without the workloads in left.
func (in *instance) leaveOut(pl pool, left map[int]bool) pool {
	rest := pool{os: pl.os}
	for _, w := range pl.ws {
		if !left[w] {
			rest.ws = append(rest.ws, w)
		}
	}
	return rest
}

// mayLeaveOut reports whether gangsLeftOut can leave a gang of pool pl
// out: whether some gang of it has no run that fits whatever the rest of
// the pool does — one on capacity of unlimited stock (committed capacity
// with a commitment covering every stretch of the run, or pay-as-you-go)
// that the spot share does not rule out. When every gang has such a run,
// the pool is feasible with all its gangs whenever it is without them, the
// budget aside, so none is left out.
func (in *instance) mayLeaveOut(pl pool) bool {
	for _, w := range pl.ws {
		wd := &in.ws[w]
		if wd.gang && !slices.ContainsFunc(wd.runs, in.fitsAnyway) {
			return true
		}
	}
	return false
}

// fitsAnyway reports whether run r fits whatever else its pool does (see
// mayLeaveOut).
func (in *instance) fitsAnyway(r gangRun) bool {
	od := &in.os[in.pairs[r.q].k]
	if od.dominated || !math.IsInf(od.stock, 1) || od.spot && in.s.MaxSpotShare > 0 && in.s.MaxSpotShare < 1 {
		return false
	}
	if !od.committed {
		return true
	}
	for s := r.first; s <= r.last; s++ {
		if !slices.ContainsFunc(od.commits, func(c commit) bool { return c.covers(s) }) {
			return false
		}
	}
	return true
}

// withDropColumns returns pm's problem with a binary "not placed" column
// for each gang in its gang row; with costs, at the pool's costs and with
// at most most of them taken, otherwise costing 1 each and nothing else
// costing anything. The budget row is relaxed.
func withDropColumns(pm *poolModel, gangs []int, costs bool, most int) *lp.Problem {
	p := *pm.prob
	n, m := len(p.Cost), len(p.RowLower)
	p.Cost = make([]float64, n, n+len(gangs))
	if costs {
		copy(p.Cost, pm.prob.Cost)
	}
	p.ColLower = slices.Clone(p.ColLower)
	p.ColUpper = slices.Clone(p.ColUpper)
	p.Integer = slices.Clone(p.Integer)
	if p.ColNames != nil {
		p.ColNames = slices.Clone(p.ColNames)
	}
	p.RowLower, p.RowUpper = slices.Clone(p.RowLower), slices.Clone(p.RowUpper)
	if p.RowNames != nil {
		p.RowNames = slices.Clone(p.RowNames)
	}
	if pm.budgetRow >= 0 {
		p.RowUpper[pm.budgetRow] = math.Inf(1)
	}
	if costs {
		p.RowLower, p.RowUpper = append(p.RowLower, math.Inf(-1)), append(p.RowUpper, float64(most))
		if p.RowNames != nil {
			p.RowNames = append(p.RowNames, "unplaced")
		}
	}
	a := p.A
	a.Start = slices.Clone(a.Start)
	a.Index = slices.Clone(a.Index)
	a.Value = slices.Clone(a.Value)
	for _, w := range gangs {
		c := 1.0
		if costs {
			c = 0
		}
		p.Cost = append(p.Cost, c)
		p.ColLower, p.ColUpper, p.Integer = append(p.ColLower, 0), append(p.ColUpper, 1), append(p.Integer, true)
		if p.ColNames != nil {
			p.ColNames = append(p.ColNames, "u_"+itoa(w))
		}
		a.Index, a.Value = append(a.Index, int32(pm.gangRow[w])), append(a.Value, 1)
		if costs {
			a.Index, a.Value = append(a.Index, int32(m)), append(a.Value, 1)
		}
		a.Start = append(a.Start, len(a.Index))
	}
	a.Cols, a.Rows = len(p.Cost), len(p.RowLower)
	p.A = a
	return &p
}
