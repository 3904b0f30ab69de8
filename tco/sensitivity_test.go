package tco_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// sensService is 16 GPUs of standing demand for 90 days.
func sensService() workload.Workload {
	return evalService(16, workload.Constant{Value: 1}, 90*24*time.Hour)
}

// sensMetered is a per-second offer at $40 per node-hour with storage.
func sensMetered() provider.Offer {
	o := evalOffer("sens-metered", provider.PerSecond(decimal.NewFromInt(40), time.Minute))
	o.Hidden.StoragePerGBMonth = decimal.RequireFromString("0.02")
	return o
}

func TestSensitivitySeries(t *testing.T) {
	owned := evalOffer("sens-owned", evalOwned())
	tests := []struct {
		name   string
		o      provider.Offer
		param  tco.Param
		values []float64
		reason string
	}{
		{"utilization", sensMetered(), tco.Utilization, []float64{0.1, 0.5, 0.3, 1}, "order of values kept, not sorted"},
		{"price scale", sensMetered(), tco.PriceScale, []float64{1, 0.5, 2, 0}, "zero is a valid scale"},
		{"horizon years", sensMetered(), tco.HorizonYears, []float64{0.5, 1, 3}, "years of 365 days"},
		{"discount rate", owned, tco.DiscountRate, []float64{0, 0.05, 0.1, 0.2}, "rates"},
		{"energy price", owned, tco.EnergyPrice, []float64{0.05, 0.1, 0.3}, "owned offer"},
		{"no values", sensMetered(), tco.Utilization, nil, "an empty series"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tco.Sensitivity(sensService(), tt.o, tco.Assumptions{}, tt.param, tt.values)
			if err != nil {
				t.Fatalf("Sensitivity: %v (%s)", err, tt.reason)
			}
			values := make([]float64, len(got))
			for i, p := range got {
				values[i] = p.Value
				if p.Total.IsZero() && tt.param != tco.PriceScale {
					t.Errorf("point %d: zero total", i)
				}
			}
			if diff := cmp.Diff(tt.values, values, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("values mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

// TestSensitivityMatchesEvaluate checks each point against an Evaluate with
// the input set by hand.
func TestSensitivityMatchesEvaluate(t *testing.T) {
	w, o := sensService(), sensMetered()
	got, err := tco.Sensitivity(w, o, tco.Assumptions{}, tco.Utilization, []float64{0.25, 0.75})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got {
		r := evaluate(t, w, o, tco.Assumptions{Utilization: p.Value})
		want := tco.SensitivityPoint{Value: p.Value, Total: r.Total, PresentValue: r.PresentValue, CostPerUsefulGPUHour: r.CostPerUsefulGPUHour}
		if diff := cmp.Diff(want, p); diff != "" {
			t.Errorf("point at %g mismatch (-evaluate +sensitivity):\n%s", p.Value, diff)
		}
	}
}

func TestSensitivityShapes(t *testing.T) {
	w := sensService()
	noHidden := tco.Assumptions{Exclude: evalHidden}

	t.Run("utilization non-decreasing on a metered offer", func(t *testing.T) {
		var us []float64
		for u := 0.05; u <= 1.0001; u += 0.05 {
			us = append(us, math.Min(u, 1))
		}
		got, err := tco.Sensitivity(w, sensMetered(), tco.Assumptions{}, tco.Utilization, us)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(got); i++ {
			if got[i].Total.LessThan(got[i-1].Total) {
				t.Errorf("total at u=%g is %s < %s at u=%g", got[i].Value, got[i].Total, got[i-1].Total, got[i-1].Value)
			}
		}
	})

	t.Run("price scale is linear", func(t *testing.T) {
		got, err := tco.Sensitivity(w, sensMetered(), tco.Assumptions{}, tco.PriceScale, []float64{0, 1, 2})
		if err != nil {
			t.Fatal(err)
		}
		// What does not depend on the price (storage) is the total at 0.
		one, two := got[1].Total.Sub(got[0].Total), got[2].Total.Sub(got[0].Total)
		if one.IsZero() {
			t.Fatal("pricing part is zero")
		}
		evalNear(t, "pricing part at ×2", two, one.Mul(decimal.NewFromInt(2)), 1e-9, "k = 2 doubles the pricing part")
	})

	t.Run("horizon grows the metered total", func(t *testing.T) {
		got, err := tco.Sensitivity(w, sensMetered(), noHidden, tco.HorizonYears, []float64{0.25, 0.5, 1})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(got); i++ {
			ratio := got[i].Total.DivRound(got[0].Total, 12).InexactFloat64()
			if want := got[i].Value / got[0].Value; math.Abs(ratio-want) > 1e-6 {
				t.Errorf("total ratio %g at %g years, want %g: standing demand is linear in time", ratio, got[i].Value, want)
			}
		}
	})

	t.Run("discount rate lowers the present value of rent", func(t *testing.T) {
		got, err := tco.Sensitivity(w, sensMetered(), noHidden, tco.DiscountRate, []float64{0, 0.05, 0.2})
		if err != nil {
			t.Fatal(err)
		}
		if !got[0].PresentValue.Equal(got[0].Total) {
			t.Errorf("PV %s != total %s at rate 0", got[0].PresentValue, got[0].Total)
		}
		for i := 1; i < len(got); i++ {
			if !got[i].Total.Equal(got[0].Total) || !got[i].PresentValue.LessThan(got[i-1].PresentValue) {
				t.Errorf("rate %g: total %s, PV %s; want the same total and a lower PV than %s", got[i].Value, got[i].Total, got[i].PresentValue, got[i-1].PresentValue)
			}
		}
	})

	t.Run("energy price is linear on an owned offer", func(t *testing.T) {
		got, err := tco.Sensitivity(w, evalOffer("own", evalOwned()), noHidden, tco.EnergyPrice, []float64{0, 0.1, 0.2})
		if err != nil {
			t.Fatal(err)
		}
		step1, step2 := got[1].Total.Sub(got[0].Total), got[2].Total.Sub(got[1].Total)
		// Two nodes at full load: 7.5 kW × PUE 1.2 × 2,160 h × $0.1.
		evalNear(t, "energy per $0.1/kWh", step1, decimal.NewFromFloat(2*7.5*1.2*2160*0.1), 1e-6, "power at busy 1")
		evalNear(t, "second step", step2, step1, 1e-9, "linear in the price")
	})
}

func TestSensitivityErrors(t *testing.T) {
	tests := []struct {
		name   string
		o      provider.Offer
		param  tco.Param
		values []float64
		reason string
	}{
		{"energy price on a metered offer", sensMetered(), tco.EnergyPrice, []float64{0.1}, "only owned offers have an energy price"},
		{"horizon zero", sensMetered(), tco.HorizonYears, []float64{1, 0}, "horizon must be positive"},
		{"horizon negative", sensMetered(), tco.HorizonYears, []float64{-1}, "horizon must be positive"},
		{"NaN utilization", sensMetered(), tco.Utilization, []float64{math.NaN()}, "NaN is an error"},
		{"utilization above 1", sensMetered(), tco.Utilization, []float64{1.5}, "Evaluate rejects it"},
		{"negative price scale", sensMetered(), tco.PriceScale, []float64{-1}, "a negative scale"},
		{"infinite discount rate", sensMetered(), tco.DiscountRate, []float64{math.Inf(1)}, "must be finite"},
		{"unknown parameter", sensMetered(), tco.Param(42), []float64{1}, "no such input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tco.Sensitivity(sensService(), tt.o, tco.Assumptions{}, tt.param, tt.values)
			if !errors.Is(err, tco.ErrInvalidAssumptions) {
				t.Errorf("Sensitivity = %v, %v; want an error wrapping ErrInvalidAssumptions (%s)", got, err, tt.reason)
			}
			if got != nil {
				t.Errorf("a failed Sensitivity returned a partial series %v", got)
			}
		})
	}
}

func TestParamString(t *testing.T) {
	tests := []struct {
		name   string
		p      tco.Param
		want   string
		reason string
	}{
		{"utilization", tco.Utilization, "utilization", "documented name"},
		{"price", tco.PriceScale, "price scale", "documented name"},
		{"horizon", tco.HorizonYears, "horizon (years)", "documented name"},
		{"discount", tco.DiscountRate, "discount rate", "documented name"},
		{"energy", tco.EnergyPrice, "energy price per kWh", "documented name"},
		{"unknown", tco.Param(9), "param(9)", "an unknown value still prints"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.String(); got != tt.want {
				t.Errorf("String() = %q, want %q (%s)", got, tt.want, tt.reason)
			}
		})
	}
}
