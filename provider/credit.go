package provider

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// Credit applies a one-time credit (new-user or negotiated compute credits) to
// any pricing mode. It lowers the base mode's total by min(Amount, total) and
// never takes a total below zero.
type Credit struct {
	// Base is the pricing the credit applies to. It is required.
	Base Pricing
	// Amount is the credit, ≥ 0.
	Amount decimal.Decimal
}

// Mode returns "credit".
func (c Credit) Mode() string { return "credit" }

// Validate reports a missing base, the base's own problems (under "base.") and
// a negative amount, or, before anything else, a chain of credits with more
// than MaxPricingDepth pricings in all (the decoder's limit, so that what
// validates can be written and read back).
func (c Credit) Validate() error {
	var p problems
	if d := pricingDepth(c); d > MaxPricingDepth {
		p.add("base", nil, errTooDeep())
		return p.err()
	}
	if c.Base == nil {
		p.add("base", nil, ErrMissing)
	} else {
		p.nest("base", c.Base.Validate())
	}
	p.money("amount", c.Amount)
	return p.err()
}

// Charges returns the base's charges followed by one CreditCategory line of
// −min(Amount, total of the base's charges), paid upfront. When the base total
// is zero or negative the credit line is zero.
func (c Credit) Charges(u Usage) ([]Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	base, err := c.Base.Charges(u)
	if err != nil {
		return nil, err
	}
	if err := CheckCharges(base); err != nil {
		return nil, err
	}
	return c.Apply(base), nil
}

// Apply returns base followed by the credit line for it: −min(Amount, total
// of base), zero when that total is zero or negative. Charges is Apply of the
// base pricing's charges; callers that drop some of those charges (as tco
// does for excluded cost categories) apply the credit to what remains.
func (c Credit) Apply(base []Charge) []Charge {
	applied := decimal.Min(c.Amount, decimal.Max(Total(base), decimal.Zero))
	out := make([]Charge, 0, len(base)+1)
	out = append(out, base...)
	return append(out, Charge{Category: CreditCategory, Label: "credit", Amount: applied.Neg(), Timing: Upfront})
}

// Scale returns c with its amount and, when the base implements Scaler, its
// base scaled by k. A base that does not implement Scaler is left unchanged.
func (c Credit) Scale(k decimal.Decimal) Pricing {
	c.Amount = c.Amount.Mul(k)
	if s, ok := c.Base.(Scaler); ok {
		c.Base = s.Scale(k)
	}
	return c
}

// pricingDepth returns the number of pricings in p's chain of wrappers: 1 for
// a pricing that is not a Wrapper (such as a Credit), one more for each
// Wrapper around it. It
// stops counting at MaxPricingDepth+1, so that a deeper chain costs no more
// than one at the limit.
func pricingDepth(p Pricing) int {
	n := 1
	for n <= MaxPricingDepth {
		w, ok := p.(Wrapper)
		if !ok {
			break
		}
		p, n = w.Unwrap(), n+1
	}
	return n
}

// errTooDeep is the reason given for pricings nested beyond MaxPricingDepth,
// by validation as by the decoder.
func errTooDeep() error {
	return fmt.Errorf("pricings nested deeper than MaxPricingDepth = %d: %w", MaxPricingDepth, ErrOutOfRange)
}

// Unwrap returns the base pricing (see Wrapper).
func (c Credit) Unwrap() Pricing { return c.Base }

// Rewrap returns the credit around another base (see Wrapper).
func (c Credit) Rewrap(base Pricing) Pricing {
	c.Base = base
	return c
}
