package placement

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// greedyCost is the least price of d GPUs on rungs (price, gpus) by brute
// force: every GPU, one at a time, from the cheapest rung with room. ok is
// false when they hold fewer than d.
func greedyCost(price, gpus []float64, d float64) (float64, bool) {
	type rung struct{ p, g float64 }
	rs := make([]rung, len(price))
	for i := range price {
		rs[i] = rung{price[i], gpus[i]}
	}
	slices.SortFunc(rs, func(a, b rung) int {
		switch {
		case a.p < b.p:
			return -1
		case a.p > b.p:
			return 1
		}
		return 0
	})
	sum := 0.0
	for _, r := range rs {
		take := min(d, r.g)
		if take > 0 {
			sum += take * r.p
			d -= take
		}
	}
	return sum, d <= 1e-9
}

// propLadderChange holds ladder.change to greedyCost: the change of the
// least price of a slice when its demand d becomes d+δ and e GPUs at price
// p join the rungs is the brute-force cost after less the cost before, and
// ok exactly when the rungs and the new GPUs hold d+δ.
func propLadderChange(t *rapid.T) {
	n := rapid.IntRange(0, 6).Draw(t, "rungs")
	price, gpus := make([]float64, n), make([]float64, n)
	for i := range n {
		price[i] = float64(rapid.IntRange(0, 8).Draw(t, "price"))
		gpus[i] = float64(rapid.IntRange(0, 16).Draw(t, "gpus"))
		if rapid.IntRange(0, 5).Draw(t, "unlimited") == 0 {
			gpus[i] = math.Inf(1)
		}
	}
	l := newLadder(price, gpus)
	total := 0.0
	for _, g := range gpus {
		total += g
	}
	if l.total() != total && !math.IsInf(total, 1) {
		t.Fatalf("total %g, want %g", l.total(), total)
	}
	d := float64(rapid.IntRange(0, 40).Draw(t, "demand"))
	if d > total {
		d = total
	}
	delta := float64(rapid.IntRange(0, 8).Draw(t, "more demand"))
	p := float64(rapid.IntRange(0, 8).Draw(t, "new price"))
	e := float64(rapid.IntRange(0, 10).Draw(t, "new GPUs"))
	if rapid.IntRange(0, 5).Draw(t, "new unlimited") == 0 {
		e = math.Inf(1)
	}
	before, ok := greedyCost(price, gpus, d)
	if !ok {
		t.Fatalf("demand %g above the rungs' %g", d, total)
	}
	after, okAfter := greedyCost(append(slices.Clone(price), p), append(slices.Clone(gpus), e), d+delta)
	got, okGot := l.change(d, delta, p, e)
	if okGot != okAfter {
		t.Fatalf("change(%g, %g, %g, %g): ok %v, brute force %v", d, delta, p, e, okGot, okAfter)
	}
	if okGot && math.Abs(got-(after-before)) > 1e-9 {
		t.Fatalf("change(%g, %g, %g, %g) = %g, brute force %g − %g", d, delta, p, e, got, after, before)
	}
}

func TestLadderChange(t *testing.T) { rapid.Check(t, propLadderChange) }

func FuzzLadderChange(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propLadderChange)) }
