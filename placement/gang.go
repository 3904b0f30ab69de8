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

// maxGangSizes bounds the sizes tried per offer for a gang with a range of
// sizes.
const maxGangSizes = 12

// gangRun is one way to run a gang job: on the offer of pair q, at gpus
// GPUs on nodes whole nodes, starting at the start of stretch first and
// holding its nodes through stretch last.
type gangRun struct {
	q           int
	gpus, nodes int
	// start and finish are the run's times from the horizon's start: it
	// starts when its stretch starts (its capacity exists by then) and
	// finishes after transfer, setup and its wall time.
	start, finish time.Duration
	wall          time.Duration
	first, last   int
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

// gangSizes returns the sizes tried for w on nodes of gpn GPUs: its GPUs
// alone without a range; with one, every whole-node size within it when
// there are at most maxGangSizes, otherwise its GPUs, the range's ends and
// the powers of two within it rounded to whole nodes (smallest first). A
// range without a whole-node size tries its GPUs alone.
func gangSizes(w workload.Workload, gpn int) []int {
	if w.GangSizes.IsZero() {
		return []int{w.GPUs}
	}
	lo, hi := w.GangSizes.Sizes(w.GPUs)
	nlo, nhi := (lo+gpn-1)/gpn, hi/gpn
	switch {
	case nhi < nlo:
		return []int{w.GPUs}
	case nhi-nlo < maxGangSizes:
		out := make([]int, 0, nhi-nlo+1)
		for n := nlo; n <= nhi; n++ {
			out = append(out, n*gpn)
		}
		return out
	}
	cand := []int{w.GPUs, nlo * gpn, nhi * gpn}
	for p := 1; p <= hi && p > 0; p *= 2 {
		if p >= lo {
			cand = append(cand, p)
		}
	}
	var out []int
	for _, g := range cand {
		n := min(max((g+gpn-1)/gpn, nlo), nhi)
		out = append(out, n*gpn)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// gangRuns lists the runs of gang job wd on its pairs (the last ones of the
// instance): every size on every offer, starting at every stretch from the
// offer's arrival on (committed capacity, or limited stock) or at the
// first (unlimited pay-as-you-go, where waiting never helps), that finish
// by the deadline and the horizon's end and fit the stock. It returns why
// there is none.
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
		for _, g := range gangSizes(w, int(od.gpn)) {
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
			// The time from the run's start to its finish: transfer,
			// setup, the wait for stock and the wall time; the lead time is
			// the stretch's to wait for.
			dur := rep.Finish - od.o.LeadTime()
			v, _ := terms.VariablePerNodeHour.Float64()
			one, _ := terms.OneOff.Float64()
			cost := v*terms.Own.NodeHours + one
			for s, sg := range in.segs {
				if sg.start < od.lead {
					continue
				}
				finish := sg.start + dur
				if finish < sg.start { // overflow
					break
				}
				if finish < best {
					best, bestOffer = finish, od.o.ID
				}
				if finish > deadline {
					break
				}
				last := s
				for last+1 < len(in.segs) && in.segs[last+1].start < finish {
					last++
				}
				wd.runs = append(wd.runs, gangRun{q: q, gpus: g, nodes: nodes, start: sg.start, finish: finish,
					wall: rep.WallTime, first: s, last: last, cost: cost, terms: terms, prep: prep})
				if !od.committed && math.IsInf(od.stock, 1) {
					break
				}
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
