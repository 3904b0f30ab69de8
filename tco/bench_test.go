package tco_test

import (
	"testing"
	"time"

	"github.com/gputco/gputco/internal/cputime"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
	"github.com/shopspring/decimal"
)

// reportCPU reports the CPU time per unit since start, over units units, as
// "cpu-ns/<unit>".
func reportCPU(b *testing.B, start time.Duration, units float64, unit string) {
	b.Helper()
	b.ReportMetric(float64(cputime.Process()-start)/units, "cpu-ns/"+unit)
}

// benchHidden is a typical cloud hidden-cost profile.
func benchHidden() provider.HiddenCosts {
	return provider.HiddenCosts{
		SetupHours: 24, EgressPerGB: decimal.RequireFromString("0.09"), StoragePerGBMonth: decimal.RequireFromString("0.023"),
		NodeMTBF: 6338 * time.Hour, RecoveryTime: time.Hour,
	}
}

// benchEvaluate measures Evaluate of w on o and reports evaluations/s.
func benchEvaluate(b *testing.B, w workload.Workload, o provider.Offer, a tco.Assumptions) {
	b.Helper()
	if _, err := tco.Evaluate(w, o, a); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		if _, err := tco.Evaluate(w, o, a); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start, float64(b.N), "op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evaluations/s")
}

// BenchmarkEvaluateMetered prices the fine-tune job on a per-second offer
// with hidden costs (target ≤ 10 µs/op).
func BenchmarkEvaluateMetered(b *testing.B) {
	o := evalOffer("bench-metered", provider.PerSecond(decimal.RequireFromString("55.04"), time.Minute))
	o.Hidden = benchHidden()
	benchEvaluate(b, workloadtest.FineTune(), o, tco.Assumptions{DiscountRatePerYear: 0.08})
}

// BenchmarkEvaluateOwned prices the fine-tune job on an owned 8×H100 server
// (target ≤ 25 µs/op).
func BenchmarkEvaluateOwned(b *testing.B) {
	o := evalOffer("bench-owned", evalOwned())
	o.Hidden = benchHidden()
	benchEvaluate(b, workloadtest.FineTune(), o, tco.Assumptions{DiscountRatePerYear: 0.08})
}

// BenchmarkEvaluateOwnedService prices the chat service (64 GPUs, diurnal,
// one year) on owned servers: a demand curve sampled at five minutes.
func BenchmarkEvaluateOwnedService(b *testing.B) {
	o := evalOffer("bench-owned", evalOwned())
	o.Hidden = benchHidden()
	benchEvaluate(b, workloadtest.ChatInference(), o, tco.Assumptions{DiscountRatePerYear: 0.08})
}

// benchSimulate measures Simulate of trials trials of the fine-tune job on a
// spot offer interrupted 1 % of node-hours, reporting evaluations (trials)/s.
func benchSimulate(b *testing.B, trials int) {
	b.Helper()
	o := evalOffer("bench-spot", provider.Spot{RatePerHour: decimal.RequireFromString("11.99"), Increment: time.Second,
		Minimum: time.Minute, InterruptionRatePerHour: 0.01, Notice: 2 * time.Minute})
	o.Hidden = benchHidden()
	o.Availability.FillProbability = 0.5
	w := workloadtest.FineTune()
	opts := tco.SimulateOptions{Trials: trials, Seed: 1}
	if _, err := tco.Simulate(w, o, tco.Assumptions{}, opts); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tco.Simulate(w, o, tco.Assumptions{}, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*float64(trials)/b.Elapsed().Seconds(), "evaluations/s")
}

// BenchmarkSimulate10k is Simulate of 10,000 trials (target ≤ 100 ms/op).
func BenchmarkSimulate10k(b *testing.B) { benchSimulate(b, 10000) }

// BenchmarkBreakEven is the reference-data §5a case: an 8×H100 server
// against $55.04 per node-hour billed per second over three years.
func BenchmarkBreakEven(b *testing.B) {
	rent := evalOffer("rent", provider.PerSecond(decimal.RequireFromString("55.04"), time.Minute))
	own := evalOffer("own", provider.Owned{
		PurchasePerNode: decimal.NewFromInt(300000), UsefulLifeYears: 3,
		MaxPowerKW: 7.65, ContractedPowerKW: 10.2, PUE: 1.25,
		EnergyPerKWh:               decimal.RequireFromString("0.0826"),
		ColocationPerKWMonth:       decimal.RequireFromString("184.06"),
		MaintenanceFractionPerYear: 0.10,
	})
	w := evalService(8, workload.Constant{Value: 1}, 3*provider.Year)
	if _, err := tco.BreakEven(w, rent, own, tco.Assumptions{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tco.BreakEven(w, rent, own, tco.Assumptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evaluations/s")
}

// benchPrepared measures the prepared workload w priced on every offer,
// reporting ns/offer and offers/s.
func benchPrepared(b *testing.B, w workload.Workload, offers []provider.Offer, a tco.Assumptions) {
	b.Helper()
	p, err := tco.Prepare(w, a)
	if err != nil {
		b.Fatal(err)
	}
	priced := 0
	for _, o := range offers {
		if _, err := p.Evaluate(o); err == nil {
			priced++
		}
	}
	if priced == 0 {
		b.Fatal("no offer priced")
	}
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		for _, o := range offers {
			p.Evaluate(o) //nolint:errcheck // incompatible offers are part of the load
		}
	}
	n := float64(b.N) * float64(len(offers))
	reportCPU(b, start, n, "offer")
	b.ReportMetric(b.Elapsed().Seconds()*1e9/n, "ns/offer")
	b.ReportMetric(n/b.Elapsed().Seconds(), "offers/s")
}

// BenchmarkPreparedServiceDefaultCatalog prices the prepared chat service
// (64 GPUs, diurnal, one year) on each offer of the default catalog, owned
// included (target ≤ 10 µs per offer on average).
func BenchmarkPreparedServiceDefaultCatalog(b *testing.B) {
	c, err := provider.Default()
	if err != nil {
		b.Fatal(err)
	}
	benchPrepared(b, workloadtest.ChatInference(), c.Offers, tco.Assumptions{DiscountRatePerYear: 0.08})
}

// BenchmarkPreparedOwnedService prices the prepared chat service on the
// owned 8×H100 server of BenchmarkEvaluateOwnedService.
func BenchmarkPreparedOwnedService(b *testing.B) {
	o := evalOffer("bench-owned", evalOwned())
	o.Hidden = benchHidden()
	benchPrepared(b, workloadtest.ChatInference(), []provider.Offer{o}, tco.Assumptions{DiscountRatePerYear: 0.08})
}

// benchTerms measures the cost terms of the prepared w on o.
func benchTerms(b *testing.B, w workload.Workload, o provider.Offer) {
	b.Helper()
	p, err := tco.Prepare(w, tco.Assumptions{DiscountRatePerYear: 0.08})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := p.Terms(o); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		if _, err := p.Terms(o); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start, float64(b.N), "op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
}

// BenchmarkTermsOwnedService is the cost terms of the chat service on an
// owned server (target ≤ 5 µs per pair).
func BenchmarkTermsOwnedService(b *testing.B) {
	o := evalOffer("bench-owned", evalOwned())
	o.Hidden = benchHidden()
	benchTerms(b, workloadtest.ChatInference(), o)
}

// BenchmarkTermsMeteredJob is the cost terms of the fine-tune job on a
// per-second offer (target ≤ 5 µs per pair).
func BenchmarkTermsMeteredJob(b *testing.B) {
	o := evalOffer("bench-metered", provider.PerSecond(decimal.RequireFromString("55.04"), time.Minute))
	o.Hidden = benchHidden()
	benchTerms(b, workloadtest.FineTune(), o)
}

// BenchmarkRankDefaultCatalog ranks the chat service over the default
// catalog, preparation included (target ≤ 0.5 ms).
func BenchmarkRankDefaultCatalog(b *testing.B) {
	c, err := provider.Default()
	if err != nil {
		b.Fatal(err)
	}
	w := workloadtest.ChatInference()
	a := tco.Assumptions{DiscountRatePerYear: 0.08}
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		if _, err := tco.Rank(w, c.Offers, a); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start, float64(b.N), "op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rankings/s")
}
