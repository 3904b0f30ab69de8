package lp_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gputco/gputco/placement/lp"
)

// startKnapsack is a covering MILP with many equal-cost alternatives: 20
// items of weights 3..22 and costs weight+1, cover at least 100.
func startKnapsack(t *testing.T) *lp.Problem {
	t.Helper()
	var b lp.Builder
	var cols []int
	var ws []float64
	for i := range 20 {
		w := float64(3 + i)
		cols = append(cols, b.AddIntCol("", w+1, 0, 1))
		ws = append(ws, w)
	}
	b.AddRow("cover", 100, math.Inf(1), cols, ws)
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStartSeedsIncumbent: a feasible Start is the incumbent when the
// search may do one iteration; the optimum is the same with or without it;
// an infeasible Start is ignored; a Start of the wrong length is invalid.
func TestStartSeedsIncumbent(t *testing.T) {
	p := startKnapsack(t)
	ctx := context.Background()
	want, err := lp.Solve(ctx, p, lp.Options{})
	if err != nil || want.Status != lp.Optimal {
		t.Fatalf("plain solve: %v %v", want.Status, err)
	}
	// Every item: feasible, dear (sum of weights+1 = 270).
	all := make([]float64, p.NumCols())
	for j := range all {
		all[j] = 1
	}
	if r, _ := lp.Solve(ctx, p, lp.Options{IterationLimit: 1}); r.HasSolution() {
		t.Fatalf("one iteration without a start found %v: the case does not test the start", r.Objective)
	}
	r, _ := lp.Solve(ctx, p, lp.Options{Start: all, IterationLimit: 1})
	if !r.HasSolution() || r.Objective != 270 {
		t.Fatalf("with a start and one iteration: %v objective %v, want the start's 270", r.Status, r.Objective)
	}
	r, err = lp.Solve(ctx, p, lp.Options{Start: all})
	if err != nil || r.Status != lp.Optimal || math.Abs(r.Objective-want.Objective) > 1e-9 {
		t.Fatalf("with a start: %v %v %v, want optimal %v", r.Status, r.Objective, err, want.Objective)
	}
	// Nothing chosen covers nothing: ignored.
	none := make([]float64, p.NumCols())
	r, err = lp.Solve(ctx, p, lp.Options{Start: none})
	if err != nil || r.Status != lp.Optimal || math.Abs(r.Objective-want.Objective) > 1e-9 {
		t.Fatalf("with an infeasible start: %v %v %v, want optimal %v", r.Status, r.Objective, err, want.Objective)
	}
	if _, err := lp.Solve(ctx, p, lp.Options{Start: all[:3]}); !errors.Is(err, lp.ErrInvalid) {
		t.Fatalf("a start of 3 values: %v, want ErrInvalid", err)
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		bad := append([]float64(nil), all...)
		bad[4] = v
		if _, err := lp.Solve(ctx, p, lp.Options{Start: bad}); !errors.Is(err, lp.ErrInvalid) {
			t.Fatalf("a start with %v: %v, want ErrInvalid", v, err)
		}
	}
}

// TestStartNaNContinuous: a NaN in a continuous column of a start would
// pass every bound and row comparison and make a NaN incumbent; it is
// refused before the search.
func TestStartNaNContinuous(t *testing.T) {
	var b lp.Builder
	y := b.AddIntCol("y", 5, 0, 1)
	x := b.AddCol("x", 1, 0, 10)
	b.AddRow("link", math.Inf(-1), 0, []int{x, y}, []float64{1, -10})
	b.AddRow("need", 3, math.Inf(1), []int{x}, []float64{1})
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	r, err := lp.Solve(context.Background(), p, lp.Options{Start: []float64{1, math.NaN()}})
	if !errors.Is(err, lp.ErrInvalid) {
		t.Fatalf("start {1, NaN}: %v %v objective %v, want ErrInvalid", r.Status, err, r.Objective)
	}
}
