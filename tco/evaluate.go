package tco

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// stage is one effect priced as the difference it makes to the bill.
type stage struct {
	category provider.Category
	label    string
	usage    provider.Usage
}

// evaluation is the state of one Evaluate call.
type evaluation struct {
	w   workload.Workload
	o   provider.Offer
	a   Assumptions
	rep Report
	// stages[0] is the base usage; later stages add one effect each.
	stages []stage
	// base is the offer's pricing inside its credits (outermost first).
	base    provider.Pricing
	credits []provider.Credit
	// setupHours is the engineer (and GPU-holding) time of setup.
	setupHours float64
	// holdHours is the final time capacity is held, for time-based lines.
	holdHours float64

	// What Simulate needs to re-price a random outcome. Jobs: usage of a
	// realized wall time and preemption count, the interruption model and
	// the work it applies to, which interruptions are priced, the setup
	// time held. Services: usage of realized runs, the unstretched runs and
	// their node-hours, and the per-node-hour interruption rates and costs.
	jobUsage           func(wall, preemptions, setup float64) provider.Usage
	wm                 wallModel
	work               float64
	spotOn, failOn     bool
	heldSetup          float64
	svcUsage           func(runs []provider.Run, setup float64) provider.Usage
	svcRuns            []provider.Run
	svcNodeHours       float64
	svcSpotRate        float64
	svcFailRate        float64
	svcSpotR, svcFailR float64
}

// Evaluate returns the full cost of running w on o under a.
//
// A finite job runs its gang of w.GPUs on ⌈GPUs/GPUsPerNode⌉ nodes for
// WorkGPUHours/(speed·GPUs·efficiency) hours (speed from the workload's
// requirements, efficiency below 1 only on an interconnect slower than
// required), stretched by spot preemptions and node failures per Daly's
// checkpoint/restart model (checkpointed work, at the workload's fixed
// interval or Daly's optimum), by restarts only (stateless work), or by
// restarts from scratch (work that tolerates no interruption). A service holds
// the nodes its demand curve needs in every sampled slice: pay-as-you-go
// offers bill the runs of each node, committed and owned offers bill the
// nodes that cover the peak, and owned servers burn power by utilization.
//
// Each effect is priced as the difference it makes to the offer's bill and
// shown as its own line: inefficiency, preemption, recovery and setup GPU
// time. The other hidden costs — setup engineering, data transfer, storage,
// staff, platform fees, exit and delay — are priced from the offer's
// hidden-cost profile. Report.Total is exactly the sum of the lines.
//
// Evaluate validates w, o and a, and checks Compatible; it returns every
// problem joined. It does not modify its arguments.
func Evaluate(w workload.Workload, o provider.Offer, a Assumptions) (Report, error) {
	e, err := evaluate(w, o, a)
	if err != nil {
		return Report{}, err
	}
	return e.rep, nil
}

// evaluate is Evaluate, keeping the state Simulate re-prices outcomes with.
func evaluate(w workload.Workload, o provider.Offer, a Assumptions) (*evaluation, error) {
	if err := errors.Join(w.Validate(), o.Validate(), a.Validate()); err != nil {
		return nil, err
	}
	if err := Compatible(w, o); err != nil {
		return nil, err
	}
	e := &evaluation{w: w, o: o, a: a, base: o.Pricing}
	for {
		c, ok := e.base.(provider.Credit)
		if !ok {
			break
		}
		e.credits = append(e.credits, c)
		e.base = c.Base
	}
	e.rep = Report{Workload: w.Name, Offer: o.ID, Currency: o.Currency, Deadline: w.Deadline,
		DiscountRatePerYear: a.DiscountRatePerYear}
	speed, _ := w.Requirements.SpeedFactor(o.GPU.Model)
	e.rep.Derivation.SpeedFactor = speed
	e.rep.Derivation.Efficiency = 1
	e.rep.Derivation.GPUsPerNode = o.GPUsPerNode
	e.setupHours = w.Setup.EngineerHours
	if o.Hidden.SetupHours > 0 {
		e.setupHours = o.Hidden.SetupHours
	}
	e.rep.Derivation.SetupHours = e.setupHours

	var err error
	if w.IsService() {
		err = e.service()
	} else {
		err = e.job(speed)
	}
	if err != nil {
		return nil, err
	}
	if err := e.price(); err != nil {
		return nil, err
	}
	return e, nil
}

// fixedHorizon returns the horizon set by the assumptions or the workload.
func (e *evaluation) fixedHorizon() time.Duration {
	if e.a.Horizon > 0 {
		return e.a.Horizon
	}
	return e.w.Horizon
}

func (e *evaluation) job(speed float64) error {
	w, o := e.w, e.o
	nodes := o.NodesFor(w.GPUs)
	d := &e.rep.Derivation
	d.Nodes, d.GPUs = nodes, nodes*o.GPUsPerNode
	eff := 1.0
	if nodes > 1 && !interconnectOK(w.Requirements.Interconnect, o.Interconnect) {
		eff = w.Requirements.Interconnect.Efficiency // Compatible let it through: Slower
	}
	d.Efficiency = eff
	ts0 := w.WorkGPUHours / (speed * float64(w.GPUs))
	ts := ts0 / eff

	wm := wallModel{
		tolerance: w.Interruption.Tolerance,
		delta:     w.Interruption.CheckpointTime.Hours(),
		fixedTau:  w.Interruption.CheckpointInterval.Hours(),
		spotR:     w.Interruption.RestartTime.Hours(),
		failR:     w.Interruption.RestartTime.Hours() + o.Hidden.RecoveryTime.Hours(),
	}
	spot, isSpot := spotOf(o.Pricing)
	if isSpot {
		wm.spotRate = float64(nodes) * spot.InterruptionRatePerHour
	}
	if mtbf := o.Hidden.NodeMTBF.Hours(); mtbf > 0 {
		wm.failRate = float64(nodes) / mtbf
	}
	fixed := e.fixedHorizon().Hours()
	usage := func(wall, preemptions, setup float64) provider.Usage {
		hold := max(fixed, setup+wall)
		count := 1 + int(math.Round(preemptions))
		runs := []provider.Run{{Length: hoursToDuration(wall / float64(count)), Count: count, Nodes: nodes}}
		if setup > 0 {
			runs = append(runs, provider.Run{Length: hoursToDuration(setup), Count: 1, Nodes: nodes})
		}
		busy := 0.0
		if hold > 0 {
			busy = min(1, wall/hold)
		}
		return provider.Usage{Horizon: hoursToDuration(hold), Nodes: nodes, Runs: runs, BusyFraction: busy}
	}

	// Stages: each included effect lengthens the billed wall time.
	cur := wallResult{wall: ts0}
	e.stages = []stage{{category: provider.Compute, usage: usage(ts0, 0, 0)}}
	add := func(c provider.Category, label string, r wallResult) {
		if !e.a.includes(c) || r.wall <= cur.wall && r.preemptions <= cur.preemptions {
			return
		}
		cur = r
		e.stages = append(e.stages, stage{category: c, label: label, usage: usage(r.wall, r.preemptions, 0)})
	}
	if eff < 1 {
		add(provider.Inefficiency, "interconnect below requirement", wallResult{wall: ts})
	}
	base := ts
	if !e.a.includes(provider.Inefficiency) {
		base = ts0
	}
	if isSpot && wm.spotRate > 0 {
		r, err := wm.expect(base, true, false)
		if err != nil {
			return err
		}
		add(provider.Preemption, "spot preemptions, checkpoints and restarts", r)
	}
	r, err := wm.expect(base, isSpot && e.a.includes(provider.Preemption), true)
	if err != nil {
		return err
	}
	add(provider.Recovery, "node failures and checkpoints", r)
	e.jobUsage, e.wm, e.work = usage, wm, base
	e.spotOn = isSpot && wm.spotRate > 0 && e.a.includes(provider.Preemption)
	e.failOn = wm.failRate > 0 && e.a.includes(provider.Recovery)
	// The report describes the model priced: without the excluded effects.
	d.CheckpointInterval = hoursToDuration(cur.tau)
	d.ExpectedPreemptions, d.ExpectedFailures = cur.preemptions, cur.failures
	lambda := 0.0
	if e.spotOn {
		lambda += wm.spotRate
	}
	if e.failOn {
		lambda += wm.failRate
	}
	if lambda > 0 {
		d.MeanTimeToInterruption = hoursToDuration(1 / lambda)
	}
	e.rep.WallTime = hoursToDuration(cur.wall)
	setup := 0.0
	if e.a.includes(provider.Setup) && e.setupHours > 0 {
		setup = e.setupHours
		e.heldSetup = setup
		e.stages = append(e.stages, stage{category: provider.Setup, label: "GPU time held during setup",
			usage: usage(cur.wall, cur.preemptions, setup)})
	}
	final := e.stages[len(e.stages)-1].usage
	e.holdHours = final.Horizon.Hours()
	e.rep.Horizon = final.Horizon
	e.rep.UsefulGPUHours = w.WorkGPUHours / speed
	e.rep.WorkGPUHours = w.WorkGPUHours
	e.rep.Derivation.BusyFraction = final.BusyFraction
	e.rep.BilledGPUHours = billedGPUHours(o.Pricing, final, o.GPUsPerNode)
	e.timeline()
	return nil
}

func (e *evaluation) service() error {
	w, o, a := e.w, e.o, e.a
	horizon := e.fixedHorizon()
	if horizon <= 0 {
		return fmt.Errorf("tco: service %q: horizon required: %w", w.Name, ErrInvalidAssumptions)
	}
	gpn := float64(o.GPUsPerNode)
	var (
		runs      []provider.Run
		nodes     int
		meanGPUs  float64
		nodeHours float64
	)
	if a.Utilization > 0 {
		nodes = o.NodesFor(w.GPUs)
		meanGPUs = float64(w.GPUs) * a.Utilization
		count := max(1, int(math.Round(horizon.Hours()/24)))
		if a.Utilization == 1 {
			count = 1
		}
		busy := horizon.Hours() * a.Utilization
		runs = []provider.Run{{Length: hoursToDuration(busy / float64(count)), Count: count, Nodes: nodes}}
		nodeHours = busy * float64(nodes)
	} else {
		span, circular := horizon, false
		if p := w.Demand.Period(); p > 0 && p <= horizon {
			span, circular = p, true
		}
		n := int(span / a.step())
		n = min(max(n, 1), maxSamples)
		prof, err := workload.Sample(w.Demand, span, n)
		if err != nil {
			return fmt.Errorf("tco: service %q: %w", w.Name, err)
		}
		need := make([]int, len(prof.Values))
		for i, v := range prof.Values {
			need[i] = int(math.Ceil(float64(w.GPUs)*v/gpn - 1e-9))
			nodes = max(nodes, need[i])
		}
		meanGPUs = float64(w.GPUs) * prof.Mean()
		runs, nodeHours = levelRuns(need, span/time.Duration(len(need)), horizon.Hours()/span.Hours(), circular)
	}
	if payAsYouGo(o.Pricing) {
		var err error
		if runs, err = holdWhenCheaper(o.Pricing, runs, horizon); err != nil {
			return err
		}
		nodeHours = runHours(runs)
	}
	if limit := o.Availability.MaxNodes; limit > 0 && nodes > limit {
		return &CompatibilityError{Workload: w.Name, Offer: o.ID, Check: CheckFit,
			Reason: fmt.Sprintf("peak needs %d nodes, offer has at most %d", nodes, limit)}
	}
	d := &e.rep.Derivation
	d.Nodes, d.GPUs = nodes, nodes*o.GPUsPerNode
	busy := 0.0
	if nodes > 0 {
		busy = min(1, meanGPUs/(float64(nodes)*gpn))
	}
	usage := func(runs []provider.Run, setup float64) provider.Usage {
		if setup > 0 {
			runs = append(append([]provider.Run(nil), runs...), provider.Run{Length: hoursToDuration(setup), Count: 1, Nodes: nodes})
		}
		// Setup happens within the horizon: committed capacity held for the
		// horizon covers it, pay-as-you-go capacity bills it as a run.
		return provider.Usage{Horizon: horizon, Nodes: nodes, Runs: runs, BusyFraction: busy}
	}
	e.stages = []stage{{category: provider.Compute, usage: usage(runs, 0)}}
	restart := w.Interruption.RestartTime.Hours()
	e.svcUsage, e.svcRuns, e.svcNodeHours = usage, runs, nodeHours
	// Each preemption or failure costs a restart (and recovery) on a
	// replacement node: run lengths stretch by e^{rate·R}, the factor of the
	// stateless model.
	stretchBy := func(what string, rate, r float64) (float64, error) {
		x := rate * r
		longest := 0.0
		for _, run := range runs {
			longest = max(longest, run.Length.Hours())
		}
		if x > maxExponent || longest*math.Exp(x)*float64(time.Hour) >= float64(maxTime/2) {
			return 0, fmt.Errorf("tco: service %q on %q: %s at %g per node-hour with %g h restarts: %w",
				w.Name, o.ID, what, rate, r, ErrInfeasible)
		}
		return math.Exp(x), nil
	}
	if spot, ok := spotOf(o.Pricing); ok && spot.InterruptionRatePerHour > 0 && a.includes(provider.Preemption) {
		f, err := stretchBy("preemptions", spot.InterruptionRatePerHour, restart)
		if err != nil {
			return err
		}
		d.ExpectedPreemptions = nodeHours * spot.InterruptionRatePerHour
		if f > 1 {
			e.svcSpotRate, e.svcSpotR = spot.InterruptionRatePerHour, restart
			runs = stretch(runs, f)
			e.stages = append(e.stages, stage{provider.Preemption, "spot preemptions and restarts", usage(runs, 0)})
		}
	}
	if mtbf := o.Hidden.NodeMTBF.Hours(); mtbf > 0 && a.includes(provider.Recovery) {
		rec := restart + o.Hidden.RecoveryTime.Hours()
		f, err := stretchBy("node failures", 1/mtbf, rec)
		if err != nil {
			return err
		}
		d.ExpectedFailures = runHours(runs) / mtbf
		if f > 1 {
			e.svcFailRate, e.svcFailR = 1/mtbf, rec
			runs = stretch(runs, f)
			e.stages = append(e.stages, stage{provider.Recovery, "node failures and recovery", usage(runs, 0)})
		}
	}
	if a.includes(provider.Setup) && e.setupHours > 0 {
		e.heldSetup = e.setupHours
		e.stages = append(e.stages, stage{provider.Setup, "GPU time held during setup", usage(runs, e.setupHours)})
	}
	final := e.stages[len(e.stages)-1].usage
	e.holdHours = final.Horizon.Hours()
	e.rep.Horizon = final.Horizon
	e.rep.UsefulGPUHours = meanGPUs * horizon.Hours()
	e.rep.WorkGPUHours = e.rep.UsefulGPUHours * e.rep.Derivation.SpeedFactor
	d.BusyFraction = busy
	e.rep.BilledGPUHours = billedGPUHours(o.Pricing, final, o.GPUsPerNode)
	e.timeline()
	return nil
}

// holdWhenCheaper replaces the runs of a demand level by one node held for
// the whole horizon when that bills less — as an operator would keep a node
// whose idle gaps are shorter than its billing increment or minimum charge.
// Levels are priced separately, so a base load can be held while the peaks
// start and stop.
func holdWhenCheaper(p provider.Pricing, runs []provider.Run, horizon time.Duration) ([]provider.Run, error) {
	out := make([]provider.Run, len(runs))
	for i, r := range runs {
		out[i] = r
		held := provider.Run{Length: horizon, Count: 1, Nodes: r.Nodes}
		if r.Count == 1 && r.Length >= horizon {
			continue
		}
		asRun, err := p.Charges(provider.Usage{Horizon: horizon, Runs: []provider.Run{r}})
		if err != nil {
			return nil, err
		}
		asHeld, err := p.Charges(provider.Usage{Horizon: horizon, Runs: []provider.Run{held}})
		if err != nil {
			return nil, err
		}
		if provider.Total(asHeld).LessThan(provider.Total(asRun)) {
			out[i] = held
		}
	}
	return out, nil
}

// timeline fills start delay, transfer time, finish and the deadline verdict.
func (e *evaluation) timeline() {
	o, w := e.o, e.w
	r := &e.rep
	r.StartDelay = satAdd(o.LeadTime(), e.stockWait())
	if e.moves() {
		gbps := o.Hidden.TransferGbps
		if gbps == 0 {
			gbps = e.a.TransferGbps
		}
		if gbps == 0 {
			gbps = DefaultTransferGbps
		}
		r.TransferTime = hoursToDuration(w.Data.DatasetGB * 8 / gbps / 3600)
	}
	r.Finish = satAdd(r.StartDelay, r.TransferTime, hoursToDuration(e.setupHours), r.WallTime)
	r.DeadlineMet = w.Deadline == 0 || r.Finish <= w.Deadline
}

// moves reports whether the dataset must be moved to the offer: it lives
// with another provider or in another region (names compared without case).
func (e *evaluation) moves() bool {
	loc := e.w.Data.Location
	if e.w.Data.DatasetGB == 0 || loc.Provider == "" {
		return false
	}
	return !strings.EqualFold(loc.Provider, e.o.Provider) || !strings.EqualFold(loc.Region, e.o.Region)
}

// price turns the stages and the hidden-cost profile into lines.
func (e *evaluation) price() error {
	base, err := e.charges(e.stages[0].usage)
	if err != nil {
		return err
	}
	lines := base
	prev, last := provider.Total(base), base
	for _, s := range e.stages[1:] {
		cs, err := e.charges(s.usage)
		if err != nil {
			return err
		}
		t := provider.Total(cs)
		// A stage can only add cost; a difference below zero is rounding in
		// the pricing's float quantities (or a non-monotone custom pricing).
		if diff := t.Sub(prev); diff.IsPositive() {
			lines = append(lines, provider.Charge{Category: s.category, Label: s.label, Amount: diff, Timing: provider.Spread})
			prev = t
		}
		last = cs
	}
	e.rep.Lines = e.otherLines(e.withCredits(lines), e.holdHours, last, e.rep.StartDelay, e.rep.Finish)
	e.rep.finish()
	return nil
}

// charges returns the charges of the offer's base pricing (inside any
// credits) for u, without the lines of excluded hidden categories (owned
// pricing carries its own staff line, for one). withCredits applies the
// credits afterwards, once, to all the pricing's lines.
func (e *evaluation) charges(u provider.Usage) ([]provider.Charge, error) {
	cs, err := e.base.Charges(u)
	if err != nil || len(e.a.Exclude) == 0 {
		return cs, err
	}
	kept := cs[:0:0]
	for _, c := range cs {
		if e.a.includes(c.Category) {
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// withCredits applies the offer's credits, innermost first, to lines: each
// lowers their total by min(credit, total).
func (e *evaluation) withCredits(lines []provider.Charge) []provider.Charge {
	for i := len(e.credits) - 1; i >= 0; i-- {
		lines = e.credits[i].Apply(lines)
	}
	return lines
}

// otherLines appends the lines priced from the hidden-cost profile rather
// than by the offer's pricing: setup engineering, data transfer, storage,
// staff, platform fees, exit and delay. holdHours is the time capacity is
// held, last the offer's charges for the final usage (the base of platform
// fees), startDelay and finish the timeline that delay is priced from.
func (e *evaluation) otherLines(lines []provider.Charge, holdHours float64, last []provider.Charge, startDelay, finish time.Duration) []provider.Charge {
	o, w, a := e.o, e.w, e.a
	hours := dec(holdHours)
	months := hours.DivRound(decimal.NewFromInt(730), provider.Precision)
	years := hours.DivRound(decimal.NewFromInt(8760), provider.Precision)
	h := o.Hidden
	add := func(c provider.Category, label string, amount decimal.Decimal, t provider.Timing) {
		if a.includes(c) && !amount.IsZero() {
			lines = append(lines, provider.Charge{Category: c, Label: label, Amount: amount, Timing: t})
		}
	}
	add(provider.Setup, "engineer time", dec(e.setupHours).Mul(a.engineerRate()), provider.Upfront)
	if e.moves() {
		add(provider.DataTransfer, "dataset transfer in", dec(w.Data.DatasetGB).Mul(a.sourceEgress().Add(h.IngressPerGB)), provider.Upfront)
	}
	add(provider.DataTransfer, "monthly egress", dec(w.Data.EgressGBPerMonth).Mul(h.EgressPerGB).Mul(months), provider.Spread)
	stored := w.Data.DatasetGB + w.Data.CheckpointGB
	add(provider.Storage, "dataset and checkpoint storage", dec(stored).Mul(h.StoragePerGBMonth).Mul(months), provider.Spread)
	add(provider.Staff, "operations staff", dec(h.StaffFTE).Mul(h.StaffCostPerYear).Mul(years), provider.Spread)
	if h.PlatformFeeFraction > 0 {
		feeBase := decimal.Zero
		for _, c := range last {
			if c.Category == provider.Compute || c.Category == provider.Commitment {
				feeBase = feeBase.Add(c.Amount)
			}
		}
		add(provider.Fees, "platform fee", feeBase.Mul(dec(h.PlatformFeeFraction)), provider.Spread)
	}
	add(provider.Exit, "moving data out at the end", dec(stored).Mul(h.EgressPerGB), provider.AtEnd)
	if !w.CostOfDelayPerDay.IsZero() {
		late := startDelay
		if w.Deadline > 0 && !w.IsService() {
			late = max(0, finish-w.Deadline)
		}
		add(provider.Delay, "delay", dec(late.Hours()/24).Mul(w.CostOfDelayPerDay), provider.AtEnd)
	}
	return lines
}

// dec converts a finite quantity to a decimal; callers pass validated values.
func dec(f float64) decimal.Decimal {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return decimal.Zero
	}
	return decimal.NewFromFloat(f)
}
