package merit

import (
	"errors"
	"fmt"
	"math"
)

// Solve returns an optimal placement of the divisible problem — capacities
// in any amount up to each offer's usable stock (NodeGPUs only rounds the
// stock down to whole nodes) — computed exactly by the merit-order dynamic
// programme, with its dispatch and the LP duals (SlicePrice, StockValue).
//
// Errors: ErrInvalid (joined, see Problem.Validate) and *InfeasibleError
// when the usable stock is below the peak demand. Solve is deterministic:
// the same problem gives the same solution.
func Solve(p Problem) (Solution, error) {
	pl, err := newPool(p)
	if err != nil {
		return Solution{}, err
	}
	k := len(pl.order)
	lo := make([]float64, k)
	x := make([]float64, k)
	cost, _ := pl.relax(lo, pl.limit, x, newWorkspace(k))
	s := pl.solution(x)
	s.CostTotal, s.BoundTotal = cost, cost
	pl.duals(x, &s)
	return s, nil
}

// solution builds a Solution from capacities in merit order: capacities in
// input order and the merit-order dispatch. CostTotal is left to the caller.
func (pl *pool) solution(x []float64) Solution {
	k := len(pl.order)
	s := Solution{CapacityGPUs: make([]float64, k)}
	for i, o := range pl.order {
		s.CapacityGPUs[o] = x[i]
	}
	s.UseGPUs = pl.dispatch(x)
	return s
}

// dispatch fills every slice's demand from the offers in merit order, each
// up to its capacity x (merit order); the result is indexed in input order.
func (pl *pool) dispatch(x []float64) [][]float64 {
	d := pl.p.DemandGPUs
	use := make([][]float64, len(pl.order))
	buf := make([]float64, len(pl.order)*len(d))
	for i, o := range pl.order {
		use[o] = buf[i*len(d) : (i+1)*len(d) : (i+1)*len(d)]
	}
	for t, dt := range d {
		left := dt
		for i, o := range pl.order {
			if left <= 0 {
				break
			}
			u := x[i]
			if left < u {
				u = left
			}
			use[o][t] = u
			left -= u
		}
	}
	return use
}

// Dispatch returns the cheapest use of the given capacities (input order):
// in every slice, demand is filled from the offers in merit order (lowest
// variable cost first), each up to its capacity. It is optimal for fixed
// capacities. Errors: ErrInvalid for a bad problem or capacity vector, and
// *InfeasibleError when the capacities cannot meet some slice's demand.
func Dispatch(p Problem, capacityGPUs []float64) ([][]float64, error) {
	pl, err := newPool(p)
	if err != nil {
		return nil, err
	}
	x, err := pl.merit(capacityGPUs)
	if err != nil {
		return nil, err
	}
	return pl.dispatch(x), nil
}

// merit validates capacities (input order) and returns them in merit order.
func (pl *pool) merit(capacityGPUs []float64) ([]float64, error) {
	if len(capacityGPUs) != len(pl.order) {
		return nil, fmt.Errorf("%w: %d capacities for %d offers", ErrInvalid, len(capacityGPUs), len(pl.order))
	}
	x := make([]float64, len(pl.order))
	total := 0.0
	for i, o := range pl.order {
		c := capacityGPUs[o]
		if math.IsNaN(c) || math.IsInf(c, 0) || c < 0 {
			return nil, fmt.Errorf("%w: capacity[%d] = %g, want finite and ≥ 0", ErrInvalid, o, c)
		}
		x[i] = c
		total += c
	}
	if total < pl.peak {
		return nil, &InfeasibleError{PeakGPUs: pl.peak, StockGPUs: total, ShortfallGPUs: pl.peak - total}
	}
	return x, nil
}

// Cost recomputes the objective of a solution from its capacities and use,
// Σ_k F_k·cap_k + Σ_{k,t} v_k·Δ_t·use_{k,t}, independently of how the
// solution was found. It checks only the shapes (ErrInvalid), not
// feasibility (see Check).
func Cost(p Problem, s Solution) (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	if err := shape(p, s); err != nil {
		return 0, err
	}
	total := 0.0
	for k, o := range p.Offers {
		total += o.FixedPerGPU * s.CapacityGPUs[k]
		sum := 0.0
		for t, u := range s.UseGPUs[k] {
			sum += p.hours(t) * u
		}
		total += o.VariablePerGPUHour * sum
	}
	return total, nil
}

func shape(p Problem, s Solution) error {
	if len(s.CapacityGPUs) != len(p.Offers) || len(s.UseGPUs) != len(p.Offers) {
		return fmt.Errorf("%w: solution has %d capacities and %d use rows for %d offers",
			ErrInvalid, len(s.CapacityGPUs), len(s.UseGPUs), len(p.Offers))
	}
	if s.Nodes != nil && len(s.Nodes) != len(p.Offers) {
		return fmt.Errorf("%w: solution has %d node counts for %d offers", ErrInvalid, len(s.Nodes), len(p.Offers))
	}
	for k, u := range s.UseGPUs {
		if len(u) != len(p.DemandGPUs) {
			return fmt.Errorf("%w: UseGPUs[%d] has %d slices, want %d", ErrInvalid, k, len(u), len(p.DemandGPUs))
		}
	}
	return nil
}

// Check reports every way in which s violates p's constraints, each
// violation larger than tol (absolute, in GPUs): demand met in every slice
// (Σ_k use_{k,t} ≥ d_t), 0 ≤ use_{k,t} ≤ cap_k ≤ L_k (the usable limit,
// rounded down to whole nodes), and, where s.Nodes is set, cap_k = Nodes[k]·g_k.
// A nil error means s is feasible. Errors wrap ErrInvalid.
func Check(p Problem, s Solution, tol float64) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if err := shape(p, s); err != nil {
		return err
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...))
	}
	for t, d := range p.DemandGPUs {
		sum := 0.0
		for k := range p.Offers {
			sum += s.UseGPUs[k][t]
		}
		if !(sum >= d-tol) {
			bad("slice %d: use %g GPUs < demand %g", t, sum, d)
		}
	}
	for k, o := range p.Offers {
		c := s.CapacityGPUs[k]
		if !(c >= -tol) || !(c <= o.usableLimit()+tol) {
			bad("offer %d: capacity %g GPUs outside [0, %g]", k, c, o.usableLimit())
		}
		for t, u := range s.UseGPUs[k] {
			if !(u >= -tol) || !(u <= c+tol) {
				bad("offer %d, slice %d: use %g GPUs outside [0, capacity %g]", k, t, u, c)
			}
		}
		if s.Nodes != nil && o.NodeGPUs > 0 && o.FixedPerGPU > 0 {
			if math.Abs(float64(s.Nodes[k])*o.NodeGPUs-c) > tol {
				bad("offer %d: capacity %g GPUs is not %d nodes of %g", k, c, s.Nodes[k], o.NodeGPUs)
			}
		}
	}
	return errors.Join(errs...)
}
