package lp

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gputco/gputco/internal/cputime"
)

// BenchmarkMIPMPS solves the MIP in the MPS file named by GPUTCO_LP_MPS
// (skipped without it) with Solve and reports its nodes and iterations,
// the node and the seconds at which the final incumbent appeared (from the
// progress callback: how late the heuristics find the solution the search
// ends with), the seconds of the whole solve (and of process CPU time) and the
// final gap.
// GPUTCO_LP_TIME, a Go duration, sets a time limit (none without it): the
// solve may then end on it, with the gap reached.
//
//	GPUTCO_LP_MPS=/tmp/seed3.mps go test ./placement/lp -run '^$' -bench MIPMPS -benchtime 1x
//	GPUTCO_LP_MPS=/tmp/ps.mps GPUTCO_LP_TIME=60s go test ./placement/lp -run '^$' -bench MIPMPS -benchtime 1x
func BenchmarkMIPMPS(b *testing.B) {
	p := mpsFromEnv(b)
	var limit time.Duration
	if s := os.Getenv("GPUTCO_LP_TIME"); s != "" {
		var err error
		if limit, err = time.ParseDuration(s); err != nil || limit <= 0 {
			b.Fatalf("GPUTCO_LP_TIME=%q: not a positive duration", s)
		}
	}
	var res Result
	var incNode int
	var incAt time.Duration
	cpu := cputime.Process()
	for b.Loop() {
		last := 0.0
		incNode, incAt = 0, 0
		opt := Options{TimeLimit: limit, Progress: func(pr Progress) {
			if pr.Incumbent != last {
				last, incNode, incAt = pr.Incumbent, pr.Nodes, pr.Elapsed
			}
		}}
		var err error
		res, err = Solve(context.Background(), p, opt)
		if err != nil {
			b.Fatal(err)
		}
		if res.Status != Optimal && (limit == 0 || res.Status != TimeLimit) {
			b.Fatalf("status %v", res.Status)
		}
	}
	b.ReportMetric(float64(res.Nodes), "nodes")
	b.ReportMetric(float64(res.Iterations), "iters")
	b.ReportMetric(float64(incNode), "incumbent-node")
	b.ReportMetric(incAt.Seconds(), "incumbent-s")
	b.ReportMetric(res.Elapsed.Seconds(), "solve-s")
	b.ReportMetric(100*res.Gap, "gap-%")
	b.ReportMetric((cputime.Process()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	b.Logf("%s: %v, objective %.10g, bound %.10g", os.Getenv("GPUTCO_LP_MPS"), res.Status, res.Objective, res.Bound)
}
