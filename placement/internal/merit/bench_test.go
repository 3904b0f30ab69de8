package merit

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// loop runs f under b.Loop and reports solves/s and the process CPU time
// per solve (cpu-ms/op: stable when other processes share the machine).
func loop(b *testing.B, f func() error) {
	b.ReportAllocs()
	cpu0, ok := processCPU()
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "solves/s")
	if cpu1, ok1 := processCPU(); ok && ok1 {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/1e6/float64(b.N), "cpu-ms/op")
	}
}

func benchSolve(b *testing.B, t, k int, limits bool) {
	p := benchInstance(t, k, 1, limits)
	loop(b, func() error { _, err := Solve(p); return err })
}

func benchNodes(b *testing.B, t, k int, sizes []float64) {
	p := withNodes(benchInstance(t, k, 1, true), 1, sizes)
	loop(b, func() error { _, err := SolveNodes(p, NodeOptions{}); return err })
}

func benchScreen(b *testing.B, t, k int) {
	p := benchInstance(t, k, 1, true)
	loop(b, func() error { _, err := Screen(p); return err })
}

// benchCLP times CLP's dual simplex on the full LP file of the same
// instance (process start and parsing included) and reports its ratio to
// the DP's time measured in the same run.
func benchCLP(b *testing.B, t, k int) {
	clp := clpPath(b)
	p := benchInstance(t, k, 1, true)
	path := filepath.Join(b.TempDir(), fmt.Sprintf("t%d_k%d.lp", t, k))
	coef := writeLP(b, p, path)
	const runs = 20
	start := time.Now()
	for range runs {
		if _, err := Solve(p); err != nil {
			b.Fatal(err)
		}
	}
	dp := time.Since(start) / runs
	s, _ := Solve(p)
	var wall time.Duration
	for b.Loop() {
		_, obj, w := runCLP(b, clp, path, coef)
		wall += w
		if !relClose(obj, s.CostTotal, 1e-6) {
			b.Fatalf("clp %.12g, DP %.12g", obj, s.CostTotal)
		}
	}
	b.ReportMetric(float64(dp.Nanoseconds())/1e6, "dp-ms")
	b.ReportMetric(float64(wall.Nanoseconds())/float64(b.N)/float64(dp.Nanoseconds()), "clp/dp")
}

func BenchmarkSolve24x5(b *testing.B)            { benchSolve(b, 24, 5, true) }
func BenchmarkSolve168x50(b *testing.B)          { benchSolve(b, 168, 50, true) }
func BenchmarkSolve720x20(b *testing.B)          { benchSolve(b, 720, 20, true) }
func BenchmarkSolve720x200(b *testing.B)         { benchSolve(b, 720, 200, true) }
func BenchmarkSolve720x200NoLimits(b *testing.B) { benchSolve(b, 720, 200, false) }
func BenchmarkNodes720x200(b *testing.B)         { benchNodes(b, 720, 200, []float64{8}) }
func BenchmarkNodesMixed720x200(b *testing.B)    { benchNodes(b, 720, 200, []float64{4, 8}) }
func BenchmarkScreen720x200(b *testing.B)        { benchScreen(b, 720, 200) }
func BenchmarkCLP168x50(b *testing.B)            { benchCLP(b, 168, 50) }
func BenchmarkCLP720x200(b *testing.B)           { benchCLP(b, 720, 200) }
