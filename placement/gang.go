package placement

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// maxGangSizes bounds the sizes priced per offer for a gang with a range of
// sizes and those kept after the dominated ones are pruned (beyond it,
// evenly spaced sizes with both ends stand for the rest).
const maxGangSizes = 64

// gangStartsPerEpoch and maxGangStarts set the grid of moments a gang run
// may start at besides the stretch starts: every gangStep (see there).
const (
	gangStartsPerEpoch = 12
	maxGangStarts      = 96
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
// with one, every whole-node size within it that fits the stock (smallest
// first) when there are at most maxGangSizes, otherwise maxGangSizes
// evenly spaced ones with both ends and its GPUs (to whole nodes). A range
// without such a size tries its GPUs alone.
func gangSizes(w workload.Workload, gpn int, most float64) []int {
	if w.GangSizes.IsZero() {
		return []int{w.GPUs}
	}
	lo, hi := w.GangSizes.Sizes(w.GPUs)
	nlo, nhi := (lo+gpn-1)/gpn, hi/gpn
	if most < float64(nhi) {
		nhi = int(most)
	}
	if nhi < nlo {
		return []int{w.GPUs}
	}
	if nhi-nlo < maxGangSizes {
		out := make([]int, 0, nhi-nlo+1)
		for n := nlo; n <= nhi; n++ {
			out = append(out, n*gpn)
		}
		return out
	}
	out := make([]int, 0, maxGangSizes+1)
	for i := range maxGangSizes {
		out = append(out, (nlo+int(int64(i)*int64(nhi-nlo)/(maxGangSizes-1)))*gpn)
	}
	if n := (w.GPUs + gpn - 1) / gpn; nlo <= n && n <= nhi {
		out = append(out, n*gpn)
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
// relative, the smallest: no more GPUs than it needs). Beyond
// maxGangSizes, evenly spaced sizes with both ends are kept.
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
		kept := make([]gangSize, maxGangSizes)
		for i := range kept {
			kept[i] = out[i*(len(out)-1)/(maxGangSizes-1)]
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
// exists from lead on, in order: every stretch start and every multiple of
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
	return fmt.Errorf("%w: the gang finishes at %v at the earliest (on %s), deadline %v", ErrDeadline, best, bestOffer, deadline)
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
