package provider

import (
	"fmt"
	"math"
	"time"

	"github.com/shopspring/decimal"
)

// Precision is the number of decimal places kept by the package's internal
// divisions (decimal.DivRound). Results differ from exact arithmetic by at
// most a few units in this place per line.
const Precision = 16

// Calendar constants. A year is 365 days; a month is a twelfth of a year.
const (
	Year  = 8760 * time.Hour
	Month = Year / 12
)

var (
	nsPerHour  = decimal.NewFromInt(int64(time.Hour))
	nsPerYear  = decimal.NewFromInt(int64(Year))
	nsPerMonth = decimal.NewFromInt(int64(Month))
)

// hours returns d in hours as an exact-as-possible decimal.
func hours(d time.Duration) decimal.Decimal {
	return decimal.NewFromInt(int64(d)).DivRound(nsPerHour, Precision)
}

// decFloat converts a finite float to a decimal. Its callers pass validated
// quantities (and what finite arithmetic on them yields); a NaN or an
// infinity here is a programmer error, and it panics saying so rather than
// price it as zero.
func decFloat(f float64) decimal.Decimal {
	if !finite(f) {
		panic(fmt.Sprintf("provider: decimal of non-finite quantity %v", f))
	}
	return decimal.NewFromFloat(f)
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func indexed(prefix string, i int, field string) string {
	return fmt.Sprintf("%s[%d].%s", prefix, i, field)
}

// MaxExponent bounds the decimal exponent of money amounts that validation
// accepts: |exponent| ≤ 64 is far beyond any real price and far from the
// int32 exponent overflow that makes decimal arithmetic panic (and from
// comparisons that would build numbers with billions of digits).
const MaxExponent = 64

// MaxNumberLen bounds the text of a number read from CSV or of a money
// amount read from JSON: 64 characters, more than any real figure needs,
// since parsing a decimal takes time quadratic in its length.
const MaxNumberLen = 64

// moneyInBounds reports whether d's exponent is within ±MaxExponent.
func moneyInBounds(d decimal.Decimal) bool {
	e := d.Exponent()
	return e <= MaxExponent && e >= -MaxExponent
}

// money adds a problem if d is negative or its exponent is out of bounds.
func (p *problems) money(field string, d decimal.Decimal) {
	switch {
	case !moneyInBounds(d):
		// d.String() would print every digit: billions for such exponents.
		p.add(field, fmt.Sprintf("%se%d", d.Coefficient(), d.Exponent()), ErrOutOfRange)
	case d.IsNegative():
		p.add(field, d.String(), ErrNegative)
	}
}

// quantity adds a problem if f is not finite or outside [lo, hi].
func (p *problems) quantity(field string, f, lo, hi float64) {
	switch {
	case !finite(f):
		p.add(field, f, ErrNotFinite)
	case f < 0 && lo >= 0:
		p.add(field, f, ErrNegative)
	case f < lo || f > hi:
		p.add(field, f, ErrOutOfRange)
	}
}

// duration adds a problem if d is negative.
func (p *problems) duration(field string, d time.Duration) {
	if d < 0 {
		p.add(field, d, ErrNegative)
	}
}
