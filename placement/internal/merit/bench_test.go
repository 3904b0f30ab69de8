package merit

import (
	"context"
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
	loop(b, func() error { _, err := SolveNodes(context.Background(), p, NodeOptions{}); return err })
}

func benchScreen(b *testing.B, t, k int) {
	p := benchInstance(t, k, 1, true)
	loop(b, func() error { _, err := Screen(p); return err })
}

// benchCOIN times CLP's dual simplex, or CBC, on the full LP file of the
// same instance (process start and parsing included) and reports the
// ratios of its wall and CPU time to the DP's, measured in the same run.
func benchCOIN(b *testing.B, t, k int, useCBC bool) {
	bin, args := clpPath(b), []string{"-dualsimplex", "-solution"}
	if useCBC {
		bin, args = cbcPath(b), []string{"solve", "solution"}
	}
	p := benchInstance(t, k, 1, true)
	path := filepath.Join(b.TempDir(), fmt.Sprintf("t%d_k%d.lp", t, k))
	coef := writeLP(b, p, path)
	const runs = 20
	cpu0, _ := processCPU()
	start := time.Now()
	for range runs {
		if _, err := Solve(p); err != nil {
			b.Fatal(err)
		}
	}
	dpWall := time.Since(start) / runs
	cpu1, _ := processCPU()
	dpCPU := (cpu1 - cpu0) / runs
	s, _ := Solve(p)
	var wall, cpu time.Duration
	for b.Loop() {
		_, obj, w, c := runCOIN(b, path, coef, bin, append([]string{path}, append(args, path+".sol")...)...)
		wall += w
		cpu += c
		if !relClose(obj, s.CostTotal, 1e-6) {
			b.Fatalf("%s %.12g, DP %.12g", bin, obj, s.CostTotal)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(dpWall.Nanoseconds())/1e6, "dp-ms")
	b.ReportMetric(float64(dpCPU.Nanoseconds())/1e6, "dp-cpu-ms")
	b.ReportMetric(float64(cpu.Nanoseconds())/n/1e6, "solver-cpu-ms")
	b.ReportMetric(float64(wall.Nanoseconds())/n/float64(dpWall.Nanoseconds()), "wall-ratio")
	if dpCPU > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/n/float64(dpCPU.Nanoseconds()), "cpu-ratio")
	}
}

func BenchmarkSolve24x5(b *testing.B)            { benchSolve(b, 24, 5, true) }
func BenchmarkSolve168x50(b *testing.B)          { benchSolve(b, 168, 50, true) }
func BenchmarkSolve720x20(b *testing.B)          { benchSolve(b, 720, 20, true) }
func BenchmarkSolve720x200(b *testing.B)         { benchSolve(b, 720, 200, true) }
func BenchmarkSolve720x200NoLimits(b *testing.B) { benchSolve(b, 720, 200, false) }
func BenchmarkNodes720x200(b *testing.B)         { benchNodes(b, 720, 200, []float64{8}) }
func BenchmarkNodesMixed720x200(b *testing.B)    { benchNodes(b, 720, 200, []float64{4, 8}) }
func BenchmarkScreen720x200(b *testing.B)        { benchScreen(b, 720, 200) }
func BenchmarkCLP168x50(b *testing.B)            { benchCOIN(b, 168, 50, false) }
func BenchmarkCLP720x200(b *testing.B)           { benchCOIN(b, 720, 200, false) }
func BenchmarkCBC720x200(b *testing.B)           { benchCOIN(b, 720, 200, true) }

// BenchmarkStockSavings720x200: the exact saving of one more 8-GPU node of
// every offer's stock, after one Solve; reports how many re-solves it took.
func BenchmarkStockSavings720x200(b *testing.B) {
	p := benchInstance(720, 200, 1, true)
	s, err := Solve(p)
	if err != nil {
		b.Fatal(err)
	}
	extra := make([]float64, len(p.Offers))
	resolves := 0
	for k := range extra {
		extra[k] = 8
		if s.StockValue[k] > 0 {
			resolves++
		}
	}
	loop(b, func() error { _, err := StockSavings(p, s, extra); return err })
	b.ReportMetric(float64(resolves), "resolves")
}
