package lp

import (
	"context"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// integerPoints calls f with every assignment of the integer columns of p
// within their (rounded) bounds; the continuous columns of the point are
// zero. f returns false to stop.
func integerPoints(p *Problem, f func(x []float64) bool) {
	n := p.NumCols()
	var ints []int
	x := make([]float64, n)
	for j := 0; j < n; j++ {
		if p.Integer[j] {
			ints = append(ints, j)
			x[j] = math.Ceil(p.ColLower[j])
		}
	}
	for {
		if !f(append([]float64(nil), x...)) {
			return
		}
		k := 0
		for ; k < len(ints); k++ {
			j := ints[k]
			if x[j]+1 <= p.ColUpper[j] {
				x[j]++
				break
			}
			x[j] = math.Ceil(p.ColLower[j])
		}
		if k == len(ints) {
			return
		}
	}
}

// completable reports whether the integer point x has a continuous
// completion within the column bounds lo and up that satisfies every row
// of p (an LP with the integer columns fixed).
func completable(t tb, p *Problem, x, lo, up []float64) bool {
	t.Helper()
	q := *p
	q.Integer = nil
	q.Cost = make([]float64, p.NumCols())
	q.ColLower = append([]float64(nil), lo...)
	q.ColUpper = append([]float64(nil), up...)
	for j := range x {
		if p.Integer[j] {
			if x[j] < lo[j] || x[j] > up[j] {
				return false
			}
			q.ColLower[j], q.ColUpper[j] = x[j], x[j]
		}
	}
	res, err := Solve(context.Background(), &q, Options{})
	if err != nil {
		t.Fatalf("LP: %v", err)
	}
	switch res.Status {
	case Optimal:
		return true
	case Infeasible:
		return false
	}
	t.Fatalf("LP status %v", res.Status)
	return false
}

// checkPropagateOn fixes a few random integer columns of p with
// propagation and checks the result against every feasible point of p
// (enumerated): propagation reports infeasibility only when no feasible
// point has the fixings, and otherwise keeps every such point — its
// integer part within the propagated bounds, with a continuous completion
// within them. Undoing every change restores the bounds and activities.
func checkPropagateOn(t *rapid.T, p *Problem) {
	sr, err := newMIPSearch(context.Background(), p, Options{}, time.Now())
	if err != nil {
		t.Fatalf("newMIPSearch: %v", err)
	}
	cols, vals := sr.rowWise()
	pr := newPropagator(p, sr.isInt, cols, vals, sr.rootLo, sr.rootUp)
	type fixing struct {
		col int
		v   float64
	}
	var fixings []fixing
	ok := pr.propagate()
	for k := rapid.IntRange(0, 3).Draw(t, "fixings"); ok && k > 0 && len(sr.intCols) > 0; k-- {
		j := sr.intCols[rapid.IntRange(0, len(sr.intCols)-1).Draw(t, "fixCol")]
		lo, up := int(sr.rootLo[j]), int(sr.rootUp[j])
		v := float64(rapid.IntRange(lo, up).Draw(t, "fixValue"))
		fixings = append(fixings, fixing{j, v})
		if pr.lo[j] > v || pr.up[j] < v {
			ok = false
			break
		}
		ok = pr.fix(j, v)
	}
	integerPoints(p, func(x []float64) bool {
		for _, f := range fixings {
			if x[f.col] != f.v {
				return true
			}
		}
		if !completable(t, p, x, p.ColLower, p.ColUpper) {
			return true
		}
		if !ok {
			t.Fatalf("propagation declared fixings %v infeasible, but %v is feasible", fixings, x)
		}
		if !completable(t, p, x, pr.lo, pr.up) {
			t.Fatalf("feasible point %v lost by propagation after %v: bounds %v %v", x, fixings, pr.lo, pr.up)
		}
		return true
	})
	pr.undo(0)
	for j := range pr.lo {
		if pr.lo[j] != sr.rootLo[j] || pr.up[j] != sr.rootUp[j] {
			t.Fatalf("undo: column %d bounds [%v, %v], want [%v, %v]", j, pr.lo[j], pr.up[j], sr.rootLo[j], sr.rootUp[j])
		}
	}
	for i := 0; i < p.NumRows(); i++ {
		mn, mx, ni, xi := pr.minAct[i], pr.maxAct[i], pr.minInf[i], pr.maxInf[i]
		pr.recompute(i)
		if ni != pr.minInf[i] || xi != pr.maxInf[i] || math.Abs(mn-pr.minAct[i]) > 1e-9 || math.Abs(mx-pr.maxAct[i]) > 1e-9 {
			t.Fatalf("undo: row %d activities (%v, %v, %d, %d), recomputed (%v, %v, %d, %d)", i, mn, mx, ni, xi, pr.minAct[i], pr.maxAct[i], pr.minInf[i], pr.maxInf[i])
		}
	}
}

// TestPropagateKeepsFeasible checks domain propagation after random
// fixings against the enumerated feasible sets of tiny MILPs (general and
// fixed-charge flow shapes).
func TestPropagateKeepsFeasible(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkPropagateOn(t, genMIP(t)) })
	rapid.Check(t, func(t *rapid.T) { checkPropagateOn(t, genFlowMIP(t)) })
}

func FuzzPropagateKeepsFeasible(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) { checkPropagateOn(t, genMIP(t)) }))
}

// checkReduceFixedOn fixes random integer columns of p and checks that the
// reduced problem has the same optimum as p with those fixings, and that
// its solution expanded is feasible for p.
func checkReduceFixedOn(t *rapid.T, p *Problem) {
	q := *p
	q.ColLower = append([]float64(nil), p.ColLower...)
	q.ColUpper = append([]float64(nil), p.ColUpper...)
	for j := range q.ColLower {
		if p.Integer[j] && rapid.Bool().Draw(t, "fix") {
			lo, up := int(math.Ceil(p.ColLower[j])), int(math.Floor(p.ColUpper[j]))
			v := float64(rapid.IntRange(lo, up).Draw(t, "fixValue"))
			q.ColLower[j], q.ColUpper[j] = v, v
		}
	}
	want, err := Solve(context.Background(), &q, Options{})
	if err != nil {
		t.Fatalf("Solve fixed: %v", err)
	}
	red, ok := reduceFixed(&q)
	if !ok {
		if want.Status != Infeasible {
			t.Fatalf("reduceFixed: infeasible, the fixed problem is %v (%v)", want.Status, want.Objective)
		}
		return
	}
	if len(red.keep) == 0 {
		_, feasible := mipFeasible(&q, append([]float64(nil), red.x...), false)
		if feasible != (want.Status == Optimal) {
			t.Fatalf("everything fixed: point feasible %v, fixed problem %v", feasible, want.Status)
		}
		return
	}
	got, err := Solve(context.Background(), red.q, Options{})
	if err != nil {
		t.Fatalf("Solve reduced: %v", err)
	}
	if got.Status != want.Status {
		t.Fatalf("reduced %v, fixed %v", got.Status, want.Status)
	}
	if got.Status != Optimal {
		return
	}
	if !relClose(got.Objective, want.Objective, 1e-6) {
		t.Fatalf("reduced optimum %v, fixed optimum %v", got.Objective, want.Objective)
	}
	if _, feasible := mipFeasible(&q, red.expand(got.X), false); !feasible {
		t.Fatalf("expanded solution %v infeasible for the fixed problem", red.expand(got.X))
	}
}

// TestReduceFixed checks the sub-MIP reduction against the fixed problem
// solved as it is.
func TestReduceFixed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkReduceFixedOn(t, genMIP(t)) })
}

func FuzzReduceFixed(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) { checkReduceFixedOn(t, genMIP(t)) }))
}
