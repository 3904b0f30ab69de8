package workload

import (
	"math"
	"testing"
	"time"
)

// hourlySeries returns n hourly samples of a noisy diurnal pattern, normalised to [0, 1].
func hourlySeries(n int) PiecewiseLinear {
	pts := make([]Point, n)
	for i := range pts {
		h := float64(i)
		v := 0.55 + 0.35*math.Cos(2*math.Pi*(h-14)/24) + 0.1*math.Sin(h*12.9898)
		pts[i] = Point{T: time.Duration(i) * time.Hour, V: math.Min(1, math.Max(0, v))}
	}
	return PiecewiseLinear{Points: pts}
}

// benchmarkLoadDuration measures the load-duration curve of n hourly samples
// in n hourly slices.
func benchmarkLoadDuration(b *testing.B, n int) {
	c := hourlySeries(n)
	h := time.Duration(n) * time.Hour
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadDuration(c, h, n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}

// BenchmarkLoadDurationYear is the target figure: a one-year hourly series
// (8,760 points) must take ≤ 2 ms.
func BenchmarkLoadDurationYear(b *testing.B) { benchmarkLoadDuration(b, 8760) }

// BenchmarkLoadDurationThreeYears scales the same to 26,280 points.
func BenchmarkLoadDurationThreeYears(b *testing.B) { benchmarkLoadDuration(b, 3*8760) }

// BenchmarkMeanNumeric measures the trapezoidal mean of a growing diurnal
// curve over a year at Mean's resolution (what Mean did before Growth had a
// mean for a periodic base).
func BenchmarkMeanNumeric(b *testing.B) {
	c := Growth{Base: Diurnal{Mean: 0.5, Amplitude: 0.3, PeakHour: 14}, RatePerYear: 0.4}
	h := 8760 * time.Hour
	b.ReportAllocs()
	for b.Loop() {
		if _, err := numericMean(c, h, int(min(4*int64(defaultSlices(h)), MaxSamples))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMeanGrowthPeriodic measures Mean of the same curve: one period
// integrated, the rest a sum.
func BenchmarkMeanGrowthPeriodic(b *testing.B) {
	c := Growth{Base: Diurnal{Mean: 0.5, Amplitude: 0.3, PeakHour: 14}, RatePerYear: 0.4}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Mean(c, 8760*time.Hour); err != nil {
			b.Fatal(err)
		}
	}
}

// benchmarkDiscretize measures Discretize of c over period in n slices.
func benchmarkDiscretize(b *testing.B, c Curve, period time.Duration, n int) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Discretize(c, period, n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "slices/s")
}

// BenchmarkDiscretizeGrowthThreeYears is a diurnal service growing 35 % a
// year over three years in hourly slices (twelve sub-samples each), as
// tco.Prepare samples it for placement over time.
func BenchmarkDiscretizeGrowthThreeYears(b *testing.B) {
	c := Growth{Base: Scale{Diurnal{Mean: 0.55, Amplitude: 0.3, PeakHour: 14}, 1 / 2.46}, RatePerYear: 0.35, Compound: true}
	benchmarkDiscretize(b, c, 3*8760*time.Hour, 3*8760)
}

// BenchmarkDiscretizeShiftedWeek is one week of the same curve read from
// its 400th day on, in hourly slices: one repetition placement samples.
func BenchmarkDiscretizeShiftedWeek(b *testing.B) {
	c := Growth{Base: Scale{Diurnal{Mean: 0.55, Amplitude: 0.3, PeakHour: 14}, 1 / 2.46}, RatePerYear: 0.35, Compound: true}
	benchmarkDiscretize(b, Shift{c, 400 * Day}, Week, 168)
}
