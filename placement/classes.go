package placement

import (
	"encoding/binary"
	"math"
)

// sliceClasses groups the slices of pool pl that the model cannot tell
// apart: slices of one stretch with the same length and, for every
// workload of the pool but its gangs and the jobs whose every use is
// aggregated (perSlice), the same repetitions and (for a service) the same
// demand. Every row of the model over one such slice is
// a copy of the row over another (the gangs' holdings and the node counts
// are the stretch's), and every sum over slices weighs their uses alike,
// so the model is symmetric under any permutation of a class: averaging an
// optimal point over the class keeps every row and the cost, and gives an
// optimum whose uses are equal across it. The model therefore keeps one
// slice per class, its first, with its uses' costs, work and hours counted
// mult times (the class's size): an exact reduction. rep[t] is the first
// slice of t's class, mult[t] the class's size at its first slice (0
// elsewhere). Only with the reductions on (in.reduce); otherwise every
// slice is its own class. Without planning over time there is one stretch:
// diurnal services over a week of hourly slices repeat every day, so a
// day's slices merge with those of every other day that no job's deadline
// tells apart.
func (in *instance) sliceClasses(pl pool) (rep []int, mult []float64) {
	if in.classes != nil { // a coarse relaxation's (coarse.go)
		return in.classes.rep, in.classes.mult
	}
	T := len(in.hours)
	rep, mult = make([]int, T), make([]float64, T)
	for t := range rep {
		rep[t], mult[t] = t, 1
	}
	if !in.reduce {
		return rep, mult
	}
	var ws []*wdata
	for _, w := range pl.ws {
		if wd := &in.ws[w]; !wd.gang && in.perSlice(w) {
			ws = append(ws, wd)
		}
	}
	first := map[string]int{}
	key := make([]byte, 0, 8*(2+2*len(ws)))
	put := func(v float64) { key = binary.LittleEndian.AppendUint64(key, math.Float64bits(v+0)) }
	for t := range T {
		key = key[:0]
		put(float64(in.seg[t]))
		put(in.hours[t])
		for _, wd := range ws {
			put(wd.reps[t])
			if wd.service {
				put(wd.demand[t])
			}
		}
		if r, ok := first[string(key)]; ok {
			rep[t], mult[t] = r, 0
			mult[r]++
			continue
		}
		first[string(key)] = t
	}
	return rep, mult
}

// perSlice reports whether workload w has use columns per slice in the
// model: a service always, a job unless every use it has is one aggregated
// column of GPU-hours (aggregated). A job without them enters no row or
// column of a slice — its work, width over the horizon and costs are sums
// over every slice of the period (jobHours), whatever the classes — so its
// repetitions tell no slices apart.
func (in *instance) perSlice(w int) bool {
	wd := &in.ws[w]
	if wd.service {
		return true
	}
	agg := in.aggregated(w)
	for _, q := range in.active(w) {
		if !agg[q] {
			return true
		}
	}
	return false
}
