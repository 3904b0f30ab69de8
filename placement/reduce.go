package placement

import (
	"cmp"
	"math"
	"slices"
)

// The model's exact reductions. Each leaves the optimum unchanged: a
// dominated pair or offer is one whose use moves elsewhere at no higher
// cost, keeping every constraint, so some optimum never uses it; an
// aggregated or shared use is a projection of the full model's columns
// that every solution of the smaller model lifts back to; a commitment that
// others make at no more cost has no column. TestReductionsExact,
// TestReductionsShared and TestReductionsChains check them against the full
// model (Options unchanged, reduce off).

// pruneOffers marks the committed offers that another dominates, with their
// pairs, when the plan is not over time (one commitment per offer).
func (in *instance) pruneOffers() {
	if len(in.segs) != 1 {
		return
	}
	for b := range in.os {
		for a := range in.os {
			if a != b && !in.os[a].dominated && in.dominatesOffer(a, b) {
				in.os[b].dominated = true
				for _, q := range in.os[b].pairs {
					in.pairs[q].dominated = true
				}
				break
			}
		}
	}
}

// dominatesOffer reports whether committed offer a makes committed offer b
// useless: a has no stock limit, nodes of as many GPUs, a fixed cost per
// node no higher, no per-offer cost (or a credit) where b has none dearer,
// and every workload that can use b can use a at no higher cost per unit
// of work, no higher one-off cost, at least as fast, and not interruptible
// where b is not under a spot share. Then moving b's nodes to a (n_a + n_b
// nodes) and every use of b to a (a job's at its speed on a: no more GPUs)
// keeps every constraint and costs no more. Ties keep the first offer; the
// relation is transitive, so every offer
// left out has a dominating offer in the model.
func (in *instance) dominatesOffer(a, b int) bool {
	oa, ob := &in.os[a], &in.os[b]
	if !oa.committed || !ob.committed || !math.IsInf(oa.stock, 1) || oa.gpn != ob.gpn || len(ob.pairs) == 0 ||
		oa.perOfferF > 0 || ob.perOfferF < 0 {
		return false
	}
	if in.s.MaxSpotShare > 0 && oa.spot && !ob.spot {
		return false
	}
	strict := oa.fixedF < ob.fixedF || ob.perOfferF > 0 || oa.perOfferF < 0
	if oa.fixedF > ob.fixedF {
		return false
	}
	for _, qb := range ob.pairs {
		pb := &in.pairs[qb]
		wd := &in.ws[pb.w]
		if wd.gang {
			return false
		}
		qa := -1
		for _, q := range wd.pairs {
			if in.pairs[q].k == a {
				qa = q
				break
			}
		}
		if qa < 0 {
			return false
		}
		pa := &in.pairs[qa]
		ca, cb := pa.cost, pb.cost
		if !wd.service {
			if pa.rate < pb.rate {
				return false
			}
			ca, cb = pa.cost/pa.rate, pb.cost/pb.rate
			strict = strict || pa.rate > pb.rate
		}
		if ca > cb || pa.oneOff > pb.oneOff {
			return false
		}
		strict = strict || ca < cb || pa.oneOff < pb.oneOff
	}
	return strict || oa.idx < ob.idx
}

// aggregated returns the pairs of job w whose use the model keeps as one
// column of GPU-hours: its pairs on unlimited pay-as-you-go capacity. Such
// a use meets no capacity or stock row, and its cost, work, one-off link
// and spot share are all proportional to its GPU-hours Σ_t Δ_t·r_wt·x_wkt;
// what ties it to the slices is only the job's width in the slices its
// offer exists in (t ≥ from_k). So the columns x_wkt of these pairs become
// one h_wk each, with for each from f of the aggregated offers
//
//	Σ_{k agg: from_k ≥ f} h_wk + Σ_{t ≥ f} Δ_t·r_wt·Σ_{k other} x_wkt ≤ GPUs_w·Σ_{t ≥ f} Δ_t·r_wt,
//
// and every solution lifts back: the sets of slices the aggregated pairs
// may use are nested, so those that exist latest spread their GPU-hours
// first over the width the other pairs leave in the slices they exist in,
// in proportion to it, then the next latest over what is left, which the
// row of their from leaves room for (spread).
func (in *instance) aggregated(w int) map[int]bool {
	wd := &in.ws[w]
	if !in.reduce || wd.service || wd.gang {
		return nil
	}
	agg := map[int]bool{}
	for _, q := range in.active(w) {
		od := &in.os[in.pairs[q].k]
		// A pair whose offer arrives after the job's last slice carries
		// nothing: no column (its upper bound, and the scale of its one-off
		// link, would be zero).
		if od.committed || !math.IsInf(od.stock, 1) || in.jobHours(w, od.from) <= 0 {
			continue
		}
		agg[q] = true
	}
	return agg
}

// jobHours is Σ_{t ≥ from} Δ_t·r_wt of job w.
func (in *instance) jobHours(w, from int) float64 {
	wd := &in.ws[w]
	h := 0.0
	for t := from; t < len(in.hours); t++ {
		h += in.hours[t] * wd.reps[t]
	}
	return h
}

// spread lifts the aggregated uses of a MILP point x back to GPUs per
// slice: the width a job's other pairs leave in each slice is its room;
// its aggregated pairs, those whose offers exist latest first, fill the
// room of the slices they exist in in proportion to it (so no slice goes
// above the width), shared among the pairs of one from by their
// GPU-hours, and leave the rest to the next. Pairs without use are left
// out.
func (pm *poolModel) spread(in *instance, x []float64) map[int][]float64 {
	out := map[int][]float64{}
	T := len(in.hours)
	for _, w := range pm.pl.ws {
		wd := &in.ws[w]
		var hs []int
		for _, q := range in.active(w) {
			if _, ok := pm.hCol[q]; ok {
				hs = append(hs, q)
			}
		}
		if len(hs) == 0 {
			continue
		}
		from := func(q int) int { return in.os[in.pairs[q].k].from }
		slices.SortStableFunc(hs, func(a, b int) int { return from(b) - from(a) })
		slack := make([]float64, T)
		for t := range T {
			if wd.reps[t] <= 0 {
				continue
			}
			s := wd.width
			for _, q := range in.active(w) {
				if j := pm.xCol[q][pm.rep[t]]; j >= 0 {
					s -= x[j]
				}
			}
			slack[t] = max(0, s)
		}
		for i := 0; i < len(hs); {
			f := from(hs[i])
			e, need := i, 0.0
			for ; e < len(hs) && from(hs[e]) == f; e++ {
				need += max(0, x[pm.hCol[hs[e]]])
			}
			if need <= 1e-12 {
				i = e
				continue
			}
			room := 0.0
			for t := f; t < T; t++ {
				room += in.hours[t] * wd.reps[t] * slack[t]
			}
			fill := slack
			if room <= 0 { // within tolerances only: spread over the whole width
				fill, room = make([]float64, T), 0
				for t := f; t < T; t++ {
					if wd.reps[t] > 0 {
						fill[t] = wd.width
						room += in.hours[t] * wd.reps[t] * wd.width
					}
				}
			}
			take := make([]float64, T)
			for t := f; t < T; t++ {
				take[t] = fill[t] * need / room
			}
			divide(out, hs[i:e], pm.hCol, x, take, need, f)
			for t := f; t < T; t++ {
				slack[t] = max(0, slack[t]-take[t])
			}
			i = e
		}
	}
	return out
}

// shared returns the pairs of service w whose uses the model keeps as one
// column per slice, the first pair's (its representative: of those that
// exist earliest, the cheapest), and a column of GPU-hours for each other
// pair: its pairs on pay-as-you-go capacity of unlimited stock, not
// interruptible under a spot share, when there are at least two. nil
// otherwise.
//
// Such a use x_wkt meets only the service's demand row of slice t (no
// capacity or stock row, no spot share), with the same upper bound (the
// slice's demand) on every such offer; its cost and its one-off link are
// sums over the slices of H_t·x_wkt (H_t = Δ_t·r_wt·mult_t) times the
// pair's cost per GPU-hour and 1/big. So with u_t = Σ_k x_wkt (the
// representative's column x_w1t) and v_k = Σ_t H_t·x_wkt for every other
// pair k of the group (its column of GPU-hours, cost c_k − c_1), the
// model's rows are those of u and v: the demand rows take u_t, the link
// of pair k takes v_k, the representative's link takes Σ_t H_t·u_t − Σ_k
// v_k (v_1, its own GPU-hours), the cost is c_1·Σ_t H_t·u_t + Σ_k
// (c_k − c_1)·v_k, and
//
//	Σ_{k: from_k ≥ f} v_k ≤ Σ_{t ≥ f} H_t·u_t   for each from f of the pairs k
//
// (sharing rows) say the GPU-hours of the pairs that exist only from f fit
// in the group's use from f. Every point of the full model projects to one
// of the same cost; every point of the smaller model lifts back to one
// (share): the sets of slices the pairs may use are nested (t ≥ from_k),
// so the latest pairs take their GPU-hours from the slices they exist in,
// in proportion to what is left there, then the next latest, which the
// sharing row of each from leaves room for, and the representative keeps
// the rest. Neither keeps any row out of reach nor changes the cost, so the
// optimum (and that of the relaxation, y continuous) is the full model's.
func (in *instance) shared(w int) []int {
	wd := &in.ws[w]
	if !in.reduce || !wd.service {
		return nil
	}
	var qs []int
	for _, q := range in.active(w) {
		od := &in.os[in.pairs[q].k]
		if od.committed || !math.IsInf(od.stock, 1) || od.spot && in.s.MaxSpotShare > 0 {
			continue
		}
		qs = append(qs, q)
	}
	if len(qs) < 2 {
		return nil
	}
	first := 0
	for i, q := range qs {
		a, b := &in.os[in.pairs[q].k], &in.os[in.pairs[qs[first]].k]
		if a.from < b.from || a.from == b.from && in.pairs[q].cost < in.pairs[qs[first]].cost {
			first = i
		}
	}
	qs[0], qs[first] = qs[first], qs[0]
	return qs
}

// share lifts the shared uses of a MILP point x back to GPUs per slice of
// each pair of the group (see shared): the pairs in order of their from,
// latest first, take their GPU-hours from the group's use left in the
// slices they exist in, in proportion to it; the representative keeps
// what is left. Every slice's uses sum to the group's use there. Only
// pairs with use are in the map.
func (pm *poolModel) share(in *instance, x []float64) map[int][]float64 {
	out := map[int][]float64{}
	T := len(in.hours)
	for rq, grp := range pm.groups {
		wd := &in.ws[in.pairs[rq].w]
		xs := pm.xCol[rq]
		left := make([]float64, T) // the group's use left, by class slice
		for t, j := range xs {
			if j >= 0 {
				left[t] = max(0, x[j])
			}
		}
		weight := func(t int) float64 { return in.hours[t] * wd.reps[t] * pm.mult[t] }
		members := slices.Clone(grp[1:])
		slices.SortStableFunc(members, func(a, b int) int {
			return in.os[in.pairs[b].k].from - in.os[in.pairs[a].k].from
		})
		for i := 0; i < len(members); {
			f := in.os[in.pairs[members[i]].k].from
			e := i
			need := 0.0
			for ; e < len(members) && in.os[in.pairs[members[e]].k].from == f; e++ {
				need += max(0, x[pm.vCol[members[e]]])
			}
			room := 0.0
			for t := f; t < T; t++ {
				if xs[t] >= 0 {
					room += weight(t) * left[t]
				}
			}
			if need > 1e-12 && room > 0 {
				take := make([]float64, T)
				for t := f; t < T; t++ {
					take[t] = left[t] * min(1, need/room)
				}
				divide(out, members[i:e], pm.vCol, x, take, need, f)
				for t := f; t < T; t++ {
					left[t] -= take[t]
				}
			}
			i = e
		}
		out[rq] = left
	}
	// Every slice of a class has its first slice's use.
	for q, u := range out {
		for t := range u {
			u[t] = u[pm.rep[t]]
		}
		any := false
		for _, v := range u {
			any = any || v > 1e-12
		}
		if !any {
			delete(out, q)
		}
	}
	return out
}

// divide gives each pair q of qs with use v = x[col[q]] above 1e-12 its
// share v/need of take, the GPUs per slice that the pairs take together
// (need their uses' sum), from slice f on (spread, share).
func divide(out map[int][]float64, qs []int, col map[int]int, x, take []float64, need float64, f int) {
	for _, q := range qs {
		v := max(0, x[col[q]])
		if v <= 1e-12 {
			continue
		}
		u := make([]float64, len(take))
		for t := f; t < len(take); t++ {
			u[t] = take[t] * v / need
		}
		out[q] = u
	}
}

// markChains marks the commitments of cs that others make at no more
// cost, so that the model buys each capacity one way: its optimum is the
// same without them, and its branch and bound is not left to explore every
// way to buy the same nodes (a quarter of monthly rentals as one
// commitment, as a month and two, and as three months). A commitment e is
// marked when one other f covers every stretch e covers for no more than e
// costs and holds no stretch against the stock that e does not (limited: a
// stock to hold against; without one f may start before e), or when two
// others chain to it: c from e's first stretch to where d starts, paying
// for no tail past them, and d to e's last stretch with e's tail, for no
// more than e costs together. Nodes of e are then nodes of f, or of c and
// d: capacity in every stretch e covers, held against the stock in no
// stretch e is not, for no more cost. The witnesses f, c and d are taken
// only among the commitments not yet marked, the longest tried first, so
// that the commitments left unmarked still make every one marked.
func markChains(cs []commit, limited bool) {
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cs[b].last-cs[b].first, cs[a].last-cs[a].first) })
	for _, e := range order {
		ce := &cs[e]
		for f := range cs {
			cf := &cs[f]
			if f == e || cf.chain || cf.first > ce.first || cf.last < ce.last || cf.fixed.GreaterThan(ce.fixed) {
				continue
			}
			if !limited || cf.first == ce.first && cf.paid <= ce.paid {
				ce.chain = true
				break
			}
		}
		for c := range cs {
			cc := &cs[c]
			if ce.chain {
				break
			}
			if c == e || cc.chain || cc.first != ce.first || cc.last >= ce.last || cc.paid != cc.last {
				continue
			}
			for d := range cs {
				cd := &cs[d]
				if d == e || cd.chain || cd.first != cc.last+1 || cd.last != ce.last || cd.paid != ce.paid {
					continue
				}
				if cc.fixed.Add(cd.fixed).LessThanOrEqual(ce.fixed) {
					ce.chain = true
					break
				}
			}
		}
	}
}
