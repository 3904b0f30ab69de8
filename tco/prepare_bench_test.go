package tco_test

import (
	"testing"
	"time"

	"github.com/gputco/gputco/internal/cputime"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// BenchmarkPrepareGrowingService prepares a service as placement does over
// three yearly epochs: a diurnal curve growing 35 % a year (compound, not
// periodic, so sampled over the whole horizon) at hourly slices — 26,280
// slices of twelve five-minute sub-samples.
func BenchmarkPrepareGrowingService(b *testing.B) {
	d, err := workload.NewDiurnal(0.55, 0.3, 14)
	if err != nil {
		b.Fatal(err)
	}
	h := 3 * provider.Year
	w := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 64, Horizon: h,
		Demand: workload.Growth{Base: workload.Scale{Curve: d, Factor: 1 / 2.46}, RatePerYear: 0.35, Compound: true}}
	a := tco.Assumptions{Horizon: h, Step: time.Hour}
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		if _, err := tco.Prepare(w, a); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start, float64(b.N), "op")
}
