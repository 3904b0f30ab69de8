package workload

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/integrate"
	"gonum.org/v1/gonum/stat"
)

// DefaultStep is the sampling step of the analysis functions when they are
// not given a number of slices: five minutes, within MaxSamples.
const DefaultStep = 5 * time.Minute

// MaxSamples bounds the number of samples (slices) of any analysis, to keep
// memory and time bounded for long horizons: 2²⁰ ≈ one million.
const MaxSamples = 1 << 20

// Profile is a curve sampled at the midpoints of N equal slices of
// [0, Horizon]: Values[i] is the demand at Horizon·(i+½)/N. Its methods are
// pure and do not modify Values. Build one with Sample.
type Profile struct {
	// Horizon is the sampled span.
	Horizon time.Duration
	// Values holds one sample per slice, chronologically.
	Values []float64
}

// SliceHours returns the length of one slice in hours (0 for an empty profile).
func (p Profile) SliceHours() float64 {
	if len(p.Values) == 0 {
		return 0
	}
	return hours(p.Horizon) / float64(len(p.Values))
}

// Mean returns the mean of the samples (the midpoint rule for the curve's
// mean), 0 for an empty profile.
func (p Profile) Mean() float64 {
	if len(p.Values) == 0 {
		return 0
	}
	return stat.Mean(p.Values, nil)
}

// Peak returns the largest sample, 0 for an empty profile.
func (p Profile) Peak() float64 {
	if len(p.Values) == 0 {
		return 0
	}
	return floats.Max(p.Values)
}

// Quantile returns the empirical q-quantile of the samples (gonum
// stat.Quantile, stat.Empirical): the smallest sample that is ≥ a fraction q
// of the samples. q must be in [0, 1] and the profile non-empty.
func (p Profile) Quantile(q float64) (float64, error) {
	if math.IsNaN(q) || q < 0 || q > 1 {
		return 0, fieldErr("quantile", q, ErrOutOfRange, "must be in [0, 1]")
	}
	if len(p.Values) == 0 {
		return 0, fieldErr("values", "[]", ErrEmptySamples, "")
	}
	s := slices.Clone(p.Values)
	slices.Sort(s)
	return stat.Quantile(q, stat.Empirical, s, nil), nil
}

// LoadDuration returns the load-duration curve: a fresh copy of the samples
// sorted in descending order. Element i is the demand exceeded (or met) for
// (i+1)·SliceHours hours of the horizon.
func (p Profile) LoadDuration() []float64 {
	s := slices.Clone(p.Values)
	slices.Sort(s)
	slices.Reverse(s)
	return s
}

// HoursAbove returns the hours of the horizon during which demand is at or
// above level: the number of samples ≥ level times SliceHours. It is
// non-increasing in level and equals the horizon in hours at level ≤ 0.
func (p Profile) HoursAbove(level float64) float64 {
	n := 0
	for _, v := range p.Values {
		if v >= level {
			n++
		}
	}
	if n == len(p.Values) {
		return hours(p.Horizon)
	}
	return float64(n) * p.SliceHours()
}

// sliceStart returns the start of slice i of n equal slices of h without
// overflow.
func sliceStart(h time.Duration, i, n int) time.Duration {
	q, r := h/time.Duration(n), h%time.Duration(n)
	return q*time.Duration(i) + r*time.Duration(i)/time.Duration(n)
}

// defaultSlices returns the number of DefaultStep slices in h, within [1, MaxSamples].
func defaultSlices(h time.Duration) int {
	n := h / DefaultStep
	if h%DefaultStep != 0 {
		n++
	}
	return int(min(max(n, 1), MaxSamples))
}

// prepare validates the common arguments of the analysis functions.
func prepare(c Curve, horizon time.Duration) error {
	if c == nil {
		return fieldErr("curve", "nil", ErrMissing, "")
	}
	if horizon <= 0 {
		return fieldErr("horizon", horizon, ErrZeroPeriod, "")
	}
	return validateCurve(c)
}

// checkDemand reports a sampled value that is NaN, infinite or negative.
func checkDemand(v float64, t time.Duration) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("workload: %w: demand %v at t = %v", ErrDemand, v, t)
	}
	return nil
}

// Sample samples c at the midpoints of n equal slices of [0, horizon]. With
// n ≤ 0 it uses DefaultStep slices (at most MaxSamples). It returns an error
// for a nil or invalid curve, horizon ≤ 0, n > MaxSamples, or a sampled
// value that is NaN, infinite or negative.
func Sample(c Curve, horizon time.Duration, n int) (Profile, error) {
	if err := prepare(c, horizon); err != nil {
		return Profile{}, err
	}
	if n <= 0 {
		n = defaultSlices(horizon)
	}
	if n > MaxSamples {
		return Profile{}, fieldErr("slices", n, ErrOutOfRange, fmt.Sprintf("at most %d", MaxSamples))
	}
	vals, err := sampleRange(c, 0, horizon, n)
	if err != nil {
		return Profile{}, err
	}
	return Profile{Horizon: horizon, Values: vals}, nil
}

// sampleRange samples c at the midpoints of n equal slices of
// [from, from+length) without validating c: sampleEach's values and error,
// computed by a sampler.
func sampleRange(c Curve, from, length time.Duration, n int) ([]float64, error) {
	vals := make([]float64, n)
	if n <= 0 {
		return vals, nil
	}
	g := grid{n: n, lo: from, hi: from + max(length-1, 0)}
	if length%time.Duration(n) == 0 {
		g.step = length / time.Duration(n)
		g.t0 = from + g.step/2
	}
	batch := min(n, samplerBatch)
	s := newSampler(c, g, batch)
	ts := make([]time.Duration, batch)
	for k0 := 0; k0 < n; k0 += batch {
		k1 := min(n, k0+batch)
		for k := k0; k < k1; k++ {
			if g.step > 0 {
				ts[k-k0] = g.t0 + time.Duration(k)*g.step
			} else {
				ts[k-k0] = sampleTime(from, length, k, n)
			}
		}
		s.fill(k0, ts[:k1-k0], vals[k0:k1])
	}
	for k, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, checkDemand(v, sampleTime(from, length, k, n))
		}
	}
	return vals, nil
}

// samplerBatch is the number of samples a sampler evaluates at once.
const samplerBatch = 512

// sampleTime returns the midpoint of slice k of n equal slices of
// [from, from+length), as sampleEach computes it.
func sampleTime(from, length time.Duration, k, n int) time.Duration {
	start, end := sliceStart(length, k, n), sliceStart(length, k+1, n)
	return from + start + (end-start)/2
}

// sampleEach is sampleRange into vals (one sample per element), asking c.At
// for each sample in turn: the straightforward path, which the tests hold
// sampleRange and Discretize to.
func sampleEach(vals []float64, c Curve, from, length time.Duration) ([]float64, error) {
	n := len(vals)
	start := time.Duration(0)
	for i := range vals {
		end := sliceStart(length, i+1, n)
		t := from + start + (end-start)/2
		v := c.At(t)
		if err := checkDemand(v, t); err != nil {
			return nil, err
		}
		vals[i] = v
		start = end
	}
	return vals, nil
}

// Mean returns the mean demand of c over [0, horizon]: the curve's closed
// form if it implements Meaner, otherwise the trapezoidal rule (gonum
// integrate.Trapezoidal) through 0, the midpoints of slices a quarter of
// DefaultStep long (at most MaxSamples) and the horizon (evaluated 1 ns before it, the left limit), so that a jump on a
// slice boundary is split evenly and a linear stretch is exact. Errors as
// for Sample.
func Mean(c Curve, horizon time.Duration) (float64, error) {
	if err := prepare(c, horizon); err != nil {
		return 0, err
	}
	if m, ok := c.(Meaner); ok {
		if v, ok := m.MeanOver(horizon); ok {
			if err := checkDemand(v, horizon); err != nil {
				return 0, fmt.Errorf("mean: %w", err)
			}
			return v, nil
		}
	}
	return numericMean(c, horizon, int(min(4*int64(defaultSlices(horizon)), MaxSamples)))
}

// numericMean integrates c over [0, horizon] with the trapezoidal rule
// through 0, the midpoints of n equal slices and horizon.
func numericMean(c Curve, horizon time.Duration, n int) (float64, error) {
	x := make([]float64, 0, n+2)
	f := make([]float64, 0, n+2)
	add := func(t time.Duration) error {
		v := c.At(t)
		if err := checkDemand(v, t); err != nil {
			return err
		}
		x, f = append(x, hours(t)), append(f, v)
		return nil
	}
	if err := add(0); err != nil {
		return 0, err
	}
	start := time.Duration(0)
	for i := 0; i < n; i++ {
		end := sliceStart(horizon, i+1, n)
		if err := add(start + (end-start)/2); err != nil {
			return 0, err
		}
		start = end
	}
	if err := add(horizon - 1); err != nil { // left limit at the horizon
		return 0, err
	}
	x[len(x)-1] = hours(horizon)
	return integrate.Trapezoidal(x, f) / hours(horizon), nil
}

// Peak returns the largest demand of c over [0, horizon], sampled at the
// boundaries and midpoints of DefaultStep slices (so it can miss a narrow
// spike between samples). Errors as for Sample.
func Peak(c Curve, horizon time.Duration) (float64, error) {
	if err := prepare(c, horizon); err != nil {
		return 0, err
	}
	n := 2 * defaultSlices(horizon)
	peak := math.Inf(-1)
	for i := 0; i <= n; i++ {
		t := sliceStart(horizon, i, n)
		v := c.At(t)
		if err := checkDemand(v, t); err != nil {
			return 0, err
		}
		peak = max(peak, v)
	}
	return peak, nil
}

// Quantile returns the empirical q-quantile of c's demand over [0, horizon]
// sampled at DefaultStep (see Profile.Quantile). Errors as for Sample, and
// for q outside [0, 1].
func Quantile(c Curve, horizon time.Duration, q float64) (float64, error) {
	p, err := Sample(c, horizon, 0)
	if err != nil {
		return 0, err
	}
	return p.Quantile(q)
}

// LoadDuration returns the load-duration curve of c over [0, horizon]: the
// demand sampled at the midpoints of n equal slices (n ≤ 0: DefaultStep
// slices), sorted in descending order. Each element stands for horizon/n of
// time. Errors as for Sample.
func LoadDuration(c Curve, horizon time.Duration, n int) ([]float64, error) {
	p, err := Sample(c, horizon, n)
	if err != nil {
		return nil, err
	}
	slices.Sort(p.Values) // p.Values is ours: sort in place
	slices.Reverse(p.Values)
	return p.Values, nil
}

// HoursAbove returns the hours of [0, horizon] during which c's demand is at
// or above level, sampled at DefaultStep (see Profile.HoursAbove). Errors as
// for Sample, and for a NaN level.
func HoursAbove(c Curve, horizon time.Duration, level float64) (float64, error) {
	if math.IsNaN(level) {
		return 0, fieldErr("level", level, ErrNotFinite, "")
	}
	p, err := Sample(c, horizon, 0)
	if err != nil {
		return 0, err
	}
	return p.HoursAbove(level), nil
}

// Slice is one time slice of a representative period.
type Slice struct {
	// Start is the slice's start within the period.
	Start time.Duration
	// Length is the slice's duration.
	Length time.Duration
	// Demand is the mean demand over the slice, a fraction of peak GPUs.
	Demand float64
	// Peak is the largest sampled demand within the slice.
	Peak float64
}

// Hours returns the slice length in hours.
func (s Slice) Hours() float64 { return hours(s.Length) }

// Discretize divides the representative period [0, period) into n equal
// chronological slices (the time slices the placement solver consumes) and
// returns each slice's mean and peak demand, computed from DefaultStep
// sub-samples (at least one per slice; n·sub-samples ≤ MaxSamples). n must
// be in [1, MaxSamples]; other errors as for Sample. For a periodic curve
// pass its Period (a week for Weekly) so that the slices represent every
// repetition.
func Discretize(c Curve, period time.Duration, n int) ([]Slice, error) {
	return DiscretizeFrom(c, 0, period, n)
}

// DiscretizeFrom is Discretize of c read from offset on: the slices of
// [offset, offset+period) of c, each Start measured from offset — those of
// the curve t ↦ c.At(offset + t), read as Shift{c, offset} reads it. It
// validates c itself (a shift adds no curve to its tree), so any valid
// curve may be read from any offset; where offset + t is beyond the range
// of time.Duration an aperiodic curve gives NaN and an error. With offset
// 0 it is Discretize.
func DiscretizeFrom(c Curve, offset, period time.Duration, n int) ([]Slice, error) {
	if n < 1 || n > MaxSamples {
		return nil, fieldErr("slices", n, ErrOutOfRange, fmt.Sprintf("must be in [1, %d]", MaxSamples))
	}
	if err := prepare(c, period); err != nil {
		return nil, err
	}
	if period < time.Duration(n) {
		return nil, fieldErr("slices", n, ErrOutOfRange, "more slices than nanoseconds in the period")
	}
	sub := max(1, min(defaultSlices(period)/n, MaxSamples/n))
	if offset != 0 {
		c = Shift{Curve: c, Offset: offset}
	}
	if out, ok := discretize(c, period, n, sub); ok {
		return out, nil
	}
	return discretizeEach(c, period, n, sub)
}

// Reslice returns DiscretizeFrom(c, offset, period, n) read off sl — the
// slices of Discretize(c, span, len(sl)) of the same curve c, span being the
// end of sl's last slice — without sampling c again. Each slice of the
// window [offset, offset+period) is then one of sl, with the same start,
// length and number of sub-samples: its mean and peak are of the same
// samples of c, bit for bit. ok is false (and the slices nil) when that is
// not so — the window starts before 0 or ends after span, its slices are
// not sl's, they are sub-sampled otherwise, or n and period are arguments
// DiscretizeFrom rejects —; the caller then samples with DiscretizeFrom.
// It does not modify sl; the slices returned are the caller's.
func Reslice(sl []Slice, offset, period time.Duration, n int) (_ []Slice, ok bool) {
	m := len(sl)
	if m == 0 || n < 1 || n > MaxSamples || period < time.Duration(n) || offset < 0 {
		return nil, false
	}
	span := sl[m-1].Start + sl[m-1].Length
	if period > span || offset > span-period {
		return nil, false
	}
	if max(1, min(defaultSlices(period)/n, MaxSamples/n)) != max(1, min(defaultSlices(span)/m, MaxSamples/m)) {
		return nil, false
	}
	j := sort.Search(m, func(j int) bool { return sl[j].Start >= offset })
	if j+n > m {
		return nil, false
	}
	out := make([]Slice, n)
	for i := range out {
		start, end := sliceStart(period, i, n), sliceStart(period, i+1, n)
		s := sl[j+i]
		if s.Start != offset+start || s.Length != end-start {
			return nil, false
		}
		out[i] = Slice{Start: start, Length: end - start, Demand: s.Demand, Peak: s.Peak}
	}
	return out, true
}

// discretize is Discretize's slices computed by a sampler over all the
// sub-samples at once; ok is false when a sample is not a valid demand
// (discretizeEach then reports it). Each slice's mean and peak are those of
// its sub-samples in a buffer allocated as discretizeEach's, so that they
// are summed (gonum's floats.Sum, whose order depends on alignment) alike.
func discretize(c Curve, period time.Duration, n, sub int) ([]Slice, bool) {
	g := grid{n: n * sub, hi: period - 1}
	P, N, S := period, time.Duration(n), time.Duration(sub)
	if P%N == 0 && (P/N)%S == 0 { // every sub-sample as long: t_k = (k + ½)·step
		g.step = P / N / S
		g.t0 = g.step / 2
		g.lo = g.t0
	}
	per := max(1, min(n, samplerBatch/sub)) // slices per batch
	s := newSampler(c, g, per*sub)
	ts := make([]time.Duration, per*sub)
	vals := make([]float64, per*sub)
	buf := make([]float64, sub)
	out := make([]Slice, n)
	for i0 := 0; i0 < n; i0 += per {
		i1 := min(n, i0+per)
		k := 0
		for i := i0; i < i1; i++ {
			if g.step > 0 {
				for j := range sub {
					ts[k] = g.t0 + time.Duration(i*sub+j)*g.step
					k++
				}
				continue
			}
			start, end := sliceStart(period, i, n), sliceStart(period, i+1, n)
			for j := range sub {
				ts[k] = sampleTime(start, end-start, j, sub)
				k++
			}
		}
		s.fill(i0*sub, ts[:k], vals[:k])
		for i := i0; i < i1; i++ {
			copy(buf, vals[(i-i0)*sub:])
			for _, v := range buf {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					return nil, false
				}
			}
			p := Profile{Values: buf}
			start, end := sliceStart(period, i, n), sliceStart(period, i+1, n)
			out[i] = Slice{Start: start, Length: end - start, Demand: p.Mean(), Peak: p.Peak()}
		}
	}
	return out, true
}

// discretizeEach is Discretize sampling each slice in turn with sampleEach:
// the straightforward path, which reports the first slice whose sample is
// not a valid demand.
func discretizeEach(c Curve, period time.Duration, n, sub int) ([]Slice, error) {
	out := make([]Slice, n)
	var errs []error
	buf := make([]float64, sub)
	for i := range out {
		start, end := sliceStart(period, i, n), sliceStart(period, i+1, n)
		vals, err := sampleEach(buf, c, start, end-start)
		p := Profile{Horizon: end - start, Values: vals}
		if err != nil {
			errs = append(errs, fmt.Errorf("slice %d at %v: %w", i, start, err))
			break
		}
		out[i] = Slice{Start: start, Length: end - start, Demand: p.Mean(), Peak: p.Peak()}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}
