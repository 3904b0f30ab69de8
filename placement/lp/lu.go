package lp

import (
	"math"
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

	// Row-wise copy of U: step k's entries in later steps
	// urStep/urVal[urStart[k]:urStart[k+1]]; uStep is the step of each
	// U entry's row; posStep maps a basis position to its step.
	uStep   []int
	urStart []int
	urStep  []int
	urVal   []float64
	posStep []int

	// Workspace.
	colCount, rowCount, rowStart, rowPos, rowID []int
	posDone                                     []bool
	w                                           []float64
	stack                                       []int
	stackIt                                     []int
	post                                        []int
	seeds                                       []int
	fill                                        []int
	visit                                       []int32
	stamp                                       int32
	ws                                          *svec
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
	}
	f.w = f.w[:m]
	for i := range m {
		f.rowStep[i] = -1
		f.lOfRow[i] = -1
	}

	// Row-wise pattern of B (positions per row) for the singleton passes.
	f.colCount = resizeInts(f.colCount, m)
	f.rowCount = resizeInts(f.rowCount, m)
	colCount, rowCount := f.colCount, f.rowCount
	clear(colCount)
	clear(rowCount)
	for q := range m {
		idx, val := col(q)
		for k, i := range idx {
			if val[k] != 0 {
				rowCount[i]++
				colCount[q]++
			}
		}
	}
	f.rowStart = resizeInts(f.rowStart, m+1)
	rowStart := f.rowStart
	rowStart[0] = 0
	for i := range m {
		rowStart[i+1] = rowStart[i] + rowCount[i]
	}
	f.rowPos = resizeInts(f.rowPos, rowStart[m])
	rowPos := f.rowPos
	fill := append(resizeInts(f.fill, 0), rowStart[:m]...)
	f.fill = fill
	for q := range m {
		idx, val := col(q)
		for k, i := range idx {
			if val[k] != 0 {
				rowPos[fill[i]] = q
				fill[i]++
			}
		}
	}
	if cap(f.posDone) < m {
		f.posDone = make([]bool, m)
	}
	posDone := f.posDone[:m]
	clear(posDone)

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
	f.posStep = resizeInts(f.posStep, m)
	for k, q := range f.pivPos {
		f.posStep[q] = k
	}
	f.buildTranspose()
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

// hyperDensity is the density of a right-hand side below which the
// triangular solves with U find their reach by depth-first search instead
// of a pass over all pivots.
const hyperDensity = 0.05

// buildTranspose builds the row-wise copy of U (by pivot step) and the step
// of each U entry, used by the sparse solves.
func (f *luFactor) buildTranspose() {
	m := f.m
	f.uStep = resizeInts(f.uStep, len(f.uIdx))
	for t, i := range f.uIdx {
		f.uStep[t] = f.rowStep[i]
	}
	f.urStart = resizeInts(f.urStart, m+1)
	clear(f.urStart)
	for _, k := range f.uStep {
		f.urStart[k+1]++
	}
	for k := 0; k < m; k++ {
		f.urStart[k+1] += f.urStart[k]
	}
	f.urStep = resizeInts(f.urStep, len(f.uIdx))
	if cap(f.urVal) < len(f.uIdx) {
		f.urVal = make([]float64, len(f.uIdx))
	}
	f.urVal = f.urVal[:len(f.uIdx)]
	fill := append(resizeInts(f.fill, 0), f.urStart[:m]...)
	for l := 0; l < m; l++ {
		for t := f.uStart[l]; t < f.uStart[l+1]; t++ {
			k := f.uStep[t]
			f.urStep[fill[k]] = l
			f.urVal[fill[k]] = f.uVal[t]
			fill[k]++
		}
	}
	f.fill = fill
	if cap(f.visit) < m {
		f.visit = make([]int32, m)
	}
	f.visit = f.visit[:m]
	clear(f.visit)
	f.stamp = 0
	if f.ws == nil || len(f.ws.val) != m {
		f.ws = newSvec(m)
	}
}

// reach returns the pivot steps reachable from the steps in seeds through
// the graph adj (step k → steps adjStep[adjStart[k]:adjStart[k+1]]), in
// topological order (a step before every step it reaches).
func (f *luFactor) reach(seeds []int, adjStart, adjStep []int) []int {
	f.stamp++
	if f.stamp == math.MaxInt32 {
		clear(f.visit)
		f.stamp = 1
	}
	st := f.stamp
	post := f.post[:0]
	stack, it := f.stack[:0], f.stackIt[:0]
	for _, k0 := range seeds {
		if f.visit[k0] == st {
			continue
		}
		f.visit[k0] = st
		stack = append(stack, k0)
		it = append(it, adjStart[k0])
		for len(stack) > 0 {
			top := len(stack) - 1
			k := stack[top]
			pushed := false
			for p := it[top]; p < adjStart[k+1]; p++ {
				c := adjStep[p]
				if f.visit[c] != st {
					it[top] = p + 1
					f.visit[c] = st
					stack = append(stack, c)
					it = append(it, adjStart[c])
					pushed = true
					break
				}
			}
			if !pushed {
				stack = stack[:top]
				it = it[:top]
				post = append(post, k)
			}
		}
	}
	f.stack, f.stackIt = stack[:0], it[:0]
	// Reverse post-order is topological.
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	f.post = post
	return post
}

// ftran solves B·x = b. On entry v holds b indexed by row; on return it
// holds x indexed by basis position.
func (f *luFactor) ftran(v *svec) {
	*v, *f.ws = *f.ws, *v
	in, out := f.ws, v // in: row space, consumed; out: position space
	b := in.val
	// L etas.
	for e, p := range f.lPiv {
		x := b[p]
		if x == 0 {
			continue
		}
		for k := f.lStart[e]; k < f.lStart[e+1]; k++ {
			i := f.lIdx[k]
			in.add(i)
			b[i] -= f.lVal[k] * x
		}
	}
	// U backward.
	if float64(in.n) < hyperDensity*float64(f.m) {
		seeds := f.seeds[:0]
		for _, i := range in.idx[:in.n] {
			seeds = append(seeds, f.rowStep[i])
		}
		f.seeds = seeds
		// U column k reaches the steps of its rows.
		for _, k := range f.reach(seeds, f.uStart, f.uStep) {
			f.ftranStep(k, b, out)
		}
	} else {
		for k := f.m - 1; k >= 0; k-- {
			f.ftranStep(k, b, out)
		}
	}
	in.clear()
	// Product-form etas.
	o := out.val
	for e, r := range f.ePos {
		x := o[r]
		if x == 0 {
			continue
		}
		x /= f.ePivVal[e]
		o[r] = x
		for k := f.eStart[e]; k < f.eStart[e+1]; k++ {
			i := f.eIdx[k]
			out.add(i)
			o[i] -= f.eVal[k] * x
		}
	}
}

func (f *luFactor) ftranStep(k int, b []float64, out *svec) {
	p := f.pivRow[k]
	x := b[p]
	if x == 0 {
		return
	}
	b[p] = 0
	x /= f.uDiag[k]
	q := f.pivPos[k]
	out.add(q)
	out.val[q] = x
	for t := f.uStart[k]; t < f.uStart[k+1]; t++ {
		b[f.uIdx[t]] -= f.uVal[t] * x
	}
}

// btran solves Bᵀ·y = c. On entry v holds c indexed by basis position; on
// return y indexed by row.
func (f *luFactor) btran(v *svec) {
	*v, *f.ws = *f.ws, *v
	in, out := f.ws, v
	c := in.val
	for e := len(f.ePos) - 1; e >= 0; e-- {
		r := f.ePos[e]
		s := c[r]
		for k := f.eStart[e]; k < f.eStart[e+1]; k++ {
			s -= f.eVal[k] * c[f.eIdx[k]]
		}
		if s != c[r] {
			in.add(r)
			c[r] = s / f.ePivVal[e]
		} else if s != 0 {
			c[r] = s / f.ePivVal[e]
		}
	}
	// Uᵀ forward: step k's value feeds the later steps of U's row p_k.
	if float64(in.n) < hyperDensity*float64(f.m) {
		seeds := f.seeds[:0]
		for _, q := range in.idx[:in.n] {
			seeds = append(seeds, f.posStep[q])
		}
		f.seeds = seeds
		for _, k := range f.reach(seeds, f.urStart, f.urStep) {
			f.btranStep(k, c, out)
		}
	} else {
		for k := 0; k < f.m; k++ {
			f.btranStep(k, c, out)
		}
	}
	in.clear()
	// Lᵀ: the L etas in reverse.
	o := out.val
	for e := len(f.lPiv) - 1; e >= 0; e-- {
		p := f.lPiv[e]
		s := o[p]
		for k := f.lStart[e]; k < f.lStart[e+1]; k++ {
			s -= f.lVal[k] * o[f.lIdx[k]]
		}
		if s != o[p] {
			out.add(p)
			o[p] = s
		}
	}
}

func (f *luFactor) btranStep(k int, c []float64, out *svec) {
	q := f.pivPos[k]
	x := c[q]
	if x == 0 {
		return
	}
	c[q] = 0
	x /= f.uDiag[k]
	p := f.pivRow[k]
	out.add(p)
	out.val[p] = x
	for t := f.urStart[k]; t < f.urStart[k+1]; t++ {
		c[f.pivPos[f.urStep[t]]] -= f.urVal[t] * x
	}
}

// svec is a vector of length m stored densely with the list idx[:n] of the
// entries that may be non-zero (each once).
type svec struct {
	val []float64
	idx []int
	in  []bool
	n   int
}

func newSvec(m int) *svec {
	return &svec{val: make([]float64, m), idx: make([]int, m), in: make([]bool, m)}
}

// add puts i on the index list if it is not there.
func (v *svec) add(i int) {
	if !v.in[i] {
		v.in[i] = true
		v.idx[v.n] = i
		v.n++
	}
}

// set sets entry i to x and lists it.
func (v *svec) set(i int, x float64) {
	v.add(i)
	v.val[i] = x
}

// clear zeroes the vector.
func (v *svec) clear() {
	for _, i := range v.idx[:v.n] {
		v.val[i] = 0
		v.in[i] = false
	}
	v.n = 0
}

// nonzeros returns the listed indices.
func (v *svec) nonzeros() []int { return v.idx[:v.n] }

func resizeInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}
