package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/provider"
)

// Tiered is a pay-as-you-go pricing mode with volume discounts, defined
// outside the library: the node-hours billed over the horizon are priced in
// marginal tiers, as cloud data transfer is. Up to the first tier's
// FromNodeHours they cost RatePerHour; from each tier's FromNodeHours to the
// next one's, RatePerHour·(1 − Discount).
//
// Each run on each node is billed in whole Increments (zero: pro rata), so
// Tiered implements provider.Metering and the tco package prices it as
// pay-as-you-go capacity. It does not implement provider.Linear: its price
// per node-hour falls with the volume, so tco derives its cost terms from
// its charges at the workload's own use. It implements provider.Scaler, so
// sensitivity analyses and catalog adjustments can scale it.
type Tiered struct {
	// RatePerHour is the list price of one node for one hour.
	RatePerHour decimal.Decimal
	// Increment is the billing increment of a run; zero bills pro rata.
	Increment time.Duration
	// Tiers are the volume discounts, by FromNodeHours strictly ascending.
	Tiers []Tier
}

// Tier is one volume discount of Tiered.
type Tier struct {
	// FromNodeHours is the billed volume, over the horizon, from which the
	// tier's price applies (≥ 0).
	FromNodeHours float64
	// Discount is the fraction taken off the list rate in the tier, in [0, 1].
	Discount decimal.Decimal
}

// Mode returns "tiered", the "mode" of the pricing in catalog JSON.
func (Tiered) Mode() string { return "tiered" }

// Validate reports every problem at once, as provider.FieldErrors named by
// their keys in the mode's JSON, as the built-in modes name theirs.
func (p Tiered) Validate() error {
	var errs []error
	if p.RatePerHour.IsNegative() {
		errs = append(errs, &provider.FieldError{Field: "ratePerHour", Value: p.RatePerHour.String(), Err: provider.ErrNegative})
	}
	if p.Increment < 0 {
		errs = append(errs, &provider.FieldError{Field: "increment", Value: p.Increment.String(), Err: provider.ErrNegative})
	}
	for i, t := range p.Tiers {
		field := fmt.Sprintf("tiers[%d]", i)
		switch {
		case math.IsNaN(t.FromNodeHours) || math.IsInf(t.FromNodeHours, 0):
			errs = append(errs, &provider.FieldError{Field: field + ".fromNodeHours", Value: t.FromNodeHours, Err: provider.ErrNotFinite})
		case t.FromNodeHours < 0:
			errs = append(errs, &provider.FieldError{Field: field + ".fromNodeHours", Value: t.FromNodeHours, Err: provider.ErrNegative})
		case i > 0 && !(t.FromNodeHours > p.Tiers[i-1].FromNodeHours):
			errs = append(errs, &provider.FieldError{Field: field + ".fromNodeHours", Value: t.FromNodeHours,
				Err: fmt.Errorf("%w: not above the previous tier's", provider.ErrOutOfRange)})
		}
		if t.Discount.IsNegative() || t.Discount.GreaterThan(decimal.NewFromInt(1)) {
			errs = append(errs, &provider.FieldError{Field: field + ".discount", Value: t.Discount.String(), Err: provider.ErrOutOfRange})
		}
	}
	return errors.Join(errs...)
}

// BilledDuration is the time one run of length l is billed: l rounded up to
// a whole Increment, zero for l ≤ 0, saturating at the largest Duration.
func (p Tiered) BilledDuration(l time.Duration) time.Duration {
	if l <= 0 {
		return 0
	}
	if p.Increment <= 0 {
		return l
	}
	n := l / p.Increment
	if l%p.Increment != 0 {
		n++
	}
	if n > math.MaxInt64/p.Increment {
		return math.MaxInt64
	}
	return n * p.Increment
}

// Granularity returns the billing increment and no minimum beyond it.
func (p Tiered) Granularity() (increment, minimum time.Duration) { return p.Increment, 0 }

// Scale returns p with its list rate multiplied by k (the discounts are
// fractions and stay).
func (p Tiered) Scale(k decimal.Decimal) provider.Pricing {
	p.RatePerHour = p.RatePerHour.Mul(k)
	p.Tiers = slices.Clone(p.Tiers)
	return p
}

// Charges bills the runs of u: one compute line per tier reached. It bills
// neither Nodes nor BusyFraction (capacity is not held between runs).
func (p Tiered) Charges(u provider.Usage) ([]provider.Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	billed := decimal.Zero // node-hours
	nsPerHour := decimal.NewFromInt(int64(time.Hour))
	for _, r := range u.Runs {
		d := decimal.NewFromInt(int64(p.BilledDuration(r.Length))).Mul(decimal.NewFromInt(int64(r.Count))).Mul(decimal.NewFromInt(int64(r.Nodes)))
		billed = billed.Add(d.DivRound(nsPerHour, provider.Precision))
	}
	if billed.IsZero() {
		return nil, nil
	}
	var out []provider.Charge
	one := decimal.NewFromInt(1)
	for i, b := range p.bands() {
		if !billed.GreaterThan(b.from) {
			break
		}
		hours := billed.Sub(b.from)
		if b.to != nil && hours.GreaterThan(b.to.Sub(b.from)) {
			hours = b.to.Sub(b.from)
		}
		rate := p.RatePerHour.Mul(one.Sub(b.discount))
		out = append(out, provider.Charge{Category: provider.Compute, Label: b.label(i),
			Amount: hours.Mul(rate).Round(provider.Precision), Timing: provider.Spread})
	}
	return out, nil
}

// label names the charge of the i-th band.
func (b band) label(i int) string {
	off := ""
	if b.discount.IsPositive() {
		off = fmt.Sprintf(", %s%% off", b.discount.Mul(decimal.NewFromInt(100)).String())
	}
	switch {
	case i > 0:
		return fmt.Sprintf("compute from %s node-hours%s", cli.Thousands(b.from.StringFixed(0)), off)
	case b.to != nil:
		return fmt.Sprintf("compute, first %s node-hours%s", cli.Thousands(b.to.StringFixed(0)), off)
	default:
		return "compute" + off
	}
}

// band is one price band of the volume: [from, to) at discount; to is nil
// for the last, open band.
type band struct {
	from     decimal.Decimal
	to       *decimal.Decimal
	discount decimal.Decimal
}

// bands are the list-price band below the first tier and one per tier.
func (p Tiered) bands() []band {
	bs := []band{{from: decimal.Zero, discount: decimal.Zero}}
	for _, t := range p.Tiers {
		from := decimal.NewFromFloat(t.FromNodeHours)
		if from.IsZero() {
			bs[0].discount = t.Discount
			continue
		}
		bs[len(bs)-1].to = &from
		bs = append(bs, band{from: from, discount: t.Discount})
	}
	return bs
}

// tieredJSON is the wire form of Tiered in catalog JSON.
type tieredJSON struct {
	Mode        string            `json:"mode"`
	RatePerHour provider.Amount   `json:"ratePerHour"`
	Increment   provider.Duration `json:"increment"`
	Tiers       []tierJSON        `json:"tiers"`
}

type tierJSON struct {
	FromNodeHours float64         `json:"fromNodeHours"`
	Discount      provider.Amount `json:"discount"`
}

// MarshalJSON writes the wire form, so that catalogs holding the mode save
// (provider.MarshalPricing) as well as load.
func (p Tiered) MarshalJSON() ([]byte, error) {
	w := tieredJSON{Mode: p.Mode(), RatePerHour: provider.Amount(p.RatePerHour), Increment: provider.Duration(p.Increment)}
	for _, t := range p.Tiers {
		w.Tiers = append(w.Tiers, tierJSON{t.FromNodeHours, provider.Amount(t.Discount)})
	}
	return json.Marshal(w)
}

// decodeTiered is the provider.PricingDecoder of "tiered": strict, as the
// built-in modes are (unknown fields are errors). Validation follows with the
// offer's.
func decodeTiered(raw json.RawMessage, _ provider.Decoder) (provider.Pricing, error) {
	var w tieredJSON
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("tiered pricing: %w", err)
	}
	p := Tiered{RatePerHour: decimal.Decimal(w.RatePerHour), Increment: time.Duration(w.Increment)}
	for _, t := range w.Tiers {
		p.Tiers = append(p.Tiers, Tier{FromNodeHours: t.FromNodeHours, Discount: decimal.Decimal(t.Discount)})
	}
	return p, nil
}
