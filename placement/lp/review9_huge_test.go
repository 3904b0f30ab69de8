package lp_test

// Review 9: certificate holes found by earlier reviews. Each test names
// what is expected and why.

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gputco/gputco/placement/lp"
)

// TestReview9HugeBoundOverflow: min −x − y with 0 ≤ x, y ≤ 1e308. The
// bounds are finite (Validate accepts them, and the package doc gives only
// math.Inf as an infinite bound, so 1e308 is not infinite as it is for
// CLP, which reads bounds of 1e30 and above as infinite and calls the MPS
// form of this LP dual infeasible). The problem is bounded, its optimum
// x = y = 1e308 has objective −2e308, which overflows float64 to −Inf.
// Solve used to return Optimal with objective −Inf, and Verify accepted
// it (every comparison with the NaN of −Inf − (−Inf) is false).
// Expected: Verify rejects any result whose objective, X, row activity,
// duals or reduced costs are not finite; Solve does not return
// Unbounded (the problem is bounded) nor an Optimal Verify rejects: it
// reports NotSolved with an ErrNumerical error. With bounds 1e300 the
// optimum −2e300 is finite and must be found.
func TestReview9HugeBoundOverflow(t *testing.T) {
	huge := func(ub float64, withRow bool) *lp.Problem {
		var b lp.Builder
		b.AddCol("x", -1, 0, ub)
		b.AddCol("y", -1, 0, ub)
		if withRow {
			b.AddRow("r", math.Inf(-1), math.Inf(1), []int{0, 1}, []float64{1, 1})
		}
		p, err := b.Problem()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, withRow := range []bool{false, true} {
		p := huge(1e308, withRow)
		res, err := lp.Solve(context.Background(), p, lp.Options{})
		if verr := res.Verify(p, 1e-6); verr != nil && res.Status != lp.NotSolved {
			t.Errorf("row %v: status %v, objective %v, Verify: %v", withRow, res.Status, res.Objective, verr)
		}
		if res.Status != lp.NotSolved || !errors.Is(err, lp.ErrNumerical) {
			t.Errorf("row %v: status %v, objective %v, error %v; want NotSolved with ErrNumerical (the optimum −2e308 overflows)", withRow, res.Status, res.Objective, err)
		}
		// Verify alone: the answer Solve used to give.
		bad := lp.Result{
			Status: lp.Optimal, Objective: math.Inf(-1), X: []float64{1e308, 1e308},
			RowActivity: make([]float64, p.NumRows()), RowDual: make([]float64, p.NumRows()),
			ReducedCost: []float64{-1, -1}, Bound: math.Inf(-1),
		}
		if withRow {
			bad.RowActivity[0] = math.Inf(1)
		}
		if err := bad.Verify(p, 1e-6); !errors.Is(err, lp.ErrCertificate) {
			t.Errorf("row %v: Verify of an Optimal with objective −Inf: %v, want ErrCertificate", withRow, err)
		}
		// A finite optimum near the top of the range is found.
		q := huge(1e300, withRow)
		res, err = lp.Solve(context.Background(), q, lp.Options{})
		if err != nil || res.Status != lp.Optimal || res.Objective != -2e300 {
			t.Errorf("row %v, bounds 1e300: %v %v %v, want Optimal −2e300", withRow, res.Status, res.Objective, err)
		} else if err := res.Verify(q, 1e-6); err != nil {
			t.Errorf("row %v, bounds 1e300: %v", withRow, err)
		}
	}
}
