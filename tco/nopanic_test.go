package tco_test

import (
	"io"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// Generators of extreme inputs: valid more often than not, so that pricing
// runs beyond validation, at magnitudes from the smallest to the largest
// the packages accept, and now and then just beyond.

// extremeFloat draws a float from zero to about 1e300, log-uniformly, now
// and then negative or not finite.
func extremeFloat(t *rapid.T, label string) float64 {
	switch rapid.IntRange(0, 99).Draw(t, label+" kind") {
	case 0:
		return 0
	case 1:
		return []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, math.SmallestNonzeroFloat64, math.MaxFloat64}[rapid.IntRange(0, 5).Draw(t, label+" special")]
	}
	return math.Pow(10, rapid.Float64Range(-300, 300).Draw(t, label+" exponent"))
}

// extremeFraction draws a fraction in [0, 1], often at its ends.
func extremeFraction(t *rapid.T, label string) float64 {
	switch rapid.IntRange(0, 5).Draw(t, label+" kind") {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return math.Pow(10, rapid.Float64Range(-300, 0).Draw(t, label+" exponent"))
	}
	return rapid.Float64Range(0, 1).Draw(t, label)
}

// extremeDuration draws a duration from 0 to the largest, log-uniformly.
func extremeDuration(t *rapid.T, label string) time.Duration {
	if rapid.IntRange(0, 19).Draw(t, label+" zero") == 0 {
		return 0
	}
	return time.Duration(math.Min(math.Pow(10, rapid.Float64Range(0, 18.96).Draw(t, label+" exponent")), math.MaxInt64))
}

// extremeMoney draws an amount with a decimal exponent within ±64 (or just
// beyond) and a coefficient of any size.
func extremeMoney(t *rapid.T, label string) decimal.Decimal {
	return decimal.New(rapid.Int64Range(0, math.MaxInt64).Draw(t, label+" coefficient"), rapid.Int32Range(-66, 66).Draw(t, label+" exponent"))
}

func extremePricing(t *rapid.T, depth int) provider.Pricing {
	switch rapid.IntRange(0, 4).Draw(t, "mode") {
	case 0:
		return provider.Metered{RatePerHour: extremeMoney(t, "rate"), Increment: extremeDuration(t, "increment"), Minimum: extremeDuration(t, "minimum")}
	case 1:
		return provider.Spot{RatePerHour: extremeMoney(t, "spot rate"), Increment: extremeDuration(t, "spot increment"),
			InterruptionRatePerHour: extremeFloat(t, "interruptions per hour"), Notice: extremeDuration(t, "notice")}
	case 2:
		return provider.Reserved{Term: extremeDuration(t, "term"), UpfrontPerNode: extremeMoney(t, "upfront"), RecurringPerHour: extremeMoney(t, "recurring")}
	case 3:
		return extremeOwned(t)
	}
	if depth > 2 {
		return provider.ProRata(extremeMoney(t, "base rate"))
	}
	return provider.Credit{Base: extremePricing(t, depth+1), Amount: extremeMoney(t, "credit")}
}

func extremeOwned(t *rapid.T) provider.Owned {
	idle := extremeFloat(t, "idle kW")
	o := provider.Owned{
		PurchasePerNode: extremeMoney(t, "purchase"), UsefulLifeYears: rapid.IntRange(1, 100).Draw(t, "life"),
		Method: provider.Depreciation(rapid.IntRange(0, 2).Draw(t, "depreciation")), IdlePowerKW: idle,
		MaxPowerKW: idle + extremeFloat(t, "busy kW"), PUE: 1 + 9*extremeFraction(t, "PUE excess"),
		EnergyPerKWh: extremeMoney(t, "energy"), ColocationPerKWMonth: extremeMoney(t, "colocation"),
		MaintenanceFractionPerYear: extremeFraction(t, "maintenance"), StaffFTEPerNode: extremeFloat(t, "staff per node"),
		StaffCostPerYear: extremeMoney(t, "staff cost"), ProcurementLeadTime: extremeDuration(t, "procurement"),
	}
	o.SalvagePerNode = o.PurchasePerNode.Mul(decimal.NewFromFloat(extremeFraction(t, "salvage share"))).Round(2)
	if rapid.Bool().Draw(t, "resale curve") {
		age := extremeDuration(t, "first resale age")
		o.Resale = provider.Resale{Points: []provider.ResalePoint{{Age: max(age, 1), Fraction: extremeFraction(t, "resale fraction")}}}
	}
	return o
}

func extremeOffer(t *rapid.T, id string) provider.Offer {
	o := evalOffer(id, extremePricing(t, 0))
	o.GPUsPerNode = rapid.IntRange(1, provider.MaxGPUsPerNode).Draw(t, "GPUs per node")
	o.Availability = provider.Availability{FillProbability: extremeFraction(t, "fill probability"),
		MaxNodes: rapid.IntRange(0, math.MaxInt32).Draw(t, "max nodes"), LeadTime: extremeDuration(t, "lead time")}
	o.Hidden = provider.HiddenCosts{
		SetupHours: extremeFloat(t, "setup hours"), EgressPerGB: extremeMoney(t, "egress"), IngressPerGB: extremeMoney(t, "ingress"),
		StoragePerGBMonth: extremeMoney(t, "storage"), TransferGbps: extremeFloat(t, "transfer Gbps"),
		NodeMTBF: extremeDuration(t, "MTBF"), RecoveryTime: extremeDuration(t, "recovery"),
		PlatformFeeFraction: extremeFraction(t, "fee"), StaffFTE: extremeFloat(t, "staff FTE"), StaffCostPerYear: extremeMoney(t, "staff cost per year"),
	}
	return o
}

func extremeWorkload(t *rapid.T) workload.Workload {
	gpus := int(math.Min(math.Pow(2, rapid.Float64Range(0, 24).Draw(t, "log2 GPUs")), workload.MaxGPUs))
	var w workload.Workload
	if rapid.Bool().Draw(t, "service") {
		var c workload.Curve
		switch rapid.IntRange(0, 3).Draw(t, "curve") {
		case 0:
			c = workload.Constant{Value: extremeFraction(t, "level")}
		case 1:
			mean := extremeFraction(t, "mean") / 2
			c = workload.Diurnal{Mean: mean, Amplitude: mean * extremeFraction(t, "amplitude share"), PeakHour: rapid.Float64Range(0, 23.99).Draw(t, "peak hour")}
		case 2:
			cycle := max(extremeDuration(t, "cycle"), 2)
			c = workload.Steps{Cycle: cycle, Steps: []workload.Step{{Start: 0, Value: extremeFraction(t, "first")},
				{Start: 1 + time.Duration(float64(cycle-2)*rapid.Float64Range(0, 1).Draw(t, "second start")), Value: extremeFraction(t, "second")}}}
		default:
			c = workload.Growth{Base: workload.Constant{Value: extremeFraction(t, "base") / 4}, RatePerYear: rapid.Float64Range(-0.99, 3).Draw(t, "growth")}
		}
		w = evalService(gpus, c, extremeDuration(t, "horizon"))
	} else {
		w = evalJob(gpus, extremeFloat(t, "work"))
		w.Horizon = extremeDuration(t, "job horizon")
	}
	w.Deadline = extremeDuration(t, "deadline")
	w.CostOfDelayPerDay = extremeMoney(t, "cost of delay")
	w.Requirements.Models["H100 SXM"] = math.Max(extremeFloat(t, "speed"), math.SmallestNonzeroFloat64)
	w.Interruption = workload.Interruption{Tolerance: workload.Tolerance(rapid.IntRange(0, 2).Draw(t, "tolerance")),
		CheckpointTime: extremeDuration(t, "checkpoint time"), RestartTime: extremeDuration(t, "restart time"),
		CheckpointInterval: extremeDuration(t, "checkpoint interval")}
	if w.Interruption.Tolerance == workload.Checkpointed && w.Interruption.CheckpointTime == 0 {
		w.Interruption.CheckpointTime = time.Minute
	}
	w.Data = workload.Data{DatasetGB: extremeFloat(t, "dataset GB"), CheckpointGB: extremeFloat(t, "checkpoint GB"), EgressGBPerMonth: extremeFloat(t, "egress GB")}
	w.Setup.EngineerHours = extremeFloat(t, "engineer hours")
	return w
}

func extremeAssumptions(t *rapid.T) tco.Assumptions {
	return tco.Assumptions{
		Horizon:             min(extremeDuration(t, "assumed horizon"), tco.MaxHorizon),
		DiscountRatePerYear: rapid.Float64Range(-0.5, 10).Draw(t, "discount rate"),
		EngineerCostPerHour: extremeMoney(t, "engineer cost"),
		Utilization:         extremeFraction(t, "utilization") * float64(rapid.IntRange(0, 1).Draw(t, "at a utilization")),
		SourceEgressPerGB:   extremeMoney(t, "source egress"),
		TransferGbps:        extremeFloat(t, "assumed Gbps"),
		StockRetry:          extremeDuration(t, "stock retry"),
		Step:                max(extremeDuration(t, "step"), time.Minute),
	}
}

// propExtremeInputsNoPanic: no workload, offer or assumptions drawn from the
// whole range of their magnitudes (and now and then just outside it) makes
// Evaluate, CostTerms, Simulate, Sensitivity, BreakEven or Rank panic; when
// Evaluate answers, its total is the sum of its lines. A panic fails the
// property by itself; nothing is recovered.
func propExtremeInputsNoPanic(t *rapid.T) {
	w := extremeWorkload(t)
	o := extremeOffer(t, "extreme")
	a := extremeAssumptions(t)
	if r, err := tco.Evaluate(w, o, a); err == nil {
		sum := decimal.Zero
		for _, l := range r.Lines {
			sum = sum.Add(l.Amount)
		}
		if !sum.Equal(r.Total) {
			t.Fatalf("lines sum to %s, total %s", sum, r.Total)
		}
		_ = r.String()
		_ = r.WriteCSV(io.Discard)
		_, _ = r.MarshalJSON()
	}
	if tm, err := tco.CostTerms(w, o, a); err == nil {
		_, _ = tm.Cost(tm.Own)
	}
	_, _ = tco.Simulate(w, o, a, tco.SimulateOptions{Trials: 3, Seed: 1})
	if w.IsService() {
		_, _ = tco.Sensitivity(w, o, a, tco.Utilization, []float64{0, 0.5, 1})
	}
	_, _ = tco.Sensitivity(w, o, a, tco.PriceScale, []float64{0, 2})
	own := extremeOffer(t, "own")
	if rapid.Bool().Draw(t, "extreme owned") {
		own.Pricing = extremeOwned(t)
	} else {
		own.Pricing = evalOwned()
	}
	if be, err := tco.BreakEven(w, o, own, a); err == nil {
		_ = be.OwnCheaperAt(0.5)
	}
	_, _ = tco.Rank(w, []provider.Offer{o, own}, a)
}

func TestExtremeInputsNoPanic(t *testing.T) { rapid.Check(t, propExtremeInputsNoPanic) }
func FuzzExtremeInputsNoPanic(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propExtremeInputsNoPanic)) }
