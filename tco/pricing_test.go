package tco_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// preemptible is a downstream spot-like mode, defined here and not in
// provider: interruptible capacity billed per started minute. It implements
// provider.Pricing, provider.Metering and provider.Interruptible and nothing
// else, so tco can know it only through those interfaces.
type preemptible struct {
	rate          decimal.Decimal
	perHourLosses float64
}

func (p preemptible) Mode() string { return "test-preemptible" }

func (p preemptible) Validate() error {
	if p.rate.IsNegative() || math.IsNaN(p.perHourLosses) || p.perHourLosses < 0 {
		return errors.New("preemptible: negative rate")
	}
	return nil
}

func (p preemptible) BilledDuration(l time.Duration) time.Duration {
	if l <= 0 {
		return 0
	}
	return (l + time.Minute - 1) / time.Minute * time.Minute
}

func (p preemptible) Granularity() (increment, minimum time.Duration) {
	return time.Minute, time.Minute
}

func (p preemptible) Interruptions() (float64, time.Duration) {
	return p.perHourLosses, 30 * time.Second
}

func (p preemptible) Charges(u provider.Usage) ([]provider.Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	var ns int64
	for _, r := range u.Runs {
		ns += int64(p.BilledDuration(r.Length)) * int64(r.Count) * int64(r.Nodes)
	}
	amount := p.rate.Mul(decimal.NewFromInt(ns)).DivRound(decimal.NewFromInt(int64(time.Hour)), provider.Precision)
	return []provider.Charge{{Category: provider.Compute, Label: "spot compute", Amount: amount, Timing: provider.Spread}}, nil
}

// TestDownstreamSpotLikeMode: a spot-like mode of a downstream package is
// refused for work that tolerates no interruption, and is charged
// preemptions, recovery and everything else exactly as provider.Spot with
// the same billing and interruption rate — for a checkpointed job, a
// stateless service, and under a credit.
func TestDownstreamSpotLikeMode(t *testing.T) {
	rate := decimal.RequireFromString("11.99")
	mine := preemptible{rate: rate, perHourLosses: 0.02}
	spot := provider.Spot{RatePerHour: rate, Increment: time.Minute, Minimum: time.Minute, InterruptionRatePerHour: 0.02, Notice: 30 * time.Second}
	hidden := provider.HiddenCosts{NodeMTBF: 2000 * time.Hour, RecoveryTime: time.Hour, SetupHours: 3}
	cases := []struct {
		name, reason string
		w            workload.Workload
		credit       bool
	}{
		{"checkpointed job", "Daly's model applies through Interruptible alone", evalJob(16, 400), false},
		{"stateless service", "runs stretch by the restart factor", evalService(16, workload.Diurnal{Mean: 0.5, Amplitude: 0.4}, 30*24*time.Hour), false},
		{"job under a credit", "the credit is looked through", evalJob(8, 100), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var pm, ps provider.Pricing = mine, spot
			if tc.credit {
				pm = provider.Credit{Base: mine, Amount: decimal.NewFromInt(50)}
				ps = provider.Credit{Base: spot, Amount: decimal.NewFromInt(50)}
			}
			om, os := evalOffer("mine", pm), evalOffer("mine", ps)
			om.Hidden, os.Hidden = hidden, hidden
			rm, err := tco.Evaluate(tc.w, om, tco.Assumptions{})
			if err != nil {
				t.Fatal(err)
			}
			rs, err := tco.Evaluate(tc.w, os, tco.Assumptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rm.Line(provider.Preemption).IsZero() {
				t.Fatalf("no preemption line on the downstream mode (%s)", tc.reason)
			}
			if diff := cmp.Diff(rs, rm); diff != "" {
				t.Errorf("downstream mode priced unlike Spot (-spot +downstream) (%s):\n%s", tc.reason, diff)
			}
			// Not Linear, the downstream mode's terms are its bill per
			// node-hour of use; at the workload's own use they cost the same.
			tm, err := tco.CostTerms(tc.w, om, tco.Assumptions{})
			if err != nil {
				t.Fatal(err)
			}
			cost, err := tm.Cost(tm.Own)
			if err != nil {
				t.Fatal(err)
			}
			if d := cost.Sub(rm.Total).Abs(); d.GreaterThan(decimal.New(1, -9)) || tm.Committed || !tm.Interruptible {
				t.Errorf("terms of the downstream mode cost %s at own use, Evaluate %s; committed %v, interruptible %v", cost, rm.Total, tm.Committed, tm.Interruptible)
			}
		})
	}
	strict := evalJob(8, 100)
	strict.Interruption = workload.Interruption{Tolerance: workload.NoTolerance}
	err := tco.Compatible(strict, evalOffer("mine", provider.Credit{Base: mine, Amount: decimal.NewFromInt(1)}))
	var ce *tco.CompatibilityError
	if !errors.As(err, &ce) || ce.Check != tco.CheckRequirements || !errors.Is(err, tco.ErrIncompatible) {
		t.Errorf("work without interruption tolerance on an interruptible downstream mode: %v, want a requirements error", err)
	}
	if tco.IsCompatible(strict, evalOffer("mine", mine)) {
		t.Error("IsCompatible accepts interruptible capacity for work that tolerates no interruption")
	}
}
