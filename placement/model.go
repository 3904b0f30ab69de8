package placement

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// instance is a Problem prepared for modelling: settings, every workload
// sampled once, every compatible (workload, offer) pair with its cost terms.
type instance struct {
	p     *Problem
	s     settings
	hours []float64 // Δ_t of each slice, hours
	start []float64 // start of each slice within the period, hours
	// segs are the stretches of the horizon (one without planning over
	// time); the slices are those of the period in every segment, segment
	// by segment: slice t is in segment seg[t].
	segs  []segment
	seg   []int
	preps map[prepKey]*tco.Prepared
	// until is, by offer (index in Problem.Offers), when the last workload
	// that can use it ends, where that is before the horizon's end
	// (untilOf); 0 otherwise.
	until []time.Duration
	ws    []wdata
	os    []odata
	pairs []pair
	// unplaced are the workloads no offer can take, in problem order.
	unplaced []Unplaced
	currency string
	assume   tco.Assumptions
	// budgetSlack is how much below the budget the model's budget row
	// sits: zero, or what Solve tightened it by when the plan's decimal
	// total came out over the budget.
	budgetSlack float64
	// reduce says the model leaves out what is dominated and aggregates
	// what it can exactly (reduce.go); off, it is the model of the package
	// comment term by term.
	reduce bool
	// siftAll sifts the relaxation of every pool's model that has a first
	// plan, not only the wide ones (tests; see sift).
	siftAll bool
	// classes, when set, are the slice classes of a coarse relaxation
	// (coarse.go) in place of sliceClasses'.
	classes *classes
}

// wdata is one placeable workload.
type wdata struct {
	idx     int // in Problem.Workloads
	w       workload.Workload
	service bool
	// demand is a service's GPUs per slice (GPUs × the slice's peak); peak
	// the slices' peak fractions.
	demand, peak []float64
	// work is a job's work in reference GPU-hours, width the most GPUs it
	// uses at once (its GPUs).
	work, width float64
	// reps is how many times each slice counts: horizon/period for a
	// service, the repetitions before the deadline for a job.
	reps  []float64
	pairs []int
	prep  *tco.Prepared
	// base and own are what its pairs' terms are found with (pairTerms;
	// termsOf finds them again).
	base, own *tco.Prepared
	// gang says the job runs on one offer with its GPUs together (planning
	// over time); runs are the ways it may run.
	gang bool
	runs []gangRun
	// dropped says the gang is left out of its pool's plan, which cannot
	// fit it (withoutGangs; it is in instance.unplaced).
	dropped bool
}

// odata is one offer some workload can use.
type odata struct {
	idx       int // in Problem.Offers
	o         provider.Offer
	committed bool
	spot      bool
	gpn       float64
	// stock is the node limit (+Inf: none), by the stock policy.
	stock float64
	// fixed is the money per node held over the horizon, perOffer once for
	// using the offer; from the terms of the first workload that can use it.
	fixed, perOffer decimal.Decimal
	fixedF          float64
	perOfferF       float64
	terms           tco.Terms // the terms the offer's coefficients come from
	pairs           []int
	// lead is the time before its capacity exists (planning over time; 0
	// otherwise), from the first slice of the segment it arrives in.
	lead time.Duration
	from int
	// commits are the commitments the plan may make of committed capacity.
	commits []commit
	// dominated says another committed offer makes this one useless (see
	// dominatesOffer): the model leaves it and its pairs out.
	dominated bool
}

// pair is a workload that can run on an offer, with the coefficients of its
// use.
type pair struct {
	w, k  int // indices in instance.ws and instance.os
	terms tco.Terms
	// occ is the node-hours of use (as tco counts them) per node-hour the
	// work occupies: the fabric efficiency for a job, 1 for a service.
	occ float64
	// cost is money per GPU-hour occupied: VariablePerNodeHour·occ/gpn.
	cost float64
	// rate is a job's reference GPU-hours of work per GPU-hour occupied.
	rate   float64
	oneOff float64
	// alone is the cost of the workload alone on the offer, as tco prices
	// it (the terms at its own use; aloneOK says it is known).
	alone   decimal.Decimal
	aloneOK bool
	// dominated says another pair of the workload is at least as good in
	// every respect (see dominates): the model leaves this one out.
	dominated bool
}

// minGPUs is the least demand of a slice that counts.
const minGPUs = 1e-6

// prepare builds the instance of p, with the model's exact reductions.
func prepare(p *Problem) (*instance, error) { return prepareModel(p, true) }

// prepareModel builds the instance of p; with reduce, the pairs and offers
// that others dominate are left out of the model and a job's use of
// unlimited pay-as-you-go capacity is one column (see reduce.go).
func prepareModel(p *Problem, reduce bool) (*instance, error) {
	s, err := p.settle()
	if err != nil {
		return nil, err
	}
	in := &instance{p: p, s: s, reduce: reduce}
	in.assume = p.Assumptions
	in.assume.Horizon = s.horizon
	in.assume.Step = s.sliceLen
	// tco.Prepare validates and samples each workload once; a workload it
	// rejects is validated again only for the error that says why.
	preps, perrs := prepareAll(p.Workloads, in.assume)
	owns := in.prepareOwn(preps)
	valid := func(i int) bool { return perrs[i] == nil || p.Workloads[i].Validate() == nil }
	in.until = in.untilOf(valid)
	if err := in.timeline(valid); err != nil {
		return nil, err
	}
	for _, o := range p.Offers {
		if o.Currency != "" {
			in.currency = o.Currency
		}
	}
	var errs []error
	offerAt := make([]int, len(p.Offers))
	for i := range offerAt {
		offerAt[i] = -1
	}
	// The workloads' data and terms on every offer, the bulk of the work,
	// are found a batch at a time on GOMAXPROCS goroutines (each reads
	// only its workload and the settings); the pairs are then made in
	// turn.
	var batch []preparedWorkload
	for wi, w := range p.Workloads {
		if wi%prepBatch == 0 {
			batch = in.prepareBatch(wi, min(len(p.Workloads), wi+prepBatch), preps, perrs, owns)
		}
		prep, perr := preps[wi], perrs[wi]
		pw := &batch[wi%prepBatch]
		wd, excluded, werr := pw.wd, pw.excluded, pw.err
		if werr != nil {
			errs = append(errs, werr)
			continue
		}
		if wd == nil {
			in.unplaced = append(in.unplaced, Unplaced{Workload: w.Name, Err: excluded})
			continue
		}
		if perr != nil {
			errs = append(errs, perr)
			continue
		}
		// exc are the offers excluded, in order; the error of one whose
		// requirements fail (exc[reqs[i].at], offer reqs[i].offer) is
		// written only for a workload left unplaced (exclusions).
		var exc []tco.Exclusion
		var reqs []struct{ at, offer int }
		exclusions := func() []tco.Exclusion {
			for _, r := range reqs {
				exc[r.at].Err = requirementsError(w, p.Offers[r.offer])
			}
			return exc
		}
		for oi, o := range p.Offers {
			pt := &pw.terms[oi]
			if pt.incompatible {
				reqs = append(reqs, struct{ at, offer int }{len(exc), oi})
				exc = append(exc, tco.Exclusion{Offer: o.ID})
				continue
			}
			if pt.err != nil {
				exc = append(exc, tco.Exclusion{Offer: o.ID, Err: pt.err})
				continue
			}
			terms := pt.terms
			if o.LeadTime() >= in.s.horizon {
				exc = append(exc, tco.Exclusion{Offer: o.ID, Err: fmt.Errorf("%w: offer %q: lead time %v, horizon %v", ErrLeadTime, o.ID, o.LeadTime(), in.s.horizon)})
				continue
			}
			if offerAt[oi] < 0 {
				offerAt[oi] = len(in.os)
				od := in.offer(oi, o, terms)
				if od.committed {
					in.planCommits(&od, wd)
				}
				in.os = append(in.os, od)
			}
			k := offerAt[oi]
			// The pair keeps its terms without their lines, which only a plan
			// that uses it reads (termsOf): they are a few kilobytes a
			// pair, and most pairs of a large model are not used.
			lean := terms
			lean.Lines = nil
			pr := pair{w: len(in.ws), k: k, terms: lean, occ: 1, alone: pt.alone, aloneOK: pt.aloneOK}
			if !wd.service {
				pr.occ = terms.Efficiency
				pr.rate = terms.SpeedFactor * terms.Efficiency
			}
			v, _ := terms.VariablePerNodeHour.Float64()
			pr.cost = v * pr.occ / float64(o.GPUsPerNode)
			pr.oneOff, _ = terms.OneOff.Float64()
			in.os[k].pairs = append(in.os[k].pairs, len(in.pairs))
			wd.pairs = append(wd.pairs, len(in.pairs))
			in.pairs = append(in.pairs, pr)
		}
		if len(wd.pairs) == 0 {
			in.unplaced = append(in.unplaced, Unplaced{Workload: w.Name, Err: newUnplacedError(w.Name, exclusions())})
			continue
		}
		check := in.alone
		if wd.gang {
			check = in.gangRuns
		} else if !wd.service {
			// A job's work starts once it is ready on an offer: after the
			// lead time, the wait for stock, the transfer in and the setup
			// (tco's Finish less its wall time) on the first ready.
			ready := time.Duration(math.MaxInt64)
			for _, q := range wd.pairs {
				ready = min(ready, in.pairs[q].terms.Ready)
			}
			if ready > 0 {
				in.jobReps(wd, ready)
			}
		}
		if err := check(wd); err != nil {
			in.unplaced = append(in.unplaced, Unplaced{Workload: w.Name, Err: &UnplacedError{Workload: w.Name, Excluded: exclusions(), Err: err}})
			for _, q := range wd.pairs { // drop its pairs
				k := in.pairs[q].k
				in.os[k].pairs = in.os[k].pairs[:len(in.os[k].pairs)-1]
			}
			in.pairs = in.pairs[:len(in.pairs)-len(wd.pairs)]
			continue
		}
		wd.prep, wd.base, wd.own = prep, prep, owns[wi]
		if owns[wi] != nil && !wd.gang {
			wd.prep = owns[wi] // alone and runners-up as tco prices it alone
		}
		in.ws = append(in.ws, *wd)
		if !wd.gang && reduce {
			in.prune(len(in.ws) - 1)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if reduce {
		in.pruneOffers()
	}
	in.pruneGangRuns() // gang.go
	return in, nil
}

// prepareOwn returns, with Assumptions.Horizon zero, each workload that
// tco alone costs over a horizon other than the plan's (a service with a
// shorter Horizon of its own; a finite job over its own Horizon or, without
// one, the time it holds capacity) prepared under the problem's
// assumptions, as tco.Evaluate prices it alone; nil for the others, and
// for one that does not prepare so.
func (in *instance) prepareOwn(preps []*tco.Prepared) []*tco.Prepared {
	owns := make([]*tco.Prepared, len(preps))
	if in.p.Assumptions.Horizon != 0 {
		return owns
	}
	a := in.p.Assumptions
	a.Step = in.s.sliceLen
	var idx []int
	var ws []workload.Workload
	for i, w := range in.p.Workloads {
		if preps[i] == nil || w.IsService() && (w.Horizon <= 0 || w.Horizon >= in.s.horizon) || !w.IsService() && w.Horizon >= in.s.horizon {
			continue
		}
		idx, ws = append(idx, i), append(ws, w)
	}
	ps, errs := prepareAll(ws, a)
	for j, i := range idx {
		if errs[j] == nil {
			owns[i] = ps[j]
		}
	}
	return owns
}

// ownHorizon returns the terms of a workload on o that tco costs alone over
// its own horizon (own: prepared so; plan: its terms over the plan's
// horizon), with a short commitment billed per use. On pay-as-you-go
// capacity they are its own terms, billed over its own horizon; on
// committed capacity, whose nodes are held over the plan's horizon (or to
// untilOf's end: planCommits prices the commitment so), the plan's terms
// with the workload's one-off lines (storage, egress, setup, transfer)
// those of its own horizon.
func ownHorizon(plan tco.Terms, own *tco.Prepared, o provider.Offer, horizon time.Duration) tco.Terms {
	ot, err := own.Terms(o)
	if err != nil || ot.Horizon <= 0 || ot.Horizon >= horizon {
		return perUse(plan, horizon)
	}
	t := perUse(plan, horizon)
	if !t.Committed {
		if own := perUse(ot, ot.Horizon); !own.Committed {
			return own
		}
		// Billed in increments longer than its own horizon: the plan's
		// per-use terms, with its own one-off lines.
	}
	t.Lines = slices.DeleteFunc(slices.Clone(t.Lines), func(l tco.TermLine) bool { return l.Kind == tco.OneOff })
	t.OneOff = decimal.Zero
	for _, l := range ot.Lines {
		if l.Kind == tco.OneOff {
			t.Lines = append(t.Lines, l)
			t.OneOff = t.OneOff.Add(l.Amount)
		}
	}
	return t
}

// prepareAll returns tco.Prepare(ws[i], a) for each workload, prepared on
// up to GOMAXPROCS goroutines that end before it returns. Each preparation
// is independent of the others (the workloads and assumptions are only
// read), so the results are those of preparing the workloads in turn.
func prepareAll(ws []workload.Workload, a tco.Assumptions) ([]*tco.Prepared, []error) {
	preps, errs := make([]*tco.Prepared, len(ws)), make([]error, len(ws))
	inParallel(len(ws), func(i, _ int) { preps[i], errs[i] = tco.Prepare(ws[i], a) })
	return preps, errs
}

// prepBatch is the number of workloads prepareModel prepares at a time
// (their terms on every offer held at once).
const prepBatch = 64

// preparedWorkload is a workload's data (in.workload's results) and its
// terms on each offer of the problem (nil when it has no data or did not
// prepare).
type preparedWorkload struct {
	wd            *wdata
	excluded, err error
	terms         []pairTerms
}

// pairTerms are a workload's terms on an offer as its pair takes them, or
// why it has none.
type pairTerms struct {
	incompatible bool  // the offer does not meet its requirements
	err          error // tco refused the pair
	terms        tco.Terms
	alone        decimal.Decimal // what tco.Evaluate charges it alone there
	aloneOK      bool
}

// prepareBatch prepares workloads [from, to) of the problem (preps, perrs:
// as prepareAll returns them; owns: as prepareOwn does) on up to
// GOMAXPROCS goroutines: each reads only its own workload and the
// instance's settings.
func (in *instance) prepareBatch(from, to int, preps []*tco.Prepared, perrs []error, owns []*tco.Prepared) []preparedWorkload {
	batch := make([]preparedWorkload, to-from)
	inParallel(to-from, func(c, _ int) {
		wi := from + c
		pw := &batch[c]
		pw.wd, pw.excluded, pw.err = in.workload(wi, in.p.Workloads[wi], preps[wi])
		if pw.wd == nil || pw.err != nil || perrs[wi] != nil {
			return
		}
		pw.terms = make([]pairTerms, len(in.p.Offers))
		for oi, o := range in.p.Offers {
			pw.terms[oi] = in.pairTerms(pw.wd, preps[wi], owns[wi], o)
		}
	})
	return batch
}

// pairTerms returns the terms of workload wd (prepared as prep; own: as
// prepareOwn prepares it, or nil) on offer o, as its pair takes them.
func (in *instance) pairTerms(wd *wdata, prep, own *tco.Prepared, o provider.Offer) pairTerms {
	if !compatible(wd.w, o) {
		return pairTerms{incompatible: true}
	}
	// Fit is the solver's question: a service may spread over offers
	// and a job may run narrower than its gang, so the terms are
	// those of the offer without its stock limit. A negative limit is
	// kept: it is invalid, and tco refuses it (the offer excluded).
	free := o
	free.Availability.MaxNodes = min(free.Availability.MaxNodes, 0)
	terms, err := prep.Terms(free)
	if err != nil {
		return pairTerms{err: err}
	}
	if own != nil && !wd.gang {
		terms = ownHorizon(terms, own, free, in.s.horizon)
	} else {
		terms = perUse(terms, in.s.horizon) // a short commitment is billed per use
	}
	// What tco.Evaluate charges the workload alone on o: the terms
	// at its own use, before the plan's own view of busy rates and
	// of a delay it bridges (it ranks the runners-up).
	alone, aerr := terms.Cost(terms.Own)
	if wd.service {
		terms = sharedEgress(busyPerUse(terms, o, in.s.horizon))
	}
	if in.s.overTime {
		terms = bridgedDelay(terms, wd.w, o.LeadTime())
	}
	return pairTerms{terms: terms, alone: alone, aloneOK: aerr == nil}
}

// termsOf returns pair q's terms with their lines, found again as
// prepareModel found them (the pair keeps them without).
func (in *instance) termsOf(q int) tco.Terms {
	pr := &in.pairs[q]
	if pr.terms.Lines != nil {
		return pr.terms
	}
	wd := &in.ws[pr.w]
	pt := in.pairTerms(wd, wd.base, wd.own, in.os[pr.k].o)
	if pt.incompatible || pt.err != nil {
		return pr.terms // (not so: the pair was made of them)
	}
	return pt.terms
}

// workers is the number of goroutines inParallel runs n tasks on.
func workers(n int) int { return max(1, min(runtime.GOMAXPROCS(0), n)) }

// inParallel calls f(i, w) for every task i in [0, n) on workers(n)
// goroutines (w: the goroutine, in [0, workers(n))), all ended when it
// returns. The tasks are taken in order, each by the first goroutine
// free.
func inParallel(n int, f func(i, w int)) {
	nw := workers(n)
	if nw <= 1 {
		for i := range n {
			f(i, 0)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range nw {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i, w)
			}
		})
	}
	wg.Wait()
}

// demandFrom returns when service w's demand first exceeds gpus within the
// stretch [start, end), sampled in slices of length step (at most
// maxDemandSamples of them): the start of the first slice whose peak does,
// or start when none does or the curve cannot be read.
func demandFrom(w workload.Workload, start, end, step time.Duration, gpus float64) time.Duration {
	if step <= 0 || end <= start || w.GPUs <= 0 {
		return start
	}
	n := int(min(int64((end-start+step-1)/step), maxDemandSamples))
	sl, err := workload.DiscretizeFrom(w.Demand, start, end-start, n)
	if err != nil {
		return start
	}
	for _, x := range sl {
		if float64(w.GPUs)*x.Peak > gpus*(1+1e-12) {
			return start + x.Start
		}
	}
	return start
}

// maxDemandSamples bounds the slices demandFrom reads a stretch in.
const maxDemandSamples = 1 << 14

// alone checks what a workload needs whatever the others do: a job's work
// must fit before its deadline at its full width on its fastest offer, a
// service's peak within the stock of its offers together. Its pairs are the
// last ones of the instance.
func (in *instance) alone(wd *wdata) error {
	// stockAt is the GPUs in stock on the workload's offers in slice t,
	// those whose capacity exists by then.
	stockAt := func(t int) float64 {
		stock := 0.0
		for _, q := range wd.pairs {
			if od := &in.os[in.pairs[q].k]; t >= od.from {
				stock += od.stock * od.gpn
			}
		}
		return stock
	}
	if wd.service {
		stock, peak := stockAt(len(in.hours)), 0.0
		for _, d := range wd.demand {
			peak = max(peak, d)
		}
		if peak > stock*(1+1e-12) {
			return fmt.Errorf("%w: peak of %g GPUs, %g GPUs in stock on its offers", ErrStock, peak, stock)
		}
		for t, d := range wd.demand {
			if st := stockAt(t); d > st*(1+1e-12) {
				sg := in.segs[in.seg[t]]
				from := demandFrom(wd.w, sg.start, sg.end, time.Duration(in.hours[t]*float64(time.Hour)), st)
				return fmt.Errorf("%w: %g GPUs needed from %v, %g GPUs exist then on its offers", ErrLeadTime, d, from, st)
			}
		}
		return nil
	}
	rate := 0.0
	for _, q := range wd.pairs {
		rate = max(rate, in.pairs[q].rate)
	}
	most := 0.0
	for t, r := range wd.reps {
		most += r * in.hours[t] * rate * min(wd.width, stockAt(t))
	}
	if most < wd.work*(1-1e-12) {
		limit, name, err := finishBy(wd.w, in.s.horizon)
		return fmt.Errorf("%w: %g reference GPU-hours of work, at most %.6g by the %s (%v) at %g GPUs", err, wd.work, most, name, limit, wd.width)
	}
	return nil
}

// finishBy is when job w must be done — its deadline, or the horizon's end
// when it has none or that comes first — with the limit's name and the
// error that names it when the job cannot meet it: ErrDeadline or
// ErrHorizon.
func finishBy(w workload.Workload, horizon time.Duration) (time.Duration, string, error) {
	if w.Deadline > 0 && w.Deadline <= horizon {
		return w.Deadline, "deadline", ErrDeadline
	}
	return horizon, "horizon", ErrHorizon
}

// prune marks the pairs of workload w that another of its pairs dominates.
func (in *instance) prune(w int) {
	ps := in.ws[w].pairs
	for _, b := range ps {
		for _, a := range ps {
			if a != b && in.dominates(a, b) {
				in.pairs[b].dominated = true
				break
			}
		}
	}
}

// dominates reports whether pair a makes pair b (of the same workload)
// useless: moving all of b's use to a never costs more and keeps every
// constraint. That holds when a is pay-as-you-go without a stock limit or a
// per-offer cost, b pay-as-you-go without a credit, a's one-off and cost per
// unit of work are no higher, a runs a job at least as fast, a exists no
// later than b, and a is not interruptible where b is not, under a spot
// share. Ties keep the first offer.
func (in *instance) dominates(a, b int) bool {
	pa, pb := &in.pairs[a], &in.pairs[b]
	oa, ob := &in.os[pa.k], &in.os[pb.k]
	if oa.committed || ob.committed || !math.IsInf(oa.stock, 1) || oa.perOfferF != 0 || ob.perOfferF < 0 || oa.from > ob.from {
		return false
	}
	ca, cb := pa.cost, pb.cost
	if !in.ws[pa.w].service {
		ca, cb = pa.cost/pa.rate, pb.cost/pb.rate
	}
	// a ≤ b in every respect; then a < b in one, or the first offer.
	better := []struct{ a, b float64 }{{ca, cb}, {pa.oneOff, pb.oneOff}, {-pa.rate, -pb.rate}, {0, ob.perOfferF}}
	if in.s.MaxSpotShare > 0 {
		better = append(better, struct{ a, b float64 }{b2f(oa.spot), b2f(ob.spot)})
	}
	strict := false
	for _, x := range better {
		if x.a > x.b {
			return false
		}
		strict = strict || x.a < x.b
	}
	return strict || oa.idx < ob.idx
}

// b2f is 1 for true.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// active returns the pairs of workload w that the model uses.
func (in *instance) active(w int) []int {
	var qs []int
	for _, q := range in.ws[w].pairs {
		if !in.pairs[q].dominated {
			qs = append(qs, q)
		}
	}
	return qs
}

// compatible is tco.IsCompatible without the fit question.
func compatible(w workload.Workload, o provider.Offer) bool {
	free := o
	free.Availability.MaxNodes = 0
	return tco.IsCompatible(w, free)
}

// requirementsError is tco.Compatible's explanation without the fit
// question.
func requirementsError(w workload.Workload, o provider.Offer) error {
	free := o
	free.Availability.MaxNodes = 0
	return tco.Compatible(w, free)
}

// newUnplacedError builds the error of a workload that every offer excluded.
func newUnplacedError(name string, exc []tco.Exclusion) *UnplacedError {
	e := &UnplacedError{Workload: name, Excluded: exc}
	var checks []tco.Check
	for _, x := range exc {
		var ce *tco.CompatibilityError
		if !errors.As(x.Err, &ce) {
			return e
		}
		// Several failed checks of one offer: the first names it.
		checks = append(checks, ce.Check)
	}
	if len(checks) > 0 && !slices.ContainsFunc(checks, func(c tco.Check) bool { return c != checks[0] }) {
		e.Check, e.Common = checks[0], true
	}
	return e
}

// workload samples w; a nil wdata with a non-nil error means w is
// unplaceable (returned as its Unplaced error); a returned error is a
// problem of the input. prep is w prepared by tco.Prepare — validated, its
// samples read where they serve (stretchPeaks) — or nil where Prepare
// failed: w is then validated here.
func (in *instance) workload(wi int, w workload.Workload, prep *tco.Prepared) (*wdata, error, error) {
	if prep == nil {
		if err := w.Validate(); err != nil {
			return nil, nil, err
		}
	}
	T, N := in.s.slices, len(in.hours)
	wd := &wdata{idx: wi, w: w, service: w.IsService(), reps: make([]float64, N)}
	if wd.service {
		wd.demand, wd.peak = make([]float64, N), make([]float64, N)
		// With no horizon of the plan's own, a service is costed over its
		// own Horizon, as tco costs it alone: its demand ends there.
		last := in.s.horizon
		if in.p.Assumptions.Horizon == 0 && w.Horizon > 0 {
			last = min(last, w.Horizon)
		}
		from, to := time.Duration(0), time.Duration(0) // the stretch with its windows
		for s, sg := range in.segs {
			if sg.start >= last {
				break // no demand: the slices need nothing and weigh nothing
			}
			// Each segment samples its period over its own time (up to the
			// service's end). A stretch split by windows (a job's
			// deadline) needs in each part the peak over the whole stretch,
			// in the part's own phase of the period (sampled from the whole
			// periods before the part within the stretch on), so that a
			// window changes what the service may use, not what it needs;
			// each part's use weighs its own volume (mean) over that peak.
			end, reps := sg.end, sg.reps
			if end > last {
				end, reps = last, (last-sg.start).Hours()/in.s.Period.Hours()
			}
			pk, mean, err := stretchPeaks(prep, w.Demand, sg.start, end, in.s.Period, T)
			if err != nil {
				return nil, nil, fmt.Errorf("placement: workload %q: %w", w.Name, err)
			}
			phases, whole := phasesOf(w.Demand, in.s.Period, T, end-sg.start)
			if !sg.window || s == 0 {
				from, to = sg.start, sg.end
				for r := s + 1; r < len(in.segs) && in.segs[r].window; r++ {
					to = in.segs[r].end
				}
			}
			if to > sg.end || from < sg.start {
				per := in.s.Period
				a := sg.start - (sg.start-from)/per*per
				if pk, _, err = stretchPeaks(prep, w.Demand, a, min(to, last), per, T); err != nil {
					return nil, nil, fmt.Errorf("placement: workload %q: %w", w.Name, err)
				}
			}
			mergePhases(pk, mean, phases, whole)
			for i, x := range pk {
				t := s*T + i
				if in.start[t] >= (end-sg.start).Hours() || x > 0 && mean[i] < 1e-9*x {
					// The slice does not occur in a stretch this short, or
					// for a billionth of its peak's volume: it needs nothing.
					continue
				}
				wd.peak[t] = x
				// Below a millionth of a GPU a slice needs nothing (tco, too,
				// rounds node counts within 1e-9 of a whole node).
				if d := float64(w.GPUs) * x; d >= minGPUs {
					wd.demand[t] = d
				}
				// Capacity meets the slice's peak over the stretch; its use
				// counts the mean: the slice weighs its repetitions times
				// mean/peak.
				wd.reps[t] = reps
				if x > 0 {
					wd.reps[t] = reps * mean[i] / x
				}
			}
		}
		return wd, nil, nil
	}
	wd.work, wd.width = w.WorkGPUHours, float64(w.GPUs)
	if isGang(w) {
		if !in.s.overTime {
			return nil, &UnplacedError{Workload: w.Name, Err: ErrGang}, nil
		}
		wd.gang = true
		return wd, nil, nil
	}
	in.jobReps(wd, 0)
	return wd, nil, nil
}

// jobReps sets the weights of job wd's slices: the times each occurs within
// its stretch from ready (when its work can start) to its deadline, in
// whole periods or the partial last one. An occurrence counts when it
// starts at or after ready; one that the deadline or the stretch's end
// cuts counts its part before it (the job may work there: tco.Evaluate
// finishes a job of its work at its width exactly at its deadline).
func (in *instance) jobReps(wd *wdata, ready time.Duration) {
	end := in.s.horizon.Hours()
	if d := wd.w.Deadline.Hours(); d > 0 {
		end = min(end, d)
	}
	per, from := in.s.Period.Hours(), ready.Hours()
	for t := range wd.reps {
		sg := in.segs[in.seg[t]]
		a, limit := sg.start.Hours()+in.start[t], min(end, sg.end.Hours())
		// skip is the occurrences that start before ready.
		skip := 0.0
		if from > a+1e-9 {
			skip = math.Ceil((from-a)/per - 1e-9)
		}
		n := 0.0
		if r := limit - a - in.hours[t]; r >= -1e-9 {
			n = math.Floor(r/per+1e-9) + 1
		}
		if part := (limit - a - n*per) / in.hours[t]; part > 1e-9 && a+n*per >= from-1e-9 {
			n += min(part, 1)
		}
		wd.reps[t] = max(0, n-skip)
	}
}

// offer records offer oi with the coefficients of its capacity.
func (in *instance) offer(oi int, o provider.Offer, t tco.Terms) odata {
	od := odata{idx: oi, o: o, committed: t.Committed, spot: t.Interruptible, gpn: float64(o.GPUsPerNode),
		stock: math.Inf(1), fixed: t.FixedPerNode, perOffer: t.PerOffer, terms: t}
	if n := o.Availability.MaxNodes; n > 0 {
		od.stock = float64(n)
		if in.s.Stock == ExpectedStock {
			od.stock *= o.Availability.FillProbability
			if od.committed {
				od.stock = math.Floor(od.stock + 1e-9)
			}
		}
	}
	if !od.committed {
		od.fixed = decimal.Zero
	}
	od.fixedF, _ = od.fixed.Float64()
	if in.s.overTime {
		od.lead = o.LeadTime()
		for t := range in.hours {
			if in.segs[in.seg[t]].start >= od.lead {
				break
			}
			od.from = t + 1
		}
	}
	od.perOfferF, _ = od.perOffer.Float64()
	return od
}

// timeline cuts the horizon into segments (epochs, split where capacity
// with a lead time arrives: capacity some valid workload can use, and at
// the deadlines of jobs that share capacity: windowDeadlines) and the
// period of each into slices.
func (in *instance) timeline(valid func(workload int) bool) error {
	s := &in.s
	var arrivals []arrival
	var deadlines []time.Duration
	if s.overTime {
		deadlines = windowDeadlines(in.p.Workloads, in.p.Offers, valid)
		ok := make([]bool, len(in.p.Workloads))
		for i := range ok {
			ok[i] = valid(i)
		}
		for oi, o := range in.p.Offers {
			used, part := false, time.Duration(0)
			for i, w := range in.p.Workloads {
				if ok[i] && compatible(w, o) {
					own := in.p.Assumptions.Horizon == 0 && w.Horizon > 0 && w.Horizon < s.horizon
					used, part = true, max(part, monthsDiffer(w, s.Period, s.horizon, own))
				}
			}
			if used {
				arrivals = append(arrivals, arrival{lead: o.LeadTime(), term: offerTerm(o), partUntil: part, until: in.untilAt(oi)})
			}
		}
	}
	in.segs = s.segments(arrivals, deadlines)
	T := s.slices
	if n := len(in.segs) * T; n > MaxTimeSlices {
		return fmt.Errorf("%w: %d stretches of %d slices, more than MaxTimeSlices = %d", ErrInvalid, len(in.segs), T, MaxTimeSlices)
	}
	in.hours = make([]float64, len(in.segs)*T)
	in.start = make([]float64, len(in.segs)*T)
	in.seg = make([]int, len(in.segs)*T)
	for sg := range in.segs {
		for i := range T {
			a, b := sliceBound(s.Period, i, T), sliceBound(s.Period, i+1, T)
			t := sg*T + i
			in.start[t], in.hours[t], in.seg[t] = a.Hours(), (b - a).Hours(), sg
		}
	}
	return nil
}

// sliceBound is the start of slice i of n in period, as workload.Discretize
// places it.
func sliceBound(period time.Duration, i, n int) time.Duration {
	q, r := period/time.Duration(n), period%time.Duration(n)
	return q*time.Duration(i) + r*time.Duration(i)/time.Duration(n)
}

// windowDeadlines returns the deadlines of the valid divisible jobs that
// can use capacity another valid workload can use too and that couples
// them — committed capacity, or capacity of limited stock: where the job's
// work ends, what it held goes back to the others, and the plan over time
// cuts a stretch there (see settings.segments). A job alone on its
// capacity, or beside others on unlimited pay-as-you-go only, needs no
// cut.
func windowDeadlines(ws []workload.Workload, offers []provider.Offer, valid func(int) bool) []time.Duration {
	var jobs []int
	for j, w := range ws {
		if valid(j) && !w.IsService() && !isGang(w) && w.Deadline > 0 {
			jobs = append(jobs, j)
		}
	}
	if len(jobs) == 0 {
		return nil
	}
	shared := make([]bool, len(ws))
	var users []int
	for _, o := range offers {
		if _, committed := provider.As[provider.Committer](o.Pricing); !committed && o.Availability.MaxNodes == 0 {
			continue
		}
		users = users[:0]
		for i, w := range ws {
			if valid(i) && compatible(w, o) {
				users = append(users, i)
			}
		}
		if len(users) > 1 {
			for _, i := range users {
				shared[i] = true
			}
		}
	}
	var out []time.Duration
	for _, j := range jobs {
		if shared[j] {
			out = append(out, ws[j].Deadline)
		}
	}
	return out
}

// untilOf returns, with Assumptions.Horizon zero (the plan's horizon the
// longest workload's), by offer with a term (a reservation, a monthly
// rental) the latest end of the valid workloads that can use it — a
// service's own Horizon where that is shorter than the plan's, a job's
// deadline, the plan's horizon for every other workload — where it is
// before the plan's horizon, and 0 elsewhere: its commitments buy the whole terms that
// nothing needs after that no further, as tco.Evaluate prices them for a
// service alone (planCommits), and not to the horizon's end (or the next
// epoch's start). Owned capacity, sold at the horizon's end, is left as
// it is. Nil without that.
func (in *instance) untilOf(valid func(int) bool) []time.Duration {
	h := in.s.horizon
	if in.p.Assumptions.Horizon != 0 {
		return nil
	}
	out := make([]time.Duration, len(in.p.Offers))
	for k, o := range in.p.Offers {
		if offerTerm(o) <= 0 {
			continue
		}
		end := time.Duration(0)
		for i, w := range in.p.Workloads {
			if !valid(i) || !compatible(w, o) {
				continue
			}
			switch {
			case w.IsService() && w.Horizon > 0 && w.Horizon < h:
				end = max(end, w.Horizon)
			case !w.IsService() && w.Deadline > 0 && w.Deadline < h:
				end = max(end, w.Deadline) // its work is done by then
			default:
				end = h
			}
		}
		if end < h {
			out[k] = end
		}
	}
	return out
}

// untilAt is in.until of offer oi (0 without one).
func (in *instance) untilAt(oi int) time.Duration {
	if oi < len(in.until) {
		return in.until[oi]
	}
	return 0
}
