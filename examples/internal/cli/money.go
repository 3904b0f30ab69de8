package cli

import (
	"strings"

	"github.com/shopspring/decimal"
)

// symbol is the sign Money prints before an amount in currency: "$", "€" or
// "£" for USD, EUR and GBP, the ISO code and a space for any other
// ("CHF 1,234.00").
func symbol(currency string) string {
	switch currency {
	case "USD":
		return "$"
	case "EUR":
		return "€"
	case "GBP":
		return "£"
	}
	return currency + " "
}

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
	return sign + symbol(currency) + Thousands(whole) + frac
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
