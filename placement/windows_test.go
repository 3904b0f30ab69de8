package placement

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// propWindows holds settings.windows to what the stretches need: a window
// is a new cut inside the horizon; no stretch a window makes is shorter
// than the gap (a period, or horizon/maxWindows where that is longer);
// every deadline inside the horizon is followed by a cut (or the horizon's
// end) within two gaps of it, however many deadlines there are; and when
// every deadline is at least a gap from every cut, from every other and
// from the horizon's end, every one of them is a window itself.
func propWindows(t *rapid.T) {
	day := 24 * time.Hour
	per := time.Duration(rapid.IntRange(1, 7).Draw(t, "period days")) * day
	h := time.Duration(rapid.IntRange(30, 1100).Draw(t, "horizon days")) * day
	epoch := time.Duration(rapid.IntRange(30, 400).Draw(t, "epoch days")) * day
	s := settings{Options: Options{Period: per}, horizon: h, epoch: epoch}
	cuts := []time.Duration{0}
	for range rapid.IntRange(0, 6).Draw(t, "cuts") {
		cuts = append(cuts, time.Duration(rapid.Int64Range(1, int64(h-1)).Draw(t, "cut")))
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var deadlines []time.Duration
	for range rapid.IntRange(0, 20).Draw(t, "deadlines") {
		deadlines = append(deadlines, time.Duration(rapid.IntRange(1, int(h/time.Hour)+100).Draw(t, "deadline hours"))*time.Hour)
	}
	w := s.windows(cuts, deadlines)
	all := slices.Clone(cuts)
	for d := range w {
		if _, found := slices.BinarySearch(cuts, d); found || d <= 0 || d >= h {
			t.Fatalf("window %v: among the cuts %v or outside the horizon %v", d, cuts, h)
		}
		all = append(all, d)
	}
	slices.Sort(all)
	gap := s.windowGap()
	if gap < per || gap < h/maxWindows {
		t.Fatalf("gap %v, below the period %v or horizon/%d", gap, per, maxWindows)
	}
	// The stretches the windows make, or split, are the gap or longer.
	for i, a := range all {
		b := h
		if i+1 < len(all) {
			b = all[i+1]
		}
		if b-a < gap && (w[a] || i+1 < len(all) && w[b]) {
			t.Fatalf("stretch %v–%v shorter than the gap %v (cuts %v, windows %v)", a, b, gap, cuts, w)
		}
	}
	inside := map[time.Duration]bool{}
	for _, d := range deadlines {
		if d < h {
			inside[d] = true
		}
	}
	slack := 2 * gap
	for d := range inside {
		k, _ := slices.BinarySearch(all, d)
		next := h
		if k < len(all) {
			next = all[k]
		}
		if next-d >= slack {
			t.Fatalf("deadline %v: the next cut is at %v, %v later (slack %v; cuts %v, windows %v)", d, next, next-d, slack, cuts, w)
		}
	}
	apart := true
	for d := range inside {
		apart = apart && h-d >= gap
		for _, c := range cuts {
			apart = apart && (c-d >= gap || d-c >= gap)
		}
		for e := range inside {
			apart = apart && (e == d || e-d >= gap || d-e >= gap)
		}
	}
	for d := range inside {
		if apart && !w[d] {
			t.Fatalf("deadline %v is no window, though every deadline is a period from every cut, every other and the horizon's end (cuts %v, windows %v)", d, cuts, w)
		}
	}
}

func TestWindows(t *testing.T) { rapid.Check(t, propWindows) }

func FuzzWindows(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propWindows)) }
