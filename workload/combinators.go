package workload

import (
	"fmt"
	"math"
	"time"
)

// Sum adds curves: At(t) = Σ Terms[i].At(t). Its mean is the sum of the
// terms' means. Terms must be non-empty and non-nil. Use Scale to weight the
// terms and Clamp to keep the sum within [0, 1].
type Sum struct {
	// Terms are the curves being added.
	Terms []Curve
}

// Add returns the Sum of first and rest in a fresh slice (rest is copied).
func Add(first Curve, rest ...Curve) Sum {
	return Sum{Terms: append([]Curve{first}, rest...)}
}

// At returns the sum of the terms at t, NaN if there are none or one is nil.
func (s Sum) At(t time.Duration) float64 {
	if len(s.Terms) == 0 {
		return math.NaN()
	}
	var v float64
	for _, c := range s.Terms {
		if c == nil {
			return math.NaN()
		}
		v += c.At(t)
	}
	return v
}

// Period returns the least common multiple of the terms' periods, ignoring
// Constant terms; 0 if another term is aperiodic, if every term is Constant,
// or if the multiple would overflow.
func (s Sum) Period() time.Duration {
	return termsLCM(s.Terms, func(c Curve) time.Duration {
		if c == nil {
			return 0
		}
		return c.Period()
	})
}

// termsLCM is the least common multiple of of(c) over the terms c that are
// not Constant; 0 if one of them is 0 or less, if every term is Constant,
// or if the multiple would overflow.
func termsLCM(terms []Curve, of func(Curve) time.Duration) time.Duration {
	var p time.Duration
	for _, c := range terms {
		if _, ok := c.(Constant); ok {
			continue
		}
		q := of(c)
		if q <= 0 {
			return 0
		}
		if p == 0 {
			p = q
			continue
		}
		m := p / gcd(p, q)
		if m > math.MaxInt64/q {
			return 0
		}
		p = m * q
	}
	return p
}

func gcd(a, b time.Duration) time.Duration {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// MeanOver returns the sum of the terms' closed-form means, if all have one.
func (s Sum) MeanOver(horizon time.Duration) (float64, bool) {
	if len(s.Terms) == 0 {
		return 0, false
	}
	var v float64
	for _, c := range s.Terms {
		m, ok := c.(Meaner)
		if !ok {
			return 0, false
		}
		x, ok := m.MeanOver(horizon)
		if !ok {
			return 0, false
		}
		v += x
	}
	return v, true
}

// Validate reports an empty sum, a sum of more than MaxCurveNodes curves in
// all, or an invalid term.
func (s Sum) Validate() error {
	if len(s.Terms) == 0 {
		return fieldErr("terms", "[]", ErrMissing, "a sum needs at least one term")
	}
	if err := checkNodes(s); err != nil {
		return err
	}
	var errs problemList
	for i, c := range s.Terms {
		errs.addAll(prefixErrors(fmt.Sprintf("terms[%d]", i), validateCurve(c)))
	}
	return errs.err()
}

// Scale multiplies a curve by a constant: At(t) = Factor·Curve.At(t).
// Factor must be finite and ≥ 0.
type Scale struct {
	// Curve is the curve being scaled; required.
	Curve Curve
	// Factor is the multiplier, finite and ≥ 0.
	Factor float64
}

// At returns Factor·Curve.At(t), NaN without a curve.
func (s Scale) At(t time.Duration) float64 {
	if s.Curve == nil {
		return math.NaN()
	}
	return s.Factor * s.Curve.At(t)
}

// Period returns the scaled curve's period.
func (s Scale) Period() time.Duration {
	if s.Curve == nil {
		return 0
	}
	return s.Curve.Period()
}

// MeanOver returns Factor times the curve's closed-form mean, if it has one.
func (s Scale) MeanOver(horizon time.Duration) (float64, bool) {
	m, ok := s.Curve.(Meaner)
	if !ok {
		return 0, false
	}
	v, ok := m.MeanOver(horizon)
	return s.Factor * v, ok
}

// Validate reports a missing curve or a factor that is not finite or negative.
func (s Scale) Validate() error {
	var errs problemList
	errs.addAll(prefixErrors("curve", validateCurve(s.Curve)))
	if err := checkQuantity("factor", s.Factor); err != nil {
		errs.add(err)
	}
	return errs.err()
}

// Clamp bounds a curve: At(t) = min(max(Curve.At(t), Min), Max), with
// 0 ≤ Min ≤ Max. A NaN from the curve stays NaN.
type Clamp struct {
	// Curve is the curve being bounded; required.
	Curve Curve
	// Min is the lower bound, ≥ 0.
	Min float64
	// Max is the upper bound, ≥ Min (typically 1).
	Max float64
}

// At returns the clamped value at t, NaN without a curve.
func (c Clamp) At(t time.Duration) float64 {
	if c.Curve == nil {
		return math.NaN()
	}
	return math.Min(math.Max(c.Curve.At(t), c.Min), c.Max)
}

// Period returns the clamped curve's period.
func (c Clamp) Period() time.Duration {
	if c.Curve == nil {
		return 0
	}
	return c.Curve.Period()
}

// Validate reports a missing curve or bounds that are not 0 ≤ Min ≤ Max.
func (c Clamp) Validate() error {
	var errs problemList
	errs.addAll(prefixErrors("curve", validateCurve(c.Curve)))
	for _, f := range []struct {
		n string
		v float64
	}{{"min", c.Min}, {"max", c.Max}} {
		if err := checkQuantity(f.n, f.v); err != nil {
			errs.add(err)
		}
	}
	if c.Min > c.Max {
		errs.add(fieldErr("max", c.Max, ErrOutOfRange, "must be ≥ min"))
	}
	return errs.err()
}

// Shift moves a curve in time: At(t) = Curve.At(t + Offset). Shifting a
// periodic curve by whole periods leaves it unchanged.
//
// When t + Offset lies beyond the range of time.Duration (±292 years), a
// periodic curve is evaluated at the same phase of its period, which is
// exact; an aperiodic curve cannot be evaluated there and At returns NaN, so
// that analysis reports it rather than evaluating at a wrapped-around time.
type Shift struct {
	// Curve is the curve being shifted; required.
	Curve Curve
	// Offset is added to t before evaluating Curve (positive: the curve runs ahead).
	Offset time.Duration
}

// At returns Curve.At(t + Offset), NaN without a curve or when t + Offset
// overflows and the curve is aperiodic (see Shift).
func (s Shift) At(t time.Duration) float64 {
	if s.Curve == nil {
		return math.NaN()
	}
	if u, ok := addDuration(t, s.Offset); ok {
		return s.Curve.At(u)
	}
	p := s.Curve.Period()
	if p <= 0 {
		return math.NaN()
	}
	// (t + Offset) mod p from the two phases, each in [0, p), without overflow.
	a, b := phase(t, p), phase(s.Offset, p)
	if a >= p-b {
		return s.Curve.At(a - (p - b))
	}
	return s.Curve.At(a + b)
}

// addDuration returns a + b and whether the sum is within time.Duration's range.
func addDuration(a, b time.Duration) (time.Duration, bool) {
	if b > 0 && a > math.MaxInt64-b || b < 0 && a < math.MinInt64-b {
		return 0, false
	}
	return a + b, true
}

// Period returns the shifted curve's period.
func (s Shift) Period() time.Duration {
	if s.Curve == nil {
		return 0
	}
	return s.Curve.Period()
}

// MeanOver returns the curve's closed-form mean when the offset is a whole
// number of its periods; otherwise ok is false.
func (s Shift) MeanOver(horizon time.Duration) (float64, bool) {
	m, ok := s.Curve.(Meaner)
	if !ok {
		return 0, false
	}
	if p := s.Curve.Period(); s.Offset != 0 && (p <= 0 || s.Offset%p != 0) {
		return 0, false
	}
	return m.MeanOver(horizon)
}

// Validate reports a missing or invalid curve.
func (s Shift) Validate() error {
	var errs problemList
	errs.addAll(prefixErrors("curve", validateCurve(s.Curve)))
	return errs.err()
}

// Repeat makes a periodic curve from the first Cycle of another:
// At(t) = Curve.At(t mod Cycle). Cycle must be > 0. Use it to turn a sampled
// representative week (PiecewiseLinear) into a year.
type Repeat struct {
	// Curve is the curve whose first Cycle repeats; required.
	Curve Curve
	// Cycle is the length of the repeated window, > 0.
	Cycle time.Duration
}

// At returns Curve.At(t mod Cycle), NaN without a curve or with Cycle ≤ 0.
func (r Repeat) At(t time.Duration) float64 {
	if r.Curve == nil || r.Cycle <= 0 {
		return math.NaN()
	}
	return r.Curve.At(phase(t, r.Cycle))
}

// Period returns Cycle (0 if invalid).
func (r Repeat) Period() time.Duration { return max(r.Cycle, 0) }

// MeanOver returns the exact mean from the curve's closed-form mean, if it has one.
func (r Repeat) MeanOver(horizon time.Duration) (float64, bool) {
	if r.Cycle <= 0 || horizon <= 0 {
		return 0, false
	}
	full, ok1 := integral(r.Curve, r.Cycle)
	part, ok2 := integral(r.Curve, horizon%r.Cycle)
	if !ok1 || !ok2 {
		return 0, false
	}
	return (float64(horizon/r.Cycle)*full + part) / hours(horizon), true
}

// Validate reports a missing curve or a cycle ≤ 0.
func (r Repeat) Validate() error {
	var errs problemList
	errs.addAll(prefixErrors("curve", validateCurve(r.Curve)))
	if r.Cycle <= 0 {
		errs.add(fieldErr("cycle", r.Cycle, ErrZeroPeriod, ""))
	}
	return errs.err()
}

// Window limits a curve to a span of time: At(t) = Curve.At(t) for
// From ≤ t < Until and 0 elsewhere, the curve not evaluated outside; Until
// = 0 means no end. A service that goes live on a date is a Window with
// From at its launch; one that is retired, a Window with an Until. A
// Window does not repeat (its Period is 0), but its Cycle is the curve's:
// inside the span it follows the curve's daily or weekly pattern.
type Window struct {
	// Curve is the curve inside the span; required.
	Curve Curve
	// From is the start of the span (inclusive).
	From time.Duration
	// Until is the end of the span (exclusive), > From; 0 for none.
	Until time.Duration
}

// inside reports whether t is within the span.
func (w Window) inside(t time.Duration) bool {
	return t >= w.From && (w.Until == 0 || t < w.Until)
}

// At returns Curve.At(t) within the span and 0 outside it, NaN without a
// curve.
func (w Window) At(t time.Duration) float64 {
	if w.Curve == nil {
		return math.NaN()
	}
	if !w.inside(t) {
		return 0
	}
	return w.Curve.At(t)
}

// Period returns 0: a curve cut to a span does not repeat.
func (w Window) Period() time.Duration { return 0 }

// MeanOver returns the mean over [0, horizon] from the curve's closed-form
// integrals to the ends of the span within it, if it has them.
func (w Window) MeanOver(horizon time.Duration) (float64, bool) {
	if horizon <= 0 || w.Curve == nil {
		return 0, false
	}
	lo, hi := max(w.From, 0), horizon
	if w.Until != 0 {
		hi = min(hi, w.Until)
	}
	if hi <= lo {
		return 0, true // the curve is not read within [0, horizon]
	}
	upTo, ok1 := integral(w.Curve, hi)
	before, ok2 := integral(w.Curve, lo)
	if !ok1 || !ok2 {
		return 0, false
	}
	d := upTo - before
	if d < 0 && -d <= 1e-12*max(math.Abs(upTo), math.Abs(before)) {
		// A difference of two integrals of a curve near 0 inside the span:
		// rounding, not negative demand (which stays, for Mean to report).
		d = 0
	}
	return d / hours(horizon), true
}

// Validate reports a missing or invalid curve, or an end that is not
// after the start.
func (w Window) Validate() error {
	var errs problemList
	errs.addAll(prefixErrors("curve", validateCurve(w.Curve)))
	if w.Until != 0 && w.Until <= w.From {
		errs.add(fieldErr("until", w.Until, ErrOutOfRange, "must be after from, or 0 for no end"))
	}
	return errs.err()
}
