package lp

import (
	"context"
	"math"
	"os"
	"testing"
	"time"

	"github.com/gputco/gputco/internal/cputime"
)

// BenchmarkRelaxationMPS solves the LP relaxation of the model in the MPS
// file named by GPUTCO_LP_MPS (skipped without it) from the slack basis,
// then re-solves it warm after each of the first three branchings of
// branch-and-bound would make on a fractional integer column (its upper
// bound lowered to the floor, as for a down child), back to the root
// bounds in between. It reports the root's iterations, milliseconds and
// microseconds per iteration (wall and CPU time), and the warm re-solves' mean iterations and
// milliseconds: the two costs of the LP inside branch-and-bound on models
// exported by placement.WriteMPS.
//
//	GPUTCO_LP_MPS=/tmp/S11.mps go test ./placement/lp -run '^$' -bench RelaxationMPS -benchtime 1x
func BenchmarkRelaxationMPS(b *testing.B) {
	p := mpsFromEnv(b)
	integer := p.Integer
	p.Integer = nil
	b.ReportAllocs()
	var rootIters, warmIters, warmN int
	var rootTime, rootCPU, warmTime time.Duration
	for b.Loop() {
		mdl, err := newLPModel(p)
		if err != nil {
			b.Fatal(err)
		}
		t0, c0 := time.Now(), cputime.Process()
		st, err := mdl.solve(context.Background(), lpLimits{})
		rootTime, rootCPU = time.Since(t0), cputime.Process()-c0
		if st != Optimal || err != nil {
			b.Fatalf("root: %v %v", st, err)
		}
		res := mdl.result(st)
		if err := res.Verify(p, 1e-6); err != nil {
			b.Fatalf("root certificate: %v", err)
		}
		rootIters = mdl.lastIter
		warmIters, warmN, warmTime = 0, 0, 0
		for j := range p.Cost {
			if integer == nil || !integer[j] {
				continue
			}
			if f := res.X[j] - math.Floor(res.X[j]); f < 0.2 || f > 0.8 {
				continue
			}
			lo, up := mdl.colBounds(j)
			mdl.setColBounds(j, lo, math.Floor(res.X[j]))
			t0 := time.Now()
			st, err := mdl.resolve(context.Background(), lpLimits{})
			warmTime += time.Since(t0)
			if err != nil || (st != Optimal && st != Infeasible) {
				b.Fatalf("warm re-solve: %v %v", st, err)
			}
			warmIters += mdl.lastIter
			mdl.setColBounds(j, lo, up)
			if st, err := mdl.resolve(context.Background(), lpLimits{}); st != Optimal || err != nil {
				b.Fatalf("back to the root: %v %v", st, err)
			}
			if warmN++; warmN == 3 {
				break
			}
		}
	}
	b.ReportMetric(float64(rootIters), "root-iters")
	b.ReportMetric(rootTime.Seconds()*1e3, "root-ms")
	if rootIters > 0 {
		b.ReportMetric(rootTime.Seconds()*1e6/float64(rootIters), "root-µs/iter")
		b.ReportMetric(rootCPU.Seconds()*1e6/float64(rootIters), "root-cpu-µs/iter")
	}
	if warmN > 0 {
		b.ReportMetric(float64(warmIters)/float64(warmN), "warm-iters")
		b.ReportMetric(warmTime.Seconds()*1e3/float64(warmN), "warm-ms")
	}
}

// mpsFromEnv reads the MPS file that GPUTCO_LP_MPS names, and skips the
// benchmark without one.
func mpsFromEnv(b *testing.B) *Problem {
	b.Helper()
	file := os.Getenv("GPUTCO_LP_MPS")
	if file == "" {
		b.Skip("GPUTCO_LP_MPS names no MPS file")
	}
	p, err := ReadMPSFile(file)
	if err != nil {
		b.Fatal(err)
	}
	return p
}
