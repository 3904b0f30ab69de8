package placement_test

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"runtime"
	"testing"

	"github.com/gputco/gputco/placement"
)

// onProcs calls f with GOMAXPROCS set to procs, then sets it back.
func onProcs(procs int, f func()) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	f()
}

// TestGoroutinesChangeNothing: the work Solve spreads over GOMAXPROCS
// goroutines — each workload's terms, a batch of workloads at a time; the
// matrix's fill, a range of columns each; the priced bound (each step of
// the price ascent), in chunks of columns and of rows; the runners-up —
// gives the same model, the same bound and the same plan on one goroutine
// as on four. Both portfolios have more workloads than a batch; the
// first, whose model and bound are compared, more columns and rows than
// the fill and the bound split (1 s; a minute under the race detector,
// whose pass, -short, takes the plan alone: TestColBuilder races the
// fill's split). Not parallel: it sets GOMAXPROCS.
func TestGoroutinesChangeNothing(t *testing.T) {
	if !testing.Short() {
		sameModels(t, realistic(t, 5, 100, 80, 168))
	}
	p := realistic(t, 6, 70, 12, 12)
	p.Options.NodeLimit, p.Options.Gap = 1, 0.02
	var j [2][]byte
	for i, procs := range []int{1, 4} {
		onProcs(procs, func() {
			plan, err := placement.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Assignments) == 0 {
				t.Fatalf("nothing placed: the case tests nothing")
			}
			plan.Stats.Elapsed, plan.Stats.FirstPlan = 0, 0
			if j[i], err = plan.MarshalJSON(); err != nil {
				t.Fatal(err)
			}
		})
	}
	if !bytes.Equal(j[0], j[1]) {
		t.Errorf("the plan on one goroutine differs from the plan on four")
	}
}

// sameModels checks that p's model and priced bounds are the same on one
// goroutine as on four, its first pool wide enough to split.
func sameModels(t *testing.T, p placement.Problem) {
	t.Helper()
	var m [2]any
	var b [2][]float64
	var cols, rows []int
	for i, procs := range []int{1, 4} {
		onProcs(procs, func() {
			var err error
			if m[i], err = placement.Model(p); err != nil {
				t.Fatal(err)
			}
			if b[i], cols, rows, err = placement.PricedBounds(p); err != nil {
				t.Fatal(err)
			}
		})
	}
	if len(b[0]) == 0 || cols[0] < 2*(1<<16) || rows[0] < 2*(1<<13) {
		t.Fatalf("bounds %v, columns %v, rows %v: want a pool wide enough to split", b[0], cols, rows)
	}
	if !reflect.DeepEqual(m[0], m[1]) {
		t.Errorf("the model on one goroutine differs from the model on four")
	}
	for i := range b[0] {
		if math.Float64bits(b[0][i]) != math.Float64bits(b[1][i]) {
			t.Errorf("pool %d: the priced bound %.12g on one goroutine, %.12g on four", i, b[0][i], b[1][i])
		}
	}
}
