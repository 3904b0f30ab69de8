package tco

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// Param is an input that Sensitivity varies.
type Param int

// Parameters Sensitivity can vary.
const (
	// Utilization sets Assumptions.Utilization (a fraction in (0, 1]) of a
	// service; a finite job is an error.
	Utilization Param = iota
	// PriceScale multiplies every price of the offer's pricing (via
	// provider.Scaler; 1 is the list price).
	PriceScale
	// HorizonYears sets Assumptions.Horizon, in years of 365 days.
	HorizonYears
	// DiscountRate sets Assumptions.DiscountRatePerYear.
	DiscountRate
	// EnergyPrice sets the price per kWh of an offer whose pricing (or the
	// pricing inside its credits) implements provider.EnergyPricer, as Owned
	// does (the value is converted to a decimal: a sweep input, not an amount
	// that is summed).
	EnergyPrice
)

// String names the parameter.
func (p Param) String() string {
	switch p {
	case Utilization:
		return "utilization"
	case PriceScale:
		return "price scale"
	case HorizonYears:
		return "horizon (years)"
	case DiscountRate:
		return "discount rate"
	case EnergyPrice:
		return "energy price per kWh"
	}
	return fmt.Sprintf("param(%d)", int(p))
}

// SensitivityPoint is the cost at one value of the varied input.
type SensitivityPoint struct {
	// Value is the input's value.
	Value float64
	// Total and PresentValue are the report's.
	Total, PresentValue decimal.Decimal
	// CostPerUsefulGPUHour is the report's.
	CostPerUsefulGPUHour decimal.Decimal
}

// Sensitivity evaluates w on o under a once for every value of param, the
// other inputs fixed, and returns the series in the order of values — ready
// for a tornado or break-even chart. It fails on the first value Evaluate
// rejects, naming it; PriceScale needs a pricing that implements
// provider.Scaler and EnergyPrice one that implements provider.EnergyPricer.
func Sensitivity(w workload.Workload, o provider.Offer, a Assumptions, param Param, values []float64) ([]SensitivityPoint, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if param == Utilization && !w.IsService() {
		return nil, fmt.Errorf("tco: sensitivity of %s: %s is a finite job, whose cost does not depend on utilization: %w",
			param, quoted(w.Name), ErrInvalidAssumptions)
	}
	out := make([]SensitivityPoint, 0, len(values))
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("tco: sensitivity of %s: value %v: %w", param, v, ErrInvalidAssumptions)
		}
		ov, av := o, a
		switch param {
		case Utilization:
			av.Utilization = v
		case PriceScale:
			s, ok := o.Pricing.(provider.Scaler)
			if !ok || v < 0 {
				return nil, fmt.Errorf("tco: sensitivity of %s: value %v on %s pricing: %w", param, v, o.Pricing.Mode(), ErrInvalidAssumptions)
			}
			ov.Pricing = s.Scale(dec(v))
		case HorizonYears:
			if v <= 0 || v > 200 {
				return nil, fmt.Errorf("tco: sensitivity of %s: value %v: %w", param, v, ErrInvalidAssumptions)
			}
			av.Horizon = time.Duration(v * float64(provider.Year))
		case DiscountRate:
			av.DiscountRatePerYear = v
		case EnergyPrice:
			np, ok := provider.WithEnergyPrice(o.Pricing, dec(v))
			if !ok || v < 0 {
				return nil, fmt.Errorf("tco: sensitivity of %s: value %v on %s pricing: %w", param, v, o.Pricing.Mode(), ErrInvalidAssumptions)
			}
			ov.Pricing = np
		default:
			return nil, fmt.Errorf("tco: sensitivity: unknown parameter %v: %w", param, ErrInvalidAssumptions)
		}
		r, err := Evaluate(w, ov, av)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("tco: sensitivity of %s at %v", param, v), err)
		}
		out = append(out, SensitivityPoint{Value: v, Total: r.Total, PresentValue: r.PresentValue, CostPerUsefulGPUHour: r.CostPerUsefulGPUHour})
	}
	return out, nil
}
