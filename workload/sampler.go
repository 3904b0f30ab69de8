package workload

import (
	"math"
	"time"
)

// A sampler evaluates a curve at many chronological times at once, giving
// exactly c.At(t) for each, bit for bit, faster than calling At time after
// time: the built-in combinators are evaluated over a whole batch (one call
// per curve and batch, not per sample); a sub-curve that repeats exactly
// (a built-in curve whose At reads only the phase of t in its period) is
// evaluated once per phase of an evenly spaced grid and copied to the
// other repetitions; and compound Growth raises its fixed base to each
// power with the logarithm of the base taken once (fixedPow, math.Pow's
// own steps). Any other curve is asked At for each time, as before.
//
// A sampler is built for one grid of n sample times in [lo, hi]: t_k =
// t0 + k·step when step > 0 (an evenly spaced grid), any increasing times
// otherwise. fill is then called on consecutive batches of it.
type sampler interface {
	// fill sets out[i] = c.At(ts[i]), ts[i] being sample k0+i of the grid.
	fill(k0 int, ts []time.Duration, out []float64)
}

// grid describes the sample times a sampler is built for.
type grid struct {
	t0, step time.Duration // t_k = t0 + k·step when step > 0
	n        int           // number of samples
	lo, hi   time.Duration // bounds of every sample time
}

// maxSamplerDepth bounds the combinators compiled into a sampler; deeper
// curves (beyond MaxCurveNodes, which validation rejects) are asked At.
const maxSamplerDepth = MaxCurveNodes

// newSampler compiles c for sampling on g.
func newSampler(c Curve, g grid, batch int) sampler {
	return compile(c, g, batch, 0)
}

func compile(c Curve, g grid, batch, depth int) sampler {
	if depth > maxSamplerDepth {
		return atSampler{c}
	}
	if k, ok := c.(Constant); ok {
		return constSampler(k.Value)
	}
	if p := exactPeriod(c); p > 0 && g.step > 0 && p%g.step == 0 && p/g.step < time.Duration(g.n) {
		m := int(p / g.step)
		table := make([]float64, m)
		for k := range table {
			table[k] = c.At(g.t0 + time.Duration(k)*g.step)
		}
		return periodicSampler(table)
	}
	switch v := c.(type) {
	case Growth:
		if v.Base == nil {
			break
		}
		s := growthSampler{base: compile(v.Base, g, batch, depth+1), g: v}
		if v.Compound {
			s.pow, s.compound = newFixedPow(1 + v.RatePerYear)
		}
		return s
	case Scale:
		if v.Curve == nil {
			break
		}
		return scaleSampler{curve: compile(v.Curve, g, batch, depth+1), factor: v.Factor}
	case Clamp:
		if v.Curve == nil {
			break
		}
		return clampSampler{curve: compile(v.Curve, g, batch, depth+1), min: v.Min, max: v.Max}
	case Sum:
		if len(v.Terms) == 0 || len(v.Terms) > MaxCurveNodes {
			break
		}
		s := sumSampler{terms: make([]sampler, len(v.Terms)), buf: make([]float64, batch)}
		for i, t := range v.Terms {
			if t == nil {
				return atSampler{c}
			}
			s.terms[i] = compile(t, g, batch, depth+1)
		}
		return s
	case Shift:
		if v.Curve == nil {
			break
		}
		lo, okLo := addDuration(g.lo, v.Offset)
		hi, okHi := addDuration(g.hi, v.Offset)
		if !okLo || !okHi { // some sample wraps: At handles it
			break
		}
		sg := grid{t0: g.t0 + v.Offset, step: g.step, n: g.n, lo: lo, hi: hi}
		if g.step <= 0 {
			sg.t0 = 0
		}
		return shiftSampler{curve: compile(v.Curve, sg, batch, depth+1), offset: v.Offset, ts: make([]time.Duration, batch)}
	case Window:
		if v.Curve == nil {
			break
		}
		return windowSampler{curve: compile(v.Curve, g, batch, depth+1), w: v}
	}
	return atSampler{c}
}

// exactPeriod returns p > 0 when c is a built-in curve whose At(t) depends
// only on phase(t, p) — the same value bit for bit at every repetition —
// and 0 otherwise (aperiodic, constant, or a curve of another package,
// whose Period is a promise this package does not check).
func exactPeriod(c Curve) time.Duration {
	p, constant := periodOf(c, 0)
	if constant {
		return 0
	}
	return p
}

// periodOf returns c's exact period, or constant = true for a curve whose
// At is the same at every t (a Constant, or a tree of them), or 0.
func periodOf(c Curve, depth int) (p time.Duration, constant bool) {
	if depth > maxSamplerDepth {
		return 0, false
	}
	switch v := c.(type) {
	case Constant:
		return 0, true
	case Diurnal:
		return Day, false // At reads phase(t, Day)
	case Weekly:
		return Week, false // At reads phase(t, Week)
	case Steps:
		if v.Cycle > 0 {
			return v.Cycle, false // At reads phase(t, Cycle)
		}
	case Repeat:
		if v.Cycle > 0 {
			return v.Cycle, false // At reads phase(t, Cycle)
		}
	case Scale:
		if v.Curve != nil {
			return periodOf(v.Curve, depth+1)
		}
	case Clamp:
		if v.Curve != nil {
			return periodOf(v.Curve, depth+1)
		}
	case Shift:
		// The curve is read at t + Offset, or where that overflows at its
		// phase in the curve's Period (NaN if it has none): a function of
		// the phase of t when the curve repeats exactly with its Period.
		if v.Curve != nil {
			if q, k := periodOf(v.Curve, depth+1); !k && q > 0 && q == v.Curve.Period() {
				return q, false
			}
		}
	case Growth:
		// RatePerYear = 0: the factor is exactly 1 (math.Pow(1, y) = 1,
		// max(0, 1 + 0·y) = 1), so At is Base.At.
		if v.Base != nil && v.RatePerYear == 0 {
			return periodOf(v.Base, depth+1)
		}
	case Sum:
		if len(v.Terms) == 0 || len(v.Terms) > MaxCurveNodes {
			return 0, false
		}
		var l time.Duration
		for _, t := range v.Terms {
			if t == nil {
				return 0, false
			}
			q, k := periodOf(t, depth+1)
			switch {
			case k:
				continue
			case q <= 0:
				return 0, false
			case l == 0:
				l = q
			default:
				m := l / gcd(l, q)
				if m > math.MaxInt64/q {
					return 0, false
				}
				l = m * q
			}
		}
		return l, l == 0
	}
	return 0, false
}

// atSampler asks the curve At for each time.
type atSampler struct{ c Curve }

func (s atSampler) fill(_ int, ts []time.Duration, out []float64) {
	for i, t := range ts {
		out[i] = s.c.At(t)
	}
}

// constSampler is a Constant: At returns its value at every t.
type constSampler float64

func (s constSampler) fill(_ int, ts []time.Duration, out []float64) {
	for i := range ts {
		out[i] = float64(s)
	}
}

// periodicSampler holds one period of a curve that repeats exactly on an
// evenly spaced grid: sample k is table[k mod len(table)].
type periodicSampler []float64

func (s periodicSampler) fill(k0 int, ts []time.Duration, out []float64) {
	m := len(s)
	j := k0 % m
	for i := 0; i < len(ts); {
		c := copy(out[i:len(ts)], s[j:])
		i += c
		j = 0
	}
}

// growthSampler is Growth.At: the base times the trend factor.
type growthSampler struct {
	base     sampler
	g        Growth
	pow      fixedPow
	compound bool // pow replaces math.Pow in the compound factor
}

func (s growthSampler) fill(k0 int, ts []time.Duration, out []float64) {
	s.base.fill(k0, ts, out)
	if s.compound {
		for i, t := range ts {
			out[i] *= s.pow.pow(hours(t) / hoursPerYear)
		}
		return
	}
	for i, t := range ts {
		out[i] *= s.g.factor(t)
	}
}

// scaleSampler is Scale.At.
type scaleSampler struct {
	curve  sampler
	factor float64
}

func (s scaleSampler) fill(k0 int, ts []time.Duration, out []float64) {
	s.curve.fill(k0, ts, out)
	for i, v := range out[:len(ts)] {
		out[i] = s.factor * v
	}
}

// clampSampler is Clamp.At.
type clampSampler struct {
	curve    sampler
	min, max float64
}

func (s clampSampler) fill(k0 int, ts []time.Duration, out []float64) {
	s.curve.fill(k0, ts, out)
	for i, v := range out[:len(ts)] {
		out[i] = math.Min(math.Max(v, s.min), s.max)
	}
}

// sumSampler is Sum.At: the terms added in order, from zero.
type sumSampler struct {
	terms []sampler
	buf   []float64
}

func (s sumSampler) fill(k0 int, ts []time.Duration, out []float64) {
	out = out[:len(ts)]
	for i := range out {
		out[i] = 0
	}
	buf := s.buf[:len(ts)]
	for _, t := range s.terms {
		t.fill(k0, ts, buf)
		for i, v := range buf {
			out[i] += v
		}
	}
}

// shiftSampler is Shift.At on a grid where no t + Offset overflows.
type shiftSampler struct {
	curve  sampler
	offset time.Duration
	ts     []time.Duration
}

func (s shiftSampler) fill(k0 int, ts []time.Duration, out []float64) {
	u := s.ts[:len(ts)]
	for i, t := range ts {
		u[i] = t + s.offset
	}
	s.curve.fill(k0, u, out)
}

// windowSampler is Window.At: the curve sampled at every time, then 0
// outside the span (where At does not read the curve: whatever the curve
// gives there, NaN included, is replaced).
type windowSampler struct {
	curve sampler
	w     Window
}

func (s windowSampler) fill(k0 int, ts []time.Duration, out []float64) {
	s.curve.fill(k0, ts, out)
	for i, t := range ts {
		if !s.w.inside(t) {
			out[i] = 0
		}
	}
}

// fixedPow computes math.Pow(x, y) for one base x and many exponents y,
// bit for bit: it takes math.Pow's own steps (y split into its integer
// and fractional parts, x^yf = Exp(yf·Log x), x^yi by the successive
// squarings of Frexp(x)) with Log x and the squarings computed once. It
// applies to a finite x > 0 other than 1; exponents outside math.Pow's
// general path (0, ±½, 1, not finite, or beyond the squarings kept) are
// passed to math.Pow.
type fixedPow struct {
	x, logx float64
	// x1[b]·2^xe[b] is x^(2^b), as math.Pow's loop holds it at bit b.
	x1   [powBits]float64
	xe   [powBits]int
	bits int // squarings kept: yi < 2^bits
}

// powBits is the most squarings fixedPow keeps: exponents below 2²⁰.
const powBits = 20

// newFixedPow returns the fixedPow of x, ok false when x is not a finite
// number > 0 other than 1 (math.Pow's special cases).
func newFixedPow(x float64) (fixedPow, bool) {
	if !(x > 0) || x == 1 || math.IsInf(x, 1) {
		return fixedPow{}, false
	}
	p := fixedPow{x: x, logx: math.Log(x)}
	x1, xe := math.Frexp(x)
	for b := range powBits {
		if xe < -1<<12 || 1<<12 < xe { // math.Pow stops multiplying here
			break
		}
		p.x1[b], p.xe[b] = x1, xe
		p.bits = b + 1
		x1 *= x1
		xe <<= 1
		if x1 < .5 {
			x1 += x1
			xe--
		}
	}
	return p, true
}

// pow returns math.Pow(p.x, y).
func (p *fixedPow) pow(y float64) float64 {
	switch {
	case y == 0:
		return 1
	case y == 1:
		return p.x
	case y == 0.5 || y == -0.5 || math.IsNaN(y) || math.IsInf(y, 0):
		return math.Pow(p.x, y)
	}
	yi, yf := math.Modf(math.Abs(y))
	if yi >= 1<<(powBits-1) {
		return math.Pow(p.x, y)
	}
	a1, ae := 1.0, 0
	if yf != 0 {
		if yf > 0.5 {
			yf--
			yi++
		}
		a1 = math.Exp(yf * p.logx)
	}
	i := int64(yi)
	if i >= 1<<p.bits {
		return math.Pow(p.x, y)
	}
	for b := 0; i != 0; b, i = b+1, i>>1 {
		if i&1 == 1 {
			a1 *= p.x1[b]
			ae += p.xe[b]
		}
	}
	if y < 0 {
		a1 = 1 / a1
		ae = -ae
	}
	return ldexp(a1, ae)
}

// ldexp is math.Ldexp(frac, exp): for a normal frac whose scaled exponent
// stays normal, frac with exp added to its exponent field (which is what
// math.Ldexp computes then, exactly); otherwise math.Ldexp.
func ldexp(frac float64, exp int) float64 {
	const shift, mask, bias = 52, 0x7ff, 1023
	x := math.Float64bits(frac)
	e := int(x>>shift) & mask
	if e == 0 || e == mask || exp < -bias || exp > bias {
		return math.Ldexp(frac, exp)
	}
	e += exp
	if e < 1 || e >= mask {
		return math.Ldexp(frac, exp)
	}
	return math.Float64frombits(x&^(mask<<shift) | uint64(e)<<shift)
}
