package workload

import (
	"math"
	"time"

	"gonum.org/v1/gonum/integrate"
)

// minPeriodSamples is the least number of samples per period of the
// one-period integrals of a growing periodic curve.
const minPeriodSamples = 1 << 12

// periodicMean returns the mean over [0, horizon] of a growth of a periodic
// base (period P, horizon ≥ P): the factor of period k is the factor of
// period 0 shifted by k·P, so the integral over n whole periods is a sum of
// one-period integrals — geometric for compound growth, arithmetic for
// linear growth — and the remainder is one more partial-period integral.
// The one-period integrals use the trapezoidal rule of numericMean at a
// step no coarser than its own (at least minPeriodSamples per period),
// whose error nearly cancels over a whole period of a smooth periodic
// integrand; the remainder's integral, over part of a period, does not
// cancel (3e-8 of the mean over 30 hours of a diurnal curve), so it is the
// rule at that step and at half of it combined by Richardson's rule
// (extrapolated). ok is
// false when no such decomposition applies or a sample is not a valid
// demand (Mean then reports it).
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
	if end < per {
		return 0, false
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
	p := hours(per)
	nf := float64(n)
	var total float64
	if g.Compound {
		l := math.Log1p(r) / hoursPerYear
		w := func(s float64) float64 { return math.Exp(l * s) }
		full, ok := weightedIntegral(g.Base, per, ns, w)
		if !ok {
			return 0, false
		}
		total = full * math.Expm1(l*nf*p) / math.Expm1(l*p)
		if rem > 0 {
			part, ok := extrapolated(g.Base, rem, remSamples(ns, rem, per), w)
			if !ok {
				return 0, false
			}
			total += math.Exp(l*nf*p) * part
		}
	} else {
		one := func(float64) float64 { return 1 }
		lin := func(s float64) float64 { return s }
		i0, ok0 := weightedIntegral(g.Base, per, ns, one)
		i1, ok1 := weightedIntegral(g.Base, per, ns, lin)
		if !ok0 || !ok1 {
			return 0, false
		}
		// Σₖ ∫₀ᴾ b(s)(1 + a(kP + s)) ds over k < n.
		total = nf*i0 + a*(p*i0*nf*(nf-1)/2+nf*i1)
		if rem > 0 {
			m := remSamples(ns, rem, per)
			r0, ok0 := extrapolated(g.Base, rem, m, one)
			r1, ok1 := extrapolated(g.Base, rem, m, lin)
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

// remSamples is the number of samples of a remainder rem of a period per
// sampled with ns samples: the same step, at least one sample.
func remSamples(ns int, rem, per time.Duration) int {
	return int(min(max(int64(math.Ceil(float64(ns)*float64(rem)/float64(per))), 1), int64(rem)))
}

// extrapolated is weightedIntegral with n and 2n slices combined by
// Richardson's rule, (4·I₂ₙ − Iₙ)/3, which cancels the rule's h² error
// term on a smooth integrand (on a step schedule its error stays within
// 5/3 of the rule's). With fewer than 2n nanoseconds in l it is the rule
// with n slices.
func extrapolated(c Curve, l time.Duration, n int, w func(s float64) float64) (float64, bool) {
	coarse, ok := weightedIntegral(c, l, n, w)
	if !ok || int64(2*n) > int64(l) {
		return coarse, ok
	}
	fine, ok := weightedIntegral(c, l, 2*n, w)
	if !ok {
		return 0, false
	}
	return (4*fine - coarse) / 3, true
}

// weightedIntegral returns ∫₀ˡ c(s)·w(s) ds (s in hours) by the trapezoidal
// rule through 0, the midpoints of n equal slices and l (evaluated 1 ns
// before it, the left limit), as numericMean samples; ok is false when a
// sample of c is not a valid demand.
func weightedIntegral(c Curve, l time.Duration, n int, w func(s float64) float64) (float64, bool) {
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
	if !add(0, 0) {
		return 0, false
	}
	start := time.Duration(0)
	for i := range n {
		end := sliceStart(l, i+1, n)
		t := start + (end-start)/2
		if !add(t, hours(t)) {
			return 0, false
		}
		start = end
	}
	if !add(l-1, hours(l)) { // left limit at l, weighted at l
		return 0, false
	}
	return integrate.Trapezoidal(x, f), true
}
