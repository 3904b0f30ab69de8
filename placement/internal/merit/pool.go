package merit

import "sort"

// pool is a validated problem prepared for the dynamic programme: the
// load-duration curve and the offers in merit order.
type pool struct {
	p      Problem
	ldc    LoadDuration
	order  []int     // order[i] is the offer at merit position i
	fixed  []float64 // F, in merit order
	vari   []float64 // v, in merit order
	limit  []float64 // usable L, in merit order
	peak   float64   // P = max_t d_t
	energy float64   // H(P) = Σ_t Δ_t·d_t
}

// newPool validates p, checks that the stock covers the peak and sorts the
// offers into merit order: v ascending, ties by F ascending, then by index.
func newPool(p Problem) (*pool, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	k := len(p.Offers)
	pl := &pool{p: p, ldc: NewLoadDuration(p), order: make([]int, k)}
	for i := range pl.order {
		pl.order[i] = i
	}
	sort.SliceStable(pl.order, func(a, b int) bool {
		oa, ob := p.Offers[pl.order[a]], p.Offers[pl.order[b]]
		if oa.VariablePerGPUHour != ob.VariablePerGPUHour {
			return oa.VariablePerGPUHour < ob.VariablePerGPUHour
		}
		return oa.FixedPerGPU < ob.FixedPerGPU
	})
	pl.fixed = make([]float64, k)
	pl.vari = make([]float64, k)
	pl.limit = make([]float64, k)
	stock := 0.0
	for i, o := range pl.order {
		off := p.Offers[o]
		pl.fixed[i] = off.FixedPerGPU
		pl.vari[i] = off.VariablePerGPUHour
		pl.limit[i] = off.usableLimit()
		stock += pl.limit[i]
	}
	pl.peak = pl.ldc.PeakGPUs()
	pl.energy = pl.ldc.Energy(pl.peak)
	if stock < pl.peak {
		return nil, &InfeasibleError{PeakGPUs: pl.peak, StockGPUs: stock, ShortfallGPUs: pl.peak - stock}
	}
	return pl, nil
}

// workspace holds the buffers of one DP run, reused across the runs of a
// branch-and-bound search.
type workspace struct {
	segs, segs2   []segment // the current convex function and the next
	insAt, insLen []float64 // per stage: where the stage's segment went
	c             []float64 // per stage: the coefficient of G
	segments      int       // the most segments any stage held (a statistic)
}

func newWorkspace(k int) *workspace {
	return &workspace{insAt: make([]float64, k), insLen: make([]float64, k)}
}

// relax solves the divisible problem with box constraints lo_i ≤ x_i ≤ hi_i
// on the capacity of the offer at merit position i (see the package
// documentation for the derivation). It writes the capacities (merit order)
// into x and returns the optimal cost, or false when Σ hi < P.
func (pl *pool) relax(lo, hi, x []float64, ws *workspace) (float64, bool) {
	k := len(pl.order)
	total, lower := 0.0, 0.0
	for i := range k {
		total += hi[i]
		lower += lo[i]
	}
	if total < pl.peak {
		return 0, false
	}
	h := curve{ends: pl.ldc.LevelGPUs, slopes: pl.ldc.DurationHours, at: pl.ldc.Energy}
	c := chain{
		slope: pl.fixed, lo: lo, hi: hi, coef: ws.coef(pl.vari),
		curve: func(int) curve { return h },
		need:  pl.peak,
		// Some optimum has Q_K ≤ P + Σ lo (offers above the peak held at
		// their lower bound), so the domain is truncated there.
		limit:    pl.peak + lower,
		constant: pl.vari[k-1] * pl.energy,
	}
	return c.solve(x, ws), true
}
