package lp

import (
	"math"
	"slices"
)

// luFactor is a sparse LU factorisation of a simplex basis matrix B (m×m,
// column q of B is the column of the variable in basis position q), kept up
// to date across basis changes by a product-form eta file.
//
// Factorisation. The pivot sequence k = 0..m-1 pairs a row pivRow[k] with a
// basis position pivPos[k]. Column singletons come first (an upper-triangular
// block, no elimination), then row singletons (a lower-triangular block whose
// L columns are the columns themselves), then the remaining nucleus, factored
// left-looking (Gilbert–Peierls: a sparse triangular solve per column, its
// reach found by depth-first search) with threshold partial pivoting: among
// the rows whose value is at least luThreshold times the largest, the one
// with the fewest remaining non-zeros (the Markowitz count of a fixed column
// order) is chosen. Nucleus columns are taken in increasing order of their
// active non-zeros. No m×m array is ever formed: L and U are stored sparse,
// memory grows with their non-zeros.
//
// In this form B = L·U with L the product of the column etas
// L_e = I + l_e·e_{p_e}ᵀ (applied as b[i] -= l·b[p]) and U upper triangular
// in pivot order: U's column of step k holds entries in rows pivoted before
// k and the diagonal uDiag[k] in row pivRow[k].
//
// Updates. Replacing the column in position r by a column a with
// α = B⁻¹·a appends the eta (r, α): B_new⁻¹ = E⁻¹·B⁻¹ with E = I+(α−e_r)e_rᵀ.
type luFactor struct {
	m int

	pivRow, pivPos []int
	rowStep        []int // row → pivot step

	// L etas in step order: eta e pivots on row lPiv[e], entries
	// lIdx/lVal[lStart[e]:lStart[e+1]].
	lStart []int
	lPiv   []int
	lIdx   []int
	lVal   []float64
	lOfRow []int // row → its L eta, or -1

	// U: the off-diagonal entries of step k are uIdx/uVal[uStart[k]:uStart[k+1]]
	// (row indices), its diagonal uDiag[k].
	uStart []int
	uIdx   []int
	uVal   []float64
	uDiag  []float64

	// Product-form etas of the updates (positions).
	eStart  []int
	ePos    []int
	eIdx    []int
	eVal    []float64
	ePivVal []float64

	// Factor workspace.
	w     []float64
	mark  []int32
	stack []int
}

const (
	luThreshold = 0.1   // threshold partial pivoting
	luTiny      = 1e-11 // a pivot below this (absolute, scaled) is singular
	luDrop      = 1e-14 // eta entries below this are dropped
	maxUpdates  = 100   // refactorise after this many updates
	etaGrowth   = 3.0   // or when the eta file holds more than this × nnz(L+U) + m
)

// column gives the row indices and values of the column of B in position q.
type columnFunc func(q int) ([]int, []float64)

// numEtas returns the number of updates since the last factorisation.
func (f *luFactor) numEtas() int { return len(f.ePivVal) }

// needRefactor reports whether the eta file is long enough that a fresh
// factorisation pays.
func (f *luFactor) needRefactor() bool {
	if len(f.ePivVal) >= maxUpdates {
		return true
	}
	return float64(len(f.eIdx)) > etaGrowth*float64(len(f.lIdx)+len(f.uIdx)+f.m)+1000
}

// factor factorises the basis whose columns col(0..m-1) returns. Positions
// whose column has no acceptable pivot are reported in singPos, paired with
// rows left without a pivot in singRow; the factorisation is then that of
// the basis with the unit column e_{singRow[k]} in position singPos[k] (the
// caller puts the logical of that row there).
func (f *luFactor) factor(m int, col columnFunc) (singPos, singRow []int) {
	f.m = m
	f.pivRow = resizeInts(f.pivRow, 0)
	f.pivPos = resizeInts(f.pivPos, 0)
	f.rowStep = resizeInts(f.rowStep, m)
	f.lStart = append(resizeInts(f.lStart, 0), 0)
	f.lPiv = resizeInts(f.lPiv, 0)
	f.lIdx = resizeInts(f.lIdx, 0)
	f.lVal = f.lVal[:0]
	f.lOfRow = resizeInts(f.lOfRow, m)
	f.uStart = append(resizeInts(f.uStart, 0), 0)
	f.uIdx = resizeInts(f.uIdx, 0)
	f.uVal = f.uVal[:0]
	f.uDiag = f.uDiag[:0]
	f.resetEtas()
	if cap(f.w) < m {
		f.w = make([]float64, m)
		f.mark = make([]int32, m)
	}
	f.w = f.w[:m]
	f.mark = f.mark[:m]
	for i := range m {
		f.rowStep[i] = -1
		f.lOfRow[i] = -1
	}

	// Row-wise pattern of B (positions per row) for the singleton passes.
	colCount := make([]int, m)
	rowCount := make([]int, m)
	for q := range m {
		idx, val := col(q)
		for k, i := range idx {
			if val[k] != 0 {
				rowCount[i]++
				colCount[q]++
			}
		}
	}
	rowStart := make([]int, m+1)
	for i := range m {
		rowStart[i+1] = rowStart[i] + rowCount[i]
	}
	rowPos := make([]int, rowStart[m])
	fill := slices.Clone(rowStart[:m])
	for q := range m {
		idx, val := col(q)
		for k, i := range idx {
			if val[k] != 0 {
				rowPos[fill[i]] = q
				fill[i]++
			}
		}
	}
	posDone := make([]bool, m)

	// Column singletons.
	stack := f.stack[:0]
	for q := m - 1; q >= 0; q-- {
		if colCount[q] == 1 {
			stack = append(stack, q)
		}
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if posDone[q] || colCount[q] != 1 {
			continue
		}
		idx, val := col(q)
		piv, pv := -1, 0.0
		for k, i := range idx {
			if val[k] != 0 && f.rowStep[i] < 0 {
				piv, pv = i, val[k]
			}
		}
		if piv < 0 || math.Abs(pv) < luTiny {
			continue // left to the nucleus, which will find it singular
		}
		for k, i := range idx {
			if val[k] != 0 && i != piv {
				f.uIdx = append(f.uIdx, i)
				f.uVal = append(f.uVal, val[k])
			}
		}
		f.addStep(piv, q, pv)
		posDone[q] = true
		for k, i := range idx {
			if val[k] != 0 {
				rowCount[i]--
			}
		}
		for _, q2 := range rowPos[rowStart[piv]:rowStart[piv+1]] {
			if !posDone[q2] {
				colCount[q2]--
				if colCount[q2] == 1 {
					stack = append(stack, q2)
				}
			}
		}
	}

	// Row singletons (among active rows and columns).
	stack = stack[:0]
	for i := m - 1; i >= 0; i-- {
		if f.rowStep[i] < 0 && rowCount[i] == 1 {
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.rowStep[i] >= 0 || rowCount[i] != 1 {
			continue
		}
		q := -1
		for _, q2 := range rowPos[rowStart[i]:rowStart[i+1]] {
			if !posDone[q2] {
				q = q2
				break
			}
		}
		if q < 0 {
			continue
		}
		idx, val := col(q)
		pv := 0.0
		for k, r := range idx {
			if r == i {
				pv = val[k]
			}
		}
		if math.Abs(pv) < luTiny {
			continue
		}
		// U part: rows already pivoted; L part: other active rows.
		for k, r := range idx {
			if val[k] == 0 || r == i {
				continue
			}
			if f.rowStep[r] >= 0 {
				f.uIdx = append(f.uIdx, r)
				f.uVal = append(f.uVal, val[k])
			}
		}
		lBefore := len(f.lIdx)
		for k, r := range idx {
			if val[k] != 0 && r != i && f.rowStep[r] < 0 {
				f.lIdx = append(f.lIdx, r)
				f.lVal = append(f.lVal, val[k]/pv)
			}
		}
		if len(f.lIdx) > lBefore {
			f.lOfRow[i] = len(f.lPiv)
			f.lPiv = append(f.lPiv, i)
			f.lStart = append(f.lStart, len(f.lIdx))
		}
		f.addStep(i, q, pv)
		posDone[q] = true
		for k, r := range idx {
			if val[k] != 0 && f.rowStep[r] < 0 {
				rowCount[r]--
				if rowCount[r] == 1 {
					stack = append(stack, r)
				}
			}
		}
	}
	f.stack = stack[:0]

	// Nucleus.
	var nucleus []int
	for q := range m {
		if !posDone[q] {
			nucleus = append(nucleus, q)
		}
	}
	singPos = f.markowitz(nucleus, col)
	if len(singPos) > 0 {
		for i := range m {
			if f.rowStep[i] < 0 {
				singRow = append(singRow, i)
			}
		}
		for k, q := range singPos {
			f.addStep(singRow[k], q, 1)
		}
	}
	return singPos, singRow
}

// addStep records pivot step (row i, position q, diagonal v); the U entries
// of the step must already be appended.
func (f *luFactor) addStep(i, q int, v float64) {
	f.rowStep[i] = len(f.pivRow)
	f.pivRow = append(f.pivRow, i)
	f.pivPos = append(f.pivPos, q)
	f.uDiag = append(f.uDiag, v)
	f.uStart = append(f.uStart, len(f.uIdx))
}

func (f *luFactor) resetEtas() {
	f.eStart = append(resizeInts(f.eStart, 0), 0)
	f.ePos = resizeInts(f.ePos, 0)
	f.eIdx = resizeInts(f.eIdx, 0)
	f.eVal = f.eVal[:0]
	f.ePivVal = f.ePivVal[:0]
}

// update records that position r now holds a column whose FTRAN'd image is
// alpha (by position, dense).
func (f *luFactor) update(r int, alpha *svec) {
	f.ePos = append(f.ePos, r)
	f.ePivVal = append(f.ePivVal, alpha.val[r])
	for _, i := range alpha.idx[:alpha.n] {
		if i != r {
			if v := alpha.val[i]; math.Abs(v) > luDrop {
				f.eIdx = append(f.eIdx, i)
				f.eVal = append(f.eVal, v)
			}
		}
	}
	f.eStart = append(f.eStart, len(f.eIdx))
}

// ftran solves B·x = b. On entry v holds b indexed by row; on return it
// holds x indexed by basis position. v's index list is maintained.
func (f *luFactor) ftran(v *svec, tmp *svec) {
	b := v.val
	// L etas.
	for e, p := range f.lPiv {
		x := b[p]
		if x == 0 {
			continue
		}
		for k := f.lStart[e]; k < f.lStart[e+1]; k++ {
			b[f.lIdx[k]] -= f.lVal[k] * x
		}
	}
	// U backward, result by position into tmp.
	out := tmp.val
	for k := f.m - 1; k >= 0; k-- {
		p := f.pivRow[k]
		x := b[p]
		if x == 0 {
			continue
		}
		b[p] = 0
		x /= f.uDiag[k]
		out[f.pivPos[k]] = x
		for t := f.uStart[k]; t < f.uStart[k+1]; t++ {
			b[f.uIdx[t]] -= f.uVal[t] * x
		}
	}
	// Product-form etas.
	for e, r := range f.ePos {
		x := out[r]
		if x == 0 {
			continue
		}
		x /= f.ePivVal[e]
		out[r] = x
		for k := f.eStart[e]; k < f.eStart[e+1]; k++ {
			out[f.eIdx[k]] -= f.eVal[k] * x
		}
	}
	v.val, tmp.val = out, b
	v.reindex()
}

// btran solves Bᵀ·y = c. On entry v holds c indexed by basis position; on
// return y indexed by row.
func (f *luFactor) btran(v *svec, tmp *svec) {
	c := v.val
	for e := len(f.ePos) - 1; e >= 0; e-- {
		r := f.ePos[e]
		s := c[r]
		for k := f.eStart[e]; k < f.eStart[e+1]; k++ {
			s -= f.eVal[k] * c[f.eIdx[k]]
		}
		c[r] = s / f.ePivVal[e]
	}
	out := tmp.val
	for k := 0; k < f.m; k++ {
		q := f.pivPos[k]
		s := c[q]
		c[q] = 0
		for t := f.uStart[k]; t < f.uStart[k+1]; t++ {
			s -= f.uVal[t] * out[f.uIdx[t]]
		}
		if s != 0 {
			s /= f.uDiag[k]
		}
		out[f.pivRow[k]] = s
	}
	for e := len(f.lPiv) - 1; e >= 0; e-- {
		p := f.lPiv[e]
		s := out[p]
		for k := f.lStart[e]; k < f.lStart[e+1]; k++ {
			s -= f.lVal[k] * out[f.lIdx[k]]
		}
		out[p] = s
	}
	v.val, tmp.val = out, c
	v.reindex()
}

// svec is a vector of length m stored densely with a list of the indices
// that may be non-zero (idx[:n]).
type svec struct {
	val []float64
	idx []int
	n   int
}

func newSvec(m int) *svec { return &svec{val: make([]float64, m), idx: make([]int, m)} }

// clear zeroes the vector.
func (v *svec) clear() {
	if v.n*4 > len(v.val) {
		clear(v.val)
	} else {
		for _, i := range v.idx[:v.n] {
			v.val[i] = 0
		}
	}
	v.n = 0
}

// reindex rebuilds the index list from the values, zeroing negligible
// entries.
func (v *svec) reindex() {
	n := 0
	for i, x := range v.val {
		if x != 0 {
			if math.Abs(x) < 1e-14 {
				v.val[i] = 0
				continue
			}
			v.idx[n] = i
			n++
		}
	}
	v.n = n
}

func resizeInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}
