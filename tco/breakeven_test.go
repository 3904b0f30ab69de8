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

var h100 = provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700}

// node8 is an 8×H100 offer with the given pricing and nothing hidden.
func node8(id string, p provider.Pricing) provider.Offer {
	return provider.Offer{ID: id, Provider: "test", GPU: h100, GPUsPerNode: 8, Isolation: provider.Physical,
		Interconnect: provider.Interconnect{Fabric: provider.InfiniBand, GbpsPerNode: 3200},
		Pricing:      p, Availability: provider.Availability{FillProbability: 1}}
}

// refServer is the 8×H100 server of reference-data §5a.
func refServer(lifeYears int) provider.Owned {
	return provider.Owned{
		PurchasePerNode: decimal.NewFromInt(300000), UsefulLifeYears: lifeYears,
		MaxPowerKW: 7.65, ContractedPowerKW: 10.2, PUE: 1.25,
		EnergyPerKWh:               decimal.RequireFromString("0.0826"),
		ColocationPerKWMonth:       decimal.RequireFromString("184.06"),
		MaintenanceFractionPerYear: 0.10,
	}
}

// node8Service is 8 GPUs of standing capacity with no data or setup.
func node8Service() workload.Workload {
	return workload.Workload{Name: "8xH100", Kind: workload.Inference, GPUs: 8,
		Demand: workload.Constant{Value: 1}, Horizon: provider.Year,
		Interruption: workload.Interruption{Tolerance: workload.Stateless}}
}

// TestBreakEvenReferenceCases reproduces reference-data §5a: u* = F/(p − e)
// with F the fixed cost per GPU-hour (amortisation, colocation, maintenance)
// and e the energy per busy GPU-hour. The table's u* are rounded to whole
// per cent; the closed form is the oracle, the table a sanity check.
func TestBreakEvenReferenceCases(t *testing.T) {
	tests := []struct {
		name      string
		pricePerH string // per GPU-hour
		life      int
		tableU    float64
		reason    string
	}{
		{"AWS p5 before June 2025, 3 yr", "12.29", 3, 0.18, "§5a row 1"},
		{"AWS p5 before June 2025, 5 yr", "12.29", 5, 0.13, "§5a row 1"},
		{"AWS p5 now, 3 yr", "6.88", 3, 0.32, "§5a row 2: the issue's headline case"},
		{"AWS p5 now, 5 yr", "6.88", 5, 0.24, "§5a row 2"},
		{"Lambda 8xH100, 3 yr", "3.99", 3, 0.56, "§5a row 3"},
		{"Lambda 8xH100, 5 yr", "3.99", 5, 0.41, "§5a row 3"},
		{"RunPod Secure H100, 3 yr", "2.69", 3, 0.84, "§5a row 4"},
		{"RunPod Secure H100, 5 yr", "2.69", 5, 0.62, "§5a row 4"},
		{"3-yr commitment, 5 yr", "2.48", 5, 0.68, "§5a row 5"},
		{"1-yr market contract, 5 yr", "2.35", 5, 0.71, "§5a row 6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			perGPU := decimal.RequireFromString(tt.pricePerH)
			rent := node8("rent", provider.PerSecond(perGPU.Mul(decimal.NewFromInt(8)), time.Minute))
			own := node8("own", refServer(tt.life))
			horizon := time.Duration(tt.life) * provider.Year
			got, err := tco.BreakEven(node8Service(), rent, own, tco.Assumptions{Horizon: horizon})
			if err != nil {
				t.Fatal(err)
			}
			hours := float64(tt.life) * 8760 * 8
			fixed := (300000.0 + 10.2*184.06*12*float64(tt.life) + 30000*float64(tt.life)) / hours
			energy := 7.65 * 1.25 * 0.0826 / 8
			p, _ := perGPU.Float64()
			want := fixed / (p - energy)
			if got.Outcome != tco.Crossover || math.Abs(got.Utilization-want) > 1e-4 {
				t.Errorf("BreakEven = %v at u = %.5f, want crossover at %.5f (%s)", got.Outcome, got.Utilization, want, tt.reason)
			}
			if math.Abs(got.Utilization-tt.tableU) > 0.01 {
				t.Errorf("u = %.4f, reference table says %.2f (%s)", got.Utilization, tt.tableU, tt.reason)
			}
			// Per-second billing makes rent a step function of u: one more
			// second in each of the daily runs costs runs × rate × 1 s.
			step := float64(tt.life) * 365 * p * 8 / 3600
			if diff, _ := got.Own.Sub(got.Rent).Abs().Float64(); diff > step {
				t.Errorf("at u*, own %s and rent %s differ by %g > one billing step %g", got.Own, got.Rent, diff, step)
			}
		})
	}
}

func TestBreakEvenCurrencies(t *testing.T) {
	tests := []struct {
		name      string
		rent, own string
		wantErr   bool
		reason    string
	}{
		{"both unstated", "", "", false, "offers of one catalog share its currency"},
		{"same", "USD", "USD", false, "one currency"},
		{"one unstated", "EUR", "", false, "an unstated currency is the catalog's"},
		{"different", "USD", "EUR", true, "the package does no exchange"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rent := node8("rent", provider.PerSecond(decimal.NewFromInt(55), time.Minute))
			own := node8("own", refServer(3))
			rent.Currency, own.Currency = tt.rent, tt.own
			_, err := tco.BreakEven(node8Service(), rent, own, tco.Assumptions{})
			if (err != nil) != tt.wantErr || (tt.wantErr && !errors.Is(err, tco.ErrCurrency)) {
				t.Errorf("err = %v, want error %v (%s)", err, tt.wantErr, tt.reason)
			}
		})
	}
}
