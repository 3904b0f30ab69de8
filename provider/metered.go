package provider

import (
	"math"
	"math/bits"
	"time"

	"github.com/shopspring/decimal"
)

// Metered bills node time as it is used: each run is billed
// max(Minimum, ⌈Length/Increment⌉·Increment) at RatePerHour per node.
// Per-second, per-minute and hourly on-demand billing are settings of this one
// type; see PerSecond, PerMinute, Hourly and ProRata.
//
// The zero Metered is free, pro-rata billing.
type Metered struct {
	// RatePerHour is the price of one node for one hour.
	RatePerHour decimal.Decimal
	// Increment is the billing increment; zero bills pro rata (to the nanosecond).
	Increment time.Duration
	// Minimum is the minimum billed time of a run that starts. Zero means one
	// Increment. A non-zero Minimum shorter than Increment is invalid.
	Minimum time.Duration
}

// PerSecond returns metered billing in 1-second increments with the given
// minimum (AWS and GCP bill Linux VMs per second with a 60-second minimum).
func PerSecond(ratePerHour decimal.Decimal, minimum time.Duration) Metered {
	return Metered{RatePerHour: ratePerHour, Increment: time.Second, Minimum: minimum}
}

// PerMinute returns metered billing in 1-minute increments with a 1-minute
// minimum.
func PerMinute(ratePerHour decimal.Decimal) Metered {
	return Metered{RatePerHour: ratePerHour, Increment: time.Minute, Minimum: time.Minute}
}

// Hourly returns metered billing in whole hours.
func Hourly(ratePerHour decimal.Decimal) Metered {
	return Metered{RatePerHour: ratePerHour, Increment: time.Hour, Minimum: time.Hour}
}

// ProRata returns metered billing to the nanosecond with no minimum: the
// lower bound of every other setting at the same rate.
func ProRata(ratePerHour decimal.Decimal) Metered {
	return Metered{RatePerHour: ratePerHour}
}

// Mode returns "metered".
func (m Metered) Mode() string { return "metered" }

// Validate reports a negative rate, a negative increment or minimum, and a
// non-zero minimum shorter than the increment.
func (m Metered) Validate() error {
	var p problems
	m.validate(&p)
	return p.err()
}

func (m Metered) validate(p *problems) {
	p.money("ratePerHour", m.RatePerHour)
	p.duration("increment", m.Increment)
	p.duration("minimum", m.Minimum)
	if m.Minimum > 0 && m.Increment > 0 && m.Minimum < m.Increment {
		p.add("minimum", m.Minimum, ErrMinimumBelowIncrement)
	}
}

// BilledTime returns the billed time of one run of the given length, as a
// decimal number of hours: zero for a zero-length run, otherwise
// max(Minimum, ⌈length/Increment⌉·Increment).
func (m Metered) BilledTime(length time.Duration) decimal.Decimal {
	return hoursFromNs(m.billedNs(length))
}

// BilledDuration is BilledTime as a time.Duration, saturating at the largest
// Duration.
func (m Metered) BilledDuration(length time.Duration) time.Duration {
	ns, ok := m.billedNodeNsInt(Usage{Runs: []Run{{Length: length, Count: 1, Nodes: 1}}})
	if !ok {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(ns)
}

func (m Metered) billedNs(length time.Duration) decimal.Decimal {
	if length <= 0 {
		return decimal.Zero
	}
	billed := decimal.NewFromInt(int64(length))
	if m.Increment > 0 {
		n := int64(length / m.Increment)
		if length%m.Increment != 0 {
			n++
		}
		billed = decimal.NewFromInt(n).Mul(decimal.NewFromInt(int64(m.Increment)))
	}
	if minNs := decimal.NewFromInt(int64(m.Minimum)); billed.LessThan(minNs) {
		billed = minNs
	}
	return billed
}

func hoursFromNs(ns decimal.Decimal) decimal.Decimal { return ns.DivRound(nsPerHour, Precision) }

// billedNodeNs returns the billed node-nanoseconds of all runs of u, exactly:
// in int64 arithmetic while it cannot overflow, in decimals otherwise.
func (m Metered) billedNodeNs(u Usage) decimal.Decimal {
	if ns, ok := m.billedNodeNsInt(u); ok {
		return decimal.NewFromInt(ns)
	}
	ns := decimal.Zero
	for _, r := range u.Runs {
		per := m.billedNs(r.Length)
		ns = ns.Add(per.Mul(decimal.NewFromInt(int64(r.Count))).Mul(decimal.NewFromInt(int64(r.Nodes))))
	}
	return ns
}

// billedNodeNsInt is billedNodeNs in int64; ok is false on overflow.
func (m Metered) billedNodeNsInt(u Usage) (int64, bool) {
	var total uint64
	for _, r := range u.Runs {
		if r.Length <= 0 || r.Count <= 0 || r.Nodes <= 0 {
			continue
		}
		billed := uint64(r.Length)
		if m.Increment > 0 {
			inc := uint64(m.Increment)
			n := billed / inc
			if billed%inc != 0 {
				n++
			}
			hi, lo := bits.Mul64(n, inc)
			if hi != 0 {
				return 0, false
			}
			billed = lo
		}
		billed = max(billed, uint64(max(m.Minimum, 0)))
		hi, lo := bits.Mul64(billed, uint64(r.Count))
		if hi != 0 {
			return 0, false
		}
		hi, lo = bits.Mul64(lo, uint64(r.Nodes))
		if hi != 0 {
			return 0, false
		}
		sum, carry := bits.Add64(total, lo, 0)
		if carry != 0 || sum > math.MaxInt64 {
			return 0, false
		}
		total = sum
	}
	return int64(total), true
}

// perHour returns amountPerHour × ns nanoseconds with one rounding.
func perHour(amountPerHour, ns decimal.Decimal) decimal.Decimal {
	return amountPerHour.Mul(ns).DivRound(nsPerHour, Precision)
}

// Charges bills every run of u; Nodes and BusyFraction are ignored. It returns
// one Compute charge, spread over the horizon.
func (m Metered) Charges(u Usage) ([]Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	amount := perHour(m.RatePerHour, m.billedNodeNs(u))
	return []Charge{{Category: Compute, Label: "on-demand compute", Amount: amount, Timing: Spread}}, nil
}

// Scale returns m with its rate multiplied by k.
func (m Metered) Scale(k decimal.Decimal) Pricing {
	m.RatePerHour = m.RatePerHour.Mul(k)
	return m
}

// Granularity returns the billing increment and the minimum billed time of a
// run (see Metering).
func (m Metered) Granularity() (increment, minimum time.Duration) { return m.Increment, m.Minimum }

// Rates returns one PerBilledNodeHour rate: the rate per hour, as the
// "on-demand compute" line (see Linear).
func (m Metered) Rates(horizon time.Duration) ([]Rate, error) {
	if err := ratesCheck(m, horizon); err != nil {
		return nil, err
	}
	return []Rate{{Category: Compute, Label: "on-demand compute", Timing: Spread, Basis: PerBilledNodeHour, Amount: m.RatePerHour}}, nil
}

// AddPerNodeHour returns m with amount added to its rate, clamped at zero.
func (m Metered) AddPerNodeHour(amount decimal.Decimal) (Pricing, bool) {
	var cl bool
	m.RatePerHour, cl = clampAdd(m.RatePerHour, amount)
	return m, cl
}

// ratesCheck validates a pricing and a horizon for Rates.
func ratesCheck(p Pricing, horizon time.Duration) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if horizon < 0 {
		return &FieldError{Field: "horizon", Value: horizon, Err: ErrNegative}
	}
	return nil
}
