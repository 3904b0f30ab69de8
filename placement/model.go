package placement

import (
	"errors"
	"fmt"
	"math"
	"slices"
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
	ws    []wdata
	os    []odata
	pairs []pair
	// unplaced are the workloads no offer can take, in problem order.
	unplaced []Unplaced
	currency string
	assume   tco.Assumptions
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
}

// prepare builds the instance of p.
func prepare(p *Problem) (*instance, error) {
	s, err := p.settle()
	if err != nil {
		return nil, err
	}
	in := &instance{p: p, s: s}
	in.assume = p.Assumptions
	in.assume.Horizon = s.horizon
	in.assume.Step = s.sliceLen
	in.hours = make([]float64, s.slices)
	in.start = make([]float64, s.slices)
	for t := range in.hours {
		a, b := sliceBound(s.Period, t, s.slices), sliceBound(s.Period, t+1, s.slices)
		in.start[t], in.hours[t] = a.Hours(), (b - a).Hours()
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
	for wi, w := range p.Workloads {
		wd, excluded, werr := in.workload(wi, w)
		if werr != nil {
			errs = append(errs, werr)
			continue
		}
		if wd == nil {
			in.unplaced = append(in.unplaced, Unplaced{Workload: w.Name, Err: excluded})
			continue
		}
		prep, perr := tco.Prepare(w, in.assume)
		if perr != nil {
			errs = append(errs, perr)
			continue
		}
		var exc []tco.Exclusion
		for oi, o := range p.Offers {
			if !compatible(w, o) {
				exc = append(exc, tco.Exclusion{Offer: o.ID, Err: requirementsError(w, o)})
				continue
			}
			// Fit is the solver's question: a service may spread over offers
			// and a job may run narrower than its gang, so the terms are
			// those of the offer without its stock limit.
			free := o
			free.Availability.MaxNodes = 0
			terms, terr := prep.Terms(free)
			if terr != nil {
				exc = append(exc, tco.Exclusion{Offer: o.ID, Err: terr})
				continue
			}
			if offerAt[oi] < 0 {
				offerAt[oi] = len(in.os)
				in.os = append(in.os, in.offer(oi, o, terms))
			}
			k := offerAt[oi]
			pr := pair{w: len(in.ws), k: k, terms: terms, occ: 1}
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
			in.unplaced = append(in.unplaced, Unplaced{Workload: w.Name, Err: newUnplacedError(w.Name, exc)})
			continue
		}
		wd.prep = prep
		in.ws = append(in.ws, *wd)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return in, nil
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
// problem of the input.
func (in *instance) workload(wi int, w workload.Workload) (*wdata, error, error) {
	if err := w.Validate(); err != nil {
		return nil, nil, err
	}
	T := in.s.slices
	wd := &wdata{idx: wi, w: w, service: w.IsService(), reps: make([]float64, T)}
	if wd.service {
		sl, err := workload.Discretize(w.Demand, in.s.Period, T)
		if err != nil {
			return nil, nil, fmt.Errorf("placement: workload %q: %w", w.Name, err)
		}
		wd.demand, wd.peak = make([]float64, T), make([]float64, T)
		for t, x := range sl {
			wd.peak[t] = x.Peak
			wd.demand[t] = float64(w.GPUs) * x.Peak
			wd.reps[t] = in.s.reps
		}
		return wd, nil, nil
	}
	if w.Interruption.Tolerance == workload.NoTolerance {
		return nil, &UnplacedError{Workload: w.Name, Err: ErrGang}, nil
	}
	wd.work, wd.width = w.WorkGPUHours, float64(w.GPUs)
	end := in.s.horizon.Hours()
	if d := w.Deadline.Hours(); d > 0 {
		end = min(end, d)
	}
	per := in.s.Period.Hours()
	for t := range wd.reps {
		if r := end - in.start[t] - in.hours[t]; r >= -1e-9 {
			wd.reps[t] = min(in.s.reps, math.Floor(r/per+1e-9)+1)
		}
	}
	return wd, nil, nil
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
	od.perOfferF, _ = od.perOffer.Float64()
	return od
}

// sliceBound is the start of slice i of n in period, as workload.Discretize
// places it.
func sliceBound(period time.Duration, i, n int) time.Duration {
	q, r := period/time.Duration(n), period%time.Duration(n)
	return q*time.Duration(i) + r*time.Duration(i)/time.Duration(n)
}
