package lp

// Review 9: an Unbounded answer's ray is checked before it is returned, as
// an Infeasible answer's Farkas ray is.

import (
	"context"
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestReview9TinyCoefficientUnbounded: max x s.t. 1e-40·x ≤ 1, x ≥ 0 is
// bounded (x = 1e40; 1e-40·1e40 = 1 in float64). The scaled coefficient
// (factors stop at 2^±50) looked like 0 to the simplex, which answered
// Unbounded with a ray d = (1) that Verify rejects (the row increases by
// 1e-40 per unit and has an upper bound); the MILP with x integer said
// Unbounded too, with no ray to check. Expected: the ray is checked, the
// LP solved again with wider scaling, and both the LP and the MILP are
// Optimal at 1/c.
func TestReview9TinyCoefficientUnbounded(t *testing.T) {
	for _, c := range []float64{1e-40, 1e-100, 1e-200, 1e-300} {
		for _, integer := range []bool{false, true} {
			p := &Problem{
				Maximize: true,
				Cost:     []float64{1}, ColLower: []float64{0}, ColUpper: []float64{math.Inf(1)},
				RowLower: []float64{math.Inf(-1)}, RowUpper: []float64{1},
				A: Matrix{Rows: 1, Cols: 1, Start: []int{0, 1}, Index: []int32{0}, Value: []float64{c}},
			}
			if integer {
				p.Integer = []bool{true}
			}
			res, err := Solve(context.Background(), p, Options{})
			if err != nil || res.Status != Optimal {
				t.Errorf("c = %g, integer %v: %v %v (ray %v), want Optimal %g; Verify: %v", c, integer, res.Status, err, res.Ray, 1/c, res.Verify(p, 1e-6))
				continue
			}
			if want := 1 / c; math.Abs(res.Objective-want) > 1e-6*want {
				t.Errorf("c = %g, integer %v: objective %g, want %g", c, integer, res.Objective, want)
			}
			if err := res.Verify(p, 1e-6); err != nil {
				t.Errorf("c = %g, integer %v: %v", c, integer, err)
			}
		}
	}
}

// review9UnboundedRay: a random unbounded LP (randomProblem), its rows and
// columns scaled by powers of ten up to 10^±scale (x_j = s_j·x'_j), is
// answered with a certificate Verify accepts (Unbounded when unscaled; a
// scaled ray's improvement may fall within the tolerances) or NotSolved
// with an ErrNumerical error (only when scaled); never with a ray or any
// other certificate that fails.
func review9UnboundedRay(t *rapid.T) {
	seed := rapid.Uint64().Draw(t, "seed")
	m := rapid.IntRange(1, 8).Draw(t, "m")
	n := rapid.IntRange(1, 8).Draw(t, "n")
	p := randomProblem(seed, m, n, randomUnbounded, false)
	scale := rapid.IntRange(0, 12).Draw(t, "scale")
	rs := make([]float64, p.NumRows())
	for i := range rs {
		rs[i] = math.Pow(10, float64(rapid.IntRange(-scale, scale).Draw(t, "rowScale")))
		p.RowLower[i] *= rs[i]
		p.RowUpper[i] *= rs[i]
	}
	for j := range p.NumCols() {
		s := math.Pow(10, float64(rapid.IntRange(-scale, scale).Draw(t, "colScale")))
		p.Cost[j] *= s
		p.ColLower[j] /= s
		p.ColUpper[j] /= s
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			p.A.Value[k] *= s * rs[p.A.Index[k]]
		}
	}
	res, err := Solve(context.Background(), p, Options{})
	switch res.Status {
	case Unbounded, Optimal, Infeasible:
		if err != nil {
			t.Fatalf("%v with error %v", res.Status, err)
		}
		if verr := res.Verify(p, 1e-6); verr != nil {
			t.Fatalf("%v (ray %v): %v", res.Status, res.Ray, verr)
		}
		// Scaled, the ray's improvement can fall within the tolerances
		// (a cost of 1e-7 per unit): a certified Optimal is then honest.
		if scale == 0 && res.Status != Unbounded {
			t.Fatalf("unscaled: %v (objective %v), want Unbounded", res.Status, res.Objective)
		}
	case NotSolved:
		if !errors.Is(err, ErrNumerical) {
			t.Fatalf("NotSolved with error %v", err)
		}
		if scale == 0 {
			t.Fatalf("unscaled: NotSolved: %v", err)
		}
	default:
		t.Fatalf("%v (error %v)", res.Status, err)
	}
}

func TestReview9UnboundedRay(t *testing.T) { rapid.Check(t, review9UnboundedRay) }
func FuzzReview9UnboundedRay(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review9UnboundedRay)) }
