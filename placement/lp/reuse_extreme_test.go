package lp_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gputco/gputco/placement/lp"
	"pgregory.net/rapid"
)

// modelCertified: on any small LP, however extreme its data (genExtreme,
// genWild), a Model re-solved after bound changes answers as Solve does:
// Optimal, Infeasible or Unbounded with a certificate Verify accepts at
// 1e-6 for the current bounds, or NotSolved with an ErrNumerical error; it
// never panics.
func modelCertified(t *rapid.T) {
	var p *lp.Problem
	if rapid.Bool().Draw(t, "extreme") {
		p = genExtreme(t, false)
	} else {
		p = genWild(t, false)
	}
	m, err := lp.NewModel(p)
	if err != nil {
		t.Fatalf("NewModel: %v", err)
	}
	cur := *p
	cur.Integer = nil
	cur.ColLower = append([]float64(nil), p.ColLower...)
	cur.ColUpper = append([]float64(nil), p.ColUpper...)
	for step := range rapid.IntRange(1, 5).Draw(t, "steps") {
		if step > 0 && p.NumCols() > 0 {
			j := rapid.IntRange(0, p.NumCols()-1).Draw(t, "col")
			lo, up := p.ColLower[j], p.ColUpper[j]
			if rapid.Bool().Draw(t, "fix") {
				v := review9Value(t, "at")
				if math.IsInf(v, 0) || math.IsNaN(v) {
					v = 0
				}
				lo, up = v, v
			}
			if err := m.SetColBounds(j, lo, up); err != nil {
				t.Fatalf("SetColBounds(%d, %v, %v): %v", j, lo, up, err)
			}
			cur.ColLower[j], cur.ColUpper[j] = lo, up
		}
		res, err := m.Solve(context.Background(), lp.Options{})
		switch res.Status {
		case lp.Optimal, lp.Infeasible, lp.Unbounded:
			if err != nil {
				t.Fatalf("step %d: %v with error %v", step, res.Status, err)
			}
			if verr := res.Verify(&cur, 1e-6); verr != nil {
				t.Fatalf("step %d: %v (objective %v, X %v, ray %v): %v", step, res.Status, res.Objective, res.X, res.Ray, verr)
			}
		case lp.NotSolved:
			if !errors.Is(err, lp.ErrNumerical) {
				t.Fatalf("step %d: NotSolved with error %v", step, err)
			}
		default:
			t.Fatalf("step %d: %v (error %v) without a limit", step, res.Status, err)
		}
	}
}

func TestModelCertified(t *testing.T) { rapid.Check(t, modelCertified) }
func FuzzModelCertified(f *testing.F) { f.Fuzz(rapid.MakeFuzz(modelCertified)) }
