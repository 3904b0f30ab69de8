package merit

import (
	"errors"
	"fmt"
	"math"
)

// Offer is one way to supply the pool's GPUs, as plain float coefficients.
// The zero value is an offer with no stock (it can serve nothing).
type Offer struct {
	// FixedPerGPU is F: the money paid per GPU of capacity held over the
	// whole horizon, used or not (0 for pay-as-you-go offers). Finite, ≥ 0.
	FixedPerGPU float64
	// VariablePerGPUHour is v: the money paid per GPU-hour actually used.
	// Finite, ≥ 0.
	VariablePerGPUHour float64
	// LimitGPUs is L: the most GPUs of this offer that can be held at once;
	// math.Inf(1) for no limit. ≥ 0, not NaN.
	LimitGPUs float64
	// NodeGPUs is g: GPUs per node when capacity of this offer is bought in
	// whole nodes; 0 means divisible capacity. Where g > 0 the usable stock
	// is LimitGPUs rounded down to whole nodes, and SolveNodes restricts the
	// capacity of a committed offer (FixedPerGPU > 0) to whole nodes.
	// Finite, ≥ 0.
	NodeGPUs float64
}

// Problem is a single pool: one demand curve over T time slices and K offers,
// every one of which can serve that demand.
//
// It asks for capacities cap_k and dispatch use_{k,t} that
//
//	minimise  Σ_k F_k·cap_k + Σ_{k,t} v_k·Δ_t·use_{k,t}
//	s.t.      Σ_k use_{k,t} ≥ d_t          for every slice t
//	          0 ≤ use_{k,t} ≤ cap_k ≤ L_k  for every offer k and slice t
//
// A Problem is read, never modified, by the functions of this package.
type Problem struct {
	// DemandGPUs is d_t, the GPUs needed in each slice. At least one slice;
	// each finite and ≥ 0.
	DemandGPUs []float64
	// Hours is Δ_t, the length of each slice in hours (weights: scaling a
	// representative period to the horizon is the caller's business). Nil
	// means one hour per slice; otherwise the same length as DemandGPUs,
	// each finite and > 0.
	Hours []float64
	// Offers are the K offers, at least one.
	Offers []Offer
}

// MaxQuantity bounds every quantity and coefficient of a Problem (GPUs,
// hours, money per GPU or GPU-hour; stock limits may also be +Inf), so that
// every sum the solvers form stays finite and exact enough.
const MaxQuantity = 1e12

// Validate reports every problem of p at once (errors.Join), each wrapping
// ErrInvalid and naming the field and the bad value: NaN, infinite,
// negative or above MaxQuantity where the field's comment forbids it. It
// does not check feasibility (see InfeasibleError).
func (p Problem) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...))
	}
	huge := func(name string, i int, v float64) {
		if v > MaxQuantity && !math.IsInf(v, 1) {
			bad("%s[%d] = %g, above the bound %g", name, i, v, float64(MaxQuantity))
		}
	}
	for t, d := range p.DemandGPUs {
		huge("DemandGPUs", t, d)
	}
	for t, h := range p.Hours {
		huge("Hours", t, h)
	}
	for k, o := range p.Offers {
		huge("Offers.FixedPerGPU", k, o.FixedPerGPU)
		huge("Offers.VariablePerGPUHour", k, o.VariablePerGPUHour)
		huge("Offers.LimitGPUs", k, o.LimitGPUs)
		huge("Offers.NodeGPUs", k, o.NodeGPUs)
	}
	if len(p.DemandGPUs) == 0 {
		bad("no demand slices")
	}
	for t, d := range p.DemandGPUs {
		if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
			bad("DemandGPUs[%d] = %g, want finite and ≥ 0", t, d)
		}
	}
	if p.Hours != nil && len(p.Hours) != len(p.DemandGPUs) {
		bad("len(Hours) = %d, want len(DemandGPUs) = %d", len(p.Hours), len(p.DemandGPUs))
	}
	for t, h := range p.Hours {
		if math.IsNaN(h) || math.IsInf(h, 0) || h <= 0 {
			bad("Hours[%d] = %g, want finite and > 0", t, h)
		}
	}
	if len(p.Offers) == 0 {
		bad("no offers")
	}
	for k, o := range p.Offers {
		if math.IsNaN(o.FixedPerGPU) || math.IsInf(o.FixedPerGPU, 0) || o.FixedPerGPU < 0 {
			bad("Offers[%d].FixedPerGPU = %g, want finite and ≥ 0", k, o.FixedPerGPU)
		}
		if math.IsNaN(o.VariablePerGPUHour) || math.IsInf(o.VariablePerGPUHour, 0) || o.VariablePerGPUHour < 0 {
			bad("Offers[%d].VariablePerGPUHour = %g, want finite and ≥ 0", k, o.VariablePerGPUHour)
		}
		if math.IsNaN(o.LimitGPUs) || o.LimitGPUs < 0 {
			bad("Offers[%d].LimitGPUs = %g, want ≥ 0 or +Inf", k, o.LimitGPUs)
		}
		if math.IsNaN(o.NodeGPUs) || math.IsInf(o.NodeGPUs, 0) || o.NodeGPUs < 0 {
			bad("Offers[%d].NodeGPUs = %g, want finite and ≥ 0", k, o.NodeGPUs)
		}
	}
	return errors.Join(errs...)
}

// hours returns Δ_t of slice t.
func (p Problem) hours(t int) float64 {
	if p.Hours == nil {
		return 1
	}
	return p.Hours[t]
}

// usableLimit is L_k rounded down to whole nodes where the offer has a node
// size.
func (o Offer) usableLimit() float64 {
	if o.NodeGPUs > 0 && !math.IsInf(o.LimitGPUs, 1) {
		return math.Floor(o.LimitGPUs/o.NodeGPUs) * o.NodeGPUs
	}
	return o.LimitGPUs
}

// Solution is a placement of one pool: capacities, dispatch and cost, with
// the LP duals when the solution comes from the divisible problem (Solve).
// Slices of a Solution are indexed like the Problem's offers and slices.
type Solution struct {
	// CostTotal is Σ_k F_k·cap_k + Σ_{k,t} v_k·Δ_t·use_{k,t} of this solution.
	CostTotal float64
	// CapacityGPUs is cap_k for every offer (input order).
	CapacityGPUs []float64
	// UseGPUs is use_{k,t}: UseGPUs[k][t] GPUs of offer k used in slice t.
	UseGPUs [][]float64
	// BoundTotal is a proven lower bound on the optimum of the problem
	// solved: CostTotal itself when the solution is proven optimal, less
	// when SolveNodes stopped at its node limit.
	BoundTotal float64
	// Nodes is cap_k / g_k for every committed offer (FixedPerGPU > 0) with
	// a node size, 0 for the others; set by SolveNodes only.
	Nodes []int

	// SlicePrice is an optimal dual p_t ≥ 0 of the demand row of slice t,
	// in money per GPU of demand in slice t (divide by Δ_t for money per
	// GPU-hour): one more GPU of demand in slice t costs at least p_t more,
	// exactly p_t at the margin when the dual is unique. Set by Solve only.
	SlicePrice []float64
	// LayerPrice is the optimal dual π_i of layer i of the load-duration
	// curve (NewLoadDuration(p).LevelGPUs[i]): the marginal cost, in money
	// per GPU, of raising every slice whose demand reaches that level by one
	// GPU; the last entry is the price of one more GPU of peak demand.
	// π_i = Σ of SlicePrice over the slices at or above level i. Set by
	// Solve only.
	LayerPrice []float64
	// StockValue is an optimal dual μ_k ≥ 0 of the stock limit of offer k,
	// in money per GPU of stock: δ more GPUs of its stock save at most
	// μ_k·δ, exactly μ_k·δ for small δ when the dual is unique; 0 for an
	// offer whose limit does not bind and for unlimited offers. The exact
	// saving of a whole extra node is Solve with the larger limit. Set by
	// Solve only.
	StockValue []float64
}
