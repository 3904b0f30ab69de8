package lp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

const certTol = 1e-6

// solveCertified solves p and checks the answer with Verify.
func solveCertified(t testing.TB, p *Problem, opt Options) Result {
	t.Helper()
	res, err := Solve(context.Background(), p, opt)
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if err := res.Verify(p, certTol); err != nil {
		t.Fatalf("status %v: %v", res.Status, err)
	}
	return res
}

func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*max(1, math.Abs(a), math.Abs(b))
}

func TestSolveSmall(t *testing.T) {
	inf := math.Inf(1)
	type row struct {
		lo, up float64
		cols   []int
		vals   []float64
	}
	type col struct{ cost, lo, up float64 }
	cases := []struct {
		name   string
		reason string
		max    bool
		cols   []col
		rows   []row
		status Status
		obj    float64
	}{
		{"textbook", "vertex x=3, y=1", false,
			[]col{{-1, 0, 3}, {-1, 0, inf}},
			[]row{{-inf, 4, []int{0, 1}, []float64{1, 1}}, {-inf, 6, []int{0, 1}, []float64{1, 3}}},
			Optimal, -4},
		{"maximise", "same LP in the maximisation sense", true,
			[]col{{1, 0, 3}, {1, 0, inf}},
			[]row{{-inf, 4, []int{0, 1}, []float64{1, 1}}, {-inf, 6, []int{0, 1}, []float64{1, 3}}},
			Optimal, 4},
		{"equality and free", "x free, y ≥ 0, x + y = 2, x − y ≥ −4: min x + 2y at x=2,y=0", false,
			[]col{{1, -inf, inf}, {2, 0, inf}},
			[]row{{2, 2, []int{0, 1}, []float64{1, 1}}, {-4, inf, []int{0, 1}, []float64{1, -1}}},
			Optimal, 2},
		{"ranged row", "1 ≤ x + y ≤ 2, min −x − 2y with x,y ∈ [0,1.5]", false,
			[]col{{-1, 0, 1.5}, {-2, 0, 1.5}},
			[]row{{1, 2, []int{0, 1}, []float64{1, 1}}},
			Optimal, -0.5 - 3},
		{"infeasible", "x + y ≥ 5 and x + y ≤ 3", false,
			[]col{{1, 0, inf}, {1, 0, inf}},
			[]row{{5, inf, []int{0, 1}, []float64{1, 1}}, {-inf, 3, []int{0, 1}, []float64{1, 1}}},
			Infeasible, 0},
		{"infeasible bounds", "x + y ≥ 5 with x, y ≤ 2", false,
			[]col{{1, 0, 2}, {1, 0, 2}},
			[]row{{5, inf, []int{0, 1}, []float64{1, 1}}},
			Infeasible, 0},
		{"unbounded", "min −x with x − y ≤ 1, x, y ≥ 0", false,
			[]col{{-1, 0, inf}, {0, 0, inf}},
			[]row{{-inf, 1, []int{0, 1}, []float64{1, -1}}},
			Unbounded, 0},
		{"unbounded free", "max x + y, x free, y ≤ 3 via row", true,
			[]col{{1, -inf, inf}, {1, -inf, inf}},
			[]row{{-inf, 3, []int{1}, []float64{1}}},
			Unbounded, 0},
		{"no rows", "columns alone at their cheap bounds", false,
			[]col{{1, -1, 2}, {-1, -1, 2}, {0, -inf, inf}},
			nil, Optimal, -1 - 2},
		{"fixed columns", "fixed x = 1, min y with y ≥ 3 − 2x", false,
			[]col{{5, 1, 1}, {1, -inf, inf}},
			[]row{{3, inf, []int{0, 1}, []float64{2, 1}}},
			Optimal, 5 + 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b Builder
			for k, cl := range c.cols {
				b.AddCol(string(rune('a'+k)), cl.cost, cl.lo, cl.up)
			}
			for _, r := range c.rows {
				b.AddRow("", r.lo, r.up, r.cols, r.vals)
			}
			b.SetObjective(c.max, 0)
			p, err := b.Problem()
			if err != nil {
				t.Fatal(err)
			}
			res := solveCertified(t, p, Options{})
			if res.Status != c.status {
				t.Fatalf("status %v, want %v (%s)", res.Status, c.status, c.reason)
			}
			if c.status == Optimal && !relClose(res.Objective, c.obj, 1e-9) {
				t.Errorf("objective %v, want %v (%s)", res.Objective, c.obj, c.reason)
			}
		})
	}
}

func TestSolveEmptyProblem(t *testing.T) {
	res := solveCertified(t, &Problem{}, Options{})
	if res.Status != Optimal || res.Objective != 0 {
		t.Fatalf("empty problem: %v %v", res.Status, res.Objective)
	}
}

func TestSolveRejectsBadBasisAndMIP(t *testing.T) {
	var b Builder
	x := b.AddCol("x", 1, 0, 1)
	b.AddRow("r", 0, 1, []int{x}, []float64{1})
	p, _ := b.Problem()
	bad := []*Basis{
		{Cols: []BasisStatus{Basic}, Rows: nil},
		{Cols: []BasisStatus{Basic}, Rows: []BasisStatus{Basic}},
		{Cols: []BasisStatus{AtLower}, Rows: []BasisStatus{AtLower}},
		{Cols: []BasisStatus{7}, Rows: []BasisStatus{Basic}},
	}
	for k, bs := range bad {
		if _, err := Solve(context.Background(), p, Options{Basis: bs}); !errors.Is(err, ErrInvalid) {
			t.Errorf("basis %d: err = %v, want ErrInvalid", k, err)
		}
	}
	b.AddIntCol("z", 1, 0, 3)
	q, _ := b.Problem()
	if _, err := Solve(context.Background(), q, Options{Basis: bad[0]}); !errors.Is(err, ErrInvalid) {
		t.Errorf("MIP with a bad basis: err = %v, want ErrInvalid", err)
	}
	if _, err := Solve(context.Background(), p, Options{TimeLimit: -time.Second}); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative time limit: err = %v", err)
	}
}

// genLP draws a small LP of varied shape: bounds of every kind, rows of
// every kind, integer coefficients.
func genLP(t *rapid.T) *Problem {
	m := rapid.IntRange(0, 7).Draw(t, "rows")
	n := rapid.IntRange(1, 9).Draw(t, "cols")
	inf := math.Inf(1)
	var b Builder
	bound := func(label string) (float64, float64) {
		lo := float64(rapid.IntRange(-6, 3).Draw(t, label+"lo"))
		w := float64(rapid.IntRange(0, 8).Draw(t, label+"width"))
		switch rapid.IntRange(0, 5).Draw(t, label+"kind") {
		case 0:
			return lo, inf
		case 1:
			return -inf, lo + w
		case 2:
			return -inf, inf
		case 3:
			return lo, lo
		}
		return lo, lo + w
	}
	for j := 0; j < n; j++ {
		lo, up := bound("col")
		b.AddCol("", float64(rapid.IntRange(-5, 5).Draw(t, "cost")), lo, up)
	}
	for i := 0; i < m; i++ {
		var cols []int
		var vals []float64
		for j := 0; j < n; j++ {
			if rapid.IntRange(0, 2).Draw(t, "present") > 0 {
				if v := rapid.IntRange(-4, 4).Draw(t, "coef"); v != 0 {
					cols = append(cols, j)
					vals = append(vals, float64(v))
				}
			}
		}
		lo, up := bound("row")
		lo, up = 3*lo, 3*up
		b.AddRow("", lo, up, cols, vals)
	}
	b.SetObjective(rapid.Bool().Draw(t, "maximize"), float64(rapid.IntRange(-3, 3).Draw(t, "offset")))
	p, err := b.Problem()
	if err != nil {
		t.Fatalf("generator: %v", err)
	}
	return p
}

func solveRapid(t *rapid.T, p *Problem, opt Options) Result {
	res, err := Solve(context.Background(), p, opt)
	if err != nil {
		t.Fatalf("Solve: %v\n%s", err, goLiteral(p))
	}
	if err := res.Verify(p, certTol); err != nil {
		t.Fatalf("status %v: %v\n%s", res.Status, err, goLiteral(p))
	}
	return res
}

func sameAnswer(t *rapid.T, what string, a, b Result, scale float64) {
	if a.Status != b.Status {
		t.Fatalf("%s: status %v, want %v", what, b.Status, a.Status)
	}
	if a.Status == Optimal && !relClose(a.Objective*scale, b.Objective, 1e-7) {
		t.Fatalf("%s: objective %v, want %v", what, b.Objective, a.Objective*scale)
	}
}

// permuted returns p with rows and columns permuted.
func permuted(p *Problem, rowPerm, colPerm []int) *Problem {
	var b Builder
	for _, j := range colPerm {
		b.AddCol("", p.Cost[j], p.ColLower[j], p.ColUpper[j])
	}
	colAt := make([]int, len(colPerm))
	for k, j := range colPerm {
		colAt[j] = k
	}
	rowAt := make([]int, len(rowPerm))
	for k, i := range rowPerm {
		rowAt[i] = k
		b.AddRow("", p.RowLower[i], p.RowUpper[i], nil, nil)
	}
	for j := 0; j < p.NumCols(); j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			b.Set(rowAt[p.A.Index[k]], colAt[j], p.A.Value[k])
		}
	}
	b.SetObjective(p.Maximize, p.Offset)
	q, _ := b.Problem()
	return q
}

// clone returns a deep copy of p via the Builder.
func clone(p *Problem) *Builder {
	var b Builder
	for j := 0; j < p.NumCols(); j++ {
		b.AddCol("", p.Cost[j], p.ColLower[j], p.ColUpper[j])
	}
	for i := 0; i < p.NumRows(); i++ {
		b.AddRow("", p.RowLower[i], p.RowUpper[i], nil, nil)
	}
	for j := 0; j < p.NumCols(); j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			b.Set(int(p.A.Index[k]), j, p.A.Value[k])
		}
	}
	b.SetObjective(p.Maximize, p.Offset)
	return &b
}

func checkLPProperties(t *rapid.T) {
	p := genLP(t)
	base := solveRapid(t, p, Options{})

	// Permuting rows and columns.
	rowPerm := rapid.Permutation(seq(p.NumRows())).Draw(t, "rowPerm")
	colPerm := rapid.Permutation(seq(p.NumCols())).Draw(t, "colPerm")
	sameAnswer(t, "permuted", base, solveRapid(t, permuted(p, rowPerm, colPerm), Options{}), 1)

	// Scaling a row (a negative factor swaps its bounds).
	if p.NumRows() > 0 {
		i := rapid.IntRange(0, p.NumRows()-1).Draw(t, "scaledRow")
		f := []float64{-3, -0.5, 0.1, 7, 1e3}[rapid.IntRange(0, 4).Draw(t, "rowFactor")]
		b := clone(p)
		q, _ := b.Problem()
		for j := 0; j < q.NumCols(); j++ {
			for k := q.A.Start[j]; k < q.A.Start[j+1]; k++ {
				if int(q.A.Index[k]) == i {
					q.A.Value[k] *= f
				}
			}
		}
		lo, up := q.RowLower[i]*f, q.RowUpper[i]*f
		if f < 0 {
			lo, up = up, lo
		}
		q.RowLower[i], q.RowUpper[i] = lo, up
		sameAnswer(t, "scaled row", base, solveRapid(t, q, Options{}), 1)
	}

	// Scaling the objective (and offset) by a positive factor.
	{
		f := []float64{0.001, 0.3, 4, 1e4}[rapid.IntRange(0, 3).Draw(t, "objFactor")]
		q, _ := clone(p).Problem()
		for j := range q.Cost {
			q.Cost[j] *= f
		}
		q.Offset *= f
		sameAnswer(t, "scaled objective", base, solveRapid(t, q, Options{}), f)
	}

	// A redundant row: the sum of two rows with the summed bounds.
	if p.NumRows() >= 2 {
		i1 := rapid.IntRange(0, p.NumRows()-1).Draw(t, "red1")
		i2 := rapid.IntRange(0, p.NumRows()-1).Draw(t, "red2")
		b := clone(p)
		r := b.AddRow("", p.RowLower[i1]+p.RowLower[i2], p.RowUpper[i1]+p.RowUpper[i2], nil, nil)
		for j := 0; j < p.NumCols(); j++ {
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				if i := int(p.A.Index[k]); i == i1 {
					b.Set(r, j, p.A.Value[k])
				}
				if i := int(p.A.Index[k]); i == i2 {
					b.Set(r, j, p.A.Value[k])
				}
			}
		}
		q, err := b.Problem()
		if err == nil {
			sameAnswer(t, "redundant row", base, solveRapid(t, q, Options{}), 1)
		}
	}

	// A dominated column: a copy of a column with no upper bound, costlier
	// (in the objective's sense), bounded to [0, U].
	for j := 0; j < p.NumCols(); j++ {
		if !math.IsInf(p.ColUpper[j], 1) {
			continue
		}
		b := clone(p)
		extra := float64(rapid.IntRange(0, 3).Draw(t, "domExtra"))
		if p.Maximize {
			extra = -extra
		}
		k := b.AddCol("", p.Cost[j]+extra, 0, float64(rapid.IntRange(0, 5).Draw(t, "domUpper")))
		for e := p.A.Start[j]; e < p.A.Start[j+1]; e++ {
			b.Set(int(p.A.Index[e]), k, p.A.Value[e])
		}
		q, _ := b.Problem()
		sameAnswer(t, "dominated column", base, solveRapid(t, q, Options{}), 1)
		break
	}

	// A warm start from the optimal basis takes no iteration.
	if base.Status == Optimal {
		warm := solveRapid(t, p, Options{Basis: base.Basis})
		sameAnswer(t, "warm start", base, warm, 1)
		if warm.Iterations != 0 {
			t.Fatalf("warm start from the optimal basis took %d iterations", warm.Iterations)
		}
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestLPProperties(t *testing.T) { rapid.Check(t, checkLPProperties) }

func FuzzLPProperties(f *testing.F) { f.Fuzz(rapid.MakeFuzz(checkLPProperties)) }

// goLiteral renders p as a Go expression, for reproducing failures.
func goLiteral(p *Problem) string {
	f := func(v []float64) string {
		s := "[]float64{"
		for k, x := range v {
			if k > 0 {
				s += ", "
			}
			switch {
			case math.IsInf(x, 1):
				s += "inf"
			case math.IsInf(x, -1):
				s += "-inf"
			default:
				s += fmt.Sprint(x)
			}
		}
		return s + "}"
	}
	g := func(v any) string { return fmt.Sprintf("%#v", v) }
	return fmt.Sprintf("&Problem{Maximize: %v, Offset: %v, Cost: %s, ColLower: %s, ColUpper: %s, RowLower: %s, RowUpper: %s, A: Matrix{Rows: %d, Cols: %d, Start: %s, Index: %s, Value: %s}}",
		p.Maximize, p.Offset, f(p.Cost), f(p.ColLower), f(p.ColUpper), f(p.RowLower), f(p.RowUpper), p.A.Rows, p.A.Cols, g(p.A.Start), g(p.A.Index), f(p.A.Value))
}
