package tco_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// Regression tests of issue 14: inputs at the extremes that once took
// unbounded work or memory, or gave answers that looked right but were not.
// The fixtures are local so that the tests read on their own.

// boundsOffer is one 8×H100 SXM node on metered pricing at $20 per hour.
func boundsOffer(p provider.Pricing) provider.Offer {
	if p == nil {
		p = provider.Hourly(decimal.NewFromInt(20))
	}
	return provider.Offer{
		ID: "bounds", Provider: "test", Region: "r1", Jurisdiction: "US",
		GPU:         provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700},
		GPUsPerNode: 8, Pricing: p,
		Interconnect: provider.Interconnect{Fabric: provider.InfiniBand, GbpsPerNode: 3200},
		Availability: provider.Availability{FillProbability: 1},
	}
}

// boundsJob is a stateless job of gpus H100 SXM needing work GPU-hours.
func boundsJob(gpus int, work float64) workload.Workload {
	return workload.Workload{
		Name: "bounds-job", Kind: workload.Batch, GPUs: gpus, WorkGPUHours: work,
		Interruption: workload.Interruption{Tolerance: workload.Stateless},
	}
}

// TestHugeGangRefused: GPUs = MaxInt was priced with a GPU count of
// −9223372036854775808; it is refused by the workload's GPU bound.
func TestHugeGangRefused(t *testing.T) {
	r, err := tco.Evaluate(boundsJob(math.MaxInt, 1e6), boundsOffer(nil), tco.Assumptions{})
	if !errors.Is(err, workload.ErrOutOfRange) {
		t.Fatalf("Evaluate with GPUs = MaxInt: err = %v, GPUs = %d; want ErrOutOfRange", err, r.Derivation.GPUs)
	}
}

// TestDeepCreditChainRefused: a chain of 10⁴ credits built in Go was priced
// (in seconds, validation repeated at every level); it is refused by the
// pricing-depth limit before any work.
func TestDeepCreditChainRefused(t *testing.T) {
	var p provider.Pricing = provider.Hourly(decimal.NewFromInt(20))
	for range 10_000 {
		p = provider.Credit{Base: p, Amount: decimal.NewFromInt(1)}
	}
	if _, err := tco.Evaluate(boundsJob(8, 8), boundsOffer(p), tco.Assumptions{}); !errors.Is(err, provider.ErrOutOfRange) {
		t.Errorf("Evaluate of 10⁴ credits: %v, want ErrOutOfRange", err)
	}
}

// hugePricing is a custom pricing whose charges have a decimal exponent far
// beyond any input's.
type hugePricing struct{}

func (hugePricing) Mode() string    { return "huge" }
func (hugePricing) Validate() error { return nil }
func (hugePricing) Charges(u provider.Usage) ([]provider.Charge, error) {
	return []provider.Charge{{Category: provider.Compute, Label: "huge", Amount: decimal.New(1, math.MaxInt32), Timing: provider.Spread}}, nil
}

// TestHugeChargeExponentRefused: a custom Pricing returning
// decimal.New(1, 2147483647) made Evaluate hang (adding it to other amounts
// builds a number of two billion digits). What a pricing returns is bounded
// as inputs are, by provider.MaxChargeExponent.
func TestHugeChargeExponentRefused(t *testing.T) {
	_, err := tco.Evaluate(boundsJob(8, 8), boundsOffer(hugePricing{}), tco.Assumptions{})
	if !errors.Is(err, provider.ErrOutOfRange) || !strings.Contains(fmt.Sprint(err), "MaxChargeExponent") {
		t.Errorf("Evaluate with a charge of 1e2147483647: %v, want ErrOutOfRange naming MaxChargeExponent", err)
	}
	_, err = tco.Simulate(boundsJob(8, 8), boundsOffer(hugePricing{}), tco.Assumptions{}, tco.SimulateOptions{Trials: 10})
	if !errors.Is(err, provider.ErrOutOfRange) {
		t.Errorf("Simulate with a charge of 1e2147483647: %v, want ErrOutOfRange", err)
	}
	if _, err := boundsOffer(hugePricing{}).RatePerGPUHour(time.Hour); !errors.Is(err, provider.ErrOutOfRange) {
		t.Errorf("RatePerGPUHour: %v, want ErrOutOfRange", err)
	}
	credited := provider.Credit{Base: hugePricing{}, Amount: decimal.NewFromInt(1)}
	if _, err := credited.Charges(provider.Usage{Horizon: time.Hour}); !errors.Is(err, provider.ErrOutOfRange) {
		t.Errorf("Credit around it: %v, want ErrOutOfRange", err)
	}
	if _, err := tco.Evaluate(boundsJob(8, 8), boundsOffer(credited), tco.Assumptions{}); !errors.Is(err, provider.ErrOutOfRange) {
		t.Errorf("Evaluate of a credit around it: %v, want ErrOutOfRange", err)
	}
}

// TestUnrepresentableSpotRunsRefused: a spot interruption rate of 8·10¹²
// per hour on stateless work without restart time rounded every run to 0 ns
// (the total was the no-preemption total, billed GPU-hours 0), and 10³⁰⁰
// per hour gave Runs[0].Count = −9223372036854775807. Rates whose runs would
// be shorter than a nanosecond are refused; ordinary ones are priced.
func TestUnrepresentableSpotRunsRefused(t *testing.T) {
	spot := func(rate float64) provider.Offer {
		return boundsOffer(provider.Spot{RatePerHour: decimal.NewFromInt(10), Increment: time.Second, InterruptionRatePerHour: rate})
	}
	w := boundsJob(8, 80) // 10 h of one node
	for _, rate := range []float64{8e12, 1e300} {
		r, err := tco.Evaluate(w, spot(rate), tco.Assumptions{})
		if !errors.Is(err, tco.ErrInfeasible) || !strings.Contains(fmt.Sprint(err), "1 ns") {
			t.Errorf("rate %g/h: err = %v, total %s, billed %g GPU-h; want ErrInfeasible naming the 1 ns limit", rate, err, r.Total, r.BilledGPUHours)
		}
	}
	r, err := tco.Evaluate(w, spot(60), tco.Assumptions{}) // one a minute: runs of a minute, billed
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Line(provider.Preemption); !got.IsPositive() {
		t.Errorf("one preemption a minute, billed per second: preemption line %s, want > 0", got)
	}
}

// TestLongHorizons: services longer than 73.1 years were refused on every
// offer with node failures ("cannot finish") although the stretch was
// 1.00016, and job horizons beyond 146.2 years were cut to 1,281,023 h. Up
// to tco.MaxHorizon both are priced whole; beyond it they are refused with
// an error naming the limit.
func TestLongHorizons(t *testing.T) {
	failing := boundsOffer(nil)
	failing.Hidden.NodeMTBF, failing.Hidden.RecoveryTime = 10_000*time.Hour, time.Hour
	svc := func(h time.Duration) workload.Workload {
		return workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 8, Demand: workload.Constant{Value: 1}, Horizon: h,
			Interruption: workload.Interruption{Tolerance: workload.Stateless, RestartTime: time.Hour}}
	}
	for _, h := range []time.Duration{80 * provider.Year, tco.MaxHorizon} {
		r, err := tco.Evaluate(svc(h), failing, tco.Assumptions{})
		if err != nil {
			t.Errorf("service of %v: %v", h, err)
			continue
		}
		if r.Horizon != h {
			t.Errorf("service of %v priced over %v", h, r.Horizon)
		}
	}
	beyond := tco.MaxHorizon + time.Hour
	if _, err := tco.Evaluate(svc(beyond), failing, tco.Assumptions{}); !errors.Is(err, tco.ErrInvalidAssumptions) || !strings.Contains(fmt.Sprint(err), "MaxHorizon") {
		t.Errorf("service beyond MaxHorizon: %v, want ErrInvalidAssumptions naming MaxHorizon", err)
	}
	job := boundsJob(8, 80)
	r, err := tco.Evaluate(job, boundsOffer(nil), tco.Assumptions{Horizon: tco.MaxHorizon})
	if err != nil || r.Horizon != tco.MaxHorizon {
		t.Errorf("job over MaxHorizon: horizon %v, err %v; want the whole horizon", r.Horizon, err)
	}
	// Setup and work that hold capacity beyond MaxHorizon are refused, not cut.
	long := job
	long.Setup.EngineerHours = 2 * tco.MaxHorizon.Hours()
	if r, err := tco.Evaluate(long, boundsOffer(nil), tco.Assumptions{}); !errors.Is(err, tco.ErrInfeasible) || !strings.Contains(fmt.Sprint(err), "MaxHorizon") {
		t.Errorf("setup of 200 years: horizon %v, err %v; want ErrInfeasible naming MaxHorizon", r.Horizon, err)
	}
	for _, h := range []time.Duration{200 * provider.Year, math.MaxInt64} {
		r, err := tco.Evaluate(job, boundsOffer(nil), tco.Assumptions{Horizon: h})
		if !errors.Is(err, tco.ErrInvalidAssumptions) || !strings.Contains(fmt.Sprint(err), "MaxHorizon") {
			t.Errorf("job over %v: horizon %v, err %v; want ErrInvalidAssumptions naming MaxHorizon", h, r.Horizon, err)
		}
	}
}

// TestShortDemandPeriodMean: a service whose demand period is under the
// sampling step was priced at a mean of its samples (0, then 0.5) while
// workload.Mean says 4/9. The priced mean is workload.Mean's.
func TestShortDemandPeriodMean(t *testing.T) {
	for _, tt := range []struct {
		name  string
		curve workload.Curve
	}{
		{"9 min cycle, 4 min on", workload.Steps{Cycle: 9 * time.Minute, Steps: []workload.Step{{Start: 0, Value: 1}, {Start: 4 * time.Minute, Value: 0}}}},
		{"7 min cycle, 4 min on", workload.Steps{Cycle: 7 * time.Minute, Steps: []workload.Step{{Start: 0, Value: 1}, {Start: 4 * time.Minute, Value: 0}}}},
		{"diurnal", workload.Diurnal{Mean: 0.5, Amplitude: 0.4, PeakHour: 14}},
	} {
		horizon := 30 * 24 * time.Hour
		w := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 8, Demand: tt.curve, Horizon: horizon,
			Interruption: workload.Interruption{Tolerance: workload.Stateless}}
		r, err := tco.Evaluate(w, boundsOffer(nil), tco.Assumptions{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want, err := workload.Mean(tt.curve, horizon)
		if err != nil {
			t.Fatal(err)
		}
		got := r.UsefulGPUHours / (8 * horizon.Hours())
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: priced mean %v, workload.Mean %v", tt.name, got, want)
		}
	}
}

// TestSimulateTrialsBound: Trials = MaxInt panicked (makeslice), 2⁴⁰ and
// 10⁸ died of out-of-memory. Trials beyond tco.MaxTrials are refused with an
// error naming the limit; the limit itself is accepted on a quiet offer.
func TestSimulateTrialsBound(t *testing.T) {
	w, o := boundsJob(8, 8), boundsOffer(nil)
	for _, n := range []int{tco.MaxTrials + 1, 1 << 40, math.MaxInt} {
		if _, err := tco.Simulate(w, o, tco.Assumptions{}, tco.SimulateOptions{Trials: n}); !errors.Is(err, tco.ErrInvalidAssumptions) || !strings.Contains(fmt.Sprint(err), "MaxTrials") {
			t.Errorf("Trials = %d: %v, want ErrInvalidAssumptions naming MaxTrials", n, err)
		}
	}
	if testing.Short() || raceEnabled {
		return // a million trials: seconds, ten times more under the race detector
	}
	s, err := tco.Simulate(w, o, tco.Assumptions{}, tco.SimulateOptions{Trials: tco.MaxTrials})
	if err != nil {
		t.Fatal(err)
	}
	if s.Trials != tco.MaxTrials || !s.Cost.P99.Equal(s.Expected.Total) || !s.Cost.Mean.Equal(s.Expected.Total) {
		t.Errorf("quiet offer at MaxTrials: %d trials, mean %s, P99 %s; want %d and the expected %s",
			s.Trials, s.Cost.Mean, s.Cost.P99, tco.MaxTrials, s.Expected.Total)
	}
}

// TestEchoedNamesCut: a 50 MB field was echoed whole in its error; tco's
// messages quote names, IDs and models cut to provider.MaxEchoBytes.
func TestEchoedNamesCut(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	w := boundsJob(8, 8)
	w.Name = huge
	w.Requirements.Jurisdictions = []string{"EU", huge}
	o := boundsOffer(nil)
	o.ID, o.GPU.Model = huge, "H100 SXM"
	_, err := tco.Evaluate(w, o, tco.Assumptions{})
	if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "…") {
		t.Errorf("incompatible jurisdiction: message of %d bytes, want the names cut", len(fmt.Sprint(err)))
	}
	svc := workload.Workload{Name: huge, Kind: workload.Inference, GPUs: 8, Demand: workload.Constant{Value: 1}, Horizon: 2 * tco.MaxHorizon}
	_, err = tco.Evaluate(svc, boundsOffer(nil), tco.Assumptions{})
	if err == nil || len(err.Error()) > 1000 {
		t.Errorf("horizon beyond MaxHorizon: message of %d bytes, want the name cut", len(fmt.Sprint(err)))
	}
}

// TestSimulateTrialsBeyondMaxHorizon: a job restarted from scratch on
// failing nodes, expected to hold its gang about 50 years, draws trials of
// more than 146 years, whose wall times were cut to 146.2 years without a
// word. A trial beyond MaxHorizon is refused, as Evaluate refuses such an
// expectation.
func TestSimulateTrialsBeyondMaxHorizon(t *testing.T) {
	w := boundsJob(8, 8*6100) // 6,100 h on one node, restarted from scratch
	w.Interruption = workload.Interruption{Tolerance: workload.NoTolerance}
	o := boundsOffer(nil)
	o.Hidden.NodeMTBF = 1000 * time.Hour
	r, err := tco.Evaluate(w, o, tco.Assumptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.WallTime < 20*provider.Year || r.WallTime > 73*provider.Year {
		t.Fatalf("fixture: expected wall time %v, want decades", r.WallTime)
	}
	s, err := tco.Simulate(w, o, tco.Assumptions{}, tco.SimulateOptions{Trials: 200, Seed: 1})
	if !errors.Is(err, tco.ErrInfeasible) || !strings.Contains(fmt.Sprint(err), "MaxHorizon") {
		t.Errorf("Simulate: %v (wall P99 %v), want ErrInfeasible naming MaxHorizon", err, s.WallTime.P99)
	}
}
