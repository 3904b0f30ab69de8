package lp

import (
	"math"
	"testing"
)

// TestRowExcludesLattice: an integer combination of the coefficients lies
// in [l, u] exactly when the range holds a multiple of their gcd (after the
// scale that makes them integers); brute force over small combinations is
// the oracle for the cases that have one.
func TestRowExcludesLattice(t *testing.T) {
	cases := []struct {
		a    []float64
		l, u float64
		want bool
	}{
		{[]float64{-1, -3, 2}, 0.5, 0.5, true},
		{[]float64{2, 4}, 1, 1, true},
		{[]float64{2, 4}, 1, 3, false}, // 2
		{[]float64{6, 9}, 1, 2, true},  // gcd 3
		{[]float64{6, 9}, 1, 3, false},
		{[]float64{0.5, 1.5}, 0.25, 0.25, true}, // ×2: gcd 1, 0.5
		{[]float64{0.5, 1.5}, 1, 1, false},
		{[]float64{0.2, 0.4}, 0.1, 0.1, true}, // ×10: gcd 2, 1
		{[]float64{0.2, 0.4}, 0.6, 0.6, false},
		{[]float64{1, math.Pi}, 0.5, 0.5, false}, // no scale: left alone
	}
	for _, c := range cases {
		if got := rowExcludesLattice(c.a, c.l, c.u); got != c.want {
			t.Errorf("%v in [%v, %v]: excludes %v, want %v", c.a, c.l, c.u, got, c.want)
		}
		if c.want || len(c.a) != 2 || c.a[1] == math.Pi {
			continue
		}
		found := false
		for x := -20; x <= 20 && !found; x++ {
			for y := -20; y <= 20 && !found; y++ {
				v := c.a[0]*float64(x) + c.a[1]*float64(y)
				found = v >= c.l-1e-9 && v <= c.u+1e-9
			}
		}
		if !found {
			t.Errorf("%v in [%v, %v]: no integer point by brute force", c.a, c.l, c.u)
		}
	}
}
