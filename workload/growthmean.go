package workload

import (
	"math"
	"time"

	"gonum.org/v1/gonum/integrate"
)

// minPeriodSamples is the least number of samples per period of the
// one-period integrals of a growing periodic curve.
const minPeriodSamples = 1 << 12

// periodicMean returns the mean over [0, horizon] of a growth of a
// periodic base (period P): the factor of period k is the factor of period
// 0 shifted by k·P, so the integral over n whole periods is a sum of
// one-period integrals — geometric for compound growth, arithmetic for
// linear growth — and the remainder (all of the horizon when it is shorter
// than P) is one more partial-period integral. The one-period integrals
// use the trapezoidal rule of numericMean at a step no coarser than its
// own (at least minPeriodSamples per period, whole multiples of the
// DefaultStep slices), whose error nearly cancels over a whole period of a
// smooth periodic integrand; the remainder's integral, over part of a
// period, does not cancel (3e-8 of the mean over 30 hours of a diurnal
// curve), so it is the rule on the period's grid at that step and at half
// of it, extrapolated (remainder). ok is false when no such decomposition
// applies or a sample is not a valid demand (Mean then reports it).
func (g Growth) periodicMean(horizon time.Duration) (float64, bool) {
	per := g.Base.Period()
	r := g.RatePerYear
	if per <= 0 || r == 0 || r <= -1 || math.IsNaN(r) || math.IsInf(r, 0) {
		return 0, false
	}
	end := horizon // where a linear decline reaches 0 and stays there
	a := r / hoursPerYear
	if !g.Compound && r < 0 {
		if z := -1 / a; z < hours(horizon) {
			end = time.Duration(z * float64(time.Hour))
		}
	}
	n, rem := end/per, end%per
	// Whole multiples of the DefaultStep slices of a period: the rule is
	// then exact on a step schedule whose steps fall on DefaultStep
	// boundaries (each jump midway between two samples), where an
	// unaligned step errs by up to jump·step/2 at every jump (0.3 % of the
	// mean of a 15-minute schedule over a day at 4 096 samples).
	ds := int64(defaultSlices(per))
	k := (max(4*ds, minPeriodSamples) + ds - 1) / ds
	ns := int(min(k*ds, MaxSamples, int64(per)))
	step := per / time.Duration(ns) // ≥ 1 ns: ns ≤ per
	p := hours(per)
	nf := float64(n)
	var total float64
	if g.Compound {
		l := math.Log1p(r) / hoursPerYear
		w := func(s float64) float64 { return math.Exp(l * s) }
		full, ok := weightedIntegral(g.Base, 0, per, ns, w)
		if !ok {
			return 0, false
		}
		total = full * math.Expm1(l*nf*p) / math.Expm1(l*p)
		if rem > 0 {
			part, ok := remainder(g.Base, rem, step, w)
			if !ok {
				return 0, false
			}
			total += math.Exp(l*nf*p) * part
		}
	} else {
		one := func(float64) float64 { return 1 }
		lin := func(s float64) float64 { return s }
		i0, ok0 := weightedIntegral(g.Base, 0, per, ns, one)
		i1, ok1 := weightedIntegral(g.Base, 0, per, ns, lin)
		if !ok0 || !ok1 {
			return 0, false
		}
		// Σₖ ∫₀ᴾ b(s)(1 + a(kP + s)) ds over k < n.
		total = nf*i0 + a*(p*i0*nf*(nf-1)/2+nf*i1)
		if rem > 0 {
			r0, ok0 := remainder(g.Base, rem, step, one)
			r1, ok1 := remainder(g.Base, rem, step, lin)
			if !ok0 || !ok1 {
				return 0, false
			}
			total += (1+a*nf*p)*r0 + a*r1
		}
	}
	v := total / hours(horizon)
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, false
	}
	return v, true
}

// remainder is ∫₀ʳᵉᵐ c(s)·w(s) ds on the grid of the period's rule (slices
// of step > 0): its whole slices, which keep the period's alignment (and so
// its exactness on steps at DefaultStep boundaries), then the part of a
// slice left, each extrapolated.
func remainder(c Curve, rem, step time.Duration, w func(s float64) float64) (float64, bool) {
	q := rem / step
	var v float64
	if q > 0 {
		whole, ok := extrapolated(c, 0, q*step, int(q), w)
		if !ok {
			return 0, false
		}
		v = whole
	}
	if q*step < rem {
		tail, ok := extrapolated(c, q*step, rem, 1, w)
		if !ok {
			return 0, false
		}
		v += tail
	}
	return v, true
}

// extrapolated is weightedIntegral over [a, b] with n and 2n slices
// combined by Richardson's rule, which cancels the rule's h² error term on
// a smooth integrand (on a step schedule its error stays within 3 times
// the rule's). With fewer than 2n nanoseconds in [a, b] it is the rule
// with n slices.
func extrapolated(c Curve, a, b time.Duration, n int, w func(s float64) float64) (float64, bool) {
	coarse, ok := weightedIntegral(c, a, b, n, w)
	if !ok || int64(2*n) > int64(b-a) {
		return coarse, ok
	}
	fine, ok := weightedIntegral(c, a, b, 2*n, w)
	if !ok {
		return 0, false
	}
	// The rule's nodes cut [a, b] into n−1 slices of h = (b−a)/n and two
	// of h/2 at the ends, so its error on a curve of constant second
	// derivative is C·h²·(1 − 3/(4n)): at 2n slices a fraction
	// (1 − 3/(8n)) / (4·(1 − 3/(4n))) of that at n, which the combination
	// cancels (4 and 3 as n grows: Richardson's (4·I₂ₙ − Iₙ)/3).
	nf := float64(n)
	r := 4 * (1 - 0.75/nf) / (1 - 0.375/nf)
	return (r*fine - coarse) / (r - 1), true
}

// weightedIntegral returns ∫ₐᵇ c(s)·w(s) ds (s in hours) by the
// trapezoidal rule through a, the midpoints of n equal slices and b
// (evaluated 1 ns before it, the left limit), as numericMean samples; ok
// is false when a sample of c is not a valid demand.
func weightedIntegral(c Curve, a, b time.Duration, n int, w func(s float64) float64) (float64, bool) {
	x := make([]float64, 0, n+2)
	f := make([]float64, 0, n+2)
	add := func(t time.Duration, at float64) bool {
		v := c.At(t)
		if checkDemand(v, t) != nil {
			return false
		}
		x, f = append(x, at), append(f, v*w(at))
		return true
	}
	if !add(a, hours(a)) {
		return 0, false
	}
	start := a
	for i := range n {
		end := a + sliceStart(b-a, i+1, n)
		t := start + (end-start)/2
		if !add(t, hours(t)) {
			return 0, false
		}
		start = end
	}
	if !add(b-1, hours(b)) { // left limit at b, weighted at b
		return 0, false
	}
	return integrate.Trapezoidal(x, f), true
}
