package placement

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// segment is a stretch [start, end) of the horizon with its own
// representative period: an epoch, or the part of an epoch before or after
// the arrival of capacity with a lead time, or after the end of a term
// started at one of those, or after one term from one of those. Without planning over time the horizon is one
// segment.
type segment struct {
	start, end time.Duration
	// epoch is the index of the epoch the segment belongs to.
	epoch int
	// reps is how many times the period repeats in the segment:
	// (end − start)/period, fractional for a short stretch.
	reps float64
	// until is the next epoch start after start (the horizon's end at
	// the last): a commitment that starts at start buys at most the whole
	// terms that reach it, and fewer where a segment ends at a term's end.
	until time.Duration
	// window says the segment starts at a job's deadline and nothing else
	// (see settings.segments): no commitment starts there, and no
	// commitment of fewer whole terms is made to end there (one whose
	// terms end inside the window covers the stretches before it).
	window bool
}

// commit is a commitment of committed capacity that may be started at the
// start of segment first: it covers segments first..last and costs fixed
// per node, from terms prepared for the time it is held.
type commit struct {
	first, last int
	// paid is the last segment that starts before end: the nodes are held
	// (and count in the stock) to there, serving segments first..last.
	paid int
	// span is the time it is held, the end of segment last minus the start
	// of segment first; end is the end of what it pays for: its last whole
	// term's end (past the horizon's end, or past segment last where a
	// term ends inside a stretch), or the horizon's end for capacity
	// without a term.
	span time.Duration
	end  time.Duration
	// count is the whole terms it buys when they are fewer than reach the
	// next epoch start (a monthly rental held for one month of a yearly
	// epoch), 0 for those.
	count  int
	fixed  decimal.Decimal
	fixedF float64
	terms  tco.Terms
	// chain marks a commitment that others make at no more cost (see
	// markChains): it has no column in the model and is kept for the
	// report, which joins a month and the next into it (joinTerms).
	chain bool
}

// covers reports whether c's nodes serve segment s.
func (c *commit) covers(s int) bool { return c.first <= s && s <= c.last }

// holds reports whether c holds its nodes in segment s, serving it or in
// the tail it pays for past segment last (which counts in the stock).
func (c *commit) holds(s int) bool { return c.first <= s && s <= c.paid }

// arrival is what the stretches of an offer's capacity depend on: its lead
// time, its term (0: none) and until when a commitment of it may be wanted
// for one term of a longer stretch: the latest end of the demand of the
// workloads that can use it and may ask for different capacity in
// different months of an epoch (monthsDiffer; 0: none).
type arrival struct {
	lead, term time.Duration
	partUntil  time.Duration
	// until is when the last workload that can use it ends, when that is
	// before the horizon's end (untilOf; 0: none): its commitments end
	// with the whole terms that reach it.
	until time.Duration
}

// offerTerm is the length of one commitment of o's pricing (a
// reservation's term, a monthly rental's month); 0 for pricing without a
// term. A pay-as-you-go mode billed in long increments is planned per use
// (perUse) and has none here.
func offerTerm(o provider.Offer) time.Duration {
	if c, ok := provider.As[provider.Committer](o.Pricing); ok {
		return max(0, c.Commitment())
	}
	return 0
}

// segments splits the horizon into epochs of the settings' epoch (the last
// one partial), splits an epoch again where capacity in arrivals arrives,
// so that the stretch bridged before the arrival has its own rows, and
// again at the term cuts of every offer with a term (termCuts): where the
// whole terms of a commitment started at an epoch start or arrival end
// just past, or just before, a later one, and one term after it where a
// workload may want part of an epoch, so that a commitment covers all it
// pays for and a commitment of a term shorter than the stretch (a monthly
// rental in a yearly epoch) may be held for one term, or for the terms
// that fit before an arrival, and dropped there. An offer added, or one
// arriving elsewhere, only adds cuts. Finally it splits a stretch at every
// deadline in deadlines (the divisible jobs' that share capacity with other
// work: see windows), so that a job's work uses a stretch's capacity only
// before its deadline and what else uses that capacity has it back after;
// those segments are windows, where no commitment starts and none of fewer
// terms ends, so that they add rows and uses but no commitment. Without
// planning over time it is the whole horizon.
func (s *settings) segments(arrivals []arrival, deadlines []time.Duration) []segment {
	h := s.horizon
	per := s.Period.Hours()
	if !s.overTime {
		return []segment{{start: 0, end: h, reps: s.reps, until: h}}
	}
	epochs := []time.Duration{0}
	for t := s.epoch; t < h; t += s.epoch {
		epochs = append(epochs, t)
	}
	base := slices.Clone(epochs)
	for _, a := range arrivals {
		if a.lead > 0 && a.lead < h {
			base = append(base, a.lead)
		}
	}
	slices.Sort(base)
	base = slices.Compact(base)
	cuts := append(slices.Clone(base), termCuts(base, epochs, arrivals, h, s.Period)...)
	cuts = append(cuts, untilCuts(epochs, arrivals, h)...)
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	window := windows(cuts, deadlines, h)
	for d := range window {
		cuts = append(cuts, d)
	}
	slices.Sort(cuts)
	segs := make([]segment, len(cuts))
	for i, a := range cuts {
		b := h
		if i+1 < len(cuts) {
			b = cuts[i+1]
		}
		segs[i] = segment{start: a, end: b, epoch: int(a / s.epoch), reps: (b - a).Hours() / per, until: nextEpoch(epochs, a, h), window: window[a]}
	}
	return segs
}

// windows returns the window cuts of deadlines: every deadline inside the
// horizon that is not among cuts (sorted). A window sits at the deadline
// itself, however near another cut, so that a later deadline, another
// cut (an offer's arrival) or another job never makes a job hold what it
// uses past its deadline: the model only gets finer. A stretch shorter
// than the period weighs its part of one (see segment.reps).
func windows(cuts, deadlines []time.Duration, h time.Duration) map[time.Duration]bool {
	out := map[time.Duration]bool{}
	for _, d := range deadlines {
		if _, found := slices.BinarySearch(cuts, d); !found && d > 0 && d < h {
			out[d] = true
		}
	}
	return out
}

// untilCuts returns, for every offer with a term whose users all end
// before h (arrival.until), the end of the whole terms from each anchor of
// its terms (its arrival, the epoch starts after it) before that end that
// reach it, inside the horizon: a commitment bought to the last user's end
// (planCommits) covers exactly the stretches it pays for. Unlike
// termCuts', these are kept however near another cut.
func untilCuts(epochs []time.Duration, arrivals []arrival, h time.Duration) []time.Duration {
	var out []time.Duration
	for _, ar := range arrivals {
		tau := ar.term
		if tau <= 0 || ar.until <= 0 || ar.lead >= ar.until {
			continue
		}
		for _, a := range append([]time.Duration{ar.lead}, epochs...) {
			if a < ar.lead || a >= ar.until {
				continue
			}
			if e := a + (ar.until-a+tau-1)/tau*tau; e > a && e < h {
				out = append(out, e)
			}
		}
	}
	return out
}

// nextEpoch returns the first epoch start after t, or h.
func nextEpoch(epochs []time.Duration, t, h time.Duration) time.Duration {
	k, found := slices.BinarySearch(epochs, t)
	if found {
		k++
	}
	if k < len(epochs) {
		return epochs[k]
	}
	return h
}

// termCuts returns the cuts that the terms of the arrivals add to the base
// cuts (the epoch starts and arrivals). The terms of an offer with term τ
// are anchored at its arrival and at the epoch starts after it; from every
// anchor a they cut at the end a + ⌈(b − a)/τ⌉·τ of the whole terms that
// reach past b, for b the next epoch start after a (the horizon's end h at
// the last) and every arrival before it; at the end a + ⌊(b − a)/τ⌋·τ of
// those that fit before an arrival b (a monthly rental bridging to it may
// stop at the last month before it, or run past it); and at a + τ where a
// workload may want part of an epoch after a (a < arrival.partUntil: a
// job's month). Every arrival before the next epoch start counts, not only
// the next, and the anchors are the offer's own, so that an arrival of
// another offer, one the plan may not use, adds cuts and never takes one
// away. A cut less than max(period, τ/12) from a base cut, from h or from
// a cut kept before it is left out (and so are those past h): a
// commitment that ends there then covers the stretches to the cut before
// and pays a tail it does not use (termTail), shorter than a period and
// than a twelfth of its term (a month of a year's reservation).
func termCuts(base, epochs []time.Duration, arrivals []arrival, h, period time.Duration) []time.Duration {
	type cand struct{ at, tol time.Duration }
	var cands []cand
	add := func(e, tau time.Duration) {
		if e < h {
			cands = append(cands, cand{e, termTail(tau, period)})
		}
	}
	for _, ar := range arrivals {
		tau := ar.term
		if tau <= 0 || ar.lead >= h {
			continue
		}
		// The anchors of its terms: its arrival and the epoch starts after.
		anchors := []time.Duration{ar.lead}
		for _, e := range epochs {
			if e > ar.lead {
				anchors = append(anchors, e)
			}
		}
		for _, a := range anchors {
			if a < ar.partUntil && a <= h-tau {
				add(a+tau, tau)
			}
			next := nextEpoch(epochs, a, h)
			for _, b := range arrivals {
				if b.lead > a && b.lead < next {
					n := (b.lead - a) / tau
					if n > 0 {
						add(a+n*tau, tau)
					}
					if (b.lead-a)%tau != 0 && n < (h-a)/tau {
						add(a+(n+1)*tau, tau)
					}
				}
			}
			if n := (next - a) / tau; (next-a)%tau != 0 && n < (h-a)/tau {
				add(a+(n+1)*tau, tau)
			}
		}
	}
	slices.SortFunc(cands, func(x, y cand) int { return cmp.Compare(x.at, y.at) })
	var kept []time.Duration
	for _, c := range cands {
		e := c.at
		k, _ := slices.BinarySearch(base, e)
		if k < len(base) && base[k]-e < c.tol || k > 0 && e-base[k-1] < c.tol || h-e < c.tol {
			continue
		}
		if n := len(kept); n > 0 && e-kept[n-1] < c.tol {
			continue
		}
		kept = append(kept, e)
	}
	return kept
}

// termTail is the longest unused tail that a commitment of term tau may
// pay for where its term ends near a cut rather than at one: a period, or
// a twelfth of the term where that is longer.
func termTail(tau, period time.Duration) time.Duration { return max(period, tau/12) }

// monthsDiffer returns until when workload w may ask for different
// capacity in different months of an epoch, so that a commitment held for
// one term of it can be worth its while (0: never): a finite job to its
// deadline or the horizon's end h (its work may all go to one month, a
// gang runs for its wall time), a service whose curve does not repeat with
// the period (growth, a launch, steps) to its end, and a service whose own
// horizon ends before h (the caller says so, own) to that end.
func monthsDiffer(w workload.Workload, period, h time.Duration, own bool) time.Duration {
	end := h
	if own {
		end = min(h, w.Horizon)
	}
	if !w.IsService() {
		if w.Deadline > 0 {
			end = min(end, w.Deadline)
		}
		return end
	}
	if own {
		return end
	}
	if _, constant := w.Demand.(workload.Constant); constant {
		return 0
	}
	if p := w.Demand.Period(); p > 0 && period%p == 0 {
		return 0
	}
	return end
}

// planCommits lists the commitments of committed offer od that the plan may
// make: without planning over time one, held for the horizon at the
// offer's terms (or to the end of the last workload that can use it,
// untilOf); over time one per segment from the offer's arrival on (a
// window's start aside), lasting its term (the whole terms that reach the
// segment's until — the next epoch start, or untilOf's end where sooner —
// covering the segments that fit within them, which segments makes all of
// them from an anchor of the offer's terms within the horizon but a tail
// shorter than termTail) or, for capacity without a term (owned), to the
// horizon's end — and, for every fewer whole terms i from the segment's
// start at whose end, or less than termTail before it, a segment ends
// (termCuts), one more held for those i terms to the last such segment
// (commit.count) — each priced by terms prepared for the time it is held,
// from the workload wd that first uses the offer. The pricing of a span
// that fails is left out.
func (in *instance) planCommits(od *odata, wd *wdata) {
	S := len(in.segs)
	free := od.o
	free.Availability.MaxNodes = 0
	if !in.s.overTime {
		c := commit{first: 0, last: S - 1, paid: S - 1, span: in.s.horizon, end: in.s.horizon, fixed: od.fixed, fixedF: od.fixedF, terms: od.terms}
		if u, term := in.untilAt(od.idx), od.terms.Term; u > 0 && term > 0 && (u+term-1)/term*term < in.s.horizon {
			// Nothing that can use it needs it after u (untilOf): the
			// whole terms that reach u.
			u = (u + term - 1) / term * term
			if t, err := in.termsOver(wd, free, 0, S-1, u); err == nil {
				c.span, c.end, c.terms, c.fixed = u, u, t, t.FixedPerNode
				c.fixedF, _ = c.fixed.Float64()
				od.fixed, od.fixedF = c.fixed, c.fixedF
			}
		}
		od.commits = []commit{c}
		return
	}
	for s, sg := range in.segs {
		if sg.start < od.lead || sg.window {
			continue
		}
		last, end := S-1, in.s.horizon
		var m time.Duration // whole terms bought
		term := od.terms.Term
		if term > 0 {
			m = max(1, (sg.until-sg.start+term-1)/term)
			if u := in.untilAt(od.idx); u > sg.start && u < sg.until {
				// Nothing needs it after u: the whole terms that reach u,
				// when they reach past this stretch (untilCuts cuts there
				// from the offer's anchors; a commitment from another
				// cut buys to the next epoch as before).
				if k := max(1, (u-sg.start+term-1)/term); sg.start+k*term >= sg.end {
					m = min(m, k)
				}
			}
			end = sg.start + m*term
			if end < sg.start { // overflow: past any horizon
				end = time.Duration(math.MaxInt64)
			}
			last = s
			for last+1 < S && in.segs[last+1].end <= end {
				last++
			}
		}
		in.addCommit(od, wd, free, s, last, end, 0)
		if term <= 0 {
			continue
		}
		// Fewer whole terms k where a segment ends at the k-th term's end
		// or less than termTail before it: held to the last such segment.
		// (A window's start is no segment's end here: the segments it
		// splits end at the cut after.)
		tail := termTail(term, in.s.Period)
		for l := s; l < last; l++ {
			if in.segs[l+1].window {
				continue
			}
			d := in.segs[l].end - sg.start
			k := (d + term - 1) / term
			if k >= m || k*term-d >= tail {
				continue
			}
			nl := l + 1 // the last segment before the next cut
			for nl+1 < S && in.segs[nl+1].window {
				nl++
			}
			if next := in.segs[nl].end - sg.start; nl < last && (next+term-1)/term == k && k*term-next < tail {
				continue // the next segment ends nearer the term's end
			}
			in.addCommit(od, wd, free, s, l, sg.start+k*term, int(k))
		}
	}
	if in.reduce {
		markChains(od.commits, !math.IsInf(od.stock, 1))
	}
}

// addCommit adds to od the commitment that starts at segment first, covers
// segments first..last and pays for what ends at end, of count whole terms
// when fewer than reach the next epoch start (0: those), priced by terms
// prepared for its span with wd (left out when that pricing fails).
func (in *instance) addCommit(od *odata, wd *wdata, free provider.Offer, first, last int, end time.Duration, count int) {
	span := in.segs[last].end - in.segs[first].start
	terms := od.terms
	if span != in.s.horizon {
		t, err := in.termsFor(wd, free, first, last)
		if err != nil {
			return
		}
		terms = t
	}
	paid := last
	for paid+1 < len(in.segs) && in.segs[paid+1].start < end {
		paid++
	}
	c := commit{first: first, last: last, paid: paid, span: span, end: end, count: count, fixed: terms.FixedPerNode, terms: terms}
	c.fixedF, _ = c.fixed.Float64()
	od.commits = append(od.commits, c)
}

// termsFor returns the terms of workload wd on o for a commitment held over
// stretches first..last, preparing the workload once per span. A service
// is prepared at a constant demand, its mean over the stretches (from their
// samples): the fixed terms of committed capacity are the offer's, per node
// held, and tco prices a constant curve in closed form where a growing one
// would be integrated over the whole span.
func (in *instance) termsFor(wd *wdata, o provider.Offer, first, last int) (tco.Terms, error) {
	return in.termsOver(wd, o, first, last, in.segs[last].end-in.segs[first].start)
}

// termsOver is termsFor for capacity held over span from the start of
// stretch first, where that is not the end of stretch last: without
// planning over time, the one stretch's first span (see untilOf).
func (in *instance) termsOver(wd *wdata, o provider.Offer, first, last int, span time.Duration) (tco.Terms, error) {
	key := prepKey{wd.w.Name, first, last, span}
	prep, ok := in.preps[key]
	if !ok {
		w := wd.w
		a := in.assume
		a.Horizon = span
		scale := span.Hours() / (in.segs[last].end - in.segs[first].start).Hours()
		if wd.service {
			sum, hours := 0.0, 0.0
			for t, pk := range wd.peak {
				if s := in.seg[t]; first <= s && s <= last {
					// wd.reps weighs the peak by the mean's share of it.
					sum += pk * in.hours[t] * wd.reps[t]
					hours += in.hours[t] * in.segs[s].reps * scale
				}
			}
			w.Demand = workload.Constant{Value: min(1, sum/max(hours, 1e-300))}
		} else {
			// A job would be billed for its own run (a 31-day job takes two
			// months of a monthly rental), not for the span held: the
			// commitment's terms are those of capacity held at full load
			// over the span, whichever workload comes first.
			w.Kind, w.Demand, w.Horizon = workload.Inference, workload.Constant{Value: 1}, a.Horizon
			w.WorkGPUHours, w.Deadline, w.GangSizes, w.CostOfDelayPerDay = 0, 0, workload.GangSizes{}, decimal.Zero
		}
		p, err := tco.Prepare(w, a)
		if err != nil {
			return tco.Terms{}, err
		}
		if in.preps == nil {
			in.preps = map[prepKey]*tco.Prepared{}
		}
		in.preps[key], prep = p, p
	}
	return prep.Terms(o)
}

// prepKey names a workload prepared for the stretches first..last.
type prepKey struct {
	name        string
	first, last int
	span        time.Duration
}

// heldAt returns the nodes that commitments n (nodes per commitment of
// od.commits) hold in segment s, in the tails they pay for too.
func heldAt(od *odata, n []int, s int) int {
	h := 0
	for i := range od.commits {
		if i < len(n) && od.commits[i].holds(s) {
			h += n[i]
		}
	}
	return h
}

// discounterAt is a discounter for lines of a commitment that starts at
// offset and is held for span: upfront at offset, spread over the months of
// the span, at the end at offset + span.
func discounterAt(offset, span time.Duration, rate float64) discounter {
	if rate == 0 || span <= 0 {
		return discounter{none: true}
	}
	f := func(t time.Duration) float64 { return math.Pow(1+rate, -t.Hours()/provider.Year.Hours()) }
	months := max(1, int(math.Ceil(span.Hours()/provider.Month.Hours())))
	s := 0.0
	for m := range months {
		a, b := time.Duration(m)*provider.Month, min(time.Duration(m+1)*provider.Month, span)
		s += (b - a).Hours() / span.Hours() * f(offset+b)
	}
	return discounter{spread: decimal.NewFromFloat(s), end: decimal.NewFromFloat(f(offset + span)), upfront: decimal.NewFromFloat(f(offset)), shifted: offset > 0,
		rate: rate, offset: offset}
}

// stretchShares returns the share of each stretch in pair q's use u (GPUs
// per slice), by GPU-hours; nil with one stretch or no use.
func (in *instance) stretchShares(q int, u []float64) []float64 {
	if len(in.segs) == 1 {
		return nil
	}
	wd := &in.ws[in.pairs[q].w]
	sh := make([]float64, len(in.segs))
	total := 0.0
	for t, v := range u {
		g := v * in.hours[t] * wd.reps[t]
		sh[in.seg[t]] += g
		total += g
	}
	if total <= 0 {
		return nil
	}
	for i := range sh {
		sh[i] /= total
	}
	return sh
}

// useDiscounters returns the discounter of each line of a use, by the
// lines' kinds. A variable line — paid per node-hour of use — discounts
// where the use happens: over the time [from, from + span) when span > 0 (a
// gang's run), otherwise stretch by stretch in shares (stretchShares), each
// stretch's part spread over the months of that stretch from its start, as
// tco discounts a leg of the plan held then. A one-off line discounts over
// the horizon, as without planning over time. Nil (every line over the
// horizon) without a discount rate or shares.
func (in *instance) useDiscounters(kinds []tco.TermKind, shares []float64, from, span time.Duration) []discounter {
	rate := in.assume.DiscountRatePerYear
	base := newDiscounter(in.s.horizon, rate)
	if base.none || shares == nil && span <= 0 {
		return nil
	}
	v := base
	if span > 0 {
		v.spread = discounterAt(from, span, rate).spread
	} else {
		s := 0.0
		for i, sh := range shares {
			if sh > 0 {
				sg := in.segs[i]
				f, _ := discounterAt(sg.start, sg.end-sg.start, rate).spread.Float64()
				s += sh * f
			}
		}
		v.spread = decimal.NewFromFloat(s)
	}
	out := make([]discounter, len(kinds))
	for i, k := range kinds {
		out[i] = base
		if k == tco.Variable {
			out[i] = v
		}
	}
	return out
}

// bridgedDelay returns terms without the cost of delay that planning over
// time models itself: capacity with a lead time is used only after it
// arrives and the plan serves demand before that on other capacity (or
// reports the workload unplaced), and a job's work is placed before its
// deadline. What is left of a service's delay line is the expected wait
// for stock beyond the lead time; a job's delay line goes. Terms that price
// no delay are returned unchanged.
func bridgedDelay(terms tco.Terms, w workload.Workload, lead time.Duration) tco.Terms {
	var lines []tco.TermLine
	for i, l := range terms.Lines {
		if l.Category != provider.Delay || l.Kind != tco.OneOff || l.Amount.IsZero() {
			continue
		}
		if lines == nil {
			lines = slices.Clone(terms.Lines)
		}
		amount := decimal.Zero
		if w.IsService() {
			wait := max(0, terms.StartDelay-lead)
			amount = w.CostOfDelayPerDay.Mul(decimal.NewFromFloat(wait.Hours() / 24)).Round(provider.Precision)
		}
		terms.OneOff = terms.OneOff.Sub(l.Amount).Add(amount)
		lines[i].Amount = amount
	}
	if lines != nil {
		terms.Lines = lines
	}
	return terms
}

// phasesOf returns the slices of a cycle of curve c's shape (workload.Cycle)
// when c does not repeat (Period 0) but has a cycle that divides period
// several times and is a whole number of its n slices, and whole, how many
// of the slices, from the first, the stretch part being sampled (of length
// span) holds whole: all n when span ≥ period. phases is 0 when there is no
// such cycle or the part holds fewer than two cycles of whole slices. The
// slices i, i + phases, i + 2·phases, … below whole are moments of the
// part a whole number of cycles apart: the same phase of the cycle
// (mergePhases).
func phasesOf(c workload.Curve, period time.Duration, n int, span time.Duration) (phases, whole int) {
	if c.Period() > 0 || span <= 0 || n < 1 || period%time.Duration(n) != 0 {
		return 0, 0
	}
	cyc, slice := workload.Cycle(c), period/time.Duration(n)
	if cyc <= 0 || cyc >= period || period%cyc != 0 || cyc%slice != 0 {
		return 0, 0
	}
	phases, whole = int(cyc/slice), n
	if span < period {
		whole = int(span / slice)
	}
	if whole < 2*phases {
		return 0, 0
	}
	return phases, whole
}

// mergePhases makes the first whole slices of each phase of a cycle of
// phases slices alike (phases 0: unchanged): each needs the largest peak
// of the phase and weighs the phase's mean mean. Capacity that meets the
// merged peak meets every slice's (it is the largest of theirs, over
// moments of the stretch), and the slices' volume is unchanged (the means'
// sum is): a growing daily pattern over a week of hourly slices asks in
// every day's hour what the stretch's busiest day asks, at the volume the
// hours have. The merged slices then form one class of the model
// (sliceClasses) where they were seven. The slices from whole on (a part
// of the period the stretch does not hold whole) are left as they are.
func mergePhases(peak, mean []float64, phases, whole int) {
	if phases <= 0 || whole > len(peak) {
		return
	}
	for i := range phases {
		top, sum, k := 0.0, 0.0, 0.0
		for j := i; j < whole; j += phases {
			top, sum, k = max(top, peak[j]), sum+mean[j], k+1
		}
		for j := i; j < whole; j += phases {
			peak[j], mean[j] = top, sum/k
		}
	}
}

// maxSampledPeriods bounds the repetitions of the period sampled in one
// stretch of a curve that does not repeat with the period (beyond it,
// evenly spaced repetitions stand for the rest).
const maxSampledPeriods = 400

// stretchPeaks returns, for each of the n slices of period in the stretch
// [start, end), the peak demand the stretch's capacity must meet and the
// mean peak its use is priced at, per repetition of the period as the
// stretch's slices weigh (end − start)/period. The stretch holds F whole
// repetitions of the period and, when (end − start)/period is not whole, a
// partial last one. For a curve that repeats with the period (or is
// constant) the whole repetitions are its slices' peaks at start. Otherwise
// they are sampled one by one (beyond maxSampledPeriods, evenly spaced
// ones stand for the rest, each weighing F/k, the last always among those
// the peak looks at). In the partial repetition a slice counts only its
// part before end (0 to 1 of it) at its peak over that part — nothing for
// a slice that starts at or after end, whose demand belongs to the next
// stretch, where other offers may exist. mean is the sum of those
// weighted peaks over (end − start)/period, so that the stretch's volume
// of demand is the curve's (to the slices' resolution): a launch, a step,
// growth or the days a partial repetition holds are priced at what they
// ask. peak is the largest of each slice's peaks over the same
// repetitions, in the partial one over the part of each slice before end
// (none past it), so that the capacity the plan holds meets the demand in
// every slice of every repetition — growth late in a long stretch included
// — and none after the stretch. A repetition within the span prep sampled
// is read off its slices (tco.Prepared.Resliced: the same samples); prep
// may be nil.
func stretchPeaks(prep *tco.Prepared, c workload.Curve, start, end, period time.Duration, n int) (peak, mean []float64, err error) {
	_, constant := c.(workload.Constant)
	p := c.Period()
	span := end - start
	repeats := constant || p > 0 && period%p == 0
	whole := int64(span / period)
	partial := span%period != 0
	// k whole repetitions are sampled, each weighing whole/k.
	k := min(whole, maxSampledPeriods)
	if repeats {
		k = min(whole, 1)
	}
	mean, peak = make([]float64, n), make([]float64, n)
	sample := func(r int64) ([]workload.Slice, time.Duration, error) {
		off := start + time.Duration(r)*period
		if sl, ok := prep.Resliced(off, period, n); ok {
			return sl, off, nil
		}
		sl, err := workload.DiscretizeFrom(c, off, period, n)
		return sl, off, err
	}
	// within returns the part of slice x of the repetition at off before
	// end (0 to 1) and its peak over that part.
	within := func(x workload.Slice, off time.Duration) (float64, float64, error) {
		from := off + x.Start
		switch {
		case from >= end:
			return 0, 0, nil
		case from+x.Length <= end:
			return 1, x.Peak, nil
		}
		head, err := workload.DiscretizeFrom(c, from, end-from, 1)
		if err != nil {
			return 0, 0, err
		}
		return float64(end-from) / float64(x.Length), head[0].Peak, nil
	}
	// top raises peak to repetition r's peaks before end and adds them,
	// weighing wt, to mean; a partial repetition adds each slice's part.
	top := func(r int64, wt float64) error {
		sl, off, err := sample(r)
		if err != nil {
			return err
		}
		for i, x := range sl {
			part, pk, err := within(x, off)
			if err != nil {
				return err
			}
			if part > 0 {
				peak[i] = max(peak[i], pk)
				mean[i] += wt * part * pk
			}
		}
		return nil
	}
	total := float64(span) / float64(period)
	each := float64(whole) / float64(max(k, 1))
	for j := range k {
		if err := top(j*whole/k, each); err != nil {
			return nil, nil, err
		}
	}
	if last := whole - 1; !repeats && k > 0 && (k-1)*whole/k != last {
		if err := top(last, 0); err != nil {
			return nil, nil, err
		}
	}
	if partial {
		if err := top(whole, 1); err != nil {
			return nil, nil, err
		}
	}
	for i := range mean {
		mean[i] /= total
	}
	return peak, mean, nil
}
