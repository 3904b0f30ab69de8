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
	// Timing says when within the horizon the amount is paid.
	Timing Timing `json:"timing"`
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
