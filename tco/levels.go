package tco

import (
	"math"
	"slices"
	"sort"
)

// index fills the demand's sorted peaks, rises, levels and first rises
// from its slices: sortIndex's arrays, computed from one ordering of the
// peaks (a radix sort of their bits) instead of five sorts and a binary
// search per rise. Peaks of −0 (which compare equal to 0, so that a sort
// may put either first) take sortIndex itself.
func (d *demand) index() {
	n := len(d.slices)
	pk := make([]float64, n)
	for i, s := range d.slices {
		if math.Signbit(s.Peak) || math.IsNaN(s.Peak) {
			d.sortIndex()
			return
		}
		pk[i] = s.Peak
	}
	order := argsortNonNegative(pk)
	prev := func(i int) int { // the slice before i, −1 for none
		switch {
		case i > 0:
			return i - 1
		case d.circular:
			return n - 1
		}
		return -1
	}
	rises := func(i int) bool {
		if j := prev(i); j >= 0 {
			return pk[i] > pk[j]
		}
		return pk[i] > -1
	}
	nRises, nLevels := 0, 0
	for i := range n {
		if rises(i) {
			nRises++
		}
	}
	for r, i := range order {
		if r == 0 || pk[i] != pk[order[r-1]] {
			nLevels++
		}
	}
	d.peaks = make([]float64, n)
	d.levels = make([]float64, 0, nLevels)
	if nRises > 0 {
		d.riseFrom, d.riseTo = make([]float64, 0, nRises), make([]float64, 0, nRises)
	}
	levelOf := make([]int32, n)
	if !d.circular && rises(0) {
		d.riseFrom = append(d.riseFrom, -1)
	}
	for r, i := range order {
		v := pk[i]
		d.peaks[r] = v
		if len(d.levels) == 0 || d.levels[len(d.levels)-1] != v {
			d.levels = append(d.levels, v)
		}
		levelOf[i] = int32(len(d.levels) - 1)
		if rises(int(i)) {
			d.riseTo = append(d.riseTo, v)
		}
		next := int(i) + 1
		if next == n && d.circular {
			next = 0
		}
		if next < n && rises(next) {
			d.riseFrom = append(d.riseFrom, v)
		}
	}
	d.firstRise = make([]int, len(d.levels))
	for j := range d.firstRise {
		d.firstRise[j] = -1
	}
	unassigned := newLevelForest(len(d.levels))
	for i := range n {
		if !rises(i) {
			continue
		}
		lo := 0 // the first level above the previous slice's peak
		if j := prev(i); j >= 0 {
			lo = int(levelOf[j]) + 1
		}
		for j := unassigned.find(lo); j <= int(levelOf[i]); j = unassigned.find(j) {
			d.firstRise[j] = i
			unassigned.next[j] = j + 1
		}
	}
}

// levelForest is a disjoint-set forest over levels 0…n: find(j) is the
// first level ≥ j not yet assigned (n when none is), with path compression.
type levelForest struct{ next []int }

func newLevelForest(n int) levelForest {
	f := levelForest{next: make([]int, n+1)}
	for j := range f.next {
		f.next[j] = j
	}
	return f
}

func (f levelForest) find(j int) int {
	root := j
	for f.next[root] != root {
		root = f.next[root]
	}
	for f.next[j] != root {
		f.next[j], j = root, f.next[j]
	}
	return root
}

// argsortNonNegative returns the indices of v (numbers ≥ +0, none −0 or
// NaN, fewer than 2³¹) in ascending order of value, ties in index order: an
// LSD radix sort of the values' bits, which order such numbers as their
// values do, skipping the bytes every value shares.
func argsortNonNegative(v []float64) []int32 {
	n := len(v)
	idx, tmp := make([]int32, n), make([]int32, n)
	keys, ktmp := make([]uint64, n), make([]uint64, n)
	for i, x := range v {
		idx[i], keys[i] = int32(i), math.Float64bits(x)
	}
	if n < 2 {
		return idx
	}
	var count [256]int
	for shift := 0; shift < 64; shift += 8 {
		clear(count[:])
		for _, k := range keys {
			count[(k>>shift)&0xff]++
		}
		if count[(keys[0]>>shift)&0xff] == n {
			continue // every key has this byte
		}
		sum := 0
		for b, c := range count {
			count[b], sum = sum, sum+c
		}
		for i, k := range keys {
			b := (k >> shift) & 0xff
			p := count[b]
			count[b]++
			ktmp[p], tmp[p] = k, idx[i]
		}
		keys, ktmp = ktmp, keys
		idx, tmp = tmp, idx
	}
	return idx
}

// sortIndex is index the straightforward way: the peaks and the rises
// collected chronologically, then sorted, and the first rise of each level
// found from a binary search of the level a rise starts above.
func (d *demand) sortIndex() {
	sl, n := d.slices, len(d.slices)
	d.peaks = make([]float64, n)
	d.riseFrom, d.riseTo, d.levels, d.firstRise = nil, nil, nil, nil
	var riseAt []int
	for i, s := range sl {
		d.peaks[i] = s.Peak
		prev := -1.0
		switch {
		case i > 0:
			prev = sl[i-1].Peak
		case d.circular:
			prev = sl[n-1].Peak
		}
		if s.Peak > prev {
			d.riseFrom = append(d.riseFrom, prev)
			d.riseTo = append(d.riseTo, s.Peak)
			riseAt = append(riseAt, i)
		}
	}
	d.firstRises(riseAt)
	slices.Sort(d.peaks)
	slices.Sort(d.riseFrom)
	slices.Sort(d.riseTo)
}

// firstRises fills levels and firstRise from the rises, in chronological
// order, that start at the slices riseAt (riseFrom and riseTo not sorted
// yet): each level takes the first rise that covers it, found with a
// disjoint-set forest (path compression) over the levels still unassigned,
// so that each level is assigned once: O((rises + levels) · log levels) at
// worst, and for the prepared workload, not for each offer.
func (d *demand) firstRises(riseAt []int) {
	d.levels = slices.Clone(d.peaks)
	slices.Sort(d.levels)
	d.levels = slices.Compact(d.levels)
	d.firstRise = make([]int, len(d.levels))
	next := make([]int, len(d.levels)+1) // next[j]: the first unassigned level ≥ j
	for j := range next {
		next[j] = j
	}
	find := func(j int) int {
		root := j
		for next[root] != root {
			root = next[root]
		}
		for next[j] != root { // path compression
			next[j], j = root, next[j]
		}
		return root
	}
	for j := range d.firstRise {
		d.firstRise[j] = -1
	}
	for r, at := range riseAt {
		from, to := d.riseFrom[r], d.riseTo[r]
		lo := sort.Search(len(d.levels), func(j int) bool { return d.levels[j] > from })
		for j := find(lo); j < len(d.levels) && d.levels[j] <= to; j = find(j) {
			d.firstRise[j] = at
			next[j] = j + 1
		}
	}
}
