package workload

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestWindow(t *testing.T) {
	d := Diurnal{Mean: 0.5, Amplitude: 0.3, PeakHour: 14}
	launch := Window{Curve: d, From: 3 * Day}
	span := Window{Curve: d, From: 3 * Day, Until: 10 * Day}
	for _, tt := range []struct {
		w    Window
		t    time.Duration
		want float64
	}{
		{launch, 3*Day - 1, 0},
		{launch, 3 * Day, d.At(3 * Day)},
		{launch, 400 * Day, d.At(400 * Day)},
		{span, 10*Day - 1, d.At(10*Day - 1)},
		{span, 10 * Day, 0},
		{Window{Curve: nanCurve{}, From: Day}, 0, 0}, // not read outside
	} {
		if got := tt.w.At(tt.t); math.Float64bits(got) != math.Float64bits(tt.want) {
			t.Errorf("%+v at %v: %v, want %v", tt.w, tt.t, got, tt.want)
		}
	}
	if !math.IsNaN((Window{}).At(0)) {
		t.Error("a window without a curve is NaN")
	}
	if p := launch.Period(); p != 0 {
		t.Errorf("period %v, want 0", p)
	}
	if c := Cycle(launch); c != Day {
		t.Errorf("cycle %v, want a day", c)
	}
	// The closed form against the trapezoidal rule at a second's step
	// (exact on the diurnal integrand but for O(step²)), over horizons
	// before, across and after the span.
	for _, h := range []time.Duration{2 * Day, 5*Day + 7*time.Hour, 12 * Day} {
		for _, w := range []Window{launch, span} {
			got, ok := w.MeanOver(h)
			if !ok {
				t.Fatalf("%+v over %v: no closed form", w, h)
			}
			want, err := numericMean(w, h, int(h/time.Second))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-6 {
				t.Errorf("%+v over %v: mean %v, numeric %v", w, h, got, want)
			}
		}
	}
	if _, ok := (Window{Curve: PiecewiseLinear{Points: []Point{{0, 1}}}, From: Day}).MeanOver(Week); !ok {
		t.Error("a piecewise-linear curve's window has a closed form")
	}
	if _, ok := (Window{Curve: nanCurve{}, From: Day}).MeanOver(Week); ok {
		t.Error("a curve without a closed form gives a window without one")
	}
}

func TestWindowValidate(t *testing.T) {
	for _, tt := range []struct {
		w     Window
		field string
		want  error
	}{
		{Window{From: Day}, "curve", ErrMissing},
		{Window{Curve: Constant{Value: 1}, From: Day, Until: Day}, "until", ErrOutOfRange},
		{Window{Curve: Constant{Value: 1}, From: Day, Until: time.Hour}, "until", ErrOutOfRange},
		{Window{Curve: Constant{Value: -1}}, "curve.value", ErrNegative},
	} {
		err := tt.w.Validate()
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%+v: %v, want %v on %s", tt.w, err, tt.want, tt.field)
		}
	}
	if err := (Window{Curve: Constant{Value: 1}, From: -Day}).Validate(); err != nil {
		t.Errorf("a window from before the horizon, open-ended: %v", err)
	}
}

func TestWindowJSON(t *testing.T) {
	data, err := MarshalCurve(Window{Curve: Constant{Value: 1}, From: 90 * Day})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"window","curve":{"type":"constant","value":1},"from":"2160h0m0s"}`; string(data) != want {
		t.Errorf("JSON %s, want %s", data, want)
	}
	c, err := UnmarshalCurve([]byte(`{"type":"window","curve":{"type":"constant","value":0.5},"from":"24h","until":"48h"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Window{Curve: Constant{Value: 0.5}, From: Day, Until: 2 * Day}); c != want {
		t.Errorf("decoded %+v, want %+v", c, want)
	}
}
