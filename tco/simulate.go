package tco

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultTrials is the number of Monte Carlo trials when SimulateOptions.Trials is zero.
const DefaultTrials = 10000

// maxEvents bounds the random numbers one Simulate call is expected to draw
// (checkpoint segments, interruptions, interrupted restarts), so that a
// pathological input — a long job that restarts from scratch on nodes that
// fail every minute, a checkpoint every second for months — returns an error
// instead of running for hours.
const maxEvents = 50_000_000

// SimulateOptions configure Simulate. The zero value runs DefaultTrials trials
// with seed 0.
type SimulateOptions struct {
	// Trials is the number of independent trials; zero means DefaultTrials.
	Trials int
	// Seed seeds the random source (a PCG); the same seed gives the same result.
	Seed uint64
}

// Summary is the distribution of a money figure over the trials.
type Summary struct {
	// Mean is the sample mean; P50, P90 and P99 are empirical quantiles (the
	// smallest sample with at least that fraction of samples at or below it),
	// of every trial up to QuantileSample trials and of a uniform sample of
	// QuantileSample trials beyond.
	Mean, P50, P90, P99 decimal.Decimal
}

// DurationSummary is the distribution of a time over the trials.
type DurationSummary struct {
	// Mean is the sample mean; P50, P90 and P99 are empirical quantiles, as
	// in Summary.
	Mean, P50, P90, P99 time.Duration
}

// Simulation is the outcome of Simulate.
type Simulation struct {
	// Trials is the number of trials run.
	Trials int
	// Cost is the distribution of the total cost.
	Cost Summary
	// WallTime is the distribution of the time a finite job holds its GPUs
	// (zero for services).
	WallTime DurationSummary
	// Finish is the distribution of the time to finish, from the request:
	// start delay (lead time and stock-outs), transfer, setup and wall time.
	Finish DurationSummary
	// DeadlineMissed is the fraction of trials that finished after the
	// workload's deadline (zero without one).
	DeadlineMissed float64
	// Expected is Evaluate's report, the expectation the samples scatter around.
	Expected Report
}

// Simulate runs a seeded Monte Carlo of w on o under a: for every trial it
// draws the stock-outs before capacity is granted (each request filled with
// the offer's fill probability, retried after Assumptions.StockRetry), the
// spot preemptions and node failures as Poisson processes (exponential times
// between events from the seeded source, event counts from gonum's
// distuv.Poisson), the work they destroy and the restarts they
// cost, exactly as Evaluate's expectation models them, and re-prices the
// outcome with the offer's pricing and hidden-cost profile.
//
// The sample mean agrees with Evaluate's Total up to sampling error where the
// cost is linear in the wall time; it exceeds it where a cost is convex in it
// (a delay charged only past the deadline, a committed horizon that a long
// run overshoots), because Evaluate prices the expected outcome.
//
// Trials must be at most MaxTrials. Means and DeadlineMissed count every
// trial; the quantiles are exact up to QuantileSample trials and beyond are
// those of a uniform random sample of QuantileSample of them, so that memory
// does not grow with the trials.
//
// The result depends only on the inputs and the seed: trials run on one
// goroutine in order, so GOMAXPROCS does not matter.
func Simulate(w workload.Workload, o provider.Offer, a Assumptions, opts SimulateOptions) (Simulation, error) {
	if opts.Trials < 0 || opts.Trials > MaxTrials {
		return Simulation{}, fmt.Errorf("tco: simulate: trials = %d: want 0 to MaxTrials = %d: %w", opts.Trials, MaxTrials, ErrInvalidAssumptions)
	}
	n := opts.Trials
	if n == 0 {
		n = DefaultTrials
	}
	p, err := prepare(w, a, &o)
	if err != nil {
		return Simulation{}, err
	}
	m, err := p.newModel(o, true)
	if err != nil {
		return Simulation{}, err
	}
	if err := m.price(); err != nil {
		return Simulation{}, err
	}
	rep := m.rep
	if draws := float64(n) * m.drawsPerTrial(); !(draws <= maxEvents) {
		return Simulation{}, fmt.Errorf("tco: simulate: %g expected random draws over %d trials: %w", draws, n, ErrTooManyEvents)
	}
	src := rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15)
	rng := rand.New(src)
	out := newOutcomes(n, opts.Seed)
	missed := 0
	leadTime := m.o.LeadTime()
	for range n {
		delay := satAdd(leadTime, m.drawStockWait(rng))
		var (
			usage provider.Usage
			wall  float64
		)
		if w.IsService() {
			runs, err := m.drawServiceRuns(src, rng)
			if err != nil {
				return Simulation{}, err
			}
			usage = m.serviceUsage(runs, m.heldSetup)
		} else {
			var preemptions float64
			wall, preemptions = m.drawWall(src, rng)
			if err := checkRuns(wall, preemptions); err != nil {
				return Simulation{}, err
			}
			if held := m.heldSetup + wall; held > MaxHorizon.Hours() {
				return Simulation{}, fmt.Errorf("tco: simulate: a trial holds capacity %.0f h (setup and drawn wall time), beyond MaxHorizon = %v: %w",
					held, MaxHorizon, ErrInfeasible)
			}
			usage = m.jobUsage(wall, preemptions, m.heldSetup)
		}
		cs, err := m.charges(usage)
		if err != nil {
			return Simulation{}, err
		}
		wallTime := hoursToDuration(wall)
		finish := satAdd(delay, rep.TransferTime, hoursToDuration(m.setupHours), wallTime)
		credited, err := m.withCredits(asLines(cs))
		if err != nil {
			return Simulation{}, err
		}
		lines, err := m.otherLines(credited, usage.Horizon.Hours(), cs, delay, finish)
		if err != nil {
			return Simulation{}, err
		}
		out.add(total(lines), wallTime, finish)
		if w.Deadline > 0 && !w.IsService() && finish > w.Deadline {
			missed++
		}
	}
	return Simulation{
		Trials:         n,
		Cost:           out.cost(),
		WallTime:       out.durations(out.walls, out.wallSum),
		Finish:         out.durations(out.finishes, out.finishSum),
		DeadlineMissed: float64(missed) / float64(n),
		Expected:       rep,
	}, nil
}

// drawsPerTrial is the expected number of random draws of one trial, +Inf
// when it overflows.
func (m *model) drawsPerTrial() float64 {
	if m.w.IsService() {
		draws := 0.0
		hours := m.svcNodeHours
		for _, ev := range []interruption{m.svcSpot, m.svcFail} {
			if ev.rate == 0 || ev.restart == 0 {
				continue
			}
			perRestart := math.Exp(ev.rate * ev.restart)
			draws += 1 + hours*ev.rate*perRestart
			hours *= perRestart
		}
		return draws
	}
	wm := m.wm
	_, _, lambda, restart := wm.rates(m.spotOn, m.failOn)
	if lambda == 0 {
		return 0
	}
	events := lambda * m.rep.WallTime.Hours()
	perRestart := math.Exp(restart * lambda)
	switch wm.tolerance {
	case workload.Checkpointed:
		tau := wm.fixedTau
		if tau <= 0 {
			tau = dalySeconds(wm.delta, 1/lambda)
		}
		return math.Ceil(m.work/tau) + events*(1+perRestart)
	case workload.Stateless:
		return 1 + events*perRestart
	}
	return 1 + events*(1+perRestart)
}

// drawStockWait draws the number of unfilled requests before one is filled
// (geometric with success probability p, by inversion: ⌊ln U / ln(1−p)⌋)
// times the retry interval, saturating at maxTime.
func (m *model) drawStockWait(rng *rand.Rand) time.Duration {
	p := m.o.Availability.FillProbability
	if p <= 0 || p >= 1 {
		return 0
	}
	u := 1 - rng.Float64() // in (0, 1]
	failures := math.Floor(math.Log(u) / math.Log1p(-p))
	return hoursToDuration(failures * m.a.stockRetry().Hours())
}

// drawWall draws the wall time of a finite job and its number of preemptions.
func (m *model) drawWall(src rand.Source, rng *rand.Rand) (wall, preemptions float64) {
	wm := m.wm
	ls, _, lambda, restart := wm.rates(m.spotOn, m.failOn)
	ts := m.work
	if lambda == 0 {
		// No interruptions: exactly Evaluate's figure (checkpoint overhead only).
		r, _ := wm.expect(ts, false, false)
		return r.wall, 0
	}
	exp := func() float64 { return rng.ExpFloat64() / lambda }
	events := 0
	// segment returns the time to complete length hours without interruption.
	segment := func(length float64) float64 {
		t := 0.0
		for {
			x := exp()
			if x >= length {
				return t + length
			}
			t += x
			events++
			t += restartPhase(exp, restart)
		}
	}
	switch wm.tolerance {
	case workload.Checkpointed:
		tau := wm.fixedTau
		if tau <= 0 {
			tau = dalySeconds(wm.delta, 1/lambda)
		}
		k := math.Ceil(ts / tau)
		tau = ts / k
		for range int(k) {
			wall += segment(tau + wm.delta)
		}
	case workload.Stateless:
		// Work never rolls back; each interruption costs one restart phase.
		n := int(distuv.Poisson{Lambda: ts * lambda, Src: src}.Rand())
		wall = ts
		for range n {
			wall += restartPhase(exp, restart)
		}
		events += n
	default:
		wall = segment(ts)
	}
	return wall, float64(events) * ls / lambda
}

// restartPhase draws the time to complete a restart of length r that an
// interruption (at exponential times drawn by exp) sends back to its start.
func restartPhase(exp func() float64, r float64) float64 {
	t := 0.0
	for {
		y := exp()
		if y >= r {
			return t + r
		}
		t += y
	}
}

// drawServiceRuns draws a service's extra node-hours from preemptions and
// failures and returns its runs with the extra time as runs of its own on
// replacement nodes, as Evaluate bills the expectation.
func (m *model) drawServiceRuns(src rand.Source, rng *rand.Rand) ([]provider.Run, error) {
	if m.svcNodeHours == 0 {
		return m.svcRuns, nil
	}
	total := m.svcNodeHours
	events := 0
	for _, ev := range []interruption{m.svcSpot, m.svcFail} {
		if ev.rate == 0 || ev.restart == 0 {
			continue
		}
		n := int(distuv.Poisson{Lambda: total * ev.rate, Src: src}.Rand())
		exp := func() float64 { return rng.ExpFloat64() / ev.rate }
		extra := 0.0
		for range n {
			extra += restartPhase(exp, ev.restart)
		}
		total += extra
		events += n
	}
	lost := total - m.svcNodeHours
	if per := lost / max(1, math.Round(float64(events))); per*float64(time.Hour) >= float64(maxTime) {
		return nil, fmt.Errorf("tco: simulate: a trial's restarts lose %.4g h per replacement run, beyond what a duration holds: %w",
			per, ErrInfeasible)
	}
	return withLostTime(m.svcRuns, lost, float64(events), m.svcHorizon), nil
}

// asLines makes lines of charges (owners are not needed for totals).
func asLines(cs []provider.Charge) []Line {
	out := make([]Line, len(cs))
	for i, c := range cs {
		out[i] = Line{Charge: c}
	}
	return out
}
