package tco

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/shopspring/decimal"
)

// DeadlineJob is a job with a fixed amount of work that must finish by a
// deadline, run on spot capacity when possible and on on-demand capacity
// otherwise. Its progress survives an interruption (it checkpoints or is
// otherwise resumable), but every start on a new instance, spot or on-demand,
// costs Changeover before progress resumes. Instances are billed pro rata for
// every moment they are held, changeovers included; billing increments and
// minimums are the business of the provider's Pricing, not of this model.
//
// The zero DeadlineJob is invalid (it has no work and no deadline).
type DeadlineJob struct {
	// Work is the compute time the job needs at full speed; it must be positive.
	Work time.Duration
	// Deadline is the time, from the start at zero, by which the job must
	// finish; it must be positive.
	Deadline time.Duration
	// Changeover is the restart overhead paid on every new instance (boot,
	// image pull, checkpoint reload); it must not be negative.
	Changeover time.Duration
	// SpotRatePerHour is the price of one spot instance for one hour; it must
	// not be negative.
	SpotRatePerHour decimal.Decimal
	// OnDemandRatePerHour is the price of one on-demand instance for one hour;
	// it must not be negative.
	OnDemandRatePerHour decimal.Decimal
}

// Validate reports every problem of j joined, each wrapping
// [ErrInvalidDeadlineJob].
func (j DeadlineJob) Validate() error {
	var errs []error
	if j.Work <= 0 {
		errs = append(errs, fmt.Errorf("tco: deadline job work = %v must be positive: %w", j.Work, ErrInvalidDeadlineJob))
	}
	if j.Deadline <= 0 {
		errs = append(errs, fmt.Errorf("tco: deadline job deadline = %v must be positive: %w", j.Deadline, ErrInvalidDeadlineJob))
	}
	if j.Changeover < 0 {
		errs = append(errs, fmt.Errorf("tco: deadline job changeover = %v must not be negative: %w", j.Changeover, ErrInvalidDeadlineJob))
	}
	for _, r := range []struct {
		name string
		rate decimal.Decimal
	}{{"spot rate per hour", j.SpotRatePerHour}, {"on-demand rate per hour", j.OnDemandRatePerHour}} {
		switch {
		case !moneyInBounds(r.rate):
			errs = append(errs, fmt.Errorf("tco: deadline job %s exponent %d beyond ±%d: %w", r.name, r.rate.Exponent(), provider.MaxExponent, ErrInvalidDeadlineJob))
		case r.rate.IsNegative():
			errs = append(errs, fmt.Errorf("tco: deadline job %s = %s must not be negative: %w", r.name, r.rate, ErrInvalidDeadlineJob))
		}
	}
	return errors.Join(errs...)
}

// Instance is the kind of capacity a deadline job holds, or is told to hold,
// during one step of a policy simulation. The zero Instance is NoInstance.
type Instance int

const (
	// NoInstance means the job holds no instance: it is idle and pays nothing.
	NoInstance Instance = iota
	// SpotInstance means the job runs on spot capacity.
	SpotInstance
	// OnDemandInstance means the job runs on on-demand capacity.
	OnDemandInstance
)

// String returns "none", "spot", "on-demand", or "Instance(n)" for an unknown
// value.
func (i Instance) String() string {
	switch i {
	case NoInstance:
		return "none"
	case SpotInstance:
		return "spot"
	case OnDemandInstance:
		return "on-demand"
	}
	return fmt.Sprintf("Instance(%d)", int(i))
}

// PolicyState is what a [Policy] sees at the start of each step: the job, the
// time, the progress, the instance held and whether spot is available for the
// whole step.
type PolicyState struct {
	// Job is the job being simulated.
	Job DeadlineJob
	// Elapsed is the time since the start, at the beginning of this step.
	Elapsed time.Duration
	// Step is the length of the step being decided (the trace's step).
	Step time.Duration
	// Done is the work completed so far, in [0, Job.Work).
	Done time.Duration
	// Running is the instance the job holds now. A spot instance reclaimed
	// at this step's start has already been dropped (Running is NoInstance).
	Running Instance
	// ChangeoverLeft is the part of the changeover still to be paid on
	// Running before progress resumes; zero when Running is NoInstance.
	ChangeoverLeft time.Duration
	// SpotAvailable reports whether spot capacity is available for this step.
	SpotAvailable bool
}

// Remaining returns the work still to do, Job.Work − Done.
func (s PolicyState) Remaining() time.Duration { return s.Job.Work - s.Done }

// TimeLeft returns the time until the deadline, Job.Deadline − Elapsed.
func (s PolicyState) TimeLeft() time.Duration { return s.Job.Deadline - s.Elapsed }

// Slack returns the time the job can still waste and yet meet its deadline by
// starting a fresh on-demand instance: TimeLeft − Remaining − Job.Changeover.
// It is negative once that is no longer possible.
func (s PolicyState) Slack() time.Duration { return s.TimeLeft() - s.Remaining() - s.Job.Changeover }

// MustRunOnDemand reports whether Slack < Step: a step spent on anything but
// on-demand could make the deadline unreachable. A policy that chooses
// OnDemandInstance whenever MustRunOnDemand holds meets the deadline of every
// feasible job (Work + Changeover ≤ Deadline): once it holds it keeps holding
// while the job stays on on-demand, and the on-demand instance finishes in
// time.
func (s PolicyState) MustRunOnDemand() bool { return s.Slack() < s.Step }

// behindUniform reports whether Done is below the uniform-progress line
// Work·Elapsed/Deadline.
func (s PolicyState) behindUniform() bool {
	return float64(s.Done)*float64(s.Job.Deadline) < float64(s.Job.Work)*float64(s.Elapsed)
}

// Policy decides, step by step, on which capacity a deadline job runs. It is
// the extension point of [SimulatePolicy]; [Greedy] and [UniformProgress] are
// the built-in policies.
//
// Contract:
//   - Name returns a short, stable, human-readable name, copied into
//     [PolicyResult.Policy].
//   - Choose returns the instance to hold during the step described by s. It
//     must return NoInstance, OnDemandInstance, or SpotInstance when
//     s.SpotAvailable; anything else makes SimulatePolicy fail with
//     [ErrInvalidPolicyChoice]. Choosing the instance already held (s.Running)
//     keeps it without a new changeover; choosing another starts a new one
//     (a changeover) or, for NoInstance, releases it. Choose must be a
//     deterministic function of s, must not retain or mutate shared state, and
//     must be safe to call from several goroutines; the simulator calls it
//     once per step until the job finishes or the deadline passes.
type Policy interface {
	Name() string
	Choose(s PolicyState) Instance
}

// Greedy is the greedy spot policy: run on spot whenever it is available and
// otherwise wait idle, and switch to on-demand, for good, only when the slack
// would otherwise run out (PolicyState.MustRunOnDemand). It meets the deadline
// of every feasible job. The zero Greedy is ready to use.
type Greedy struct{}

// Name returns "greedy".
func (Greedy) Name() string { return "greedy" }

// Choose returns OnDemandInstance when s.MustRunOnDemand(), else
// SpotInstance when spot is available, else NoInstance.
func (Greedy) Choose(s PolicyState) Instance {
	switch {
	case s.MustRunOnDemand():
		return OnDemandInstance
	case s.SpotAvailable:
		return SpotInstance
	default:
		return NoInstance
	}
}

// UniformProgress is the Uniform Progress policy of "Can't Be Late" (Wu et
// al., NSDI 2024): keep progress at or above the uniform line
// Work·Elapsed/Deadline. It uses spot whenever spot is available; when spot is
// unavailable it runs on-demand if progress is behind the line or the slack
// (PolicyState.Slack, which already reserves one changeover) is below one
// changeover, and otherwise waits idle; and it runs on-demand whenever
// PolicyState.MustRunOnDemand holds, whatever spot does. It meets the deadline
// of every feasible job. The zero UniformProgress is ready to use.
//
// This is the paper's basic rule without its hysteresis refinements.
type UniformProgress struct{}

// Name returns "uniform-progress".
func (UniformProgress) Name() string { return "uniform-progress" }

// Choose applies the rules in the type's comment, in this order: must run
// on-demand, spot if available, on-demand if behind the line or the slack is
// below one changeover, else idle.
func (UniformProgress) Choose(s PolicyState) Instance {
	switch {
	case s.MustRunOnDemand():
		return OnDemandInstance
	case s.SpotAvailable:
		return SpotInstance
	case s.behindUniform() || s.Slack() < s.Job.Changeover:
		return OnDemandInstance
	default:
		return NoInstance
	}
}

// PolicyResult is the outcome of one policy simulation. Every moment from the
// start to Finish is exactly one of spot, on-demand or idle time, so
// SpotTime + OnDemandTime + IdleTime == Finish; and SpotTime + OnDemandTime is
// Work plus the changeover time actually spent.
type PolicyResult struct {
	// Policy is the policy's Name.
	Policy string
	// Cost is SpotRatePerHour·SpotTime + OnDemandRatePerHour·OnDemandTime,
	// each term computed exactly in nanoseconds and rounded half away from
	// zero to provider.Precision decimal places.
	Cost decimal.Decimal
	// SpotTime is the time spent holding spot instances, changeovers included.
	SpotTime time.Duration
	// OnDemandTime is the time spent holding on-demand instances, changeovers
	// included.
	OnDemandTime time.Duration
	// IdleTime is the time spent holding no instance before Finish.
	IdleTime time.Duration
	// Finish is when the work completed, from the start at zero.
	Finish time.Duration
	// DeadlineMet reports Finish ≤ Deadline.
	DeadlineMet bool
	// Changeovers is the number of instance starts, the first included.
	Changeovers int
	// Preemptions is the number of times a spot instance the job held was
	// reclaimed because spot became unavailable.
	Preemptions int
}

// SimulatePolicy runs job under policy against the spot availability in trace
// and reports cost, time split and whether the deadline held.
//
// Time advances in the trace's steps from zero. At the start of each step a
// spot instance the job holds is reclaimed if spot is unavailable for the
// step (a preemption; progress is kept, the changeover in progress is lost);
// then policy.Choose decides the instance for the whole step. A new instance
// first pays job.Changeover (spread over steps if longer than one), then makes
// progress at full speed; the job finishes mid-step as soon as its work is
// done. Steps past the end of trace count as spot-unavailable. The policy is
// consulted while the job is unfinished and a step starts before the
// deadline; work left after that is finished on on-demand capacity (one more
// changeover unless the job already holds on-demand) and DeadlineMet is
// false.
//
// SimulatePolicy is deterministic and does not modify trace. Preconditions:
// policy non-nil; job valid ([DeadlineJob.Validate]); trace.Step > 0; the
// deadline spans at most [MaxTraceSteps] steps; deadline, one step, changeover
// and work sum to less than the largest time.Duration. Violations return every
// problem joined, wrapping [ErrInvalidPolicyChoice], [ErrInvalidDeadlineJob] or
// [ErrInvalidTrace]. A policy choice that breaks the Policy contract returns
// the error together with the result so far.
func SimulatePolicy(policy Policy, job DeadlineJob, trace Trace) (PolicyResult, error) {
	var errs []error
	if policy == nil {
		errs = append(errs, fmt.Errorf("tco: policy is nil: %w", ErrInvalidPolicyChoice))
	}
	errs = appendJoined(errs, job.Validate())
	errs = appendJoined(errs, trace.Validate())
	if len(errs) > 0 {
		return PolicyResult{}, errors.Join(errs...)
	}
	steps := int64(job.Deadline / trace.Step)
	if job.Deadline%trace.Step != 0 {
		steps++
	}
	if steps > MaxTraceSteps {
		errs = append(errs, fmt.Errorf("tco: deadline %v spans %d steps of %v, more than %d: %w",
			job.Deadline, steps, trace.Step, MaxTraceSteps, ErrInvalidTrace))
	}
	if float64(job.Deadline)+float64(trace.Step)+float64(job.Changeover)+float64(job.Work) >= 0.99*math.MaxInt64 {
		errs = append(errs, fmt.Errorf("tco: deadline %v, step %v, changeover %v and work %v sum past the largest duration: %w",
			job.Deadline, trace.Step, job.Changeover, job.Work, ErrInvalidDeadlineJob))
	}
	if len(errs) > 0 {
		return PolicyResult{}, errors.Join(errs...)
	}

	sim := policySim{job: job, res: PolicyResult{Policy: policy.Name()}}
	for i := 0; sim.t < job.Deadline && sim.done < job.Work; i++ {
		spot := i < len(trace.Available) && trace.Available[i]
		if sim.running == SpotInstance && !spot {
			sim.running, sim.left = NoInstance, 0
			sim.res.Preemptions++
		}
		choice := policy.Choose(PolicyState{
			Job: job, Elapsed: sim.t, Step: trace.Step, Done: sim.done,
			Running: sim.running, ChangeoverLeft: sim.left, SpotAvailable: spot,
		})
		switch {
		case choice == SpotInstance && !spot:
			return sim.result(), fmt.Errorf("tco: policy %s chose spot at %v while spot was unavailable: %w",
				quoted(sim.res.Policy), sim.t, ErrInvalidPolicyChoice)
		case choice != NoInstance && choice != SpotInstance && choice != OnDemandInstance:
			return sim.result(), fmt.Errorf("tco: policy %s chose %v at %v: %w",
				quoted(sim.res.Policy), choice, sim.t, ErrInvalidPolicyChoice)
		}
		sim.hold(choice)
		sim.advance(trace.Step)
	}
	if sim.done < job.Work {
		sim.hold(OnDemandInstance)
		sim.advance(sim.left + job.Work - sim.done)
	}
	return sim.result(), nil
}

// policySim is the mutable state of one SimulatePolicy call.
type policySim struct {
	job     DeadlineJob
	t       time.Duration // elapsed
	done    time.Duration // work completed
	running Instance
	left    time.Duration // changeover left on running
	res     PolicyResult
}

// hold switches to instance c, starting a changeover if c is a new instance.
func (m *policySim) hold(c Instance) {
	if c == m.running {
		return
	}
	m.running, m.left = c, 0
	if c != NoInstance {
		m.left = m.job.Changeover
		m.res.Changeovers++
	}
}

// advance spends up to dt on the instance held, stopping when the work is done.
func (m *policySim) advance(dt time.Duration) {
	if m.running == NoInstance {
		m.res.IdleTime += dt
		m.t += dt
		return
	}
	used := min(dt, m.left)
	m.left -= used
	progress := min(dt-used, m.job.Work-m.done)
	m.done += progress
	used += progress
	m.t += used
	if m.running == SpotInstance {
		m.res.SpotTime += used
	} else {
		m.res.OnDemandTime += used
	}
}

func (m *policySim) result() PolicyResult {
	r := m.res
	r.Finish = m.t
	r.DeadlineMet = m.done >= m.job.Work && m.t <= m.job.Deadline
	r.Cost = policyCost(m.job.SpotRatePerHour, r.SpotTime).Add(policyCost(m.job.OnDemandRatePerHour, r.OnDemandTime))
	return r
}

// policyCost returns ratePerHour·d rounded to provider.Precision decimal
// places, the precision of every other amount.
func policyCost(ratePerHour decimal.Decimal, d time.Duration) decimal.Decimal {
	return ratePerHour.Mul(decimal.NewFromInt(int64(d))).DivRound(decimal.NewFromInt(int64(time.Hour)), provider.Precision)
}

// appendJoined appends err to errs, flattening a joined error into its parts.
func appendJoined(errs []error, err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return append(errs, j.Unwrap()...)
	}
	if err != nil {
		errs = append(errs, err)
	}
	return errs
}
