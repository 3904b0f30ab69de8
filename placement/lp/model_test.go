package lp

import (
	"context"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// checkBoundChangeResolve solves an LP, tightens a column's bounds as
// branch-and-bound does, re-solves warm and compares with a cold solve of
// the changed problem; then restores the bounds and the saved basis.
func checkBoundChangeResolve(t *rapid.T) {
	p := genLP(t)
	mdl, err := newLPModel(p)
	if err != nil {
		t.Fatal(err)
	}
	st, err := mdl.solve(context.Background(), lpLimits{})
	if err != nil {
		t.Fatal(err)
	}
	first := mdl.result(st)
	if err := first.Verify(p, certTol); err != nil {
		t.Fatalf("first solve: %v", err)
	}
	saved := mdl.basis()
	j := rapid.IntRange(0, p.NumCols()-1).Draw(t, "branchCol")
	lo0, up0 := mdl.colBounds(j)
	if lo0 != p.ColLower[j] || up0 != p.ColUpper[j] {
		t.Fatalf("colBounds(%d) = %v, %v, want %v, %v", j, lo0, up0, p.ColLower[j], p.ColUpper[j])
	}
	v := float64(rapid.IntRange(-6, 6).Draw(t, "branchValue"))
	lo, up := lo0, math.Min(up0, v)
	if rapid.Bool().Draw(t, "up") {
		lo, up = math.Max(lo0, v), up0
	}
	if lo > up {
		return
	}
	mdl.setColBounds(j, lo, up)
	st, err = mdl.solve(context.Background(), lpLimits{})
	if err != nil {
		t.Fatal(err)
	}
	warm := mdl.result(st)
	q, _ := clone(p).Problem()
	q.ColLower[j], q.ColUpper[j] = lo, up
	if err := warm.Verify(q, certTol); err != nil {
		t.Fatalf("warm re-solve: %v", err)
	}
	cold := solveRapid(t, q, Options{})
	sameAnswer(t, "warm re-solve after a bound change", cold, warm, 1)

	mdl.setColBounds(j, lo0, up0)
	if err := mdl.setBasis(saved); err != nil {
		t.Fatal(err)
	}
	it := mdl.s.iters
	st, err = mdl.solve(context.Background(), lpLimits{})
	if err != nil {
		t.Fatal(err)
	}
	back := mdl.result(st)
	sameAnswer(t, "back to the parent", first, back, 1)
	if first.Status == Optimal && mdl.s.iters != it {
		t.Fatalf("restoring the parent's bounds and basis took %d iterations", mdl.s.iters-it)
	}
}

func TestBoundChangeResolve(t *testing.T) { rapid.Check(t, checkBoundChangeResolve) }

func FuzzBoundChangeResolve(f *testing.F) { f.Fuzz(rapid.MakeFuzz(checkBoundChangeResolve)) }
