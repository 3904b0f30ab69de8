package provider

import (
	"time"

	"github.com/shopspring/decimal"
)

// Reserved is committed capacity: a term paid for whole, whatever the use. A
// horizon needs ⌈Horizon/Term⌉ terms per node. A monthly rental is a
// one-month term (see Monthly); 1- and 3-year reservations and savings plans
// are longer terms with an upfront and a recurring part.
//
// The zero Reserved is invalid: Term must be positive.
type Reserved struct {
	// Term is the length of one commitment, e.g. Month, Year or 3*Year.
	Term time.Duration
	// UpfrontPerNode is paid per node at the start of each term.
	UpfrontPerNode decimal.Decimal
	// RecurringPerHour is paid per node for every hour of each term.
	RecurringPerHour decimal.Decimal
}

// Monthly returns a monthly rental: a one-month term paid at its start.
func Monthly(pricePerNodeMonth decimal.Decimal) Reserved {
	return Reserved{Term: Month, UpfrontPerNode: pricePerNodeMonth}
}

// Mode returns "reserved".
func (r Reserved) Mode() string { return "reserved" }

// Validate reports a missing or negative term and negative amounts.
func (r Reserved) Validate() error {
	var p problems
	if r.Term <= 0 {
		p.add("term", r.Term, ErrMissing)
	}
	p.money("upfrontPerNode", r.UpfrontPerNode)
	p.money("recurringPerHour", r.RecurringPerHour)
	return p.err()
}

// Terms returns the number of terms needed to cover horizon: ⌈horizon/Term⌉,
// or zero for a non-positive horizon or term.
func (r Reserved) Terms(horizon time.Duration) int64 {
	if horizon <= 0 || r.Term <= 0 {
		return 0
	}
	n := int64(horizon / r.Term)
	if horizon%r.Term != 0 {
		n++
	}
	return n
}

// EffectiveRatePerHour returns the cost of one node for one hour of a term:
// UpfrontPerNode/Term + RecurringPerHour. It is zero for an invalid term.
func (r Reserved) EffectiveRatePerHour() decimal.Decimal {
	if r.Term <= 0 {
		return decimal.Zero
	}
	return r.UpfrontPerNode.DivRound(hours(r.Term), Precision).Add(r.RecurringPerHour)
}

// Charges bills u.Nodes nodes for ⌈Horizon/Term⌉ whole terms; runs and the
// busy fraction are ignored. Lines, all of category Commitment:
//   - "upfront": the first term's upfront amount, Upfront;
//   - "renewal upfront": the upfront amounts of later terms, Scheduled as
//     one payment at the start of each (Start Term, Span (terms − 1)·Term,
//     Payments terms − 1);
//   - "recurring": the recurring amount for the horizon's hours, Spread;
//   - "commitment beyond horizon": the recurring amount for the hours of the
//     last term after the horizon, Scheduled evenly over those hours (Start
//     Horizon, Span the hours beyond, Payments 0).
//
// Lines that would be zero are omitted; with nothing held the result is one
// zero "recurring" line.
func (r Reserved) Charges(u Usage) ([]Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r.charges(u), nil
}

// charges is Charges of a valid usage and pricing.
func (r Reserved) charges(u Usage) []Charge {
	terms := r.Terms(u.Horizon)
	nodes := decimal.NewFromInt(int64(u.Nodes))
	if terms == 0 || u.Nodes == 0 {
		return []Charge{{Category: Commitment, Label: "recurring", Amount: decimal.Zero, Timing: Spread}}
	}
	var out []Charge
	if !r.UpfrontPerNode.IsZero() {
		out = append(out, Charge{Category: Commitment, Label: "upfront", Amount: r.UpfrontPerNode.Mul(nodes), Timing: Upfront})
		if terms > 1 {
			renew := r.UpfrontPerNode.Mul(nodes).Mul(decimal.NewFromInt(terms - 1))
			out = append(out, Charge{Category: Commitment, Label: "renewal upfront", Amount: renew, Timing: Scheduled,
				Start: Duration(r.Term), Span: Duration(time.Duration(terms-1) * r.Term), Payments: int(terms - 1)})
		}
	}
	if !r.RecurringPerHour.IsZero() {
		within := perHour(r.RecurringPerHour.Mul(nodes), decimal.NewFromInt(int64(u.Horizon)))
		out = append(out, Charge{Category: Commitment, Label: "recurring", Amount: within, Timing: Spread})
		covered := decimal.NewFromInt(int64(r.Term)).Mul(decimal.NewFromInt(terms))
		beyondNs := covered.Sub(decimal.NewFromInt(int64(u.Horizon)))
		if beyondNs.IsPositive() {
			beyond := perHour(r.RecurringPerHour.Mul(nodes), beyondNs)
			out = append(out, Charge{Category: Commitment, Label: "commitment beyond horizon", Amount: beyond, Timing: Scheduled,
				Start: Duration(u.Horizon), Span: Duration(beyondNs.IntPart())}) // beyondNs < Term
		}
	}
	if len(out) == 0 {
		out = append(out, Charge{Category: Commitment, Label: "recurring", Amount: decimal.Zero, Timing: Spread})
	}
	return out
}

// Scale returns r with its upfront and recurring amounts multiplied by k.
func (r Reserved) Scale(k decimal.Decimal) Pricing {
	r.UpfrontPerNode = r.UpfrontPerNode.Mul(k)
	r.RecurringPerHour = r.RecurringPerHour.Mul(k)
	return r
}

// Commitment returns the term (see Committer).
func (r Reserved) Commitment() time.Duration { return r.Term }

// Rates returns the charges of one node held over horizon, each as a PerNode
// rate (see Linear): a reservation costs the same whatever its use.
func (r Reserved) Rates(horizon time.Duration) ([]Rate, error) {
	if err := ratesCheck(r, horizon); err != nil {
		return nil, err
	}
	cs := r.charges(Usage{Horizon: horizon, Nodes: 1})
	return perNode(cs), nil
}

// AddPerNodeHour adds amount to the recurring rate; a discount larger than
// the recurring rate takes the rest, times the term's hours, from the upfront
// amount, clamped at zero.
func (r Reserved) AddPerNodeHour(amount decimal.Decimal) (Pricing, bool) {
	rec := r.RecurringPerHour.Add(amount)
	if !rec.IsNegative() {
		r.RecurringPerHour = rec
		return r, false
	}
	var cl bool
	r.RecurringPerHour = decimal.Zero
	r.UpfrontPerNode, cl = clampAdd(r.UpfrontPerNode, rec.Mul(hours(r.Term)))
	return r, cl
}

// perNode turns the charges of one node into PerNode rates.
func perNode(cs []Charge) []Rate {
	out := make([]Rate, len(cs))
	for i, c := range cs {
		out[i] = Rate{Category: c.Category, Label: c.Label, Timing: c.Timing, Basis: PerNode, Amount: c.Amount,
			Start: c.Start, Span: c.Span, Payments: c.Payments}
	}
	return out
}
