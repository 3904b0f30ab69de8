package lp

import (
	"math"
	"math/bits"
)

// This file holds the solves with the factors of luFactor and its
// Forrest–Tomlin update.

// hyperDensity is the density of a right-hand side below which a
// triangular solve may find its reach by depth-first search instead of a
// pass over all its etas or pivots; hyperExpected bounds the running mean
// density of the results of the solves of the same kind.
const (
	hyperDensity  = 0.05
	hyperExpected = 0.10
)

// hyperSparse reports whether a triangular solve with n non-zeros on entry
// should find its reach by depth-first search: when the entry is sparse
// and the results of recent solves of the same kind were too (their
// running mean density is below hyperExpected). A sparse column whose
// solve fills in (stein45's dense inverse) pays more for the search than
// for a pass over all pivots.
func (f *luFactor) hyperSparse(n int, density float64) bool {
	return float64(n) < hyperDensity*float64(f.m) && density < hyperExpected
}

// meanDensity folds the density of one solve's result (n non-zeros) into
// a running mean.
func (f *luFactor) meanDensity(mean float64, n int) float64 {
	return 0.9*mean + 0.1*float64(n)/float64(max(f.m, 1))
}

// ftCheck is the relative disagreement between the new diagonal of an
// update and the one implied by the pivot (α_r·u_old) above which the
// update is refused and the caller refactorises.
const ftCheck = 1e-8

// initUpdates turns the factorisation's steps into slots and builds the
// row-wise copy of U; the update structures start empty.
func (f *luFactor) initUpdates() {
	m := f.m
	f.uEnd = append(resizeInts(f.uEnd, 0), f.uStart[1:m+1]...)
	f.uStart = f.uStart[:m]
	if cap(f.dead) < m {
		f.dead = make([]bool, m)
	}
	f.dead = f.dead[:m]
	clear(f.dead)
	f.posStep = resizeInts(f.posStep, m)
	for k, q := range f.pivPos {
		f.posStep[q] = k
	}
	f.uNZ = len(f.uIdx)
	f.uNZ0 = f.uNZ
	f.updates = 0
	f.etaWork = 0
	f.buildWork += 2*f.uNZ + 4*m // the slots and U's row-wise copy
	f.ePiv = resizeInts(f.ePiv, 0)
	f.eStart = append(resizeInts(f.eStart, 0), 0)
	f.eIdx = resizeInts(f.eIdx, 0)
	f.eNext = resizeInts(f.eNext, 0)
	f.eOf = resizeInts(f.eOf, 0)
	f.eHead = resizeInts(f.eHead, m)
	for i := range f.eHead {
		f.eHead[i] = -1
	}
	f.eVal = f.eVal[:0]

	// Row-wise copy, with a little room in each row for updates.
	f.urStart = resizeInts(f.urStart, m)
	f.urEnd = resizeInts(f.urEnd, m)
	f.urCap = resizeInts(f.urCap, m)
	cnt := f.urEnd
	clear(cnt)
	for _, i := range f.uIdx {
		cnt[i]++
	}
	total := 0
	for i := range m {
		f.urStart[i] = total
		total += cnt[i] + cnt[i]/4 + 2
		f.urCap[i] = total
		f.urEnd[i] = f.urStart[i]
	}
	f.urSlot = resizeInts(f.urSlot, total)
	if cap(f.urVal) < total {
		f.urVal = make([]float64, total)
	}
	f.urVal = f.urVal[:total]
	for k := range m {
		for t := f.uStart[k]; t < f.uEnd[k]; t++ {
			i := f.uIdx[t]
			f.urSlot[f.urEnd[i]] = k
			f.urVal[f.urEnd[i]] = f.uVal[t]
			f.urEnd[i]++
		}
	}

	f.buildRowL()
	if cap(f.visit) < m {
		f.visit = make([]int32, m)
	}
	f.visit = f.visit[:m]
	clear(f.visit)
	f.stamp = 0

	if f.ws == nil || len(f.ws.val) != m {
		f.ws = newSvec(m)
		f.spike = newSvec(m)
		f.zPos = newSvec(m)
		f.zRow = newSvec(m)
	}
	f.spike.clear()
	f.saveSpike = false
	f.zFor, f.zSaved = -1, -1
}

// buildRowL builds the row-wise pattern of the L etas.
func (f *luFactor) buildRowL() {
	m := f.m
	f.lrStart = resizeInts(f.lrStart, m+1)
	start := f.lrStart
	clear(start)
	for _, i := range f.lIdx {
		start[i+1]++
	}
	for i := range m {
		start[i+1] += start[i]
	}
	f.lrEta = resizeInts(f.lrEta, len(f.lIdx))
	fill := append(resizeInts(f.fill, 0), start[:m]...)
	f.fill = fill
	for e := range f.lPiv {
		for _, i := range f.lIdx[f.lStart[e]:f.lStart[e+1]] {
			f.lrEta[fill[i]] = e
			fill[i]++
		}
	}
	f.buildWork += 2 * len(f.lIdx)
}

// numSlots returns the number of slots, live and dead.
func (f *luFactor) numSlots() int { return len(f.pivRow) }

// The solves with L and Lᵀ and a sparse right-hand side find the etas
// they must apply by a search through the sparsity pattern that marks them
// in a bit set (markBits), then apply the marked ones in the order of the
// pass over all of them, read off the bit set. The others would only add
// zeros, so the result is the same, bit for bit, as that pass's, and the
// cost is that of the entries reached plus one word per 64 etas. (The
// solves with U take the topological order of a depth-first search
// instead, reachCol and reachRow.)

// nextStamp starts a new depth-first search over the slots.
func (f *luFactor) nextStamp() int32 {
	f.stamp++
	if f.stamp == math.MaxInt32 {
		clear(f.visit)
		f.stamp = 1
	}
	return f.stamp
}

// reachCol returns the slots reachable from the slots in seeds through U's
// columns (slot k → the slots of the rows of its column), in topological
// order (a slot before every slot it reaches): the order of the backward
// solve with U.
func (f *luFactor) reachCol(seeds []int) []int {
	st := f.nextStamp()
	post := f.post[:0]
	stack, it := f.stack[:0], f.stackIt[:0]
	// Locals: the compiler cannot keep fields of f in registers across
	// the stores to visit.
	visit, uStart, uEnd, uIdx, rowStep := f.visit, f.uStart, f.uEnd, f.uIdx, f.rowStep
	for _, k0 := range seeds {
		if visit[k0] == st {
			continue
		}
		visit[k0] = st
		stack = append(stack, k0)
		it = append(it, uStart[k0])
		for len(stack) > 0 {
			top := len(stack) - 1
			k := stack[top]
			pushed := false
			for p := it[top]; p < uEnd[k]; p++ {
				c := rowStep[uIdx[p]]
				if visit[c] != st {
					it[top] = p + 1
					visit[c] = st
					stack = append(stack, c)
					it = append(it, uStart[c])
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
	reverseInts(post)
	f.post = post
	return post
}

// reachRow is reachCol through U's rows (slot k → the slots of the entries
// of row pivRow[k]): the order of the forward solve with Uᵀ.
func (f *luFactor) reachRow(seeds []int) []int {
	st := f.nextStamp()
	post := f.post[:0]
	stack, it := f.stack[:0], f.stackIt[:0]
	visit, urStart, urEnd, urSlot, pivRow := f.visit, f.urStart, f.urEnd, f.urSlot, f.pivRow
	for _, k0 := range seeds {
		if visit[k0] == st {
			continue
		}
		visit[k0] = st
		stack = append(stack, k0)
		it = append(it, urStart[pivRow[k0]])
		for len(stack) > 0 {
			top := len(stack) - 1
			k := stack[top]
			pushed := false
			end := urEnd[pivRow[k]]
			for p := it[top]; p < end; p++ {
				c := urSlot[p]
				if visit[c] != st {
					it[top] = p + 1
					visit[c] = st
					stack = append(stack, c)
					it = append(it, urStart[pivRow[c]])
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
	reverseInts(post)
	f.post = post
	return post
}

func reverseInts(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// markBits returns the bit set for n etas or pivots, all clear.
func (f *luFactor) markBits(n int) []uint64 {
	w := (n + 63) >> 6
	if cap(f.bits) < w {
		f.bits = make([]uint64, w, 2*w)
	}
	// Every bit set is cleared as it is read, so the words past the old
	// length are clear too.
	f.bits = f.bits[:w]
	return f.bits
}

// markL marks the L etas that the rows in rows reach (the pivot row of
// eta e → the rows of its entries): the etas whose pivot value may be
// non-zero in ftranL.
func (f *luFactor) markL(rows []int) []uint64 {
	bits := f.markBits(len(f.lPiv))
	stack := f.stack[:0]
	for _, i := range rows {
		if e := f.lOfRow[i]; e >= 0 && bits[e>>6]&(1<<(e&63)) == 0 {
			bits[e>>6] |= 1 << (e & 63)
			stack = append(stack, e)
		}
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, i := range f.lIdx[f.lStart[e]:f.lStart[e+1]] {
			if c := f.lOfRow[i]; c >= 0 && bits[c>>6]&(1<<(c&63)) == 0 {
				bits[c>>6] |= 1 << (c & 63)
				stack = append(stack, c)
			}
		}
	}
	f.stack = stack[:0]
	return bits
}

// markLT marks the L etas that the rows in rows reach through the
// row-wise copy of L (row i → the etas with an entry in row i → their
// pivot rows): the etas whose gather may meet a non-zero in btranL.
func (f *luFactor) markLT(rows []int) []uint64 {
	bits := f.markBits(len(f.lPiv))
	stack := f.stack[:0]
	for t := 0; t < len(rows) || len(stack) > 0; {
		var i int
		if t < len(rows) {
			i = rows[t]
			t++
		} else {
			i = f.lPiv[stack[len(stack)-1]]
			stack = stack[:len(stack)-1]
		}
		for _, e := range f.lrEta[f.lrStart[i]:f.lrStart[i+1]] {
			if bits[e>>6]&(1<<(e&63)) == 0 {
				bits[e>>6] |= 1 << (e & 63)
				stack = append(stack, e)
			}
		}
	}
	f.stack = stack[:0]
	return bits
}

// ftranSpike is ftran that also keeps L⁻¹·b (through the row etas) for the
// next update: b must be the column entering the basis.
func (f *luFactor) ftranSpike(v *svec) {
	f.saveSpike = true
	f.ftranKind(v, solveColumn)
	f.saveSpike = false
}

// ftran solves B·x = b. On entry v holds b indexed by row; on return it
// holds x indexed by basis position.
func (f *luFactor) ftran(v *svec) { f.ftranKind(v, solveOther) }

// ftranKind is ftran for a solve of the given kind (see solveKind).
func (f *luFactor) ftranKind(v *svec, kind solveKind) {
	*v, *f.ws = *f.ws, *v
	in, out := f.ws, v // in: row space, consumed; out: position space
	b := in.val
	f.ftranL(in, f.hyperSparse(in.n, f.ftranDensity[kind]))
	f.ftranEtas(in)
	if f.saveSpike {
		sp := f.spike
		sp.clear()
		for _, i := range in.idx[:in.n] {
			if b[i] != 0 {
				sp.set(i, b[i])
			}
		}
	}
	// U backward.
	if f.hyperSparse(in.n, f.ftranDensity[kind]) {
		seeds := f.seeds[:0]
		for _, i := range in.idx[:in.n] {
			seeds = append(seeds, f.rowStep[i])
		}
		f.seeds = seeds
		for _, k := range f.reachCol(seeds) {
			f.ftranStep(k, b, out)
		}
	} else {
		f.etaWork += f.numSlots() - f.m
		// The zero test first, here: most slots meet a zero, and the call
		// would cost more than the test.
		pivRow, dead := f.pivRow, f.dead
		for k := len(pivRow) - 1; k >= 0; k-- {
			if b[pivRow[k]] != 0 && !dead[k] {
				f.ftranStep(k, b, out)
			}
		}
	}
	f.ftranDensity[kind] = f.meanDensity(f.ftranDensity[kind], out.n)
	in.clear()
}

// ftranL applies the L etas to b (in, by row), in order: all of them, or,
// when hyper, only those whose pivot row the non-zeros of b reach.
func (f *luFactor) ftranL(in *svec, hyper bool) {
	b := in.val
	if !hyper {
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
		return
	}
	marks := f.markL(in.idx[:in.n])
	for w := range marks {
		for marks[w] != 0 {
			bit := bits.TrailingZeros64(marks[w])
			marks[w] &^= 1 << bit
			e := w<<6 | bit
			x := b[f.lPiv[e]]
			if x == 0 {
				continue
			}
			for k := f.lStart[e]; k < f.lStart[e+1]; k++ {
				i := f.lIdx[k]
				in.add(i)
				b[i] -= f.lVal[k] * x
			}
		}
	}
}

// ftranEtas applies the row etas of the updates to b (in, by row). When b
// has few non-zeros against the etas' entries, only the etas that meet a
// non-zero are applied: those with an entry in a row that is non-zero on
// entry or becomes so at an earlier eta's pivot. The others would add
// zeros, so the result is the same, bit for bit, as the pass over all etas.
func (f *luFactor) ftranEtas(in *svec) {
	b := in.val
	if 2*in.n >= len(f.eIdx) {
		f.etaWork += len(f.ePiv) + len(f.eIdx)
		for e, p := range f.ePiv {
			s := b[p]
			for k := f.eStart[e]; k < f.eStart[e+1]; k++ {
				s += f.eVal[k] * b[f.eIdx[k]]
			}
			if s != b[p] {
				in.add(p)
				b[p] = s
			}
		}
		return
	}
	words := (len(f.ePiv) + 63) / 64
	if cap(f.etaMark) < words {
		f.etaMark = make([]uint64, words, 2*words)
	}
	mark := f.etaMark[:words]
	work := words
	for _, i := range in.idx[:in.n] {
		if b[i] == 0 {
			continue
		}
		for k := f.eHead[i]; k >= 0; k = f.eNext[k] {
			e := f.eOf[k]
			mark[e>>6] |= 1 << (e & 63)
			work++
		}
	}
	for w := range mark {
		for mark[w] != 0 {
			bit := bits.TrailingZeros64(mark[w])
			mark[w] &^= 1 << bit
			e := w<<6 | bit
			p := f.ePiv[e]
			s := b[p]
			for k := f.eStart[e]; k < f.eStart[e+1]; k++ {
				s += f.eVal[k] * b[f.eIdx[k]]
			}
			work += f.eStart[e+1] - f.eStart[e]
			if s == b[p] {
				continue
			}
			if b[p] == 0 {
				// Row p becomes non-zero: the later etas it meets apply.
				for k := f.eHead[p]; k >= 0 && f.eOf[k] > e; k = f.eNext[k] {
					e2 := f.eOf[k]
					mark[e2>>6] |= 1 << (e2 & 63)
					work++
				}
			}
			in.add(p)
			b[p] = s
		}
	}
	f.etaWork += work
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
	if k >= f.m {
		f.etaWork += f.uEnd[k] - f.uStart[k] // a column added by an update
	}
	lo, hi := f.uStart[k], f.uEnd[k]
	vals := f.uVal[lo:hi]
	for t, i := range f.uIdx[lo:hi] {
		b[i] -= vals[t] * x
	}
}

// btran solves Bᵀ·y = c. On entry v holds c indexed by basis position; on
// return y indexed by row.
func (f *luFactor) btran(v *svec) { f.btranKind(v, solveOther) }

// btranKind is btran for a solve of the given kind (see solveKind).
func (f *luFactor) btranKind(v *svec, kind solveKind) {
	*v, *f.ws = *f.ws, *v
	in, out := f.ws, v
	f.kind = kind
	f.btranU(in, out)
	f.kind = solveOther
	o := out.val
	if f.zFor >= 0 {
		// Keep U⁻ᵀ·e_r for the update of position r.
		z := f.zRow
		z.clear()
		for _, i := range out.idx[:out.n] {
			if o[i] != 0 {
				z.set(i, o[i])
			}
		}
		f.zSaved, f.zFor = f.zFor, -1
	}
	// Row etas, transposed, in reverse.
	f.etaWork += len(f.ePiv)
	for e := len(f.ePiv) - 1; e >= 0; e-- {
		x := o[f.ePiv[e]]
		if x == 0 {
			continue
		}
		f.etaWork += f.eStart[e+1] - f.eStart[e]
		for k := f.eStart[e]; k < f.eStart[e+1]; k++ {
			i := f.eIdx[k]
			out.add(i)
			o[i] += f.eVal[k] * x
		}
	}
	f.btranL(out, f.hyperSparse(out.n, f.btranDensity[kind]))
	f.btranDensity[kind] = f.meanDensity(f.btranDensity[kind], out.n)
}

// btranL applies Lᵀ, the L etas transposed in reverse order, to out (by
// row): all of them, or, when hyper, only those that the non-zeros of out
// reach through the row-wise pattern of L.
func (f *luFactor) btranL(out *svec, hyper bool) {
	o := out.val
	if !hyper {
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
		return
	}
	marks := f.markLT(out.idx[:out.n])
	for w := len(marks) - 1; w >= 0; w-- {
		for marks[w] != 0 {
			bit := 63 - bits.LeadingZeros64(marks[w])
			marks[w] &^= 1 << bit
			e := w<<6 | bit
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
}

// btranUnit is btran of the unit vector of position r (v must hold it),
// keeping the first stage, U⁻ᵀ·e_r, for an update of position r before any
// other update.
func (f *luFactor) btranUnit(v *svec, r int) {
	f.zFor = r
	f.btranKind(v, solveRow)
}

// btranU solves Uᵀ·z = c: in holds c by position (consumed, cleared), out
// receives z by row (it must be clear). Its choice of search follows the
// density of the results of the btran under way's kind (f.kind).
func (f *luFactor) btranU(in, out *svec) {
	c := in.val
	if f.hyperSparse(in.n, f.btranDensity[f.kind]) {
		seeds := f.seeds[:0]
		for _, q := range in.idx[:in.n] {
			seeds = append(seeds, f.posStep[q])
		}
		f.seeds = seeds
		for _, k := range f.reachRow(seeds) {
			f.btranStep(k, c, out)
		}
	} else {
		f.etaWork += f.numSlots() - f.m
		pivPos, dead := f.pivPos, f.dead
		for k := range pivPos {
			if c[pivPos[k]] != 0 && !dead[k] {
				f.btranStep(k, c, out)
			}
		}
	}
	in.clear()
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
	for t := f.urStart[p]; t < f.urEnd[p]; t++ {
		c[f.pivPos[f.urSlot[t]]] -= f.urVal[t] * x
	}
}

// update replaces the column in basis position r by the column of the last
// ftranSpike, whose FTRAN'd image alpha (by position) it is given. It
// reports false, leaving the factors unusable until the next factor, when
// the new pivot disagrees with α_r or is too small.
func (f *luFactor) update(r int, alpha *svec) bool {
	t := f.posStep[r]
	p := f.pivRow[t]
	dt := f.uDiag[t]

	// z = U⁻ᵀ·e_r: the old pivot row's entries in later slots are
	// eliminated by row p += dt·Σ z_i·(row i).
	z := f.zRow
	if f.zSaved != r {
		z.clear()
		f.zPos.set(r, 1)
		f.kind = solveRow
		f.btranU(f.zPos, z)
		f.kind = solveOther
	}
	f.zSaved = -1

	sp := f.spike
	newDiag := sp.val[p]
	for _, i := range z.idx[:z.n] {
		if i != p && z.val[i] != 0 {
			newDiag += dt * z.val[i] * sp.val[i]
		}
	}
	ar := alpha.val[r]
	want := ar * dt
	if math.Abs(newDiag-want) > ftCheck*max(1, math.Abs(want)) || math.Abs(newDiag) < luTiny {
		z.clear()
		sp.clear()
		f.nRefused++
		return false
	}

	// The row eta.
	for _, i := range z.idx[:z.n] {
		if i != p {
			if v := dt * z.val[i]; math.Abs(v) > luDrop {
				f.eNext = append(f.eNext, f.eHead[i])
				f.eHead[i] = len(f.eIdx)
				f.eOf = append(f.eOf, len(f.ePiv))
				f.eIdx = append(f.eIdx, i)
				f.eVal = append(f.eVal, v)
			}
		}
	}
	z.clear()
	if len(f.eIdx) > f.eStart[len(f.eStart)-1] {
		f.ePiv = append(f.ePiv, p)
		f.eStart = append(f.eStart, len(f.eIdx))
	}

	// Row p leaves U (its entries are in later slots' columns) …
	for a := f.urStart[p]; a < f.urEnd[p]; a++ {
		f.removeFromCol(f.urSlot[a], p)
	}
	f.urEnd[p] = f.urStart[p]
	// … and so does column t (its entries are in earlier slots' rows).
	for a := f.uStart[t]; a < f.uEnd[t]; a++ {
		f.removeFromRow(f.uIdx[a], t)
	}
	f.uNZ -= f.uEnd[t] - f.uStart[t]
	f.uEnd[t] = f.uStart[t]
	f.dead[t] = true

	// The spike becomes the last slot.
	k := len(f.pivRow)
	f.pivRow = append(f.pivRow, p)
	f.pivPos = append(f.pivPos, r)
	f.uDiag = append(f.uDiag, newDiag)
	f.dead = append(f.dead, false)
	f.uStart = append(f.uStart, len(f.uIdx))
	for _, i := range sp.idx[:sp.n] {
		if v := sp.val[i]; i != p && math.Abs(v) > luDrop {
			f.uIdx = append(f.uIdx, i)
			f.uVal = append(f.uVal, v)
			f.appendToRow(i, k, v)
		}
	}
	f.uEnd = append(f.uEnd, len(f.uIdx))
	f.uNZ += f.uEnd[k] - f.uStart[k]
	f.rowStep[p] = k
	f.posStep[r] = k
	f.visit = append(f.visit, 0)
	sp.clear()
	f.updates++
	return true
}

// removeFromCol deletes the entry of row i from the U column of slot k.
func (f *luFactor) removeFromCol(k, i int) {
	for a := f.uStart[k]; a < f.uEnd[k]; a++ {
		if f.uIdx[a] == i {
			last := f.uEnd[k] - 1
			f.uIdx[a], f.uVal[a] = f.uIdx[last], f.uVal[last]
			f.uEnd[k] = last
			f.uNZ--
			return
		}
	}
}

// removeFromRow deletes the entry of slot k from the row-wise copy of row i.
func (f *luFactor) removeFromRow(i, k int) {
	for a := f.urStart[i]; a < f.urEnd[i]; a++ {
		if f.urSlot[a] == k {
			last := f.urEnd[i] - 1
			f.urSlot[a], f.urVal[a] = f.urSlot[last], f.urVal[last]
			f.urEnd[i] = last
			return
		}
	}
}

// appendToRow adds the entry (slot k, v) to the row-wise copy of row i,
// moving the row to the end of the storage when it is full.
func (f *luFactor) appendToRow(i, k int, v float64) {
	if f.urEnd[i] == f.urCap[i] {
		n := f.urEnd[i] - f.urStart[i]
		start := len(f.urSlot)
		f.urSlot = append(f.urSlot, f.urSlot[f.urStart[i]:f.urEnd[i]]...)
		f.urVal = append(f.urVal, f.urVal[f.urStart[i]:f.urEnd[i]]...)
		room := n + 4
		for range room {
			f.urSlot = append(f.urSlot, 0)
			f.urVal = append(f.urVal, 0)
		}
		f.urStart[i], f.urEnd[i], f.urCap[i] = start, start+n, start+2*n+4
	}
	f.urSlot[f.urEnd[i]] = k
	f.urVal[f.urEnd[i]] = v
	f.urEnd[i]++
}
