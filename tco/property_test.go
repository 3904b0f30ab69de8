package tco_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// Property tests of BreakEven and Simulate: DESIGN.md invariants 4, 6 and 9.
// Each property is registered twice, as a TestX (rapid.Check) and a FuzzX
// (rapid.MakeFuzz). Inputs are kept small — one- or two-year horizons priced
// through Assumptions.Utilization, a few hundred Monte Carlo trials — so that
// the default 100 checks stay fast.

// propHidden lists every hidden-cost category.
var propHidden = []provider.Category{
	provider.Setup, provider.DataTransfer, provider.Storage, provider.Recovery, provider.Preemption,
	provider.Staff, provider.Fees, provider.Exit, provider.Delay, provider.Inefficiency,
}

// propCents draws an amount of money in whole cents from [lo, hi] cents.
func propCents(t *rapid.T, lo, hi int64, label string) decimal.Decimal {
	return decimal.New(rapid.Int64Range(lo, hi).Draw(t, label), -2)
}

// propRentGen draws a pay-as-you-go offer of one 8×H100 node: metered per
// second (60 s minimum, as AWS and GCP bill) or pro rata, at 1.50 to 15.00
// per GPU-hour.
var propRentGen = rapid.Custom(func(t *rapid.T) provider.Offer {
	rate := propCents(t, 8*150, 8*1500, "rent rate per node-hour (cents)")
	if rapid.Bool().Draw(t, "billed per second") {
		return node8("rent", provider.PerSecond(rate, time.Minute))
	}
	return node8("rent", provider.ProRata(rate))
})

// propOwnedGen draws an owned 8×H100 server: purchase, life, salvage,
// depreciation, power, PUE, energy, colocation and maintenance.
var propOwnedGen = rapid.Custom(func(t *rapid.T) provider.Owned {
	purchase := decimal.NewFromInt(rapid.Int64Range(0, 400_000).Draw(t, "purchase per node"))
	salvagePct := rapid.Int64Range(0, 30).Draw(t, "salvage (% of purchase)")
	idle := rapid.Float64Range(0, 2).Draw(t, "idle power kW")
	return provider.Owned{
		PurchasePerNode:            purchase,
		UsefulLifeYears:            rapid.IntRange(1, 5).Draw(t, "useful life (years)"),
		SalvagePerNode:             purchase.Mul(decimal.NewFromInt(salvagePct)).Shift(-2).Round(2),
		Method:                     rapid.SampledFrom([]provider.Depreciation{provider.StraightLine, provider.DoubleDeclining, provider.SumOfYearsDigits}).Draw(t, "depreciation"),
		IdlePowerKW:                idle,
		MaxPowerKW:                 idle + rapid.Float64Range(0, 10).Draw(t, "busy power above idle kW"),
		PUE:                        rapid.Float64Range(1, 1.6).Draw(t, "PUE"),
		EnergyPerKWh:               propCents(t, 0, 30, "energy per kWh (cents)"),
		ColocationPerKWMonth:       propCents(t, 0, 30_000, "colocation per kW-month (cents)"),
		MaintenanceFractionPerYear: rapid.Float64Range(0, 0.15).Draw(t, "maintenance per year"),
	}
})

// propReserved returns a one-year reservation whose effective rate is
// eff per node-hour, paid as chosen: recurring, upfront, or split.
func propReserved(t *rapid.T, eff decimal.Decimal) provider.Reserved {
	yearHours := decimal.NewFromInt(8760)
	r := provider.Reserved{Term: provider.Year}
	switch rapid.SampledFrom([]string{"recurring", "upfront", "split"}).Draw(t, "reservation payment") {
	case "recurring":
		r.RecurringPerHour = eff
	case "upfront":
		r.UpfrontPerNode = eff.Mul(yearHours)
	default:
		pct := rapid.Int64Range(1, 99).Draw(t, "upfront share (%)")
		up := eff.Mul(decimal.NewFromInt(pct)).Shift(-2).Round(4)
		r.UpfrontPerNode = up.Mul(yearHours)
		r.RecurringPerHour = eff.Sub(up)
	}
	return r
}

// propOwnGen draws the "own" side of a break-even: an owned server or a
// one-year reservation at 0 to 150 % of a typical on-demand rate.
var propOwnGen = rapid.Custom(func(t *rapid.T) provider.Offer {
	if rapid.Bool().Draw(t, "owned (else reserved)") {
		return node8("own", propOwnedGen.Draw(t, "owned server"))
	}
	eff := propCents(t, 0, 8*1200, "reserved effective rate per node-hour (cents)")
	return node8("own", propReserved(t, eff))
})

// propBillingStep is the largest amount by which rounding the runs of one
// BreakEven evaluation to the offer's billing increment can move its cost:
// one increment of every daily run at the offer's rate, over the horizon.
func propBillingStep(o provider.Offer, horizon time.Duration) float64 {
	m, ok := o.Pricing.(provider.Metered)
	if !ok || m.Increment == 0 {
		return 1e-6
	}
	rate, _ := m.RatePerHour.Float64()
	runs := math.Round(horizon.Hours() / 24)
	return runs * m.Increment.Hours() * rate
}

// propPV returns the present values of renting and owning at utilization u.
func propPV(t rapid.TB, w workload.Workload, rent, own provider.Offer, a tco.Assumptions, u float64) (rentPV, ownPV float64) {
	t.Helper()
	a.Utilization = u
	r, err := tco.Evaluate(w, rent, a)
	if err != nil {
		t.Fatalf("Evaluate(rent, u = %g): %v", u, err)
	}
	o, err := tco.Evaluate(w, own, a)
	if err != nil {
		t.Fatalf("Evaluate(own, u = %g): %v", u, err)
	}
	rentPV, _ = r.PresentValue.Float64()
	ownPV, _ = o.PresentValue.Float64()
	return rentPV, ownPV
}

// propBreakEvenSides checks invariant 9: at the break-even utilization rent
// and own agree; below it renting is cheaper, above it owning; and when one
// always wins it does so at the ends of the range (u = 1e-6 and u = 1).
//
// ε = 1e-3 is 10⁴ times the bisection's (absolute) tolerance of 1e-7 on u.
// Per-second billing
// makes rent a step function of u, so comparisons allow one billing step
// (propBillingStep) — far below what ε of utilization is worth (ε·8,760 h of
// the rate, against 365 s of it).
func propBreakEvenSides(t *rapid.T) {
	w := node8Service()
	rent := propRentGen.Draw(t, "rent offer")
	own := propOwnGen.Draw(t, "own offer")
	a := tco.Assumptions{Horizon: provider.Year,
		DiscountRatePerYear: rapid.Float64Range(0, 0.12).Draw(t, "discount rate per year")}
	p, err := tco.BreakEven(w, rent, own, a)
	if err != nil {
		t.Fatalf("BreakEven: %v", err)
	}
	tol := propBillingStep(rent, a.Horizon)
	const eps = 1e-3
	switch p.Outcome {
	case tco.Crossover:
		u := p.Utilization
		if !(u > 0 && u <= 1) {
			t.Fatalf("crossover at u = %g, outside (0, 1]", u)
		}
		// At u*, the gap is at most one billing step plus what the bisection's
		// tolerance of utilization is worth at the rent rate.
		rate, _ := rent.Pricing.(provider.Metered).RatePerHour.Float64()
		if gap, _ := p.Own.Sub(p.Rent).Abs().Float64(); gap > tol+1e-7*8760*rate+1e-6 {
			t.Errorf("at u* = %g own %s and rent %s differ by %g > %g", u, p.Own, p.Rent, gap, tol+1e-7*8760*rate)
		}
		// Below u*, step back ε, or half of u* when u* < 2ε; a u* within
		// 2e-5 of zero (200 bisection tolerances) leaves no room to step
		// back far enough for the sign to be certain.
		if below := u - min(eps, u/2); u-below >= 1e-5 {
			if r, o := propPV(t, w, rent, own, a, below); r >= o+tol {
				t.Errorf("u* = %g: at u = %g below it rent %g is not cheaper than own %g (tolerance %g)", u, below, r, o, tol)
			}
		}
		above := min(u+eps, 1)
		if r, o := propPV(t, w, rent, own, a, above); o >= r+tol {
			t.Errorf("u* = %g: at u = %g above it own %g is not cheaper than rent %g (tolerance %g)", u, above, o, r, tol)
		}
	case tco.OwnAlwaysCheaper:
		if r, o := propPV(t, w, rent, own, a, 1e-6); o > r+tol {
			t.Errorf("own always cheaper, but at u = 1e-6 own %g > rent %g (tolerance %g)", o, r, tol)
		}
	case tco.RentAlwaysCheaper:
		// "Costs no more" (RentAlwaysCheaper's contract): a tie at u = 1 is
		// within it (rapid found rent and own both 98 996.108… at a metered
		// and a reserved rate of 12.01 an hour).
		if r, o := propPV(t, w, rent, own, a, 1); r > o {
			t.Errorf("rent always cheaper, but at u = 1 rent %g > own %g", r, o)
		}
	case tco.OwnCheaperBelow, tco.Mixed:
		// Covered by propBreakEvenRanges.
	default:
		t.Fatalf("unknown outcome %v", p.Outcome)
	}
}

func TestBreakEvenSidesProperty(t *testing.T) { rapid.Check(t, propBreakEvenSides) }
func FuzzBreakEvenSides(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propBreakEvenSides)) }

// propHiddenProfileGen draws a hidden-cost profile with every kind of
// hidden cost present.
var propHiddenProfileGen = rapid.Custom(func(t *rapid.T) provider.HiddenCosts {
	return provider.HiddenCosts{
		SetupHours:          rapid.Float64Range(0, 40).Draw(t, "offer setup hours"),
		EgressPerGB:         propCents(t, 0, 12, "egress per GB (cents)"),
		IngressPerGB:        propCents(t, 0, 5, "ingress per GB (cents)"),
		StoragePerGBMonth:   propCents(t, 0, 10, "storage per GB-month (cents)"),
		NodeMTBF:            time.Duration(rapid.IntRange(100, 10_000).Draw(t, "node MTBF (h)")) * time.Hour,
		RecoveryTime:        time.Duration(rapid.IntRange(0, 240).Draw(t, "recovery time (min)")) * time.Minute,
		PlatformFeeFraction: rapid.Float64Range(0, 0.2).Draw(t, "platform fee fraction"),
		StaffFTE:            rapid.Float64Range(0, 1).Draw(t, "staff FTE"),
		StaffCostPerYear:    decimal.NewFromInt(rapid.Int64Range(0, 250_000).Draw(t, "staff cost per year")),
	}
})

// propServiceWithHiddenGen draws an 8-GPU-node service that brings every
// hidden cost of its own: setup, a dataset elsewhere, checkpoints, egress,
// a cost of delay and a restart time.
var propServiceWithHiddenGen = rapid.Custom(func(t *rapid.T) workload.Workload {
	w := node8Service()
	w.GPUs = rapid.IntRange(1, 16).Draw(t, "peak GPUs")
	w.Setup.EngineerHours = rapid.Float64Range(0, 80).Draw(t, "workload setup hours")
	w.Data = workload.Data{
		DatasetGB:        rapid.Float64Range(0, 5000).Draw(t, "dataset GB"),
		Location:         workload.Location{Provider: "elsewhere", Region: "far"},
		CheckpointGB:     rapid.Float64Range(0, 500).Draw(t, "checkpoint GB"),
		EgressGBPerMonth: rapid.Float64Range(0, 2000).Draw(t, "egress GB per month"),
	}
	w.CostOfDelayPerDay = decimal.NewFromInt(rapid.Int64Range(0, 5000).Draw(t, "cost of delay per day"))
	w.Interruption.RestartTime = time.Duration(rapid.IntRange(0, 30).Draw(t, "restart (min)")) * time.Minute
	return w
})

// propReservedRatio checks invariant 4: with every hidden cost excluded,
// the break-even utilization of a one-year reservation against a pro-rata
// on-demand offer, over whole terms, is the ratio of their hourly rates
// (Reserved.EffectiveRatePerHour / metered rate); and the reservation costs
// the same at any utilization. Both offers and the workload carry every kind
// of hidden cost, so that the exclusions are exercised. There is no
// discounting: an upfront payment and an hourly one have equal totals, not
// equal present values.
func propReservedRatio(t *rapid.T) {
	w := propServiceWithHiddenGen.Draw(t, "service")
	rateCents := rapid.Int64Range(800, 12_000).Draw(t, "on-demand rate per node-hour (cents)")
	rate := decimal.New(rateCents, -2)
	ratioPct := rapid.Int64Range(5, 95).Draw(t, "reserved rate as % of on-demand")
	eff := rate.Mul(decimal.NewFromInt(ratioPct)).Shift(-2).Round(4)
	res := propReserved(t, eff)

	rent := node8("on-demand", provider.ProRata(rate))
	rent.Hidden = propHiddenProfileGen.Draw(t, "on-demand hidden costs")
	rent.Availability.FillProbability = rapid.Float64Range(0.3, 1).Draw(t, "on-demand fill probability")
	own := node8("reserved", res)
	own.Hidden = propHiddenProfileGen.Draw(t, "reserved hidden costs")
	own.Availability.LeadTime = time.Duration(rapid.IntRange(0, 30).Draw(t, "reserved lead time (days)")) * 24 * time.Hour

	terms := rapid.IntRange(1, 2).Draw(t, "terms in the horizon")
	a := tco.Assumptions{Horizon: time.Duration(terms) * provider.Year, Exclude: propHidden}

	u1 := rapid.Float64Range(0.01, 1).Draw(t, "first utilization")
	u2 := rapid.Float64Range(0.01, 1).Draw(t, "second utilization")
	for _, excl := range [][]provider.Category{propHidden, nil} {
		au := a
		au.Exclude = excl
		au.Utilization = u1
		r1, err := tco.Evaluate(w, own, au)
		if err != nil {
			t.Fatalf("Evaluate(reserved, u = %g): %v", u1, err)
		}
		au.Utilization = u2
		r2, err := tco.Evaluate(w, own, au)
		if err != nil {
			t.Fatalf("Evaluate(reserved, u = %g): %v", u2, err)
		}
		if !r1.Total.Equal(r2.Total) {
			t.Errorf("reserved total depends on utilization (excluded %v): %s at u = %g, %s at u = %g", excl, r1.Total, u1, r2.Total, u2)
		}
	}

	p, err := tco.BreakEven(w, rent, own, a)
	if err != nil {
		t.Fatalf("BreakEven: %v", err)
	}
	want, _ := res.EffectiveRatePerHour().DivRound(rate, provider.Precision).Float64()
	if p.Outcome != tco.Crossover || math.Abs(p.Utilization-want) > 1e-4 {
		t.Errorf("BreakEven = %v at u = %.6f, want crossover at %.6f (effective %s / on-demand %s)",
			p.Outcome, p.Utilization, want, res.EffectiveRatePerHour(), rate)
	}
}

func TestReservedBreakEvenRatioProperty(t *testing.T) { rapid.Check(t, propReservedRatio) }
func FuzzReservedBreakEvenRatio(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propReservedRatio)) }

// propSimCase is one input of Simulate.
type propSimCase struct {
	w workload.Workload
	o provider.Offer
	a tco.Assumptions
	k float64 // factor on the interruption rate, where one is compared
}

// propQuietGen draws a job or a service on an offer that never interrupts:
// spot with InterruptionRatePerHour 0 (pay-as-you-go metered for work that
// tolerates no interruption), no node failures, fill probability 1. Other
// hidden costs (setup, storage, staff, a deadline with a cost of delay)
// are present, since they are deterministic.
var propQuietGen = rapid.Custom(func(t *rapid.T) propSimCase {
	tol := rapid.SampledFrom([]workload.Tolerance{workload.NoTolerance, workload.Checkpointed, workload.Stateless}).Draw(t, "interruption tolerance")
	rate := propCents(t, 100, 10_000, "rate per node-hour (cents)")
	var o provider.Offer
	if tol == workload.NoTolerance {
		o = node8("metered", provider.PerSecond(rate, time.Minute))
	} else {
		o = node8("spot", provider.Spot{RatePerHour: rate, Increment: time.Second, Minimum: time.Minute})
	}
	o.Hidden = provider.HiddenCosts{
		StoragePerGBMonth: propCents(t, 0, 10, "storage per GB-month (cents)"),
		StaffFTE:          rapid.Float64Range(0, 0.5).Draw(t, "staff FTE"),
		StaffCostPerYear:  decimal.NewFromInt(150_000),
	}
	w := workload.Workload{Name: "quiet", Kind: workload.Batch, GPUs: rapid.IntRange(1, 16).Draw(t, "GPUs"),
		Interruption: workload.Interruption{Tolerance: tol,
			RestartTime: time.Duration(rapid.IntRange(0, 20).Draw(t, "restart (min)")) * time.Minute},
		Data:  workload.Data{DatasetGB: rapid.Float64Range(0, 1000).Draw(t, "dataset GB")},
		Setup: workload.Setup{EngineerHours: rapid.Float64Range(0, 8).Draw(t, "setup hours")},
	}
	if tol == workload.Checkpointed {
		w.Interruption.CheckpointTime = time.Duration(rapid.IntRange(1, 15).Draw(t, "checkpoint (min)")) * time.Minute
		if rapid.Bool().Draw(t, "fixed checkpoint interval") {
			w.Interruption.CheckpointInterval = time.Duration(rapid.IntRange(10, 240).Draw(t, "checkpoint interval (min)")) * time.Minute
		}
	}
	var a tco.Assumptions
	if rapid.Bool().Draw(t, "service (else finite job)") {
		w.Kind = workload.Inference
		w.Demand = workload.Constant{Value: 1}
		w.Horizon = time.Duration(rapid.IntRange(1, 60).Draw(t, "service horizon (days)")) * 24 * time.Hour
		a.Utilization = rapid.Float64Range(0.01, 1).Draw(t, "utilization")
	} else {
		w.WorkGPUHours = rapid.Float64Range(1, 2000).Draw(t, "work (reference GPU-hours)")
		if rapid.Bool().Draw(t, "deadline") {
			w.Deadline = time.Duration(rapid.IntRange(1, 400).Draw(t, "deadline (h)")) * time.Hour
			w.CostOfDelayPerDay = decimal.NewFromInt(rapid.Int64Range(0, 10_000).Draw(t, "cost of delay per day"))
		}
	}
	return propSimCase{w: w, o: o, a: a}
})

// propSimulateQuiet checks invariant 6 at the level of Simulate: with
// interruptions off nothing is random, so every trial costs exactly
// Evaluate's Total and holds the GPUs for exactly Evaluate's WallTime.
// With at most 100 trials P99 is the largest sample; a mean equal to the
// largest sample means every sample equals it.
func propSimulateQuiet(t *rapid.T) {
	c := propQuietGen.Draw(t, "quiet case")
	trials := rapid.IntRange(1, 100).Draw(t, "trials")
	sim, err := tco.Simulate(c.w, c.o, c.a, tco.SimulateOptions{Trials: trials, Seed: rapid.Uint64().Draw(t, "seed")})
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	want, ww := sim.Expected.Total, sim.Expected.WallTime
	costTol, wallTol := decimal.Zero, time.Duration(0)
	for _, q := range []struct {
		name string
		got  decimal.Decimal
	}{{"P50", sim.Cost.P50}, {"P90", sim.Cost.P90}, {"P99", sim.Cost.P99}} {
		if q.got.Sub(want).Abs().GreaterThan(costTol) {
			t.Errorf("cost %s = %s, want Evaluate's total %s", q.name, q.got, want)
		}
	}
	// The mean is rounded to provider.Precision decimal places.
	if d := sim.Cost.Mean.Sub(want).Abs(); d.GreaterThan(costTol.Add(decimal.New(1, -provider.Precision+1))) {
		t.Errorf("cost mean = %s, want Evaluate's total %s", sim.Cost.Mean, want)
	}
	for _, q := range []struct {
		name string
		got  time.Duration
	}{{"P50", sim.WallTime.P50}, {"P90", sim.WallTime.P90}, {"P99", sim.WallTime.P99}} {
		if d := q.got - ww; d < -wallTol || d > wallTol {
			t.Errorf("wall time %s = %v, want Evaluate's %v", q.name, q.got, ww)
		}
	}
	// The mean wall time is summed in float64, which holds durations above
	// 2⁵³ ns (104 days) to a few ns only: allow a microsecond.
	if d := sim.WallTime.Mean - ww; d < -time.Microsecond || d > time.Microsecond {
		t.Errorf("mean wall time %v, want Evaluate's %v", sim.WallTime.Mean, ww)
	}
}

func TestSimulateQuietProperty(t *testing.T) { rapid.Check(t, propSimulateQuiet) }
func FuzzSimulateQuiet(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propSimulateQuiet)) }

// propSpotRateFactor is the factor between the two interruption rates that
// propSimulateWallGrows compares.
var propSpotRateFactor = rapid.Float64Range(5, 20)

// propSpotJobGen draws a checkpointed or stateless job on a spot node and a
// factor k by which to raise the interruption rate. The rate is set through
// the expected number of preemptions over the work (0.5 to 3), so that the
// job sees a few preemptions whatever its length; the work is long enough
// that even k times the rate leaves a mean time to interruption above the
// restart and checkpoint times (λ·k·(R+δ) ≤ 1), so that the job still
// finishes in a reasonable number of events.
var propSpotJobGen = rapid.Custom(func(t *rapid.T) propSimCase {
	tol := rapid.SampledFrom([]workload.Tolerance{workload.Checkpointed, workload.Stateless}).Draw(t, "interruption tolerance")
	restart := time.Duration(rapid.IntRange(1, 30).Draw(t, "restart (min)")) * time.Minute
	preemptions := rapid.Float64Range(0.5, 3).Draw(t, "expected preemptions over the work")
	k := propSpotRateFactor.Draw(t, "interruption rate factor")
	var checkpoint time.Duration
	if tol == workload.Checkpointed {
		checkpoint = time.Duration(rapid.IntRange(1, 10).Draw(t, "checkpoint (min)")) * time.Minute
	}
	hours := max(1, k*preemptions*(restart+checkpoint).Hours()) + rapid.Float64Range(0, 100).Draw(t, "work per GPU beyond the minimum (h)")
	w := workload.Workload{Name: "spot-job", Kind: workload.Batch, GPUs: 8, WorkGPUHours: 8 * hours,
		Interruption: workload.Interruption{Tolerance: tol, RestartTime: restart, CheckpointTime: checkpoint}}
	o := node8("spot", provider.Spot{RatePerHour: propCents(t, 100, 5000, "spot rate per node-hour (cents)"),
		Increment: time.Second, Minimum: time.Minute, InterruptionRatePerHour: preemptions / hours})
	return propSimCase{w: w, o: o, k: k}
})

// propSpotWith returns o with its spot interruption rate multiplied by k.
func propSpotWith(o provider.Offer, k float64) provider.Offer {
	s := o.Pricing.(provider.Spot)
	s.InterruptionRatePerHour *= k
	o.Pricing = s
	return o
}

// propSimulateWallGrows checks invariant 6's "wall time grows with the
// interruption rate" on Simulate: the same job and seed with an interruption
// rate 5 to 20 times higher has a higher sample mean wall time (and so has
// Evaluate's expectation). The rates are far apart and each run has 300
// trials of 0.5–3 expected preemptions at the lower rate, so the gap is many
// standard errors wide. It also checks that Simulate is deterministic for a
// seed.
func propSimulateWallGrows(t *rapid.T) {
	c := propSpotJobGen.Draw(t, "spot job")
	k := c.k
	opts := tco.SimulateOptions{Trials: 300, Seed: rapid.Uint64().Draw(t, "seed")}
	lo, err := tco.Simulate(c.w, c.o, c.a, opts)
	if err != nil {
		t.Fatalf("Simulate at the lower rate: %v", err)
	}
	hi, err := tco.Simulate(c.w, propSpotWith(c.o, k), c.a, opts)
	if err != nil {
		t.Fatalf("Simulate at %g× the rate: %v", k, err)
	}
	if hi.Expected.WallTime <= lo.Expected.WallTime {
		t.Errorf("Evaluate's wall time %v at %g× the rate ≤ %v", hi.Expected.WallTime, k, lo.Expected.WallTime)
	}
	if hi.WallTime.Mean <= lo.WallTime.Mean {
		t.Errorf("mean wall time %v at %g× the rate ≤ %v at the lower rate", hi.WallTime.Mean, k, lo.WallTime.Mean)
	}
	again, err := tco.Simulate(c.w, c.o, c.a, opts)
	if err != nil {
		t.Fatalf("Simulate again: %v", err)
	}
	if diff := cmp.Diff(lo, again); diff != "" {
		t.Errorf("Simulate with seed %d differs between two calls (-first +second):\n%s", opts.Seed, diff)
	}
}

func TestSimulateWallGrowsProperty(t *testing.T) { rapid.Check(t, propSimulateWallGrows) }
func FuzzSimulateWallGrows(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propSimulateWallGrows)) }
