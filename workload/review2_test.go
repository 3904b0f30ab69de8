package workload

import (
	"math"
	"testing"
	"time"
)

// TestReview2SamplerEdges holds the sampler to sampleEach (At for each
// sample) and Discretize to discretizeEach, bit for bit, on fixed cases at
// the edges: 2¹⁹ samples of compound growth over two centuries
// (fixedPow's exponents up to 200, at ≈ 2¹⁹ different fractional parts),
// linear decline through zero, periodic sub-curves under shifts at odd
// nanosecond offsets (tables on a grid whose t0 is not a multiple of the
// period), −0 and NaN constants in sums, a Steps cycle of 7 ns.
func TestReview2SamplerEdges(t *testing.T) {
	day := 24 * time.Hour
	diurnal := Diurnal{Mean: 0.5, Amplitude: 0.3, PeakHour: 13.7}
	weekly := Weekly{Weekday: diurnal, Weekend: Constant{0.2}}
	steps7 := Steps{Steps: []Step{{0, 0.1}, {3, 0.9}}, Cycle: 7}
	curves := []Curve{
		Growth{Base: diurnal, RatePerYear: 0.1, Compound: true},
		Growth{Base: Shift{diurnal, 12345677}, RatePerYear: 0.7, Compound: true},
		Growth{Base: weekly, RatePerYear: -0.004, Compound: false},
		Sum{Terms: []Curve{Constant{math.Copysign(0, -1)}, Shift{weekly, -987654321}, Scale{steps7, 0.5}}},
		Shift{Sum{Terms: []Curve{diurnal, Shift{weekly, 3}}}, 1<<62 + 12345},
		Clamp{Curve: Growth{Base: Repeat{PiecewiseLinear{Points: []Point{{0, 0}, {5 * day, 1}}}, 7*day + 1}, RatePerYear: 2, Compound: true}, Min: 0.1, Max: 0.95},
		Sum{Terms: []Curve{Constant{0.1}, Constant{math.NaN()}}},
		Scale{Steps{Steps: []Step{{0, 0.3}}}, 0},
	}
	for i, c := range curves {
		for _, sp := range []struct {
			from, length time.Duration
			n            int
		}{
			{0, 200 * 365 * day, MaxSamples / 2},
			{-7, 7 * 1 << 20, 1 << 20},
			{1<<62 + 1, 3 * day, 4321},
			{-(1 << 62) - 3, 28 * day, 28 * 24 * 12},
		} {
			n := sp.n
			if testing.Short() || i >= 2 { // the whole MaxSamples for compound growth only
				n = min(n, 1<<14)
			}
			got, gerr := sampleRange(c, sp.from, sp.length, n)
			want, werr := sampleEach(make([]float64, n), c, sp.from, sp.length)
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Fatalf("curve %d %+v: error %v, want %v", i, sp, gerr, werr)
			}
			if gerr == nil && !sameValues(got, want) {
				for k := range got {
					if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
						t.Fatalf("curve %d %+v: sample %d = %v, At gives %v", i, sp, k, got[k], want[k])
					}
				}
			}
		}
		for _, d := range []struct {
			offset, period time.Duration
			n              int
		}{{0, Week, 168}, {13, Week, 168}, {-(1 << 61) - 1, 10 * day, 240}, {3 * 365 * day, 365 * day, 8760}, {5, 7, 7}} {
			if prepare(c, d.period) != nil {
				continue
			}
			got, gerr := DiscretizeFrom(c, d.offset, d.period, d.n)
			var sc Curve = c
			if d.offset != 0 {
				sc = Shift{c, d.offset}
			}
			want, werr := discretizeEach(sc, d.period, d.n, max(1, min(defaultSlices(d.period)/d.n, MaxSamples/d.n)))
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Fatalf("curve %d %+v: error %v, want %v", i, d, gerr, werr)
			}
			for k := range got {
				g, w := got[k], want[k]
				if g.Start != w.Start || g.Length != w.Length || math.Float64bits(g.Demand) != math.Float64bits(w.Demand) ||
					math.Float64bits(g.Peak) != math.Float64bits(w.Peak) {
					t.Fatalf("curve %d %+v: slice %d %+v, want %+v", i, d, k, g, w)
				}
			}
		}
	}
}
