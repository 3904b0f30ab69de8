package cli

import (
	"strings"

	"github.com/shopspring/decimal"
)

// symbols are the currency signs Money prints before an amount; any other
// currency prints its ISO code and a space ("CHF 1,234.00").
var symbols = map[string]string{"USD": "$", "EUR": "€", "GBP": "£"}

// Money formats d in currency, rounded half away from zero to cents, with
// thousands separators: "$1,234,567.89", "-€12.00", "CHF 0.50".
func Money(d decimal.Decimal, currency string) string {
	return MoneyFixed(d, currency, 2)
}

// MoneyFixed is Money with places decimal places (0 for whole units).
func MoneyFixed(d decimal.Decimal, currency string, places int32) string {
	s := d.StringFixed(places)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if frac != "" {
		frac = "." + frac
	}
	if sign == "-" && strings.Trim(whole+frac, "0.") == "" {
		sign = "" // "-0.00" rounds to zero
	}
	sym, ok := symbols[currency]
	if !ok {
		sym = currency + " "
	}
	return sign + sym + Thousands(whole) + frac
}

// Thousands puts a comma between every three digits of a string of digits.
func Thousands(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	head := len(digits) % 3
	if head > 0 {
		b.WriteString(digits[:head])
	}
	for i := head; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}
