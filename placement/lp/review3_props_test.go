package lp_test

// Review 3: property tests of the public API as a standalone solver. Each
// is registered twice (rapid.Check in TestX, rapid.MakeFuzz in FuzzX).

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gputco/gputco/placement/lp"
	"pgregory.net/rapid"
)

// genWild draws a small LP (or MILP when integer) with every kind of column
// (free, one-sided, fixed, boxed, with half-integral bounds) and row (equal,
// ≤, ≥, free, ranged, empty), either sense and an offset. Integer columns
// are kept bounded (a free integer column can make branch-and-bound run
// without end, see TestReview3ParityFree).
func genWild(t *rapid.T, integer bool) *lp.Problem {
	n := rapid.IntRange(1, 5).Draw(t, "n")
	m := rapid.IntRange(0, 4).Draw(t, "m")
	inf := math.Inf(1)
	var b lp.Builder
	for j := 0; j < n; j++ {
		cost := float64(rapid.IntRange(-4, 4).Draw(t, "cost")) / 2
		var lo, up float64
		switch rapid.IntRange(0, 5).Draw(t, "colKind") {
		case 0:
			lo, up = -inf, inf
		case 1:
			lo, up = float64(rapid.IntRange(-3, 3).Draw(t, "lo"))/2, inf
		case 2:
			lo, up = -inf, float64(rapid.IntRange(-3, 3).Draw(t, "up"))/2
		case 3:
			v := float64(rapid.IntRange(-3, 3).Draw(t, "fx")) / 2
			lo, up = v, v
		default:
			lo = float64(rapid.IntRange(-3, 3).Draw(t, "lo")) / 2
			up = lo + float64(rapid.IntRange(0, 5).Draw(t, "w"))/2
		}
		if integer && rapid.Bool().Draw(t, "int") {
			if math.IsInf(lo, -1) && math.IsInf(up, 1) {
				lo, up = -2, 1
			}
			if math.IsInf(lo, -1) {
				lo = up - 3
			}
			if math.IsInf(up, 1) {
				up = lo + 3
			}
			if math.Floor(up) < math.Ceil(lo) {
				up = math.Ceil(lo)
			}
			b.AddIntCol("", cost, lo, up)
		} else {
			b.AddCol("", cost, lo, up)
		}
	}
	for i := 0; i < m; i++ {
		var cols []int
		var vals []float64
		for j := 0; j < n; j++ {
			if rapid.IntRange(0, 2).Draw(t, "present") > 0 {
				if v := rapid.IntRange(-3, 3).Draw(t, "coef"); v != 0 {
					cols = append(cols, j)
					vals = append(vals, float64(v))
				}
			}
		}
		c := float64(rapid.IntRange(-6, 6).Draw(t, "rhs")) / 2
		w := float64(rapid.IntRange(0, 4).Draw(t, "rw")) / 2
		switch rapid.IntRange(0, 4).Draw(t, "rowKind") {
		case 0:
			b.AddRow("", c, c, cols, vals)
		case 1:
			b.AddRow("", -inf, c, cols, vals)
		case 2:
			b.AddRow("", c, inf, cols, vals)
		case 3:
			b.AddRow("", -inf, inf, cols, vals)
		default:
			b.AddRow("", c, c+w, cols, vals)
		}
	}
	b.SetObjective(rapid.Bool().Draw(t, "max"), float64(rapid.IntRange(-2, 2).Draw(t, "off")))
	p, err := b.Problem()
	if err != nil {
		t.Fatalf("gen: %v", err)
	}
	return p
}

// genNamed draws a small problem whose values include ±Inf, ±1e30, 1e-300
// and −0 and whose names include MPS keywords, comment starters, numbers
// and markers.
func genNamed(t *rapid.T) *lp.Problem {
	n := rapid.IntRange(1, 4).Draw(t, "n")
	m := rapid.IntRange(0, 4).Draw(t, "m")
	inf := math.Inf(1)
	vals := []float64{-inf, -3, -1, -0.5, 0, 0.5, 1, 2, 1e30, -1e30, inf, 1e-300, math.Copysign(0, -1)}
	name := rapid.OneOf(rapid.StringMatching(`[A-Za-z0-9_*$'"#:;!.\-+\[\]()^~=<>]{1,6}`),
		rapid.SampledFrom([]string{"OBJECTIVE", "OBJECTIVE_1", "RHS", "BND", "RNG", "RANGES", "BOUNDS", "ENDATA", "MARKER", "'MARKER'", "'INTORG'", "'INTEND'", "NAME", "*", "*x", "$x", "-1", "1e5", "Inf", "-Inf", "OBJSENSE", "MAX", "N", "UP", "é", "x\u00a0y", "ROWS", "COLUMNS", "OBJ", "C0", "R0", "C1", "R1"}))
	var b lp.Builder
	for j := 0; j < n; j++ {
		lo := rapid.SampledFrom(vals[:len(vals)-3]).Draw(t, "lo")
		up := rapid.SampledFrom(vals[1:]).Draw(t, "up")
		if up < lo {
			lo, up = up, lo
		}
		if math.IsInf(lo, 1) || math.IsInf(up, -1) {
			lo, up = 0, 1
		}
		cost := rapid.SampledFrom([]float64{0, 1, -2.5, 1e-7, 3e15}).Draw(t, "cost")
		if rapid.Bool().Draw(t, "int") && math.Floor(up) >= math.Ceil(lo) {
			b.AddIntCol(name.Draw(t, "cn"), cost, lo, up)
		} else {
			b.AddCol(name.Draw(t, "cn"), cost, lo, up)
		}
	}
	for i := 0; i < m; i++ {
		var cols []int
		var vs []float64
		for j := 0; j < n; j++ {
			if rapid.Bool().Draw(t, "present") {
				cols = append(cols, j)
				vs = append(vs, rapid.SampledFrom([]float64{1, -1, 0.1, 2.5e-8, 7}).Draw(t, "a"))
			}
		}
		lo := rapid.SampledFrom(vals[:len(vals)-3]).Draw(t, "rlo")
		up := rapid.SampledFrom(vals[1:]).Draw(t, "rup")
		if up < lo {
			lo, up = up, lo
		}
		if math.IsInf(lo, 1) || math.IsInf(up, -1) {
			lo, up = 0, 1
		}
		b.AddRow(name.Draw(t, "rn"), lo, up, cols, vs)
	}
	b.SetObjective(rapid.Bool().Draw(t, "max"), rapid.SampledFrom([]float64{0, 1.5, -2}).Draw(t, "off"))
	p, err := b.Problem()
	if err != nil {
		t.Fatalf("gen: %v", err)
	}
	return p
}

// review3RoundTripMPS: WriteMPS then ReadMPS gives back the same problem,
// bit for bit, names included (every drawn name is safe but 'MARKER'), for
// names that look like section keywords, comments, numbers or markers.
func review3RoundTripMPS(t *rapid.T) {

	p := genNamed(t)
	var buf bytes.Buffer
	if err := lp.WriteMPS(&buf, p); err != nil {
		t.Fatalf("write: %v", err)
	}
	q, err := lp.ReadMPS(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("read: %v\n%s", err, buf.String())
	}
	bad := func(what string, a, b any) {
		t.Fatalf("%s: %v vs %v\n%s", what, a, b, buf.String())
	}
	if p.Maximize != q.Maximize || p.Offset != q.Offset {
		bad("sense/offset", p.Offset, q.Offset)
	}
	if !slices.Equal(p.Cost, q.Cost) {
		bad("cost", p.Cost, q.Cost)
	}
	if !slices.Equal(p.ColLower, q.ColLower) || !slices.Equal(p.ColUpper, q.ColUpper) {
		bad("col bounds", [][]float64{p.ColLower, p.ColUpper}, [][]float64{q.ColLower, q.ColUpper})
	}
	if !slices.Equal(p.RowLower, q.RowLower) || !slices.Equal(p.RowUpper, q.RowUpper) {
		bad("row bounds", [][]float64{p.RowLower, p.RowUpper}, [][]float64{q.RowLower, q.RowUpper})
	}
	pi, qi := p.Integer, q.Integer
	if pi == nil {
		pi = make([]bool, p.NumCols())
	}
	if qi == nil {
		qi = make([]bool, q.NumCols())
	}
	if !slices.Equal(pi, qi) {
		bad("integer", pi, qi)
	}
	if !slices.Equal(p.A.Start, q.A.Start) || !slices.Equal(p.A.Index, q.A.Index) || !slices.Equal(p.A.Value, q.A.Value) {
		bad("matrix", p.A, q.A)
	}
	for i := range p.NumRows() {
		if p.RowName(i) != q.RowName(i) && !slices.Contains(p.RowNames[:i], p.RowName(i)) && p.RowName(i) != "'MARKER'" {
			t.Fatalf("row name %q -> %q\n%s", p.RowName(i), q.RowName(i), buf.String())
		}
	}
	for j := range p.NumCols() {
		if p.ColName(j) != q.ColName(j) && !slices.Contains(p.ColNames[:j], p.ColName(j)) && p.ColName(j) != "'MARKER'" {
			t.Fatalf("col name %q -> %q\n%s", p.ColName(j), q.ColName(j), buf.String())
		}
	}
}

func TestReview3RoundTripMPS(t *testing.T) { rapid.Check(t, review3RoundTripMPS) }
func FuzzReview3RoundTripMPS(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review3RoundTripMPS)) }

// review3LPFileCBC: a problem written by WriteLP (odd names, every bound
// form) is read by CBC without complaint and CBC finds the built-in
// solver's status and optimum. CLP may call an unbounded LP infeasible.
func review3LPFileCBC(t *rapid.T) {
	dir, err := os.MkdirTemp("", "review3lp")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)

	n := rapid.IntRange(1, 4).Draw(t, "n")
	m := rapid.IntRange(0, 4).Draw(t, "m")
	inf := math.Inf(1)
	vals := []float64{-inf, -3, -1, -0.5, 0, 0.5, 1, 2, inf}
	name := rapid.OneOf(rapid.StringMatching(`[A-Za-z0-9_*$'"#:;!.\-+\[\]()^~=<>]{1,6}`),
		rapid.SampledFrom([]string{"e1", "E2", "inf", "free", "st", "bounds", "end", "x", "obj", "Subject", "To", "R0", "C0", "C1", "R0_lo", "R0_hi", "generals", "binary", "s.t.", "infinity", "min", "max", "1x", "e", "E"}))
	var b lp.Builder
	for j := 0; j < n; j++ {
		lo := rapid.SampledFrom(vals[:len(vals)-1]).Draw(t, "lo")
		up := rapid.SampledFrom(vals[1:]).Draw(t, "up")
		if up < lo {
			lo, up = up, lo
		}
		cost := rapid.SampledFrom([]float64{0, 1, -2.5, -1}).Draw(t, "cost")
		if rapid.IntRange(0, 3).Draw(t, "int") == 0 && math.Floor(up) >= math.Ceil(lo) && !math.IsInf(lo, 0) && !math.IsInf(up, 0) {
			b.AddIntCol(name.Draw(t, "cn"), cost, lo, up)
		} else {
			b.AddCol(name.Draw(t, "cn"), cost, lo, up)
		}
	}
	for i := 0; i < m; i++ {
		var cols []int
		var vs []float64
		for j := 0; j < n; j++ {
			if rapid.Bool().Draw(t, "present") {
				cols = append(cols, j)
				vs = append(vs, rapid.SampledFrom([]float64{1, -1, 0.5, 3}).Draw(t, "a"))
			}
		}
		lo := rapid.SampledFrom(vals[:len(vals)-1]).Draw(t, "rlo")
		up := rapid.SampledFrom(vals[1:]).Draw(t, "rup")
		if up < lo {
			lo, up = up, lo
		}
		b.AddRow(name.Draw(t, "rn"), lo, up, cols, vs)
	}
	b.SetObjective(rapid.Bool().Draw(t, "max"), 0)
	p, err := b.Problem()
	if err != nil {
		t.Fatalf("gen: %v", err)
	}
	r, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := lp.WriteLP(&buf, p); err != nil {
		t.Fatalf("write: %v", err)
	}
	path := filepath.Join(dir, "m.lp")
	os.WriteFile(path, buf.Bytes(), 0o644)
	sol := filepath.Join(dir, "s.txt")
	os.Remove(sol)
	// CBC 2.10.8's integer preprocessing cuts off the optimum of a few
	// random MILPs, or calls them infeasible or unbounded
	// (review8_cbc_test.go), so a MILP is solved without it, as lp.CBC
	// does. Without it CBC crashes (SIGSEGV) writing the solution of a
	// MILP it proved infeasible by tightening bounds, its messages lost:
	// it is run again without the solution file for them.
	args := []string{path}
	if p.IsMIP() {
		args = append(args, "-preprocess", "off")
	}
	args = append(args, "-solve")
	out, err := exec.Command("cbc", append(args, "-solu", sol)...).CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && !exit.Exited() {
		if again, err2 := exec.Command("cbc", args...).CombinedOutput(); err2 == nil && strings.Contains(string(again), "Problem is infeasible - tightenPrimalBounds") {
			out, err = again, nil
			os.WriteFile(sol, []byte("Infeasible - tightenPrimalBounds\n"), 0o644)
		}
	}
	if err != nil {
		t.Fatalf("cbc: %v %s\n%s", err, out, buf.String())
	}
	txt, err := os.ReadFile(sol)
	if err != nil {
		t.Fatalf("no sol %s\n%s", out, buf.String())
	}
	first, _, _ := strings.Cut(string(txt), "\n")
	if strings.Contains(string(out), "###") {
		if !strings.Contains(string(out), "does not appear in objective") {
			t.Fatalf("cbc complains: %s\n%s", out, buf.String())
		}
	}
	if strings.Contains(string(out), "Empty problem") {
		t.Skip("empty")
	}
	switch {
	case strings.HasPrefix(first, "Optimal"):
		f := strings.Fields(first)
		v, _ := strconv.ParseFloat(f[len(f)-1], 64)
		if r.Status != lp.Optimal || math.Abs(v-r.Objective) > 1e-6*(1+math.Abs(v)) {
			t.Fatalf("builtin %v %v, cbc on LP file %q\n%s", r.Status, r.Objective, first, buf.String())
		}
	case strings.HasPrefix(first, "Infeasible") || strings.HasPrefix(first, "Integer infeasible"):
		if r.Status != lp.Infeasible && r.Status != lp.Unbounded {
			t.Fatalf("builtin %v %v, cbc on LP file %q\n%s", r.Status, r.Objective, first, buf.String())
		}
	case strings.HasPrefix(first, "Unbounded"):
		if r.Status != lp.Unbounded && r.Status != lp.Infeasible {
			t.Fatalf("builtin %v %v, cbc on LP file %q\n%s", r.Status, r.Objective, first, buf.String())
		}
	case strings.HasPrefix(first, "Stopped on difficulties"):
	default:
		t.Fatalf("cbc %q", first)
	}
}

func TestReview3LPFileCBC(t *testing.T) {
	if _, err := exec.LookPath("cbc"); err != nil {
		t.Skip("cbc not on PATH")
	}
	if testing.Short() {
		t.Skip("runs cbc 100 times")
	}
	rapid.Check(t, review3LPFileCBC)
}
func FuzzReview3LPFileCBC(f *testing.F) {
	if _, err := exec.LookPath("cbc"); err != nil {
		f.Skip("cbc not on PATH")
	}
	f.Fuzz(rapid.MakeFuzz(review3LPFileCBC))
}

// review3Limits: a MILP solved with an iteration limit, a node limit or a
// loose gap returns a status consistent with the full solve, an incumbent
// that is feasible and integral, a Bound on the right side of the optimum
// and an incumbent no better than it.
func review3Limits(t *rapid.T) {

	p := genWild(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	full, err := lp.Solve(ctx, p, lp.Options{})
	if err != nil || full.Status == lp.Cancelled {
		t.Skip("slow")
	}
	var opt lp.Options
	switch rapid.IntRange(0, 2).Draw(t, "lim") {
	case 0:
		opt.IterationLimit = rapid.IntRange(1, 30).Draw(t, "it")
	case 1:
		opt.NodeLimit = rapid.IntRange(1, 5).Draw(t, "nodes")
	case 2:
		opt.Gap = rapid.SampledFrom([]float64{0.01, 0.5, 10}).Draw(t, "gap")
	}
	r, err := lp.Solve(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.HasSolution() {
		if err := r.Verify(p, 1e-6); err != nil {
			t.Fatalf("%v: %v", r.Status, err)
		}
		for j, v := range r.X {
			if p.Integer != nil && p.Integer[j] && v != math.Round(v) {
				t.Fatalf("x%d=%v", j, v)
			}
		}
	}
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	switch r.Status {
	case lp.Optimal:
		if full.Status != lp.Optimal {
			t.Fatalf("limited optimal, full %v", full.Status)
		}
		tol := 1e-6 * (1 + math.Abs(full.Objective))
		if opt.Gap > 0 {
			tol += opt.Gap * math.Max(1, math.Abs(r.Objective))
		}
		if math.Abs(r.Objective-full.Objective) > tol {
			t.Fatalf("limited optimal %v, full %v (opt %+v)", r.Objective, full.Objective, opt)
		}
	case lp.Infeasible, lp.Unbounded:
		if full.Status != r.Status {
			t.Fatalf("limited %v, full %v", r.Status, full.Status)
		}
	case lp.IterationLimit, lp.NodeLimit:
		if full.Status == lp.Optimal && !math.IsInf(r.Bound, 0) && sign*(r.Bound-full.Objective) > 1e-6*(1+math.Abs(full.Objective)) {
			t.Fatalf("bound %v beyond optimum %v", r.Bound, full.Objective)
		}
		if full.Status == lp.Optimal && r.HasSolution() && sign*(r.Objective-full.Objective) < -1e-6*(1+math.Abs(full.Objective)) {
			t.Fatalf("incumbent %v better than optimum %v", r.Objective, full.Objective)
		}
	default:
		t.Fatalf("status %v", r.Status)
	}
}

func TestReview3Limits(t *testing.T) { rapid.Check(t, review3Limits) }
func FuzzReview3Limits(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review3Limits)) }

// review3Warm: the final Basis of one LP warm-starts the solve of the LP
// with other costs, bounds, row bounds and sense to the cold solve's status
// and optimum, with a certificate that Verify accepts; and Verify rejects
// the optimal certificate with one row dual moved by 10.
func review3Warm(t *rapid.T) {

	p := genWild(t, false)
	r, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil || r.Basis == nil {
		t.Skip()
	}
	q := *p
	q.Cost = slices.Clone(p.Cost)
	q.ColLower = slices.Clone(p.ColLower)
	q.ColUpper = slices.Clone(p.ColUpper)
	q.RowLower = slices.Clone(p.RowLower)
	q.RowUpper = slices.Clone(p.RowUpper)
	for j := range q.Cost {
		if rapid.Bool().Draw(t, "chc") {
			q.Cost[j] = float64(rapid.IntRange(-4, 4).Draw(t, "c"))
		}
		if rapid.Bool().Draw(t, "chb") {
			lo := float64(rapid.IntRange(-3, 3).Draw(t, "lo"))
			q.ColLower[j], q.ColUpper[j] = lo, lo+float64(rapid.IntRange(0, 3).Draw(t, "w"))
		}
	}
	for i := range q.RowLower {
		if rapid.Bool().Draw(t, "chr") {
			lo := float64(rapid.IntRange(-3, 3).Draw(t, "rlo"))
			q.RowLower[i], q.RowUpper[i] = lo, lo+float64(rapid.IntRange(0, 3).Draw(t, "rw"))
		}
	}
	q.Maximize = rapid.Bool().Draw(t, "max")
	cold, err := lp.Solve(context.Background(), &q, lp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	basis := *r.Basis
	warm, err := lp.Solve(context.Background(), &q, lp.Options{Basis: &basis})
	if err != nil {
		t.Fatal(err)
	}
	if err := warm.Verify(&q, 1e-6); err != nil {
		t.Fatalf("warm %v: %v", warm.Status, err)
	}
	if warm.Status != cold.Status {
		t.Fatalf("warm %v cold %v", warm.Status, cold.Status)
	}
	if cold.Status == lp.Optimal && math.Abs(cold.Objective-warm.Objective) > 1e-7*(1+math.Abs(cold.Objective)) {
		t.Fatalf("warm %v cold %v", warm.Objective, cold.Objective)
	}
	// Verify must reject a clearly wrong dual.
	if cold.Status == lp.Optimal && len(cold.RowDual) > 0 {
		bad := cold
		bad.RowDual = slices.Clone(cold.RowDual)
		k := rapid.IntRange(0, len(bad.RowDual)-1).Draw(t, "k")
		if q.A.NNZ() > 0 {
			bad.RowDual[k] += 10
			rowHas := false
			for _, i := range q.A.Index {
				if int(i) == k {
					rowHas = true
				}
			}
			if rowHas && bad.Verify(&q, 1e-6) == nil {
				t.Fatalf("Verify accepted a dual off by 10 on row %d", k)
			}
		}
	}
}

func TestReview3Warm(t *testing.T) { rapid.Check(t, review3Warm) }
func FuzzReview3Warm(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review3Warm)) }

// cloneProblem is a deep copy of p.
func cloneProblem(p *lp.Problem) *lp.Problem {
	q := *p
	q.Cost = slices.Clone(p.Cost)
	q.ColLower = slices.Clone(p.ColLower)
	q.ColUpper = slices.Clone(p.ColUpper)
	q.Integer = slices.Clone(p.Integer)
	q.ColNames = slices.Clone(p.ColNames)
	q.RowLower = slices.Clone(p.RowLower)
	q.RowUpper = slices.Clone(p.RowUpper)
	q.RowNames = slices.Clone(p.RowNames)
	q.A.Start = slices.Clone(p.A.Start)
	q.A.Index = slices.Clone(p.A.Index)
	q.A.Value = slices.Clone(p.A.Value)
	return &q
}

// review3Concurrent: "one Problem may be solved concurrently by several
// goroutines", "Solve never modifies p or opt.Basis" and "the same problem
// and options give the same Result": three goroutines solve one problem
// (one of them warm from the first solve's basis); two give exactly the
// serial Result, and p and the basis are unchanged (run with -race).
func review3Concurrent(t *rapid.T) {

	p := genWild(t, rapid.Bool().Draw(t, "mip"))
	orig := cloneProblem(p)
	first, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var opt lp.Options
	var basisCopy *lp.Basis
	if first.Basis != nil {
		b := lp.Basis{Cols: slices.Clone(first.Basis.Cols), Rows: slices.Clone(first.Basis.Rows)}
		basisCopy = &lp.Basis{Cols: slices.Clone(b.Cols), Rows: slices.Clone(b.Rows)}
		opt.Basis = &b
	}
	var wg sync.WaitGroup
	res := make([]lp.Result, 3)
	errs := make([]error, 3)
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := lp.Options{}
			if g == 2 {
				o = opt
			}
			res[g], errs[g] = lp.Solve(context.Background(), p, o)
		}()
	}
	wg.Wait()
	for g := range 2 {
		if errs[g] != nil {
			t.Fatal(errs[g])
		}
		a, b := res[g], first
		a.Elapsed, b.Elapsed = 0, 0
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("goroutine %d: result differs: %+v vs %+v", g, a, b)
		}
	}
	if !reflect.DeepEqual(p, orig) {
		t.Fatalf("problem modified")
	}
	if basisCopy != nil && !reflect.DeepEqual(opt.Basis, basisCopy) {
		t.Fatalf("basis modified")
	}
}

func TestReview3Concurrent(t *testing.T) { rapid.Check(t, review3Concurrent) }
func FuzzReview3Concurrent(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review3Concurrent)) }

// feasible reports whether x satisfies p's bounds and integrality within
// 1e-6 and its rows within 1e-6 relative to Σ|a_ij·x_j| (the measure of
// Result.Verify: rounding the integer columns of a solution leaves a
// residual on a row with large terms that cancel).
func feasible(p *lp.Problem, x []float64) bool {
	for j, v := range x {
		if v < p.ColLower[j]-1e-6 || v > p.ColUpper[j]+1e-6 {
			return false
		}
		if p.Integer != nil && p.Integer[j] && math.Abs(v-math.Round(v)) > 1e-6 {
			return false
		}
	}
	act := make([]float64, p.NumRows())
	mag := make([]float64, p.NumRows())
	for j := range p.NumCols() {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			act[p.A.Index[k]] += p.A.Value[k] * x[j]
			mag[p.A.Index[k]] += math.Abs(p.A.Value[k] * x[j])
		}
	}
	for i, a := range act {
		tol := 1e-6 * (1 + mag[i])
		if a < p.RowLower[i]-tol || a > p.RowUpper[i]+tol {
			return false
		}
	}
	return true
}

// review3MediumMILP: MILPs of 5 to 10 columns (general integers up to 40,
// some continuous) and 2 to 8 rows with coefficients up to ±300, against
// CBC. CBC itself is sometimes wrong (it reported 1 for a two-variable
// MILP whose optimum is −0.5), so the oracle is a feasible point: the
// built-in point must be feasible, and a feasible CBC point must not beat
// the built-in proven optimum nor exist when the built-in solver says
// Infeasible.
func review3MediumMILP(t *rapid.T) {

	n := rapid.IntRange(5, 10).Draw(t, "n")
	m := rapid.IntRange(2, 8).Draw(t, "m")
	inf := math.Inf(1)
	var b lp.Builder
	for j := 0; j < n; j++ {
		cost := float64(rapid.IntRange(-50, 50).Draw(t, "c"))
		up := float64(rapid.IntRange(1, 40).Draw(t, "up"))
		lo := float64(rapid.IntRange(-5, 0).Draw(t, "lo"))
		if rapid.IntRange(0, 3).Draw(t, "cont") == 0 {
			b.AddCol("", cost/7, lo, up)
		} else {
			b.AddIntCol("", cost, lo, up)
		}
	}
	for i := 0; i < m; i++ {
		var cols []int
		var vals []float64
		for j := 0; j < n; j++ {
			if rapid.IntRange(0, 2).Draw(t, "p") == 0 {
				cols = append(cols, j)
				vals = append(vals, float64(rapid.IntRange(-300, 300).Draw(t, "a")))
			}
		}
		r := float64(rapid.IntRange(-500, 500).Draw(t, "r"))
		switch rapid.IntRange(0, 3).Draw(t, "k") {
		case 0:
			b.AddRow("", r, r, cols, vals)
		case 1:
			b.AddRow("", -inf, r, cols, vals)
		case 2:
			b.AddRow("", r, inf, cols, vals)
		default:
			b.AddRow("", r, r+float64(rapid.IntRange(0, 200).Draw(t, "w")), cols, vals)
		}
	}
	b.SetObjective(rapid.Bool().Draw(t, "max"), 0)
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := lp.Solve(ctx, p, lp.Options{})
	if r.Status == lp.Cancelled {
		t.Skip("slow")
	}
	if err != nil {
		t.Fatal(err)
	}
	c, err := lp.CBC{}.Solve(context.Background(), p, lp.Options{TimeLimit: 10 * time.Second})
	if err != nil || (c.Status != lp.Optimal && c.Status != lp.Infeasible) {
		t.Skip("cbc")
	}
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	dump := func() string {
		var buf bytes.Buffer
		_ = lp.WriteLP(&buf, p)
		return buf.String()
	}
	if r.HasSolution() && !feasible(p, r.X) {
		t.Fatalf("builtin point infeasible\n%s", dump())
	}
	switch {
	case r.Status == lp.Infeasible && c.Status == lp.Optimal && feasible(p, c.X):
		t.Fatalf("builtin infeasible, cbc has feasible point obj %v x %v\n%s", c.Objective, c.X, dump())
	case r.Status == lp.Optimal && c.Status == lp.Optimal && feasible(p, c.X) && sign*(c.Objective-r.Objective) < -1e-6*(1+math.Abs(r.Objective)):
		t.Fatalf("builtin optimal %v, cbc feasible better %v\n%s", r.Objective, c.Objective, dump())
	case r.Status == lp.Optimal && c.Status == lp.Optimal && sign*(c.Objective-r.Objective) > 1e-6*(1+math.Abs(r.Objective)):
		t.Logf("cbc worse: builtin %v cbc %v", r.Objective, c.Objective)
	}
}

func TestReview3MediumMILP(t *testing.T) {
	if _, err := exec.LookPath("cbc"); err != nil {
		t.Skip("cbc not on PATH")
	}
	if testing.Short() {
		t.Skip("runs cbc 100 times")
	}
	rapid.Check(t, review3MediumMILP)
}
func FuzzReview3MediumMILP(f *testing.F) {
	if _, err := exec.LookPath("cbc"); err != nil {
		f.Skip("cbc not on PATH")
	}
	f.Fuzz(rapid.MakeFuzz(review3MediumMILP))
}

// review3MIPExtras: on small MILPs, Progress never moves the bound back or
// the incumbent to a worse value and never reports a bound beyond the
// incumbent; an Unbounded MILP comes with a feasible X; an optimal MILP's
// Bound is not beyond its objective, a Start at its optimum survives a
// node limit of 1, and the relaxation's basis warm-starts it to the same
// optimum.
func review3MIPExtras(t *rapid.T) {

	p := genWild(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var last lp.Progress
	calls := 0
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	r, err := lp.Solve(ctx, p, lp.Options{Progress: func(pr lp.Progress) {
		if calls > 0 {
			if sign*(pr.Bound-last.Bound) < -1e-9*(1+math.Abs(last.Bound)) {
				t.Errorf("bound went back %v -> %v", last.Bound, pr.Bound)
			}
			if sign*(pr.Incumbent-last.Incumbent) > 1e-9*(1+math.Abs(last.Incumbent)) {
				t.Errorf("incumbent worsened %v -> %v", last.Incumbent, pr.Incumbent)
			}
		}
		if !math.IsInf(pr.Incumbent, 0) && sign*(pr.Bound-pr.Incumbent) > 1e-6*(1+math.Abs(pr.Incumbent)) {
			t.Errorf("bound %v beyond incumbent %v", pr.Bound, pr.Incumbent)
		}
		last = pr
		calls++
	}})
	if err != nil || r.Status == lp.Cancelled {
		t.Skip()
	}
	if r.Status == lp.Unbounded && p.IsMIP() {
		if r.X == nil {
			t.Fatalf("unbounded MIP without X")
		}
		if err := r.Verify(p, 1e-6); err != nil {
			t.Fatal(err)
		}
	}
	if r.Status == lp.Optimal && p.IsMIP() {
		if sign*(r.Bound-r.Objective) > 1e-6*(1+math.Abs(r.Objective)) {
			t.Fatalf("bound %v beyond objective %v", r.Bound, r.Objective)
		}
		// Start from the optimum: same optimum, one iteration enough to keep it.
		s, err := lp.Solve(context.Background(), p, lp.Options{Start: r.X, NodeLimit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !s.HasSolution() || sign*(s.Objective-r.Objective) > 1e-9*(1+math.Abs(r.Objective)) {
			t.Fatalf("start at optimum %v: %v %v", r.Objective, s.Status, s.Objective)
		}
		// Relaxation basis as warm start.
		q := *p
		q.Integer = nil
		rel, err := lp.Solve(context.Background(), &q, lp.Options{})
		if err == nil && rel.Basis != nil {
			w, err := lp.Solve(context.Background(), p, lp.Options{Basis: rel.Basis})
			if err != nil || w.Status != lp.Optimal || math.Abs(w.Objective-r.Objective) > 1e-6*(1+math.Abs(r.Objective)) {
				t.Fatalf("warm from relaxation: %v %v %v want %v", w.Status, w.Objective, err, r.Objective)
			}
		}
	}
}

func TestReview3MIPExtras(t *testing.T) { rapid.Check(t, review3MIPExtras) }
func FuzzReview3MIPExtras(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review3MIPExtras)) }

// review3BadScaling: an LP with its rows and columns scaled by powers of
// ten from 1e-5 to 1e5 (x_j = s_j·x'_j) has the same status and optimum,
// with a certificate that Verify accepts.
func review3BadScaling(t *rapid.T) {

	p := genWild(t, false)
	base, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := cloneProblem(p)
	rs := make([]float64, q.NumRows())
	for i := range rs {
		rs[i] = math.Pow(10, float64(rapid.IntRange(-5, 5).Draw(t, "rs")))
		q.RowLower[i] *= rs[i]
		q.RowUpper[i] *= rs[i]
	}
	for j := range q.NumCols() {
		s := math.Pow(10, float64(rapid.IntRange(-5, 5).Draw(t, "cs")))
		q.Cost[j] *= s
		q.ColLower[j] /= s
		q.ColUpper[j] /= s
		for k := q.A.Start[j]; k < q.A.Start[j+1]; k++ {
			q.A.Value[k] *= s * rs[q.A.Index[k]]
		}
	}
	r, err := lp.Solve(context.Background(), q, lp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Verify(q, 1e-6); err != nil {
		t.Fatalf("scaled %v: %v", r.Status, err)
	}
	if r.Status != base.Status {
		t.Fatalf("scaled %v, base %v (%v)", r.Status, base.Status, base.Objective)
	}
	if r.Status == lp.Optimal && math.Abs(r.Objective-base.Objective) > 1e-6*(1+math.Abs(base.Objective)) {
		t.Fatalf("scaled %v, base %v", r.Objective, base.Objective)
	}
}

func TestReview3BadScaling(t *testing.T) { rapid.Check(t, review3BadScaling) }
func FuzzReview3BadScaling(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review3BadScaling)) }

// review3RandomBasis: any basis of the right shape — statuses drawn at
// random, invalid values, the wrong number of basic entries, AtUpper on an
// infinite bound — either is refused with ErrInvalid or warm-starts the
// solve to the cold solve's status and optimum; it never panics.
func review3RandomBasis(t *rapid.T) {

	p := genWild(t, rapid.Bool().Draw(t, "mip"))
	base, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := rapid.SampledFrom([]lp.BasisStatus{lp.Basic, lp.AtLower, lp.AtUpper, lp.Zero, 4, -1})
	b := &lp.Basis{Cols: make([]lp.BasisStatus, p.NumCols()), Rows: make([]lp.BasisStatus, p.NumRows())}
	for j := range b.Cols {
		b.Cols[j] = st.Draw(t, "c")
	}
	for i := range b.Rows {
		b.Rows[i] = st.Draw(t, "r")
	}
	var r lp.Result
	func() {
		defer func() {
			if v := recover(); v != nil {
				t.Fatalf("panic %v with basis %+v", v, b)
			}
		}()
		r, err = lp.Solve(context.Background(), p, lp.Options{Basis: b})
	}()
	if err != nil {
		if !errors.Is(err, lp.ErrInvalid) {
			t.Fatalf("error %v", err)
		}
		return
	}
	if r.Status != base.Status {
		t.Fatalf("basis %+v: %v, cold %v", b, r.Status, base.Status)
	}
	if r.Status == lp.Optimal && math.Abs(r.Objective-base.Objective) > 1e-6*(1+math.Abs(base.Objective)) {
		t.Fatalf("basis %+v: %v, cold %v", b, r.Objective, base.Objective)
	}
	if err := r.Verify(p, 1e-6); err != nil {
		t.Fatal(err)
	}
}

func TestReview3RandomBasis(t *testing.T) { rapid.Check(t, review3RandomBasis) }
func FuzzReview3RandomBasis(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review3RandomBasis)) }

// review3VerifyRejects: Result.Verify is a certificate check, so it must
// refuse false certificates: a Farkas ray of a feasible problem, an
// unbounded ray of a problem with a finite optimum, an "optimal" point of
// an infeasible problem, and row duals whose dual objective differs from
// the optimum. The rays here have entries within a factor 1e5 of each
// other (wider spreads are TestReview3VerifyUnboundedRay's and
// TestReview3VerifyFarkasRay's findings).
func review3VerifyRejects(t *rapid.T) {

	p := genWild(t, false)
	r, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	vals := rapid.SampledFrom([]float64{0, 1, -1, 2, -0.5, 1e-9, 1e9, -1e9})
	switch r.Status {
	case lp.Optimal:
		// A feasible set exists: no Farkas ray can verify.
		y := make([]float64, p.NumRows())
		for i := range y {
			y[i] = vals.Draw(t, "y")
		}
		fake := lp.Result{Status: lp.Infeasible, Ray: y}
		ymx, ymn := 0.0, math.Inf(1)
		for _, v := range y {
			if v != 0 {
				ymx, ymn = math.Max(ymx, math.Abs(v)), math.Min(ymn, math.Abs(v))
			}
		}
		if ymx > 1e5*ymn {
			return
		}
		if err := fake.Verify(p, 1e-6); err == nil {
			var buf bytes.Buffer
			_ = lp.WriteLP(&buf, p)
			t.Fatalf("Verify accepts Farkas ray %v of a feasible problem (optimum %v, x %v)\n%s", y, r.Objective, r.X, buf.String())
		}
		// The optimum is finite: no unbounded ray can verify.
		d := make([]float64, p.NumCols())
		for j := range d {
			d[j] = vals.Draw(t, "d")
		}
		mx, mn := 0.0, math.Inf(1)
		for _, v := range d {
			if v != 0 {
				mx, mn = math.Max(mx, math.Abs(v)), math.Min(mn, math.Abs(v))
			}
		}
		if mx > 1e5*mn {
			return
		}
		fu := lp.Result{Status: lp.Unbounded, Ray: d, X: r.X, RowActivity: r.RowActivity, Objective: r.Objective}
		if err := fu.Verify(p, 1e-6); err == nil {
			var buf bytes.Buffer
			_ = lp.WriteLP(&buf, p)
			t.Fatalf("Verify accepts unbounded ray %v of a bounded problem (optimum %v)\n%s", d, r.Objective, buf.String())
		}
		// Wrong duals.
		if len(r.RowDual) > 0 {
			w := r
			w.RowDual = slices.Clone(r.RowDual)
			w.ReducedCost = slices.Clone(r.ReducedCost)
			for i := range w.RowDual {
				w.RowDual[i] = rapid.SampledFrom([]float64{0, 1, -1, 2, -0.5, 3}).Draw(t, "yd")
			}
			// recompute reduced costs consistently: d = c - A^T y
			for j := range p.NumCols() {
				s := p.Cost[j]
				for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
					s -= p.A.Value[k] * w.RowDual[p.A.Index[k]]
				}
				w.ReducedCost[j] = s
			}
			if w.Verify(p, 1e-6) == nil {
				// Then it must really be a valid dual: check dual objective equality independently.
				dobj := p.Offset
				for i, yi := range w.RowDual {
					if math.Abs(yi) > 1e-9 {
						b := p.RowLower[i]
						if (yi < 0) != p.Maximize {
							b = p.RowUpper[i]
						}
						dobj += yi * b
					}
				}
				for j, dj := range w.ReducedCost {
					if math.Abs(dj) > 1e-9 {
						b := p.ColLower[j]
						if (dj < 0) != p.Maximize {
							b = p.ColUpper[j]
						}
						dobj += dj * b
					}
				}
				if math.IsInf(dobj, 0) || math.IsNaN(dobj) || math.Abs(dobj-r.Objective) > 1e-5*(1+math.Abs(r.Objective)) {
					t.Fatalf("Verify accepts duals %v (d %v) with dual objective %v, primal %v", w.RowDual, w.ReducedCost, dobj, r.Objective)
				}
			}
		}
	case lp.Infeasible:
		x := make([]float64, p.NumCols())
		for j := range x {
			x[j] = vals.Draw(t, "x")
		}
		fake := lp.Result{Status: lp.Optimal, X: x}
		act := make([]float64, p.NumRows())
		for j := range p.NumCols() {
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				act[p.A.Index[k]] += p.A.Value[k] * x[j]
			}
		}
		fake.RowActivity = act
		obj := p.Offset
		for j := range x {
			obj += p.Cost[j] * x[j]
		}
		fake.Objective = obj
		fake.RowDual = make([]float64, p.NumRows())
		fake.ReducedCost = slices.Clone(p.Cost)
		if err := fake.Verify(p, 1e-6); err == nil {
			t.Fatalf("Verify accepts optimal x %v of an infeasible problem", x)
		}
	}
}

func TestReview3VerifyRejects(t *testing.T) { rapid.Check(t, review3VerifyRejects) }
func FuzzReview3VerifyRejects(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review3VerifyRejects)) }

// review3VerifyNoPanic: Verify, Status.String and HasSolution never panic,
// whatever the Result holds (vectors of any length or nil, NaN, ±Inf,
// unknown statuses, any tolerance) and even for a malformed problem.
func review3VerifyNoPanic(t *rapid.T) {

	p := genWild(t, rapid.Bool().Draw(t, "mip"))
	if rapid.Bool().Draw(t, "badp") {
		p.Cost = p.Cost[:0]
	}
	v := rapid.SampledFrom([]float64{0, 1, -1, math.NaN(), math.Inf(1), math.Inf(-1), 1e308})
	vec := func(name string) []float64 {
		if rapid.IntRange(0, 4).Draw(t, name+"nil") == 0 {
			return nil
		}
		n := rapid.IntRange(0, 7).Draw(t, name+"len")
		x := make([]float64, n)
		for i := range x {
			x[i] = v.Draw(t, name)
		}
		return x
	}
	r := lp.Result{Status: lp.Status(rapid.IntRange(-2, 9).Draw(t, "status")), X: vec("x"), RowActivity: vec("act"),
		RowDual: vec("dual"), ReducedCost: vec("rc"), Ray: vec("ray"), Objective: v.Draw(t, "obj")}
	defer func() {
		if e := recover(); e != nil {
			t.Fatalf("Verify panics: %v (result %+v)", e, r)
		}
	}()
	_ = r.Verify(p, v.Draw(t, "tol"))
	_ = r.Status.String()
	_ = r.HasSolution()
}

func TestReview3VerifyNoPanic(t *testing.T) { rapid.Check(t, review3VerifyNoPanic) }
func FuzzReview3VerifyNoPanic(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review3VerifyNoPanic)) }
