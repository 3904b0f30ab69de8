package placement

import (
	"math"
	"slices"

	"github.com/gputco/gputco/placement/internal/merit"
)

// pool is a set of workloads and the offers they can use, sharing no offer
// with any other pool (unless a budget couples them all into one).
type pool struct {
	ws []int // indices in instance.ws, ascending
	os []int // indices in instance.os, ascending
}

// pools partitions the placeable workloads into pools: two workloads are in
// one pool when a chain of shared offers links them. A budget makes one
// pool of everything. Pools are ordered by their first workload.
func (in *instance) pools() []pool {
	parent := make([]int, len(in.ws))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) {
		a, b = find(a), find(b)
		if a < b {
			parent[b] = a
		} else if b < a {
			parent[a] = b
		}
	}
	for _, od := range in.os {
		if len(od.pairs) == 0 {
			continue // its workloads were unplaced
		}
		for _, pi := range od.pairs[1:] {
			union(in.pairs[od.pairs[0]].w, in.pairs[pi].w)
		}
	}
	if !in.s.Budget.IsZero() {
		for i := range in.ws {
			union(0, i)
		}
	}
	at := map[int]int{}
	var ps []pool
	for i := range in.ws {
		r := find(i)
		j, ok := at[r]
		if !ok {
			j = len(ps)
			at[r] = j
			ps = append(ps, pool{})
		}
		ps[j].ws = append(ps[j].ws, i)
	}
	for pi := range ps {
		seen := map[int]bool{}
		for _, w := range ps[pi].ws {
			for _, q := range in.ws[w].pairs {
				if k := in.pairs[q].k; !seen[k] {
					seen[k] = true
					ps[pi].os = append(ps[pi].os, k)
				}
			}
		}
		slices.Sort(ps[pi].os)
	}
	return ps
}

// fastPath reports whether pool pl is one service with nothing coupling
// its offers beyond the demand — no spot share, no budget, no per-offer
// costs, one stretch of time — so that the merit-order programme solves it.
func (in *instance) fastPath(pl pool) bool {
	if len(pl.ws) != 1 || !in.ws[pl.ws[0]].service || in.s.MaxSpotShare > 0 || !in.s.Budget.IsZero() || len(in.segs) > 1 {
		return false
	}
	for _, k := range pl.os {
		if in.os[k].perOfferF != 0 {
			return false
		}
	}
	return true
}

// meritProblem is the single-service pool as a merit problem: its offers in
// the order of the workload's pairs, GPUs per slice, slices weighted by
// their repetitions.
func (in *instance) meritProblem(pl pool) merit.Problem {
	wd := &in.ws[pl.ws[0]]
	mp := merit.Problem{DemandGPUs: wd.demand, Hours: make([]float64, len(wd.demand))}
	for t := range mp.Hours {
		mp.Hours[t] = in.hours[t] * wd.reps[t]
	}
	for _, q := range wd.pairs {
		pr := &in.pairs[q]
		od := &in.os[pr.k]
		mo := merit.Offer{VariablePerGPUHour: pr.cost, LimitGPUs: math.Inf(1)}
		if !math.IsInf(od.stock, 1) {
			mo.LimitGPUs = od.stock * od.gpn
		}
		if od.committed {
			mo.FixedPerGPU = od.fixedF / od.gpn
			mo.NodeGPUs = od.gpn
		}
		mp.Offers = append(mp.Offers, mo)
	}
	return mp
}
