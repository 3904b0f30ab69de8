package workload

import (
	"bytes"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// unit is the time grain of generated curves and horizons. Step times,
// cycles, shifts and horizons are whole multiples of it and DefaultStep is
// one unit, so sampling slices align with every jump of a generated step
// schedule and the midpoint rule is exact on them; the stated tolerances
// then cover only kinks and curvature.
const unit = DefaultStep

func drawUnits(t *rapid.T, lo, hi int, label string) time.Duration {
	return time.Duration(rapid.IntRange(lo, hi).Draw(t, label)) * unit
}

func genSteps() *rapid.Generator[Steps] {
	return rapid.Custom(func(t *rapid.T) Steps {
		cycleUnits := rapid.IntRange(2, 48*12).Draw(t, "cycle_units")
		k := rapid.IntRange(1, min(6, cycleUnits)).Draw(t, "steps")
		starts := rapid.SliceOfNDistinct(rapid.IntRange(1, cycleUnits-1), k-1, k-1, rapid.ID[int]).Draw(t, "starts")
		slices.Sort(starts)
		st := []Step{{0, rapid.Float64Range(0, 1).Draw(t, "value")}}
		for _, s := range starts {
			st = append(st, Step{time.Duration(s) * unit, rapid.Float64Range(0, 1).Draw(t, "value")})
		}
		return Steps{Cycle: time.Duration(cycleUnits) * unit, Steps: st}
	})
}

func genPiecewise() *rapid.Generator[PiecewiseLinear] {
	return rapid.Custom(func(t *rapid.T) PiecewiseLinear {
		n := rapid.IntRange(1, 20).Draw(t, "points")
		var pts []Point
		at := drawUnits(t, 0, 24, "first")
		for range n {
			pts = append(pts, Point{at, rapid.Float64Range(0, 1).Draw(t, "demand")})
			at += drawUnits(t, 6, 120, "gap")
		}
		return PiecewiseLinear{Points: pts}
	})
}

func genDiurnal() *rapid.Generator[Diurnal] {
	return rapid.Custom(func(t *rapid.T) Diurnal {
		m := rapid.Float64Range(0, 1).Draw(t, "mean")
		a := rapid.Float64Range(0, min(m, 1-m)).Draw(t, "amplitude")
		return Diurnal{Mean: m, Amplitude: a, PeakHour: rapid.Float64Range(0, 23.99).Draw(t, "peakHour")}
	})
}

// genCurve generates valid built-in curves with values in [0, 1], nesting
// combinators up to depth levels.
func genCurve(depth int) *rapid.Generator[Curve] {
	return rapid.Custom(func(t *rapid.T) Curve {
		kinds := []string{"constant", "diurnal", "weekly", "steps", "piecewise", "growth"}
		if depth > 0 {
			kinds = append(kinds, "sum", "scale", "clamp", "shift", "repeat", "window")
		}
		switch rapid.SampledFrom(kinds).Draw(t, "curve") {
		case "constant":
			return Constant{rapid.Float64Range(0, 1).Draw(t, "value")}
		case "diurnal":
			return genDiurnal().Draw(t, "diurnal")
		case "weekly":
			return Weekly{Weekday: genSteps().Draw(t, "weekday"), Weekend: genDiurnal().Draw(t, "weekend")}
		case "steps":
			return genSteps().Draw(t, "steps")
		case "piecewise":
			return genPiecewise().Draw(t, "piecewise")
		case "growth": // at most ×2 over the ≤ 30-day horizons used here
			return Growth{
				Base:        genCurve(0).Draw(t, "base"),
				RatePerYear: rapid.Float64Range(-0.9, 1).Draw(t, "ratePerYear"),
				Compound:    rapid.Bool().Draw(t, "compound"),
			}
		case "sum":
			a := genCurve(depth-1).Draw(t, "term")
			b := genCurve(depth-1).Draw(t, "term")
			w := rapid.Float64Range(0, 1).Draw(t, "weight")
			return Add(Scale{a, w}, Scale{b, 1 - w})
		case "scale":
			return Scale{genCurve(depth-1).Draw(t, "curve"), rapid.Float64Range(0, 1).Draw(t, "factor")}
		case "clamp":
			lo := rapid.Float64Range(0, 1).Draw(t, "min")
			return Clamp{genCurve(depth-1).Draw(t, "curve"), lo, rapid.Float64Range(lo, 1).Draw(t, "max")}
		case "shift":
			return Shift{genCurve(depth-1).Draw(t, "curve"), drawUnits(t, -1000, 1000, "offset")}
		case "window":
			from := drawUnits(t, -100, 30*24*12, "from")
			var until time.Duration
			if rapid.Bool().Draw(t, "ends") {
				until = from + drawUnits(t, 1, 30*24*12, "length")
			}
			return Window{genCurve(depth-1).Draw(t, "curve"), from, until}
		default:
			return Repeat{genCurve(depth-1).Draw(t, "curve"), drawUnits(t, 1, 14*24*12, "cycle")}
		}
	})
}

// drawHorizon draws a horizon of 1 hour to 30 days in whole units.
func drawHorizon(t *rapid.T) time.Duration { return drawUnits(t, 12, 30*24*12, "horizon") }

// Tolerances, with the reason for each.
const (
	// tolMean bounds |mean of the load-duration curve − curve mean|. The
	// load-duration curve is the midpoint rule on unit slices: exact on
	// aligned steps and on linear stretches with kinks at slice boundaries;
	// its curvature error (f''·step²/24) is about 1e-5. The numeric mean is
	// the trapezoidal rule on quarter-unit slices: a kink with slope change
	// Δ ≤ 4/h costs at most Δ·(step/4)²/8 ≈ 2e-4 h, and a 1-hour horizon has
	// at most two kinks of a generated piecewise curve.
	tolMean = 1e-3
	// tolPeak bounds how far Peak's grid (spacing half a step) can fall
	// below the true supremum: slopes of generated curves are at most one
	// per 30 minutes, so the grid misses at most 2.5/30/2 ≈ 0.042.
	tolPeak = 0.05
)

func propMeanBelowPeak(t *rapid.T) {
	c, h := genCurve(2).Draw(t, "curve"), drawHorizon(t)
	mean, err := Mean(c, h)
	if err != nil {
		t.Fatalf("Mean: %v", err)
	}
	peak, err := Peak(c, h)
	if err != nil {
		t.Fatalf("Peak: %v", err)
	}
	if mean > peak+tolPeak {
		t.Fatalf("mean %v > peak %v", mean, peak)
	}
	p, err := Sample(c, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Mean() > p.Peak()*(1+1e-12) {
		t.Fatalf("profile mean %v > profile peak %v", p.Mean(), p.Peak())
	}
}

func propLoadDuration(t *rapid.T) {
	c, h := genCurve(2).Draw(t, "curve"), drawHorizon(t)
	ldc, err := LoadDuration(c, h, 0)
	if err != nil {
		t.Fatalf("LoadDuration: %v", err)
	}
	for i := 1; i < len(ldc); i++ {
		if ldc[i] > ldc[i-1] {
			t.Fatalf("ldc[%d] = %v > ldc[%d] = %v", i, ldc[i], i-1, ldc[i-1])
		}
	}
	mean, err := Mean(c, h)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, v := range ldc {
		sum += v
	}
	if got := sum / float64(len(ldc)); math.Abs(got-mean) > tolMean {
		t.Fatalf("load-duration mean %v, curve mean %v", got, mean)
	}
}

func propShiftWholePeriods(t *rapid.T) {
	c, h := genCurve(2).Draw(t, "curve"), drawHorizon(t)
	p := c.Period()
	if p <= 0 || p > math.MaxInt64/64 {
		return // aperiodic (or absurdly long period): nothing to shift by
	}
	k := rapid.IntRange(-5, 5).Draw(t, "periods")
	a, err := LoadDuration(c, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadDuration(Shift{c, time.Duration(k) * p}, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Fatalf("shifting by %d periods of %v changed the load-duration curve", k, p)
	}
}

func propHoursAbove(t *rapid.T) {
	c, h := genCurve(2).Draw(t, "curve"), drawHorizon(t)
	p, err := Sample(c, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	lo := rapid.Float64Range(0, 1.5).Draw(t, "level")
	hi := rapid.Float64Range(lo, 1.5).Draw(t, "higher_level")
	if a, b := p.HoursAbove(lo), p.HoursAbove(hi); b > a {
		t.Fatalf("hours above %v = %v < hours above %v = %v", lo, a, hi, b)
	}
	if got := p.HoursAbove(0); got != h.Hours() {
		t.Fatalf("hours above 0 = %v, horizon %v h", got, h.Hours())
	}
}

func propSumOfMeans(t *rapid.T) {
	a, b, h := genCurve(1).Draw(t, "a"), genCurve(1).Draw(t, "b"), drawHorizon(t)
	ma, err1 := Mean(a, h)
	mb, err2 := Mean(b, h)
	ms, err3 := Mean(Add(a, b), h)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	if math.Abs(ms-(ma+mb)) > tolMean {
		t.Fatalf("mean of sum %v, sum of means %v", ms, ma+mb)
	}
}

func propScaleLinear(t *rapid.T) {
	c, h := genCurve(2).Draw(t, "curve"), drawHorizon(t)
	k := rapid.Float64Range(0, 10).Draw(t, "factor")
	m, err := Mean(c, h)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Mean(Scale{c, k}, h)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ms-k*m) > 1e-9*(1+k) {
		t.Fatalf("mean of %v·c = %v, want %v", k, ms, k*m)
	}
	a, _ := LoadDuration(c, h, 0)
	b, err := LoadDuration(Scale{c, k}, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if b[i] != k*a[i] {
			t.Fatalf("scaled ldc[%d] = %v, want %v", i, b[i], k*a[i])
		}
	}
}

func propCSVRoundTrip(t *rapid.T) {
	n := rapid.IntRange(1, 50).Draw(t, "rows")
	at := time.Unix(rapid.Int64Range(0, 4e9).Draw(t, "start_unix"), 0).UTC()
	obs := make([]Observation, n)
	for i := range obs {
		obs[i] = Observation{at, rapid.Float64Range(0, 1e9).Draw(t, "value")}
		at = at.Add(time.Duration(rapid.Int64Range(1, int64(30*24*time.Hour)).Draw(t, "gap_ns")))
	}
	var buf bytes.Buffer
	if err := WriteSamplesCSV(&buf, obs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSamplesCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(obs, got); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
}

// genWorkload generates valid workloads: finite jobs and services.
func genWorkload() *rapid.Generator[Workload] {
	return rapid.Custom(func(t *rapid.T) Workload {
		w := Workload{
			Name:              rapid.StringMatching(`[a-z][a-z0-9-]{0,15}`).Draw(t, "name"),
			Kind:              Kind(rapid.IntRange(int(Training), int(Development)).Draw(t, "kind")),
			GPUs:              rapid.IntRange(1, 4096).Draw(t, "gpus"),
			Deadline:          drawUnits(t, 0, 10000, "deadline"),
			CostOfDelayPerDay: decimal.New(rapid.Int64Range(0, 1e9).Draw(t, "delay_cents"), -2),
		}
		if rapid.Bool().Draw(t, "service") {
			w.Demand = Clamp{genCurve(1).Draw(t, "demand"), 0, 1} // Growth may exceed 1
			w.Horizon = drawHorizon(t)
		} else {
			w.WorkGPUHours = rapid.Float64Range(1e-3, 1e7).Draw(t, "workGPUHours")
			w.Horizon = drawUnits(t, 0, 10000, "horizon")
		}
		r := &w.Requirements
		r.MinMemoryGiB = rapid.Float64Range(0, 192).Draw(t, "minMemoryGiB")
		if rapid.Bool().Draw(t, "explicit_models") {
			r.Models = map[string]float64{}
			for _, m := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"H100 SXM", "H200", "A100 80GB", "V100", "L40S", "RTX 4090"}), 1, 6, rapid.ID[string]).Draw(t, "models") {
				r.Models[m] = rapid.Float64Range(0.01, 3).Draw(t, "speed")
			}
		}
		r.Interconnect.Fabric = Fabric(rapid.IntRange(0, 3).Draw(t, "fabric"))
		r.Interconnect.Gbps = rapid.Float64Range(0, 3200).Draw(t, "gbps")
		if rapid.Bool().Draw(t, "slower") {
			r.Interconnect.BelowFabric = Slower
			r.Interconnect.Efficiency = rapid.Float64Range(0.01, 1).Draw(t, "efficiency")
		}
		r.MinIsolation = Isolation(rapid.IntRange(0, 2).Draw(t, "isolation"))
		r.Jurisdictions = rapid.SliceOfDistinct(rapid.SampledFrom([]string{"EU", "US", "DE", "FR", "CH"}), rapid.ID[string]).Draw(t, "jurisdictions")
		if len(r.Jurisdictions) == 0 {
			r.Jurisdictions = nil // JSON omits an empty list
		}
		w.Interruption = Interruption{
			Tolerance:          Tolerance(rapid.IntRange(0, 2).Draw(t, "tolerance")),
			CheckpointTime:     drawUnits(t, 1, 100, "checkpointTime"),
			RestartTime:        drawUnits(t, 0, 100, "restartTime"),
			CheckpointInterval: drawUnits(t, 0, 100, "checkpointInterval"),
		}
		w.Data = Data{
			DatasetGB:        rapid.Float64Range(0, 1e6).Draw(t, "datasetGB"),
			Location:         Location{rapid.SampledFrom([]string{"", "aws", "on-prem"}).Draw(t, "provider"), rapid.SampledFrom([]string{"", "eu-west-1"}).Draw(t, "region")},
			CheckpointGB:     rapid.Float64Range(0, 1e4).Draw(t, "checkpointGB"),
			EgressGBPerMonth: rapid.Float64Range(0, 1e6).Draw(t, "egressGBPerMonth"),
		}
		w.Setup.EngineerHours = rapid.Float64Range(0, 1000).Draw(t, "engineerHours")
		return w
	})
}

func propJSONRoundTrip(t *rapid.T) {
	w := genWorkload().Draw(t, "workload")
	if err := w.Validate(); err != nil {
		t.Fatalf("generated workload invalid: %v", err)
	}
	var buf bytes.Buffer
	if err := WriteWorkload(&buf, w); err != nil {
		t.Fatal(err)
	}
	got, err := ReadWorkload(&buf)
	if err != nil {
		t.Fatalf("ReadWorkload: %v", err)
	}
	if d := cmp.Diff(w, got, decimalEqual); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
}

// propValidateNeverPanics feeds hostile values to Validate and the analysis
// functions; they must return errors, not panic.
func propValidateNeverPanics(t *rapid.T) {
	bad := rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 1e308, 0.5})
	dur := rapid.SampledFrom([]time.Duration{math.MinInt64, -1, 0, 1, time.Hour, math.MaxInt64})
	w := Workload{
		Kind:         Kind(rapid.IntRange(-2, 8).Draw(t, "kind")),
		GPUs:         rapid.IntRange(-2, 2).Draw(t, "gpus"),
		WorkGPUHours: bad.Draw(t, "work"),
		Horizon:      dur.Draw(t, "horizon"),
		Deadline:     dur.Draw(t, "deadline"),
		Requirements: Requirements{
			MinMemoryGiB: bad.Draw(t, "mem"),
			Models:       map[string]float64{"": bad.Draw(t, "speed")},
			Interconnect: Interconnect{Fabric: Fabric(rapid.IntRange(-1, 5).Draw(t, "fabric")), Gbps: bad.Draw(t, "gbps"),
				BelowFabric: BelowFabric(rapid.IntRange(-1, 3).Draw(t, "below")), Efficiency: bad.Draw(t, "eff")},
		},
		Interruption: Interruption{Tolerance: Tolerance(rapid.IntRange(-1, 4).Draw(t, "tol")), CheckpointTime: dur.Draw(t, "ckpt")},
		Data:         Data{DatasetGB: bad.Draw(t, "ds")},
	}
	if rapid.Bool().Draw(t, "service") {
		v := bad.Draw(t, "demand")
		w.Demand = rapid.SampledFrom([]Curve{
			Constant{v}, Diurnal{v, v, v}, Steps{Cycle: dur.Draw(t, "cycle"), Steps: []Step{{dur.Draw(t, "start"), v}}},
			PiecewiseLinear{}, Repeat{Constant{v}, dur.Draw(t, "cycle")}, Sum{}, Growth{Constant{v}, v, true}, Weekly{},
		}).Draw(t, "curve")
		_ = w.Validate()
		for _, h := range []time.Duration{-1, 0, time.Hour, math.MaxInt64} {
			_, _ = Mean(w.Demand, h)
			_, _ = Peak(w.Demand, h)
			_, _ = LoadDuration(w.Demand, h, 10)
			_, _ = Discretize(w.Demand, h, 3)
		}
	}
	if err := w.Validate(); err == nil && w.Kind.Valid() && w.GPUs <= 0 {
		t.Fatal("Validate accepted gpus ≤ 0")
	}
}

func TestPropMeanBelowPeak(t *testing.T)       { rapid.Check(t, propMeanBelowPeak) }
func TestPropLoadDuration(t *testing.T)        { rapid.Check(t, propLoadDuration) }
func TestPropShiftWholePeriods(t *testing.T)   { rapid.Check(t, propShiftWholePeriods) }
func TestPropHoursAbove(t *testing.T)          { rapid.Check(t, propHoursAbove) }
func TestPropSumOfMeans(t *testing.T)          { rapid.Check(t, propSumOfMeans) }
func TestPropScaleLinear(t *testing.T)         { rapid.Check(t, propScaleLinear) }
func TestPropCSVRoundTrip(t *testing.T)        { rapid.Check(t, propCSVRoundTrip) }
func TestPropJSONRoundTrip(t *testing.T)       { rapid.Check(t, propJSONRoundTrip) }
func TestPropValidateNeverPanics(t *testing.T) { rapid.Check(t, propValidateNeverPanics) }

func FuzzMeanBelowPeak(f *testing.F)       { f.Fuzz(rapid.MakeFuzz(propMeanBelowPeak)) }
func FuzzLoadDuration(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(propLoadDuration)) }
func FuzzShiftWholePeriods(f *testing.F)   { f.Fuzz(rapid.MakeFuzz(propShiftWholePeriods)) }
func FuzzHoursAbove(f *testing.F)          { f.Fuzz(rapid.MakeFuzz(propHoursAbove)) }
func FuzzSumOfMeans(f *testing.F)          { f.Fuzz(rapid.MakeFuzz(propSumOfMeans)) }
func FuzzScaleLinear(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propScaleLinear)) }
func FuzzCSVRoundTrip(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(propCSVRoundTrip)) }
func FuzzJSONRoundTrip(f *testing.F)       { f.Fuzz(rapid.MakeFuzz(propJSONRoundTrip)) }
func FuzzValidateNeverPanics(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propValidateNeverPanics)) }

// FuzzReadWorkload feeds arbitrary bytes to the JSON reader: errors, never panics.
func FuzzReadWorkload(f *testing.F) {
	f.Add([]byte(scenarioJSON))
	f.Add([]byte(`{"type":"sum","terms":[{"type":"repeat","curve":null,"cycle":"0s"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ReadScenario(bytes.NewReader(data))
		_, _ = ReadWorkload(bytes.NewReader(data))
		if c, err := UnmarshalCurve(data); err == nil && c != nil {
			_, _ = Mean(c, Week)
			_, _ = LoadDuration(c, Day, 24)
		}
	})
}

// FuzzReadSamplesCSV feeds arbitrary bytes to the CSV reader: errors, never panics.
func FuzzReadSamplesCSV(f *testing.F) {
	f.Add([]byte("timestamp,value\n2026-01-05T00:00:00Z,20\n1767574800.5,2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		obs, err := ReadSamplesCSV(bytes.NewReader(data))
		if err == nil {
			if _, err := FromSamples(obs); err != nil && len(obs) > 0 {
				t.Logf("FromSamples: %v", err)
			}
		}
	})
}
