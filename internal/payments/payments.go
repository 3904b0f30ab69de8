// Package payments splits a Scheduled charge (provider.Charge with Timing
// provider.Scheduled) into its payments, so that tco's cash flows and
// present values and placement's present value of a plan discount it the
// same way.
package payments

import (
	"math"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/shopspring/decimal"
)

// Part is one payment of a charge: Amount, in the month that holds Month
// (a time from the horizon's start) and discounted from At.
type Part struct {
	Amount    decimal.Decimal
	Month, At time.Duration
}

// MaxPayments is the most payments of a charge counted one by one (300
// years of months); a charge with more is paid by month, as one with
// Payments = 0.
const MaxPayments = 12 * 300

// maxTime is where times saturate.
const maxTime = time.Duration(math.MaxInt64 / 2)

// Parts returns the payments of c: with 1 ≤ Payments ≤ MaxPayments, that
// many equal ones at Start, Start + Span/Payments, …, each in the month of
// its time and discounted from it; otherwise c paid over [Start, Start +
// Span) in parts cut at the months, in proportion to their lengths, each
// in the month it starts and discounted from its end (all at Start when
// Span is zero). Parts are rounded at provider.Precision, the last taking
// the rest, so that they sum exactly to c.Amount.
func Parts(c provider.Charge) []Part {
	start, span := time.Duration(c.Start), time.Duration(c.Span)
	end := satAdd(start, span)
	left := c.Amount
	var out []Part
	add := func(amount decimal.Decimal, month, at time.Duration) {
		left = left.Sub(amount)
		out = append(out, Part{Amount: amount, Month: month, At: at})
	}
	switch {
	case c.Payments >= 1 && c.Payments <= MaxPayments:
		per := c.Amount.DivRound(decimal.NewFromInt(int64(c.Payments)), provider.Precision)
		step := span / time.Duration(c.Payments)
		for k := range c.Payments {
			at := satAdd(start, step*time.Duration(k))
			part := per
			if k == c.Payments-1 {
				part = left
			}
			add(part, at, at)
		}
	case span <= 0:
		add(left, start, start)
	default:
		month := provider.Month
		total := decimal.NewFromFloat(span.Hours())
		for t := start; t < end; {
			next := min(end, (t/month+1)*month)
			part := c.Amount.Mul(decimal.NewFromFloat((next - t).Hours())).DivRound(total, provider.Precision)
			if next >= end {
				part = left
			}
			add(part, t, next)
			t = next
		}
	}
	return out
}

// satAdd adds non-negative durations, saturating at maxTime.
func satAdd(a, b time.Duration) time.Duration {
	if b >= maxTime-a {
		return maxTime
	}
	return a + b
}
