package workload

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Curve is demand over time as a fraction of a workload's peak GPUs.
//
// Contract, method by method:
//   - At(t) returns the demand at time t after the start of the horizon. It
//     must not panic for any t (negative t included) and must be
//     deterministic. Built-in curves return values in [0, 1] when their
//     parameters are valid (Growth, Sum and Scale may exceed 1; wrap them in
//     Clamp or size the workload's GPUs for the maximum), and NaN when their
//     parameters are invalid, so that analysis reports an error.
//   - Period() returns p > 0 if At(t+p) == At(t) for every t, or 0 if the
//     curve is not periodic. It must not panic.
//
// Curves are values, safe for concurrent use. Downstream code can implement
// its own; optionally it may also implement Meaner (a closed-form mean) and a
// Validate() error method, which the analysis functions call first.
type Curve interface {
	At(t time.Duration) float64
	Period() time.Duration
}

// Meaner is an optional interface for curves with a closed-form mean.
// MeanOver returns the mean of At over [0, horizon] for horizon > 0 and
// ok == true, or ok == false when no closed form applies (the analysis
// functions then integrate numerically).
type Meaner interface {
	MeanOver(horizon time.Duration) (mean float64, ok bool)
}

// Day and Week are the periods of the Diurnal and Weekly curves.
const (
	Day  = 24 * time.Hour
	Week = 7 * Day
)

// hoursPerYear is the year used by Growth: 365 days.
const hoursPerYear = 8760

// phase returns t modulo p in [0, p); p must be > 0.
func phase(t, p time.Duration) time.Duration {
	r := t % p
	if r < 0 {
		r += p
	}
	return r
}

func hours(d time.Duration) float64 { return d.Hours() }

// integral returns ∫₀ʰ c.At dt in fraction·hours using c's closed form.
func integral(c Curve, h time.Duration) (float64, bool) {
	if h <= 0 {
		return 0, true
	}
	m, ok := c.(Meaner)
	if !ok {
		return 0, false
	}
	v, ok := m.MeanOver(h)
	return v * hours(h), ok
}

// MaxCurveNodes bounds the size of a demand curve: the number of curves in
// its tree of combinators (a Sum of three Constants has four; a curve of
// another package counts one). Sampling costs this many evaluations per
// sample, and a service's curve is sampled up to MaxSamples times, so the
// bound keeps a million samples within a second or so; a schedule with many
// changes is a Steps or PiecewiseLinear curve, which count one whatever
// their length.
const MaxCurveNodes = 64

// curveNodes returns the number of curves in c's tree, counting at most
// MaxCurveNodes+1 of them.
func curveNodes(c Curve) int {
	n := 0
	stack := []Curve{c}
	for len(stack) > 0 && n <= MaxCurveNodes {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		switch v := c.(type) {
		case Sum:
			if len(v.Terms) > MaxCurveNodes {
				return MaxCurveNodes + 1
			}
			stack = append(stack, v.Terms...)
		case Weekly:
			stack = append(stack, v.Weekday, v.Weekend)
		case Growth:
			stack = append(stack, v.Base)
		case Scale:
			stack = append(stack, v.Curve)
		case Clamp:
			stack = append(stack, v.Curve)
		case Shift:
			stack = append(stack, v.Curve)
		case Repeat:
			stack = append(stack, v.Curve)
		case Window:
			stack = append(stack, v.Curve)
		case nil:
			n-- // a missing curve is reported by its parent
		}
	}
	return n
}

// checkNodes reports a curve of more than MaxCurveNodes curves.
func checkNodes(c Curve) error {
	if curveNodes(c) > MaxCurveNodes {
		return fieldErr("curve", fmt.Sprintf("%T", c), ErrOutOfRange,
			fmt.Sprintf("more than MaxCurveNodes = %d curves in its tree", MaxCurveNodes))
	}
	return nil
}

// validateCurve checks the size of c's tree (MaxCurveNodes), then calls c's
// Validate method if it has one.
func validateCurve(c Curve) error {
	if c == nil {
		return fieldErr("curve", "nil", ErrMissing, "")
	}
	if err := checkNodes(c); err != nil {
		return err
	}
	if v, ok := c.(interface{ Validate() error }); ok {
		return v.Validate()
	}
	return nil
}

// checkFraction reports a value outside [0, 1] or not finite.
func checkFraction(field string, v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fieldErr(field, v, ErrNotFinite, "")
	case v < 0:
		return fieldErr(field, v, ErrNegative, "")
	case v > 1:
		return fieldErr(field, v, ErrOutOfRange, "must be in [0, 1]")
	}
	return nil
}

// Constant is a flat demand: At(t) = Value for every t. Value must be in [0, 1].
type Constant struct {
	// Value is the demand as a fraction of peak, in [0, 1].
	Value float64
}

// At returns c.Value.
func (c Constant) At(time.Duration) float64 { return c.Value }

// Period returns 0: a constant has no proper period.
func (c Constant) Period() time.Duration { return 0 }

// MeanOver returns c.Value (closed form).
func (c Constant) MeanOver(time.Duration) (float64, bool) { return c.Value, true }

// Validate reports a Value that is not finite or outside [0, 1].
func (c Constant) Validate() error { return checkFraction("value", c.Value) }

// Diurnal is a daily sinusoid:
//
//	At(t) = Mean + Amplitude·cos(2π·(h − PeakHour)/24), h = hours of t.
//
// Its period is one Day; its mean over whole days is Mean and its peak
// Mean+Amplitude at PeakHour (t = 0 is midnight). Valid parameters satisfy
// 0 ≤ Amplitude ≤ Mean, Mean + Amplitude ≤ 1 and 0 ≤ PeakHour < 24.
type Diurnal struct {
	// Mean is the daily mean demand, a fraction of peak GPUs.
	Mean float64
	// Amplitude is the half peak-to-trough swing.
	Amplitude float64
	// PeakHour is the hour of the day (0 ≤ PeakHour < 24) of maximum demand.
	PeakHour float64
}

// NewDiurnal returns a validated Diurnal curve with the given daily mean,
// amplitude and hour of peak.
func NewDiurnal(mean, amplitude, peakHour float64) (Diurnal, error) {
	d := Diurnal{Mean: mean, Amplitude: amplitude, PeakHour: peakHour}
	return d, d.Validate()
}

// DiurnalFromRatio returns a validated Diurnal curve with the given daily
// mean and peak-to-trough ratio r ≥ 1 (peak/trough = r, so the amplitude is
// mean·(r−1)/(r+1)); r = +Inf gives a trough of zero.
func DiurnalFromRatio(mean, peakToTrough, peakHour float64) (Diurnal, error) {
	r := peakToTrough
	if math.IsNaN(r) || math.IsInf(r, -1) || r < 1 {
		return Diurnal{}, fieldErr("peakToTrough", r, ErrOutOfRange, "must be ≥ 1")
	}
	a := mean
	if !math.IsInf(r, 1) {
		a = mean * (r - 1) / (r + 1)
	}
	return NewDiurnal(mean, a, peakHour)
}

// At returns the demand at t; see Diurnal.
func (d Diurnal) At(t time.Duration) float64 {
	h := hours(phase(t, Day))
	return d.Mean + d.Amplitude*math.Cos(2*math.Pi*(h-d.PeakHour)/24)
}

// Period returns Day.
func (d Diurnal) Period() time.Duration { return Day }

// MeanOver returns the exact mean over [0, horizon]:
// Mean + Amplitude·24/(2πH)·(sin(2π(H−p)/24) + sin(2πp/24)), H in hours.
func (d Diurnal) MeanOver(horizon time.Duration) (float64, bool) {
	if horizon <= 0 {
		return d.At(0), true
	}
	rem := hours(horizon % Day) // exact over whole days; only the remainder matters
	w := 2 * math.Pi / 24
	integ := d.Mean*hours(horizon) + d.Amplitude/w*(math.Sin(w*(rem-d.PeakHour))+math.Sin(w*d.PeakHour))
	return integ / hours(horizon), true
}

// Validate reports parameters that are not finite or would make demand leave [0, 1].
func (d Diurnal) Validate() error {
	var errs problemList
	for _, f := range []struct {
		n string
		v float64
	}{{"mean", d.Mean}, {"amplitude", d.Amplitude}} {
		if err := checkFraction(f.n, f.v); err != nil {
			errs.add(err)
		}
	}
	if len(errs.errs) == 0 {
		if d.Amplitude > d.Mean {
			errs.add(fieldErr("amplitude", d.Amplitude, ErrOutOfRange, "must be ≤ mean so demand stays ≥ 0"))
		}
		if d.Mean+d.Amplitude > 1 {
			errs.add(fieldErr("amplitude", d.Amplitude, ErrOutOfRange, "mean + amplitude must be ≤ 1"))
		}
	}
	if math.IsNaN(d.PeakHour) || d.PeakHour < 0 || d.PeakHour >= 24 {
		errs.add(fieldErr("peakHour", d.PeakHour, ErrOutOfRange, "must be in [0, 24)"))
	}
	return errs.err()
}

// Weekly applies Weekday on Monday to Friday and Weekend on Saturday and
// Sunday, each evaluated at the time of day (t = 0 is Monday 00:00). Its
// period is one Week. Both profiles are required; they are typically Steps
// or Diurnal curves with a one-day period.
type Weekly struct {
	// Weekday is the profile of Monday to Friday, evaluated at the time of day.
	Weekday Curve
	// Weekend is the profile of Saturday and Sunday, evaluated at the time of day.
	Weekend Curve
}

// At returns the demand at t; see Weekly. A nil profile gives NaN.
func (w Weekly) At(t time.Duration) float64 {
	p := phase(t, Week)
	c := w.Weekday
	if p >= 5*Day {
		c = w.Weekend
	}
	if c == nil {
		return math.NaN()
	}
	return c.At(p % Day)
}

// Period returns Week.
func (w Weekly) Period() time.Duration { return Week }

// MeanOver returns the exact mean over [0, horizon] when both profiles have
// closed-form means.
func (w Weekly) MeanOver(horizon time.Duration) (float64, bool) {
	if horizon <= 0 || w.Weekday == nil || w.Weekend == nil {
		return 0, false
	}
	wd, ok1 := integral(w.Weekday, Day)
	we, ok2 := integral(w.Weekend, Day)
	if !ok1 || !ok2 {
		return 0, false
	}
	total := float64(horizon/Week) * (5*wd + 2*we)
	rem := horizon % Week
	for day := 0; rem > 0; day++ {
		c := w.Weekday
		if day >= 5 {
			c = w.Weekend
		}
		part := min(rem, Day)
		v, ok := integral(c, part)
		if !ok {
			return 0, false
		}
		total += v
		rem -= part
	}
	return total / hours(horizon), true
}

// Validate reports missing or invalid profiles.
func (w Weekly) Validate() error {
	var errs problemList
	for _, p := range []struct {
		n string
		c Curve
	}{{"weekday", w.Weekday}, {"weekend", w.Weekend}} {
		if p.c == nil {
			errs.add(fieldErr(p.n, "nil", ErrMissing, ""))
			continue
		}
		errs.addAll(prefixErrors(p.n, validateCurve(p.c)))
	}
	return errs.err()
}

// Step is one step of a Steps schedule: from Start on, demand is Value.
type Step struct {
	// Start is the offset within the period (or from t = 0) where the step begins.
	Start time.Duration
	// Value is the demand from Start until the next step, in [0, 1].
	Value float64
}

// Steps is a piecewise-constant schedule. Each step holds from its Start
// until the next step's Start; the last step holds until the end of the
// cycle (or forever when Cycle is 0). Steps must be non-empty, start at 0
// and be strictly increasing, and with Cycle > 0 every Start must be below
// Cycle. With Cycle > 0 the schedule repeats: At(t) = At(t mod Cycle).
type Steps struct {
	// Period is the length of the repeating schedule; 0 means it does not repeat.
	Cycle time.Duration
	// Steps are the steps in increasing order of Start, the first at 0.
	Steps []Step
}

// NewSteps returns a validated step schedule holding a copy of steps.
func NewSteps(period time.Duration, steps ...Step) (Steps, error) {
	s := Steps{Cycle: period, Steps: append([]Step(nil), steps...)}
	return s, s.Validate()
}

// At returns the value of the step in force at t (the first step's value
// for t < 0 when not periodic), or NaN for an empty schedule or a negative
// period.
func (s Steps) At(t time.Duration) float64 {
	if len(s.Steps) == 0 || s.Cycle < 0 {
		return math.NaN()
	}
	if s.Cycle > 0 {
		t = phase(t, s.Cycle)
	}
	i := sort.Search(len(s.Steps), func(i int) bool { return s.Steps[i].Start > t }) - 1
	if i < 0 {
		i = 0
	}
	return s.Steps[i].Value
}

// Period returns s.Cycle.
func (s Steps) Period() time.Duration { return max(s.Cycle, 0) }

// MeanOver returns the exact mean over [0, horizon].
func (s Steps) MeanOver(horizon time.Duration) (float64, bool) {
	if horizon <= 0 || len(s.Steps) == 0 || s.Cycle < 0 {
		return 0, false
	}
	if s.Cycle == 0 {
		return s.integralTo(horizon) / hours(horizon), true
	}
	total := float64(horizon/s.Cycle)*s.integralTo(s.Cycle) + s.integralTo(horizon%s.Cycle)
	return total / hours(horizon), true
}

// integralTo returns ∫₀ˣ At in fraction·hours for 0 ≤ x (≤ Period if periodic).
func (s Steps) integralTo(x time.Duration) float64 {
	var sum float64
	for i, st := range s.Steps {
		start := max(st.Start, 0)
		if i == 0 {
			start = 0
		}
		if start >= x {
			break
		}
		end := x
		if i+1 < len(s.Steps) {
			end = min(end, s.Steps[i+1].Start)
		}
		if end > start {
			sum += st.Value * hours(end-start)
		}
	}
	return sum
}

// Validate reports an empty, unsorted or out-of-range schedule.
func (s Steps) Validate() error {
	var errs problemList
	if s.Cycle < 0 {
		errs.add(fieldErr("cycle", s.Cycle, ErrNegative, ""))
	}
	if len(s.Steps) == 0 {
		errs.add(fieldErr("steps", "[]", ErrEmptySamples, ""))
	} else if s.Steps[0].Start != 0 {
		errs.add(fieldErr("steps[0].start", s.Steps[0].Start, ErrOutOfRange, "the first step starts at 0"))
	}
	for i, st := range s.Steps {
		if i > 0 && st.Start <= s.Steps[i-1].Start {
			errs.add(fieldErr(fmt.Sprintf("steps[%d].start", i), st.Start, ErrUnsorted, ""))
		}
		if s.Cycle > 0 && st.Start >= s.Cycle {
			errs.add(fieldErr(fmt.Sprintf("steps[%d].start", i), st.Start, ErrOutOfRange, "must be below the period"))
		}
		if err := checkFraction("value", st.Value); err != nil {
			errs.addAll(prefixErrors(fmt.Sprintf("steps[%d]", i), err))
		}
	}
	return errs.err()
}

// Point is one sample of a PiecewiseLinear curve: demand V at time T.
type Point struct {
	// T is the time of the sample from the start of the horizon.
	T time.Duration
	// V is the demand at T, in [0, 1].
	V float64
}

// PiecewiseLinear interpolates linearly between samples and holds the first
// and last values before the first and after the last sample. Points must
// be non-empty, strictly increasing in T, with V in [0, 1]. It is not
// periodic; wrap it in Repeat for a representative period.
type PiecewiseLinear struct {
	// Points are the samples in strictly increasing order of T.
	Points []Point
}

// NewPiecewiseLinear returns a validated curve holding a copy of points.
func NewPiecewiseLinear(points []Point) (PiecewiseLinear, error) {
	p := PiecewiseLinear{Points: append([]Point(nil), points...)}
	return p, p.Validate()
}

// At returns the interpolated demand at t, or NaN without points.
func (p PiecewiseLinear) At(t time.Duration) float64 {
	pts := p.Points
	n := len(pts)
	if n == 0 {
		return math.NaN()
	}
	if t <= pts[0].T {
		return pts[0].V
	}
	if t >= pts[n-1].T {
		return pts[n-1].V
	}
	i := sort.Search(n, func(i int) bool { return pts[i].T > t }) // pts[i-1].T ≤ t < pts[i].T
	a, b := pts[i-1], pts[i]
	if b.T <= a.T {
		return a.V
	}
	f := float64(t-a.T) / float64(b.T-a.T)
	return a.V + f*(b.V-a.V)
}

// Period returns 0.
func (p PiecewiseLinear) Period() time.Duration { return 0 }

// MeanOver returns the exact mean over [0, horizon] (trapezoids, constant
// extrapolation outside the samples).
func (p PiecewiseLinear) MeanOver(horizon time.Duration) (float64, bool) {
	pts := p.Points
	if horizon <= 0 || len(pts) == 0 {
		return 0, false
	}
	var sum float64
	seg := func(t0, t1 time.Duration) { // integral of At over [t0, t1] ∩ [0, horizon], linear on it
		t0, t1 = max(t0, 0), min(t1, horizon)
		if t1 > t0 {
			sum += (p.At(t0) + p.At(t1)) / 2 * hours(t1-t0)
		}
	}
	seg(math.MinInt64, pts[0].T)
	for i := 1; i < len(pts); i++ {
		if pts[i].T <= pts[i-1].T {
			return 0, false
		}
		seg(pts[i-1].T, pts[i].T)
	}
	seg(pts[len(pts)-1].T, math.MaxInt64)
	return sum / hours(horizon), true
}

// Validate reports empty, unsorted or out-of-range samples.
func (p PiecewiseLinear) Validate() error {
	var errs problemList
	if len(p.Points) == 0 {
		errs.add(fieldErr("points", "[]", ErrEmptySamples, ""))
	}
	for i, pt := range p.Points {
		if i > 0 && pt.T <= p.Points[i-1].T {
			errs.add(fieldErr(fmt.Sprintf("points[%d].t", i), pt.T, ErrUnsorted, ""))
		}
		if err := checkFraction("v", pt.V); err != nil { // name the field only on error: no allocation per point
			errs.addAll(prefixErrors(fmt.Sprintf("points[%d]", i), err))
		}
	}
	return errs.err()
}

// Growth multiplies a base curve by a trend over years of 365 days:
//
//	linear:   At(t) = Base.At(t)·max(0, 1 + RatePerYear·y)
//	compound: At(t) = Base.At(t)·(1 + RatePerYear)^y,   y = t / 8760 h.
//
// RatePerYear must be finite and > −1. Growth may exceed 1: size the
// workload's GPUs for the demand at the end of the horizon (scale the base
// down) or wrap it in Clamp.
type Growth struct {
	// Base is the curve being grown; required.
	Base Curve
	// RatePerYear is the yearly growth (0.5 = +50 % a year); negative shrinks.
	RatePerYear float64
	// Compound selects compound growth; false is linear.
	Compound bool
}

func (g Growth) factor(t time.Duration) float64 {
	y := hours(t) / hoursPerYear
	if g.Compound {
		return math.Pow(1+g.RatePerYear, y)
	}
	return max(0, 1+g.RatePerYear*y)
}

// At returns the grown demand at t, or NaN without a base.
func (g Growth) At(t time.Duration) float64 {
	if g.Base == nil {
		return math.NaN()
	}
	return g.Base.At(t) * g.factor(t)
}

// Period returns Base's period if RatePerYear is 0, else 0.
func (g Growth) Period() time.Duration {
	if g.RatePerYear == 0 && g.Base != nil {
		return g.Base.Period()
	}
	return 0
}

// MeanOver returns the exact mean when Base is a Constant, and for a
// periodic Base the mean decomposed period by period (see periodicMean:
// exact but for the quadrature over one period and over the part of a
// period left); otherwise ok is false.
func (g Growth) MeanOver(horizon time.Duration) (float64, bool) {
	if g.Base == nil || horizon <= 0 {
		return 0, false
	}
	if m, ok := g.Base.(Meaner); ok && g.RatePerYear == 0 {
		return m.MeanOver(horizon) // no growth: the base's own mean
	}
	c, isConst := g.Base.(Constant)
	if !isConst {
		return g.periodicMean(horizon)
	}
	r, y := g.RatePerYear, hours(horizon)/hoursPerYear
	switch {
	case r == 0:
		return c.Value, true
	case g.Compound:
		if r <= -1 {
			return 0, false
		}
		l := math.Log1p(r)
		return c.Value * math.Expm1(l*y) / (l * y), true
	default:
		end := y
		if r < 0 {
			end = min(y, -1/r) // the factor reaches 0 here and stays there
		}
		// ∫₀^end (1 + r·s) ds = end + r·end²/2
		return c.Value * (end + r*end*end/2) / y, true
	}
}

// Validate reports a missing base or a rate that is not finite or ≤ −1.
func (g Growth) Validate() error {
	var errs problemList
	if g.Base == nil {
		errs.add(fieldErr("base", "nil", ErrMissing, ""))
	} else {
		errs.addAll(prefixErrors("base", validateCurve(g.Base)))
	}
	if math.IsNaN(g.RatePerYear) || math.IsInf(g.RatePerYear, 0) {
		errs.add(fieldErr("ratePerYear", g.RatePerYear, ErrNotFinite, ""))
	} else if g.RatePerYear <= -1 {
		errs.add(fieldErr("ratePerYear", g.RatePerYear, ErrOutOfRange, "must be > -1"))
	}
	return errs.err()
}
