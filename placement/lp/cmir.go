package lp

import (
	"math"
)

// This file holds the complemented mixed-integer rounding (c-MIR) cuts of
// the root: rows of the original problem, alone or aggregated with up to
// cmirMaxAgg other rows to eliminate continuous columns that sit strictly
// between their bounds, are brought to the form
//
//	Σ g_j·x'_j + Σ c_k·y'_k ≤ β,  x' ≥ 0 integer, y' ≥ 0 continuous,
//
// by substituting every column by its distance from a bound: a simple
// bound (x = l + x' or x = u − x') or, for a continuous column, a variable
// bound on a binary column found in a two-term row (x ≤ u·y gives
// x = u·y − x', x ≥ l·y gives x = l·y + x'), whichever is nearest to the
// LP value. Divided by δ (a coefficient of an integer column strictly
// between its bounds, then δ/2, δ/4, δ/8 of the best), the MIR inequality
//
//	Σ F(g_j/δ)·x'_j + Σ_{c_k<0} c_k/(δ(1 − f₀))·y'_k ≤ ⌊β/δ⌋,
//	F(a) = ⌊a⌋ + max(0, f_a − f₀)/(1 − f₀),
//
// holds for every such point (f₀, f_a the fractional parts of β/δ and a);
// substituted back it is a cut over the original columns. On flow
// structures (x ≤ u·y with a flow balance) these are the flow cover and
// flow path inequalities' MIR counterparts.

// Parameters of the c-MIR separator.
const (
	cmirMaxAgg    = 4   // rows aggregated to a start row at most
	cmirMaxDeltas = 8   // candidate divisors from the row, at most
	cmirMaxRowLen = 500 // longer aggregated rows are given up
)

// varBound is a variable bound x ≤ c·y (upper) or x ≥ c·y (lower) of a
// continuous column on the binary column y; y is −1 for none.
type varBound struct {
	y int
	c float64
}

// variableBounds finds, once, the variable bounds of the continuous
// columns in the two-term rows a·x + b·y ≤ 0 (or ≥ 0) of the original
// problem with y binary; the first one found per column and side is kept.
func (sr *mipSearch) variableBounds() (vub, vlb []varBound) {
	if sr.vub != nil {
		return sr.vub, sr.vlb
	}
	cols, vals := sr.rowWise()
	p := sr.p
	n := p.NumCols()
	sr.vub, sr.vlb = make([]varBound, n), make([]varBound, n)
	for j := range sr.vub {
		sr.vub[j].y, sr.vlb[j].y = -1, -1
	}
	binary := func(j int) bool { return sr.isInt[j] && sr.rootLo[j] == 0 && sr.rootUp[j] == 1 }
	for i := range cols {
		if len(cols[i]) != 2 {
			continue
		}
		for t := 0; t < 2; t++ {
			x, y := cols[i][t], cols[i][1-t]
			a, b := vals[i][t], vals[i][1-t]
			if sr.isInt[x] || !binary(y) {
				continue
			}
			// a·x + b·y ≤ 0 gives x ≤ (−b/a)·y for a > 0, x ≥ (−b/a)·y for
			// a < 0; a row ≥ 0 the reverse.
			c := -b / a
			for side := 0; side < 2; side++ {
				if side == 0 && p.RowUpper[i] != 0 || side == 1 && p.RowLower[i] != 0 {
					continue
				}
				upper := a > 0
				if side == 1 {
					upper = !upper
				}
				if upper && sr.vub[x].y < 0 {
					sr.vub[x] = varBound{y, c}
				} else if !upper && sr.vlb[x].y < 0 {
					sr.vlb[x] = varBound{y, c}
				}
			}
		}
	}
	return sr.vub, sr.vlb
}

// Kinds of bound substitution of a column in a c-MIR row.
const (
	subLower = iota // x = l + x'
	subUpper        // x = u − x'
	subVLB          // x = c·y + x'
	subVUB          // x = c·y − x'
)

// cmirRow is an aggregated row Σ a_j·x_j ≤ b over dense scratch space.
type cmirRow struct {
	a       []float64 // len n, zero outside touched
	touched []int
	mark    []bool
	b       float64
}

func (r *cmirRow) add(j int, v float64) {
	if !r.mark[j] {
		r.mark[j] = true
		r.touched = append(r.touched, j)
	}
	r.a[j] += v
}

func (r *cmirRow) reset() {
	for _, j := range r.touched {
		r.a[j] = 0
		r.mark[j] = false
	}
	r.touched = r.touched[:0]
	r.b = 0
}

// cmirCuts separates c-MIR cuts at the LP point x from every row side of
// the original problem, aggregated along continuous columns; at most one
// cut (the most efficacious) per start row side.
func (sr *mipSearch) cmirCuts(x []float64) []cut {
	cols, vals := sr.rowWise()
	p := sr.p
	n := p.NumCols()
	vub, vlb := sr.variableBounds()
	row := &cmirRow{a: make([]float64, n), mark: make([]bool, n)}
	s := &cmirScratch{g: make([]float64, n), gMark: make([]bool, n), coef: make([]float64, n), cMark: make([]bool, n)}
	used := make([]bool, p.NumRows())
	var usedList []int
	var out []cut
	for i := range cols {
		if len(cols[i]) < 2 || sr.binaryRow(cols[i]) {
			continue
		}
		for side := 0; side < 2; side++ {
			sign, b := 1.0, p.RowUpper[i]
			if side == 1 {
				sign, b = -1, -p.RowLower[i]
			}
			if math.IsInf(b, 1) {
				continue
			}
			row.reset()
			for k, j := range cols[i] {
				row.add(j, sign*vals[i][k])
			}
			row.b = b
			for _, r := range usedList {
				used[r] = false
			}
			usedList = append(usedList[:0], i)
			used[i] = true
			for agg := 0; ; agg++ {
				if ct, ok := sr.cmirFromRow(row, x, vub, vlb, s); ok {
					out = append(out, ct)
					break
				}
				if agg == cmirMaxAgg || len(row.touched) > cmirMaxRowLen || !sr.aggregate(row, x, vub, vlb, used, &usedList) {
					break
				}
			}
		}
	}
	return out
}

// aggregate adds to row a multiple of another, unused row that eliminates
// the continuous column of row farthest from its nearest bound (simple or
// variable) at x; it reports false when there is none.
func (sr *mipSearch) aggregate(row *cmirRow, x []float64, vub, vlb []varBound, used []bool, usedList *[]int) bool {
	p := sr.p
	best, bestD := -1, 1e-6
	for _, j := range row.touched {
		if sr.isInt[j] || math.Abs(row.a[j]) < 1e-9 {
			continue
		}
		d := math.Min(x[j]-sr.rootLo[j], sr.rootUp[j]-x[j])
		if v := vub[j]; v.y >= 0 {
			d = math.Min(d, v.c*x[v.y]-x[j])
		}
		if v := vlb[j]; v.y >= 0 {
			d = math.Min(d, x[j]-v.c*x[v.y])
		}
		if d > bestD {
			best, bestD = j, d
		}
	}
	if best < 0 {
		return false
	}
	aj := row.a[best]
	cols, vals := sr.rowWise()
	for k := p.A.Start[best]; k < p.A.Start[best+1]; k++ {
		r := int(p.A.Index[k])
		akj := p.A.Value[k]
		if used[r] || akj == 0 || len(cols[r]) > cmirMaxRowLen {
			continue
		}
		lam := -aj / akj
		var rhs float64
		if lam > 0 {
			rhs = p.RowUpper[r]
		} else {
			rhs = p.RowLower[r]
		}
		if math.IsInf(rhs, 0) {
			continue
		}
		for t, j := range cols[r] {
			row.add(j, lam*vals[r][t])
		}
		row.a[best] = 0
		row.b += lam * rhs
		used[r] = true
		*usedList = append(*usedList, r)
		return true
	}
	return false
}

// cmirScratch is the dense scratch space of cmirFromRow, zero on entry and
// exit.
type cmirScratch struct {
	g      []float64 // coefficients of the integer columns after substitution
	gMark  []bool
	gList  []int
	coef   []float64 // the cut over the original columns
	cMark  []bool
	cList  []int
	conts  []cmirCont
	deltas []float64
}

// cmirCont is a continuous column of a c-MIR row after substitution: its
// substituted variable has coefficient c (only c < 0 enters the cut).
type cmirCont struct {
	j    int
	kind int
	c    float64
}

// cmirFromRow tries the c-MIR cut of row at x and returns the most
// efficacious violated one over the divisors tried.
func (sr *mipSearch) cmirFromRow(row *cmirRow, x []float64, vub, vlb []varBound, s *cmirScratch) (cut, bool) {
	defer func() {
		for _, j := range s.gList {
			s.g[j], s.gMark[j] = 0, false
		}
		s.gList = s.gList[:0]
	}()
	addG := func(j int, v float64) {
		if !s.gMark[j] {
			s.gMark[j] = true
			s.gList = append(s.gList, j)
		}
		s.g[j] += v
	}
	beta := row.b
	s.conts = s.conts[:0]
	nInt := 0
	for _, j := range row.touched {
		a := row.a[j]
		if a == 0 {
			continue
		}
		lo, up := sr.rootLo[j], sr.rootUp[j]
		if lo == up {
			beta -= a * lo
			continue
		}
		if sr.isInt[j] {
			addG(j, a)
			nInt++
			continue
		}
		// The bound nearest to x_j; variable bounds on ties.
		kind, d := -1, math.Inf(1)
		if v := vub[j]; v.y >= 0 {
			kind, d = subVUB, v.c*x[v.y]-x[j]
		}
		if v := vlb[j]; v.y >= 0 {
			if dd := x[j] - v.c*x[v.y]; dd < d {
				kind, d = subVLB, dd
			}
		}
		if !math.IsInf(lo, -1) && x[j]-lo < d {
			kind, d = subLower, x[j]-lo
		}
		if !math.IsInf(up, 1) && up-x[j] < d {
			kind = subUpper
		}
		switch kind {
		case subLower:
			beta -= a * lo
			s.conts = append(s.conts, cmirCont{j, kind, a})
		case subUpper:
			beta -= a * up
			s.conts = append(s.conts, cmirCont{j, kind, -a})
		case subVLB:
			v := vlb[j]
			addG(v.y, a*v.c)
			s.conts = append(s.conts, cmirCont{j, kind, a})
		case subVUB:
			v := vub[j]
			addG(v.y, a*v.c)
			s.conts = append(s.conts, cmirCont{j, kind, -a})
		default:
			return cut{}, false // a free continuous column
		}
	}
	if len(s.gList) == 0 || math.IsInf(beta, 0) || math.IsNaN(beta) {
		return cut{}, false
	}
	// Integer columns: complemented at the nearer bound; the divisors are
	// the coefficients of those strictly between their bounds.
	s.deltas = s.deltas[:0]
	for _, j := range s.gList {
		lo, up := sr.rootLo[j], sr.rootUp[j]
		if math.IsInf(lo, -1) && math.IsInf(up, 1) {
			return cut{}, false
		}
		if g := math.Abs(s.g[j]); g > 1e-6 && x[j] > lo+1e-6 && x[j] < up-1e-6 && len(s.deltas) < cmirMaxDeltas {
			dup := false
			for _, d := range s.deltas {
				dup = dup || d == g
			}
			if !dup {
				s.deltas = append(s.deltas, g)
			}
		}
	}
	if len(s.deltas) == 0 {
		return cut{}, false
	}
	// β after complementing the integer columns.
	upperInt := func(j int) bool {
		lo, up := sr.rootLo[j], sr.rootUp[j]
		if math.IsInf(lo, -1) {
			return true
		}
		return !math.IsInf(up, 1) && up-x[j] < x[j]-lo
	}
	betaC := beta
	for _, j := range s.gList {
		if upperInt(j) {
			betaC -= s.g[j] * sr.rootUp[j]
		} else {
			betaC -= s.g[j] * sr.rootLo[j]
		}
	}
	var best cut
	bestEff, bestDelta := cutMinEfficacy, 0.0
	try := func(delta float64) {
		if ct, eff, ok := sr.cmirCut(delta, betaC, x, vub, vlb, upperInt, s); ok && eff > bestEff {
			best, bestEff, bestDelta = ct, eff, delta
		}
	}
	for _, d := range s.deltas {
		try(d)
	}
	if bestDelta > 0 {
		d := bestDelta
		for k := 0; k < 3; k++ {
			d /= 2
			try(d)
		}
	}
	if best.idx == nil {
		return cut{}, false
	}
	return best, true
}

// cmirCut builds the MIR cut of the substituted row (integer coefficients
// s.g, complemented by upperInt; continuous terms s.conts; right-hand side
// betaC) for divisor delta, back in the original columns as π·x ≥ rhs,
// and returns it with its efficacy at x.
func (sr *mipSearch) cmirCut(delta, betaC float64, x []float64, vub, vlb []varBound, upperInt func(int) bool, s *cmirScratch) (cut, float64, bool) {
	bd := betaC / delta
	f0 := bd - math.Floor(bd)
	if f0 < cutMinFrac || f0 > 1-cutMinFrac || math.Abs(bd) > 1e9 {
		return cut{}, 0, false
	}
	defer func() {
		for _, j := range s.cList {
			s.coef[j], s.cMark[j] = 0, false
		}
		s.cList = s.cList[:0]
	}()
	add := func(j int, v float64) {
		if !s.cMark[j] {
			s.cMark[j] = true
			s.cList = append(s.cList, j)
		}
		s.coef[j] += v
	}
	// The cut Σ coef·x ≤ rhs.
	rhs := math.Floor(bd)
	for _, j := range s.gList {
		g := s.g[j]
		up := upperInt(j)
		if up {
			g = -g
		}
		a := g / delta
		fa := a - math.Floor(a)
		F := math.Floor(a) + max(0, fa-f0)/(1-f0)
		if F == 0 {
			continue
		}
		if up { // x' = u − x
			add(j, -F)
			rhs -= F * sr.rootUp[j]
		} else { // x' = x − l
			add(j, F)
			rhs += F * sr.rootLo[j]
		}
	}
	for _, c := range s.conts {
		if c.c >= 0 {
			continue
		}
		t := c.c / (delta * (1 - f0))
		switch c.kind {
		case subLower:
			add(c.j, t)
			rhs += t * sr.rootLo[c.j]
		case subUpper:
			add(c.j, -t)
			rhs -= t * sr.rootUp[c.j]
		case subVLB:
			v := vlb[c.j]
			add(c.j, t)
			add(v.y, -t*v.c)
		case subVUB:
			v := vub[c.j]
			add(v.y, t*v.c)
			add(c.j, -t)
		}
	}
	if math.IsInf(rhs, 0) || math.IsNaN(rhs) {
		return cut{}, 0, false
	}
	// Coefficients negligible next to the largest are relaxed away with
	// the column's bounds.
	big := 0.0
	for _, j := range s.cList {
		big = max(big, math.Abs(s.coef[j]))
	}
	for _, j := range s.cList {
		if v := s.coef[j]; v != 0 && math.Abs(v) <= 1e-9*big {
			m := v * sr.rootLo[j] // the smallest of v·x over the bounds
			if v < 0 {
				m = v * sr.rootUp[j]
			}
			rhs -= m
			s.coef[j] = 0
		}
	}
	lhs, norm, small := 0.0, 0.0, math.Inf(1)
	var ct cut
	for _, j := range s.cList {
		v := s.coef[j]
		if v == 0 {
			continue
		}
		lhs += v * x[j]
		norm += v * v
		small = min(small, math.Abs(v))
	}
	if norm == 0 || big/small > cutMaxDynamic {
		return cut{}, 0, false
	}
	eff := (lhs - rhs) / math.Sqrt(norm)
	if eff <= cutMinEfficacy {
		return cut{}, 0, false
	}
	// As π·x ≥ rhs, sorted by column, with a safety margin.
	for _, j := range s.cList {
		if v := s.coef[j]; v != 0 {
			ct.idx = append(ct.idx, j)
			ct.val = append(ct.val, -v)
		}
	}
	for i := 1; i < len(ct.idx); i++ {
		for k := i; k > 0 && ct.idx[k] < ct.idx[k-1]; k-- {
			ct.idx[k], ct.idx[k-1] = ct.idx[k-1], ct.idx[k]
			ct.val[k], ct.val[k-1] = ct.val[k-1], ct.val[k]
		}
	}
	ct.rhs = -rhs - 1e-9*max(1, math.Abs(rhs))
	return ct, eff, true
}
