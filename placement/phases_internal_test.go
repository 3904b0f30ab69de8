package placement

import (
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/workload"
	"pgregory.net/rapid"
)

// propMergePhases: for a daily pattern that grows (or shrinks), sampled
// over a period of whole days in a stretch part of any length, the phases
// of the cycle made alike among the slices the part holds whole keep every
// slice's peak at or above what it was (capacity still meets each slice),
// make the slices of a phase equal (the others unchanged), and keep the
// volume (the sum of the means) — the three things the model's sampling
// rests on.
func propMergePhases(t *rapid.T) {
	var st []workload.Step
	for h := range rapid.IntRange(1, 4).Draw(t, "steps") {
		st = append(st, workload.Step{Start: time.Duration(6*h) * time.Hour, Value: rapid.Float64Range(0, 0.5).Draw(t, "level")})
	}
	curve := workload.Growth{Base: workload.Steps{Cycle: workload.Day, Steps: st},
		RatePerYear: rapid.Float64Range(-0.5, 1).Draw(t, "growth"), Compound: rapid.Bool().Draw(t, "compound")}
	days := rapid.IntRange(2, 7).Draw(t, "days in the period")
	period := time.Duration(days) * workload.Day
	perDay := rapid.SampledFrom([]int{1, 2, 3, 4, 6, 8, 12, 24}).Draw(t, "slices a day")
	n := days * perDay
	start := time.Duration(rapid.IntRange(0, 400).Draw(t, "start day")) * workload.Day
	span := time.Duration(rapid.IntRange(1, 200*24).Draw(t, "hours"))*time.Hour + time.Duration(rapid.IntRange(0, 59).Draw(t, "minutes"))*time.Minute
	peak, mean, err := stretchPeaks(nil, curve, start, start+span, period, n)
	if err != nil {
		t.Fatal(err)
	}
	phases, whole := phasesOf(curve, period, n, span)
	if curve.RatePerYear == 0 { // it repeats: its slices merge as they are
		if phases != 0 {
			t.Fatalf("phasesOf = %d for a curve that repeats, want 0", phases)
		}
		return
	}
	wantWhole := n
	if span < period {
		wantWhole = int(span / (period / time.Duration(n)))
	}
	if wantWhole < 2*perDay {
		if phases != 0 {
			t.Fatalf("phasesOf = %d for %v of a period of %v, want 0 (less than two days of whole slices)", phases, span, period)
		}
		return
	}
	if phases != perDay || whole != wantWhole {
		t.Fatalf("phasesOf = %d, %d, want the %d slices of a day, %d whole", phases, whole, perDay, wantWhole)
	}
	pk, mn := append([]float64(nil), peak...), append([]float64(nil), mean...)
	mergePhases(pk, mn, phases, whole)
	before, after := 0.0, 0.0
	for i := range pk {
		if pk[i] < peak[i] {
			t.Fatalf("slice %d: peak %g merged to %g", i, peak[i], pk[i])
		}
		if i >= whole {
			if pk[i] != peak[i] || mn[i] != mean[i] {
				t.Fatalf("slice %d, not whole in the part, changed", i)
			}
		} else if j := i % phases; pk[i] != pk[j] || mn[i] != mn[j] {
			t.Fatalf("slice %d differs from slice %d of its phase: %g/%g, %g/%g", i, j, pk[i], mn[i], pk[j], mn[j])
		}
		before, after = before+mean[i], after+mn[i]
	}
	if math.Abs(before-after) > 1e-12*max(1, before) {
		t.Fatalf("volume %g merged to %g", before, after)
	}
	// A curve that repeats is not merged (its slices merge as they are).
	if p, _ := phasesOf(curve.Base, period, n, span); p != 0 {
		t.Fatal("merged a periodic curve")
	}
}

func TestMergePhases(t *testing.T) { rapid.Check(t, propMergePhases) }

func FuzzMergePhases(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMergePhases)) }
