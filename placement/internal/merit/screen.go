package merit

import "math"

// Screening is the screening-curve answer: every layer of the load-duration
// curve goes to the offer whose cost line F_k + v_k·h is lowest at the
// layer's duration h, ignoring stock limits.
type Screening struct {
	// CostTotal is Σ_i w_i·min_k(F_k + v_k·h_i) over the layers (width w_i,
	// duration h_i): the optimum of the problem without stock limits, hence
	// a lower bound on the optimum with them.
	CostTotal float64
	// CapacityGPUs is the capacity each offer (input order) takes: the
	// total width of the layers it wins. Stock limits are ignored.
	CapacityGPUs []float64
	// Exact reports that no capacity exceeds its offer's usable stock
	// limit: then CostTotal is the optimum and CapacityGPUs with the
	// merit-order dispatch is an optimal solution.
	Exact bool
}

// Screen returns the screening curve of p (lower envelope of the offers'
// cost lines over the load-duration curve) in O(T log T + T·K). Ties go to
// the offer earliest in merit order. Errors: as Solve.
func Screen(p Problem) (Screening, error) {
	pl, err := newPool(p)
	if err != nil {
		return Screening{}, err
	}
	k := len(pl.order)
	x := make([]float64, k)
	total, lower := 0.0, 0.0
	for j, level := range pl.ldc.LevelGPUs {
		h := pl.ldc.DurationHours[j]
		best, bestCost := 0, math.Inf(1)
		for i := range k {
			if c := pl.fixed[i] + pl.vari[i]*h; c < bestCost {
				best, bestCost = i, c
			}
		}
		w := level - lower
		lower = level
		x[best] += w
		total += w * bestCost
	}
	sc := Screening{CostTotal: total, CapacityGPUs: make([]float64, k), Exact: true}
	for i, o := range pl.order {
		sc.CapacityGPUs[o] = x[i]
		if x[i] > pl.limit[i] {
			sc.Exact = false
		}
	}
	return sc, nil
}
