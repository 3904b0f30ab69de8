package placement

import (
	"math"

	"github.com/gputco/gputco/placement/lp"
)

// stockValue is what one more node of offer k's stock saves in the
// relaxation r, by its duals: the stock S_k is in the node count's upper
// bound (committed capacity), in the stock rows Σ_w x_wkt ≤ g_k·S_k, and in
// the upper bound g_k·S_k of every use column that the stock caps below the
// workload's own bound (a service's demand in the slice, a job's width) —
// the model needs no stock row where the use columns' bounds already keep
// the stock. The derivative of the optimum by S_k sums the duals of all
// three: −rc(n_k) at its bound, −g_k·dual of each stock row, −g_k·rc of each
// capped use column at its bound. With a degenerate optimum it is one
// subgradient (exact for small changes otherwise).
func (pm *poolModel) stockValue(in *instance, r *lp.Result, k int) float64 {
	od := &in.os[k]
	if math.IsInf(od.stock, 1) {
		return 0
	}
	const tol = 1e-9
	v := 0.0
	atUpper := func(j int) bool { return r.X[j] >= pm.prob.ColUpper[j]-tol*max(1, pm.prob.ColUpper[j]) }
	for _, j := range pm.nCols[k] { // over time, one per commitment
		if j >= 0 && atUpper(j) && r.ReducedCost[j] < 0 {
			v -= r.ReducedCost[j]
		}
	}
	for _, i := range pm.holdRow[k] { // commitments that overlap share the stock
		if i >= 0 {
			v -= r.RowDual[i]
		}
	}
	for _, i := range pm.stockRow[k] {
		if i >= 0 && !od.committed {
			v -= r.RowDual[i] * od.gpn
		}
	}
	pm.stockBounded(in, k, func(_, j int, _ float64) {
		if atUpper(j) && r.ReducedCost[j] < 0 {
			v -= r.ReducedCost[j] * od.gpn
		}
	})
	return v
}

// stockBounded calls fn for each use column j of pair q on offer k whose
// upper bound the offer's stock sets: the stock's GPUs below the use's own
// bound own (a service's demand in the slice, a job's width).
func (pm *poolModel) stockBounded(in *instance, k int, fn func(q, j int, own float64)) {
	od := &in.os[k]
	limit := od.stock * od.gpn
	for _, q := range od.pairs {
		xs, ok := pm.xCol[q]
		if !ok {
			continue
		}
		wd := &in.ws[in.pairs[q].w]
		for t, j := range xcols(xs) {
			if j < 0 {
				continue
			}
			own := wd.width
			if wd.service {
				own = wd.demand[t]
			}
			if limit < own {
				fn(q, j, own)
			}
		}
	}
}
