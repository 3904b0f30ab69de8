package placement

import (
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
// the arrival of capacity with a lead time. Without planning over time the
// horizon is one segment.
type segment struct {
	start, end time.Duration
	// epoch is the index of the epoch the segment belongs to.
	epoch int
	// reps is how many times the period repeats in the segment:
	// (end − start)/period, fractional for a short stretch.
	reps float64
}

// commit is a commitment of committed capacity that may be started at the
// start of segment first: it covers segments first..last and costs fixed
// per node, from terms prepared for the time it is held.
type commit struct {
	first, last int
	// span is the time it is held, the end of segment last minus the start
	// of segment first.
	span   time.Duration
	fixed  decimal.Decimal
	fixedF float64
	terms  tco.Terms
}

// covers reports whether c holds its nodes in segment s.
func (c *commit) covers(s int) bool { return c.first <= s && s <= c.last }

// segments splits the horizon into epochs of the settings' epoch (the last
// one partial) and splits an epoch again where capacity with a lead time in
// leads arrives, so that the stretch bridged before the arrival has its own
// rows. Without planning over time it is the whole horizon.
func (s *settings) segments(leads []time.Duration) []segment {
	h := s.horizon
	per := s.Period.Hours()
	if !s.overTime {
		return []segment{{start: 0, end: h, reps: s.reps}}
	}
	cuts := []time.Duration{0}
	for t := s.epoch; t < h; t += s.epoch {
		cuts = append(cuts, t)
	}
	for _, l := range leads {
		if l > 0 && l < h {
			cuts = append(cuts, l)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	segs := make([]segment, len(cuts))
	for i, a := range cuts {
		b := h
		if i+1 < len(cuts) {
			b = cuts[i+1]
		}
		segs[i] = segment{start: a, end: b, epoch: int(a / s.epoch), reps: (b - a).Hours() / per}
	}
	return segs
}

// shifted is a curve read from offset on: shifted.At(t) = c.At(offset+t).
// It samples an epoch's representative period at the epoch's time.
type shifted struct {
	c      workload.Curve
	offset time.Duration
}

// At returns the curve at offset + t.
func (s shifted) At(t time.Duration) float64 { return s.c.At(s.offset + t) }

// Period returns the curve's period.
func (s shifted) Period() time.Duration { return s.c.Period() }

// planCommits lists the commitments of committed offer od that the plan may
// make: without planning over time one, held for the horizon at the offer's
// terms; over time one per segment from the offer's arrival on, lasting its
// term (whole terms covering the segment, and the segments that fit within
// them) or, for capacity without a term (owned), to the horizon's end —
// each priced by terms prepared for the time it is held, from the workload
// wd that first uses the offer. The pricing of a span that fails is left
// out.
func (in *instance) planCommits(od *odata, wd *wdata) {
	S := len(in.segs)
	if !in.s.overTime {
		od.commits = []commit{{first: 0, last: S - 1, span: in.s.horizon, fixed: od.fixed, fixedF: od.fixedF, terms: od.terms}}
		return
	}
	free := od.o
	free.Availability.MaxNodes = 0
	for s, sg := range in.segs {
		if sg.start < od.lead {
			continue
		}
		last := S - 1
		if term := od.terms.Term; term > 0 {
			m := max(1, (sg.end-sg.start+term-1)/term)
			until := sg.start + m*term
			last = s
			for last+1 < S && in.segs[last+1].end <= until {
				last++
			}
		}
		span := in.segs[last].end - sg.start
		terms := od.terms
		if span != in.s.horizon {
			t, err := in.termsFor(wd, free, s, last)
			if err != nil {
				continue
			}
			terms = t
		}
		c := commit{first: s, last: last, span: span, fixed: terms.FixedPerNode, terms: terms}
		c.fixedF, _ = c.fixed.Float64()
		od.commits = append(od.commits, c)
	}
}

// termsFor returns the terms of workload wd on o for a commitment held over
// stretches first..last, preparing the workload once per span. A service
// is prepared at a constant demand, its mean over the stretches (from their
// samples): the fixed terms of committed capacity are the offer's, per node
// held, and tco prices a constant curve in closed form where a growing one
// would be integrated over the whole span.
func (in *instance) termsFor(wd *wdata, o provider.Offer, first, last int) (tco.Terms, error) {
	key := prepKey{wd.w.Name, first, last}
	prep, ok := in.preps[key]
	if !ok {
		w := wd.w
		a := in.assume
		a.Horizon = in.segs[last].end - in.segs[first].start
		if wd.service {
			sum, hours := 0.0, 0.0
			for t, pk := range wd.peak {
				if s := in.seg[t]; first <= s && s <= last {
					sum += pk * in.hours[t] * wd.reps[t]
					hours += in.hours[t] * wd.reps[t]
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
}

// heldAt returns the nodes that commitments n (nodes per commitment of
// od.commits) hold in segment s.
func heldAt(od *odata, n []int, s int) int {
	h := 0
	for i := range od.commits {
		if i < len(n) && od.commits[i].covers(s) {
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
	return discounter{spread: decimal.NewFromFloat(s), end: decimal.NewFromFloat(f(offset + span)), upfront: decimal.NewFromFloat(f(offset)), shifted: offset > 0}
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
