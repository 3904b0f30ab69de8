package lp

import "math"

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
			i := p.A.Index[k]
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
	amin := math.Inf(1)
	for _, v := range a {
		amin = min(amin, math.Abs(v))
	}
	scales := []float64{1, 1 / amin, 10, 100, 1e3, 1e4, 1e5, 1e6}
	for _, s := range scales {
		g, ok := integerGCD(a, s)
		if !ok {
			continue
		}
		// The row's activity times s is a multiple of g.
		lo := s * (l - feasTol*(1+math.Abs(l)))
		hi := s * (u + feasTol*(1+math.Abs(u)))
		if math.Abs(lo)/g > 1<<52 || math.Abs(hi)/g > 1<<52 {
			return false
		}
		return math.Ceil(lo/g) > math.Floor(hi/g)
	}
	return false
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
