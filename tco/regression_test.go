package tco_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// Regression tests for problems found in review: each case names the input
// that once gave a wrong figure, hung or panicked.

// TestSetupWithinServiceHorizon: a service's setup happens within its
// horizon, so a reservation whose term equals the horizon is bought once.
func TestSetupWithinServiceHorizon(t *testing.T) {
	o := evalOffer("res-1y", provider.Reserved{Term: provider.Year, RecurringPerHour: decimal.NewFromInt(40)})
	o.Hidden.SetupHours = 24
	w := evalService(8, workload.Constant{Value: 1}, provider.Year)
	r := evaluate(t, w, o, tco.Assumptions{Exclude: []provider.Category{provider.DataTransfer}})
	want := decimal.NewFromInt(40 * 8760)
	if got := r.Line(provider.Commitment); !got.Equal(want) {
		t.Errorf("commitment = %s, want one term %s", got, want)
	}
	if r.Horizon != provider.Year {
		t.Errorf("horizon = %v, want the requested year", r.Horizon)
	}
}

// TestSameLocationNoTransfer: data already at the offer's provider and region
// is not moved, whatever the case of the names.
func TestSameLocationNoTransfer(t *testing.T) {
	o := evalOffer("aws", provider.PerSecond(decimal.NewFromInt(55), time.Minute))
	o.Provider, o.Region = "AWS", "us-east-1"
	o.Hidden.IngressPerGB = decimal.RequireFromString("0.01")
	w := evalJob(8, 80)
	w.Data = workload.Data{DatasetGB: 1000, Location: workload.Location{Provider: "aws", Region: "US-EAST-1"}}
	r := evaluate(t, w, o, tco.Assumptions{})
	if !r.Line(provider.DataTransfer).IsZero() || r.TransferTime != 0 {
		t.Errorf("data at the offer costs %s and %v of transfer, want nothing", r.Line(provider.DataTransfer), r.TransferTime)
	}
}

// TestCreditAppliesOnce: a credit is one line of −min(credit, pricing total),
// not spread into the stage lines.
func TestCreditAppliesOnce(t *testing.T) {
	base := provider.PerSecond(decimal.NewFromInt(8), time.Minute)
	o := evalOffer("credited", provider.Credit{Base: base, Amount: decimal.NewFromInt(300)})
	o.Hidden.SetupHours = 100
	w := evalJob(8, 800) // 100 h of one node
	a := tco.Assumptions{EngineerCostPerHour: decimal.NewFromInt(1)}
	r := evaluate(t, w, o, a)
	if got := r.Line(provider.CreditCategory); !got.Equal(decimal.NewFromInt(-300)) {
		t.Errorf("credit line = %s, want -300", got)
	}
	plain := o
	plain.Pricing = base
	rp := evaluate(t, w, plain, a)
	if !rp.Line(provider.Setup).Equal(r.Line(provider.Setup)) {
		t.Errorf("setup = %s with a credit, %s without: the credit leaked into it", r.Line(provider.Setup), rp.Line(provider.Setup))
	}
	if want := rp.Total.Sub(decimal.NewFromInt(300)); !r.Total.Equal(want) {
		t.Errorf("total = %s, want %s", r.Total, want)
	}
}

// TestExcludedPreemptionLeavesTimeline: excluding preemption removes its
// effect on the wall time and the deadline too.
func TestExcludedPreemptionLeavesTimeline(t *testing.T) {
	o := evalOffer("spot", provider.Spot{RatePerHour: decimal.NewFromInt(10), InterruptionRatePerHour: 0.5})
	w := evalJob(8, 8*90)
	w.Deadline = 100 * time.Hour
	w.CostOfDelayPerDay = decimal.NewFromInt(1000)
	with := evaluate(t, w, o, tco.Assumptions{})
	without := evaluate(t, w, o, tco.Assumptions{Exclude: []provider.Category{provider.Preemption}})
	if with.DeadlineMet || !without.DeadlineMet {
		t.Errorf("deadline met %v with preemptions, %v without; want false, true", with.DeadlineMet, without.DeadlineMet)
	}
	if !without.Line(provider.Delay).IsZero() || without.WallTime != 90*time.Hour {
		t.Errorf("without preemption: delay %s, wall %v; want 0 and 90h", without.Line(provider.Delay), without.WallTime)
	}
}

// TestBilledGPUHoursRounded: billed GPU-hours include the billing increment.
func TestBilledGPUHoursRounded(t *testing.T) {
	o := evalOffer("hourly", provider.Hourly(decimal.NewFromInt(80)))
	r := evaluate(t, evalJob(8, 8*(10.0/60)), o, tco.Assumptions{Exclude: evalHidden})
	if r.BilledGPUHours != 8 {
		t.Errorf("billed %g GPU-h for 10 minutes billed hourly on 8 GPUs, want 8", r.BilledGPUHours)
	}
}

// TestExtremeInputsAreErrors: inputs that once panicked, hung or overflowed
// now give errors (or saturate) quickly.
func TestExtremeInputsAreErrors(t *testing.T) {
	spot := func(rate float64) provider.Offer {
		return evalOffer("spot", provider.Spot{RatePerHour: decimal.NewFromInt(10), InterruptionRatePerHour: rate})
	}
	tests := []struct {
		name   string
		run    func() error
		want   error
		reason string
	}{
		{"infinite useful hours", func() error {
			w := evalJob(8, 1e308)
			w.Requirements.Models = map[string]float64{"H100 SXM": 0.3}
			_, err := tco.Evaluate(w, evalOffer("m", provider.ProRata(decimal.NewFromInt(1))), tco.Assumptions{})
			return err
		}, tco.ErrInfeasible, "work beyond any horizon cannot finish (was a division by zero)"},
		{"nil pricing in sensitivity", func() error {
			_, err := tco.Sensitivity(evalJob(8, 8), provider.Offer{ID: "x"}, tco.Assumptions{}, tco.PriceScale, []float64{1})
			return err
		}, provider.ErrMissing, "the offer is validated first (was a nil dereference)"},
		{"utilization sensitivity of a job", func() error {
			_, err := tco.Sensitivity(evalJob(8, 8), spot(0), tco.Assumptions{}, tco.Utilization, []float64{0.5})
			return err
		}, tco.ErrInvalidAssumptions, "a finite job does not depend on utilization"},
		{"discount rate near -1", func() error {
			_, err := tco.Evaluate(evalJob(8, 8), spot(0), tco.Assumptions{DiscountRatePerYear: -0.99})
			return err
		}, tco.ErrInvalidAssumptions, "present values would overflow"},
		{"checkpoint every second", func() error {
			w := evalJob(8, 800)
			w.Interruption.CheckpointInterval = time.Second
			_, err := tco.Simulate(w, spot(1e-4), tco.Assumptions{}, tco.SimulateOptions{})
			return err
		}, tco.ErrTooManyEvents, "360,000 segments × 10,000 trials (was a hang)"},
		{"service restarts longer than MTTI", func() error {
			w := evalService(8, workload.Constant{Value: 1}, 30*24*time.Hour)
			w.Interruption.RestartTime = 1000 * time.Hour
			_, err := tco.Evaluate(w, spot(1), tco.Assumptions{})
			return err
		}, tco.ErrInfeasible, "a service that never gets past its restarts (was a saturated figure)"},
		{"deadline job with a huge exponent", func() error {
			job := tco.DeadlineJob{Work: time.Hour, Deadline: 2 * time.Hour,
				SpotRatePerHour: decimal.New(1, math.MaxInt32-10), OnDemandRatePerHour: decimal.NewFromInt(1)}
			return job.Validate()
		}, tco.ErrInvalidDeadlineJob, "exponents beyond ±64 are refused (was a panic)"},
		{"adjustment with a huge exponent", func() error {
			cat := provider.Catalog{Currency: "USD", AsOf: time.Now(), Offers: provider.Offers{spot(0)}}
			_, _, err := provider.ApplyAdjustments(cat, []provider.Adjustment{{Percent: decimal.New(1, math.MinInt32+1)}})
			return err
		}, provider.ErrOutOfRange, "exponents beyond ±64 are refused (was a panic)"},
		{"service at the largest speed factor", func() error {
			w := evalService(16, workload.Diurnal{Mean: 0.5, Amplitude: 0.2}, 30*24*time.Hour)
			w.Requirements.Models = map[string]float64{"H100 SXM": math.MaxFloat64}
			_, err := tco.Evaluate(w, spot(0), tco.Assumptions{})
			return err
		}, tco.ErrNotFinite, "its work in reference GPU-hours overflows (was a decimal division by zero panic)"},
		{"GPUs per node beyond the bound", func() error {
			o := spot(0)
			o.GPUsPerNode = math.MaxInt
			return o.Validate()
		}, provider.ErrOutOfRange, "NodesFor overflowed to zero nodes (free compute)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.run(); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v (%s)", err, tt.want, tt.reason)
			}
		})
	}
}

// TestExtremeInputsFinish: inputs that once hung now finish, with sane figures.
func TestExtremeInputsFinish(t *testing.T) {
	t.Run("tiny fill probability", func(t *testing.T) {
		o := evalOffer("scarce", provider.ProRata(decimal.NewFromInt(10)))
		o.Availability.FillProbability = 1e-12
		s, err := tco.Simulate(evalJob(8, 8), o, tco.Assumptions{}, tco.SimulateOptions{Trials: 100})
		if err != nil {
			t.Fatal(err)
		}
		if s.Finish.P50 <= 0 {
			t.Errorf("finish P50 = %v, want a saturated positive wait", s.Finish.P50)
		}
	})
	t.Run("huge service", func(t *testing.T) {
		// The largest gang a workload may have (2^24 GPUs; 2^40 once hung
		// before the bound existed) is priced in time independent of it.
		w := evalService(workload.MaxGPUs, workload.Constant{Value: 1}, 24*time.Hour)
		r, err := tco.Evaluate(w, evalOffer("m", provider.ProRata(decimal.NewFromInt(1))), tco.Assumptions{Exclude: evalHidden})
		if err != nil {
			t.Fatal(err)
		}
		if want := decimal.NewFromInt(24 << 21); !r.Total.Equal(want) {
			t.Errorf("total = %s, want %s (2^21 nodes × 24 h × $1)", r.Total, want)
		}
	})
	t.Run("lead time at the limit", func(t *testing.T) {
		o := evalOffer("slow", provider.ProRata(decimal.NewFromInt(10)))
		o.Availability = provider.Availability{FillProbability: 0.5, LeadTime: time.Duration(math.MaxInt64 - int64(time.Hour))}
		w := evalJob(8, 8)
		w.Deadline, w.CostOfDelayPerDay = time.Hour, decimal.NewFromInt(1)
		r := evaluate(t, w, o, tco.Assumptions{})
		if r.DeadlineMet || r.Finish < 0 || r.Line(provider.Delay).IsNegative() {
			t.Errorf("finish %v, deadline met %v, delay %s: want a missed deadline and a positive delay", r.Finish, r.DeadlineMet, r.Line(provider.Delay))
		}
	})
}

// TestRecoveryOnCoarseBilling: a service's failure and preemption time is
// billed as the lost and repeated time on a replacement node, not added to
// every daily run and rounded up with it. A $10/h node busy half of every
// day for a year (4,380 node-hours) with 0.69 expected failures of 7/6 h
// (10 min restart, 1 h recovery) loses 0.805 h: $8.05 pro rata, at most one
// more increment as billed. Stretching all 365 runs once billed $3,650 of
// recovery hourly and $60.83 per minute; hourly spot preemptions the same.
func TestRecoveryOnCoarseBilling(t *testing.T) {
	rate := decimal.NewFromInt(10)
	for _, tt := range []struct {
		name      string
		pricing   provider.Pricing
		increment float64 // hours
		category  provider.Category
		lost      float64 // expected hours lost, to first order
	}{
		{"hourly", provider.Hourly(rate), 1, provider.Recovery, 0.69 * 7 / 6},
		{"per minute", provider.PerMinute(rate), 1.0 / 60, provider.Recovery, 0.69 * 7 / 6},
		{"hourly spot", provider.Spot{RatePerHour: rate, Increment: time.Hour, InterruptionRatePerHour: 0.69 / 4380},
			1, provider.Preemption, 0.69 / 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := evalOffer("coarse", tt.pricing)
			o.GPUsPerNode = 1
			if tt.category == provider.Recovery {
				o.Hidden.RecoveryTime = time.Hour
				o.Hidden.NodeMTBF = time.Duration(4380 / 0.69 * float64(time.Hour))
			}
			w := evalService(1, workload.Constant{Value: 1}, provider.Year)
			w.Interruption.RestartTime = 10 * time.Minute
			r := evaluate(t, w, o, tco.Assumptions{Utilization: 0.5})
			got, _ := r.Line(tt.category).Float64()
			lo, hi := 10*tt.lost*0.99, 10*(tt.lost*1.01+tt.increment)
			if got < lo || got > hi {
				t.Errorf("%s line = %.2f, want the lost %.3f h at $10/h: between %.2f and %.2f", tt.category, got, tt.lost, lo, hi)
			}
			t.Logf("%s line %.2f", tt.category, got)
		})
	}
}

// TestSetupIsOneRunWithTheJob: setup holds the gang right before the job's
// first run, so both are one run, billed once. On the weekly-billed
// lambda-1cc-h100-weekly, 4 hours of setup and a 63-hour job once billed two
// weeks (2,688 GPU-hours, $5,363 of setup GPU time); they fit in one.
func TestSetupIsOneRunWithTheJob(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	o, _ := cat.Offers.Find("lambda-1cc-h100-weekly")
	w := evalJob(8, 8*63)
	w.Interruption = workload.Interruption{Tolerance: workload.Checkpointed, CheckpointTime: 2 * time.Minute, RestartTime: 5 * time.Minute}
	r := evaluate(t, w, o, tco.Assumptions{Exclude: []provider.Category{provider.Recovery}})
	if r.BilledGPUHours != 8*168 {
		t.Errorf("billed %.0f GPU-hours, want one week of 8 GPUs (1,344)", r.BilledGPUHours)
	}
	if got := r.Line(provider.Setup); got.GreaterThan(decimal.NewFromInt(4 * 100)) {
		t.Errorf("setup lines = %s, want no GPU time beyond the engineer's 4 h", got)
	}
}

// TestServiceSetupIsOneRun: a pay-as-you-go service's setup lengthens the
// first run of its nodes instead of being a run of its own. On the
// weekly-billed lambda-1cc-h100-weekly, held for a year, 4 hours of setup
// once billed an extra week ($5,362.56); they fit in the weeks already
// billed. Per-second billing still pays the setup's own hours.
func TestServiceSetupIsOneRun(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	w := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 8, Demand: workload.Constant{Value: 1}, Horizon: provider.Year,
		Interruption: workload.Interruption{Tolerance: workload.Stateless}}
	for _, tt := range []struct {
		id   string
		want string // GPU time held during setup
	}{
		{"lambda-1cc-h100-weekly", "0"},
		{"aws-p5-h100-ondemand", "1320.96"}, // 24 h × $55.04
	} {
		o, _ := cat.Offers.Find(tt.id)
		for _, u := range []float64{0.6, 1} {
			r := evaluate(t, w, o, tco.Assumptions{Utilization: u})
			held := decimal.Zero
			for _, l := range r.Lines {
				if l.Category == provider.Setup && l.Label == "GPU time held during setup" {
					held = held.Add(l.Amount)
				}
			}
			if !held.Equal(decimal.RequireFromString(tt.want)) {
				t.Errorf("%s at %g: GPU time held during setup %s, want %s", tt.id, u, held.StringFixed(2), tt.want)
			}
		}
	}
}
