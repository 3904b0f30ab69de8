package provider

import (
	"math"
	"time"

	"github.com/shopspring/decimal"
)

// Pricing is how an offer bills capacity. It is the package's extension point:
// downstream code may implement it for modes the package does not know, and
// the tco and placement packages price every offer through it alone.
//
// Implementations must be immutable values, safe for concurrent use.
type Pricing interface {
	// Mode names the pricing mode. It is the "mode" discriminator of the
	// pricing object in catalog JSON, so it must be stable and unique among the
	// modes a Decoder knows. Built-in modes: "metered", "spot", "reserved",
	// "owned", "credit".
	Mode() string

	// Charges returns the charges for holding capacity as u describes, per the
	// mode's billing rules, in a deterministic order. The amounts are in the
	// catalog's currency. Contract:
	//   - u is validated first; an invalid Usage returns an error wrapping
	//     ErrInvalidUsage and no charges. A Pricing that fails Validate may
	//     return an error instead of charges.
	//   - every amount is ≥ 0 except charges of category CreditCategory and
	//     Residual, which are ≤ 0;
	//   - charges never decrease when run lengths, run counts, nodes, the busy
	//     fraction or the horizon grow, or when any price of the mode grows;
	//   - scaling every price of the mode by k ≥ 0 scales every charge by k
	//     (up to the rounding of Precision);
	//   - Charges does not modify u.
	Charges(u Usage) ([]Charge, error)

	// Validate reports every problem of the pricing at once, joined with
	// errors.Join. Each problem should be a *FieldError whose Field is the
	// path of the field in the mode's JSON object, relative to the pricing
	// (e.g. "ratePerHour", the key a catalog file has), for a value built in
	// Go as for one decoded; Offer.Validate prefixes it with "pricing.".
	Validate() error
}

// Scaler is implemented by pricing modes that can scale all their prices.
// All built-in modes implement it; adjustments and property tests use it.
type Scaler interface {
	// Scale returns a copy of the pricing with every money amount multiplied
	// by k. k must be ≥ 0; the receiver is not modified.
	Scale(k decimal.Decimal) Pricing
}

// HourlyAdder is implemented by pricing modes that can take an absolute
// amount per node-hour: Metered, Spot and Reserved, and any downstream mode
// that chooses to. ApplyAdjustments uses it; without it, an absolute
// adjustment on a mode is an error.
type HourlyAdder interface {
	// AddPerNodeHour returns a copy of the pricing with amount added to the
	// price of one node-hour, never taking a price below zero; clamped
	// reports that a price stopped at zero. The receiver is not modified.
	AddPerNodeHour(amount decimal.Decimal) (p Pricing, clamped bool)
}

// The interfaces below say what the tco and placement packages need to know
// about a pricing beyond its charges. Built-in modes implement those that fit
// them; a downstream mode implements those that fit it, and is otherwise
// treated as the most conservative case the interface's absence means. Find
// one on a pricing with As, which looks through wrappers such as Credit.

// Wrapper is implemented by a pricing that modifies the charges of another
// one, as Credit does. Contract:
//   - Unwrap returns the pricing modified (nil only for an invalid wrapper);
//   - Charges(u) equals Apply(Unwrap().Charges(u)) for every valid u;
//   - Apply does not modify base, and adds or lowers charges without
//     changing the others (tco applies it once, after excluding categories);
//   - Rewrap returns a copy of the wrapper around another base.
type Wrapper interface {
	Pricing
	Unwrap() Pricing
	Apply(base []Charge) []Charge
	Rewrap(base Pricing) Pricing
}

// Metering is implemented by pay-as-you-go modes: modes that bill only the
// runs of a Usage (never Nodes, Horizon or BusyFraction), each run on each
// node separately, at a rate per billed hour. Metered and Spot implement it.
// A mode that does not implement it is treated as committed: it is assumed
// to bill capacity held whatever its use. Contract:
//   - BilledDuration(l) is the time one run of length l on one node is
//     billed: zero for l ≤ 0, otherwise ≥ l, non-decreasing in l, saturating
//     at the largest Duration;
//   - Charges(u) depends on the runs only through the sum over runs of
//     BilledDuration(Length)·Count·Nodes, and grows with it;
//   - Granularity returns the billing increment (zero: pro rata) and the
//     minimum billed time of a run (zero: none beyond one increment).
type Metering interface {
	Pricing
	BilledDuration(length time.Duration) time.Duration
	Granularity() (increment, minimum time.Duration)
}

// Interruptible is implemented by modes whose capacity the provider may take
// back at any moment, as Spot's is. Work that tolerates no interruption cannot
// run on them. Interruptions returns the mean number of interruptions per
// node-hour (finite and ≥ 0; zero means never) and the warning given before
// one.
type Interruptible interface {
	Pricing
	Interruptions() (ratePerHour float64, notice time.Duration)
}

// LeadTimer is implemented by modes whose capacity takes time to put into
// service beyond the offer's provisioning lead time, as Owned's procurement
// does. LeadTime returns that time (≥ 0).
type LeadTimer interface {
	Pricing
	LeadTime() time.Duration
}

// Committer is implemented by modes that bill capacity held, whatever its
// use, in whole commitments: Reserved (its Term) and Owned (bought for the
// horizon: zero). Commitment returns the length of one commitment, or zero
// when a node is committed for the whole horizon. Contract: Charges does not
// depend on Usage.Runs (callers may reuse the charges of a usage that differs
// only in its runs).
type Committer interface {
	Pricing
	Commitment() time.Duration
}

// EnergyPricer is implemented by modes that pay for energy by the kWh, as
// Owned does. WithEnergyPerKWh returns a copy of the pricing at another price
// per kWh (≥ 0); the receiver is not modified.
type EnergyPricer interface {
	Pricing
	WithEnergyPerKWh(price decimal.Decimal) Pricing
}

// WithEnergyPrice returns p with the energy price of its innermost pricing
// set to price, keeping the wrappers around it, and whether that pricing
// implements EnergyPricer (p is returned unchanged when not).
func WithEnergyPrice(p Pricing, price decimal.Decimal) (Pricing, bool) {
	base, wrappers := Unwrap(p)
	e, ok := base.(EnergyPricer)
	if !ok {
		return p, false
	}
	return rewrap(e.WithEnergyPerKWh(price), wrappers), true
}

// Linear is implemented by modes whose charges are linear in what a Usage
// holds and uses; every built-in mode but Credit (a Wrapper) implements it.
// Rates returns the charges over horizon as rates, each on one Basis, in the
// order Charges lists its lines. Contract: for every valid u with Horizon =
// horizon, the total of Charges(u) equals
//
//	Σ Amount·u.Nodes                                   (PerNode rates)
//	+ Σ Amount·u.Nodes·u.BusyFraction·hours(horizon)   (PerBusyNodeHour rates)
//	+ Σ Amount·billed node-hours of u.Runs             (PerBilledNodeHour rates)
//
// up to the rounding of Precision in each line, and so does each category's
// subtotal. A Pricing that fails Validate, or a negative horizon, returns an
// error.
type Linear interface {
	Pricing
	Rates(horizon time.Duration) ([]Rate, error)
}

// Basis is what a Rate is charged per.
type Basis int

// Bases of a Rate. The zero value is PerNode.
const (
	// PerNode is charged per node held over the horizon, whatever its use.
	PerNode Basis = iota
	// PerBusyNodeHour is charged per node-hour that a held node is busy.
	PerBusyNodeHour
	// PerBilledNodeHour is charged per billed node-hour of pay-as-you-go runs.
	PerBilledNodeHour
)

// String returns "per node", "per busy node-hour" or "per billed node-hour".
func (b Basis) String() string {
	return enumName([]string{"per node", "per busy node-hour", "per billed node-hour"}, b, "Basis")
}

// Rate is one linear component of a pricing's charges: Amount per unit of
// Basis, with the category, label and timing of the charge it makes.
type Rate struct {
	// Category, Label and Timing are those of the charge.
	Category Category
	Label    string
	Timing   Timing
	// Basis is what Amount is charged per.
	Basis Basis
	// Amount is the money per unit of Basis (≥ 0, except Residual and
	// CreditCategory rates).
	Amount decimal.Decimal
	// Start, Span and Payments are the schedule of a Scheduled rate, as
	// Charge's; other timings leave them zero.
	Start    Duration
	Span     Duration
	Payments int
}

// As finds the first pricing in p's chain — p itself, then what each
// Wrapper around it wraps — that implements T, and returns it. It is to
// pricings what errors.As is to errors. T is typically one of the interfaces
// above.
func As[T any](p Pricing) (T, bool) {
	for range maxWrapDepth {
		if p == nil {
			break
		}
		if t, ok := p.(T); ok {
			return t, true
		}
		w, ok := p.(Wrapper)
		if !ok {
			break
		}
		p = w.Unwrap()
	}
	var zero T
	return zero, false
}

// Unwrap returns the innermost pricing of p — the first that is not a
// Wrapper — and the wrappers around it, outermost first. The innermost is nil
// when a wrapper wraps nothing or the chain is deeper than 64 wrappers.
func Unwrap(p Pricing) (base Pricing, wrappers []Wrapper) {
	for range maxWrapDepth {
		w, ok := p.(Wrapper)
		if !ok {
			return p, wrappers
		}
		wrappers = append(wrappers, w)
		p = w.Unwrap()
	}
	return nil, wrappers
}

// maxWrapDepth bounds the wrappers As and Unwrap look through.
const maxWrapDepth = 64

// rewrap puts base back inside wrappers (outermost first).
func rewrap(base Pricing, wrappers []Wrapper) Pricing {
	for i := len(wrappers) - 1; i >= 0; i-- {
		base = wrappers[i].Rewrap(base)
	}
	return base
}

// Usage describes how capacity of one offer is held over a horizon. Which of
// its fields a mode bills is part of the mode's documentation: metered modes
// bill Runs; reserved terms bill Nodes for whole terms covering Horizon; owned
// hardware bills Nodes (purchase, facility, maintenance, staff) and power by
// BusyFraction.
//
// The zero Usage holds nothing and costs nothing.
type Usage struct {
	// Horizon is the period the charges cover.
	Horizon time.Duration
	// Nodes is the number of nodes held (reserved or bought) for the horizon.
	Nodes int
	// Runs are the pay-as-you-go runs started and stopped within the horizon.
	Runs []Run
	// BusyFraction is the mean fraction of the horizon the held nodes are
	// busy, in [0, 1]. It drives power of owned hardware.
	BusyFraction float64
}

// Run is Count runs of Length on Nodes nodes each. Every run is billed
// separately, so increments and minimum charges apply per run and node.
//
// Start and Every place the runs in the horizon, for modes whose price
// depends on when capacity is used (a monthly tier, a night rate): the i-th
// run (from 0) starts at Start + i·Every, measured from the horizon's start
// ([Run.StartOf]). Every = 0 puts the runs back to back, the i-th at
// Start + i·Length, so the zero Start and Every of a Run built without them
// mean "from the horizon's start, one after the other". Runs of different
// Run values may overlap (they are on other nodes). The tco package fills
// them: see its documentation for where it places a job's and a service's
// runs.
type Run struct {
	// Length is the wall time of one run. A zero-length run is never started
	// and costs nothing.
	Length time.Duration
	// Count is how many such runs there are.
	Count int
	// Nodes is the number of nodes each run uses.
	Nodes int
	// Start is when the first run starts, from the horizon's start (≥ 0).
	Start time.Duration
	// Every is the time from the start of one run to the start of the next
	// (≥ 0); zero means Length: back to back.
	Every time.Duration
}

// StartOf returns when the i-th run of r (from 0) starts, from the
// horizon's start: Start + i·Every, or Start + i·Length when Every is zero,
// saturating at the largest Duration. It returns Start for i ≤ 0.
func (r Run) StartOf(i int) time.Duration {
	step := r.Every
	if step == 0 {
		step = r.Length
	}
	if i <= 0 || step <= 0 {
		return r.Start
	}
	if step > (math.MaxInt64-max(r.Start, 0))/time.Duration(i) {
		return math.MaxInt64
	}
	return r.Start + time.Duration(i)*step
}

// Validate reports every problem of u, each wrapping ErrInvalidUsage.
func (u Usage) Validate() error {
	var p problems
	if u.Horizon < 0 {
		p.add("Usage.Horizon", u.Horizon, wrapUsage(ErrNegative))
	}
	if u.Nodes < 0 {
		p.add("Usage.Nodes", u.Nodes, wrapUsage(ErrNegative))
	}
	if !finite(u.BusyFraction) {
		p.add("Usage.BusyFraction", u.BusyFraction, wrapUsage(ErrNotFinite))
	} else if u.BusyFraction < 0 || u.BusyFraction > 1 {
		p.add("Usage.BusyFraction", u.BusyFraction, wrapUsage(ErrOutOfRange))
	}
	for i, r := range u.Runs {
		if r.Length < 0 {
			p.add(indexed("Usage.Runs", i, "Length"), r.Length, wrapUsage(ErrNegative))
		}
		if r.Count < 0 {
			p.add(indexed("Usage.Runs", i, "Count"), r.Count, wrapUsage(ErrNegative))
		}
		if r.Nodes < 0 {
			p.add(indexed("Usage.Runs", i, "Nodes"), r.Nodes, wrapUsage(ErrNegative))
		}
		if r.Start < 0 {
			p.add(indexed("Usage.Runs", i, "Start"), r.Start, wrapUsage(ErrNegative))
		}
		if r.Every < 0 {
			p.add(indexed("Usage.Runs", i, "Every"), r.Every, wrapUsage(ErrNegative))
		}
	}
	return p.err()
}

// usageError wraps two sentinels, so that errors.Is matches both.
type usageError struct{ reason error }

func (e usageError) Error() string   { return ErrInvalidUsage.Error() + ": " + e.reason.Error() }
func (e usageError) Unwrap() []error { return []error{ErrInvalidUsage, e.reason} }

func wrapUsage(reason error) error { return usageError{reason} }
