package merit

import (
	"fmt"
	"math"
)

// StockSavings returns, for every offer k, the exact saving of extraGPUs[k]
// more GPUs of its stock: s.CostTotal minus the optimum of p with
// LimitGPUs[k] raised by extraGPUs[k] (the usable stock is then rounded
// down to whole nodes as usual), for the divisible problem of Solve. s must
// be Solve(p); an offer whose stock value s.StockValue[k] is 0, or whose
// limit is +Inf, saves exactly 0 (a stock value bounds the saving:
// 0 ≤ saving ≤ μ_k·δ) and costs nothing, as does an extra amount of 0 (to
// skip an offer); every other offer costs one Solve (127 re-solves, about
// 2 s of CPU, for one more 8-GPU node of every offer at 720 slices × 200
// offers: ask for the offers worth reporting).
//
// Errors: ErrInvalid for a bad problem, a solution without duals or an
// extra amount that is NaN, negative or above MaxQuantity.
func StockSavings(p Problem, s Solution, extraGPUs []float64) ([]float64, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(s.StockValue) != len(p.Offers) || len(extraGPUs) != len(p.Offers) {
		return nil, fmt.Errorf("%w: %d stock values and %d extra amounts for %d offers (want a solution of Solve)",
			ErrInvalid, len(s.StockValue), len(extraGPUs), len(p.Offers))
	}
	saving := make([]float64, len(p.Offers))
	for k, extra := range extraGPUs {
		if math.IsNaN(extra) || extra < 0 || extra > MaxQuantity {
			return nil, fmt.Errorf("%w: extraGPUs[%d] = %g, want finite, ≥ 0 and ≤ %g", ErrInvalid, k, extra, float64(MaxQuantity))
		}
		if s.StockValue[k] == 0 || extra == 0 || math.IsInf(p.Offers[k].LimitGPUs, 1) {
			continue
		}
		more := p
		more.Offers = append([]Offer(nil), p.Offers...)
		more.Offers[k].LimitGPUs += extra
		r, err := Solve(more)
		if err != nil {
			return nil, err
		}
		saving[k] = math.Max(0, s.CostTotal-r.CostTotal)
	}
	return saving, nil
}
