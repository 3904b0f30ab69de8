package provider

import (
	"math"
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// maxResalePoints bounds the points of a resale curve.
const maxResalePoints = 100

// Resale is a market resale curve of owned hardware: what a used node
// fetches, as a fraction of its purchase price, by age. It is a market
// estimate, not an accounting figure: book value (Owned.BookValue) follows
// the depreciation schedule, resale follows what buyers pay.
//
// The value at age 0 is 1 (the purchase price); between points it is
// linear; beyond the last point it stays at the last fraction. The zero
// Resale has no points: no market value is known, and Owned credits the
// book value instead.
type Resale struct {
	// Points are the curve's points, with ages increasing and positive and
	// fractions in [0, 1] never rising with age.
	Points []ResalePoint
	// Source names where the curve comes from (a citation or URL).
	Source string
	// Estimate marks a curve that is an estimate rather than observed prices.
	Estimate bool
}

// ResalePoint is one point of a Resale curve.
type ResalePoint struct {
	// Age is the node's age since purchase.
	Age time.Duration
	// Fraction is the resale price at Age as a fraction of the purchase price.
	Fraction float64
}

// IsZero reports whether r has no points (no market value known).
func (r Resale) IsZero() bool { return len(r.Points) == 0 }

// Fraction returns the resale price at age t as a fraction of the purchase
// price: 1 at t ≤ 0, linear between points, the last fraction beyond the last
// point. It returns 0 for a curve without points.
func (r Resale) Fraction(t time.Duration) float64 {
	if len(r.Points) == 0 {
		return 0
	}
	if t <= 0 {
		return 1
	}
	prevAge, prevF := time.Duration(0), 1.0
	for _, p := range r.Points {
		if t <= p.Age {
			span := float64(p.Age - prevAge)
			if span <= 0 {
				return p.Fraction
			}
			return prevF + (p.Fraction-prevF)*float64(t-prevAge)/span
		}
		prevAge, prevF = p.Age, p.Fraction
	}
	return prevF
}

// Validate reports every problem of r: more than 100 points, ages not
// positive or not increasing, fractions outside [0, 1], not finite or
// rising with age.
func (r Resale) Validate() error {
	var p problems
	r.validate(&p, "resale")
	return p.err()
}

func (r Resale) validate(p *problems, field string) {
	if len(r.Points) > maxResalePoints {
		p.add(field+".points", len(r.Points), ErrOutOfRange)
		return
	}
	prevAge, prevF := time.Duration(0), 1.0
	for i, pt := range r.Points {
		f := field + ".points[" + strconv.Itoa(i) + "]"
		if pt.Age <= prevAge {
			p.add(f+".age", pt.Age, ErrOutOfRange)
		}
		switch {
		case math.IsNaN(pt.Fraction) || math.IsInf(pt.Fraction, 0):
			p.add(f+".fraction", pt.Fraction, ErrNotFinite)
		case pt.Fraction < 0 || pt.Fraction > prevF:
			p.add(f+".fraction", pt.Fraction, ErrOutOfRange)
		default:
			prevF = pt.Fraction
		}
		prevAge = max(prevAge, pt.Age)
	}
}

// resaleValue returns the market value of one node of price at age t.
func (r Resale) resaleValue(price decimal.Decimal, t time.Duration) decimal.Decimal {
	return price.Mul(decFloat(r.Fraction(t))).Round(Precision)
}
