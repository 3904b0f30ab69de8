package provider

import (
	"github.com/shopspring/decimal"
)

// Charge is one line of cost.
type Charge struct {
	// Category classifies the charge as explicit or hidden.
	Category Category `json:"category"`
	// Label describes the charge for people, e.g. "on-demand compute".
	Label string `json:"label"`
	// Amount is the money charged, in the catalog's currency. It is ≥ 0
	// except for the categories CreditCategory and Residual.
	Amount decimal.Decimal `json:"amount"`
	// Timing says when the amount is paid.
	Timing Timing `json:"timing"`
	// Start, Span and Payments are the schedule of a Scheduled charge,
	// measured from the horizon's start: with Payments ≥ 1, that many equal
	// payments at Start, Start + Span/Payments, …; with Payments = 0, paid
	// evenly over [Start, Start + Span). Other timings leave them zero.
	Start    Duration `json:"start,omitempty"`
	Span     Duration `json:"span,omitempty"`
	Payments int      `json:"payments,omitempty"`
}

// Total returns the sum of the amounts of cs; zero for none.
func Total(cs []Charge) decimal.Decimal {
	t := decimal.Zero
	for _, c := range cs {
		t = t.Add(c.Amount)
	}
	return t
}

// Split returns the sums of the explicit and the hidden charges of cs. Their
// sum is Total(cs).
func Split(cs []Charge) (explicit, hidden decimal.Decimal) {
	explicit, hidden = decimal.Zero, decimal.Zero
	for _, c := range cs {
		if c.Category.Hidden() {
			hidden = hidden.Add(c.Amount)
		} else {
			explicit = explicit.Add(c.Amount)
		}
	}
	return explicit, hidden
}
