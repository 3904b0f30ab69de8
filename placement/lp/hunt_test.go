package lp

import (
	"context"
	"math"
	"testing"
)

// rayNoiseProblem is rapid's minimised case of TestLPProperties whose
// unbounded ray has 8.3e-17 (1.9e-16 of its largest entry) on the free
// column x8, alone in row R1 ≤ 0.
func rayNoiseProblem() *Problem {
	inf := math.Inf(1)
	return &Problem{Cost: []float64{0, 0, 0, 0, 0, 1, 0, 0, 0},
		ColLower: []float64{0, 0, 0, 0, -inf, -inf, 0, 0, -inf}, ColUpper: []float64{inf, inf, inf, inf, 0, 0, inf, inf, inf},
		RowLower: []float64{-inf, -inf, 9, 0, -inf}, RowUpper: []float64{0, 0, inf, inf, 0},
		A: Matrix{Rows: 5, Cols: 9, Start: []int{0, 2, 2, 2, 2, 5, 8, 8, 8, 11}, Index: []int32{1, 4, 0, 2, 4, 0, 2, 4, 1, 2, 4},
			Value: []float64{3, 3, 2, -1, 2, -1, -4, -1, 1, 1, 1}}}
}

// TestRayNoise: Verify takes an unbounded ray's entries within 64 ulps of
// its largest as rounding noise (0), as it does a Farkas ray's: the ray
// Solve proves on rayNoiseProblem failed "row R1 increases (8.3e-17) but
// has upper bound 0" (TestLPProperties and TestReview3BadScaling found
// two such). An entry of 1e-10 of the largest is no noise and still fails.
func TestRayNoise(t *testing.T) {
	p := rayNoiseProblem()
	r, err := Solve(context.Background(), p, Options{})
	if err != nil || r.Status != Unbounded {
		t.Fatalf("Solve: %v, %v; want unbounded", r.Status, err)
	}
	if err := r.Verify(p, certTol); err != nil {
		t.Fatalf("Solve's ray %v: %v", r.Ray, err)
	}
	ray := []float64{0, 0, 0, 0, -0.22222222222222224, -0.4444444444444444, 0, 0, 8.326672684688674e-17}
	noisy := Result{Status: Unbounded, Ray: ray}
	if err := noisy.Verify(p, certTol); err != nil {
		t.Fatalf("ray with noise %v: %v", ray, err)
	}
	ray = append([]float64(nil), ray...)
	ray[8] = 0.4444444444444444 * 1e-10
	if err := (&Result{Status: Unbounded, Ray: ray}).Verify(p, 1e-12); err == nil {
		t.Fatalf("ray %v moving R1 above its bound by 1e-10 of its largest entry passed", ray)
	}
}

// TestRayNoiseCancels: the unbounded ray Solve proved for rapid's
// badly scaled LP of TestReview3BadScaling (min 0.5·x4, three equality
// rows at 0, all columns free) has entries 3.6e-17 on x0 and −3.6e-14 on
// x2, which cancel in R2 = 10·x0 + 0.01·x2 up to rounding. Taking the
// first as noise (0) and not the second made R2 "decrease (−3.6e-16)";
// both are within the noise a row of such coefficients may carry.
func TestRayNoiseCancels(t *testing.T) {
	inf := math.Inf(1)
	p := &Problem{Cost: []float64{0, 0, 0, 0, 0.5},
		ColLower: []float64{-inf, -inf, -inf, -inf, -inf}, ColUpper: []float64{inf, inf, inf, inf, inf},
		RowLower: []float64{0, 0, 0}, RowUpper: []float64{0, 0, 0},
		A: Matrix{Rows: 3, Cols: 5, Start: []int{0, 2, 4, 5, 5, 7}, Index: []int32{1, 2, 0, 1, 2, 0, 1},
			Value: []float64{100, 10, -2, -200, 0.01, -0.30000000000000004, -30}}}
	r := Result{Status: Unbounded, Ray: []float64{3.552713678800501e-17, 0.125, -3.552713678800501e-14, 0, -0.8333333333333333}}
	if err := r.Verify(p, 1e-6); err != nil {
		t.Fatalf("ray %v: %v", r.Ray, err)
	}
	s, err := Solve(context.Background(), p, Options{})
	if err != nil || s.Status != Unbounded {
		t.Fatalf("Solve: %v, %v; want unbounded", s.Status, err)
	}
	if err := s.Verify(p, 1e-6); err != nil {
		t.Fatalf("Solve's ray %v: %v", s.Ray, err)
	}
	// A violation above the noise still fails: x2 at −1e-9 moves R2.
	r.Ray[2] = -1e-9
	if err := r.Verify(p, 1e-12); err == nil {
		t.Fatalf("ray %v moving R2 below 0 passed", r.Ray)
	}
}

// TestWarmOptimalBasisNoIteration is rapid's minimised case of
// TestBoundChangeResolve: an LP with alternative optima is solved, a
// column's bound tightened and the LP re-solved (the same optimum, another
// vertex), then the bound and the first optimal basis restored. The
// re-solve from that basis must take no iteration: it took one, as the
// cost perturbation of the dual simplex, applied before checking that the
// start is optimal, moved it to another optimal vertex.
func TestWarmOptimalBasisNoIteration(t *testing.T) {
	inf := math.Inf(1)
	var b Builder
	for _, c := range [][3]float64{{-2, inf, 0}, {0, inf, -2}, {0, inf, 0}, {0, inf, 0}, {-inf, 1, 2}, {-2, inf, 3}, {0, inf, 0}, {-inf, 3, 0}, {0, inf, 0}} {
		b.AddCol("", c[2], c[0], c[1])
	}
	b.AddRow("", -inf, -3, []int{1, 3, 4, 5, 7}, []float64{4, -2, -1, -2, -3})
	b.AddRow("", 0, inf, []int{1, 3, 4, 5}, []float64{4, -4, 2, 1})
	b.AddRow("", -inf, -18, []int{0, 1, 3, 7}, []float64{-1, -2, -3, -4})
	b.AddRow("", -6, 18, []int{1, 3, 4, 5, 7}, []float64{1, 3, 1, -4, 1})
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	mdl, err := newLPModel(p)
	if err != nil {
		t.Fatal(err)
	}
	solve := func(what string) Result {
		t.Helper()
		st, err := mdl.solve(context.Background(), lpLimits{})
		if err != nil || st != Optimal {
			t.Fatalf("%s: %v, %v", what, st, err)
		}
		return mdl.result(st)
	}
	first := solve("first solve")
	saved := mdl.basis()
	mdl.setColBounds(0, 0, inf)
	solve("with x0 ≥ 0")
	mdl.setColBounds(0, -2, inf)
	if err := mdl.setBasis(saved); err != nil {
		t.Fatal(err)
	}
	it := mdl.s.iters
	back := solve("back to the first bounds and basis")
	if n := mdl.s.iters - it; n != 0 || back.Objective != first.Objective {
		t.Fatalf("restoring the optimal basis: %d iterations, objective %v (first %v)", n, back.Objective, first.Objective)
	}
}
