package tco

import (
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// stage is one effect priced as the difference it makes to the bill.
type stage struct {
	category provider.Category
	label    string
	usage    provider.Usage
}

// interruption is a per-node-hour rate of interruptions of a service and the
// time each one costs.
type interruption struct{ rate, restart float64 }

// model is one workload priced on one offer: the usages whose bills make the
// report's compute and effect lines (stages[0] the base usage, each later
// stage one effect more), the interruption model, and what Simulate re-prices
// a random outcome with and Terms splits into linear terms. Evaluate,
// Simulate and Terms share it, so they cannot disagree.
type model struct {
	p   *Prepared
	w   *workload.Workload
	a   *Assumptions
	o   provider.Offer
	pr  pricing
	rep Report
	// stages[0] is the base usage; later stages add one effect each. The
	// last stage before setup is stages[preSetup].
	stages   []stage
	preSetup int
	// setupHours is the engineer (and GPU-holding) time of setup, heldSetup
	// the part of it that holds GPUs (zero when setup is excluded).
	setupHours, heldSetup float64
	// holdHours is the final time capacity is held, for time-based lines.
	holdHours float64
	// nodes are the nodes held (a gang, or a service's peak); useNodeHours
	// the node-hours the workload runs (a service's demand levels before any
	// is held through its idle gaps), without effects or setup.
	nodes        int
	useNodeHours float64

	// Finite jobs: the interruption model and the work it applies to,
	// which interruptions are priced, and the fixed horizon in hours.
	wm             wallModel
	work           float64
	spotOn, failOn bool
	fixedHours     float64
	// Services: the unstretched runs and their node-hours, the horizon, the
	// busy fraction, and the priced interruptions per node-hour.
	svcRuns      []provider.Run
	svcNodeHours float64
	svcHorizon   time.Duration
	svcBusy      float64
	svcSpot      interruption
	svcFail      interruption
}

// newModel checks o against the prepared workload and builds its model.
func (p *Prepared) newModel(o provider.Offer, validated bool) (*model, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if !validated {
		if err := o.Validate(); err != nil {
			return nil, err
		}
	}
	if err := Compatible(p.w, o); err != nil {
		return nil, err
	}
	m := &model{p: p, w: &p.w, a: &p.a, o: o, pr: resolve(o.Pricing)}
	m.rep = Report{Workload: p.w.Name, Offer: o.ID, Currency: o.Currency, Deadline: p.w.Deadline,
		DiscountRatePerYear: p.a.DiscountRatePerYear}
	speed, _ := p.w.Requirements.SpeedFactor(o.GPU.Model)
	d := &m.rep.Derivation
	d.SpeedFactor, d.Efficiency, d.GPUsPerNode = speed, 1, o.GPUsPerNode
	m.setupHours = p.w.Setup.EngineerHours
	if o.Hidden.SetupHours > 0 {
		m.setupHours = o.Hidden.SetupHours
	}
	d.SetupHours = m.setupHours
	var err error
	if p.w.IsService() {
		err = m.service()
	} else {
		err = m.job(speed)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// jobUsage is the usage of a finite job that holds its gang for wall hours
// with the given expected preemptions and setup hours. The gang is held from
// setup into its first run without a break, so setup and that run are one
// run, billed once: on a weekly increment, 4 hours of setup and a 63-hour job
// are one week, not two. The runs follow one another from the horizon's
// start: each preemption ends one, and the next starts at once.
func (m *model) jobUsage(wall, preemptions, setup float64) provider.Usage {
	hold := max(m.fixedHours, setup+wall)
	count := 1 + int(math.Round(preemptions))
	each := wall / float64(count)
	runs := []provider.Run{{Length: hoursToDuration(each), Count: count, Nodes: m.nodes}}
	if setup > 0 {
		first := provider.Run{Length: hoursToDuration(setup + each), Count: 1, Nodes: m.nodes}
		if count == 1 {
			runs = []provider.Run{first}
		} else {
			runs = []provider.Run{first, {Length: hoursToDuration(each), Count: count - 1, Nodes: m.nodes, Start: first.Length}}
		}
	}
	busy := 0.0
	if hold > 0 {
		busy = min(1, wall/hold)
	}
	return provider.Usage{Horizon: hoursToDuration(hold), Nodes: m.nodes, Runs: runs, BusyFraction: busy}
}

// checkRuns reports expected (or drawn) preemptions that would split wall
// hours of a job into runs shorter than a nanosecond, or into more runs than
// an int counts: such runs cannot be represented, and rounding them to zero
// length would price the preemptions, and the work, as free.
func checkRuns(wall, preemptions float64) error {
	count := 1 + math.Round(preemptions)
	if count > 1 && !(count <= math.MaxInt64/2 && wall*float64(time.Hour)/count >= 1) {
		return fmt.Errorf("tco: %g preemptions in %v of work: runs shorter than 1 ns cannot be represented: %w",
			preemptions, hoursToDuration(wall), ErrInfeasible)
	}
	return nil
}

// serviceUsage is the usage of a service running runs, plus setup hours on
// its peak nodes. Setup happens within the horizon, on the nodes each demand
// level first starts, right before its first run: committed capacity held
// for the horizon covers it; on pay-as-you-go capacity the setup lengthens
// the level's first run — held capacity is one run, billed once, so a
// weekly increment bills 4 hours of setup only when they cross into another
// week.
func (m *model) serviceUsage(runs []provider.Run, setup float64) provider.Usage {
	if setup > 0 {
		out := make([]provider.Run, 0, 2*len(runs)+1)
		covered := 0
		for _, r := range runs {
			// The demand levels come first and cover the peak; runs after
			// them (time lost to interruptions) need no setup of their own.
			if covered >= m.nodes || r.Count <= 0 || r.Nodes <= 0 || r.Length <= 0 {
				out = append(out, r)
				continue
			}
			covered += r.Nodes
			held := hoursToDuration(setup)
			first := r
			first.Count, first.Length, first.Every = 1, satAdd(r.Length, held), 0
			first.Start = max(0, r.Start-held) // setup right before the first run
			out = append(out, first)
			if r.Count > 1 {
				rest := r
				rest.Count--
				rest.Start = r.StartOf(1)
				out = append(out, rest)
			}
		}
		if left := m.nodes - covered; left > 0 { // nodes of the peak that never run
			out = append(out, provider.Run{Length: hoursToDuration(setup), Count: 1, Nodes: left})
		}
		runs = out
	}
	return provider.Usage{Horizon: m.svcHorizon, Nodes: m.nodes, Runs: runs, BusyFraction: m.svcBusy}
}

func (m *model) job(speed float64) error {
	w, o, a := m.w, m.o, m.a
	nodes := o.NodesFor(w.GPUs)
	m.nodes = nodes
	d := &m.rep.Derivation
	d.Nodes, d.GPUs = nodes, nodes*o.GPUsPerNode
	eff := 1.0
	if nodes > 1 && !interconnectOK(w.Requirements.Interconnect, o.Interconnect) {
		eff = w.Requirements.Interconnect.Efficiency // Compatible let it through: Slower
	}
	d.Efficiency = eff
	ts0 := w.WorkGPUHours / (speed * float64(w.GPUs))
	ts := ts0 / eff
	m.useNodeHours = ts0 * float64(nodes)

	wm := wallModel{
		tolerance: w.Interruption.Tolerance,
		delta:     w.Interruption.CheckpointTime.Hours(),
		fixedTau:  w.Interruption.CheckpointInterval.Hours(),
		spotR:     w.Interruption.RestartTime.Hours(),
		failR:     w.Interruption.RestartTime.Hours() + o.Hidden.RecoveryTime.Hours(),
	}
	isSpot := m.pr.interruptible
	if isSpot {
		wm.spotRate = float64(nodes) * m.pr.rate
	}
	if mtbf := o.Hidden.NodeMTBF.Hours(); mtbf > 0 {
		wm.failRate = float64(nodes) / mtbf
	}
	m.fixedHours = m.p.fixedHorizon().Hours()

	// Stages: each included effect lengthens the billed wall time.
	cur := wallResult{wall: ts0}
	m.stages = []stage{{category: provider.Compute, usage: m.jobUsage(ts0, 0, 0)}}
	add := func(c provider.Category, label string, r wallResult) {
		if !a.includes(c) || r.wall <= cur.wall && r.preemptions <= cur.preemptions {
			return
		}
		cur = r
		m.stages = append(m.stages, stage{category: c, label: label, usage: m.jobUsage(r.wall, r.preemptions, 0)})
	}
	if eff < 1 {
		add(provider.Inefficiency, "interconnect below requirement", wallResult{wall: ts})
	}
	base := ts
	if !a.includes(provider.Inefficiency) {
		base = ts0
	}
	if isSpot && wm.spotRate > 0 {
		r, err := wm.expect(base, true, false)
		if err == nil {
			err = checkRuns(r.wall, r.preemptions)
		}
		if err != nil {
			return err
		}
		add(provider.Preemption, "spot preemptions, checkpoints and restarts", r)
	}
	r, err := wm.expect(base, isSpot && a.includes(provider.Preemption), true)
	if err == nil {
		err = checkRuns(r.wall, r.preemptions)
	}
	if err != nil {
		return err
	}
	add(provider.Recovery, "node failures and checkpoints", r)
	m.wm, m.work = wm, base
	m.spotOn = isSpot && wm.spotRate > 0 && a.includes(provider.Preemption)
	m.failOn = wm.failRate > 0 && a.includes(provider.Recovery)
	// The report describes the model priced: without the excluded effects.
	d.CheckpointInterval = hoursToDuration(cur.tau)
	d.ExpectedPreemptions, d.ExpectedFailures = cur.preemptions, cur.failures
	if _, _, lambda, _ := wm.rates(m.spotOn, m.failOn); lambda > 0 {
		d.MeanTimeToInterruption = hoursToDuration(1 / lambda)
	}
	m.rep.WallTime = hoursToDuration(cur.wall)
	m.preSetup = len(m.stages) - 1
	if a.includes(provider.Setup) && m.setupHours > 0 {
		m.heldSetup = m.setupHours
		m.stages = append(m.stages, stage{category: provider.Setup, label: "GPU time held during setup",
			usage: m.jobUsage(cur.wall, cur.preemptions, m.heldSetup)})
	}
	if held := m.heldSetup + cur.wall; held > MaxHorizon.Hours() {
		return fmt.Errorf("tco: workload %s on %s: capacity held %.0f h (setup and expected wall time) beyond MaxHorizon = %v: %w",
			quoted(w.Name), quoted(o.ID), held, MaxHorizon, ErrInfeasible)
	}
	final := m.stages[len(m.stages)-1].usage
	m.holdHours = final.Horizon.Hours()
	m.rep.Horizon = final.Horizon
	m.rep.UsefulGPUHours = w.WorkGPUHours / speed
	m.rep.WorkGPUHours = w.WorkGPUHours
	d.BusyFraction = final.BusyFraction
	m.rep.BilledGPUHours = m.pr.billedNodeHours(final) * float64(o.GPUsPerNode)
	m.timeline()
	return nil
}

func (m *model) service() error {
	w, o, a := m.w, m.o, m.a
	horizon := m.p.fixedHorizon()
	m.svcHorizon = horizon
	gpn := float64(o.GPUsPerNode)
	var (
		runs      []provider.Run
		nodes     int
		meanGPUs  float64
		nodeHours float64
	)
	if dm := m.p.demand; dm != nil {
		runs, nodes, nodeHours = dm.levelRuns(w.GPUs, o.GPUsPerNode)
		meanGPUs = float64(w.GPUs) * dm.mean
	} else { // a duty cycle at Assumptions.Utilization
		nodes = o.NodesFor(w.GPUs)
		meanGPUs = float64(w.GPUs) * a.Utilization
		count := max(1, int(math.Round(horizon.Hours()/24)))
		if a.Utilization == 1 {
			count = 1
		}
		busy := horizon.Hours() * a.Utilization
		// One run from the start of each day.
		runs = []provider.Run{{Length: hoursToDuration(busy / float64(count)), Count: count, Nodes: nodes,
			Every: horizon / time.Duration(count)}}
		nodeHours = busy * float64(nodes)
	}
	m.useNodeHours = nodeHours
	if m.pr.payAsYouGo() {
		runs = holdWhenCheaper(m.pr.metering, runs, horizon)
		nodeHours = runHours(runs)
	}
	if limit := o.Availability.MaxNodes; limit > 0 && nodes > limit {
		return &CompatibilityError{Workload: w.Name, Offer: o.ID, Check: CheckFit,
			Reason: fmt.Sprintf("peak needs %d nodes, offer has at most %d", nodes, limit)}
	}
	m.nodes = nodes
	d := &m.rep.Derivation
	d.Nodes, d.GPUs = nodes, nodes*o.GPUsPerNode
	if nodes > 0 {
		m.svcBusy = min(1, meanGPUs/(float64(nodes)*gpn))
	}
	m.stages = []stage{{category: provider.Compute, usage: m.serviceUsage(runs, 0)}}
	restart := w.Interruption.RestartTime.Hours()
	m.svcRuns, m.svcNodeHours = runs, nodeHours
	// Each preemption or failure costs a restart (and recovery) on a
	// replacement node: the node-hours grow by the factor e^{rate·R} of the
	// stateless model, and the extra time is billed as runs of its own.
	stretchBy := func(what string, rate, r float64) (float64, error) {
		x := rate * r
		longest := 0.0
		for _, run := range runs {
			longest = max(longest, run.Length.Hours())
		}
		// A run stretched beyond maxTime would be cut; up to MaxHorizon
		// that takes restarts adding 46 % to every run.
		if x > maxExponent || longest*math.Exp(x)*float64(time.Hour) >= float64(maxTime) {
			return 0, fmt.Errorf("tco: service %s on %s: %s at %g per node-hour with %g h restarts: %w",
				quoted(w.Name), quoted(o.ID), what, rate, r, ErrInfeasible)
		}
		return math.Exp(x), nil
	}
	if rate := m.pr.rate; m.pr.interruptible && rate > 0 && a.includes(provider.Preemption) {
		f, err := stretchBy("preemptions", rate, restart)
		if err != nil {
			return err
		}
		d.ExpectedPreemptions = nodeHours * rate
		if f > 1 {
			m.svcSpot = interruption{rate, restart}
			runs = withLostTime(runs, runHours(runs)*(f-1), d.ExpectedPreemptions, horizon)
			m.stages = append(m.stages, stage{provider.Preemption, "spot preemptions and restarts", m.serviceUsage(runs, 0)})
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
			m.svcFail = interruption{1 / mtbf, rec}
			runs = withLostTime(runs, runHours(runs)*(f-1), d.ExpectedFailures, horizon)
			m.stages = append(m.stages, stage{provider.Recovery, "node failures and recovery", m.serviceUsage(runs, 0)})
		}
	}
	m.preSetup = len(m.stages) - 1
	if a.includes(provider.Setup) && m.setupHours > 0 {
		m.heldSetup = m.setupHours
		m.stages = append(m.stages, stage{provider.Setup, "GPU time held during setup", m.serviceUsage(runs, m.heldSetup)})
	}
	final := m.stages[len(m.stages)-1].usage
	m.holdHours = final.Horizon.Hours()
	m.rep.Horizon = final.Horizon
	m.rep.UsefulGPUHours = meanGPUs * horizon.Hours()
	m.rep.WorkGPUHours = m.rep.UsefulGPUHours * d.SpeedFactor
	d.BusyFraction = m.svcBusy
	m.rep.BilledGPUHours = m.pr.billedNodeHours(final) * gpn
	m.timeline()
	return nil
}

// holdWhenCheaper replaces the runs of a demand level by one node held for
// the whole horizon when that bills less — as an operator would keep a node
// whose idle gaps are shorter than its billing increment or minimum charge.
// Levels are priced separately, so a base load can be held while the peaks
// start and stop. A Metering pricing's charges grow with the billed time of
// its runs and depend on nothing else, so billed times decide. A level held
// runs from the horizon's start.
func holdWhenCheaper(mt provider.Metering, runs []provider.Run, horizon time.Duration) []provider.Run {
	out := make([]provider.Run, len(runs))
	held := uint64(mt.BilledDuration(horizon))
	for i, r := range runs {
		out[i] = r
		if r.Count == 1 && r.Length >= horizon {
			continue
		}
		hi, asRuns := bits.Mul64(uint64(mt.BilledDuration(r.Length)), uint64(max(r.Count, 0)))
		if hi != 0 || held < asRuns {
			out[i] = provider.Run{Length: horizon, Count: 1, Nodes: r.Nodes}
		}
	}
	return out
}

// timeline fills start delay, transfer time, finish and the deadline verdict.
func (m *model) timeline() {
	o, w := m.o, m.w
	r := &m.rep
	r.StartDelay = satAdd(o.LeadTime(), m.stockWait())
	r.Coverage = 1
	if w.IsService() && r.StartDelay > 0 && r.Horizon > 0 {
		r.Coverage = max(0, 1-r.StartDelay.Hours()/r.Horizon.Hours())
	}
	if m.moves() {
		gbps := o.Hidden.TransferGbps
		if gbps == 0 {
			gbps = m.a.TransferGbps
		}
		if gbps == 0 {
			gbps = DefaultTransferGbps
		}
		r.TransferTime = hoursToDuration(w.Data.DatasetGB * 8 / gbps / 3600)
	}
	r.Finish = satAdd(r.StartDelay, r.TransferTime, hoursToDuration(m.setupHours), r.WallTime)
	r.DeadlineMet = w.Deadline == 0 || r.Finish <= w.Deadline
	if !r.DeadlineMet && !w.IsService() {
		r.GPUsToMeetDeadline = m.gpusToMeetDeadline()
	}
}

// maxGangGrowth bounds the gangs gpusToMeetDeadline tries, in multiples of
// the nodes held.
const maxGangGrowth = 64

// gpusToMeetDeadline returns the GPUs of the smallest gang of whole nodes,
// larger than the one priced, whose expected finish meets the deadline on
// this offer, or 0. Each gang is priced by the job's wall-time model: the
// work divided among its GPUs, its interconnect's efficiency, and
// interruption rates that grow with its nodes.
func (m *model) gpusToMeetDeadline() int {
	r, w, o := &m.rep, m.w, m.o
	fixed := satAdd(r.StartDelay, r.TransferTime, hoursToDuration(m.setupHours))
	if fixed >= w.Deadline || m.nodes <= 0 {
		return 0
	}
	avail := (w.Deadline - fixed).Hours()
	speed := r.Derivation.SpeedFactor
	gpn := o.GPUsPerNode
	limit := m.nodes * maxGangGrowth
	if o.Availability.MaxNodes > 0 {
		limit = min(limit, o.Availability.MaxNodes)
	}
	ic := w.Requirements.Interconnect
	for nodes := m.nodes + 1; nodes <= limit; nodes++ {
		if !gangOK(&ic, nodes*gpn, nodes, o.Interconnect) {
			return 0
		}
		eff := 1.0
		if nodes > 1 && !interconnectOK(ic, o.Interconnect) {
			if ic.BelowFabric != workload.Slower {
				return 0
			}
			if m.a.includes(provider.Inefficiency) {
				eff = ic.Efficiency
			}
		}
		wm := m.wm
		wm.spotRate *= float64(nodes) / float64(m.nodes)
		wm.failRate *= float64(nodes) / float64(m.nodes)
		res, err := wm.expect(w.WorkGPUHours/(speed*float64(nodes*gpn))/eff, m.spotOn, m.failOn)
		if err == nil && res.wall <= avail {
			return nodes * gpn
		}
	}
	return 0
}

// stockWait is the expected wait for stock, as Evaluate charges it.
func (m *model) stockWait() time.Duration {
	p := m.o.Availability.FillProbability
	if p <= 0 || p >= 1 {
		return 0
	}
	return hoursToDuration((1 - p) / p * m.a.stockRetry().Hours())
}
