package placement_test

import (
	"testing"
	"time"

	"github.com/gputco/gputco/internal/cputime"
	"github.com/gputco/gputco/placement"
)

// benchModel builds p's model (placement.Model: the workloads sampled and
// priced by tco, the MILP assembled) without solving it, and reports the
// CPU time per build: the cost-model side of a solve's time.
func benchModel(b *testing.B, p placement.Problem) {
	b.ReportAllocs()
	var rows, cols int
	cpu := cputime.Process()
	for b.Loop() {
		m, err := placement.Model(p)
		if err != nil {
			b.Fatal(err)
		}
		rows, cols = len(m.RowLower), len(m.Cost)
	}
	b.ReportMetric((cputime.Process()-cpu).Seconds()*1e3/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(rows), "rows")
	b.ReportMetric(float64(cols), "cols")
}

// BenchmarkModelPortfolioS builds BenchmarkPortfolioS's model.
func BenchmarkModelPortfolioS(b *testing.B) {
	benchModel(b, limited(realistic(b, 1, 50, 40, 168), 300*time.Second))
}

// BenchmarkModelOverTimeS builds BenchmarkOverTimeS's model.
func BenchmarkModelOverTimeS(b *testing.B) {
	benchModel(b, limited(overTime(b, 1, 50, 10, 40), 120*time.Second))
}

// BenchmarkModelPortfolioM builds BenchmarkPortfolioM's model.
func BenchmarkModelPortfolioM(b *testing.B) {
	benchModel(b, limited(realistic(b, 2, 300, 150, 168), 300*time.Second))
}

// BenchmarkModelOverTimeM builds BenchmarkOverTimeM's model.
func BenchmarkModelOverTimeM(b *testing.B) {
	benchModel(b, limited(overTime(b, 2, 300, 50, 150), 120*time.Second))
}

// BenchmarkModelPortfolioL builds the model of the L portfolio
// (1,000 workloads × 400 offers × 168 slices), which BenchmarkPortfolioL
// solves.
func BenchmarkModelPortfolioL(b *testing.B) {
	benchModel(b, portfolioL(b))
}
