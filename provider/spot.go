package provider

import (
	"math"
	"time"

	"github.com/shopspring/decimal"
)

// Spot is interruptible capacity: billed like Metered, but the provider may
// take a node back at any moment. Interruptions arrive as a Poisson process at
// InterruptionRatePerHour per node; the tco package prices their cost (lost
// work, checkpoints, restarts). Charges bills only the metered time.
//
// The zero Spot is free and never interrupted.
type Spot struct {
	// RatePerHour is the spot price of one node for one hour.
	RatePerHour decimal.Decimal
	// Increment is the billing increment; zero bills pro rata.
	Increment time.Duration
	// Minimum is the minimum billed time of a run; zero means one Increment.
	Minimum time.Duration
	// InterruptionRatePerHour is the mean number of interruptions per node-hour;
	// zero means never interrupted. A 5 % monthly interruption frequency is
	// about 0.05/730 per hour.
	InterruptionRatePerHour float64
	// Notice is the warning given before an interruption (AWS: 2 minutes).
	Notice time.Duration
}

// Mode returns "spot".
func (s Spot) Mode() string { return "spot" }

// Metered returns the billing part of s.
func (s Spot) Metered() Metered {
	return Metered{RatePerHour: s.RatePerHour, Increment: s.Increment, Minimum: s.Minimum}
}

// MeanTimeToInterruption returns 1/InterruptionRatePerHour, or zero when s is
// never interrupted (or the rate is not a positive finite number). The result
// saturates at the largest time.Duration.
func (s Spot) MeanTimeToInterruption() time.Duration {
	r := s.InterruptionRatePerHour
	if !(r > 0) || math.IsInf(r, 0) {
		return 0
	}
	h := 1 / r
	if h*float64(time.Hour) >= float64(math.MaxInt64) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(h * float64(time.Hour))
}

// WithMeanTimeToInterruption returns s with the interruption rate set to one
// per mtti; a zero or negative mtti means never interrupted.
func (s Spot) WithMeanTimeToInterruption(mtti time.Duration) Spot {
	if mtti <= 0 {
		s.InterruptionRatePerHour = 0
		return s
	}
	s.InterruptionRatePerHour = float64(time.Hour) / float64(mtti)
	return s
}

// Validate reports the problems of the metered part, a negative, NaN or
// infinite interruption rate and a negative notice.
func (s Spot) Validate() error {
	var p problems
	s.Metered().validate(&p)
	p.quantity("interruptionRatePerHour", s.InterruptionRatePerHour, 0, math.MaxFloat64)
	p.duration("notice", s.Notice)
	return p.err()
}

// Charges bills every run of u at the spot rate, as Metered does, in one
// Compute charge labelled "spot compute".
func (s Spot) Charges(u Usage) ([]Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	amount := perHour(s.RatePerHour, s.Metered().billedNodeNs(u))
	return []Charge{{Category: Compute, Label: "spot compute", Amount: amount, Timing: Spread}}, nil
}

// Scale returns s with its rate multiplied by k.
func (s Spot) Scale(k decimal.Decimal) Pricing {
	s.RatePerHour = s.RatePerHour.Mul(k)
	return s
}

// BilledDuration returns the billed time of one run, as Metered does.
func (s Spot) BilledDuration(length time.Duration) time.Duration {
	return s.Metered().BilledDuration(length)
}

// Granularity returns the billing increment and minimum (see Metering).
func (s Spot) Granularity() (increment, minimum time.Duration) { return s.Increment, s.Minimum }

// Interruptions returns the interruption rate per node-hour and the notice
// (see Interruptible).
func (s Spot) Interruptions() (ratePerHour float64, notice time.Duration) {
	return s.InterruptionRatePerHour, s.Notice
}

// Rates returns one PerBilledNodeHour rate, the "spot compute" line (see Linear).
func (s Spot) Rates(horizon time.Duration) ([]Rate, error) {
	if err := ratesCheck(s, horizon); err != nil {
		return nil, err
	}
	return []Rate{{Category: Compute, Label: "spot compute", Timing: Spread, Basis: PerBilledNodeHour, Amount: s.RatePerHour}}, nil
}

// AddPerNodeHour returns s with amount added to its rate, clamped at zero.
func (s Spot) AddPerNodeHour(amount decimal.Decimal) (Pricing, bool) {
	var cl bool
	s.RatePerHour, cl = clampAdd(s.RatePerHour, amount)
	return s, cl
}
