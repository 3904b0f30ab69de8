package placement

import (
	"math"
	"slices"
	"time"

	"github.com/gputco/gputco/internal/payments"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/shopspring/decimal"
)

// plan assembles the Plan of the pools' solutions (a nil solution: the pool
// has no plan yet, and neither has the whole).
func (in *instance) plan(pools []pool, sols []*poolSolution) Plan {
	pl := Plan{Currency: in.currency, Horizon: in.s.horizon, Period: in.s.Period, Slices: in.s.slices,
		Unplaced: in.unplaced, Total: decimal.Zero, Explicit: decimal.Zero, Hidden: decimal.Zero,
		PresentValue: decimal.Zero, Bound: decimal.Zero}
	for _, s := range sols {
		if s == nil {
			return pl
		}
	}
	pv := newDiscounter(in.s.horizon, in.assume.DiscountRatePerYear)
	addLines := func(ls []tco.Line, pvs []discounter) {
		for i, l := range ls {
			pl.Total = pl.Total.Add(l.Amount)
			if l.Category.Hidden() {
				pl.Hidden = pl.Hidden.Add(l.Amount)
			} else {
				pl.Explicit = pl.Explicit.Add(l.Amount)
			}
			d := pv
			if pvs != nil {
				d = pvs[i]
			}
			pl.PresentValue = pl.PresentValue.Add(d.present(l))
		}
	}
	optimal := true
	bound := 0.0
	// Which pool solves each workload and offer.
	wsol := make([]*poolSolution, len(in.ws))
	osol := make([]*poolSolution, len(in.os))
	for i, p := range pools {
		optimal = optimal && sols[i].optimal
		bound += sols[i].bound
		for _, w := range p.ws {
			wsol[w] = sols[i]
		}
		for _, k := range p.os {
			osol[k] = sols[i]
		}
	}
	// Uses first: the GPU-hours on each offer split its commitment.
	uses := make([]*Use, len(in.pairs))
	usePV := make([][]discounter, len(in.pairs))
	gpuHours := make([]float64, len(in.os))
	peakOn := make([][]float64, len(in.os))
	users := make([][]string, len(in.os))
	gangsOn := make([][]gangOn, len(in.os))
	for q := range in.pairs {
		pr := &in.pairs[q]
		sol := wsol[pr.w]
		if sol == nil || !sol.used[q] {
			continue
		}
		if wd := &in.ws[pr.w]; wd.gang {
			uses[q], usePV[q] = in.gangUse(&wd.runs[sol.gang[pr.w]], sol.use[q])
		} else {
			uses[q], usePV[q] = in.use(q, sol.use[q])
		}
		gpuHours[pr.k] += uses[q].GPUHours
		if peakOn[pr.k] == nil {
			peakOn[pr.k] = make([]float64, len(in.hours))
		}
		if wd := &in.ws[pr.w]; wd.gang {
			// A gang's slices spread its GPU-hours over the stretch; while
			// it runs it holds all its GPUs at once, and gangs may take
			// turns within a stretch: their peak is counted below.
			gangsOn[pr.k] = append(gangsOn[pr.k], gangOn{&wd.runs[sol.gang[pr.w]], uses[q].PeakGPUs})
		} else {
			for t, v := range sol.use[q] {
				peakOn[pr.k][t] += v
			}
		}
		users[pr.k] = append(users[pr.k], in.ws[pr.w].w.Name)
	}
	for k, gs := range gangsOn {
		in.addGangPeak(peakOn[k], gs)
	}
	commit := make([]*Commitment, len(in.os))
	commitPV := make([][]discounter, len(in.os))
	held := make([][]int, len(in.os))
	for k := range in.os {
		sol := osol[k]
		if sol == nil {
			continue
		}
		n, paid := sol.nodes[k], sol.perOf[k]
		if n == 0 && !paid && peakOn[k] == nil {
			continue
		}
		held[k] = in.joinTerms(k, sol.held[k])
		if held[k] == nil && n > 0 {
			held[k] = []int{n} // one commitment
		}
		commit[k], commitPV[k] = in.commitment(k, held[k], paid, peakOn[k], gpuHours[k], users[k])
		if v := sol.stockValue[k]; v > 0 {
			pl.Stock = append(pl.Stock, StockValue{Offer: in.os[k].o.ID, SavingPerNode: money(v)})
		}
	}
	// Commitments in the problem's order of offers.
	order := make([]int, len(in.os))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return in.os[a].idx - in.os[b].idx })
	for _, k := range order {
		if c := commit[k]; c != nil {
			addLines(c.Lines, commitPV[k])
			pl.Commitments = append(pl.Commitments, *c)
		}
	}
	slices.SortFunc(pl.Stock, func(a, b StockValue) int { return offerRank(in, a.Offer) - offerRank(in, b.Offer) })
	// ups are the workload and offers used of each assignment, in order.
	type upsOf struct {
		w    int
		used map[int]bool
	}
	var ups []upsOf
	for w := range in.ws {
		wd := &in.ws[w]
		if wd.dropped { // in Plan.Unplaced
			continue
		}
		a := Assignment{Workload: wd.w.Name, Service: wd.service, Cost: decimal.Zero}
		used := map[int]bool{}
		for _, q := range wd.pairs {
			u := uses[q]
			if u == nil {
				continue
			}
			k := in.pairs[q].k
			used[k] = true
			addLines(u.Lines, usePV[q])
			a.Cost = a.Cost.Add(u.Cost)
			if c := commit[k]; c != nil && gpuHours[k] > 0 {
				share := c.Cost.Mul(decimal.NewFromFloat(u.GPUHours / gpuHours[k]))
				a.Cost = a.Cost.Add(share.Round(provider.Precision))
			}
			a.Uses = append(a.Uses, *u)
		}
		slices.SortStableFunc(a.Uses, func(x, y Use) int { return offerRank(in, x.Offer) - offerRank(in, y.Offer) })
		if sol := wsol[w]; sol != nil {
			a.PeakGPUValue = money(sol.peakValue[w])
		}
		prep := wd.prep
		if sol := wsol[w]; wd.gang && sol != nil {
			r := &wd.runs[sol.gang[w]]
			prep = r.prep
			a.Gang = &GangRun{Offer: in.os[in.pairs[r.q].k].o.ID, GPUs: r.gpus, Nodes: r.nodes, Start: r.start,
				Finish: r.finish, WallTime: r.wall}
		}
		if len(a.Uses) == 1 {
			for _, q := range wd.pairs {
				if uses[q] != nil {
					a.Alone = alone(prep, in.os[in.pairs[q].k].o, !wd.service, uses[q].PeakGPUs)
				}
			}
		}
		ups = append(ups, upsOf{w, used})
		pl.Assignments = append(pl.Assignments, a)
	}
	// Each assignment's runners-up (tco.Evaluate on its cheapest offers
	// alone), on GOMAXPROCS goroutines: each reads only its workload.
	inParallel(len(ups), func(i, _ int) {
		a := &pl.Assignments[i]
		a.RunnersUp = in.runnersUp(ups[i].w, ups[i].used, a.Cost)
	})
	if in.s.overTime {
		pl.Epochs = in.epochs(uses, held)
	}
	pl.Bound = money(bound)
	if pl.Bound.GreaterThan(pl.Total) {
		pl.Bound = pl.Total
	}
	if !pl.Total.IsZero() {
		pl.Gap, _ = pl.Total.Sub(pl.Bound).DivRound(pl.Total, 12).Float64()
	}
	pl.Status = Feasible
	if optimal {
		pl.Status = Optimal
	}
	return pl
}

// alone is tco's report of the workload of prep alone on offer o, or, for
// a job (job) that runs narrower than its GPUs and that tco refuses at full
// width (the offer's stock cannot hold them), of the job at the width it
// runs: peak GPUs, rounded up. It is nil when tco refuses it even so.
func alone(prep *tco.Prepared, o provider.Offer, job bool, peak float64) *tco.Report {
	rep, err := prep.Evaluate(o)
	if err == nil {
		return &rep
	}
	w := prep.Workload()
	narrow := int(math.Ceil(peak - 1e-9))
	if !job || narrow <= 0 || narrow >= w.GPUs {
		return nil
	}
	w.GPUs = narrow
	if rep, err = tco.Evaluate(w, o, prep.Assumptions()); err != nil {
		return nil
	}
	return &rep
}

// offerRank is the problem index of the offer with ID id.
func offerRank(in *instance, id string) int {
	for _, od := range in.os {
		if od.o.ID == id {
			return od.idx
		}
	}
	return len(in.p.Offers)
}

// use prices pair q's use u (GPUs per slice) with its terms; it returns
// the discounter of each line too (useDiscounters).
func (in *instance) use(q int, u []float64) (*Use, []discounter) {
	pr := &in.pairs[q]
	wd, od := &in.ws[pr.w], &in.os[pr.k]
	terms := in.termsOf(q)
	us := &Use{Offer: od.o.ID, Tier: tierOf(od), Terms: terms, Cost: decimal.Zero, GPUs: append([]float64(nil), u...)}
	for t, v := range u {
		us.PeakGPUs = max(us.PeakGPUs, v)
		us.GPUHours += v * in.hours[t] * wd.reps[t]
	}
	us.NodeHours = us.GPUHours * pr.occ / od.gpn
	nh := decimal.NewFromFloat(us.NodeHours)
	stretch := in.stretchOf(q, terms)
	var kinds []tco.TermKind
	for i, l := range terms.Lines {
		var amount decimal.Decimal
		switch l.Kind {
		case tco.Variable:
			amount = l.Amount.Mul(nh).Round(provider.Precision)
		case tco.OneOff:
			amount = l.Amount
		default:
			continue
		}
		if stretch != nil && i == stretch.line { // the stretch as Evaluate's hidden lines
			us.Lines = append(us.Lines, stretch.split(l, amount)...)
		} else {
			us.Lines = append(us.Lines, line(l, amount))
		}
		for len(kinds) < len(us.Lines) {
			kinds = append(kinds, l.Kind)
		}
		us.Cost = us.Cost.Add(amount)
	}
	return us, in.useDiscounters(kinds, in.stretchShares(q, u), 0, 0)
}

// gangUse prices gang run r, holding u GPUs per slice, with the terms at
// its size: its variable lines at the node-hours tco prices for it alone,
// its one-off lines once. It returns the discounter of each line too
// (useDiscounters: the variable lines over the run's wall time).
func (in *instance) gangUse(r *gangRun, u []float64) (*Use, []discounter) {
	od := &in.os[in.pairs[r.q].k]
	us := &Use{Offer: od.o.ID, Tier: tierOf(od), Terms: r.terms, Cost: decimal.Zero, GPUs: u,
		PeakGPUs: in.gangHeld(r), GPUHours: in.gangHeld(r) * r.wall.Hours(), NodeHours: r.terms.Own.NodeHours}
	nh := decimal.NewFromFloat(us.NodeHours)
	var kinds []tco.TermKind
	for _, l := range r.terms.Lines {
		var amount decimal.Decimal
		switch l.Kind {
		case tco.Variable:
			amount = l.Amount.Mul(nh).Round(provider.Precision)
		case tco.OneOff:
			amount = l.Amount
		default:
			continue
		}
		us.Lines = append(us.Lines, line(l, amount))
		kinds = append(kinds, l.Kind)
		us.Cost = us.Cost.Add(amount)
	}
	return us, in.useDiscounters(kinds, nil, r.finish-r.wall, r.wall)
}

// gangOn is a gang's run on an offer and the GPUs it holds while it runs.
type gangOn struct {
	r    *gangRun
	gpus float64
}

// addGangPeak adds to every slice of each stretch the most GPUs the gangs
// gs hold at once in it (the model's column P_kσ): at the stretch's start
// or a moment a run starts in it, the only moments their sum can rise.
func (in *instance) addGangPeak(peak []float64, gs []gangOn) {
	T := in.s.slices
	for s, sg := range in.segs {
		most := 0.0
		for _, m := range gs {
			at := m.r.start
			if at < sg.start {
				at = sg.start
			}
			if at >= sg.end || m.r.finish <= at {
				continue
			}
			sum := 0.0
			for _, o := range gs {
				if o.r.start <= at && at < o.r.finish {
					sum += o.gpus
				}
			}
			most = max(most, sum)
		}
		if most == 0 {
			continue
		}
		for i := range T {
			peak[s*T+i] += most
		}
	}
}

// joinTerms returns held (the nodes of each commitment of offer k) with
// every commitment of fewer whole terms (commit.count) and the one that
// starts where it ends (of any terms) joined, for the nodes both hold, into
// the commitment of all those terms from the same start, where that one covers
// the same stretches, pays to the same end and costs their sum: the same
// capacity at the same cost, reported as one commitment rather than a
// month renewed. held is not modified.
func (in *instance) joinTerms(k int, held []int) []int {
	od := &in.os[k]
	out := held
	for i, c := range od.commits {
		if c.count == 0 || i >= len(out) || out[i] == 0 {
			continue
		}
		for j, d := range od.commits {
			if d.first != c.last+1 || j >= len(out) || out[j] == 0 {
				continue
			}
			for l, e := range od.commits {
				if l >= len(out) || l == i || e.first != c.first || e.last != d.last || e.end != d.end || !e.fixed.Equal(c.fixed.Add(d.fixed)) {
					continue
				}
				if &out[0] == &held[0] {
					out = slices.Clone(held)
				}
				m := min(out[i], out[j])
				out[i], out[j], out[l] = out[i]-m, out[j]-m, out[l]+m
				break
			}
			if out[i] == 0 {
				break
			}
		}
	}
	return out
}

// commitment prices what the plan holds of offer k: held[i] nodes of its
// commitment i (committed capacity), the per-offer lines when paid. It
// returns the discounter of each line too (a commitment's lines discount
// from its start).
func (in *instance) commitment(k int, held []int, paid bool, peak []float64, gpuHours float64, users []string) (*Commitment, []discounter) {
	od := &in.os[k]
	c := &Commitment{Offer: od.o.ID, Tier: tierOf(od), Cost: decimal.Zero, Workloads: users}
	if !math.IsInf(od.stock, 1) {
		c.Stock = od.stock
	}
	for _, v := range peak {
		c.PeakGPUs = max(c.PeakGPUs, v)
	}
	for s := range in.segs {
		c.Nodes = max(c.Nodes, heldAt(od, held, s))
	}
	var pvs []discounter
	add := func(l tco.TermLine, amount decimal.Decimal, d discounter) {
		c.Lines = append(c.Lines, line(l, amount))
		c.Cost = c.Cost.Add(amount)
		pvs = append(pvs, d)
	}
	gpuHeld := 0.0
	for i, n := range held {
		if n <= 0 || !od.committed {
			continue
		}
		cm := &od.commits[i]
		start := in.segs[cm.first].start
		d := discounterAt(start, cm.span, in.assume.DiscountRatePerYear)
		nd := decimal.NewFromInt(int64(n))
		h := Held{Offer: od.o.ID, Nodes: n, Order: max(0, start-od.lead), Start: start, End: cm.end, Cost: decimal.Zero}
		for _, l := range cm.terms.Lines {
			if l.Kind == tco.Fixed {
				add(l, l.Amount.Mul(nd), d)
				h.Cost = h.Cost.Add(l.Amount.Mul(nd))
			}
		}
		gpuHeld += float64(n) * od.gpn * cm.span.Hours()
		if in.s.overTime {
			c.Held = append(c.Held, h)
		}
	}
	if gpuHeld > 0 {
		c.Utilization = gpuHours / gpuHeld
	}
	if paid {
		d := discounterAt(0, in.s.horizon, in.assume.DiscountRatePerYear)
		for _, l := range od.terms.Lines {
			if l.Kind == tco.PerOffer {
				add(l, l.Amount, d)
			}
		}
	}
	return c, pvs
}

// epochs reports a plan over time stretch by stretch: the commitments
// started and held, each workload's use of each offer, and the GPUs of
// every slice by tier and by offer. uses are the priced uses by pair, held
// the nodes of each commitment by offer.
func (in *instance) epochs(uses []*Use, held [][]int) []Epoch {
	T := in.s.slices
	es := make([]Epoch, len(in.segs))
	order := make([]int, len(in.os))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return in.os[a].idx - in.os[b].idx })
	for s, sg := range in.segs {
		e := &es[s]
		e.Epoch, e.Start, e.End = sg.epoch, sg.start, sg.end
		e.Slices = make([]SliceGPUs, T)
		for _, k := range order {
			od := &in.os[k]
			if n := heldAt(od, held[k], s); n > 0 {
				e.Held = append(e.Held, Holding{Offer: od.o.ID, Nodes: n})
			}
			for i, n := range held[k] {
				if cm := &od.commits[i]; n > 0 && cm.first == s {
					h := Held{Offer: od.o.ID, Nodes: n, Order: max(0, sg.start-od.lead), Start: sg.start, End: cm.end}
					h.Cost = cm.fixed.Mul(decimal.NewFromInt(int64(n)))
					e.Started = append(e.Started, h)
				}
			}
		}
		for w := range in.ws {
			wd := &in.ws[w]
			for _, q := range wd.pairs {
				u := uses[q]
				if u == nil {
					continue
				}
				eu := EpochUse{Workload: wd.w.Name, Offer: u.Offer, Tier: u.Tier}
				for i := range T {
					t := s*T + i
					v := u.GPUs[t]
					if v <= 0 {
						continue
					}
					if wd.gang { // its GPU-hours in the stretch, spread over its slices
						eu.PeakGPUs = u.PeakGPUs // the GPUs it holds while it runs
						eu.GPUHours += v * in.hours[t] * sg.reps
					} else {
						eu.PeakGPUs = max(eu.PeakGPUs, v)
						eu.GPUHours += v * in.hours[t] * wd.reps[t]
					}
					sl := &e.Slices[i]
					switch u.Tier {
					case Base:
						sl.Base += v
					case Burst:
						sl.Burst += v
					default:
						sl.Spot += v
					}
					if sl.Offers == nil {
						sl.Offers = map[string]float64{}
					}
					sl.Offers[u.Offer] += v
				}
				if eu.GPUHours > 0 {
					e.Uses = append(e.Uses, eu)
				}
			}
		}
		slices.SortStableFunc(e.Uses, func(a, b EpochUse) int { return offerRank(in, a.Offer) - offerRank(in, b.Offer) })
		slices.SortStableFunc(e.Uses, func(a, b EpochUse) int { return workloadRank(in, a.Workload) - workloadRank(in, b.Workload) })
	}
	return es
}

// workloadRank is the index of the placed workload named name.
func workloadRank(in *instance, name string) int {
	for i := range in.ws {
		if in.ws[i].w.Name == name {
			return i
		}
	}
	return len(in.ws)
}

// line is the report line of term line l at amount.
func line(l tco.TermLine, amount decimal.Decimal) tco.Line {
	return tco.Line{Charge: provider.Charge{Category: l.Category, Label: l.Label, Amount: amount, Timing: l.Timing,
		Start: l.Start, Span: l.Span, Payments: l.Payments}, Owner: l.Owner}
}

// tierOf is the tier of offer od.
func tierOf(od *odata) Tier {
	switch {
	case od.committed:
		return Base
	case od.spot:
		return Spot
	}
	return Burst
}

// runnersUp lists the cheapest offers workload w could run on alone and
// does not use, each priced by tco.Evaluate: the offers are ranked by the
// terms at the workload's own use as tco prices it alone (pair.alone: a
// delay the plan bridges over time included), then evaluated in that order until n
// are found that tco.Evaluate accepts and on which the workload meets its
// deadline (an offer whose stock cannot hold the workload's peak, that it
// refuses otherwise, on which it finishes too late, or a spot offer where
// Options.MaxSpotShare below 1 forbids all its demand on spot is no
// runner-up).
func (in *instance) runnersUp(w int, used map[int]bool, cost decimal.Decimal) []RunnerUp {
	n := in.s.RunnersUp
	if n < 0 {
		return nil
	}
	wd := &in.ws[w]
	if wd.gang {
		return in.gangRunnersUp(wd, used, cost, n)
	}
	type candidate struct {
		k     int
		total decimal.Decimal
	}
	var cs []candidate
	for _, q := range wd.pairs {
		pr := &in.pairs[q]
		if used[pr.k] {
			continue
		}
		if !pr.aloneOK {
			continue
		}
		if sh := in.s.MaxSpotShare; in.os[pr.k].spot && sh > 0 && sh < 1 {
			continue // alone on it, all its demand would be on spot
		}
		cs = append(cs, candidate{k: pr.k, total: pr.alone})
	}
	slices.SortStableFunc(cs, func(a, b candidate) int {
		if c := a.total.Cmp(b.total); c != 0 {
			return c
		}
		return in.os[a.k].idx - in.os[b.k].idx
	})
	var rs []RunnerUp
	for _, c := range cs {
		if len(rs) == n {
			break
		}
		od := &in.os[c.k]
		rep, err := wd.prep.Evaluate(od.o)
		if err != nil || !rep.DeadlineMet {
			continue
		}
		rs = append(rs, RunnerUp{Offer: od.o.ID, Total: rep.Total, Delta: rep.Total.Sub(cost)})
	}
	slices.SortStableFunc(rs, func(a, b RunnerUp) int {
		if c := a.Total.Cmp(b.Total); c != 0 {
			return c
		}
		return offerRank(in, a.Offer) - offerRank(in, b.Offer)
	})
	return rs
}

// gangRunnersUp lists the n cheapest offers gang wd does not use, each
// priced by tco.Evaluate at the best of the sizes it has runs of there
// (the sizes within its range that finish by its deadline): a gang runs
// at the size that meets the deadline at least cost, on a runner-up too.
// An offer without a run, or whose sizes tco.Evaluate refuses or finishes
// too late at, is no runner-up, and neither is a spot offer where
// Options.MaxSpotShare below 1 forbids the gang's work on spot.
func (in *instance) gangRunnersUp(wd *wdata, used map[int]bool, cost decimal.Decimal, n int) []RunnerUp {
	sh := in.s.MaxSpotShare
	best := map[int]decimal.Decimal{}
	type try struct {
		prep *tco.Prepared
		k    int
	}
	tried := map[try]bool{}
	for i := range wd.runs {
		r := &wd.runs[i]
		k := in.pairs[r.q].k
		od := &in.os[k]
		if used[k] || r.prep == nil || od.spot && sh > 0 && sh < 1 || tried[try{r.prep, k}] {
			continue
		}
		tried[try{r.prep, k}] = true
		rep, err := r.prep.Evaluate(od.o)
		if err != nil || !rep.DeadlineMet {
			continue
		}
		if b, ok := best[k]; !ok || rep.Total.LessThan(b) {
			best[k] = rep.Total
		}
	}
	rs := make([]RunnerUp, 0, len(best))
	for k, total := range best {
		rs = append(rs, RunnerUp{Offer: in.os[k].o.ID, Total: total, Delta: total.Sub(cost)})
	}
	slices.SortStableFunc(rs, func(a, b RunnerUp) int {
		if c := a.Total.Cmp(b.Total); c != 0 {
			return c
		}
		return offerRank(in, a.Offer) - offerRank(in, b.Offer)
	})
	if n > 0 && len(rs) > n {
		rs = rs[:n]
	}
	return rs
}

// money converts a float amount from the solver to a decimal at
// provider.Precision.
func money(v float64) decimal.Decimal {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return decimal.Zero
	}
	return decimal.NewFromFloat(v).Round(provider.Precision)
}

// discounter discounts lines by their timing as tco does: upfront at the
// start, spread lines in parts proportional to each month's length at the
// month's end, at-end lines at the horizon.
type discounter struct {
	spread, end decimal.Decimal
	none        bool
	// rate and offset discount a Scheduled line (scheduled): the yearly
	// rate, and the time from the plan's start of what the lines price.
	rate   float64
	offset time.Duration
	// upfront discounts upfront lines when shifted (a commitment that
	// starts after the plan's start).
	upfront decimal.Decimal
	shifted bool
}

func newDiscounter(h time.Duration, rate float64) discounter {
	if rate == 0 || h <= 0 {
		return discounter{none: true}
	}
	f := func(t time.Duration) float64 { return math.Pow(1+rate, -t.Hours()/provider.Year.Hours()) }
	months := max(1, int(math.Ceil(h.Hours()/provider.Month.Hours())))
	s := 0.0
	for m := range months {
		a, b := time.Duration(m)*provider.Month, min(time.Duration(m+1)*provider.Month, h)
		s += (b - a).Hours() / h.Hours() * f(b)
	}
	return discounter{spread: decimal.NewFromFloat(s), end: decimal.NewFromFloat(f(h)), rate: rate}
}

// scheduled is the present value of a Scheduled charge c as tco
// discounts it: each of its payments (payments.Parts) from its time, that
// measured from the discounter's offset (the start of what the lines
// price).
func (d discounter) scheduled(c provider.Charge) decimal.Decimal {
	pv := decimal.Zero
	for _, p := range payments.Parts(c) {
		f := math.Pow(1+d.rate, -(d.offset+p.At).Hours()/provider.Year.Hours())
		pv = pv.Add(p.Amount.Mul(decimal.NewFromFloat(f)))
	}
	return pv.Round(provider.Precision)
}

// present is l's amount discounted.
func (d discounter) present(l tco.Line) decimal.Decimal {
	if d.none {
		return l.Amount
	}
	switch l.Timing {
	case provider.Spread:
		return l.Amount.Mul(d.spread).Round(provider.Precision)
	case provider.AtEnd:
		return l.Amount.Mul(d.end).Round(provider.Precision)
	case provider.Scheduled:
		return d.scheduled(l.Charge)
	}
	if d.shifted {
		return l.Amount.Mul(d.upfront).Round(provider.Precision)
	}
	return l.Amount
}
