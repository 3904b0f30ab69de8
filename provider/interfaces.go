package provider

import (
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
	// errors.Join. Each problem should be a *FieldError whose Field is relative
	// to the pricing (e.g. "RatePerHour"); Offer.Validate prefixes it.
	Validate() error
}

// Scaler is implemented by pricing modes that can scale all their prices.
// All built-in modes implement it; adjustments and property tests use it.
type Scaler interface {
	// Scale returns a copy of the pricing with every money amount multiplied
	// by k. k must be ≥ 0; the receiver is not modified.
	Scale(k decimal.Decimal) Pricing
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
type Run struct {
	// Length is the wall time of one run. A zero-length run is never started
	// and costs nothing.
	Length time.Duration
	// Count is how many such runs there are.
	Count int
	// Nodes is the number of nodes each run uses.
	Nodes int
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
	}
	return p.err()
}

// usageError wraps two sentinels, so that errors.Is matches both.
type usageError struct{ reason error }

func (e usageError) Error() string   { return ErrInvalidUsage.Error() + ": " + e.reason.Error() }
func (e usageError) Unwrap() []error { return []error{ErrInvalidUsage, e.reason} }

func wrapUsage(reason error) error { return usageError{reason} }
