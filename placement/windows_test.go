package placement

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// propWindows holds settings.segments to what the jobs' windows need: the
// stretches with deadlines start at exactly the starts of those without
// them and at every deadline inside the horizon; a stretch is a window
// exactly when its start is a deadline and no other cut; a window splits
// a stretch without deadlines and keeps its epoch and the next epoch's
// start; and the stretches tile the horizon, each weighing its length in
// periods.
func propWindows(t *rapid.T) {
	day := 24 * time.Hour
	per := time.Duration(rapid.IntRange(1, 7).Draw(t, "period days")) * day
	h := time.Duration(rapid.IntRange(30, 1100).Draw(t, "horizon days")) * day
	epoch := time.Duration(rapid.IntRange(30, 400).Draw(t, "epoch days")) * day
	s := settings{Options: Options{Period: per}, horizon: h, epoch: epoch, overTime: true}
	var arrivals []arrival
	for range rapid.IntRange(0, 4).Draw(t, "offers") {
		arrivals = append(arrivals, arrival{
			lead: time.Duration(rapid.IntRange(0, int(h/day)).Draw(t, "lead days")) * day,
			term: time.Duration(rapid.SampledFrom([]int{0, 730, 8760}).Draw(t, "term hours")) * time.Hour})
	}
	var deadlines []time.Duration
	for range rapid.IntRange(0, 12).Draw(t, "deadlines") {
		deadlines = append(deadlines, time.Duration(rapid.IntRange(1, int(h/time.Hour)+100).Draw(t, "deadline hours"))*time.Hour)
	}
	plain := s.segments(arrivals, nil)
	segs := s.segments(arrivals, deadlines)
	var want []time.Duration
	cut := map[time.Duration]bool{}
	for _, sg := range plain {
		want = append(want, sg.start)
		cut[sg.start] = true
	}
	for _, d := range deadlines {
		if d < h && !cut[d] {
			want = append(want, d)
		}
	}
	slices.Sort(want)
	want = slices.Compact(want)
	var got []time.Duration
	for i, sg := range segs {
		got = append(got, sg.start)
		if sg.window == cut[sg.start] {
			t.Fatalf("stretch %v: window %v, but a cut without deadlines %v", sg.start, sg.window, cut[sg.start])
		}
		end := h
		if i+1 < len(segs) {
			end = segs[i+1].start
		}
		if sg.end != end || sg.reps != (end-sg.start).Hours()/per.Hours() {
			t.Fatalf("stretch %v–%v (reps %g), want to %v", sg.start, sg.end, sg.reps, end)
		}
		// The stretch without deadlines it lies in.
		k, _ := slices.BinarySearchFunc(plain, sg.start, func(p segment, x time.Duration) int {
			switch {
			case p.end <= x:
				return -1
			case p.start > x:
				return 1
			}
			return 0
		})
		if p := plain[k]; sg.epoch != p.epoch || sg.until != p.until {
			t.Fatalf("stretch %v: epoch %d until %v, the stretch %v–%v it splits has %d, %v", sg.start, sg.epoch, sg.until, p.start, p.end, p.epoch, p.until)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("stretches start at %v, want %v (deadlines %v)", got, want, deadlines)
	}
}

func TestWindows(t *testing.T) { rapid.Check(t, propWindows) }

func FuzzWindows(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propWindows)) }
