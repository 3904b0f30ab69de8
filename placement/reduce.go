package placement

import "math"

// The model's exact reductions. Each leaves the optimum unchanged: a
// dominated pair or offer is one whose use moves elsewhere at no higher
// cost, keeping every constraint, so some optimum never uses it; an
// aggregated use is a projection of the full model's columns that every
// solution of the smaller model lifts back to. TestReductionsExact checks
// them against the full model (Options unchanged, reduce off).

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
// column of GPU-hours: its pairs on unlimited pay-as-you-go capacity, when
// they all exist from the same slice. Such a use meets no capacity or
// stock row, and its cost, work, one-off link and spot share are all
// proportional to its GPU-hours Σ_t Δ_t·r_wt·x_wkt; what ties it to the
// slices is only the job's width. So the columns x_wkt of these pairs
// become one h_wk each, with
//
//	Σ_{k agg} h_wk + Σ_{t ≥ from} Δ_t·r_wt·Σ_{k other} x_wkt ≤ GPUs_w·Σ_{t ≥ from} Δ_t·r_wt,
//
// and every solution lifts back: the aggregated GPU-hours spread over the
// width the other pairs leave in each slice (spread), in proportion to it.
func (in *instance) aggregated(w int) map[int]bool {
	wd := &in.ws[w]
	if !in.reduce || wd.service || wd.gang {
		return nil
	}
	agg := map[int]bool{}
	from := -1
	for _, q := range in.active(w) {
		od := &in.os[in.pairs[q].k]
		if od.committed || !math.IsInf(od.stock, 1) {
			continue
		}
		if from >= 0 && od.from != from {
			return nil
		}
		agg[q], from = true, od.from
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
// slice: each job's aggregated GPU-hours fill the width its other pairs
// leave in each slice in proportion to it (so no slice goes above the
// width), shared among its aggregated pairs by their GPU-hours. Pairs
// without use are left out.
func (pm *poolModel) spread(in *instance, x []float64) map[int][]float64 {
	out := map[int][]float64{}
	for _, w := range pm.pl.ws {
		wd := &in.ws[w]
		var hs []int
		total, from := 0.0, 0
		for _, q := range in.active(w) {
			if h, ok := pm.hCol[q]; ok {
				hs, from = append(hs, q), in.os[in.pairs[q].k].from
				total += max(0, x[h])
			}
		}
		if total <= 1e-12 {
			continue
		}
		T := len(in.hours)
		slack := make([]float64, T)
		room := 0.0
		for t := from; t < T; t++ {
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
			room += in.hours[t] * wd.reps[t] * slack[t]
		}
		if room <= 0 { // within tolerances only: spread over the whole width
			for t := from; t < T; t++ {
				if wd.reps[t] > 0 {
					slack[t] = wd.width
					room += in.hours[t] * wd.reps[t] * wd.width
				}
			}
		}
		for _, q := range hs {
			v := max(0, x[pm.hCol[q]])
			if v <= 1e-12 {
				continue
			}
			u := make([]float64, T)
			for t, s := range slack {
				u[t] = v / room * s
			}
			out[q] = u
		}
	}
	return out
}
