package lp_test

// Review 9: every LP answer carries a certificate that Verify accepts.

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement/lp"
	"pgregory.net/rapid"
)

// review9Value draws a magnitude for a coefficient, bound or cost: mostly
// small halves, sometimes one of the extremes of float64 that Validate
// accepts (1e±30, the CLP infinity, and 1e±300, 1e308, 5e-324).
func review9Value(t *rapid.T, label string) float64 {
	if rapid.IntRange(0, 3).Draw(t, label+"Kind") > 0 {
		return float64(rapid.IntRange(-6, 6).Draw(t, label)) / 2
	}
	v := rapid.SampledFrom([]float64{1e-308, 5e-324, 1e-300, 1e-40, 1e-12, 1e-7, 1e7, 1e12, 1e30, 1e40, 1e300, 1e308}).Draw(t, label)
	if rapid.Bool().Draw(t, label+"Neg") {
		v = -v
	}
	return v
}

// genExtreme draws a small LP with free, one-sided, fixed and boxed
// columns, equal, one-sided, ranged, free and empty rows, either sense,
// and coefficients, costs and bounds that are small or extreme
// (review9Value); with integer, some columns are integer.
func genExtreme(t *rapid.T, integer bool) *lp.Problem {
	n := rapid.IntRange(0, 4).Draw(t, "n")
	m := rapid.IntRange(0, 4).Draw(t, "m")
	inf := math.Inf(1)
	var b lp.Builder
	for j := 0; j < n; j++ {
		cost := review9Value(t, "cost")
		var lo, up float64
		switch rapid.IntRange(0, 4).Draw(t, "colKind") {
		case 0:
			lo, up = -inf, inf
		case 1:
			lo, up = review9Value(t, "lo"), inf
		case 2:
			lo, up = -inf, review9Value(t, "up")
		case 3:
			lo = review9Value(t, "fx")
			up = lo
		default:
			lo, up = review9Value(t, "lo"), review9Value(t, "up")
			if lo > up {
				lo, up = up, lo
			}
		}
		if integer && rapid.Bool().Draw(t, "int") {
			b.AddIntCol("", cost, math.Floor(lo), math.Ceil(up)) // an integer inside
		} else {
			b.AddCol("", cost, lo, up)
		}
	}
	for i := 0; i < m; i++ {
		var cols []int
		var vals []float64
		if !rapid.Bool().Draw(t, "emptyRow") || i == 0 {
			for j := 0; j < n; j++ {
				if rapid.Bool().Draw(t, "present") {
					if v := review9Value(t, "coef"); v != 0 {
						cols = append(cols, j)
						vals = append(vals, v)
					}
				}
			}
		}
		lo, up := review9Value(t, "rlo"), review9Value(t, "rup")
		if lo > up {
			lo, up = up, lo
		}
		switch rapid.IntRange(0, 4).Draw(t, "rowKind") {
		case 0:
			up = lo
		case 1:
			lo = -inf
		case 2:
			up = inf
		case 3:
			lo, up = -inf, inf
		}
		b.AddRow("", lo, up, cols, vals)
	}
	b.SetObjective(rapid.Bool().Draw(t, "max"), float64(rapid.IntRange(-2, 2).Draw(t, "off")))
	p, err := b.Problem()
	if err != nil {
		t.Fatalf("gen: %v", err)
	}
	return p
}

// review9Certified: on any small LP, however extreme its data (genExtreme,
// and genWild's tame ones), Solve's answer is Optimal, Infeasible or
// Unbounded with a certificate Verify accepts at 1e-6, or NotSolved with
// an ErrNumerical error; it never panics.
func review9Certified(t *rapid.T) {
	var p *lp.Problem
	if rapid.Bool().Draw(t, "extreme") {
		p = genExtreme(t, false)
	} else {
		p = genWild(t, false)
	}
	res, err := lp.Solve(context.Background(), p, lp.Options{})
	switch res.Status {
	case lp.Optimal, lp.Infeasible, lp.Unbounded:
		if err != nil {
			t.Fatalf("%v with error %v", res.Status, err)
		}
		if verr := res.Verify(p, 1e-6); verr != nil {
			t.Fatalf("%v (objective %v, X %v, ray %v): %v", res.Status, res.Objective, res.X, res.Ray, verr)
		}
	case lp.NotSolved:
		if !errors.Is(err, lp.ErrNumerical) {
			t.Fatalf("NotSolved with error %v", err)
		}
	default:
		t.Fatalf("%v (error %v) without a limit", res.Status, err)
	}
}

func TestReview9Certified(t *testing.T) { rapid.Check(t, review9Certified) }
func FuzzReview9Certified(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review9Certified)) }

// review9CertifiedMILP: on a small MILP of extreme data (genExtreme with
// integer columns), within a node and time limit, an Optimal, Infeasible
// or Unbounded answer passes Verify at 1e-6 (X feasible and integral, its
// objective finite), a limit's X, when present, too, and NotSolved comes
// with an ErrNumerical error; it never panics.
func review9CertifiedMILP(t *rapid.T) {
	p := genExtreme(t, true)
	res, err := lp.Solve(context.Background(), p, lp.Options{NodeLimit: 200, TimeLimit: 2 * time.Second})
	switch res.Status {
	case lp.Optimal, lp.Infeasible, lp.Unbounded, lp.NodeLimit, lp.TimeLimit:
		if err != nil {
			t.Fatalf("%v with error %v", res.Status, err)
		}
		if verr := res.Verify(p, 1e-6); verr != nil {
			t.Fatalf("%v (objective %v, X %v): %v", res.Status, res.Objective, res.X, verr)
		}
	case lp.NotSolved:
		if !errors.Is(err, lp.ErrNumerical) {
			t.Fatalf("NotSolved with error %v", err)
		}
	default:
		t.Fatalf("%v (error %v)", res.Status, err)
	}
}

func TestReview9CertifiedMILP(t *testing.T) { rapid.Check(t, review9CertifiedMILP) }
func FuzzReview9CertifiedMILP(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review9CertifiedMILP)) }
