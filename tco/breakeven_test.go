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
	"pgregory.net/rapid"
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

// TestBreakEvenOwnCheaperBelow: owning's power bill rises with use while a
// reservation's bill does not, so owning can be cheaper only below a
// utilization. With every hidden cost excluded the crossing has a closed
// form: own(u) = F + E·u (purchase, colocation and maintenance fixed, energy
// E at full use) against rent R, so u* = (R − F)/E. The reservation is priced
// so that u* = 0.7.
func TestBreakEvenOwnCheaperBelow(t *testing.T) {
	const years = 3
	hours := 8760.0 * years
	fixed := 300000 + 10.2*184.06*12*years + 30000*years
	energy := 7.65 * 1.25 * 0.0826 * hours
	rentTotal := fixed + energy*0.7
	rate := decimal.NewFromFloat(rentTotal / hours).Round(6)
	rent := node8("reserved-3y", provider.Reserved{Term: years * provider.Year, RecurringPerHour: rate})
	own := node8("own", refServer(years))
	a := tco.Assumptions{Horizon: years * provider.Year, Exclude: propHidden}
	got, err := tco.BreakEven(node8Service(), rent, own, a)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := rate.Float64()
	want := (r*hours - fixed) / energy
	if got.Outcome != tco.OwnCheaperBelow || math.Abs(got.Utilization-want) > 1e-6 {
		t.Fatalf("BreakEven = %v at u = %.7f, want own cheaper below %.7f", got.Outcome, got.Utilization, want)
	}
	wantRanges := []tco.UtilizationRange{{From: 0, To: got.Utilization, Cheaper: tco.OwnSide}, {From: got.Utilization, To: 1, Cheaper: tco.RentSide}}
	if len(got.Ranges) != 2 || got.Ranges[0] != wantRanges[0] || got.Ranges[1] != wantRanges[1] {
		t.Errorf("ranges = %+v, want %+v", got.Ranges, wantRanges)
	}
	if !got.OwnCheaperAt(0.5) || got.OwnCheaperAt(0.95) {
		t.Errorf("OwnCheaperAt(0.5) = %v, OwnCheaperAt(0.95) = %v; want true, false", got.OwnCheaperAt(0.5), got.OwnCheaperAt(0.95))
	}
}

// TestBreakEvenDefaultReservations: the default 8×H100 server against every
// reservation of the default catalog over 3 years, every hidden cost
// included. Owning's running cost rises with use and a reservation's does
// not, so the verdict once read "own always cheaper" from the lowest
// utilization alone although owning lost at full use (525,094 against
// 523,122 for the 3-year reservation). Whatever the catalog's figures, the
// ranges must agree with the present values at every utilization probed.
func TestBreakEvenDefaultReservations(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	own, _ := cat.Offers.Find("self-8x-h100-server")
	w := node8Service()
	w.Interruption.RestartTime = 10 * time.Minute
	a := tco.Assumptions{Horizon: 3 * provider.Year}
	for _, rent := range cat.Offers.GPU(own.GPU.Model).Mode("reserved") {
		got, err := tco.BreakEven(w, rent, own, a)
		if err != nil {
			t.Fatal(err)
		}
		probes := []float64{0.01, 0.25, 0.5, 0.75, 1}
		for _, c := range got.Crossings {
			probes = append(probes, c.Utilization-0.01, c.Utilization+0.01)
		}
		for _, u := range probes {
			if u <= 0 || u > 1 {
				continue
			}
			r, o := propPV(t, w, rent, own, a, u)
			if got.OwnCheaperAt(u) != (o < r) {
				t.Errorf("%s at u = %.4f: own %.0f, rent %.0f, but OwnCheaperAt = %v (%v, ranges %+v)",
					rent.ID, u, o, r, got.OwnCheaperAt(u), got.Outcome, got.Ranges)
			}
		}
	}
}

// propBreakEvenRanges checks that the verdict of BreakEven agrees with the
// two present values at any utilization: Ranges cover [0, 1], alternate
// sides, end at the crossings, and at a random u the range holding u names
// the side with the lower present value — unless u is within the
// bisection's tolerance of a crossing, or the two values are within one
// billing step of each other (per-second billing makes rent a step
// function of u). The rent side is metered, pro rata or a reservation; the
// own side an owned server or a reservation, so that every outcome occurs.
func propBreakEvenRanges(t *rapid.T) {
	w := node8Service()
	var rent provider.Offer
	if rapid.Bool().Draw(t, "rent a reservation") {
		eff := propCents(t, 0, 8*1200, "rented reservation rate per node-hour (cents)")
		rent = node8("rent", propReserved(t, eff))
	} else {
		rent = propRentGen.Draw(t, "rent offer")
	}
	own := propOwnGen.Draw(t, "own offer")
	a := tco.Assumptions{Horizon: provider.Year,
		DiscountRatePerYear: rapid.Float64Range(0, 0.12).Draw(t, "discount rate per year")}
	p, err := tco.BreakEven(w, rent, own, a)
	if err != nil {
		t.Fatalf("BreakEven: %v", err)
	}
	if n := len(p.Ranges); n != len(p.Crossings)+1 || p.Ranges[0].From != 0 || p.Ranges[n-1].To != 1 {
		t.Fatalf("ranges %+v do not cover [0, 1] around crossings %+v", p.Ranges, p.Crossings)
	}
	for i, c := range p.Crossings {
		lo, hi := p.Ranges[i], p.Ranges[i+1]
		if lo.To != c.Utilization || hi.From != c.Utilization || lo.Cheaper != c.Below || hi.Cheaper != c.Above || c.Below == c.Above {
			t.Fatalf("crossing %+v does not separate ranges %+v and %+v", c, lo, hi)
		}
	}
	u := rapid.Float64Range(1e-6, 1).Draw(t, "utilization")
	for _, c := range p.Crossings {
		if math.Abs(u-c.Utilization) <= 2*1e-7 {
			return
		}
	}
	r, o := propPV(t, w, rent, own, a, u)
	if math.Abs(o-r) <= propBillingStep(rent, a.Horizon)+1e-6 {
		return
	}
	if p.OwnCheaperAt(u) != (o < r) {
		t.Errorf("at u = %g own %g, rent %g, but OwnCheaperAt = %v (ranges %+v)", u, o, r, p.OwnCheaperAt(u), p.Ranges)
	}
}

func TestBreakEvenRangesProperty(t *testing.T) { rapid.Check(t, propBreakEvenRanges) }
func FuzzBreakEvenRanges(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propBreakEvenRanges)) }
