package lp

import (
	"math"
	"math/bits"
)

// latticeInfeasibleRow returns the index of a row of p that no integer
// point satisfies for a number-theoretic reason, or −1: a row whose
// columns are all integer, whose coefficients are integers after scaling
// by a common factor s (1, 1/min|a_ij| or a power of ten up to 10⁶), and
// whose scaled range [s·l, s·u], widened by the feasibility tolerance,
// holds no multiple of the scaled coefficients' gcd. Every integer point
// gives such a row an activity that is such a multiple, so the MIP is
// infeasible — whatever the column bounds, which is what settles free
// integer columns that branch-and-bound could branch on for ever. Rows
// with an infinite bound, continuous columns or coefficients too large to
// be exact integers are left alone.
func latticeInfeasibleRow(p *Problem) int {
	m, n := p.NumRows(), p.NumCols()
	cols := make([][]int, m)
	vals := make([][]float64, m)
	mixed := make([]bool, m)
	for j := 0; j < n; j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			a := p.A.Value[k]
			if a == 0 {
				continue
			}
			i := int(p.A.Index[k])
			if !p.Integer[j] {
				mixed[i] = true
				continue
			}
			cols[i] = append(cols[i], j)
			vals[i] = append(vals[i], a)
		}
	}
	for i := 0; i < m; i++ {
		l, u := p.RowLower[i], p.RowUpper[i]
		if mixed[i] || len(vals[i]) == 0 || math.IsInf(l, 0) || math.IsInf(u, 0) {
			continue
		}
		if rowExcludesLattice(vals[i], l, u) {
			return i
		}
	}
	return -1
}

// rowExcludesLattice reports whether no integer combination of the
// coefficients a lies in [l, u] (both finite) within the tolerance, for
// the first scale that makes every coefficient an integer.
func rowExcludesLattice(a []float64, l, u float64) bool {
	s, g, ok := integerScale(a)
	if !ok {
		return false
	}
	// The row's activity times s is a multiple of g.
	lo := s * (l - feasTol*(1+math.Abs(l)))
	hi := s * (u + feasTol*(1+math.Abs(u)))
	if math.Abs(lo)/g > 1<<52 || math.Abs(hi)/g > 1<<52 {
		return false
	}
	return math.Ceil(lo/g) > math.Floor(hi/g)
}

// integerScale returns the first scale s of 1, 1/min|a_k| and the powers of
// ten up to 10⁶ that makes every s·a_k an integer, with their gcd g.
func integerScale(a []float64) (s, g float64, ok bool) {
	amin := math.Inf(1)
	for _, v := range a {
		amin = min(amin, math.Abs(v))
	}
	for _, s := range [...]float64{1, 1 / amin, 10, 100, 1e3, 1e4, 1e5, 1e6} {
		if g, ok := integerGCD(a, s); ok {
			return s, g, true
		}
	}
	return 0, 0, false
}

// integerGCD returns the gcd of s·a_k when every one is an integer (to
// 1e-12 relative, and at most 2⁵³ in magnitude).
func integerGCD(a []float64, s float64) (float64, bool) {
	var g int64
	for _, v := range a {
		w := s * v
		r := math.Round(w)
		if r == 0 || math.Abs(w-r) > 1e-12*math.Abs(w) || math.Abs(r) > 1<<53 {
			return 0, false
		}
		x := int64(math.Abs(r))
		for x != 0 {
			g, x = x, g%x
		}
	}
	return float64(g), true
}

// Limits of equalitiesExcludeLattice: the dense system it reduces, and the
// entry updates it may spend (a few milliseconds).
const (
	latticeMaxEntries = 1 << 20
	latticeMaxOps     = 1 << 21
)

// equalitiesExcludeLattice reports whether the equality rows of p whose
// columns are all integer have no common integer solution, whatever the
// column bounds: the test of latticeInfeasibleRow for a system of rows,
// which settles x + y − 2z = 0, x − y − 2w = 1 (x + y and x − y have the
// same parity) where each row alone has integer solutions. A row takes
// part when its coefficients are integers after the scale of integerScale
// and its scaled right-hand side is an integer r, the only one within the
// row's feasibility tolerance. The system A·x = r is reduced row by row
// by unimodular column operations (x = U·x′, Euclid's algorithm on the
// row's coefficients of the columns not yet pivoted) until the row has one
// such coefficient g; its pivot variable is then (r_i − the terms of the
// variables fixed before) / g, which must be an integer, and a row left
// with no such coefficient must have nothing left of its right-hand side.
// Every operation keeps the integer solutions in one-to-one
// correspondence, so a failure proves that there is none. It gives up
// (false) on a system of fewer than two rows (latticeInfeasibleRow's
// case) or more than latticeMaxEntries entries, after latticeMaxOps
// entry visits and on any value beyond 2⁶¹.
func equalitiesExcludeLattice(p *Problem) bool {
	m, n := p.NumRows(), p.NumCols()
	cols := make([][]int, m)
	vals := make([][]float64, m)
	skip := make([]bool, m)
	for i := 0; i < m; i++ {
		l, u := p.RowLower[i], p.RowUpper[i]
		skip[i] = l != u || math.IsInf(l, 0)
	}
	for j := 0; j < n; j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			i, a := p.A.Index[k], p.A.Value[k]
			if a == 0 || skip[i] {
				continue
			}
			if !p.Integer[j] {
				skip[i] = true
				continue
			}
			cols[i] = append(cols[i], j)
			vals[i] = append(vals[i], a)
		}
	}
	// The rows that take part, scaled to integers.
	var rows []int
	var rhs []int64
	scale := make([]float64, m)
	for i := 0; i < m; i++ {
		if skip[i] || len(vals[i]) == 0 {
			continue
		}
		s, _, ok := integerScale(vals[i])
		if !ok {
			continue
		}
		b := p.RowLower[i]
		sb, tol := s*b, s*feasTol*(1+math.Abs(b))
		r := math.Round(sb)
		if math.Abs(sb-r) > 1e-9*max(1, math.Abs(sb)) || tol >= 0.5 || math.Abs(r) > 1<<53 {
			continue
		}
		rows = append(rows, i)
		rhs = append(rhs, int64(r))
		scale[i] = s
	}
	if len(rows) < 2 {
		return false
	}
	pos := make([]int, n) // dense column of each column of p, −1 when none
	for j := range pos {
		pos[j] = -1
	}
	nc := 0
	for _, i := range rows {
		for _, j := range cols[i] {
			if pos[j] < 0 {
				pos[j] = nc
				nc++
			}
		}
	}
	if len(rows)*nc > latticeMaxEntries {
		return false
	}
	a := make([][]int64, len(rows))
	for r, i := range rows {
		a[r] = make([]int64, nc)
		for k, j := range cols[i] {
			a[r][pos[j]] = int64(math.Round(scale[i] * vals[i][k]))
		}
	}
	return !latticeSolvable(a, rhs)
}

// latticeSolvable reports whether a·x = b has an integer solution x, by
// the reduction of equalitiesExcludeLattice; it answers true (not
// disproved) when a limit is reached. It modifies a and b.
func latticeSolvable(a [][]int64, b []int64) bool {
	const big = 1 << 61
	// sub returns x − t·y, and false when a magnitude exceeds big.
	sub := func(x, t, y int64) (int64, bool) {
		if t == 0 || y == 0 {
			return x, true
		}
		if hi, lo := bits.Mul64(uint64(abs64(t)), uint64(abs64(y))); hi != 0 || lo >= big {
			return 0, false
		}
		v := x - t*y // |x|, |t·y| < 2⁶¹: no overflow
		return v, -big < v && v < big
	}
	m := len(a)
	if m == 0 {
		return true
	}
	done := make([]bool, len(a[0])) // pivoted columns: their variables are fixed
	ops := 0
	for i := 0; i < m; i++ {
		for {
			// The smallest coefficient of the row among the columns not
			// pivoted, and whether it is the only one.
			p, others := -1, false
			ops += len(a[i])
			for c, v := range a[i] {
				if v == 0 || done[c] {
					continue
				}
				if p < 0 {
					p = c
					continue
				}
				others = true
				if abs64(v) < abs64(a[i][p]) {
					p = c
				}
			}
			if p < 0 {
				if b[i] != 0 {
					return false // 0 = b_i ≠ 0
				}
				break
			}
			if !others {
				g := a[i][p]
				if b[i]%g != 0 {
					return false
				}
				x := b[i] / g
				done[p] = true
				for r := i + 1; r < m; r++ {
					v, ok := sub(b[r], a[r][p], x)
					if !ok {
						return true
					}
					b[r] = v
				}
				ops += m - i
				break
			}
			// Column q −= t·column p on the rows not yet reduced (those
			// above are 0 on both), leaving a[i][q] = a[i][q] rem a[i][p].
			for q, v := range a[i] {
				if q == p || v == 0 || done[q] {
					continue
				}
				t := v / a[i][p]
				if t == 0 {
					continue
				}
				for r := i; r < m; r++ {
					w, ok := sub(a[r][q], t, a[r][p])
					if !ok {
						return true
					}
					a[r][q] = w
				}
				ops += m - i
			}
			if ops > latticeMaxOps {
				return true
			}
		}
	}
	return true
}

// abs64 is |v| (v > math.MinInt64).
func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
