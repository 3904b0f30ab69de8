package lp

import (
	"math"
)

// This file holds the root cutting planes: Gomory mixed-integer cuts read
// from the rows of the optimal simplex tableau, with the knapsack cover,
// single-row MIR and c-MIR (cmir.go) cuts of the original rows. A round
// reads cuts from the rows of basic integer columns with fractional
// values, keeps the violated
// and numerically safe ones, appends them to the working problem as rows
// and re-solves warm (the new rows' logicals basic). Rounds stop when the
// bound stalls. Cuts whose rows are slack are dropped again, at the end and
// whenever the room for cuts runs short.

// Parameters of the cut loop.
const (
	cutRounds      = 20    // rounds at most
	cutsPerRound   = 100   // cuts added per round at most
	cutMinFrac     = 0.005 // smallest fractionality of a source row's value
	cutMaxDynamic  = 1e6   // largest ratio of the magnitudes of a cut's coefficients
	cutMaxGamma    = 1e6   // largest tableau coefficient accepted in a source row
	cutStall       = 1e-7  // relative bound progress below which a round counts as stalled
	cutMaxRowsMul  = 2     // cuts in total at most cutMaxRowsMul·(rows + 10)
	cutMinEfficacy = 1e-5  // smallest violation / norm of an added cut
	// Two rounds in a row that raise the bound by less than cutGainPerLP
	// relative to the objective's magnitude per root LP's worth of simplex
	// iterations (the rounds' iterations over the root LP's, or over the
	// number of rows when that is more: a root warm-started from a given
	// basis) stop the loop.
	cutGainPerLP = 7e-5
)

// cut is a row π·x ≥ rhs over the structural columns (problem units).
type cut struct {
	idx []int
	val []float64
	rhs float64
}

// gomoryCut derives the Gomory mixed-integer cut from the tableau row of
// the basic structural at basis position r of the model's optimal basis,
// in the variables of the working problem w. It returns false when the row
// is unsuitable (value near integral, free non-basic variables, bad
// numerics). dense and mark (len n) are scratch space, zero on entry and
// exit.
func (sr *mipSearch) gomoryCut(r int, dense []float64, mark []bool, touched *[]int) (cut, bool) {
	mdl, s, w := sr.mdl, sr.mdl.s, sr.w
	j := s.head[r]
	beta := s.x[j] * mdl.colScale[j]
	f0 := beta - math.Floor(beta)
	if f0 < cutMinFrac || f0 > 1-cutMinFrac {
		return cut{}, false
	}
	s.btranUnit(r)
	s.price()
	// The row reads x_j + Σ g_k·y_k = 0 over the non-basic y (columns and
	// row activities, problem units). With y_k = bound ± t_k it becomes
	// x_j + Σ a_k·t_k = β, t ≥ 0; the cut is Σ c_k·t_k ≥ 1.
	cj := mdl.colScale[j]
	rhs := 1.0
	add := func(col int, v float64) {
		if !mark[col] {
			mark[col] = true
			*touched = append(*touched, col)
		}
		dense[col] += v
	}
	ok := true
	for _, v := range s.alphaIdx {
		al := s.alpha[v]
		if al == 0 || s.state[v] == basic {
			continue
		}
		var g, lo, up float64
		var integer bool
		if v < s.n {
			g = al * cj / mdl.colScale[v]
			lo, up = mdl.colBounds(v)
			integer = sr.isInt[v]
		} else {
			i := v - s.n
			g = -al * cj * mdl.rowScale[i]
			lo, up = w.RowLower[i], w.RowUpper[i]
		}
		if lo == up || math.Abs(g) < 1e-12 {
			continue
		}
		if math.Abs(g) > cutMaxGamma {
			ok = false
			break
		}
		// Which bound the variable sits at, in problem terms.
		atLo := s.state[v] == atLower
		if v >= s.n {
			atLo = s.state[v] == atUpper // the logical is −activity
		}
		if s.state[v] == atZero {
			ok = false
			break
		}
		a := g
		if !atLo {
			a = -g
		}
		var c float64
		if integer {
			fk := a - math.Floor(a)
			if fk <= f0 {
				c = fk / f0
			} else {
				c = (1 - fk) / (1 - f0)
			}
		} else if a > 0 {
			c = a / f0
		} else {
			c = -a / (1 - f0)
		}
		if c == 0 {
			continue
		}
		// c·t with t = y − lo (at lower) or up − y (at upper).
		coef, bnd := c, lo
		if !atLo {
			coef, bnd = -c, up
		}
		rhs += coef * bnd
		if v < s.n {
			add(v, coef)
		} else {
			i := v - s.n
			for k := s.arStart[i]; k < s.arStart[i+1]; k++ {
				col := s.arIndex[k]
				// The scaled row entry back in problem units.
				add(col, coef*s.arValue[k]/(mdl.rowScale[i]*mdl.colScale[col]))
			}
		}
	}
	var ct cut
	if ok {
		ct, ok = sr.cleanCut(dense, *touched, rhs)
	}
	for _, col := range *touched {
		dense[col] = 0
		mark[col] = false
	}
	*touched = (*touched)[:0]
	return ct, ok
}

// cleanCut turns the dense cut π·x ≥ rhs into a sparse one: coefficients
// negligible next to the largest are relaxed away with the column bounds,
// the rhs is relaxed slightly for safety, and cuts with too large a range
// of magnitudes are refused.
func (sr *mipSearch) cleanCut(dense []float64, touched []int, rhs float64) (cut, bool) {
	big := 0.0
	for _, col := range touched {
		big = max(big, math.Abs(dense[col]))
	}
	if big == 0 || math.IsNaN(big) || math.IsInf(big, 0) {
		return cut{}, false
	}
	var ct cut
	small := math.Inf(1)
	for _, col := range touched {
		v := dense[col]
		if v == 0 {
			continue
		}
		if math.Abs(v) <= 1e-9*big {
			// Relax: v·x ≤ max over the bounds, moved to the rhs.
			lo, up := sr.mdl.colBounds(col)
			var m float64
			if v > 0 {
				m = v * up
			} else {
				m = v * lo
			}
			if math.IsInf(m, 0) {
				return cut{}, false
			}
			rhs -= m
			continue
		}
		small = min(small, math.Abs(v))
		ct.idx = append(ct.idx, col)
		ct.val = append(ct.val, v)
	}
	if len(ct.idx) == 0 || big/small > cutMaxDynamic {
		return cut{}, false
	}
	// Sort by column (insertion sort; cuts are short or few).
	for i := 1; i < len(ct.idx); i++ {
		for k := i; k > 0 && ct.idx[k] < ct.idx[k-1]; k-- {
			ct.idx[k], ct.idx[k-1] = ct.idx[k-1], ct.idx[k]
			ct.val[k], ct.val[k-1] = ct.val[k-1], ct.val[k]
		}
	}
	ct.rhs = rhs - 1e-9*max(1, math.Abs(rhs))
	return ct, true
}

// cutViolation is the efficacy of ct at x: (rhs − π·x)/‖π‖.
func cutViolation(ct cut, x []float64) float64 {
	lhs, norm := 0.0, 0.0
	for k, col := range ct.idx {
		lhs += ct.val[k] * x[col]
		norm += ct.val[k] * ct.val[k]
	}
	return (ct.rhs - lhs) / math.Sqrt(norm)
}

// rootCuts runs rounds of Gomory cuts at the root, whose LP is solved to
// optimality in the model with value z; it replaces the working problem
// and the model by ones with the cuts appended and returns the new root
// value. On a limit it stops early (the caller sees the limit at the next
// solve).
func (sr *mipSearch) rootCuts(z float64) (float64, error) {
	n := sr.w.NumCols()
	m0 := sr.p.NumRows()
	dense := make([]float64, n)
	mark := make([]bool, n)
	var touched []int
	first := z
	// The bound and the model's iteration count before the loop and after
	// each round, for the cost test.
	type boundAt struct {
		z     float64
		iters int
	}
	hist := []boundAt{{z, sr.mdl.s.iters}}
	for round := 0; round < cutRounds; round++ {
		s := sr.mdl.s
		x := make([]float64, n)
		sr.mdl.primal(x)
		type scored struct {
			c   cut
			eff float64
		}
		var found []scored
		cands := sr.coverCuts(x)
		if !sr.opt.noMIR {
			cands = append(cands, sr.mirCuts(x)...)
			cands = append(cands, sr.cmirCuts(x)...)
		}
		for _, ct := range cands {
			if eff := cutViolation(ct, x); eff > cutMinEfficacy {
				found = append(found, scored{ct, eff})
			}
		}
		for r, j := range s.head {
			if j >= s.n || !sr.isInt[j] {
				continue
			}
			ct, ok := sr.gomoryCut(r, dense, mark, &touched)
			if !ok {
				continue
			}
			if eff := cutViolation(ct, x); eff > cutMinEfficacy {
				found = append(found, scored{ct, eff})
			}
		}
		if len(found) == 0 {
			break
		}
		// Most efficacious first (stable insertion sort).
		for i := 1; i < len(found); i++ {
			for k := i; k > 0 && found[k].eff > found[k-1].eff; k-- {
				found[k], found[k-1] = found[k-1], found[k]
			}
		}
		room := cutMaxRowsMul*(m0+10) - (sr.w.NumRows() - m0)
		keep := min(len(found), cutsPerRound, room)
		if keep <= 0 {
			break
		}
		cuts := make([]cut, keep)
		for k := range cuts {
			cuts[k] = found[k].c
		}
		if err := sr.appendCuts(cuts); err != nil {
			return z, err
		}
		st, err := sr.solveLP(0, false)
		if err != nil {
			return z, err
		}
		if st != Optimal {
			// Cuts are valid: an infeasible LP means an infeasible MILP;
			// anything else is handled by the caller's re-solve.
			return z, nil
		}
		nz := sr.lpObjective()
		progress := nz - z
		z = nz
		// Stalled: no progress relative to the objective's magnitude; or
		// after three rounds, less than 1% of what the cuts closed so far,
		// or 0.2% once that is at least 1% of the objective's magnitude
		// (1% stopped vpm2, gesa2 and modglob while each round still
		// closed a useful part of the gap; on flugpl, whose cuts move the
		// bound by 0.4%, more rounds only made the tree larger).
		stall := 0.01
		if z-first >= 0.01*max(1, math.Abs(z)) {
			stall = 0.002
		}
		if progress <= cutStall*max(1, math.Abs(z)) || (round >= 3 && progress < stall*(z-first)) {
			break
		}
		// Not worth its cost: the last two rounds raised the bound by less
		// than cutGainPerLP·|z| per root LP's worth of iterations. On a
		// large model the rounds' warm dual solves cost more per iteration
		// than the root's solve, so this is conservative. PortfolioS
		// (67 670 columns, a root LP of 26 650 iterations, 2.4 s) spent
		// 20 s on 10 rounds that raised its bound by 3.7e-5 relative, of a
		// gap of 0.5 %; it stops after 5, at 5.3e-5 per root LP. On the
		// MIPLIB instances two rounds gain at least 2.4e-4 per root LP
		// (flugpl), but for mod008's 19th round, 7.9e-5 (its root LP takes
		// 11 iterations): none stops earlier than without the test.
		hist = append(hist, boundAt{z, sr.mdl.s.iters})
		if k := len(hist) - 1; k >= 2 {
			gain := z - hist[k-2].z
			cost := float64(hist[k].iters-hist[k-2].iters) / float64(max(sr.rootIters, sr.p.NumRows(), 1))
			if gain < cutGainPerLP*max(1, math.Abs(z))*cost {
				break
			}
		}
		if room-keep < cutsPerRound {
			// Make room: drop the cuts that are slack now, and re-solve
			// (the basis stays optimal).
			sr.dropSlackCuts()
			if st, err := sr.solveLP(0, false); err != nil || st != Optimal {
				return z, err
			}
		}
	}
	sr.dropSlackCuts()
	return z, nil
}

// appendCuts replaces the working problem by one with the cuts appended as
// rows π·x ≥ rhs and rebuilds the model, warm from the current basis with
// the cuts' logicals basic.
func (sr *mipSearch) appendCuts(cuts []cut) error {
	w := sr.w
	n, m := w.NumCols(), w.NumRows()
	b := sr.mdl.basis()
	sr.cutLog = append(sr.cutLog, cuts...)
	nw := *w
	nw.RowLower = append(append([]float64(nil), w.RowLower...), make([]float64, len(cuts))...)
	nw.RowUpper = append(append([]float64(nil), w.RowUpper...), make([]float64, len(cuts))...)
	if w.RowNames != nil {
		nw.RowNames = append(append([]string(nil), w.RowNames...), make([]string, len(cuts))...)
	}
	for k, ct := range cuts {
		nw.RowLower[m+k] = ct.rhs
		nw.RowUpper[m+k] = math.Inf(1)
	}
	// Column counts, then fill.
	cnt := make([]int, n+1)
	for j := 0; j < n; j++ {
		cnt[j+1] = w.A.Start[j+1] - w.A.Start[j]
	}
	for _, ct := range cuts {
		for _, col := range ct.idx {
			cnt[col+1]++
		}
	}
	for j := 0; j < n; j++ {
		cnt[j+1] += cnt[j]
	}
	a := Matrix{Rows: m + len(cuts), Cols: n, Start: append([]int(nil), cnt...),
		Index: make([]int32, cnt[n]), Value: make([]float64, cnt[n])}
	fill := append([]int(nil), cnt[:n]...)
	for j := 0; j < n; j++ {
		for k := w.A.Start[j]; k < w.A.Start[j+1]; k++ {
			a.Index[fill[j]] = w.A.Index[k]
			a.Value[fill[j]] = w.A.Value[k]
			fill[j]++
		}
	}
	for k, ct := range cuts {
		for t, col := range ct.idx {
			a.Index[fill[col]] = int32(m + k)
			a.Value[fill[col]] = ct.val[t]
			fill[col]++
		}
	}
	nw.A = a
	return sr.rebuildModel(&nw, b, len(cuts))
}

// rebuildModel replaces the working problem by nw (same columns, rows
// appended or removed per the basis rows given), installing basis b with
// extra logicals basic for the added rows.
func (sr *mipSearch) rebuildModel(nw *Problem, b *Basis, added int) error {
	iters := sr.mdl.s.iters
	mdl, err := newLPModelScaled(nw, sr.scaleExp)
	if err != nil {
		return err
	}
	mdl.s.iters = iters
	rows := b.Rows
	for k := 0; k < added; k++ {
		rows = append(rows, Basic)
	}
	if err := mdl.setBasis(&Basis{Cols: b.Cols, Rows: rows}); err != nil {
		return err
	}
	sr.w, sr.mdl = nw, mdl
	return nil
}

// dropSlackCuts removes the cut rows whose logical is basic (the cut is
// not binding at the current optimum), keeping the basis valid.
func (sr *mipSearch) dropSlackCuts() {
	w := sr.w
	m0 := sr.p.NumRows()
	m := w.NumRows()
	if m == m0 {
		return
	}
	b := sr.mdl.basis()
	keep := make([]bool, m)
	newIdx := make([]int, m)
	nm := 0
	for i := 0; i < m; i++ {
		keep[i] = i < m0 || b.Rows[i] != Basic
		newIdx[i] = -1
		if keep[i] {
			newIdx[i] = nm
			nm++
		}
	}
	if nm == m {
		return
	}
	nw := *w
	nw.RowLower, nw.RowUpper = nil, nil
	var rows []BasisStatus
	for i := 0; i < m; i++ {
		if keep[i] {
			nw.RowLower = append(nw.RowLower, w.RowLower[i])
			nw.RowUpper = append(nw.RowUpper, w.RowUpper[i])
			rows = append(rows, b.Rows[i])
		}
	}
	if w.RowNames != nil {
		nw.RowNames = nil
		for i := 0; i < m; i++ {
			if keep[i] {
				nw.RowNames = append(nw.RowNames, w.RowNames[i])
			}
		}
	}
	n := w.NumCols()
	a := Matrix{Rows: nm, Cols: n, Start: make([]int, n+1)}
	for j := 0; j < n; j++ {
		for k := w.A.Start[j]; k < w.A.Start[j+1]; k++ {
			if i := newIdx[w.A.Index[k]]; i >= 0 {
				a.Index = append(a.Index, int32(i))
				a.Value = append(a.Value, w.A.Value[k])
			}
		}
		a.Start[j+1] = len(a.Index)
	}
	nw.A = a
	// Removing a row whose logical is basic leaves a square basis.
	_ = sr.rebuildModel(&nw, &Basis{Cols: b.Cols, Rows: rows}, 0)
}

// rowWise returns the original rows of the problem as lists of columns and
// coefficients (built once).
func (sr *mipSearch) rowWise() ([][]int, [][]float64) {
	if sr.rowCols != nil {
		return sr.rowCols, sr.rowVals
	}
	p := sr.p
	m := p.NumRows()
	sr.rowCols = make([][]int, m)
	sr.rowVals = make([][]float64, m)
	for j := 0; j < p.NumCols(); j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			if v := p.A.Value[k]; v != 0 {
				i := int(p.A.Index[k])
				sr.rowCols[i] = append(sr.rowCols[i], j)
				sr.rowVals[i] = append(sr.rowVals[i], v)
			}
		}
	}
	return sr.rowCols, sr.rowVals
}

// coverCuts separates extended cover inequalities from the knapsack rows
// of the original problem at the LP point x. A row side aᵀx ≤ b (or
// aᵀx ≥ b, negated) becomes a knapsack over its binary columns once the
// other columns are replaced by their smallest contribution (their bound)
// and the binaries with negative coefficients are complemented. A cover C
// (weight above the capacity) chosen greedily by (1 − y*_j)/a_j gives
// Σ_C y_j ≤ |C| − 1, extended by every item at least as heavy as C's
// heaviest; it is kept when violated.
func (sr *mipSearch) coverCuts(x []float64) []cut {
	cols, vals := sr.rowWise()
	p := sr.p
	var out []cut
	type item struct {
		j    int
		a    float64 // positive weight
		comp bool    // y = 1 − x
		y    float64
	}
	var items []item
	for i := range cols {
		for side := 0; side < 2; side++ {
			sign, b := 1.0, p.RowUpper[i]
			if side == 1 {
				sign, b = -1, -p.RowLower[i]
			}
			if math.IsInf(b, 1) {
				continue
			}
			items = items[:0]
			ok := true
			for k, j := range cols[i] {
				a := sign * vals[i][k]
				lo, up := sr.rootLo[j], sr.rootUp[j]
				if sr.isInt[j] && lo == 0 && up == 1 {
					if a > 0 {
						items = append(items, item{j, a, false, x[j]})
					} else {
						items = append(items, item{j, -a, true, 1 - x[j]})
						b -= a
					}
					continue
				}
				// Other columns at their smallest contribution.
				m := a * lo
				if a < 0 {
					m = a * up
				}
				if math.IsInf(m, 0) {
					ok = false
					break
				}
				b -= m
			}
			if !ok || len(items) < 2 || b < 0 {
				continue
			}
			b += 1e-9 * max(1, math.Abs(b))
			// Greedy cover by (1 − y)/a, ascending; ties by column.
			for s := 1; s < len(items); s++ {
				for k := s; k > 0; k-- {
					ka, kb := items[k], items[k-1]
					ra, rb := (1-ka.y)/ka.a, (1-kb.y)/kb.a
					if ra < rb || (ra == rb && ka.j < kb.j) {
						items[k], items[k-1] = kb, ka
					} else {
						break
					}
				}
			}
			w, cost, nc := 0.0, 0.0, 0
			for nc < len(items) && w <= b {
				w += items[nc].a
				cost += 1 - items[nc].y
				nc++
			}
			if w <= b || cost >= 1-1e-6 {
				continue
			}
			heaviest := 0.0
			for _, it := range items[:nc] {
				heaviest = max(heaviest, it.a)
			}
			// Σ_{C ∪ E} y_j ≤ |C| − 1 with y = x or 1 − x, as π·x ≥ rhs.
			ct := cut{rhs: -float64(nc - 1)}
			add := func(it item) {
				if it.comp {
					ct.idx = append(ct.idx, it.j)
					ct.val = append(ct.val, 1)
					ct.rhs++
				} else {
					ct.idx = append(ct.idx, it.j)
					ct.val = append(ct.val, -1)
				}
			}
			for _, it := range items[:nc] {
				add(it)
			}
			for _, it := range items[nc:] {
				if it.a >= heaviest {
					add(it)
				}
			}
			for s := 1; s < len(ct.idx); s++ {
				for k := s; k > 0 && ct.idx[k] < ct.idx[k-1]; k-- {
					ct.idx[k], ct.idx[k-1] = ct.idx[k-1], ct.idx[k]
					ct.val[k], ct.val[k-1] = ct.val[k-1], ct.val[k]
				}
			}
			out = append(out, ct)
		}
	}
	return out
}

// binaryRow reports whether every column of a row is binary (a knapsack
// row, left to the cover cuts).
func (sr *mipSearch) binaryRow(cols []int) bool {
	for _, j := range cols {
		if !sr.isInt[j] || sr.rootLo[j] < 0 || sr.rootUp[j] > 1 {
			return false
		}
	}
	return true
}

// mirCuts separates mixed-integer rounding cuts from single rows of the
// original problem at the LP point x. A row side aᵀx ≤ b is brought to
// the form Σ a'_j·x'_j + Σ c'_k·y'_k ≤ b' with x' ≥ 0 integer and y' ≥ 0
// continuous by substituting every column by the distance from the bound
// nearer to its LP value (x = l + x' or x = u − x'); divided by δ (1 or
// the magnitude of an integer coefficient), the MIR inequality
//
//	Σ (⌊a_j⌋ + max(0, f_j − f₀)/(1 − f₀))·x'_j + Σ_{c_k<0} c_k/(1 − f₀)·y'_k ≤ ⌊b⌋
//
// (f_j, f₀ the fractional parts of a_j and b) holds for every such point.
// The most violated δ is kept when the cut is violated; rows with a
// column unbounded on the side used, and rows of binaries only (the cover
// cuts' domain), are skipped.
func (sr *mipSearch) mirCuts(x []float64) []cut {
	cols, vals := sr.rowWise()
	p := sr.p
	var out []cut
	type term struct {
		j     int
		a     float64 // coefficient of the substituted variable
		upper bool    // substituted from the upper bound: x = u − x'
		dist  float64 // LP value of the substituted variable
	}
	var terms []term
	var deltas []float64
	for i := range cols {
		if len(cols[i]) < 2 {
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
			terms = terms[:0]
			deltas = append(deltas[:0], 1)
			ok, nInt := true, 0
			for k, j := range cols[i] {
				a := sign * vals[i][k]
				lo, up := sr.rootLo[j], sr.rootUp[j]
				if lo == up {
					b -= a * lo
					continue
				}
				useUp := up-x[j] < x[j]-lo
				if math.IsInf(lo, -1) {
					useUp = true
				}
				if math.IsInf(up, 1) && !math.IsInf(lo, -1) {
					useUp = false
				}
				if useUp && math.IsInf(up, 1) {
					ok = false
					break
				}
				t := term{j: j, a: a, upper: useUp, dist: x[j] - lo}
				if useUp {
					t.a, t.dist = -a, up-x[j]
					b -= a * up
				} else {
					b -= a * lo
				}
				if sr.isInt[j] {
					nInt++
					if d := math.Abs(a); d > 1e-6 && len(deltas) < 8 {
						deltas = append(deltas, d)
					}
				}
				terms = append(terms, t)
			}
			if !ok || nInt == 0 || math.IsInf(b, 0) || math.IsNaN(b) || sr.binaryRow(cols[i]) {
				continue
			}
			var best cut
			bestEff := cutMinEfficacy
			for _, d := range deltas {
				bd := b / d
				f0 := bd - math.Floor(bd)
				if f0 < cutMinFrac || f0 > 1-cutMinFrac || math.Abs(bd) > 1e9 {
					continue
				}
				// The cut in the substituted variables, then back in x.
				ct := cut{rhs: math.Floor(bd)}
				lhs, norm := 0.0, 0.0
				for _, t := range terms {
					a := t.a / d
					var g float64
					if sr.isInt[t.j] {
						fj := a - math.Floor(a)
						g = math.Floor(a) + max(0, fj-f0)/(1-f0)
					} else if a < 0 {
						g = a / (1 - f0)
					}
					if g == 0 {
						continue
					}
					lhs += g * t.dist
					norm += g * g
					// g·x' with x' = x − l or u − x.
					lo, up := sr.rootLo[t.j], sr.rootUp[t.j]
					if t.upper {
						ct.idx = append(ct.idx, t.j)
						ct.val = append(ct.val, -g)
						ct.rhs -= g * up
					} else {
						ct.idx = append(ct.idx, t.j)
						ct.val = append(ct.val, g)
						ct.rhs += g * lo
					}
				}
				if norm == 0 {
					continue
				}
				if eff := (lhs - math.Floor(bd)) / math.Sqrt(norm); eff > bestEff {
					best, bestEff = ct, eff
				}
			}
			if best.idx == nil {
				continue
			}
			// As π·x ≥ rhs: negate the ≤ cut, and sort by column.
			for k := range best.val {
				best.val[k] = -best.val[k]
			}
			best.rhs = -best.rhs
			for s := 1; s < len(best.idx); s++ {
				for k := s; k > 0 && best.idx[k] < best.idx[k-1]; k-- {
					best.idx[k], best.idx[k-1] = best.idx[k-1], best.idx[k]
					best.val[k], best.val[k-1] = best.val[k-1], best.val[k]
				}
			}
			big, small := 0.0, math.Inf(1)
			for _, v := range best.val {
				big, small = max(big, math.Abs(v)), min(small, math.Abs(v))
			}
			if big/small > cutMaxDynamic {
				continue
			}
			best.rhs -= 1e-9 * max(1, math.Abs(best.rhs))
			out = append(out, best)
		}
	}
	return out
}
