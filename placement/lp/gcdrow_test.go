package lp

import (
	"math"
	"math/rand/v2"
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

// TestLatticeSolvable compares the reduction of equalitiesExcludeLattice
// with the determinantal criterion (Smith normal form): a·x = b has an
// integer solution exactly when a and [a b] have the same rank r and the
// same gcd of their r×r minors. Seeded random systems of up to 3 rows and
// 4 columns with small coefficients, and the parity system of review 8.
func TestLatticeSolvable(t *testing.T) {
	cases := []struct {
		name string
		a    [][]int64
		b    []int64
		want bool
	}{
		{"parity", [][]int64{{1, 1, -2, 0}, {1, -1, 0, -2}}, []int64{0, 1}, false},
		{"parity even", [][]int64{{1, 1, -2, 0}, {1, -1, 0, -2}}, []int64{0, 2}, true},
		{"dependent consistent", [][]int64{{2, 4}, {1, 2}}, []int64{6, 3}, true},
		{"dependent inconsistent", [][]int64{{2, 4}, {1, 2}}, []int64{6, 4}, false},
		{"gcd 3", [][]int64{{3, 6}, {0, 1}}, []int64{2, 0}, false},
	}
	for _, c := range cases {
		if got := latticeSolvable(clone2(c.a), append([]int64(nil), c.b...)); got != c.want {
			t.Errorf("%s: solvable %v, want %v", c.name, got, c.want)
		}
		if got := smithSolvable(c.a, c.b); got != c.want {
			t.Errorf("%s: the oracle says %v, want %v", c.name, got, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(7, 11))
	counts := [2]int{}
	for k := 0; k < 3000; k++ {
		m, n := 1+rng.IntN(3), 1+rng.IntN(4)
		a := make([][]int64, m)
		b := make([]int64, m)
		for i := range a {
			a[i] = make([]int64, n)
			for j := range a[i] {
				a[i][j] = int64(rng.IntN(13) - 6)
			}
			b[i] = int64(rng.IntN(21) - 10)
		}
		want := smithSolvable(a, b)
		if got := latticeSolvable(clone2(a), append([]int64(nil), b...)); got != want {
			t.Fatalf("a = %v, b = %v: solvable %v, want %v", a, b, got, want)
		}
		if want {
			counts[1]++
		} else {
			counts[0]++
		}
	}
	if counts[0] < 100 || counts[1] < 100 {
		t.Errorf("random systems: %d without and %d with a solution: too few of one kind", counts[0], counts[1])
	}
}

func clone2(a [][]int64) [][]int64 {
	out := make([][]int64, len(a))
	for i := range a {
		out[i] = append([]int64(nil), a[i]...)
	}
	return out
}

// smithSolvable is the determinantal criterion for a·x = b over the
// integers (small systems only: every minor is enumerated).
func smithSolvable(a [][]int64, b []int64) bool {
	ab := clone2(a)
	for i := range ab {
		ab[i] = append(ab[i], b[i])
	}
	ra, ga := rankAndMinorGCD(a)
	rb, gb := rankAndMinorGCD(ab)
	return ra == rb && ga == gb
}

// rankAndMinorGCD returns the rank r of a and the gcd of its r×r minors
// (1 for r = 0).
func rankAndMinorGCD(a [][]int64) (int, int64) {
	m, n := len(a), len(a[0])
	for r := min(m, n); r > 0; r-- {
		var g int64
		for _, rows := range subsets(m, r) {
			for _, cols := range subsets(n, r) {
				d := det(a, rows, cols)
				if d < 0 {
					d = -d
				}
				for d != 0 {
					g, d = d, g%d
				}
			}
		}
		if g != 0 {
			return r, g
		}
	}
	return 0, 1
}

// subsets lists the k-element subsets of {0, …, n−1}.
func subsets(n, k int) [][]int {
	if k == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for _, s := range subsets(n, k-1) {
		last := -1
		if len(s) > 0 {
			last = s[len(s)-1]
		}
		for j := last + 1; j < n; j++ {
			out = append(out, append(append([]int(nil), s...), j))
		}
	}
	return out
}

// det is the determinant of a's submatrix on rows and cols, by cofactor
// expansion along the first row.
func det(a [][]int64, rows, cols []int) int64 {
	if len(rows) == 1 {
		return a[rows[0]][cols[0]]
	}
	var d int64
	sign := int64(1)
	for k, c := range cols {
		rest := append(append([]int(nil), cols[:k]...), cols[k+1:]...)
		d += sign * a[rows[0]][c] * det(a, rows[1:], rest)
		sign = -sign
	}
	return d
}
