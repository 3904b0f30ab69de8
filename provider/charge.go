package provider

import (
	"fmt"

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

// MaxChargeExponent bounds the decimal exponent of the amounts a pricing
// returns: ±4096. Arithmetic on valid inputs (amounts within ±MaxExponent,
// float quantities down to 10⁻³⁰⁸) reaches exponents of a few hundred;
// adding an amount of exponent 2³¹ to an ordinary one would build a number
// of two billion digits.
const MaxChargeExponent = 1 << 12

// CheckCharges reports every charge of cs whose amount has a decimal
// exponent beyond ±MaxChargeExponent. Code that prices through a Pricing it
// does not control (Credit, RatePerGPUHour, the tco package) checks what it
// returns before adding it up.
func CheckCharges(cs []Charge) error {
	var p problems
	for i, c := range cs {
		p.exponent(indexed("Charges", i, "Amount"), c.Amount)
	}
	return p.err()
}

// CheckRates reports every rate of rs whose amount has a decimal exponent
// beyond ±MaxChargeExponent, as CheckCharges does for charges.
func CheckRates(rs []Rate) error {
	var p problems
	for i, r := range rs {
		p.exponent(indexed("Rates", i, "Amount"), r.Amount)
	}
	return p.err()
}

// exponent adds a problem if d's exponent is beyond ±MaxChargeExponent.
func (p *problems) exponent(field string, d decimal.Decimal) {
	if e := d.Exponent(); e > MaxChargeExponent || e < -MaxChargeExponent {
		p.add(field, fmt.Sprintf("%se%d", d.Coefficient(), e),
			fmt.Errorf("decimal exponent beyond ±MaxChargeExponent = %d: %w", MaxChargeExponent, ErrOutOfRange))
	}
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
