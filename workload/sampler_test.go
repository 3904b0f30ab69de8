package workload

import (
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// foreign is a curve of another package (a type this package does not
// know): the sampler asks it At, whatever its Period says.
type foreign struct{ c Curve }

func (f foreign) At(t time.Duration) float64 { return f.c.At(t) }
func (f foreign) Period() time.Duration      { return f.c.Period() }

// genSampled generates the curves the sampler must reproduce: the valid
// built-in curves of genCurve, the same wrapped in combinators with
// parameters that are out of range (values below zero, NaN, a missing or
// foreign curve), growth at rates of zero and over years, sums of
// constants, and shifts next to the range of time.Duration.
func genSampled(depth int) *rapid.Generator[Curve] {
	return rapid.Custom(func(t *rapid.T) Curve {
		kinds := []string{"valid", "constant", "bad-diurnal", "growth-years", "foreign", "steps-flat"}
		if depth > 0 {
			kinds = append(kinds, "sum", "scale", "clamp", "shift", "shift-far", "repeat", "growth", "sum-consts", "window")
		}
		switch rapid.SampledFrom(kinds).Draw(t, "kind") {
		case "valid":
			return genCurve(min(depth, 2)).Draw(t, "curve")
		case "constant":
			return Constant{rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 0.5, 1, -0.25, math.NaN()}).Draw(t, "value")}
		case "bad-diurnal": // amplitude above the mean: negative demand at the trough
			return Diurnal{Mean: 0.3, Amplitude: rapid.Float64Range(0, 0.6).Draw(t, "amplitude"), PeakHour: rapid.Float64Range(0, 23.9).Draw(t, "peakHour")}
		case "growth-years":
			return Growth{Base: genCurve(1).Draw(t, "base"),
				RatePerYear: rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 0.1, 0.6, -0.5, -0.999999, 5, 1e-17}).Draw(t, "ratePerYear"),
				Compound:    rapid.Bool().Draw(t, "compound")}
		case "foreign":
			return foreign{genCurve(1).Draw(t, "curve")}
		case "steps-flat":
			return Steps{Steps: []Step{{0, rapid.Float64Range(0, 1).Draw(t, "value")}}}
		case "sum":
			n := rapid.IntRange(0, 3).Draw(t, "terms")
			var terms []Curve
			for range n {
				terms = append(terms, genSampled(depth-1).Draw(t, "term"))
			}
			if rapid.IntRange(0, 9).Draw(t, "nilTerm") == 0 {
				terms = append(terms, nil)
			}
			return Sum{Terms: terms}
		case "sum-consts":
			return Add(Constant{0.25}, Constant{0.5}, Scale{genSampled(depth-1).Draw(t, "term"), 0.25})
		case "scale":
			return Scale{genSampled(depth-1).Draw(t, "curve"), rapid.SampledFrom([]float64{0, 0.5, 1, 2, -1, math.NaN()}).Draw(t, "factor")}
		case "clamp":
			return Clamp{genSampled(depth-1).Draw(t, "curve"), rapid.Float64Range(0, 0.5).Draw(t, "min"), rapid.Float64Range(0.5, 1).Draw(t, "max")}
		case "shift":
			return Shift{genSampled(depth-1).Draw(t, "curve"), time.Duration(rapid.Int64Range(-1e15, 1e15).Draw(t, "offset"))}
		case "shift-far": // next to the end of time.Duration: some samples wrap
			off := time.Duration(math.MaxInt64 - rapid.Int64Range(0, 1e14).Draw(t, "fromEnd"))
			if rapid.Bool().Draw(t, "negative") {
				off = -off
			}
			return Shift{genSampled(depth-1).Draw(t, "curve"), off}
		case "repeat":
			return Repeat{genSampled(depth-1).Draw(t, "curve"), time.Duration(rapid.Int64Range(-1, 30*24*3600e9).Draw(t, "cycle"))}
		case "window": // any span, valid or not, about the sampled times
			var c Curve
			if rapid.IntRange(0, 9).Draw(t, "nilCurve") > 0 {
				c = genSampled(depth-1).Draw(t, "curve")
			}
			return Window{c, time.Duration(rapid.Int64Range(-1e16, 1e16).Draw(t, "from")), time.Duration(rapid.Int64Range(-1e16, 1e16).Draw(t, "until"))}
		default: // "growth"
			var base Curve
			if rapid.IntRange(0, 9).Draw(t, "nilBase") > 0 {
				base = genSampled(depth-1).Draw(t, "base")
			}
			return Growth{Base: base, RatePerYear: rapid.Float64Range(-0.99, 3).Draw(t, "ratePerYear"), Compound: rapid.Bool().Draw(t, "compound")}
		}
	})
}

// drawPeriod draws a span to sample: whole five-minute units (so that a
// grid of sub-samples is evenly spaced and the periodic tables are used)
// or any number of nanoseconds.
func drawPeriod(t *rapid.T) time.Duration {
	if rapid.Bool().Draw(t, "aligned") {
		return drawUnits(t, 1, 40*24*12, "period")
	}
	return time.Duration(rapid.Int64Range(1, 40*24*3600e9).Draw(t, "periodNs"))
}

// sameValues reports whether a and b hold the same float64s bit for bit.
func sameValues(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// propSampleRange: the sampler gives sampleEach's values bit for bit, or
// its error.
func propSampleRange(t *rapid.T) {
	c := genSampled(2).Draw(t, "curve")
	length := drawPeriod(t)
	n := rapid.IntRange(1, int(min(length, 6000))).Draw(t, "n")
	from := time.Duration(rapid.Int64Range(-1e16, 1e16).Draw(t, "from"))
	got, gerr := sampleRange(c, from, length, n)
	want, werr := sampleEach(make([]float64, n), c, from, length)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("error %v, want %v", gerr, werr)
	}
	if !sameValues(got, want) {
		t.Fatalf("samples differ from At's:\n got %v\nwant %v", got, want)
	}
}

// propDiscretize: Discretize gives discretizeEach's slices bit for bit, or
// its error.
func propDiscretize(t *rapid.T) {
	c := genSampled(2).Draw(t, "curve")
	period := drawPeriod(t)
	n := rapid.IntRange(1, int(min(period, 3000))).Draw(t, "n")
	got, gerr := Discretize(c, period, n)
	if prepare(c, period) != nil {
		return // rejected before sampling, by both paths
	}
	want, werr := discretizeEach(c, period, n, max(1, min(defaultSlices(period)/n, MaxSamples/n)))
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("error %v, want %v", gerr, werr)
	}
	if len(got) != len(want) {
		t.Fatalf("%d slices, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Start != w.Start || g.Length != w.Length ||
			math.Float64bits(g.Demand) != math.Float64bits(w.Demand) || math.Float64bits(g.Peak) != math.Float64bits(w.Peak) {
			t.Fatalf("slice %d: %+v, want %+v", i, g, w)
		}
	}
}

// readFrom is a curve read from an offset on, as a caller outside the
// package writes it: At(t) = c.At(offset + t), Period c's.
type readFrom struct {
	c      Curve
	offset time.Duration
}

func (r readFrom) At(t time.Duration) float64 { return r.c.At(r.offset + t) }
func (r readFrom) Period() time.Duration      { return r.c.Period() }

// propDiscretizeFrom: DiscretizeFrom is Discretize of the curve read from
// the offset on, bit for bit, wherever offset + t stays within range.
func propDiscretizeFrom(t *rapid.T) {
	c := genSampled(2).Draw(t, "curve")
	period := drawPeriod(t)
	n := rapid.IntRange(1, int(min(period, 3000))).Draw(t, "n")
	offset := time.Duration(rapid.Int64Range(-1e17, 1e17).Draw(t, "offset"))
	if prepare(c, period) != nil {
		return
	}
	got, gerr := DiscretizeFrom(c, offset, period, n)
	want, werr := Discretize(readFrom{c, offset}, period, n)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("error %v, want %v", gerr, werr)
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Start != w.Start || g.Length != w.Length ||
			math.Float64bits(g.Demand) != math.Float64bits(w.Demand) || math.Float64bits(g.Peak) != math.Float64bits(w.Peak) {
			t.Fatalf("slice %d: %+v, want %+v", i, g, w)
		}
	}
}

// propExactPeriod: a curve the sampler takes as repeating with period p
// gives the same value, bit for bit, p, 2p… later or earlier.
func propExactPeriod(t *rapid.T) {
	c := genSampled(3).Draw(t, "curve")
	p := exactPeriod(c)
	if p <= 0 {
		return
	}
	at := time.Duration(rapid.Int64Range(-1e17, 1e17).Draw(t, "t"))
	k := rapid.Int64Range(-1000, 1000).Draw(t, "k")
	if k != 0 && (math.MaxInt64/abs64(k) < int64(p) || !inRange(at, time.Duration(k)*p)) {
		return
	}
	u := at + time.Duration(k)*p
	if a, b := c.At(at), c.At(u); math.Float64bits(a) != math.Float64bits(b) {
		t.Fatalf("period %v: At(%v) = %v, At(%v) = %v", p, at, a, u, b)
	}
}

func abs64(k int64) int64 {
	if k < 0 {
		return -k
	}
	return k
}

// inRange reports whether a + b does not overflow.
func inRange(a, b time.Duration) bool { _, ok := addDuration(a, b); return ok }

// propFixedPow: fixedPow is math.Pow bit for bit, for the bases of growth
// (1 + rate) and exponents over centuries, whole, half and tiny ones.
func propFixedPow(t *rapid.T) {
	x := rapid.OneOf(
		rapid.Float64Range(1e-6, 10),
		rapid.SampledFrom([]float64{1, 0.5, 2, 1 + 1e-16, 1 - 1e-16, math.MaxFloat64, math.SmallestNonzeroFloat64, 0, -2, math.Inf(1), math.NaN()}),
	).Draw(t, "x")
	y := rapid.OneOf(
		rapid.Float64Range(-400, 400),
		rapid.Float64Range(-3, 3),
		rapid.Map(rapid.IntRange(-2000, 2000), func(i int) float64 { return float64(i) / 2 }),
		rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1 << 19, 1<<19 - 0.5, 1 << 20, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324}),
	).Draw(t, "y")
	want := math.Pow(x, y)
	p, ok := newFixedPow(x)
	if !ok {
		if x > 0 && x != 1 && !math.IsInf(x, 1) {
			t.Fatalf("newFixedPow(%v) refused a finite base > 0", x)
		}
		return
	}
	if got := p.pow(y); math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("pow(%v, %v) = %v, math.Pow %v", x, y, got, want)
	}
}

// propLdexp: ldexp is math.Ldexp bit for bit.
func propLdexp(t *rapid.T) {
	frac := rapid.OneOf(rapid.Float64(), rapid.Float64Range(-4, 4),
		rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 2.2250738585072014e-308, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()})).Draw(t, "frac")
	exp := rapid.OneOf(rapid.IntRange(-2200, 2200), rapid.IntRange(-8, 8)).Draw(t, "exp")
	if got, want := ldexp(frac, exp), math.Ldexp(frac, exp); math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("ldexp(%v, %d) = %v, math.Ldexp %v", frac, exp, got, want)
	}
}

func TestSampleRangeIsAt(t *testing.T)   { rapid.Check(t, propSampleRange) }
func TestDiscretizeIsEach(t *testing.T)  { rapid.Check(t, propDiscretize) }
func TestDiscretizeFrom(t *testing.T)    { rapid.Check(t, propDiscretizeFrom) }
func FuzzDiscretizeFrom(f *testing.F)    { f.Fuzz(rapid.MakeFuzz(propDiscretizeFrom)) }
func TestExactPeriod(t *testing.T)       { rapid.Check(t, propExactPeriod) }
func TestFixedPowIsMathPow(t *testing.T) { rapid.Check(t, propFixedPow) }

func TestLdexpIsMathLdexp(t *testing.T) { rapid.Check(t, propLdexp) }
func FuzzLdexpIsMathLdexp(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propLdexp)) }

func FuzzSampleRangeIsAt(f *testing.F)   { f.Fuzz(rapid.MakeFuzz(propSampleRange)) }
func FuzzDiscretizeIsEach(f *testing.F)  { f.Fuzz(rapid.MakeFuzz(propDiscretize)) }
func FuzzExactPeriod(f *testing.F)       { f.Fuzz(rapid.MakeFuzz(propExactPeriod)) }
func FuzzFixedPowIsMathPow(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propFixedPow)) }

// TestDiscretizeGrowingYears holds Discretize to the straightforward path
// on the curves placement samples over time: a growing diurnal service over
// three years at hourly slices (a grid of five-minute sub-samples on which
// the base repeats daily), a growing weekly one, and the same read from an
// offset as a Shift; and on a period whose slices are not all as long.
func TestDiscretizeGrowingYears(t *testing.T) {
	year := 8760 * time.Hour
	d := Diurnal{Mean: 0.5, Amplitude: 0.3, PeakHour: 14}
	wk := Weekly{Weekday: d, Weekend: Scale{d, 0.5}}
	cases := []struct {
		name   string
		c      Curve
		period time.Duration
		n      int
	}{
		{"compound diurnal, 3 years hourly", Growth{Base: Scale{d, 1 / 1.728}, RatePerYear: 0.2, Compound: true}, 3 * year, 3 * 8760},
		{"linear weekly, a year hourly", Growth{Base: wk, RatePerYear: 0.4}, year, 8760},
		{"shifted compound, a week hourly", Shift{Growth{Base: d, RatePerYear: 0.3, Compound: true}, 400 * 24 * time.Hour}, Week, 168},
		{"uneven slices", Growth{Base: wk, RatePerYear: 0.1, Compound: true}, Week + 7, 168},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Discretize(tc.c, tc.period, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			want, err := discretizeEach(tc.c, tc.period, tc.n, max(1, min(defaultSlices(tc.period)/tc.n, MaxSamples/tc.n)))
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("slice %d: %+v, want %+v", i, got[i], want[i])
				}
			}
		})
	}
}

// propReslice: Reslice of Discretize's slices over a span is
// DiscretizeFrom of the window bit for bit wherever it says ok, and it says
// ok for a window of whole slices of the span sub-sampled alike.
func propReslice(t *rapid.T) {
	c := genSampled(2).Draw(t, "curve")
	var span, offset, period time.Duration
	var m, n int
	aligned := rapid.Bool().Draw(t, "aligned")
	if aligned { // slices of L, whole five-minute units: the same sub-samples
		L := drawUnits(t, 1, 36, "sliceLength")
		m = rapid.IntRange(1, 400).Draw(t, "spanSlices")
		n = rapid.IntRange(1, m).Draw(t, "windowSlices")
		span, period = time.Duration(m)*L, time.Duration(n)*L
		offset = time.Duration(rapid.IntRange(0, m-n).Draw(t, "firstSlice")) * L
	} else {
		span = drawPeriod(t)
		m = rapid.IntRange(1, int(min(span, 2000))).Draw(t, "spanSlices")
		period = time.Duration(rapid.Int64Range(1, int64(span)+1).Draw(t, "periodNs"))
		n = rapid.IntRange(1, int(min(period, 2000))).Draw(t, "windowSlices")
		offset = time.Duration(rapid.Int64Range(-1, int64(span)).Draw(t, "offsetNs"))
	}
	sl, err := Discretize(c, span, m)
	if err != nil {
		return // nothing to read off
	}
	before := slices.Clone(sl)
	got, ok := Reslice(sl, offset, period, n)
	if !slices.Equal(sl, before) {
		t.Fatal("Reslice modified its slices")
	}
	if !ok {
		if aligned {
			t.Fatalf("window of %d slices at %v in %d slices of %v: not ok", n, offset, m, span)
		}
		if got != nil {
			t.Fatalf("not ok with %d slices", len(got))
		}
		return
	}
	want, err := DiscretizeFrom(c, offset, period, n)
	if err != nil {
		t.Fatalf("Reslice ok where DiscretizeFrom fails: %v", err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d slices, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Start != w.Start || g.Length != w.Length ||
			math.Float64bits(g.Demand) != math.Float64bits(w.Demand) || math.Float64bits(g.Peak) != math.Float64bits(w.Peak) {
			t.Fatalf("slice %d: %+v, want %+v", i, g, w)
		}
	}
}

func TestReslice(t *testing.T) { rapid.Check(t, propReslice) }
func FuzzReslice(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propReslice)) }
