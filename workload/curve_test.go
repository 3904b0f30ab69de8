package workload

import (
	"errors"
	"math"
	"testing"
	"time"
)

// builtins returns one valid curve of every built-in type, with a reason.
func builtins() []struct {
	name  string
	curve Curve
} {
	day := Steps{Cycle: Day, Steps: []Step{{0, 0.1}, {9 * time.Hour, 1}, {18 * time.Hour, 0.3}}}
	lin := PiecewiseLinear{Points: []Point{{0, 0.2}, {3 * time.Hour, 0.9}, {10 * time.Hour, 0.4}, {30 * time.Hour, 0.6}}}
	return []struct {
		name  string
		curve Curve
	}{
		{"constant", Constant{Value: 0.4}},
		{"diurnal", Diurnal{Mean: 0.5, Amplitude: 0.3, PeakHour: 14.5}},
		{"weekly", Weekly{Weekday: day, Weekend: Constant{Value: 0.05}}},
		{"steps", day},
		{"steps aperiodic", Steps{Steps: []Step{{0, 0.2}, {50 * time.Hour, 0.8}}}},
		{"piecewise", lin},
		{"growth linear", Growth{Base: Constant{Value: 0.3}, RatePerYear: 0.5}},
		{"growth compound", Growth{Base: Constant{Value: 0.3}, RatePerYear: 0.8, Compound: true}},
		{"growth decline", Growth{Base: Constant{Value: 0.3}, RatePerYear: -0.6}},
		{"growth periodic", Growth{Base: Diurnal{Mean: 0.4, Amplitude: 0.2}, RatePerYear: 0.2, Compound: true}},
		{"sum", Add(Scale{Curve: Diurnal{Mean: 0.5, Amplitude: 0.5, PeakHour: 3}, Factor: 0.5}, Constant{Value: 0.2}, day)},
		{"scale", Scale{Curve: day, Factor: 0.7}},
		{"clamp", Clamp{Curve: Diurnal{Mean: 0.5, Amplitude: 0.5}, Min: 0.2, Max: 0.8}},
		{"shift periodic", Shift{Curve: day, Offset: 2 * Day}},
		{"shift odd", Shift{Curve: day, Offset: 90 * time.Minute}},
		{"repeat", Repeat{Curve: lin, Cycle: 20 * time.Hour}},
		{"window launch", Window{Curve: Growth{Base: Diurnal{Mean: 0.4, Amplitude: 0.2}, RatePerYear: 0.3, Compound: true}, From: 50*time.Hour + 7*time.Minute}},
		{"window span", Window{Curve: day, From: 30 * time.Hour, Until: 2*Week + 5*time.Hour}},
	}
}

// TestClosedFormMeanMatchesNumeric checks every closed-form mean against the
// trapezoidal path. Tolerance: the trapezoidal rule on a 5-minute grid errs
// by at most jump·step/2 per discontinuity of a step schedule (a few 1e-4 of
// the mean over the horizons used) and O(step²) for smooth curves.
func TestClosedFormMeanMatchesNumeric(t *testing.T) {
	horizons := []time.Duration{7 * time.Hour, Day, 100 * time.Hour, Week + 13*time.Hour, 3 * 8760 * time.Hour}
	for _, b := range builtins() {
		for _, h := range horizons {
			num, err := numericMean(b.curve, h, defaultSlices(h))
			if err != nil {
				t.Fatalf("%s: numericMean: %v", b.name, err)
			}
			m, ok := b.curve.(Meaner)
			if !ok {
				continue
			}
			closed, ok := m.MeanOver(h)
			if !ok {
				continue
			}
			tol := 2e-3
			if math.Abs(closed-num) > tol {
				t.Errorf("%s over %v: closed form %v, numeric %v (|Δ| > %v)", b.name, h, closed, num, tol)
			}
		}
	}
}

func TestClosedFormsExist(t *testing.T) {
	for _, name := range []string{"constant", "diurnal", "weekly", "steps", "steps aperiodic", "piecewise", "growth linear", "growth compound", "growth decline", "sum", "scale", "shift periodic", "repeat", "window launch", "window span"} {
		for _, b := range builtins() {
			if b.name != name {
				continue
			}
			if _, ok := b.curve.(Meaner).MeanOver(Week); !ok {
				t.Errorf("%s: no closed-form mean", name)
			}
		}
	}
}

func TestBuiltinsValid(t *testing.T) {
	for _, b := range builtins() {
		if err := validateCurve(b.curve); err != nil {
			t.Errorf("%s: %v", b.name, err)
		}
	}
}

func TestCurveValues(t *testing.T) {
	dev := Weekly{Weekday: Steps{Cycle: Day, Steps: []Step{{0, 0}, {9 * time.Hour, 1}, {18 * time.Hour, 0}}}, Weekend: Constant{}}
	tests := []struct {
		name   string
		reason string
		curve  Curve
		t      time.Duration
		want   float64
	}{
		{"diurnal peak", "the peak is at PeakHour", Diurnal{Mean: 0.6, Amplitude: 0.4, PeakHour: 14}, 14 * time.Hour, 1},
		{"diurnal trough", "the trough is 12 h after the peak", Diurnal{Mean: 0.6, Amplitude: 0.4, PeakHour: 14}, 2 * time.Hour, 0.2},
		{"diurnal next day", "period one day", Diurnal{Mean: 0.6, Amplitude: 0.4, PeakHour: 14}, Day + 14*time.Hour, 1},
		{"diurnal negative t", "negative t wraps", Diurnal{Mean: 0.6, Amplitude: 0.4, PeakHour: 14}, -10 * time.Hour, 1},
		{"monday 10:00", "weekday working hours", dev, 10 * time.Hour, 1},
		{"monday 18:00", "the step at 18:00 ends work", dev, 18 * time.Hour, 0},
		{"saturday 10:00", "weekends use the weekend profile", dev, 5*Day + 10*time.Hour, 0},
		{"next monday", "period one week", dev, Week + 9*time.Hour, 1},
		{"interpolate", "halfway between samples", PiecewiseLinear{Points: []Point{{0, 0}, {2 * time.Hour, 1}}}, time.Hour, 0.5},
		{"hold after", "constant extrapolation", PiecewiseLinear{Points: []Point{{0, 0}, {2 * time.Hour, 1}}}, 9 * time.Hour, 1},
		{"compound year", "(1+r)^1 after one year", Growth{Base: Constant{Value: 0.5}, RatePerYear: 0.5, Compound: true}, 8760 * time.Hour, 0.75},
		{"linear floor", "linear decline stops at zero", Growth{Base: Constant{Value: 0.5}, RatePerYear: -0.5}, 3 * 8760 * time.Hour, 0},
		{"clamp", "clamped to max", Clamp{Curve: Constant{Value: 0.9}, Max: 0.5}, 0, 0.5},
		{"repeat", "t mod cycle", Repeat{Curve: PiecewiseLinear{Points: []Point{{0, 0}, {2 * time.Hour, 1}}}, Cycle: 2 * time.Hour}, 3 * time.Hour, 0.5},
	}
	for _, tt := range tests {
		if got := tt.curve.At(tt.t); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: At(%v) = %v, want %v (%s)", tt.name, tt.t, got, tt.want, tt.reason)
		}
	}
}

func TestInvalidCurvesNeverPanic(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		curve  Curve
		want   error
	}{
		{"empty steps", "no steps, no value", Steps{}, ErrEmptySamples},
		{"unsorted steps", "steps must increase", Steps{Steps: []Step{{0, 0}, {2, 1}, {1, 0}}}, ErrUnsorted},
		{"negative cycle", "periods are ≥ 0", Steps{Cycle: -1, Steps: []Step{{0, 0}}}, ErrNegative},
		{"empty samples", "no points, no value", PiecewiseLinear{}, ErrEmptySamples},
		{"unsorted samples", "points must increase", PiecewiseLinear{Points: []Point{{5, 0}, {1, 1}}}, ErrUnsorted},
		{"NaN sample", "NaN demand", PiecewiseLinear{Points: []Point{{0, math.NaN()}}}, ErrNotFinite},
		{"negative constant", "negative demand", Constant{Value: -0.5}, ErrNegative},
		{"zero repeat", "zero period", Repeat{Curve: Constant{Value: 1}}, ErrZeroPeriod},
		{"nil repeat", "missing curve", Repeat{Cycle: time.Hour}, ErrMissing},
		{"empty sum", "nothing to add", Sum{}, ErrMissing},
		{"nil term", "missing curve", Sum{Terms: []Curve{nil}}, ErrMissing},
		{"NaN scale", "NaN factor", Scale{Curve: Constant{Value: 1}, Factor: math.NaN()}, ErrNotFinite},
		{"inverted clamp", "min above max", Clamp{Curve: Constant{Value: 1}, Min: 0.8, Max: 0.2}, ErrOutOfRange},
		{"growth -1", "compound of −100 % is undefined", Growth{Base: Constant{Value: 1}, RatePerYear: -1}, ErrOutOfRange},
		{"weekly nil", "missing profile", Weekly{Weekday: Constant{Value: 1}}, ErrMissing},
		{"diurnal NaN hour", "peak hour out of range", Diurnal{Mean: 0.5, PeakHour: math.NaN()}, ErrOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := validateCurve(tt.curve); !errors.Is(err, tt.want) {
				t.Errorf("Validate = %v, want %v (%s)", err, tt.want, tt.reason)
			}
			for _, at := range []time.Duration{math.MinInt64, -1, 0, 1, time.Hour, math.MaxInt64} {
				_ = tt.curve.At(at)
			}
			_ = tt.curve.Period()
			if _, err := Mean(tt.curve, Day); err == nil {
				t.Errorf("Mean accepted an invalid curve (%s)", tt.reason)
			}
			if _, err := LoadDuration(tt.curve, Day, 24); err == nil {
				t.Errorf("LoadDuration accepted an invalid curve (%s)", tt.reason)
			}
		})
	}
}

// nanCurve is a custom curve without Validate whose values are bad.
type nanCurve struct{ v float64 }

func (c nanCurve) At(time.Duration) float64 { return c.v }
func (c nanCurve) Period() time.Duration    { return 0 }

func TestBadDemandFromCustomCurve(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), -0.1} {
		if _, err := Mean(nanCurve{v}, Day); !errors.Is(err, ErrDemand) {
			t.Errorf("Mean of %v: %v, want ErrDemand", v, err)
		}
		if _, err := Peak(nanCurve{v}, Day); !errors.Is(err, ErrDemand) {
			t.Errorf("Peak of %v: %v, want ErrDemand", v, err)
		}
		if _, err := Discretize(nanCurve{v}, Day, 24); !errors.Is(err, ErrDemand) {
			t.Errorf("Discretize of %v: %v, want ErrDemand", v, err)
		}
	}
}

func TestPeriods(t *testing.T) {
	tests := []struct {
		name  string
		curve Curve
		want  time.Duration
	}{
		{"diurnal", Diurnal{Mean: 0.5}, Day},
		{"weekly", Weekly{}, Week},
		{"sum lcm", Add(Diurnal{}, Repeat{Curve: Constant{}, Cycle: 36 * time.Hour}, Constant{}), 72 * time.Hour},
		{"sum aperiodic", Add(Diurnal{}, PiecewiseLinear{}), 0},
		{"growth", Growth{Base: Diurnal{}, RatePerYear: 0.1}, 0},
		{"flat growth", Growth{Base: Diurnal{}}, Day},
	}
	for _, tt := range tests {
		if got := tt.curve.Period(); got != tt.want {
			t.Errorf("%s: Period = %v, want %v", tt.name, got, tt.want)
		}
	}
}
