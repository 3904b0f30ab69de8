package lp

import (
	"context"
	"os"
	"testing"
	"time"
)

// BenchmarkMIPMPS solves the MIP in the MPS file named by GPUTCO_LP_MPS
// (skipped without it) with Solve and reports its nodes and iterations,
// the node and the seconds at which the final incumbent appeared (from the
// progress callback: how late the heuristics find the solution the search
// ends with), and the seconds of the whole solve.
//
//	GPUTCO_LP_MPS=/tmp/seed3.mps go test ./placement/lp -run '^$' -bench MIPMPS -benchtime 1x
func BenchmarkMIPMPS(b *testing.B) {
	p := mpsFromEnv(b)
	var res Result
	var incNode int
	var incAt time.Duration
	for b.Loop() {
		last := 0.0
		incNode, incAt = 0, 0
		opt := Options{Progress: func(pr Progress) {
			if pr.Incumbent != last {
				last, incNode, incAt = pr.Incumbent, pr.Nodes, pr.Elapsed
			}
		}}
		var err error
		res, err = Solve(context.Background(), p, opt)
		if err != nil {
			b.Fatal(err)
		}
		if res.Status != Optimal {
			b.Fatalf("status %v", res.Status)
		}
	}
	b.ReportMetric(float64(res.Nodes), "nodes")
	b.ReportMetric(float64(res.Iterations), "iters")
	b.ReportMetric(float64(incNode), "incumbent-node")
	b.ReportMetric(incAt.Seconds(), "incumbent-s")
	b.ReportMetric(res.Elapsed.Seconds(), "solve-s")
	b.Logf("%s: objective %.10g", os.Getenv("GPUTCO_LP_MPS"), res.Objective)
}
