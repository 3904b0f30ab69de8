package merit

import (
	"math"
	"sort"
)

// duals sets s.SlicePrice and s.StockValue from an optimal solution x
// (merit order) of the divisible problem, by the construction of the
// package documentation ("Duals"): chain multipliers λ from the KKT
// conditions by interval propagation, stock values μ from λ, layer prices
// π as the envelope of the cost lines raised by μ, slice prices from π.
func (pl *pool) duals(x []float64, s *Solution) {
	k := len(pl.order)
	tol := 1e-12 * pl.peak // rounding of the cumulative capacities
	inf := math.Inf(1)
	// I_i: the subdifferential of F_i·x on [0, L_i] at x_i.
	ilo, ihi := make([]float64, k), make([]float64, k)
	for i := range k {
		switch {
		case pl.limit[i] <= tol:
			ilo[i], ihi[i] = -inf, inf
		case x[i] <= tol:
			ilo[i], ihi[i] = -inf, pl.fixed[i]
		case x[i] >= pl.limit[i]-tol:
			ilo[i], ihi[i] = pl.fixed[i], inf
		default:
			ilo[i], ihi[i] = pl.fixed[i], pl.fixed[i]
		}
	}
	ilo[k-1] = math.Max(ilo[k-1], 0) // multiplier of Q_K ≥ P
	// B_i: λ_i − λ_{i+1} ∈ (v_{i+1} − v_i)·[h(Q_i+), h(Q_i−)].
	blo, bhi := make([]float64, k), make([]float64, k)
	acc := 0.0
	for i := range k {
		acc += x[i]
		if i < k-1 {
			below, above := pl.ldc.slopes(acc, tol)
			dv := pl.vari[i+1] - pl.vari[i]
			blo[i], bhi[i] = dv*above, dv*below
		}
	}
	// Forward: S_i, the values of λ_i consistent with the chain below.
	slo, shi := make([]float64, k), make([]float64, k)
	slo[0], shi[0] = ilo[0], ihi[0]
	for i := 0; i < k-1; i++ {
		slo[i+1] = math.Max(slo[i]-bhi[i], ilo[i+1])
		shi[i+1] = math.Min(shi[i]-blo[i], ihi[i+1])
	}
	// Backward: the least consistent λ, from the top down.
	lambda := make([]float64, k)
	lambda[k-1] = slo[k-1]
	if lambda[k-1] > shi[k-1] {
		lambda[k-1] = shi[k-1] // rounding only: an optimum has multipliers
	}
	for i := k - 2; i >= 0; i-- {
		l := math.Max(slo[i], lambda[i+1]+blo[i])
		if h := math.Min(shi[i], lambda[i+1]+bhi[i]); l > h {
			l = h
		}
		lambda[i] = l
	}
	// Stock values μ from λ, then layer prices as the lower envelope
	// π_j = min_k F_k + μ_k + v_k·h_j: dual feasible by construction, and
	// optimal (zero gap) when λ satisfies the KKT conditions.
	mu := make([]float64, k)
	for i := range k {
		if !math.IsInf(pl.limit[i], 1) {
			mu[i] = math.Max(0, lambda[i]-pl.fixed[i])
		}
	}
	levels, durations := pl.ldc.LevelGPUs, pl.ldc.DurationHours
	m := len(levels)
	price := make([]float64, m+1) // price[m] = 0 above the peak
	for j := range m {
		best := math.Inf(1)
		for i := range k {
			best = math.Min(best, pl.fixed[i]+mu[i]+pl.vari[i]*durations[j])
		}
		price[j] = best
	}
	// Slice prices: the drop of π at level j spread over the slices at
	// that level in proportion to their hours.
	rate := make([]float64, m) // money per GPU-hour at level j
	for j := range m {
		below := 0.0
		if j+1 < m {
			below = durations[j+1]
		}
		rate[j] = math.Max(0, (price[j]-price[j+1])/(durations[j]-below))
	}
	s.LayerPrice = price[:m:m]
	d := pl.p.DemandGPUs
	s.SlicePrice = make([]float64, len(d))
	for t, dt := range d {
		if dt <= 0 {
			continue
		}
		j := sort.SearchFloat64s(levels, dt)
		s.SlicePrice[t] = rate[j] * pl.p.hours(t)
	}
	s.StockValue = make([]float64, k)
	for i, o := range pl.order {
		s.StockValue[o] = mu[i]
	}
}
