package tco

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// Prepared is a workload validated, under assumptions, and — for a service —
// its demand curve sampled once, ready to be priced on any number of offers.
// Evaluate(w, o, a) is Prepare(w, a) followed by Evaluate(o), and gives the
// same report. A Prepared is immutable and safe for concurrent use; the zero
// value is not usable (its methods return ErrNotPrepared).
type Prepared struct {
	w workload.Workload
	a Assumptions
	// demand is the sampled demand of a service priced from its curve; nil
	// for finite jobs and for services priced at Assumptions.Utilization.
	demand *demand
	// sched is the monthly schedule of the fixed horizon, when there is one.
	sched *schedule
	qty   prepared
	ok    bool
}

// prepared holds decimals of the workload's quantities, converted once.
type prepared struct {
	datasetGB, egressGB, storedGB decimal.Decimal
	// fixedHours is the fixed horizon in hours, months and years the same
	// in months and years (valid when fixedHours > 0).
	fixedHours    float64
	months, years decimal.Decimal
}

// demand is a service's demand curve sampled once: the slices of
// workload.Discretize over the curve's period (or the horizon), indexed for
// pricing on offers of any node size.
type demand struct {
	// slices are Discretize's, chronological; the capacity of a slice must
	// cover its Peak, its Demand is the mean GPU use.
	slices []workload.Slice
	// sliceHours is the length of one slice, periods the number of times the
	// sampled span repeats over the horizon, circular whether it wraps.
	sliceHours float64
	periods    float64
	circular   bool
	// above, for a span that repeats a fractional number of times over the
	// horizon, is the times the slices occur in it (the whole repetitions
	// and each slice's part of the partial last one) summed over the slices
	// of the largest peaks: above[i] over the slices of peaks[i:]. Nil when
	// every slice occurs periods times.
	above []float64
	// mean is the mean demand over the horizon, a fraction of the
	// workload's GPUs: workload.Mean's, not the slices' (whose sampling
	// misses a period shorter than a few steps).
	mean float64
	// peaks holds the slices' peaks sorted ascending; riseFrom and riseTo, of
	// the slices whose peak exceeds the previous slice's, that previous peak
	// (−1 before the first slice of a span that does not wrap) and the own
	// peak, each sorted ascending. A run of the k-th node starts in a slice
	// where the previous slice needs fewer than k nodes and this one k or
	// more.
	peaks, riseFrom, riseTo []float64
	// levels holds the distinct peaks ascending; firstRise[j] is the first
	// slice, chronologically, where a rise reaches levels[j] from below it
	// (−1 when none does): where the runs of the node that levels[j] first
	// needs start in the sampled span.
	levels    []float64
	firstRise []int
}

// Prepare validates w and a, and for a service samples its demand curve at
// the assumptions' step over the curve's period (or the horizon when the
// curve has no period or a longer one) with workload.Discretize — the slices
// the placement solver sees, whose peaks set the capacity held. The mean GPU
// use priced is workload.Mean over the horizon, whatever the step. It
// returns every problem joined, as Evaluate does. It does not modify w or a
// and keeps copies of them (the demand curve is kept as given: curves are
// immutable values).
func Prepare(w workload.Workload, a Assumptions) (*Prepared, error) {
	// Keep copies of what the caller could change afterwards.
	w.Requirements.Models = maps.Clone(w.Requirements.Models)
	w.Requirements.Jurisdictions = slices.Clone(w.Requirements.Jurisdictions)
	return prepare(w, a, nil)
}

// prepare is Prepare; a non-nil o is validated too, its problems joined
// between the workload's and the assumptions' as Evaluate reports them.
func prepare(w workload.Workload, a Assumptions, o *provider.Offer) (*Prepared, error) {
	var oerr error
	if o != nil {
		oerr = o.Validate()
	}
	if err := errors.Join(w.Validate(), oerr, a.Validate()); err != nil {
		return nil, err
	}
	if a.Horizon == 0 && w.Horizon > MaxHorizon {
		return nil, fmt.Errorf("tco: workload %s: horizon %v beyond MaxHorizon = %v (100 years): %w",
			quoted(w.Name), w.Horizon, MaxHorizon, ErrInvalidAssumptions)
	}
	p := &Prepared{w: w, a: a, ok: true}
	if o == nil {
		p.a.Exclude = slices.Clone(a.Exclude)
	}
	if h := p.fixedHorizon(); h > 0 {
		p.sched = newSchedule(h, a.DiscountRatePerYear)
		p.qty.fixedHours = h.Hours()
		p.qty.months, p.qty.years = monthsAndYears(dec(h.Hours()))
	}
	var q quantities
	p.qty.datasetGB = q.dec("workload data.datasetGB", w.Data.DatasetGB)
	p.qty.egressGB = q.dec("workload data.egressGBPerMonth", w.Data.EgressGBPerMonth)
	p.qty.storedGB = q.dec("workload data.datasetGB + data.checkpointGB", w.Data.DatasetGB+w.Data.CheckpointGB)
	if q.err != nil {
		return nil, fmt.Errorf("tco: workload %s: %w", quoted(w.Name), q.err)
	}
	if !w.IsService() {
		return p, nil
	}
	horizon := p.fixedHorizon()
	if horizon <= 0 {
		return nil, fmt.Errorf("tco: service %s: horizon required: %w", quoted(w.Name), ErrInvalidAssumptions)
	}
	if a.Utilization > 0 {
		return p, nil
	}
	span, circular := horizon, false
	if per := w.Demand.Period(); per > 0 && per <= horizon {
		span, circular = per, true
	}
	n := int(span / a.step())
	n = min(max(n, 1), maxSamples)
	sl, err := workload.Discretize(w.Demand, span, n)
	if err != nil {
		return nil, fmt.Errorf("tco: service %s: %w", quoted(w.Name), err)
	}
	d := &demand{slices: sl, circular: circular, periods: horizon.Hours() / span.Hours(),
		sliceHours: (span / time.Duration(n)).Hours()}
	d.index()
	if circular && horizon%span != 0 {
		d.partial(horizon/span, (horizon % span).Hours())
	}
	// The slices carry capacity at the step's resolution; the mean GPU use
	// is the curve's own, so that a period of a few steps or less (9 min at
	// 5-min steps) is not priced at the mean of a handful of samples.
	if d.mean, err = workload.Mean(w.Demand, horizon); err != nil {
		return nil, fmt.Errorf("tco: service %s: %w", quoted(w.Name), err)
	}
	p.demand = d
	return p, nil
}

// Workload returns a copy of the prepared workload (its requirement map and
// slices are the caller's to modify); the zero Workload for a nil Prepared.
func (p *Prepared) Workload() workload.Workload {
	if p == nil {
		return workload.Workload{}
	}
	w := p.w
	w.Requirements.Models = maps.Clone(w.Requirements.Models)
	w.Requirements.Jurisdictions = slices.Clone(w.Requirements.Jurisdictions)
	return w
}

// Assumptions returns a copy of the assumptions the workload was prepared
// under; the zero Assumptions for a nil Prepared.
func (p *Prepared) Assumptions() Assumptions {
	if p == nil {
		return Assumptions{}
	}
	a := p.a
	a.Exclude = slices.Clone(a.Exclude)
	return a
}

// Slices returns the demand slices a service is priced from (those of
// workload.Discretize over the sampled span), or nil for a finite job or a
// service priced at Assumptions.Utilization. The caller may modify the slice.
func (p *Prepared) Slices() []workload.Slice {
	if p == nil || p.demand == nil {
		return nil
	}
	return slices.Clone(p.demand.slices)
}

// Resliced returns workload.DiscretizeFrom(w.Demand, offset, period, n) for
// the prepared service w, read off the slices it is priced from with
// workload.Reslice — the same samples, bit for bit, without sampling the
// curve again. ok is false, and the slices nil, for a nil Prepared, a
// finite job, a service priced at Assumptions.Utilization, or a window that
// workload.Reslice cannot read off those slices: the caller then samples
// with DiscretizeFrom. The caller may modify the slices returned.
func (p *Prepared) Resliced(offset, period time.Duration, n int) (_ []workload.Slice, ok bool) {
	if p == nil || p.demand == nil {
		return nil, false
	}
	return workload.Reslice(p.demand.slices, offset, period, n)
}

// fixedHorizon returns the horizon set by the assumptions or the workload.
func (p *Prepared) fixedHorizon() time.Duration {
	if p.a.Horizon > 0 {
		return p.a.Horizon
	}
	return p.w.Horizon
}

// monthsAndYears returns hours in months and years at provider.Precision.
func monthsAndYears(hours decimal.Decimal) (months, years decimal.Decimal) {
	return hours.DivRound(hoursPerMonth, provider.Precision), hours.DivRound(hoursPerYear, provider.Precision)
}

// monthsAndYears returns hours (held) in months and years, from the
// prepared horizon when they are its hours; a quantity that is not finite is
// recorded in q.
func (p *Prepared) monthsAndYears(q *quantities, hours float64) (months, years decimal.Decimal) {
	if hours == p.qty.fixedHours && hours > 0 {
		return p.qty.months, p.qty.years
	}
	return monthsAndYears(q.dec("hours held", hours))
}

// discounts returns the monthly schedule of horizon.
func (p *Prepared) discounts(horizon time.Duration) *schedule {
	if p.sched != nil && p.sched.horizon == horizon {
		return p.sched
	}
	return newSchedule(horizon, p.a.DiscountRatePerYear)
}

// check returns ErrNotPrepared for a nil or zero Prepared.
func (p *Prepared) check() error {
	if p == nil || !p.ok {
		return fmt.Errorf("tco: %w", ErrNotPrepared)
	}
	return nil
}

// partial fills above for a span that repeats whole times over the
// horizon and then rem hours more: in those, a slice counts its part
// before the horizon's end (1 for a slice within them, 0 for one after).
func (d *demand) partial(whole time.Duration, rem float64) {
	n := len(d.slices)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(d.slices[a].Peak, d.slices[b].Peak) })
	d.above = make([]float64, n+1)
	for r := n - 1; r >= 0; r-- {
		i := order[r]
		part := min(1, max(0, (rem-float64(i)*d.sliceHours)/d.sliceHours))
		d.above[r] = d.above[r+1] + float64(whole) + part
	}
}

// levelRuns turns the sampled demand into runs on nodes of gpn GPUs for a
// service of gpus GPUs: the k-th node runs whenever the slice's peak needs at
// least k nodes; each maximal stretch of such slices is one run. Levels
// between two consecutive distinct node counts run alike, so they share one
// Run with Nodes set to their number. It returns the runs, the peak nodes and
// the node-hours run, in O(levels · log slices).
func (d *demand) levelRuns(gpus, gpn int) (runs []provider.Run, peak int, nodeHours float64) {
	need := func(v float64) int { return int(math.Ceil(float64(gpus)*v/float64(gpn) - 1e-9)) }
	n := len(d.peaks)
	atLeast := func(vs []float64, k int) int { // how many of vs need ≥ k nodes
		return len(vs) - sort.Search(len(vs), func(i int) bool { return need(vs[i]) >= k })
	}
	below := 0
	for k := 1; ; {
		i := sort.Search(n, func(i int) bool { return need(d.peaks[i]) >= k })
		if i == n {
			break
		}
		k = need(d.peaks[i]) // the next level present
		busy := n - i
		starts := atLeast(d.riseTo, k) - atLeast(d.riseFrom, k)
		hoursK := float64(busy) * d.sliceHours * d.periods
		if d.above != nil { // each slice the times it occurs in the horizon
			hoursK = d.above[i] * d.sliceHours
		}
		nodeHours += hoursK * float64(k-below)
		count := 1
		if starts > 0 {
			count = max(1, int(math.Round(float64(starts)*d.periods)))
		}
		run := provider.Run{Length: hoursToDuration(hoursK / float64(count)), Count: count, Nodes: k - below}
		if starts > 0 {
			// From the level's first start in the span, at the mean
			// spacing of its starts there: exact for a level that starts
			// once a period.
			first := 0
			if j, ok := slices.BinarySearch(d.levels, d.peaks[i]); ok {
				first = max(d.firstRise[j], 0)
			}
			span := d.sliceHours * float64(len(d.slices))
			run = place(run, hoursToDuration(float64(first)*d.sliceHours), hoursToDuration(span/float64(starts)),
				hoursToDuration(span*d.periods))
		}
		runs = append(runs, run)
		below, peak = k, k
		k++
	}
	return runs, peak, nodeHours
}
