package tco

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestOutcomesReservoir: Simulate keeps QuantileSample trials for its
// quantiles, a uniform sample of all (checked against the exact quantiles of
// every value, fed in increasing order so that a sample biased to the first
// or the last trials would be far off), with exact means; up to
// QuantileSample trials the quantiles are exact.
func TestOutcomesReservoir(t *testing.T) {
	n := 4 * QuantileSample
	if testing.Short() {
		n = 2 * QuantileSample
	}
	o := newOutcomes(n, 7)
	sum := 0.0
	for i := range n {
		o.add(decimal.NewFromInt(int64(i)), time.Duration(i), time.Duration(n-1-i))
		sum += float64(i)
	}
	if len(o.costs) != QuantileSample || cap(o.costs) != QuantileSample {
		t.Fatalf("kept %d trials (capacity %d), want QuantileSample = %d", len(o.costs), cap(o.costs), QuantileSample)
	}
	c, wall, fin := o.cost(), o.durations(o.walls, o.wallSum), o.durations(o.finishes, o.finishSum)
	wantMean := decimal.NewFromInt(int64(n - 1)).Div(decimal.NewFromInt(2))
	if !c.Mean.Equal(wantMean) || wall.Mean != time.Duration(sum/float64(n)) {
		t.Errorf("means %s and %v, want the exact %s", c.Mean, wall.Mean, wantMean)
	}
	for _, q := range []struct {
		name string
		p    float64
		cost decimal.Decimal
		wall time.Duration
		fin  time.Duration
	}{{"P50", 0.50, c.P50, wall.P50, fin.P50}, {"P90", 0.90, c.P90, wall.P90, fin.P90}, {"P99", 0.99, c.P99, wall.P99, fin.P99}} {
		exact := float64(quantileIndex(n, q.p)) // the values are 0 … n−1
		tol := 5 * math.Sqrt(q.p*(1-q.p)/QuantileSample) * float64(n)
		// The finish times run the other way, over the same values.
		got, _ := q.cost.Float64()
		if math.Abs(got-exact) > tol || math.Abs(float64(q.wall)-exact) > tol || math.Abs(float64(q.fin)-exact) > tol {
			t.Errorf("%s = %v (cost), %v (wall), %v (finish); exact %v ± %.0f", q.name, got, float64(q.wall), float64(q.fin), exact, tol)
		}
	}

	// Up to QuantileSample trials every one is kept: exact quantiles.
	few := newOutcomes(1000, 7)
	vals := make([]time.Duration, 1000)
	for i := range vals {
		vals[i] = time.Duration((i * 7919) % 1000) // a permutation of 0 … 999
		few.add(decimal.NewFromInt(int64(vals[i])), vals[i], vals[i])
	}
	slices.Sort(vals)
	if s := few.durations(few.walls, few.wallSum); s.P50 != vals[quantileIndex(1000, 0.5)] || s.P99 != vals[quantileIndex(1000, 0.99)] {
		t.Errorf("1000 trials: P50 %v, P99 %v; want the exact %v and %v", s.P50, s.P99, vals[499], vals[989])
	}
}
