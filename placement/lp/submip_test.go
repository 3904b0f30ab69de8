package lp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// facilityProblem is a capacitated facility location MILP: few binary
// openings, many continuous assignments, the shape of the placement models
// whose RENS sub-MIP keeps almost every column.
func facilityProblem(t *testing.T, nf, nc int, seed uint64) *Problem {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b Builder
	y := make([]int, nf)
	for f := range y {
		y[f] = b.AddIntCol(fmt.Sprintf("y%d", f), 50+100*rng.Float64(), 0, 1)
	}
	x := make([][]int, nf)
	for f := range x {
		x[f] = make([]int, nc)
		for c := range x[f] {
			x[f][c] = b.AddCol(fmt.Sprintf("x%d_%d", f, c), 1+20*rng.Float64(), 0, 1)
		}
	}
	dem := make([]float64, nc)
	for c := range dem {
		dem[c] = 1 + 9*rng.Float64()
		cols, vals := make([]int, nf), make([]float64, nf)
		for f := range cols {
			cols[f], vals[f] = x[f][c], 1
		}
		b.AddRow(fmt.Sprintf("d%d", c), 1, 1, cols, vals)
	}
	for f := range y {
		cols, vals := []int{y[f]}, []float64{-float64(nc) * 2.5}
		for c := range dem {
			cols, vals = append(cols, x[f][c]), append(vals, dem[c])
			b.AddRow(fmt.Sprintf("l%d_%d", f, c), math.Inf(-1), 0, []int{x[f][c], y[f]}, []float64{1, -1})
		}
		b.AddRow(fmt.Sprintf("cap%d", f), math.Inf(-1), 0, cols, vals)
	}
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The basis a reduced problem inherits from the original's optimal basis
// has one basic entry per row and starts its LP at (or next to) the
// optimum: the RENS restriction of an LP optimum keeps that optimum, so a
// warm re-solve takes a few iterations where the slack basis takes many.
func TestReducedBasisWarmStartsRestriction(t *testing.T) {
	p := facilityProblem(t, 8, 40, 3)
	relax := *p
	relax.Integer = nil
	root, err := Solve(context.Background(), &relax, Options{})
	if err != nil || root.Status != Optimal {
		t.Fatalf("root LP: %v %v", root.Status, err)
	}
	// RENS bounds: integral integer columns fixed, the others rounded out.
	q := relax
	q.ColLower = append([]float64(nil), p.ColLower...)
	q.ColUpper = append([]float64(nil), p.ColUpper...)
	fixed, basicFixed := 0, 0
	for j, isInt := range p.Integer {
		if !isInt {
			continue
		}
		v := root.X[j]
		if r := math.Round(v); math.Abs(v-r) <= intTol {
			q.ColLower[j], q.ColUpper[j] = r, r
			fixed++
			if root.Basis.Cols[j] == Basic {
				basicFixed++
			}
		} else {
			q.ColLower[j], q.ColUpper[j] = math.Floor(v), math.Ceil(v)
		}
	}
	if fixed == 0 {
		t.Fatal("the instance has no integral integer column at the LP optimum: it tests nothing")
	}
	red, ok := reduceFixed(&q)
	if !ok {
		t.Fatal("reduceFixed: the LP optimum's fixings violate a row")
	}
	b := red.basis(&q, root.Basis)
	if b == nil {
		t.Fatal("no reduced basis")
	}
	nb := 0
	for _, st := range append(append([]BasisStatus(nil), b.Cols...), b.Rows...) {
		if st == Basic {
			nb++
		}
	}
	if nb != red.q.NumRows() {
		t.Fatalf("reduced basis has %d basic entries, want %d", nb, red.q.NumRows())
	}
	warm, err := Solve(context.Background(), red.q, Options{Basis: b})
	if err != nil || warm.Status != Optimal {
		t.Fatalf("warm reduced LP: %v %v", warm.Status, err)
	}
	cold, err := Solve(context.Background(), red.q, Options{})
	if err != nil || cold.Status != Optimal {
		t.Fatalf("cold reduced LP: %v %v", cold.Status, err)
	}
	if d := math.Abs(warm.Objective - root.Objective); d > 1e-7*max(1, math.Abs(root.Objective)) {
		t.Errorf("warm reduced LP objective %.10g, want the root's %.10g", warm.Objective, root.Objective)
	}
	if d := math.Abs(cold.Objective - root.Objective); d > 1e-7*max(1, math.Abs(root.Objective)) {
		t.Errorf("cold reduced LP objective %.10g, want the root's %.10g", cold.Objective, root.Objective)
	}
	t.Logf("%d integers fixed (%d basic), root %d iterations, reduced LP warm %d, cold %d",
		fixed, basicFixed, root.Iterations, warm.Iterations, cold.Iterations)
	if warm.Iterations*4 > cold.Iterations {
		t.Errorf("warm reduced LP took %d iterations (cold %d, %d fixed columns were basic)", warm.Iterations, cold.Iterations, basicFixed)
	}
}

// A limit that stops the search while the root is processed (its cut
// rounds, its sub-MIP) reports the root LP's value as the bound, not −Inf.
func TestLimitDuringRootKeepsRootBound(t *testing.T) {
	p := facilityProblem(t, 8, 40, 3)
	relax := *p
	relax.Integer = nil
	root, err := Solve(context.Background(), &relax, Options{})
	if err != nil || root.Status != Optimal {
		t.Fatalf("root LP: %v %v", root.Status, err)
	}
	full, err := Solve(context.Background(), p, Options{})
	if err != nil || full.Status != Optimal {
		t.Fatalf("MILP: %v %v", full.Status, err)
	}
	tol := 1e-6 * max(1, math.Abs(full.Objective))
	stopped := 0
	for _, mul := range []float64{1.2, 1.5, 2, 3} {
		limit := int(mul * float64(root.Iterations))
		r, err := Solve(context.Background(), p, Options{IterationLimit: limit})
		if err != nil {
			t.Fatalf("limit %d: %v", limit, err)
		}
		if r.Status != IterationLimit {
			continue
		}
		if r.Nodes <= 1 {
			stopped++
		}
		t.Logf("limit %d: %d nodes, bound %.10g (root LP %.10g, optimum %.10g)", limit, r.Nodes, r.Bound, root.Objective, full.Objective)
		if r.Bound < root.Objective-tol || r.Bound > full.Objective+tol {
			t.Errorf("limit %d (%d nodes): bound %.10g, want within [%.10g, %.10g]", limit, r.Nodes, r.Bound, root.Objective, full.Objective)
		}
	}
	if stopped == 0 {
		t.Fatal("no limit stopped the search at its root: the test tests nothing")
	}
}

// With the basic columns of the original's optimal basis kept (fixed or
// not), the reduced problem's basis is that basis without the removed rows
// and their logicals: optimal, the warm re-solve takes no iteration. Not
// kept, the basic fixed columns' places go to row logicals and the warm
// re-solve has work to do (the instance must have such columns, or it
// tests nothing).
func TestReducedBasisKeepingBasicColumnsIsOptimal(t *testing.T) {
	p := facilityProblem(t, 8, 40, 3)
	relax := *p
	relax.Integer = nil
	root, err := Solve(context.Background(), &relax, Options{})
	if err != nil || root.Status != Optimal {
		t.Fatalf("root LP: %v %v", root.Status, err)
	}
	q := relax
	q.ColLower = append([]float64(nil), p.ColLower...)
	q.ColUpper = append([]float64(nil), p.ColUpper...)
	keep := make([]bool, p.NumCols())
	basicFixed := 0
	for j, isInt := range p.Integer {
		keep[j] = root.Basis.Cols[j] == Basic
		if !isInt {
			continue
		}
		v := root.X[j]
		if r := math.Round(v); math.Abs(v-r) <= intTol {
			q.ColLower[j], q.ColUpper[j] = r, r
			if keep[j] {
				basicFixed++
			}
		} else {
			q.ColLower[j], q.ColUpper[j] = math.Floor(v), math.Ceil(v)
		}
	}
	if basicFixed == 0 {
		t.Fatal("no fixed column is basic at the LP optimum: the instance tests nothing")
	}
	iters := map[bool]int{}
	for _, kept := range []bool{false, true} {
		var red reducedProblem
		var ok bool
		if kept {
			red, ok = reduceFixedKeep(&q, keep)
		} else {
			red, ok = reduceFixed(&q)
		}
		if !ok {
			t.Fatal("reduceFixed: the LP optimum's fixings violate a row")
		}
		b := red.basis(&q, root.Basis)
		if b == nil {
			t.Fatalf("kept %v: no reduced basis", kept)
		}
		warm, err := Solve(context.Background(), red.q, Options{Basis: b})
		if err != nil || warm.Status != Optimal {
			t.Fatalf("kept %v: warm reduced LP: %v %v", kept, warm.Status, err)
		}
		if d := math.Abs(warm.Objective - root.Objective); d > 1e-7*max(1, math.Abs(root.Objective)) {
			t.Errorf("kept %v: warm reduced LP objective %.10g, want the root's %.10g", kept, warm.Objective, root.Objective)
		}
		iters[kept] = warm.Iterations
	}
	t.Logf("%d basic fixed columns; warm reduced LP: %d iterations with them kept, %d without", basicFixed, iters[true], iters[false])
	if iters[true] != 0 {
		t.Errorf("warm reduced LP with the basic columns kept took %d iterations, want 0", iters[true])
	}
}

// A sub-MIP whose reduced problem keeps most of the working problem (RENS
// on the facility problem: the continuous assignments all stay) gets an
// iteration cap of the root LP's iterations or subMIPBigAllowed; the
// reduction is big by bigSubMIP's measure, a sub-MIP of the integer
// columns alone is not.
func TestBigSubMIPIsCapped(t *testing.T) {
	p := facilityProblem(t, 8, 40, 3)
	sr, err := newMIPSearch(context.Background(), p, Options{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	st, err := sr.solveLP(0, false)
	if err != nil || st != Optimal {
		t.Fatalf("root LP: %v %v", st, err)
	}
	sr.rootIters = sr.mdl.lastIter
	sr.lpObjective()
	lo := append([]float64(nil), sr.rootLo...)
	up := append([]float64(nil), sr.rootUp...)
	for _, j := range sr.intCols {
		lo[j], up[j] = math.Floor(sr.x[j]+intTol), math.Ceil(sr.x[j]-intTol)
	}
	q := *sr.w
	q.ColLower, q.ColUpper = lo, up
	red, ok := reduceFixed(&q)
	if !ok || !bigSubMIP(red.q, &q) {
		t.Fatalf("RENS of the facility problem: reduced %v, big %v; want a big sub-MIP", ok, ok && bigSubMIP(red.q, &q))
	}
	sub, err := sr.runSubMIP(lo, up, 1, 0, false)
	if err != nil || sub == nil {
		t.Fatalf("runSubMIP: %v, sub-MIP %v", err, sub != nil)
	}
	if want := max(sr.rootIters, subMIPBigAllowed); sub.opt.IterationLimit != want {
		t.Errorf("big sub-MIP's iteration limit %d, want %d", sub.opt.IterationLimit, want)
	}
	// Every continuous column fixed as well: the integer columns alone
	// are a small part of the problem.
	for j := range lo {
		if !sr.isInt[j] {
			lo[j], up[j] = sr.x[j], sr.x[j]
		}
	}
	if red, ok := reduceFixed(&q); ok && bigSubMIP(red.q, &q) {
		t.Errorf("reduced to %d of %d columns, %d of %d rows: big", red.q.NumCols(), q.NumCols(), red.q.NumRows(), q.NumRows())
	}
}
