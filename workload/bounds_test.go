package workload

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"
)

// Regression tests of issue 14: inputs at the extremes that once wrapped
// around, overflowed or took unbounded work.

// TestShiftBeyondDurationRange: a shift whose t + Offset overflows
// time.Duration once wrapped around to a negative time and returned the
// wrong step. A periodic curve is evaluated at the right phase (checked
// against big-integer arithmetic); an aperiodic one gives NaN, which
// analysis reports.
func TestShiftBeyondDurationRange(t *testing.T) {
	const year = 8760 * time.Hour
	week := Steps{Cycle: Week, Steps: []Step{{0, 0.1}, {30 * time.Hour, 0.7}, {100 * time.Hour, 0.4}, {150 * time.Hour, 1}}}
	for _, tt := range []struct {
		name      string
		offset, t time.Duration
	}{
		{"+200y at 99y", 200 * year, 99 * year},
		{"+200y at 250y", 200 * year, 250 * year},
		{"-200y at -99y", -200 * year, -99*year - 5*time.Hour},
		{"max offset at max t", math.MaxInt64, math.MaxInt64},
	} {
		sum := new(big.Int).Add(big.NewInt(int64(tt.t)), big.NewInt(int64(tt.offset)))
		ph := new(big.Int).Mod(sum, big.NewInt(int64(Week))) // Euclidean: in [0, Week)
		want := week.At(time.Duration(ph.Int64()))
		if got := (Shift{Curve: week, Offset: tt.offset}).At(tt.t); got != want {
			t.Errorf("%s: At = %v, want %v (phase %v of the week)", tt.name, got, want, time.Duration(ph.Int64()))
		}
	}
	aperiodic := Shift{Curve: Steps{Steps: []Step{{0, 0.2}, {time.Hour, 0.9}}}, Offset: 200 * year}
	if got := aperiodic.At(99 * year); !math.IsNaN(got) {
		t.Errorf("aperiodic curve beyond the Duration range: At = %v, want NaN", got)
	}
	if got := aperiodic.At(50 * year); got != 0.9 {
		t.Errorf("aperiodic curve within range: At = %v, want 0.9", got)
	}
	if _, err := Sample(aperiodic, 100*year, 100); !errors.Is(err, ErrDemand) {
		t.Errorf("Sample of an unrepresentable shift: %v, want ErrDemand", err)
	}
}

// TestGPUsBound: GPUs = MaxInt once passed validation, and node and GPU
// counts derived from it overflowed to negative numbers downstream.
func TestGPUsBound(t *testing.T) {
	w := Workload{Name: "big", Kind: Training, WorkGPUHours: 1}
	for _, tt := range []struct {
		gpus int
		ok   bool
	}{{1, true}, {MaxGPUs, true}, {MaxGPUs + 1, false}, {math.MaxInt, false}} {
		w.GPUs = tt.gpus
		err := w.Validate()
		if tt.ok != (err == nil) || !tt.ok && !errors.Is(err, ErrOutOfRange) {
			t.Errorf("GPUs = %d: Validate = %v, want ok = %v (ErrOutOfRange otherwise)", tt.gpus, err, tt.ok)
		}
		if !tt.ok && err != nil && !strings.Contains(err.Error(), "MaxGPUs") {
			t.Errorf("GPUs = %d: %q does not name the limit", tt.gpus, err)
		}
	}
}
