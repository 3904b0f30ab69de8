package tco

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// spotOnly runs on spot whenever it is available and idles otherwise; it
// ignores the deadline. A test baseline.
type spotOnly struct{}

func (spotOnly) Name() string { return "spot-only" }
func (spotOnly) Choose(s PolicyState) Instance {
	if s.SpotAvailable {
		return SpotInstance
	}
	return NoInstance
}

// onDemandOnly always runs on on-demand. A test baseline.
type onDemandOnly struct{}

func (onDemandOnly) Name() string                { return "on-demand-only" }
func (onDemandOnly) Choose(PolicyState) Instance { return OnDemandInstance }

// alwaysSpot chooses spot even when it is unavailable: it breaks the contract.
type alwaysSpot struct{}

func (alwaysSpot) Name() string                { return "always-spot" }
func (alwaysSpot) Choose(PolicyState) Instance { return SpotInstance }

// bogus returns an Instance that does not exist.
type bogus struct{}

func (bogus) Name() string                { return "bogus" }
func (bogus) Choose(PolicyState) Instance { return Instance(7) }

func spotMoney(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func traceBools(pattern string) []bool {
	out := make([]bool, len(pattern))
	for i, c := range pattern {
		out[i] = c == '1'
	}
	return out
}

func constTrace(n int, v bool) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestNewTwoStateTrace(t *testing.T) {
	tests := []struct {
		name          string
		reason        string
		availability  float64
		meanOn        time.Duration
		step, length  time.Duration
		wantSteps     int
		wantAvail     float64 // checked when 0 or 1
		wantErr       error
		wantErrsCount int
	}{
		{name: "ceil-length", reason: "a partial last step counts as a step", availability: 0.5, meanOn: time.Hour,
			step: time.Hour, length: 90 * time.Minute, wantSteps: 2, wantAvail: -1},
		{name: "always", reason: "availability 1 is all available", availability: 1, meanOn: time.Hour,
			step: time.Minute, length: 24 * time.Hour, wantSteps: 1440, wantAvail: 1},
		{name: "never", reason: "availability 0 is never available", availability: 0, meanOn: time.Hour,
			step: time.Minute, length: 24 * time.Hour, wantSteps: 1440, wantAvail: 0},
		{name: "coarse-step", reason: "a step longer than the mean on-period is valid: transitions are exact",
			availability: 0.3, meanOn: time.Minute, step: time.Hour, length: 10 * time.Hour, wantSteps: 10, wantAvail: -1},
		{name: "all-bad", reason: "every problem is reported", availability: math.NaN(), meanOn: 0, step: -1, length: 0,
			wantErr: ErrInvalidTrace, wantErrsCount: 4},
		{name: "above-one", reason: "availability is a fraction", availability: 1.5, meanOn: time.Hour,
			step: time.Minute, length: time.Hour, wantErr: ErrInvalidTrace, wantErrsCount: 1},
		{name: "too-long", reason: "more than MaxTraceSteps steps", availability: 0.5, meanOn: time.Hour,
			step: 1, length: math.MaxInt64, wantErr: ErrInvalidTrace, wantErrsCount: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := NewTwoStateTrace(1, tt.availability, tt.meanOn, tt.step, tt.length)
			checkSentinel(t, err, tt.wantErr, tt.wantErrsCount, tt.reason)
			if tt.wantErr != nil {
				return
			}
			if len(tr.Available) != tt.wantSteps || tr.Step != tt.step {
				t.Errorf("%d steps of %v, want %d of %v (%s)", len(tr.Available), tr.Step, tt.wantSteps, tt.step, tt.reason)
			}
			if tt.wantAvail >= 0 && tr.Availability() != tt.wantAvail {
				t.Errorf("availability %g, want %g (%s)", tr.Availability(), tt.wantAvail, tt.reason)
			}
		})
	}
}

// TestTwoStateTraceStatistics checks long traces against the process they
// sample. Availability: the mean of n steps of a stationary two-state chain
// with lag-one correlation λ = e^{−s·step} has standard deviation
// √(a(1−a)/n · (1+λ)/(1−λ)); the tolerance is 5 of those (a false alarm once
// in ~3.5 million runs, and the seeds are fixed anyway). Mean on-run: the
// sampled chain's exact mean run is step/P(on → off); with ≥ 10,000 runs its
// sample mean has a relative standard deviation ≤ 1 %, so the tolerance is
// 5 %. That exact mean exceeds meanOn by about step/(2·meanOn·(1−a)), below
// 2 % for these cases, so the sample mean is also within 10 % of meanOn.
func TestTwoStateTraceStatistics(t *testing.T) {
	tests := []struct {
		name         string
		reason       string
		seed         uint64
		availability float64
		meanOn, step time.Duration
		steps        int
	}{
		{name: "balanced", reason: "50 % available, 2 h on-periods", seed: 1, availability: 0.5,
			meanOn: 2 * time.Hour, step: time.Minute, steps: 1 << 22},
		{name: "scarce", reason: "10 % available, short on-periods", seed: 2, availability: 0.1,
			meanOn: 30 * time.Minute, step: time.Minute, steps: 1 << 22},
		{name: "plentiful", reason: "90 % available, 6 h on-periods", seed: 3, availability: 0.9,
			meanOn: 6 * time.Hour, step: time.Minute, steps: 1 << 22},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := NewTwoStateTrace(tt.seed, tt.availability, tt.meanOn, tt.step, time.Duration(tt.steps)*tt.step)
			if err != nil {
				t.Fatal(err)
			}
			a := tt.availability
			lambda := math.Exp(-tt.step.Seconds() / (tt.meanOn.Seconds() * (1 - a)))
			sigma := math.Sqrt(a * (1 - a) / float64(tt.steps) * (1 + lambda) / (1 - lambda))
			if got := tr.Availability(); math.Abs(got-a) > 5*sigma {
				t.Errorf("availability %.4f, want %.4f ± %.4f (5σ) (%s)", got, a, 5*sigma, tt.reason)
			}
			runs, on := 0, 0
			for i, v := range tr.Available {
				if v {
					on++
					if i == 0 || !tr.Available[i-1] {
						runs++
					}
				}
			}
			meanRun := float64(on) / float64(runs) * tt.step.Seconds()
			exact := tt.step.Seconds() / ((1 - a) * (1 - lambda))
			if rel := math.Abs(meanRun-exact) / exact; rel > 0.05 {
				t.Errorf("mean on-run %.0f s, chain's exact mean %.0f s ± 5 %% (%s)", meanRun, exact, tt.reason)
			}
			if rel := math.Abs(meanRun-tt.meanOn.Seconds()) / tt.meanOn.Seconds(); rel > 0.1 {
				t.Errorf("mean on-run %.0f s, want %v ± 10 %% (%s)", meanRun, tt.meanOn, tt.reason)
			}
		})
	}
}

func TestTraceMethods(t *testing.T) {
	tr := Trace{Step: time.Hour, Available: traceBools("1101")}
	tests := []struct {
		name   string
		reason string
		got    any
		want   any
	}{
		{name: "length", reason: "4 steps of 1 h", got: tr.Length(), want: 4 * time.Hour},
		{name: "availability", reason: "3 of 4 steps", got: tr.Availability(), want: 0.75},
		{name: "at-start", reason: "step 0 is available", got: tr.AvailableAt(0), want: true},
		{name: "in-gap", reason: "step 2 covers [2h, 3h)", got: tr.AvailableAt(150 * time.Minute), want: false},
		{name: "past-end", reason: "past the end is unavailable", got: tr.AvailableAt(4 * time.Hour), want: false},
		{name: "negative", reason: "before the start is unavailable", got: tr.AvailableAt(-1), want: false},
		{name: "empty", reason: "an empty trace has availability 0", got: Trace{Step: time.Hour}.Availability(), want: 0.0},
		{name: "zero-step-length", reason: "an invalid step has no length", got: Trace{Available: traceBools("11")}.Length(), want: time.Duration(0)},
		{name: "saturating-length", reason: "huge traces saturate", got: Trace{Step: math.MaxInt64 / 2, Available: traceBools("111")}.Length(), want: time.Duration(math.MaxInt64)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("-want +got:\n%s(%s)", diff, tt.reason)
			}
		})
	}
}

func TestSimulatePolicy(t *testing.T) {
	h := time.Hour
	job := DeadlineJob{
		Work: 4 * h, Deadline: 8 * h, Changeover: 30 * time.Minute,
		SpotRatePerHour: spotMoney("1"), OnDemandRatePerHour: spotMoney("3"),
	}
	tests := []struct {
		name   string
		reason string
		policy Policy
		job    DeadlineJob
		trace  Trace
		want   PolicyResult
	}{
		{
			name: "greedy-all-available", reason: "spot throughout: one changeover, work + d on spot",
			policy: Greedy{}, job: job, trace: Trace{Step: h, Available: constTrace(8, true)},
			want: PolicyResult{Policy: "greedy", Cost: spotMoney("4.5"), SpotTime: 4*h + 30*time.Minute,
				Finish: 4*h + 30*time.Minute, DeadlineMet: true, Changeovers: 1},
		},
		{
			name: "uniform-all-available", reason: "spot throughout: one changeover, work + d on spot",
			policy: UniformProgress{}, job: job, trace: Trace{Step: h, Available: constTrace(8, true)},
			want: PolicyResult{Policy: "uniform-progress", Cost: spotMoney("4.5"), SpotTime: 4*h + 30*time.Minute,
				Finish: 4*h + 30*time.Minute, DeadlineMet: true, Changeovers: 1},
		},
		{
			name: "greedy-never-available", reason: "idle while slack ≥ 1 step: slack 3.5 h → idle 3 h, then on-demand 4.5 h",
			policy: Greedy{}, job: job, trace: Trace{Step: h, Available: constTrace(8, false)},
			want: PolicyResult{Policy: "greedy", Cost: spotMoney("13.5"), OnDemandTime: 4*h + 30*time.Minute,
				IdleTime: 3 * h, Finish: 7*h + 30*time.Minute, DeadlineMet: true, Changeovers: 1},
		},
		{
			name: "greedy-empty-trace", reason: "a trace shorter than the deadline is unavailable past its end",
			policy: Greedy{}, job: job, trace: Trace{Step: h},
			want: PolicyResult{Policy: "greedy", Cost: spotMoney("13.5"), OnDemandTime: 4*h + 30*time.Minute,
				IdleTime: 3 * h, Finish: 7*h + 30*time.Minute, DeadlineMet: true, Changeovers: 1},
		},
		{
			// t=0: on the line (0 ≥ 0), slack 3.5 h → idle. t=1h: behind (0 < 0.5 h) → on-demand,
			// 30 min changeover + 30 min work. t=2h: done 0.5 h < 1 h → stay. t=3h..: done 1.5 h
			// < 1.5 h? no, equal → idle at t=3h; t=4h: 1.5 < 2 → on-demand again (changeover) ...
			name: "uniform-never-available", reason: "no spot: on-demand only when behind the line; basic UP pays a changeover per re-entry",
			policy: UniformProgress{}, job: job, trace: Trace{Step: h, Available: constTrace(8, false)},
			want: PolicyResult{Policy: "uniform-progress", Cost: spotMoney("15"), OnDemandTime: 5 * h,
				IdleTime: 2 * h, Finish: 7 * h, DeadlineMet: true, Changeovers: 2},
		},
		{
			// Steps: 1 1 0 0 0 0 0 0. Spot t=0..2h: 30 min changeover + 1.5 h work. t=2h preempted;
			// greedy slack = 6h − 2.5h − 0.5h = 3h → idle 2h, 3h; t=4h slack 1h ≥ 1h → idle;
			// t=5h slack 0 → on-demand 3 h (0.5 h changeover + 2.5 h work), finish 8 h.
			name: "greedy-preempted", reason: "a preemption then waiting until the slack runs out",
			policy: Greedy{}, job: job, trace: Trace{Step: h, Available: traceBools("11000000")},
			want: PolicyResult{Policy: "greedy", Cost: spotMoney("11"), SpotTime: 2 * h, OnDemandTime: 3 * h,
				IdleTime: 3 * h, Finish: 8 * h, DeadlineMet: true, Changeovers: 2, Preemptions: 1},
		},
		{
			name: "infeasible", reason: "work + changeover > deadline: must run on-demand from the start and finish late",
			policy: Greedy{}, job: DeadlineJob{Work: 8 * h, Deadline: 8 * h, Changeover: h, OnDemandRatePerHour: spotMoney("2")},
			trace: Trace{Step: h, Available: constTrace(8, true)},
			want: PolicyResult{Policy: "greedy", Cost: spotMoney("18"), OnDemandTime: 9 * h, Finish: 9 * h,
				DeadlineMet: false, Changeovers: 1},
		},
		{
			name: "spot-only-late", reason: "past the deadline the remaining work is finished on on-demand",
			policy: spotOnly{}, job: job, trace: Trace{Step: h, Available: traceBools("1")},
			want: PolicyResult{Policy: "spot-only", Cost: spotMoney("13"), SpotTime: h, OnDemandTime: 4 * h,
				IdleTime: 7 * h, Finish: 12 * h, DeadlineMet: false, Changeovers: 2, Preemptions: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SimulatePolicy(tt.policy, tt.job, tt.trace)
			if err != nil {
				t.Fatalf("SimulatePolicy: %v (%s)", err, tt.reason)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("-want +got:\n%s(%s)", diff, tt.reason)
			}
			checkAccounting(t, tt.job, got)
		})
	}
}

func TestSimulatePolicyErrors(t *testing.T) {
	h := time.Hour
	good := DeadlineJob{Work: h, Deadline: 2 * h, SpotRatePerHour: spotMoney("1"), OnDemandRatePerHour: spotMoney("2")}
	tests := []struct {
		name          string
		reason        string
		policy        Policy
		job           DeadlineJob
		trace         Trace
		wantErr       error
		wantErrsCount int
		wantPartial   PolicyResult
	}{
		{name: "nil-policy", reason: "a nil policy cannot be called", policy: nil, job: good,
			trace: Trace{Step: h}, wantErr: ErrInvalidPolicyChoice, wantErrsCount: 1},
		{name: "zero-job", reason: "no work and no deadline", policy: Greedy{}, job: DeadlineJob{},
			trace: Trace{Step: h}, wantErr: ErrInvalidDeadlineJob, wantErrsCount: 2},
		{name: "all-bad", reason: "nil policy, five job problems, zero step: seven problems",
			policy: nil, job: DeadlineJob{Work: -1, Deadline: -1, Changeover: -1, SpotRatePerHour: spotMoney("-1"), OnDemandRatePerHour: spotMoney("-2")},
			trace: Trace{}, wantErr: ErrInvalidDeadlineJob, wantErrsCount: 7},
		{name: "too-many-steps", reason: "the deadline spans more than MaxTraceSteps steps", policy: Greedy{},
			job: DeadlineJob{Work: h, Deadline: 1000 * 24 * h}, trace: Trace{Step: time.Second}, wantErr: ErrInvalidTrace, wantErrsCount: 1},
		{name: "overflow", reason: "deadline + work does not fit in a duration", policy: Greedy{},
			job: DeadlineJob{Work: math.MaxInt64 / 2, Deadline: math.MaxInt64 / 2}, trace: Trace{Step: math.MaxInt64 / 4},
			wantErr: ErrInvalidDeadlineJob, wantErrsCount: 1},
		{name: "spot-when-unavailable", reason: "the policy broke its contract at t=1h; the result so far comes back",
			policy: alwaysSpot{}, job: DeadlineJob{Work: 90 * time.Minute, Deadline: 3 * h, SpotRatePerHour: spotMoney("1")}, trace: Trace{Step: h, Available: traceBools("10")},
			wantErr: ErrInvalidPolicyChoice, wantErrsCount: 1,
			wantPartial: PolicyResult{Policy: "always-spot", Cost: spotMoney("1"), SpotTime: h, Finish: h, Changeovers: 1, Preemptions: 1}},
		{name: "unknown-instance", reason: "Instance(7) does not exist", policy: bogus{}, job: good,
			trace: Trace{Step: h}, wantErr: ErrInvalidPolicyChoice, wantErrsCount: 1,
			wantPartial: PolicyResult{Policy: "bogus", Cost: spotMoney("0")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SimulatePolicy(tt.policy, tt.job, tt.trace)
			checkSentinel(t, err, tt.wantErr, tt.wantErrsCount, tt.reason)
			if diff := cmp.Diff(tt.wantPartial, got); diff != "" {
				t.Errorf("partial result -want +got:\n%s(%s)", diff, tt.reason)
			}
		})
	}
}

func TestInstanceString(t *testing.T) {
	tests := []struct {
		name, reason string
		in           Instance
		want         string
	}{
		{name: "none", reason: "zero value", in: NoInstance, want: "none"},
		{name: "spot", reason: "named", in: SpotInstance, want: "spot"},
		{name: "on-demand", reason: "named", in: OnDemandInstance, want: "on-demand"},
		{name: "unknown", reason: "unknown values print their number", in: Instance(-3), want: "Instance(-3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.String(); got != tt.want {
				t.Errorf("String() = %q, want %q (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// policyFataler is the part of *testing.T and *rapid.T the check helpers use.
type policyFataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkAccounting checks the identities every PolicyResult satisfies.
func checkAccounting(t policyFataler, job DeadlineJob, r PolicyResult) {
	t.Helper()
	if r.SpotTime+r.OnDemandTime+r.IdleTime != r.Finish {
		t.Fatalf("spot %v + on-demand %v + idle %v ≠ finish %v", r.SpotTime, r.OnDemandTime, r.IdleTime, r.Finish)
	}
	billed := r.SpotTime + r.OnDemandTime
	if billed < job.Work+job.Changeover || billed > job.Work+time.Duration(r.Changeovers)*job.Changeover {
		t.Fatalf("billed %v outside [work + d, work + %d·d] = [%v, %v]", billed, r.Changeovers,
			job.Work+job.Changeover, job.Work+time.Duration(r.Changeovers)*job.Changeover)
	}
	if r.DeadlineMet != (r.Finish <= job.Deadline) {
		t.Fatalf("DeadlineMet %v with finish %v, deadline %v", r.DeadlineMet, r.Finish, job.Deadline)
	}
	want := policyCost(job.SpotRatePerHour, r.SpotTime).Add(policyCost(job.OnDemandRatePerHour, r.OnDemandTime))
	if !r.Cost.Equal(want) {
		t.Fatalf("cost %s, want %s", r.Cost, want)
	}
}

// policyCase is a feasible deadline job (Work + Changeover ≤ Deadline), spot
// no dearer than on-demand, and a trace that is either a seeded two-state
// trace or arbitrary, possibly shorter than the deadline.
type policyCase struct {
	job   DeadlineJob
	trace Trace
}

func policyGen() *rapid.Generator[policyCase] {
	return rapid.Custom(func(t *rapid.T) policyCase {
		step := time.Duration(rapid.IntRange(1, 60).Draw(t, "step minutes")) * time.Minute
		work := time.Duration(rapid.Float64Range(0.1, 48).Draw(t, "work hours") * float64(time.Hour))
		changeover := time.Duration(rapid.Float64Range(0, 30).Draw(t, "changeover minutes") * float64(time.Minute))
		slack := time.Duration(rapid.Float64Range(0, 1.5).Draw(t, "slack/work") * float64(work))
		spotCents := rapid.Int64Range(0, 1000).Draw(t, "spot cents per hour")
		extraCents := rapid.Int64Range(0, 3000).Draw(t, "on-demand premium cents per hour")
		job := DeadlineJob{
			Work: work, Deadline: work + changeover + slack, Changeover: changeover,
			SpotRatePerHour:     decimal.New(spotCents, -2),
			OnDemandRatePerHour: decimal.New(spotCents+extraCents, -2),
		}
		steps := int(job.Deadline/step) + 1
		var trace Trace
		if rapid.Bool().Draw(t, "two-state trace") {
			tr, err := NewTwoStateTrace(
				rapid.Uint64().Draw(t, "seed"),
				rapid.Float64Range(0, 1).Draw(t, "availability"),
				time.Duration(rapid.Float64Range(0.1, 24).Draw(t, "mean on hours")*float64(time.Hour)),
				step, time.Duration(steps)*step)
			if err != nil {
				t.Fatal(err)
			}
			trace = tr
		} else {
			trace = Trace{Step: step, Available: rapid.SliceOfN(rapid.Bool(), 0, steps).Draw(t, "available")}
		}
		return policyCase{job: job, trace: trace}
	})
}

// propDeadlineHeld: Greedy and Uniform Progress meet the deadline of every
// feasible job whatever spot does, since on-demand is always available; and
// every result satisfies the accounting identities.
func propDeadlineHeld(t *rapid.T) {
	c := policyGen().Draw(t, "case")
	for _, p := range []Policy{Greedy{}, UniformProgress{}} {
		r, err := SimulatePolicy(p, c.job, c.trace)
		if err != nil {
			t.Fatal(err)
		}
		if !r.DeadlineMet {
			t.Fatalf("%s missed the deadline %v: %+v", p.Name(), c.job.Deadline, r)
		}
		checkAccounting(t, c.job, r)
	}
}

func TestDeadlineHeld(t *testing.T) { rapid.Check(t, propDeadlineHeld) }
func FuzzDeadlineHeld(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propDeadlineHeld)) }

// propCostBounds: with spot no dearer than on-demand, no policy pays less
// than running the whole job on spot (rate × (work + one changeover)) nor more
// than the on-demand-only cost plus its extra changeovers at the on-demand
// rate. Each cost term is rounded to 12 places, hence the 1e-11 slack.
func propCostBounds(t *rapid.T) {
	c := policyGen().Draw(t, "case")
	odOnly, err := SimulatePolicy(onDemandOnly{}, c.job, c.trace)
	if err != nil {
		t.Fatal(err)
	}
	tol := decimal.New(1, -11)
	floor := policyCost(c.job.SpotRatePerHour, c.job.Work+c.job.Changeover)
	for _, p := range []Policy{Greedy{}, UniformProgress{}, spotOnly{}, onDemandOnly{}} {
		r, err := SimulatePolicy(p, c.job, c.trace)
		if err != nil {
			t.Fatal(err)
		}
		ceiling := odOnly.Cost.Add(policyCost(c.job.OnDemandRatePerHour, time.Duration(r.Changeovers-1)*c.job.Changeover))
		if r.Cost.Add(tol).LessThan(floor) || r.Cost.GreaterThan(ceiling.Add(tol)) {
			t.Fatalf("%s cost %s outside [%s, %s]: %+v", p.Name(), r.Cost, floor, ceiling, r)
		}
	}
}

func TestCostBounds(t *testing.T) { rapid.Check(t, propCostBounds) }
func FuzzCostBounds(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propCostBounds)) }

// propExtremeTraces: an always-available trace keeps a job whose slack
// Deadline − Work − 2·Changeover is at least one step on spot from start to
// finish; a never-available trace puts
// every billed hour on on-demand.
func propExtremeTraces(t *rapid.T) {
	c := policyGen().Draw(t, "case")
	n := int(c.job.Deadline/c.trace.Step) + 1
	for _, p := range []Policy{Greedy{}, UniformProgress{}} {
		never, err := SimulatePolicy(p, c.job, Trace{Step: c.trace.Step, Available: constTrace(n, false)})
		if err != nil {
			t.Fatal(err)
		}
		if never.SpotTime != 0 || never.OnDemandTime < c.job.Work+c.job.Changeover || !never.DeadlineMet {
			t.Fatalf("%s on a never-available trace: %+v", p.Name(), never)
		}
		if c.job.Deadline-c.job.Work-2*c.job.Changeover < c.trace.Step {
			// Too little slack: after the first changeover the slack
			// (which reserves one more) would drop below one step.
			continue
		}
		always, err := SimulatePolicy(p, c.job, Trace{Step: c.trace.Step, Available: constTrace(n, true)})
		if err != nil {
			t.Fatal(err)
		}
		want := PolicyResult{Policy: p.Name(), SpotTime: c.job.Work + c.job.Changeover, Finish: c.job.Work + c.job.Changeover,
			DeadlineMet: true, Changeovers: 1, Cost: policyCost(c.job.SpotRatePerHour, c.job.Work+c.job.Changeover)}
		if diff := cmp.Diff(want, always); diff != "" {
			t.Fatalf("%s on an always-available trace -want +got:\n%s", p.Name(), diff)
		}
	}
}

func TestExtremeTraces(t *testing.T) { rapid.Check(t, propExtremeTraces) }
func FuzzExtremeTraces(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propExtremeTraces)) }

// propDeterministic: equal seeds give equal traces and equal inputs equal
// results.
func propDeterministic(t *rapid.T) {
	seed := rapid.Uint64().Draw(t, "seed")
	a := rapid.Float64Range(0, 1).Draw(t, "availability")
	meanOn := time.Duration(rapid.Float64Range(0.1, 24).Draw(t, "mean on hours") * float64(time.Hour))
	tr1, err1 := NewTwoStateTrace(seed, a, meanOn, time.Minute, 48*time.Hour)
	tr2, err2 := NewTwoStateTrace(seed, a, meanOn, time.Minute, 48*time.Hour)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if diff := cmp.Diff(tr1, tr2); diff != "" {
		t.Fatalf("traces differ for seed %d:\n%s", seed, diff)
	}
	job := DeadlineJob{Work: 20 * time.Hour, Deadline: 40 * time.Hour, Changeover: 5 * time.Minute,
		SpotRatePerHour: spotMoney("0.9"), OnDemandRatePerHour: spotMoney("3.2")}
	for _, p := range []Policy{Greedy{}, UniformProgress{}} {
		r1, err1 := SimulatePolicy(p, job, tr1)
		r2, err2 := SimulatePolicy(p, job, tr1)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if diff := cmp.Diff(r1, r2); diff != "" {
			t.Fatalf("%s results differ:\n%s", p.Name(), diff)
		}
	}
}

func TestDeterministic(t *testing.T) { rapid.Check(t, propDeterministic) }
func FuzzDeterministic(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propDeterministic)) }

func TestSimulatePolicyDoesNotMutateTrace(t *testing.T) {
	tr := Trace{Step: time.Hour, Available: traceBools("1010")}
	before := append([]bool(nil), tr.Available...)
	job := DeadlineJob{Work: time.Hour, Deadline: 3 * time.Hour, Changeover: time.Minute}
	if _, err := SimulatePolicy(UniformProgress{}, job, tr); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, tr.Available); diff != "" {
		t.Errorf("trace mutated:\n%s", diff)
	}
}
