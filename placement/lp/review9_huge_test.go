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

// TestReview9MILPExtremeData: small MILPs of extreme data found by
// TestReview9CertifiedMILP. Expected: no panic, and no Optimal, Infeasible
// or Unbounded answer whose X Verify rejects (a MILP's Verify checks X:
// bounds, rows, integrality, a finite objective); NotSolved comes with
// ErrNumerical.
func TestReview9MILPExtremeData(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name, reason string
		p            lp.Problem
	}{
		{
			name:   "overflowing row",
			reason: "1e-12·x1 = −1e308 needs x1 = −1e320: the incumbent X had x1 = −Inf and objective −Inf, and was returned Optimal (mipFeasible compared against an infinite tolerance)",
			p: lp.Problem{
				Cost: []float64{1e-308, 1e-308}, ColLower: []float64{-inf, -inf}, ColUpper: []float64{inf, inf},
				Integer: []bool{false, true}, RowLower: []float64{-1e308}, RowUpper: []float64{-1e308},
				A: lp.Matrix{Rows: 1, Cols: 2, Start: []int{0, 0, 1}, Index: []int32{0}, Value: []float64{1e-12}},
			},
		},
		{
			name:   "unbounded point overflows",
			reason: "the relaxation is unbounded and x1 = −1e308 is an integer point, but its objective −2·(−1e308) overflows: Unbounded came with objective +Inf",
			p: lp.Problem{
				Cost: []float64{0.5, -2}, ColLower: []float64{-inf, -1e308}, ColUpper: []float64{inf, 1},
				Integer: []bool{false, true},
				A:       lp.Matrix{Rows: 0, Cols: 2, Start: []int{0, 0, 0}},
			},
		},
		{
			name:   "branch below the lower bound",
			reason: "Optimal with objective +Inf; with the incumbent check fixed, the LP left x0 = −5e-10 on [0, ∞) (badly scaled: 1e300·x1 − 0.5·x2 = 1e-308), strong branching set the bounds [0, −1] and setColBounds panicked (splitFloor)",
			p: lp.Problem{
				Maximize: true,
				Cost:     []float64{-1e-308, 1e-308, 1e12}, ColLower: []float64{-inf, 0, -inf}, ColUpper: []float64{inf, 1, inf},
				Integer:  []bool{true, true, false},
				RowLower: []float64{-inf, 1e-308, 1e-308, 1e-308}, RowUpper: []float64{0.5, 1e-308, 1e-308, 1e-308},
				A: lp.Matrix{Rows: 4, Cols: 3, Start: []int{0, 1, 2, 3}, Index: []int32{0, 3, 3}, Value: []float64{-1, 1e300, -0.5}},
			},
		},
		{
			name:   "propagated bound −Inf",
			reason: "fixing x3 = 0 in 1e-308·x2 + 2.5·x3 = −2 propagates x2 ≤ −2e308 = −Inf: propDive panicked in setColBounds(2, −Inf, −Inf); its wrong Infeasible answer is TestReview9MILPNodeFarkas",
			p: lp.Problem{
				Cost: []float64{1e-308, 1e-308, 1e-12, 1e-308}, ColLower: []float64{-inf, -inf, -inf, -inf}, ColUpper: []float64{inf, inf, inf, inf},
				Integer: []bool{false, false, false, true}, RowLower: []float64{-2}, RowUpper: []float64{-2},
				A: lp.Matrix{Rows: 1, Cols: 4, Start: []int{0, 0, 0, 1, 2}, Index: []int32{0, 0}, Value: []float64{1e-308, 2.5}},
			},
		},
	}
	for _, c := range cases {
		p := &c.p
		res, err := lp.Solve(context.Background(), p, lp.Options{NodeLimit: 200})
		switch res.Status {
		case lp.NotSolved:
			if !errors.Is(err, lp.ErrNumerical) {
				t.Errorf("%s (%s): NotSolved with error %v", c.name, c.reason, err)
			}
		default:
			if verr := res.Verify(p, 1e-6); err != nil || verr != nil {
				t.Errorf("%s (%s): %v (objective %v, X %v), error %v, Verify: %v", c.name, c.reason, res.Status, res.Objective, res.X, err, verr)
			}
		}
	}
}

// TestReview9MILPNodeFarkas: min 1e-12·x2 (+ 1e-308 on the others) s.t.
// 1e-308·x2 + 2.5·x3 = −2, x free, x3 integer, is feasible: x3 = −1,
// x2 = 5e307 (x3 = 0 would need x2 = −2e308, beyond float64). The root
// LP is optimal at x3 = −0.8 and the LP with x3 ≤ −1 alone is optimal at
// x2 = 5e307, yet Solve answers Infeasible after one node with no LP
// iteration: a strong-branching LP below the root ended Infeasible and
// its child was taken as infeasible without its Farkas ray being checked
// (only the root's was, checkRootRay). Expected: Optimal with X that
// Verify accepts, or NotSolved with ErrNumerical — not Infeasible.
func TestReview9MILPNodeFarkas(t *testing.T) {
	inf := math.Inf(1)
	p := &lp.Problem{
		Cost: []float64{1e-308, 1e-308, 1e-12, 1e-308}, ColLower: []float64{-inf, -inf, -inf, -inf}, ColUpper: []float64{inf, inf, inf, inf},
		Integer: []bool{false, false, false, true}, RowLower: []float64{-2}, RowUpper: []float64{-2},
		A: lp.Matrix{Rows: 1, Cols: 4, Start: []int{0, 0, 0, 1, 2}, Index: []int32{0, 0}, Value: []float64{1e-308, 2.5}},
	}
	res, err := lp.Solve(context.Background(), p, lp.Options{NodeLimit: 200})
	if res.Status == lp.Infeasible {
		t.Fatalf("Infeasible (%v), but x3 = −1, x2 = 5e307 is feasible", err)
	}
}
