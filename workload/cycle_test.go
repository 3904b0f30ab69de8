package workload_test

import (
	"testing"
	"time"

	"github.com/gputco/gputco/workload"
)

// cycled is a curve of another package: a periodic curve from a launch on.
type cycled struct {
	c      workload.Curve
	launch time.Duration
}

func (l cycled) At(t time.Duration) float64 {
	if t < l.launch {
		return 0
	}
	return l.c.At(t)
}
func (l cycled) Period() time.Duration { return 0 }
func (l cycled) Cycle() time.Duration  { return workload.Cycle(l.c) }

func TestCycle(t *testing.T) {
	d, err := workload.NewDiurnal(0.5, 0.3, 14)
	if err != nil {
		t.Fatal(err)
	}
	wk := workload.Weekly{Weekday: d, Weekend: workload.Constant{Value: 0.5}}
	grow := workload.Growth{Base: d, RatePerYear: 0.4, Compound: true}
	steps := workload.Steps{Cycle: 5 * time.Hour, Steps: []workload.Step{{Value: 1}}}
	nested := workload.Curve(grow)
	for range 100 {
		nested = workload.Scale{Curve: nested, Factor: 1}
	}
	// A tree of 2⁴⁰ leaves sharing its subtrees: Cycle must not visit them
	// all.
	shared := workload.Curve(grow)
	for range 40 {
		shared = workload.Add(shared, shared)
	}
	for _, c := range []struct {
		name string
		c    workload.Curve
		want time.Duration
	}{
		{"diurnal", d, workload.Day},
		{"constant", workload.Constant{Value: 1}, 0},
		{"growth", grow, workload.Day},
		{"growth of a constant", workload.Growth{Base: workload.Constant{Value: 1}, RatePerYear: 1}, 0},
		{"scaled growth", workload.Scale{Curve: grow, Factor: 0.5}, workload.Day},
		{"clamped growth", workload.Clamp{Curve: grow, Max: 1}, workload.Day},
		{"shifted growth", workload.Shift{Curve: grow, Offset: time.Hour}, workload.Day},
		{"sum", workload.Add(grow, workload.Constant{Value: 0.1}, workload.Growth{Base: steps, RatePerYear: 1}), 120 * time.Hour},
		{"sum with a weekly term", workload.Add(grow, wk), workload.Week},
		{"sum with an aperiodic term", workload.Add(grow, workload.PiecewiseLinear{}), 0},
		{"cycler", cycled{grow, time.Hour}, workload.Day},
		{"window", workload.Window{Curve: grow, From: 90 * workload.Day}, workload.Day},
		{"more curves than MaxCurveNodes", nested, 0},
		{"a shared tree of 2⁴⁰ leaves", shared, 0},
		{"nil", nil, 0},
	} {
		if got := workload.Cycle(c.c); got != c.want {
			t.Errorf("%s: Cycle = %v, want %v", c.name, got, c.want)
		}
	}
}
