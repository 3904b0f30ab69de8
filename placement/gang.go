package placement

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// maxGangPriced bounds the sizes priced per offer for a gang with a range
// of sizes (beyond it, evenly spaced node counts with both ends stand for
// the rest); maxGangSizes bounds those kept after the late and dominated
// ones are pruned (beyond it, the cheapest and the fastest).
const (
	maxGangPriced = 256
	maxGangSizes  = 64
)

// gangStartsPerEpoch and maxGangStarts set the grid of moments a gang run
// may start at besides the stretch starts: every gangStep (see there).
const (
	gangStartsPerEpoch = 12
	maxGangStarts      = 96
)

// maxGangRuns bounds the runs of one gang on an offer that other gangs
// share (sizes times starts, before its deadline excludes any); beyond it
// the sizes are thinned to thinGangSizes, then the grid's moments (see
// pruneGangRuns).
const (
	maxGangRuns   = 160
	thinGangSizes = 8
)

// gangRun is one way to run a gang job: on the offer of pair q, at gpus
// GPUs on nodes whole nodes, from start to finish; its run meets stretches
// first..last.
type gangRun struct {
	q           int
	gpus, nodes int
	// start and finish are the run's times from the horizon's start: it
	// starts at a moment of the grid (its capacity exists by then) and
	// finishes after transfer, setup and its wall time; it holds its nodes
	// over [start, finish).
	start, finish time.Duration
	wall          time.Duration
	first, last   int
	// seq numbers the runs of one size on one offer that start in stretch
	// first (0: at its start), for the column's name.
	seq int
	// cost is the money of the run itself: its variable lines at its
	// node-hours and its one-off lines (the fixed cost of committed
	// capacity is the commitments').
	cost  float64
	terms tco.Terms
	prep  *tco.Prepared
}

// isGang reports whether w is a gang job: a finite job that tolerates no
// interruption, or one with a range of gang sizes — its GPUs run together,
// on one offer.
func isGang(w workload.Workload) bool {
	return !w.IsService() && (w.Interruption.Tolerance == workload.NoTolerance || !w.GangSizes.IsZero())
}

// gangSizes returns the sizes tried for w on nodes of gpn GPUs with at most
// most nodes in stock (+Inf: no limit): its GPUs alone without a range;
// with one, for every count of nodes the range can use that fits the stock,
// the most GPUs of the range on that many nodes (n·gpn, or the range's top
// on a partial last node), smallest first — a smaller size on the same
// nodes holds them as long or longer for no less. Beyond maxGangPriced
// counts, evenly spaced ones with both ends and that of its GPUs. A range
// that fits no count tries its GPUs alone.
func gangSizes(w workload.Workload, gpn int, most float64) []int {
	if w.GangSizes.IsZero() {
		return []int{w.GPUs}
	}
	lo, hi := w.GangSizes.Sizes(w.GPUs)
	nlo, nhi := (lo+gpn-1)/gpn, (hi+gpn-1)/gpn
	if most < float64(nhi) {
		nhi = int(most)
	}
	if nhi < nlo {
		return []int{w.GPUs}
	}
	size := func(n int) int { return min(hi, n*gpn) }
	if nhi-nlo < maxGangPriced {
		out := make([]int, 0, nhi-nlo+1)
		for n := nlo; n <= nhi; n++ {
			out = append(out, size(n))
		}
		return out
	}
	out := make([]int, 0, maxGangPriced+1)
	for i := range maxGangPriced {
		out = append(out, size(nlo+int(int64(i)*int64(nhi-nlo)/(maxGangPriced-1))))
	}
	if n := (w.GPUs + gpn - 1) / gpn; nlo <= n && n <= nhi {
		out = append(out, size(n))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// gangSize is one size of a gang on one offer as tco prices it.
type gangSize struct {
	gpus, nodes int
	// dur is the time from a run's start to its finish: transfer, setup,
	// the wait for stock and the wall time (the lead time is the start's to
	// wait for).
	dur   time.Duration
	wall  time.Duration
	cost  float64
	terms tco.Terms
	prep  *tco.Prepared
}

// dominates reports whether size a makes b useless on the same offer: a
// holds no more nodes for no longer at no more cost, so every run of b can
// be replaced by a run of a at the same start.
func (a *gangSize) dominates(b *gangSize) bool {
	return a.nodes <= b.nodes && a.dur <= b.dur && a.cost <= b.cost
}

// keepSizes prunes sizes (smallest first) to those no other size
// dominates (of equal ones, the first); unlimited says the offer's capacity
// is unlimited pay-as-you-go, where nodes and time held cost nothing but
// the run's own cost: there the cheapest size that finishes by due from
// the offer's first start is kept alone (of costs equal within 1e-9
// relative, the smallest: no more GPUs than it needs). Elsewhere sizes
// that cannot finish by due from the first start are dropped, then the
// dominated ones; beyond maxGangSizes, the fastest and the cheapest others
// are kept (of equal costs, those of fewer nodes) — exact whenever the
// capacity the gang shares does not bind.
func keepSizes(sizes []gangSize, unlimited bool, first, due time.Duration) []gangSize {
	if unlimited {
		best := -1
		for i := range sizes {
			s := &sizes[i]
			if first+s.dur > due {
				continue
			}
			if best < 0 || s.cost < sizes[best].cost-1e-9*max(1, math.Abs(sizes[best].cost)) {
				best = i
			}
		}
		if best < 0 {
			return nil
		}
		return sizes[best : best+1]
	}
	var out []gangSize
	for i := range sizes {
		if first+sizes[i].dur > due || first+sizes[i].dur < first {
			continue // late from the first start, so at every start
		}
		dominated := false
		for j := range sizes {
			if j != i && sizes[j].dominates(&sizes[i]) && (j < i || !sizes[i].dominates(&sizes[j])) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, sizes[i])
		}
	}
	if len(out) > maxGangSizes {
		order := make([]int, len(out))
		fastest := 0
		for i := range order {
			order[i] = i
			if out[i].dur < out[fastest].dur {
				fastest = i
			}
		}
		slices.SortStableFunc(order, func(a, b int) int {
			if c := cmp.Compare(out[a].cost, out[b].cost); c != 0 {
				return c
			}
			return cmp.Compare(out[a].nodes, out[b].nodes)
		})
		keep := make([]bool, len(out))
		keep[fastest] = true
		for n, i := 1, 0; n < maxGangSizes; i++ {
			if !keep[order[i]] {
				keep[order[i]] = true
				n++
			}
		}
		kept := out[:0]
		for i := range out {
			if keep[i] {
				kept = append(kept, out[i])
			}
		}
		out = kept
	}
	return out
}

// gangStep is the spacing of the grid of moments a gang run may start at
// (besides the stretch starts): a twelfth of an epoch, but no less than the
// period and than a 96th of the horizon.
func (s *settings) gangStep() time.Duration {
	return max(s.epoch/gangStartsPerEpoch, s.Period, (s.horizon+maxGangStarts-1)/maxGangStarts, 1)
}

// gangStarts returns the moments a gang run may start at on capacity that
// exists from lead on, in order: every stretch start (a window's too: a
// job's deadline frees what it held) and every multiple of
// the grid's step from lead on, before the horizon's end.
func (in *instance) gangStarts(lead time.Duration) []time.Duration {
	var out []time.Duration
	for _, sg := range in.segs {
		if sg.start >= lead {
			out = append(out, sg.start)
		}
	}
	step := in.s.gangStep()
	for t := (lead + step - 1) / step * step; t < in.s.horizon && t >= 0; t += step {
		out = append(out, t)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// segAt returns the index of the stretch that holds moment t.
func (in *instance) segAt(t time.Duration) int {
	s, _ := slices.BinarySearchFunc(in.segs, t, func(sg segment, t time.Duration) int {
		switch {
		case sg.end <= t:
			return -1
		case sg.start > t:
			return 1
		}
		return 0
	})
	return min(s, len(in.segs)-1)
}

// gangRuns lists the runs of gang job wd on its pairs (the last ones of the
// instance): every size worth trying on every offer (keepSizes), starting
// at every moment of gangStarts from the offer's arrival on (committed
// capacity, or limited stock) or at the first (unlimited pay-as-you-go,
// where waiting never helps), that finish by the deadline and the
// horizon's end and fit the stock. It returns why there is none.
func (in *instance) gangRuns(wd *wdata) error {
	w := wd.w
	preps := map[int]*tco.Prepared{}
	deadline := in.s.horizon
	if w.Deadline > 0 {
		deadline = min(deadline, w.Deadline)
	}
	best, bestOffer := time.Duration(math.MaxInt64), ""
	var errs []error
	for _, q := range wd.pairs {
		pr := &in.pairs[q]
		od := &in.os[pr.k]
		free := od.o
		free.Availability.MaxNodes = 0
		starts := in.gangStarts(od.lead)
		if len(starts) == 0 {
			continue
		}
		unlimited := !od.committed && math.IsInf(od.stock, 1)
		if unlimited {
			starts = starts[:1]
		}
		var sizes []gangSize
		for _, g := range gangSizes(w, int(od.gpn), od.stock) {
			prep, ok := preps[g]
			if !ok {
				wg := w
				wg.GPUs = g
				p, err := tco.Prepare(wg, in.assume)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				preps[g], prep = p, p
			}
			if tco.Compatible(prep.Workload(), free) != nil {
				continue
			}
			rep, err := prep.Evaluate(free)
			if err != nil {
				continue
			}
			terms, err := prep.Terms(free)
			if err != nil {
				continue
			}
			terms = bridgedDelay(perUse(terms, in.s.horizon), wd.w, od.lead)
			nodes := (g + int(od.gpn) - 1) / int(od.gpn)
			if float64(nodes) > od.stock {
				continue
			}
			dur := rep.Finish - od.o.LeadTime()
			if finish := starts[0] + dur; finish >= starts[0] && finish < best {
				best, bestOffer = finish, od.o.ID
			}
			v, _ := terms.VariablePerNodeHour.Float64()
			one, _ := terms.OneOff.Float64()
			sizes = append(sizes, gangSize{gpus: g, nodes: nodes, dur: dur, wall: rep.WallTime,
				cost: v*terms.Own.NodeHours + one, terms: terms, prep: prep})
		}
		for _, sz := range keepSizes(sizes, unlimited, starts[0], deadline) {
			seq, prev := 0, -1
			for _, at := range starts {
				finish := at + sz.dur
				if finish < at || finish > deadline { // overflow, or too late
					break
				}
				first, last := in.segAt(at), in.segAt(finish-1)
				if first == prev {
					seq++
				} else {
					seq, prev = 0, first
				}
				wd.runs = append(wd.runs, gangRun{q: q, gpus: sz.gpus, nodes: sz.nodes, start: at, finish: finish,
					wall: sz.wall, first: first, last: last, seq: seq, cost: sz.cost, terms: sz.terms, prep: sz.prep})
			}
		}
	}
	if len(wd.runs) > 0 {
		return nil
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if bestOffer == "" {
		return fmt.Errorf("%w: the gang of %d GPUs fits no offer's stock or fabric", ErrStock, w.GPUs)
	}
	limit, name, late := finishBy(w, in.s.horizon)
	return fmt.Errorf("%w: the gang finishes at %v at the earliest (on %s), %s %v", late, best, bestOffer, name, limit)
}

// gangHeld is the GPUs run r holds: its whole nodes.
func (in *instance) gangHeld(r *gangRun) float64 {
	return float64(r.nodes) * in.os[in.pairs[r.q].k].gpn
}

// gangSlices is the use of run r in every slice, as the plan reports it:
// in each stretch its run meets, its GPU-hours there (the GPUs it holds
// times its wall time, in proportion to the part of [start, finish) in the
// stretch) spread evenly over the stretch's slices, so that the slices of
// a stretch add up to what the run uses in it.
func (in *instance) gangSlices(r *gangRun) []float64 {
	u := make([]float64, len(in.hours))
	span := (r.finish - r.start).Hours()
	for t := range u {
		s := in.seg[t]
		if s < r.first || s > r.last || span <= 0 {
			continue
		}
		sg := in.segs[s]
		part := (min(sg.end, r.finish) - max(sg.start, r.start)).Hours()
		u[t] = in.gangHeld(r) * r.wall.Hours() * part / span / (sg.end - sg.start).Hours()
	}
	return u
}

// pruneGangRuns bounds the runs of every gang, offer by offer, once every
// workload's are known. On an offer only one gang runs on, where a run
// matters to the rest of the plan only by the stretches it meets, its
// nodes and its cost, a run is left out when another of the same stretches
// holds no more nodes at no more cost (of equal ones, the earliest start,
// then the smallest size): exact. On an offer gangs share, when a gang has
// more than maxGangRuns ways (sizes times the moments of the grid), its
// sizes are thinned to thinGangSizes evenly spaced ones with both ends,
// then the grid's moments to every m-th (stretch starts stay) for the
// least m that brings sizes times (stretch starts plus moments kept)
// within it: there the model is exact among the runs it keeps.
func (in *instance) pruneGangRuns() {
	gangsOn := map[int]map[int]bool{}
	for w := range in.ws {
		for _, r := range in.ws[w].runs {
			k := in.pairs[r.q].k
			if gangsOn[k] == nil {
				gangsOn[k] = map[int]bool{}
			}
			gangsOn[k][w] = true
		}
	}
	step := in.s.gangStep()
	for w := range in.ws {
		wd := &in.ws[w]
		if !wd.gang {
			continue
		}
		byOffer := map[int][]gangRun{}
		var order []int
		for _, r := range wd.runs {
			k := in.pairs[r.q].k
			if byOffer[k] == nil {
				order = append(order, k)
			}
			byOffer[k] = append(byOffer[k], r)
		}
		var kept []gangRun
		for _, k := range order {
			runs := byOffer[k]
			od := &in.os[k]
			switch {
			case !od.committed && math.IsInf(od.stock, 1):
			case len(gangsOn[k]) == 1:
				runs = alonePrune(runs)
			default:
				runs = thinRuns(runs, len(in.gangStarts(od.lead)), step, in.segs)
			}
			kept = append(kept, runs...)
		}
		wd.runs = kept
	}
}

// alonePrune keeps of runs (of one gang on one offer) those no other run
// meeting the same stretches beats: no more nodes at no more cost, of equal
// ones the first (the earliest start, then the smallest size).
func alonePrune(runs []gangRun) []gangRun {
	var out []gangRun
	for i := range runs {
		a := &runs[i]
		beaten := false
		for j := range runs {
			b := &runs[j]
			if i == j || a.first != b.first || a.last != b.last || b.nodes > a.nodes || b.cost > a.cost {
				continue
			}
			if b.nodes < a.nodes || b.cost < a.cost || b.start < a.start || b.start == a.start && b.gpus < a.gpus {
				beaten = true
				break
			}
		}
		if !beaten {
			out = append(out, *a)
		}
	}
	return out
}

// thinRuns bounds the runs of one gang on one offer shared with other
// gangs, which has starts moments to start at: beyond maxGangRuns sizes
// times starts, thinGangSizes evenly spaced sizes (both ends) are kept,
// then of the grid's moments (multiples of step) every m-th, with every
// stretch start, for the least m that brings sizes times moments within
// the bound.
func thinRuns(runs []gangRun, starts int, step time.Duration, segs []segment) []gangRun {
	var sizes []int
	for _, r := range runs {
		if !slices.Contains(sizes, r.gpus) {
			sizes = append(sizes, r.gpus)
		}
	}
	if len(sizes)*starts <= maxGangRuns {
		return runs
	}
	slices.Sort(sizes)
	if len(sizes) > thinGangSizes {
		kept := make([]int, thinGangSizes)
		for i := range kept {
			kept[i] = sizes[i*(len(sizes)-1)/(thinGangSizes-1)]
		}
		sizes = slices.Compact(kept)
	}
	isStretchStart := func(t time.Duration) bool {
		_, ok := slices.BinarySearchFunc(segs, t, func(sg segment, t time.Duration) int { return cmp.Compare(sg.start, t) })
		return ok
	}
	m := 1
	for len(sizes)*(len(segs)+starts/m) > maxGangRuns && m < starts {
		m++
	}
	var out []gangRun
	for _, r := range runs {
		if !slices.Contains(sizes, r.gpus) {
			continue
		}
		if isStretchStart(r.start) || r.start%step == 0 && (r.start/step)%time.Duration(m) == 0 {
			out = append(out, r)
		}
	}
	return out
}
