package lp

import (
	"context"
	"math"
	"testing"
	"time"
)

// lockProblem is a site with whole units of capacity: z opens it (binary),
// y buys units of 2 (y ≤ 10·z), and the flows x1, x2 cover a demand of
// 5.5 within the capacity; w, with y + w ≤ cap, bounds the units when cap
// is finite.
func lockProblem(t *testing.T, cap float64) *Problem {
	t.Helper()
	var b Builder
	z := b.AddIntCol("z", 100, 0, 1)
	y := b.AddIntCol("y", 10, 0, 10)
	x1 := b.AddCol("x1", 1, 0, math.Inf(1))
	x2 := b.AddCol("x2", 2, 0, math.Inf(1))
	w := b.AddCol("w", 0, 0, math.Inf(1))
	b.AddRow("demand", 4.5, math.Inf(1), []int{x1, x2}, []float64{1, 1})
	b.AddRow("capacity", math.Inf(-1), 0, []int{x1, x2, y}, []float64{1, 1, -2})
	b.AddRow("open", math.Inf(-1), 0, []int{y, z}, []float64{1, -10})
	if !math.IsInf(cap, 1) {
		b.AddRow("units", math.Inf(-1), cap, []int{y, w}, []float64{1, 1})
	}
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLockRounding rounds LP points of lockProblem: z, which no row locks
// upwards, goes up; y, locked both ways (capacity below, open above),
// takes the nearer integer when its rows allow it at the activities of
// the rounded z, else the farther. Nearest rounding fails on each point
// (z = 0 closes the site; y = 2 lacks capacity), lock rounding gives a
// feasible point; with y's units capped at 2.25 neither integer fits and
// the column is reported locked.
func TestLockRounding(t *testing.T) {
	for _, c := range []struct {
		name        string
		cap         float64
		y           float64
		wantY       float64
		wantLocked  int
		nearestFail bool
	}{
		{"nearer", math.Inf(1), 2.75, 3, 0, true},
		{"farther", math.Inf(1), 2.25, 3, 0, true},
		{"locked", 2.25, 2.25, 2, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := lockProblem(t, c.cap)
			sr, err := newMIPSearch(context.Background(), p, Options{}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			// An LP point: the demand met by x1 = 2, x2 = 2.5 within 2·y,
			// z = y/10.
			copy(sr.x, []float64{c.y / 10, c.y, 2, 2.5, 0})
			if !pointFeasible(p, sr.x) {
				t.Fatal("the LP point violates a row")
			}
			if _, ok := mipFeasible(p, roundAll(sr, sr.x), true); ok == c.nearestFail {
				t.Fatalf("nearest rounding feasible %v, want %v", ok, !c.nearestFail)
			}
			x, locked := sr.lockRounding()
			if x == nil {
				t.Fatal("no point")
			}
			if locked != c.wantLocked || x[0] != 1 || x[1] != c.wantY {
				t.Fatalf("z = %v, y = %v, %d locked; want 1, %v, %d", x[0], x[1], locked, c.wantY, c.wantLocked)
			}
			_, ok := mipFeasible(p, x, true)
			if ok != (locked == 0) {
				t.Errorf("lock-rounded point feasible %v with %d columns locked", ok, locked)
			}
			for j := 2; j < 5; j++ {
				if x[j] != sr.x[j] {
					t.Errorf("continuous column %d moved from %v to %v", j, sr.x[j], x[j])
				}
			}
			sr.x[0], sr.x[1] = 1, 3
			if x, _ := sr.lockRounding(); x != nil {
				t.Errorf("integral point: got %v, want nil", x)
			}
		})
	}
}

// pointFeasible reports whether x satisfies p's rows and bounds, ignoring
// integrality.
func pointFeasible(p *Problem, x []float64) bool {
	q := *p
	q.Integer = make([]bool, p.NumCols())
	_, ok := mipFeasible(&q, append([]float64(nil), x...), true)
	return ok
}

// roundAll is x with its integer columns rounded to the nearest integer.
func roundAll(sr *mipSearch, x []float64) []float64 {
	out := append([]float64(nil), x...)
	for _, j := range sr.intCols {
		out[j] = math.Round(out[j])
	}
	return out
}
