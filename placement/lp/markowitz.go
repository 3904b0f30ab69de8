package lp

import "math"

// markowitzSearch is the number of candidate columns and rows examined for
// a pivot before the best one found is taken.
const markowitzSearch = 4

// kernel is the active submatrix of the nucleus during the right-looking
// Markowitz elimination: columns hold (row, value) pairs, rows hold the
// pattern (column ids). Ids are local: 0..k-1 for both.
type kernel struct {
	cRow [][]int
	cVal [][]float64
	rCol [][]int
	// Count buckets: doubly-linked lists of the active columns (rows) with
	// a given number of entries.
	cHead, cNext, cPrev []int
	rHead, rNext, rPrev []int
	cIn, rIn            []int     // the count a column (row) is filed under, -1 when inactive
	cMax                []float64 // largest magnitude of each column, -1 when stale
	// U entries of each column in the rows already pivoted.
	uOfRow [][]int
	uOfVal [][]float64
	mark   []int
}

// resetSlices returns s with n empty slices, keeping the storage of those
// it had.
func resetSlices[T any](s [][]T, n int) [][]T {
	if cap(s) < n {
		s = append(s[:cap(s)], make([][]T, n-cap(s))...)
	}
	s = s[:n]
	for i := range s {
		s[i] = s[i][:0]
	}
	return s
}

// colMax returns the largest magnitude in column c, cached until the
// column changes.
func (kr *kernel) colMax(c int) float64 {
	if m := kr.cMax[c]; m >= 0 {
		return m
	}
	m := 0.0
	for _, v := range kr.cVal[c] {
		m = max(m, math.Abs(v))
	}
	kr.cMax[c] = m
	return m
}

func (kr *kernel) link(head, next, prev, in []int, x, cnt int) {
	in[x] = cnt
	prev[x] = -1
	next[x] = head[cnt]
	if head[cnt] >= 0 {
		prev[head[cnt]] = x
	}
	head[cnt] = x
}

func (kr *kernel) unlink(head, next, prev, in []int, x int) {
	cnt := in[x]
	if cnt < 0 {
		return
	}
	if prev[x] >= 0 {
		next[prev[x]] = next[x]
	} else {
		head[cnt] = next[x]
	}
	if next[x] >= 0 {
		prev[next[x]] = prev[x]
	}
	in[x] = -1
}

func (kr *kernel) refileCol(c int) {
	kr.unlink(kr.cHead, kr.cNext, kr.cPrev, kr.cIn, c)
	kr.link(kr.cHead, kr.cNext, kr.cPrev, kr.cIn, c, len(kr.cRow[c]))
}

func (kr *kernel) refileRow(r int) {
	kr.unlink(kr.rHead, kr.rNext, kr.rPrev, kr.rIn, r)
	kr.link(kr.rHead, kr.rNext, kr.rPrev, kr.rIn, r, len(kr.rCol[r]))
}

// markowitz factorises the nucleus: the basis positions in nucleus, whose
// entries in active rows (rowStep < 0) form a square submatrix, by
// right-looking elimination with Markowitz pivot choice (smallest
// (r−1)(c−1) among entries within luThreshold of their column's largest,
// searching the sparsest columns and rows first) and appends its pivot
// steps. It returns the positions left without an acceptable pivot.
func (f *luFactor) markowitz(nucleus []int, col columnFunc) (singPos []int) {
	k := len(nucleus)
	if k == 0 {
		return nil
	}
	m := f.m
	// Local row ids.
	f.rowID = resizeInts(f.rowID, m)
	rowID := f.rowID
	for i := range rowID {
		rowID[i] = -1
	}
	var rows []int
	for i := 0; i < m; i++ {
		if f.rowStep[i] < 0 {
			rowID[i] = len(rows)
			rows = append(rows, i)
		}
	}
	if f.kr == nil {
		f.kr = &kernel{}
	}
	kr := f.kr
	nr := len(rows)
	kr.cRow, kr.cVal, kr.rCol = resetSlices(kr.cRow, k), resetSlices(kr.cVal, k), resetSlices(kr.rCol, nr)
	kr.cHead, kr.cNext, kr.cPrev, kr.cIn = resizeInts(kr.cHead, nr+1), resizeInts(kr.cNext, k), resizeInts(kr.cPrev, k), resizeInts(kr.cIn, k)
	kr.rHead, kr.rNext, kr.rPrev, kr.rIn = resizeInts(kr.rHead, k+1), resizeInts(kr.rNext, nr), resizeInts(kr.rPrev, nr), resizeInts(kr.rIn, nr)
	if cap(kr.cMax) < k {
		kr.cMax = make([]float64, k)
	}
	kr.cMax = kr.cMax[:k]
	for c := range kr.cMax {
		kr.cMax[c] = -1
	}
	for i := range kr.cHead {
		kr.cHead[i] = -1
	}
	for i := range kr.rHead {
		kr.rHead[i] = -1
	}
	// U entries of each nucleus column in rows pivoted before the nucleus.
	kr.uOfRow, kr.uOfVal = resetSlices(kr.uOfRow, k), resetSlices(kr.uOfVal, k)
	uOfRow, uOfVal := kr.uOfRow, kr.uOfVal
	for c, q := range nucleus {
		idx, val := col(q)
		for t, i := range idx {
			if val[t] == 0 {
				continue
			}
			if r := rowID[i]; r >= 0 {
				kr.cRow[c] = append(kr.cRow[c], r)
				kr.cVal[c] = append(kr.cVal[c], val[t])
				kr.rCol[r] = append(kr.rCol[r], c)
			} else {
				uOfRow[c] = append(uOfRow[c], i)
				uOfVal[c] = append(uOfVal[c], val[t])
			}
		}
	}
	for c := k - 1; c >= 0; c-- {
		kr.link(kr.cHead, kr.cNext, kr.cPrev, kr.cIn, c, len(kr.cRow[c]))
	}
	for r := len(rows) - 1; r >= 0; r-- {
		kr.link(kr.rHead, kr.rNext, kr.rPrev, kr.rIn, r, len(kr.rCol[r]))
	}
	type step struct {
		row, c int
		v      float64
	}
	steps := make([]step, 0, k)
	kr.mark = resizeInts(kr.mark, nr)
	mark := kr.mark // row → 1 + index in the scattered column
	clear(mark)
	for {
		pr, pc, pv := kr.choosePivot()
		if pc < 0 {
			break
		}
		steps = append(steps, step{rows[pr], pc, pv})
		// L column: the pivot column's other entries.
		lBefore := len(f.lIdx)
		lr := kr.cRow[pc]
		lv := kr.cVal[pc]
		for t, r := range lr {
			if r != pr {
				f.lIdx = append(f.lIdx, rows[r])
				f.lVal = append(f.lVal, lv[t]/pv)
			}
		}
		kr.unlink(kr.cHead, kr.cNext, kr.cPrev, kr.cIn, pc)
		for _, r := range lr {
			kr.rCol[r] = removeInt(kr.rCol[r], pc)
		}
		// U row: the pivot row's other entries; remove the row.
		prow := kr.rCol[pr]
		kr.unlink(kr.rHead, kr.rNext, kr.rPrev, kr.rIn, pr)
		kr.rCol[pr] = kr.rCol[pr][:0]
		for _, c := range prow {
			cr, cv := kr.cRow[c], kr.cVal[c]
			var a float64
			for t, r := range cr {
				if r == pr {
					a = cv[t]
					last := len(cr) - 1
					cr[t], cv[t] = cr[last], cv[last]
					cr, cv = cr[:last], cv[:last]
					break
				}
			}
			uOfRow[c] = append(uOfRow[c], rows[pr])
			uOfVal[c] = append(uOfVal[c], a)
			// Eliminate: column c −= (a / pv)·(pivot column).
			f.buildWork += 2*len(cr) + len(lr)
			for t, r := range cr {
				mark[r] = t + 1
			}
			for t, r := range lr {
				if r == pr {
					continue
				}
				delta := -a * lv[t] / pv
				if p := mark[r]; p > 0 {
					cv[p-1] += delta
				} else {
					cr = append(cr, r)
					cv = append(cv, delta)
					kr.rCol[r] = append(kr.rCol[r], c)
				}
			}
			for _, r := range cr {
				mark[r] = 0
			}
			kr.cRow[c], kr.cVal[c] = cr, cv
			kr.cMax[c] = -1
			kr.refileCol(c)
		}
		for _, r := range lr {
			if r != pr {
				kr.refileRow(r)
			}
		}
		kr.cRow[pc], kr.cVal[pc] = kr.cRow[pc][:0], kr.cVal[pc][:0]
		if len(f.lIdx) > lBefore {
			f.lOfRow[rows[pr]] = len(f.lPiv)
			f.lPiv = append(f.lPiv, rows[pr])
			f.lStart = append(f.lStart, len(f.lIdx))
		}
		f.rowStep[rows[pr]] = m // pivoted (the step number is set below)
	}
	for _, st := range steps {
		f.uIdx = append(f.uIdx, uOfRow[st.c]...)
		f.uVal = append(f.uVal, uOfVal[st.c]...)
		f.addStep(st.row, nucleus[st.c], st.v)
	}
	for c := 0; c < k; c++ {
		if kr.cIn[c] >= 0 {
			singPos = append(singPos, nucleus[c])
		}
	}
	return singPos
}

// choosePivot returns the pivot (local row, column, value) of least
// Markowitz count among acceptable entries, or pc = -1 when no active
// entry is acceptable.
func (kr *kernel) choosePivot() (pr, pc int, pv float64) {
	pr, pc = -1, -1
	best := math.MaxInt
	searched := 0
	nmax := len(kr.rHead) - 1
	if len(kr.cHead)-1 > nmax {
		nmax = len(kr.cHead) - 1
	}
	for cnt := 1; cnt <= nmax; cnt++ {
		if cnt < len(kr.cHead) {
			for c := kr.cHead[cnt]; c >= 0; c = kr.cNext[c] {
				cr, cv := kr.cRow[c], kr.cVal[c]
				cmax := kr.colMax(c)
				if cmax < luTiny {
					continue
				}
				for t, r := range cr {
					if a := math.Abs(cv[t]); a >= luThreshold*cmax && a >= luTiny {
						mc := (cnt - 1) * (len(kr.rCol[r]) - 1)
						if mc < best || (mc == best && a > math.Abs(pv)) {
							pr, pc, pv, best = r, c, cv[t], mc
						}
					}
				}
				searched++
				if pc >= 0 && (searched >= markowitzSearch || best <= (cnt-1)*(cnt-1)) {
					return pr, pc, pv
				}
			}
		}
		if cnt < len(kr.rHead) {
			for r := kr.rHead[cnt]; r >= 0; r = kr.rNext[r] {
				for _, c := range kr.rCol[r] {
					cr, cv := kr.cRow[c], kr.cVal[c]
					mc := (len(cr) - 1) * (cnt - 1)
					if mc > best {
						continue
					}
					val := 0.0
					for t, rr := range cr {
						if rr == r {
							val = cv[t]
							break
						}
					}
					if a := math.Abs(val); a >= luThreshold*kr.colMax(c) && a >= luTiny {
						if mc < best || (mc == best && a > math.Abs(pv)) {
							pr, pc, pv, best = r, c, val, mc
						}
					}
				}
				searched++
				if pc >= 0 && (searched >= markowitzSearch || best <= cnt*(cnt-1)) {
					return pr, pc, pv
				}
			}
		}
	}
	return pr, pc, pv
}

// removeInt deletes the first x from s (order not kept).
func removeInt(s []int, x int) []int {
	for t, v := range s {
		if v == x {
			s[t] = s[len(s)-1]
			return s[:len(s)-1]
		}
	}
	return s
}
