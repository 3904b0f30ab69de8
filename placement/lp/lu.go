package lp

import (
	"math"
)

// luFactor is a sparse LU factorisation of a simplex basis matrix B (m×m,
// column q of B is the column of the variable in basis position q), kept up
// to date across basis changes by Forrest–Tomlin updates.
//
// Factorisation. The pivot sequence k = 0..m-1 pairs a row pivRow[k] with a
// basis position pivPos[k]. Column singletons come first (an upper-triangular
// block, no elimination), then row singletons (a lower-triangular block whose
// L columns are the columns themselves), then the remaining nucleus, factored
// by right-looking Markowitz elimination (markowitz.go). No m×m array is ever
// formed: L and U are stored sparse, memory grows with their non-zeros.
//
// In this form B = L·U with L the product of the column etas
// L_e = I + l_e·e_{p_e}ᵀ (applied as b[i] -= l·b[p]) and U triangular in
// pivot order: U's column of step k holds entries in rows pivoted before k
// and the diagonal uDiag[k] in row pivRow[k].
//
// Updates (luupdate.go). Replacing the column in position r by a column a
// replaces U's column of r by the spike L⁻¹·a (through the row etas so far),
// moves that pivot to the end of the order and eliminates the old pivot
// row's entries by a row eta R (b[p] += Σ v_i·b[i]); after k updates
// B = L·R₁⁻¹⋯R_k⁻¹·U_k. The pivot steps are "slots": the m of the
// factorisation, then one more per update; a replaced slot is dead and
// skipped. U is held both by columns (for FTRAN) and by rows (for BTRAN and
// for the row elimination), and both stay sparse.
type luFactor struct {
	m int

	// Slots: pivot row, basis position, diagonal and U column
	// uIdx/uVal[uStart[k]:uEnd[k]] (row indices of earlier live slots).
	pivRow, pivPos []int
	uDiag          []float64
	uStart, uEnd   []int
	uIdx           []int
	uVal           []float64
	dead           []bool
	rowStep        []int // row → its live slot (-1 while factorising: not pivoted)
	posStep        []int // basis position → its live slot

	// L etas in step order: eta e pivots on row lPiv[e], entries
	// lIdx/lVal[lStart[e]:lStart[e+1]].
	lStart []int
	lPiv   []int
	lIdx   []int
	lVal   []float64
	lOfRow []int // row → its L eta, or -1
	// Their pattern by row, for Lᵀ solves with a sparse right-hand side
	// (btranL): row i has entries in the etas lrEta[lrStart[i]:lrStart[i+1]].
	lrStart []int
	lrEta   []int

	// Row-wise copy of U: row i's off-diagonal entries are the slots and
	// values urSlot/urVal[urStart[i]:urEnd[i]], with room up to urCap[i].
	urStart, urEnd, urCap []int
	urSlot                []int
	urVal                 []float64

	// Row etas of the updates: eta e adds Σ eVal·b[eIdx] over
	// eStart[e]:eStart[e+1] to b[ePiv[e]].
	ePiv   []int
	eStart []int
	eIdx   []int
	eVal   []float64
	// The same entries listed by row, for solves with a sparse right-hand
	// side (ftranEtas): row i's entries are eHead[i], eNext[eHead[i]], …
	// (newest eta first; -1 ends), entry k belonging to eta eOf[k].
	eHead, eNext, eOf []int
	etaMark           []uint64 // workspace: a bit per eta

	updates           int                    // since the factorisation
	buildWork         int                    // operations of the last factorisation (see needRefactor)
	etaWork           int                    // operations the solves spent on the updates since it
	ftranDensity      [numSolveKinds]float64 // running mean density of ftran's results by kind (see hyperSparse)
	btranDensity      [numSolveKinds]float64 // … and of btran's
	kind              solveKind              // of the solve under way
	nFactor, nRefused int                    // for the trace
	uNZ, uNZ0         int                    // live U off-diagonals now and after the factorisation
	saveSpike         bool
	spike             *svec // L⁻¹·a of the last ftranSpike (row space)
	zPos, zRow        *svec // workspace of the update; zRow may hold U⁻ᵀ·e_r …
	zFor              int   // … of the position r of the btranUnit under way (-1: none)
	zSaved            int   // … for position zSaved (-1: none)

	// Workspace.
	colCount, rowCount, rowStart, rowPos, rowID []int
	posDone                                     []bool
	w                                           []float64
	stack                                       []int
	fill                                        []int
	bits                                        []uint64 // see markBits
	visit                                       []int32
	stamp                                       int32
	stackIt, post, seeds                        []int
	ws                                          *svec
	kr                                          *kernel // workspace of markowitz
}

const (
	luThreshold = 0.1   // threshold partial pivoting
	luTiny      = 1e-11 // a pivot below this (absolute, scaled) is singular
	luDrop      = 1e-14 // update entries below this are dropped
	minUpdates  = 100   // the updates always allowed before a refactorisation
	maxUpdates  = 2000  // refactorise after this many updates at the latest
	fillGrowth  = 2.0   // or when U and the row etas hold more than this × their size after the factorisation
)

// solveKind tells apart the solves whose results differ in density, so
// that each kind predicts its own (the pivotal column is sparser than the
// steepest-edge column, the columns of a few bound flips than the
// right-hand side of the basic values).
type solveKind int8

const (
	solveOther  solveKind = iota
	solveColumn           // FTRAN of the entering column (ftranSpike)
	solveDSE              // FTRAN of the pivotal row for the steepest-edge weights
	solveRow              // BTRAN of a unit vector (btranUnit)
	solveFlips            // FTRAN of the columns of bound flips
	numSolveKinds
)

// column gives the row indices and values of the column of B in position q.
type columnFunc func(q int) ([]int, []float64)

// numEtas returns the number of updates since the last factorisation.
func (f *luFactor) numEtas() int { return f.updates }

// needRefactor reports whether the updates have made the factors long
// enough that a fresh factorisation pays. rebuild is the caller's cost of
// recomputing its values after a factorisation, in the operations (entries
// touched) that buildWork and etaWork count.
//
// After minUpdates updates it refactorises once the solves have spent on
// the updates (row etas and the U columns they added) as much as a
// factorisation and the rebuild cost: when that extra cost grows linearly
// with the updates, refactorising then minimises the mean cost per
// iteration. The rule uses operation counts, not clocks, so that a solve
// stays deterministic.
func (f *luFactor) needRefactor(rebuild int) bool {
	if f.updates >= maxUpdates {
		return true
	}
	if f.updates >= minUpdates && f.etaWork >= f.buildWork+rebuild {
		return true
	}
	if float64(f.uNZ+len(f.eIdx)) > fillGrowth*float64(f.uNZ0+len(f.lIdx)+f.m)+1000 {
		return true
	}
	// Storage left behind by replaced columns and moved rows.
	return len(f.uIdx) > 2*f.uNZ+4*f.m || len(f.urSlot) > 2*f.uNZ+8*f.m
}

// factor factorises the basis whose columns col(0..m-1) returns. Positions
// whose column has no acceptable pivot are reported in singPos, paired with
// rows left without a pivot in singRow; the factorisation is then that of
// the basis with the unit column e_{singRow[k]} in position singPos[k] (the
// caller puts the logical of that row there).
func (f *luFactor) factor(m int, col columnFunc) (singPos, singRow []int) {
	f.nFactor++
	f.m = m
	f.buildWork = 8 * m
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
	f.buildWork += 3 * rowStart[m] // the passes over B's entries
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
	f.initUpdates()
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

func resizeInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}
