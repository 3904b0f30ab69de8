package lp

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// netlibShort are the instances of the -short and -race passes.
var netlibShort = []string{"afiro", "adlittle", "sc205", "share2b", "scagr7", "recipe", "stocfor2"}

// netlibSlowest are the instances the built-in solver takes longest on,
// slowest first (≈ 30, 8, 4 and 3 s on a quiet machine).
var netlibSlowest = []string{"pilot87", "maros-r7", "pilot", "greenbeb"}

// slowestFirst returns names with those of slowest that it holds moved to
// the front, in slowest's order; the others keep their order.
func slowestFirst(names, slowest []string) []string {
	in := map[string]bool{}
	for _, n := range names {
		in[n] = true
	}
	var out []string
	for _, n := range slowest {
		if in[n] {
			out = append(out, n)
			delete(in, n)
		}
	}
	for _, n := range names {
		if in[n] {
			out = append(out, n)
		}
	}
	return out
}

// TestNetlib solves every netlib instance of testdata (a few in -short mode
// and under the race detector), certifies each answer with Verify and
// compares the objective with the published optimum to 1e-6 relative. A
// failing instance is reported by name. Each instance is a subtest; they
// run in parallel, the slowest first (pilot87 alone takes half of the
// suite's time), so that the others share the other core.
func TestNetlib(t *testing.T) {
	names, optimum := testInstances(t, "netlib")
	if testing.Short() || raceEnabled {
		names = netlibShort
	}
	names = slowestFirst(names, netlibSlowest)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, ok := optimum[name]
			if !ok {
				t.Fatalf("%s: no published optimum", name)
			}
			p, err := ReadMPSFile(filepath.Join("testdata", "netlib", name+".mps.gz"))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			res, err := Solve(context.Background(), p, Options{})
			switch {
			case err != nil:
				t.Errorf("%s: %v", name, err)
			case res.Status != Optimal:
				t.Errorf("%s: status %v after %d iterations", name, res.Status, res.Iterations)
			case math.Abs(res.Objective-want) > 1e-6*math.Max(1, math.Abs(want)):
				t.Errorf("%s: objective %.10g, published optimum %.10g", name, res.Objective, want)
			default:
				if err := res.Verify(p, certTol); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
			t.Logf("%-9s %5d×%-5d %-8v %.10g  %6d iterations  %v", name, p.NumRows(), p.NumCols(), res.Status, res.Objective, res.Iterations, res.Elapsed)
		})
	}
}

// BenchmarkNetlib solves each netlib instance per loop (sub-benchmark per
// instance), reporting its iterations.
func BenchmarkNetlib(b *testing.B) {
	names, _ := testInstances(b, "netlib")
	for _, name := range names {
		p, err := ReadMPSFile(filepath.Join("testdata", "netlib", name+".mps.gz"))
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var res Result
			for b.Loop() {
				res, err = Solve(context.Background(), p, Options{})
				if err != nil || res.Status != Optimal {
					b.Fatalf("%s: %v %v", name, res.Status, err)
				}
			}
			b.ReportMetric(float64(res.Iterations), "iterations")
		})
	}
}

// BenchmarkNetlibCLP runs `clp FILE -dualsimplex` on each instance (wall
// time, process start and MPS parsing included), the peer of
// BenchmarkNetlib. It is skipped when clp is not installed.
func BenchmarkNetlibCLP(b *testing.B) {
	clp, err := exec.LookPath("clp")
	if err != nil {
		b.Skip("clp not installed")
	}
	names, _ := testInstances(b, "netlib")
	dir := b.TempDir()
	for _, name := range names {
		file := filepath.Join(dir, name+".mps")
		if err := gunzipFile(filepath.Join("testdata", "netlib", name+".mps.gz"), file); err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				out, err := exec.Command(clp, file, "-dualsimplex").CombinedOutput()
				if err != nil || !bytes.Contains(out, []byte("Optimal objective")) {
					b.Fatalf("%s: clp: %v\n%s", name, err, out)
				}
			}
		})
	}
}

// gunzipFile decompresses src into dst.
func gunzipFile(src, dst string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
