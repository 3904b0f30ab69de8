package provider

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Selector picks the offers an Adjustment applies to. Each non-empty field
// must match; an empty field matches every offer, so the zero Selector
// matches all offers.
type Selector struct {
	// Provider matches Offer.Provider, ignoring case.
	Provider string
	// Region matches Offer.Region exactly.
	Region string
	// GPUModel matches Offer.GPU.Model exactly, e.g. "H100 SXM".
	GPUModel string
	// Mode matches the pricing's Mode() exactly, e.g. "metered". A credit
	// wrapping a metered pricing has mode "credit".
	Mode string
}

// Matches reports whether o is selected.
func (s Selector) Matches(o Offer) bool {
	if s.Provider != "" && !strings.EqualFold(s.Provider, o.Provider) {
		return false
	}
	if s.Region != "" && s.Region != o.Region {
		return false
	}
	if s.GPUModel != "" && s.GPUModel != o.GPU.Model {
		return false
	}
	if s.Mode != "" && (o.Pricing == nil || s.Mode != o.Pricing.Mode()) {
		return false
	}
	return true
}

// Adjustment is a negotiated discount or surcharge on the offers its
// Selector picks — what Karpenter calls a price overlay. The zero Adjustment
// matches every offer and changes nothing.
//
// Percent is applied first, through the pricing's Scaler: every money amount
// of the mode is multiplied by 1 + Percent/100, so −15 is a 15 % discount and
// 10 a 10 % surcharge. AmountPerNodeHour is then added to the price of one
// node-hour (negative is a discount); see ApplyAdjustments for the modes it
// applies to.
type Adjustment struct {
	// Selector picks the offers.
	Selector Selector
	// Percent is the change in percent of every price of the mode; −15 is a
	// 15 % discount. Below −100 it is clamped to −100 (free).
	Percent decimal.Decimal
	// AmountPerNodeHour is added to the price of one node-hour, in the
	// catalog's currency; negative is a discount.
	AmountPerNodeHour decimal.Decimal
	// Weight orders overlapping adjustments: all adjustments that match an
	// offer apply, in ascending Weight, so the heaviest applies last; equal
	// weights apply in slice order.
	Weight int
	// Source says who negotiated the adjustment and when (Name, AsOf), and
	// where it is written down (URL, Note).
	Source Source
}

// Validate reports amounts whose decimal exponent is beyond ±MaxExponent:
// arithmetic on them would overflow decimal's exponent or build numbers with
// billions of digits.
func (a Adjustment) Validate() error {
	var p problems
	p.money("Percent", a.Percent.Abs())
	p.money("AmountPerNodeHour", a.AmountPerNodeHour.Abs())
	return p.err()
}

// String describes the adjustment in one line, e.g.
// "-15% (ACME enterprise agreement, 2026-01-15)".
func (a Adjustment) String() string {
	var parts []string
	if !a.Percent.IsZero() {
		parts = append(parts, signed(a.Percent)+"%")
	}
	if !a.AmountPerNodeHour.IsZero() {
		parts = append(parts, signed(a.AmountPerNodeHour)+"/node-hour")
	}
	if len(parts) == 0 {
		parts = append(parts, "no change")
	}
	s := strings.Join(parts, " then ")
	var src []string
	if a.Source.Name != "" {
		src = append(src, a.Source.Name)
	}
	if !a.Source.AsOf.IsZero() {
		src = append(src, a.Source.AsOf.Format(time.DateOnly))
	}
	if len(src) > 0 {
		s += " (" + strings.Join(src, ", ") + ")"
	}
	return s
}

func signed(d decimal.Decimal) string {
	if d.IsPositive() {
		return "+" + d.String()
	}
	return d.String()
}

// Applied reports the adjustments applied to one offer.
type Applied struct {
	// Offer is the offer's ID.
	Offer string
	// Mode is the offer's pricing mode.
	Mode string
	// Horizon is the horizon over which the per-GPU-hour prices are taken:
	// one term for Reserved, the useful life for Owned (and for a Credit, its
	// base's), one year otherwise.
	Horizon time.Duration
	// ListPerGPUHour is Offer.RatePerGPUHour(Horizon) before adjustment.
	ListPerGPUHour decimal.Decimal
	// Adjustments are the adjustments applied, in the order applied.
	Adjustments []Adjustment
	// AdjustedPerGPUHour is Offer.RatePerGPUHour(Horizon) after adjustment.
	AdjustedPerGPUHour decimal.Decimal
	// Clamped reports that a discount would have taken a price below zero and
	// the price stopped at zero instead.
	Clamped bool
}

// ApplyAdjustments returns a new catalog with adjs applied to c's offers, and
// an Applied record for every offer that at least one adjustment matches, in
// catalog order. c and adjs are not modified; offers that no adjustment
// matches are copied unchanged.
//
// Overlaps: every adjustment that matches an offer applies, in ascending
// Weight (ties in slice order), each to the result of the previous one.
// Stacking is the rule because negotiated terms do stack in practice — an
// enterprise-wide discount and a private rate on one instance family — and a
// fixed order makes the result of mixing percentages and absolute amounts
// unambiguous; percentages compose by multiplication (−10 % twice is −19 %).
// To let one adjustment override another, narrow the selectors instead.
//
// A percentage needs the pricing to implement Scaler (all built-in modes do).
// An absolute amount per node-hour applies to the rate of Metered and Spot,
// to the recurring rate of Reserved (a discount larger than the recurring
// rate takes the rest, times the term's hours, from the upfront amount), to
// the base of a Credit, and to any mode implementing HourlyAdder. Owned
// hardware has no price per node-hour: an absolute amount on it is an error,
// as on any mode that supports neither, and so is a percentage on a mode
// that is not a Scaler. No discount takes a price below zero: the price stops
// at zero and Applied.Clamped says so. A non-trivial adjustment is also noted
// in the offer's Source.Note.
//
// Errors name the offer (a *FieldError wrapping ErrNotApplicable, or the
// offer's validation problems); all are reported at once and the result is
// then empty.
func ApplyAdjustments(c Catalog, adjs []Adjustment) (Catalog, []Applied, error) {
	var bad problems
	for i, a := range adjs {
		bad.nest(fmt.Sprintf("adjustments[%d]", i), a.Validate())
	}
	if err := bad.err(); err != nil {
		return Catalog{}, nil, err
	}
	order := make([]int, len(adjs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(adjs[a].Weight, adjs[b].Weight) })

	out := Catalog{Currency: c.Currency, AsOf: c.AsOf}
	if c.Offers != nil {
		out.Offers = make(Offers, 0, len(c.Offers))
	}
	var applied []Applied
	var errs problems
	for _, o := range c.Offers {
		var matched []Adjustment
		for _, i := range order {
			if adjs[i].Selector.Matches(o) {
				matched = append(matched, adjs[i])
			}
		}
		if len(matched) == 0 {
			out.Offers = append(out.Offers, o)
			continue
		}
		if o.Pricing == nil {
			errs.put(&FieldError{Offer: o.ID, Field: "pricing", Err: ErrMissing})
			continue
		}
		adj, clamped, err := adjustOffer(o, matched)
		if err != nil {
			errs.putAll(err)
			continue
		}
		h := priceHorizon(o.Pricing)
		list, err1 := o.RatePerGPUHour(h)
		after, err2 := adj.RatePerGPUHour(h)
		if err := errors.Join(err1, err2); err != nil {
			errs.putAll(err)
			continue
		}
		out.Offers = append(out.Offers, adj)
		applied = append(applied, Applied{
			Offer: o.ID, Mode: o.Pricing.Mode(), Horizon: h, ListPerGPUHour: list,
			Adjustments: matched, AdjustedPerGPUHour: after, Clamped: clamped,
		})
	}
	if err := errs.err(); err != nil {
		return Catalog{}, nil, err
	}
	return out, applied, nil
}

// adjustOffer applies matched, in order, to a copy of o.
func adjustOffer(o Offer, matched []Adjustment) (Offer, bool, error) {
	p, clamped := o.Pricing, false
	for _, a := range matched {
		if !a.Percent.IsZero() {
			s, ok := p.(Scaler)
			if !ok {
				return Offer{}, false, &FieldError{Offer: o.ID, Field: "pricing", Value: p.Mode(),
					Err: reasonf(ErrNotApplicable, "a percentage needs a pricing that implements Scaler")}
			}
			k := decimal.NewFromInt(1).Add(a.Percent.Shift(-2))
			if k.IsNegative() {
				k, clamped = decimal.Zero, true
			}
			p = s.Scale(k)
		}
		if !a.AmountPerNodeHour.IsZero() {
			np, cl, err := addPerNodeHour(p, a.AmountPerNodeHour)
			if err != nil {
				return Offer{}, false, &FieldError{Offer: o.ID, Field: "pricing", Value: p.Mode(), Err: err}
			}
			p, clamped = np, clamped || cl
		}
		if !a.Percent.IsZero() || !a.AmountPerNodeHour.IsZero() {
			o.Source.Note = joinNote(o.Source.Note, "adjusted "+a.String())
		}
	}
	o.Pricing = p
	return o, clamped, nil
}

// addPerNodeHour adds amount to the node-hour price of p, clamping at zero:
// the innermost pricing must be an HourlyAdder, and the wrappers around it
// (credits) are kept.
func addPerNodeHour(p Pricing, amount decimal.Decimal) (Pricing, bool, error) {
	base, wrappers := Unwrap(p)
	if base == nil {
		return nil, false, reasonf(ErrMissing, "credit without a base")
	}
	h, ok := base.(HourlyAdder)
	if !ok {
		if _, owned := base.(Owned); owned {
			return nil, false, reasonf(ErrNotApplicable, "owned hardware has no price per node-hour")
		}
		return nil, false, reasonf(ErrNotApplicable, "mode %q does not implement HourlyAdder", base.Mode())
	}
	np, cl := h.AddPerNodeHour(amount)
	return rewrap(np, wrappers), cl, nil
}

func clampAdd(a, b decimal.Decimal) (decimal.Decimal, bool) {
	s := a.Add(b)
	if s.IsNegative() {
		return decimal.Zero, true
	}
	return s, false
}

// priceHorizon is the horizon over which Applied states per-GPU-hour prices.
func priceHorizon(p Pricing) time.Duration {
	switch v := p.(type) {
	case Reserved:
		if v.Term > 0 {
			return v.Term
		}
	case Owned:
		if v.UsefulLifeYears >= 1 && v.UsefulLifeYears <= maxLifeYears {
			return time.Duration(v.UsefulLifeYears) * Year
		}
	case Wrapper:
		if b := v.Unwrap(); b != nil {
			return priceHorizon(b)
		}
	}
	return Year
}

// String describes the record in one line: the offer, its list and adjusted
// prices per GPU-hour rounded to cents, and the adjustments applied.
func (a Applied) String() string {
	var adj []string
	for _, x := range a.Adjustments {
		adj = append(adj, x.String())
	}
	s := fmt.Sprintf("%s: %s → %s per GPU-hour", a.Offer, a.ListPerGPUHour.StringFixed(2),
		a.AdjustedPerGPUHour.StringFixed(2))
	if len(adj) > 0 {
		s += " after " + strings.Join(adj, "; ")
	}
	if a.Clamped {
		s += " (clamped at zero)"
	}
	return s
}
