package lp_test

// Review 8: findings of an adversarial review of package lp, each a test
// that reproduced it. All are fixed and the tests run: each comment says
// what the review found ("Actual:" is what the engine did then), the test
// what it must do now.

import (
	"context"
	"math"
	"testing"

	"github.com/gputco/gputco/placement/lp"
)

// TestReview8TinyCoefficientInfeasible: min x s.t. 1e-40·x ≥ 1, x ≥ 0 is
// feasible (x = 1e40, objective 1e40; every coefficient and bound is a
// valid finite float64 that Validate accepts). Expected: Optimal with
// x = 1e40 — Solve finds it for 1e-30 (x = 1e30) and for the two-column
// 1e-40·x0 + x1 ≥ 1. Actual: Solve returns Infeasible with a Farkas ray
// that its own Result.Verify rejects ("column C0 has r_j = 1.13e-25 with an
// infinite bound"): the scaled coefficient seems to be taken for zero.
// The same happens for 1e-50 … 1e-300, and the MILP with x integer says
// Infeasible too (no ray to check there). Independent check: x = 1e40
// satisfies the row exactly (1e-40·1e40 = 1 in float64); CBC 2.10 and
// CLP also answer "primal infeasible", because they drop entries below
// 1e-12 on reading — so the peers agree with the wrong status, but the
// Solve doc promises an Infeasible with a Farkas ray, and this ray is not
// one. Severity: medium (wrong status on badly scaled data; the
// certificate check catches it).
func TestReview8TinyCoefficientInfeasible(t *testing.T) {
	for _, c := range []float64{1e-40, 1e-100, 1e-200} {
		p := &lp.Problem{
			Cost: []float64{1}, ColLower: []float64{0}, ColUpper: []float64{math.Inf(1)},
			RowLower: []float64{1}, RowUpper: []float64{math.Inf(1)},
			A: lp.Matrix{Rows: 1, Cols: 1, Start: []int{0, 1}, Index: []int32{0}, Value: []float64{c}},
		}
		if c*(1/c) != 1 {
			t.Fatalf("c = %g: x = 1/c does not satisfy the row in float64", c)
		}
		res, err := lp.Solve(context.Background(), p, lp.Options{})
		if err != nil {
			t.Fatalf("c = %g: %v", c, err)
		}
		if res.Status != lp.Optimal {
			t.Errorf("c = %g: status %v, want Optimal (x = %g is feasible); Verify says: %v", c, res.Status, 1/c, res.Verify(p, 1e-6))
			continue
		}
		if want := 1 / c; math.Abs(res.Objective-want) > 1e-6*want {
			t.Errorf("c = %g: objective %g, want %g", c, res.Objective, want)
		}
		if err := res.Verify(p, 1e-6); err != nil {
			t.Errorf("c = %g: %v", c, err)
		}
		// The MILP with x integer: 1/c is an integer in float64 (≥ 2⁵³).
		q := *p
		q.Integer = []bool{true}
		mres, err := lp.Solve(context.Background(), &q, lp.Options{})
		if err != nil || mres.Status != lp.Optimal || math.Abs(mres.Objective-1/c) > 1e-6/c {
			t.Errorf("c = %g, x integer: %v %v %v, want Optimal %g", c, mres.Status, mres.Objective, err, 1/c)
		} else if err := mres.Verify(&q, 1e-6); err != nil {
			t.Errorf("c = %g, x integer: %v", c, err)
		}
	}
}
