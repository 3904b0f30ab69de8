package placement

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
)

// coarseGroup is how many classes of slices of a stretch (sliceClasses)
// the coarse relaxation merges into one, at most: a week of hourly slices
// that are all apart becomes a day's; a day's hours (a week's whose days
// are alike) become four slices.
const coarseGroup = 7

// coarseMinCols is the least number of columns of a pool's model for which
// Solve first solves the coarse relaxation (coarse) for an early bound:
// below it the model's own relaxation comes soon enough.
const coarseMinCols = 100_000

// classes overrides sliceClasses for a coarse relaxation.
type classes struct {
	rep  []int
	mult []float64
}

// coarse returns an instance whose model of pool pl is a relaxation of in's
// — every point of in's model, averaged over the coarse classes, is a
// point of it at no higher cost — with fewer slices: within a stretch, the
// classes of sliceClasses that every job weighs alike (same repetitions)
// and that have the same length are sorted by the services' total demand
// and merged, up to coarseGroup classes at a time. A merged class keeps its
// first slice with, for each service, the class's mean demand (the
// average of a point's uses over the class meets it, and keeps every
// capacity, stock and width row, which hold slice by slice) and the least
// repetitions of its slices (a use's cost, hours and spot weight are then
// no more than the slices' together, costs being ≥ 0). So the coarse
// model's optimum, and its relaxation's, are lower bounds of in's. Nil when
// merging is not valid or gains nothing: a spot share limit (its row's
// right-hand side sums the demand), a service with a negative use cost, or
// fewer than half the classes merged away.
func (in *instance) coarse(pl pool) *instance {
	if !in.reduce || in.s.MaxSpotShare > 0 {
		return nil
	}
	rep, mult := in.sliceClasses(pl)
	var svcs, jobs []int
	for _, w := range pl.ws {
		wd := &in.ws[w]
		switch {
		case wd.service:
			for _, q := range wd.pairs {
				if in.pairs[q].cost < 0 {
					return nil
				}
			}
			svcs = append(svcs, w)
		case !wd.gang:
			jobs = append(jobs, w)
		}
	}
	// groups of exact classes (their first slices) that may merge: same
	// stretch, length and job repetitions, and for each service whether it
	// has demand there.
	groups := map[string][]int{}
	var order []string
	key := make([]byte, 0, 8*(2+len(jobs))+len(svcs))
	for t := range rep {
		if rep[t] != t {
			continue
		}
		key = key[:0]
		key = binary.LittleEndian.AppendUint64(key, uint64(in.seg[t]))
		key = binary.LittleEndian.AppendUint64(key, math.Float64bits(in.hours[t]+0))
		for _, w := range jobs {
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(in.ws[w].reps[t]+0))
		}
		for _, w := range svcs {
			wd := &in.ws[w]
			b := byte(0)
			if wd.demand[t] > 0 {
				b = 1
			}
			if wd.reps[t] > 0 {
				b |= 2
			}
			key = append(key, b)
		}
		k := string(key)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], t)
	}
	total := func(t int) float64 {
		s := 0.0
		for _, w := range svcs {
			s += in.ws[w].demand[t]
		}
		return s
	}
	crep, cmult := slices.Clone(rep), slices.Clone(mult)
	// members[r] are the exact classes merged into the coarse class of r.
	members := map[int][]int{}
	before, after := 0, 0
	for _, k := range order {
		ts := groups[k]
		before += len(ts)
		slices.SortStableFunc(ts, func(a, b int) int { return cmp.Compare(total(a), total(b)) })
		for i := 0; i < len(ts); {
			n, j := mult[ts[i]], i+1
			for j < len(ts) && j-i < coarseGroup {
				n += mult[ts[j]]
				j++
			}
			// The class's slice is its earliest (the model's columns and rows
			// are at a class's first slice).
			r := slices.Min(ts[i:j])
			members[r] = slices.Clone(ts[i:j])
			for _, t := range ts[i:j] {
				cmult[t] = 0
			}
			cmult[r] = n
			after++
			i = j
		}
	}
	if after*2 > before {
		return nil
	}
	for r, ms := range members {
		for _, m := range ms {
			crep[m] = r
		}
	}
	for t := range crep {
		crep[t] = crep[rep[t]]
	}
	cp := *in
	cp.ws = slices.Clone(in.ws)
	for _, w := range svcs {
		wd := &cp.ws[w]
		wd.demand, wd.reps = slices.Clone(wd.demand), slices.Clone(wd.reps)
		for r, ms := range members {
			d, least := 0.0, math.Inf(1)
			for _, m := range ms {
				d += in.ws[w].demand[m] * mult[m]
				least = min(least, in.ws[w].reps[m])
			}
			wd.demand[r], wd.reps[r] = d/cmult[r], least
		}
	}
	cp.classes = &classes{rep: crep, mult: cmult}
	return &cp
}
