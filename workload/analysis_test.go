package workload

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"
)

func TestAnalysisDevNotebook(t *testing.T) {
	dev := Weekly{Weekday: Steps{Cycle: Day, Steps: []Step{{0, 0}, {9 * time.Hour, 1}, {18 * time.Hour, 0}}}, Weekend: Constant{}}
	h := 4 * Week
	mean, err := Mean(dev, h)
	if err != nil || math.Abs(mean-45.0/168) > 1e-12 {
		t.Errorf("Mean = %v, %v; want 45/168", mean, err)
	}
	above, err := HoursAbove(dev, h, 0.5)
	if err != nil || math.Abs(above-4*45) > 1e-9 {
		t.Errorf("HoursAbove(0.5) = %v, %v; want 180", above, err)
	}
	if all, _ := HoursAbove(dev, h, 0); all != hours(h) {
		t.Errorf("HoursAbove(0) = %v, want the horizon %v", all, hours(h))
	}
	peak, err := Peak(dev, h)
	if err != nil || peak != 1 {
		t.Errorf("Peak = %v, %v", peak, err)
	}
	q, err := Quantile(dev, h, 0.5)
	if err != nil || q != 0 {
		t.Errorf("median = %v, %v; want 0 (busy 27%% of the time)", q, err)
	}
	q, _ = Quantile(dev, h, 0.9)
	if q != 1 {
		t.Errorf("P90 = %v, want 1", q)
	}
	ldc, err := LoadDuration(dev, h, 4*168)
	if err != nil {
		t.Fatal(err)
	}
	ones := slices.Index(ldc, 0)
	if ones != 4*45 {
		t.Errorf("LDC has %d hours at 1, want 180", ones)
	}
	sl, err := Discretize(dev, Week, 168)
	if err != nil {
		t.Fatal(err)
	}
	if sl[9].Demand != 1 || sl[8].Demand != 0 || sl[5*24+10].Demand != 0 || sl[167].Start != 167*time.Hour || sl[0].Hours() != 1 {
		t.Errorf("Discretize: unexpected slices %+v %+v %+v", sl[8], sl[9], sl[5*24+10])
	}
}

func TestDiscretizeMeans(t *testing.T) {
	d := Diurnal{Mean: 0.6, Amplitude: 0.4, PeakHour: 14}
	sl, err := Discretize(d, Day, 7) // uneven slices
	if err != nil {
		t.Fatal(err)
	}
	var sum, total float64
	for _, s := range sl {
		sum += s.Demand * s.Hours()
		total += s.Hours()
		if s.Peak < s.Demand {
			t.Errorf("slice %v: peak %v < mean %v", s.Start, s.Peak, s.Demand)
		}
	}
	if total != 24 || math.Abs(sum/total-0.6) > 1e-6 {
		t.Errorf("weighted slice mean %v over %v h, want 0.6 over 24 h", sum/total, total)
	}
}

func TestAnalysisErrors(t *testing.T) {
	c := Constant{Value: 0.5}
	tests := []struct {
		name   string
		reason string
		run    func() error
		want   error
	}{
		{"zero horizon", "nothing to analyse", func() error { _, err := Mean(c, 0); return err }, ErrZeroPeriod},
		{"negative horizon", "nothing to analyse", func() error { _, err := LoadDuration(c, -time.Hour, 10); return err }, ErrZeroPeriod},
		{"nil curve", "a curve is required", func() error { _, err := Peak(nil, time.Hour); return err }, ErrMissing},
		{"too many slices", "memory is bounded", func() error { _, err := Sample(c, time.Hour, MaxSamples+1); return err }, ErrOutOfRange},
		{"zero slices", "discretisation needs slices", func() error { _, err := Discretize(c, Day, 0); return err }, ErrOutOfRange},
		{"bad quantile", "quantiles are in [0, 1]", func() error { _, err := Quantile(c, Day, 1.5); return err }, ErrOutOfRange},
		{"NaN level", "levels are numbers", func() error { _, err := HoursAbove(c, Day, math.NaN()); return err }, ErrNotFinite},
		{"empty profile", "no samples", func() error { _, err := Profile{}.Quantile(0.5); return err }, ErrEmptySamples},
	}
	for _, tt := range tests {
		if err := tt.run(); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v (%s)", tt.name, err, tt.want, tt.reason)
		}
	}
}

func TestSampleHugeHorizon(t *testing.T) {
	p, err := Sample(Diurnal{Mean: 0.5, Amplitude: 0.1}, math.MaxInt64, 0)
	if err != nil || len(p.Values) != MaxSamples {
		t.Errorf("Sample over the longest horizon: %d samples, %v", len(p.Values), err)
	}
}
