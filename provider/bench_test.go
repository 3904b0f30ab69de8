package provider_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
)

// benchmarkCharges measures p.Charges(u) and reports charges/s.
func benchmarkCharges(b *testing.B, p provider.Pricing, u provider.Usage) {
	b.Helper()
	if _, err := p.Charges(u); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = p.Charges(u)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "charges/s")
}

// benchmarkMeteredCharges measures one per-second Charges call over a usage
// of the given number of runs.
func benchmarkMeteredCharges(b *testing.B, runs int) {
	b.Helper()
	u := provider.Usage{Horizon: 30 * 24 * time.Hour}
	for i := range runs {
		u.Runs = append(u.Runs, provider.Run{Length: time.Duration(90+i) * time.Minute, Count: 1 + i%3, Nodes: 1 + i%8})
	}
	benchmarkCharges(b, provider.PerSecond(usd("98.32"), time.Minute), u)
}

// BenchmarkMeteredCharge is one metered charge of a one-run usage (target ≤ 2 µs/op).
func BenchmarkMeteredCharge(b *testing.B)        { benchmarkMeteredCharges(b, 1) }
func BenchmarkMeteredCharge100Runs(b *testing.B) { benchmarkMeteredCharges(b, 100) }

// BenchmarkOwnedCharge is one owned 8-GPU server's charges over three years
// (target ≤ 10 µs/op).
func BenchmarkOwnedCharge(b *testing.B) {
	benchmarkCharges(b, validOwned(), provider.Usage{Horizon: 3 * provider.Year, Nodes: 4, BusyFraction: 0.6})
}

func BenchmarkReservedCharge(b *testing.B) {
	r := provider.Reserved{Term: provider.Year, UpfrontPerNode: usd("100000"), RecurringPerHour: usd("20.5")}
	benchmarkCharges(b, r, provider.Usage{Horizon: 13 * provider.Month, Nodes: 4})
}

// benchmarkParseCatalog measures ParseCatalog on data and reports offers/s.
func benchmarkParseCatalog(b *testing.B, data []byte) {
	b.Helper()
	c, err := provider.ParseCatalog(data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = provider.ParseCatalog(data)
	}
	b.ReportMetric(float64(b.N*len(c.Offers))/b.Elapsed().Seconds(), "offers/s")
}

// generatedCatalogJSON returns a valid catalog of n offers cycling through
// every built-in mode and setting.
func generatedCatalogJSON(b *testing.B, n int) []byte {
	b.Helper()
	pricings := builtinPricings()
	names := make([]string, 0, len(pricings))
	for name := range pricings {
		names = append(names, name)
	}
	sort.Strings(names)
	c := fullCatalog()
	c.Offers = nil
	for i := range n {
		o := validOffer(fmt.Sprintf("gen-%d", i))
		o.Pricing = pricings[names[i%len(names)]]
		c.Offers = append(c.Offers, o)
	}
	data, err := json.Marshal(c)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkParseDefaultCatalog decodes and validates the embedded default
// catalog (target ≤ 5 ms/op).
func BenchmarkParseDefaultCatalog(b *testing.B) {
	data := provider.DefaultJSON()
	if c, err := provider.ParseCatalog(data); err == nil && len(c.Offers) == 0 {
		b.Log("the default catalog has no offers yet; see BenchmarkParseCatalog30")
	}
	benchmarkParseCatalog(b, data)
}

func BenchmarkParseCatalog30(b *testing.B)  { benchmarkParseCatalog(b, generatedCatalogJSON(b, 30)) }
func BenchmarkParseCatalog300(b *testing.B) { benchmarkParseCatalog(b, generatedCatalogJSON(b, 300)) }
