package workload

import (
	"math"
	"math/cmplx"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// diurnalGrowthIntegral is ∫₀ᴴ d(t)·f(t) dt in closed form for a diurnal
// base d and the growth factor f of g (hours): with c = 0 for the mean and
// c = iω for the cosine, ∫ e^{λt}e^{ct} = (e^{(λ+c)H} − 1)/(λ+c) and
// ∫ (1 + at)e^{ct} = (e^{cH} − 1)/c + a·(e^{cH}(H/c − 1/c²) + 1/c²), up to
// where a linear decline reaches 0.
func diurnalGrowthIntegral(d Diurnal, g Growth, horizon time.Duration) float64 {
	h := hours(horizon)
	w := 2 * math.Pi / 24
	rot := cmplx.Exp(complex(0, -w*d.PeakHour)) // cos(ω(t−p)) = Re e^{−iωp}e^{iωt}
	if g.Compound {
		l := math.Log1p(g.RatePerYear) / hoursPerYear
		expInt := func(c complex128) complex128 { return (cmplx.Exp(c*complex(h, 0)) - 1) / c }
		mean := h // ∫ e^{λt}, by expm1: e^{λH} − 1 cancels for a small λH
		if l != 0 {
			mean = math.Expm1(l*h) / l
		}
		return d.Mean*mean + d.Amplitude*real(rot*expInt(complex(l, w)))
	}
	a := g.RatePerYear / hoursPerYear
	if a < 0 {
		h = min(h, -1/a)
	}
	mean := h + a*h*h/2
	c := complex(0, w)
	e := cmplx.Exp(c * complex(h, 0))
	cos := (e-1)/c + complex(a, 0)*(e*(complex(h, 0)/c-1/(c*c))+1/(c*c))
	return d.Mean*mean + d.Amplitude*real(rot*cos)
}

// propGrowthPeriodicMean checks the mean of a growing periodic curve
// against two oracles, over whole periods and a part of one, or a part of
// one alone. For any periodic base over at most 8 days (a day with
// -short): the
// trapezoidal rule over the whole horizon (numericMean) at a step of at
// most a second, within 2e-3 (the rule errs by at most jump·step/2 per
// jump of a step schedule: 1 × 0.5 s for each of at most 12 jumps an hour,
// 1.7e-3, and by O(step²) on smooth curves). For a diurnal base over up to
// three years: the closed form of its integral, within 1e-9 relative (the
// one-period quadrature of a smooth periodic integrand converges far faster
// than that).
func propGrowthPeriodicMean(t *rapid.T) {
	diurnal := rapid.Bool().Draw(t, "diurnal")
	var base Curve
	most := 8 * Day
	if testing.Short() { // the race pass: a tenth of the samples
		most = Day
	}
	if diurnal {
		base, most = genDiurnal().Draw(t, "diurnalBase"), 3*hoursPerYear*time.Hour
	} else {
		base = genCurve(1).Filter(func(c Curve) bool { return c.Period() > 0 && c.Period() <= most }).Draw(t, "base")
	}
	g := Growth{Base: base, RatePerYear: rapid.Float64Range(-0.9, 3).Draw(t, "ratePerYear"), Compound: rapid.Bool().Draw(t, "compound")}
	per := base.Period()
	periods := rapid.IntRange(0, max(1, int(most/per)-1)).Draw(t, "periods")
	// Less than a period: at least a thousandth of it, as the closed form of
	// a diurnal integral, a difference of sines, loses its digits as the
	// horizon shrinks (4e-5 of the mean over 1 ns).
	least := int64(0)
	if periods == 0 {
		least = int64(per)/1000 + 1
	}
	horizon := time.Duration(periods)*per + time.Duration(rapid.Int64Range(least, int64(per)-1).Draw(t, "rest"))
	got, ok := g.MeanOver(horizon)
	if g.RatePerYear == 0 {
		return
	}
	if !ok {
		if !g.Compound && g.RatePerYear < 0 && -hoursPerYear/g.RatePerYear < hours(per) {
			return // the decline ends within the first period
		}
		t.Fatalf("no mean for %#v over %v", g, horizon)
	}
	if d, isDiurnal := base.(Diurnal); isDiurnal {
		want := diurnalGrowthIntegral(d, g, horizon) / hours(horizon)
		if math.Abs(got-want) > 1e-9*max(want, 1e-3) {
			t.Fatalf("mean %v, closed form %v over %v (rel Δ %g)", got, want, horizon, (got-want)/want)
		}
		return
	}
	n := int(min(MaxSamples, max(4*int64(defaultSlices(horizon)), int64(horizon/time.Second))))
	num, err := numericMean(g, horizon, n)
	if err != nil {
		t.Fatal(err)
	}
	if tol := 2e-3 * max(1, num); math.Abs(got-num) > tol {
		t.Fatalf("mean %v, trapezoidal %v over %v (|Δ| > %v)", got, num, horizon, tol)
	}
}

func TestPropGrowthPeriodicMean(t *testing.T) { rapid.Check(t, propGrowthPeriodicMean) }
func FuzzGrowthPeriodicMean(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propGrowthPeriodicMean)) }

// TestGrowthPeriodicMeanThreeYears checks the benchmark's shape of curve —
// a scaled diurnal base growing 20 to 60 % a year over three years — at
// Mean's step against the closed form of its integral.
func TestGrowthPeriodicMeanThreeYears(t *testing.T) {
	h := 3 * hoursPerYear * time.Hour
	for _, r := range []float64{0.2, 0.6, -0.3} {
		for _, compound := range []bool{true, false} {
			d := Diurnal{Mean: 0.55, Amplitude: 0.3, PeakHour: 14}
			g := Growth{Base: d, RatePerYear: r, Compound: compound}
			got, err := Mean(g, h)
			if err != nil {
				t.Fatal(err)
			}
			want := diurnalGrowthIntegral(d, g, h) / hours(h)
			if math.Abs(got-want) > 1e-10*want {
				t.Errorf("rate %v compound %v: mean %v, closed form %v", r, compound, got, want)
			}
		}
	}
}

// TestGrowthMeanManyJumps checks the mean of a linear growth of a daily
// base with a 15-minute step schedule in it (192 jumps a day, on
// DefaultStep boundaries) against its exact integral, summed cycle by
// cycle: over cycle k, ∫ b(u)(1 + a(kP + u)) du = (1 + akP)·i0 + a·i1 with
// i0 = ∫ b and i1 = ∫ u·b(u) du of the piecewise-constant base. The
// one-period rule at 4 096 samples a day, unaligned with the steps, erred
// by 0.3 % here (found by TestPropGrowthPeriodicMean). Aligned, the rule is
// exact on i0, and on i1 errs by jump·h²/8 a jump (h = 20 s): about 1e-11
// of the mean, within the 1e-9 asked.
func TestGrowthMeanManyJumps(t *testing.T) {
	const lo, hi, flat = 0.125, 1.0, 0.0625 // the schedule's values and the flat term
	const w = 0.9375                        // the schedule's weight
	steps := Steps{Cycle: 15 * time.Minute, Steps: []Step{{0, lo}, {5 * time.Minute, hi}}}
	base := Sum{Terms: []Curve{Scale{Curve: Diurnal{Mean: 1, PeakHour: 1}, Factor: flat}, Scale{Curve: steps, Factor: w}}}
	for _, r := range []float64{1, 0.4, -0.5} {
		g := Growth{Base: base, RatePerYear: r}
		got, ok := g.MeanOver(Day)
		if !ok {
			t.Fatalf("rate %v: no closed-form mean", r)
		}
		p, cut := 0.25, 1.0/12 // hours: the cycle and the step inside it
		b0, b1 := flat+w*lo, flat+w*hi
		i0 := b0*cut + b1*(p-cut)
		i1 := b0*cut*cut/2 + b1*(p*p-cut*cut)/2
		a := r / hoursPerYear
		total := 0.0
		for k := range 96 {
			total += (1+a*float64(k)*p)*i0 + a*i1
		}
		if want := total / 24; math.Abs(got-want) > 1e-9*want {
			t.Errorf("rate %v: mean %v, exact %v", r, got, want)
		}
	}
}
