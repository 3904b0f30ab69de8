package lp

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// tieringSpec describes a seeded GPU capacity-tiering LP (the benchmark
// model of lp-bench.md §2): T hourly slices of diurnal demand, K offers
// (on-demand, spot, reserved, owned) with stock limits, and optionally 3
// compliance classes sharing the offers.
type tieringSpec struct {
	T, K    int
	Classes int // 1 or 3
	Seed    uint64
}

func (s tieringSpec) String() string {
	if s.Classes > 1 {
		return fmt.Sprintf("T%d_K%d_classes%d", s.T, s.K, s.Classes)
	}
	return fmt.Sprintf("T%d_K%d", s.T, s.K)
}

// tieringLP builds the model:
//
//	min  Σ_k F_k·cap_k + Σ_{k,j,t} v_k·use_{k,j,t}
//	s.t. Σ_k use_{k,j,t} ≥ d_{j,t}                 (demand of class j at t)
//	     Σ_j use_{k,j,t} − cap_k ≤ 0              (offer k with a cap, each t)
//	     0 ≤ cap_k ≤ Limit_k, use ≥ 0
//
// Offer 0 (one per region with classes) is unlimited on-demand and has no
// cap variable. Class 0 may use every offer, class j only offers in
// regions below j (plus its own region's unlimited on-demand offer).
func tieringLP(spec tieringSpec) *Problem {
	rng := rand.New(rand.NewPCG(spec.Seed, 0x74696572696e67))
	unif := func(a, b float64) float64 { return a + (b-a)*rng.Float64() }
	H := float64(spec.T)
	type offer struct {
		fixed, variable, limit float64 // limit 0: unlimited, no cap
		region                 int
	}
	regions := 1
	if spec.Classes > 1 {
		regions = spec.Classes
	}
	var offers []offer
	for r := 0; r < regions && len(offers) < spec.K; r++ {
		offers = append(offers, offer{0, unif(3.6, 4.4), 0, r})
	}
	stock := 0.0
	for len(offers) < spec.K {
		o := offer{region: rng.IntN(regions)}
		switch u := rng.Float64(); {
		case u < 0.15:
			o.variable, o.limit = unif(3.6, 4.4), math.Round(unif(100, 400))
		case u < 0.30:
			o.variable, o.limit = unif(1.3, 2.2), math.Round(unif(50, 250))
		case u < 0.75:
			o.fixed, o.variable, o.limit = unif(1.6, 2.6)*H, unif(0, 0.1), math.Round(unif(100, 600))
		default:
			o.fixed, o.variable, o.limit = unif(0.9, 1.4)*H, unif(0.25, 0.45), math.Round(unif(50, 400))
		}
		stock += o.limit
		offers = append(offers, o)
	}
	classes := max(spec.Classes, 1)
	share := []float64{1}
	if classes == 3 {
		share = []float64{0.5, 0.3, 0.2}
	}
	scale := 0.6 * max(stock, 100)
	var b Builder
	capCol := make([]int, len(offers))
	for k, o := range offers {
		capCol[k] = -1
		if o.limit > 0 {
			capCol[k] = b.AddCol(fmt.Sprintf("cap_%d", k), o.fixed, 0, o.limit)
		}
	}
	allowed := func(k, j int) bool {
		o := offers[k]
		if o.limit == 0 {
			return o.region == j || classes == 1 || j == 0
		}
		return j == 0 || o.region < j
	}
	for t := 0; t < spec.T; t++ {
		day := float64(t%168) / 24
		level := 1 + 0.25*math.Sin(2*math.Pi*float64(t)/24)
		if day >= 5 {
			level *= 0.8
		}
		level *= 1 + 0.1*float64(t)/H
		level *= 1 + 0.03*rng.NormFloat64()
		use := make([][]int, len(offers))
		for j := 0; j < classes; j++ {
			d := math.Round(scale * share[j] * level)
			var cols []int
			var vals []float64
			for k, o := range offers {
				if !allowed(k, j) {
					continue
				}
				c := b.AddCol(fmt.Sprintf("use_%d_%d_%d", k, j, t), o.variable, 0, math.Inf(1))
				use[k] = append(use[k], c)
				cols = append(cols, c)
				vals = append(vals, 1)
			}
			b.AddRow(fmt.Sprintf("demand_%d_%d", j, t), d, math.Inf(1), cols, vals)
		}
		for k := range offers {
			if capCol[k] < 0 || len(use[k]) == 0 {
				continue
			}
			cols := append([]int{capCol[k]}, use[k]...)
			vals := make([]float64, len(cols))
			vals[0] = -1
			for i := 1; i < len(vals); i++ {
				vals[i] = 1
			}
			b.AddRow(fmt.Sprintf("link_%d_%d", k, t), math.Inf(-1), 0, cols, vals)
		}
	}
	b.SetName(spec.String())
	p, err := b.Problem()
	if err != nil {
		panic(err) // the generator builds valid problems
	}
	return p
}

// TestTiering solves small tiering LPs, single pool and with classes, and
// certifies them.
func TestTiering(t *testing.T) {
	specs := []tieringSpec{{24, 5, 1, 1}, {24, 10, 1, 2}, {48, 8, 3, 1}, {72, 12, 3, 3}}
	if !testing.Short() && !raceEnabled {
		specs = append(specs, tieringSpec{168, 20, 1, 1}, tieringSpec{168, 20, 3, 1})
	}
	for _, spec := range specs {
		p := tieringLP(spec)
		res, err := Solve(context.Background(), p, Options{})
		if err != nil {
			t.Errorf("%v: %v", spec, err)
			continue
		}
		if res.Status != Optimal {
			t.Errorf("%v: status %v", spec, res.Status)
			continue
		}
		if err := res.Verify(p, certTol); err != nil {
			t.Errorf("%v: %v", spec, err)
		}
		t.Logf("%v: %d×%d, objective %.6f, %d iterations, %v", spec, p.NumRows(), p.NumCols(), res.Objective, res.Iterations, res.Elapsed)
	}
}

// benchTiering solves the tiering LP of spec once per loop.
func benchTiering(b *testing.B, spec tieringSpec) {
	p := tieringLP(spec)
	b.ReportAllocs()
	var res Result
	for b.Loop() {
		var err error
		res, err = Solve(context.Background(), p, Options{})
		if err != nil || res.Status != Optimal {
			b.Fatalf("%v: %v %v", spec, res.Status, err)
		}
	}
	b.ReportMetric(float64(res.Iterations), "iterations")
	b.ReportMetric(float64(p.NumRows()), "rows")
}

func BenchmarkTiering(b *testing.B) {
	for _, spec := range []tieringSpec{
		{168, 50, 1, 1}, {720, 50, 1, 1}, {168, 50, 3, 1}, {720, 50, 3, 1},
	} {
		b.Run(spec.String(), func(b *testing.B) { benchTiering(b, spec) })
	}
}

// BenchmarkTieringLarge is the (720, 200) model: 144 k rows.
func BenchmarkTieringLarge(b *testing.B) {
	for _, spec := range []tieringSpec{{720, 200, 1, 1}, {720, 200, 3, 1}} {
		b.Run(spec.String(), func(b *testing.B) { benchTiering(b, spec) })
	}
}

// BenchmarkTieringCLP runs `clp FILE -dualsimplex` on the models of
// BenchmarkTiering (written as free MPS; wall time with process start and
// parsing), the peer figures. Skipped when clp is not installed.
func BenchmarkTieringCLP(b *testing.B) {
	clp, err := exec.LookPath("clp")
	if err != nil {
		b.Skip("clp not installed")
	}
	dir := b.TempDir()
	for _, spec := range []tieringSpec{
		{168, 50, 1, 1}, {720, 50, 1, 1}, {168, 50, 3, 1}, {720, 50, 3, 1}, {720, 200, 1, 1}, {720, 200, 3, 1},
	} {
		p := tieringLP(spec)
		file := filepath.Join(dir, spec.String()+".mps")
		var buf bytes.Buffer
		if err := WriteMPS(&buf, p); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(spec.String(), func(b *testing.B) {
			for b.Loop() {
				out, err := exec.Command(clp, file, "-dualsimplex").CombinedOutput()
				if err != nil || !bytes.Contains(out, []byte("Optimal objective")) {
					b.Fatalf("%v: clp: %v\n%s", spec, err, out)
				}
			}
		})
	}
}
