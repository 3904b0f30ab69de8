package lp

import (
	"compress/gzip"
	"context"
	"errors"
	"math"
	"os"
	"testing"

	"pgregory.net/rapid"
)

// modelResolves checks Model against Solve: after any sequence of bound
// changes (and, now and then, a basis installed from an earlier answer),
// Model.Solve's answer passes its certificate for the problem with the
// current bounds, and agrees with a fresh Solve of that problem: the same
// optimum when Solve finds one, no optimum when it proves there is none.
func modelResolves(t *rapid.T) {
	seed := rapid.Uint64().Draw(t, "seed")
	m := rapid.IntRange(1, 12).Draw(t, "m")
	n := rapid.IntRange(1, 16).Draw(t, "n")
	kind := randomKind(rapid.IntRange(0, 2).Draw(t, "kind"))
	p := randomProblem(seed, m, n, kind, false)
	orig := *p
	orig.ColLower = append([]float64(nil), p.ColLower...)
	orig.ColUpper = append([]float64(nil), p.ColUpper...)
	mdl, err := NewModel(p)
	if err != nil {
		t.Fatalf("NewModel: %v", err)
	}
	cur := *p
	cur.ColLower = append([]float64(nil), p.ColLower...)
	cur.ColUpper = append([]float64(nil), p.ColUpper...)
	var saved *Basis
	steps := rapid.IntRange(1, 8).Draw(t, "steps")
	for step := range steps {
		if step > 0 {
			j := rapid.IntRange(0, n-1).Draw(t, "col")
			lo, up := orig.ColLower[j], orig.ColUpper[j]
			switch rapid.IntRange(0, 3).Draw(t, "change") {
			case 0: // back to the original bounds
			case 1: // fix at a value
				v := float64(rapid.IntRange(-4, 4).Draw(t, "fix"))
				lo, up = v, v
			case 2: // tighten one side
				v := float64(rapid.IntRange(-4, 4).Draw(t, "side"))
				if rapid.Bool().Draw(t, "up") {
					up = max(v, lo)
					if math.IsInf(lo, 1) {
						lo = up
					}
				} else {
					lo = min(v, up)
				}
			case 3: // a box
				a := float64(rapid.IntRange(-4, 4).Draw(t, "a"))
				lo, up = a, a+float64(rapid.IntRange(0, 4).Draw(t, "w"))
			}
			if err := mdl.SetColBounds(j, lo, up); err != nil {
				t.Fatalf("SetColBounds(%d, %v, %v): %v", j, lo, up, err)
			}
			cur.ColLower[j], cur.ColUpper[j] = lo, up
			if l, u := mdl.ColBounds(j); l != lo || u != up {
				t.Fatalf("ColBounds(%d) = %v, %v after SetColBounds(%v, %v)", j, l, u, lo, up)
			}
		}
		var opt Options
		if saved != nil && rapid.IntRange(0, 3).Draw(t, "basis") == 0 {
			opt.Basis = saved
		}
		got, err := mdl.Solve(context.Background(), opt)
		if err != nil {
			t.Fatalf("step %d: Model.Solve: %v", step, err)
		}
		if got.Iterations < 0 {
			t.Fatalf("step %d: %d iterations", step, got.Iterations)
		}
		if err := got.Verify(&cur, 1e-6); err != nil {
			t.Fatalf("step %d: %s answer fails its certificate for the current bounds: %v", step, got.Status, err)
		}
		want, err := Solve(context.Background(), &cur, Options{})
		if err != nil {
			t.Fatalf("step %d: Solve: %v", step, err)
		}
		switch want.Status {
		case Optimal:
			if got.Status != Optimal {
				t.Fatalf("step %d: Model.Solve %s, Solve optimal at %v", step, got.Status, want.Objective)
			}
			if d := math.Abs(got.Objective - want.Objective); d > 1e-6*max(1, math.Abs(want.Objective)) {
				t.Fatalf("step %d: Model.Solve objective %v, Solve's %v", step, got.Objective, want.Objective)
			}
		case Infeasible, Unbounded:
			if got.Status != Infeasible && got.Status != Unbounded {
				t.Fatalf("step %d: Model.Solve %s, Solve %s", step, got.Status, want.Status)
			}
		default:
			t.Fatalf("step %d: Solve ended %s", step, want.Status)
		}
		if got.Basis != nil {
			saved = got.Basis
		}
	}
	// The caller's problem is untouched.
	for j := range p.ColLower {
		if p.ColLower[j] != orig.ColLower[j] || p.ColUpper[j] != orig.ColUpper[j] {
			t.Fatalf("NewModel's problem changed: column %d bounds [%v, %v], were [%v, %v]", j, p.ColLower[j], p.ColUpper[j], orig.ColLower[j], orig.ColUpper[j])
		}
	}
}

func TestModelResolves(t *testing.T) { rapid.Check(t, modelResolves) }
func FuzzModelResolves(f *testing.F) { f.Fuzz(rapid.MakeFuzz(modelResolves)) }

// TestModelWarm checks that a re-solve after one bound change starts from
// the last basis: it takes a few iterations where the first solve took
// many, and an iteration limit bounds the call, not the model's total.
func TestModelWarm(t *testing.T) {
	p := randomProblem(7, 40, 60, randomFeasible, false)
	mdl, err := NewModel(p)
	if err != nil {
		t.Fatal(err)
	}
	first, err := mdl.Solve(context.Background(), Options{})
	if err != nil || first.Status != Optimal {
		t.Fatalf("first solve: %v %v", first.Status, err)
	}
	again, err := mdl.Solve(context.Background(), Options{})
	if err != nil || again.Status != Optimal {
		t.Fatalf("second solve: %v %v", again.Status, err)
	}
	if again.Iterations != 0 || again.Objective != first.Objective {
		t.Errorf("re-solve with nothing changed: %d iterations, objective %v (was %v)", again.Iterations, again.Objective, first.Objective)
	}
	// Bound the basic column with the largest value below its value.
	j := -1
	for k, v := range first.X {
		if first.Basis.Cols[k] == Basic && (j < 0 || v > first.X[j]) && v > p.ColLower[k]+1 {
			j = k
		}
	}
	if j < 0 {
		t.Skip("no basic column away from its lower bound")
	}
	lo, _ := mdl.ColBounds(j)
	if err := mdl.SetColBounds(j, lo, first.X[j]-1); err != nil {
		t.Fatal(err)
	}
	warm, err := mdl.Solve(context.Background(), Options{IterationLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if warm.Iterations > 1 {
		t.Errorf("iteration limit 1: %d iterations", warm.Iterations)
	}
	warm, err = mdl.Solve(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cur := *p
	cur.ColUpper = append([]float64(nil), p.ColUpper...)
	cur.ColUpper[j] = first.X[j] - 1
	fresh, err := Solve(context.Background(), &cur, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if warm.Status != fresh.Status || (fresh.Status == Optimal && math.Abs(warm.Objective-fresh.Objective) > 1e-6*max(1, math.Abs(fresh.Objective))) {
		t.Fatalf("after the bound: Model %s %v, Solve %s %v", warm.Status, warm.Objective, fresh.Status, fresh.Objective)
	}
	if warm.Iterations >= first.Iterations {
		t.Errorf("warm re-solve took %d iterations, the first solve %d", warm.Iterations, first.Iterations)
	}
}

func TestModelInvalid(t *testing.T) {
	if _, err := NewModel(&Problem{Cost: []float64{1}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewModel of an invalid problem: %v, want ErrInvalid", err)
	}
	p := randomProblem(3, 3, 4, randomFeasible, false)
	mdl, err := NewModel(p)
	if err != nil {
		t.Fatal(err)
	}
	inf := math.Inf(1)
	for _, c := range []struct {
		j      int
		lo, up float64
	}{{-1, 0, 1}, {4, 0, 1}, {0, 2, 1}, {0, math.NaN(), 1}, {0, 0, math.NaN()}, {0, inf, inf}, {0, -inf, -inf}} {
		before, beforeUp := mdl.ColBounds(max(0, min(c.j, 3)))
		if err := mdl.SetColBounds(c.j, c.lo, c.up); !errors.Is(err, ErrInvalid) {
			t.Errorf("SetColBounds(%d, %v, %v): %v, want ErrInvalid", c.j, c.lo, c.up, err)
		}
		if l, u := mdl.ColBounds(max(0, min(c.j, 3))); l != before || u != beforeUp {
			t.Errorf("SetColBounds(%d, %v, %v) changed the bounds", c.j, c.lo, c.up)
		}
	}
	if err := mdl.SetBasis(nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetBasis(nil): %v, want ErrInvalid", err)
	}
	if err := mdl.SetBasis(&Basis{Cols: make([]BasisStatus, 4), Rows: make([]BasisStatus, 2)}); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetBasis of the wrong shape: %v, want ErrInvalid", err)
	}
	if _, err := mdl.Solve(context.Background(), Options{IterationLimit: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Solve with a negative iteration limit: %v, want ErrInvalid", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := mdl.Solve(ctx, Options{}); !errors.Is(err, context.Canceled) || r.Status != Cancelled {
		t.Errorf("Solve on a cancelled context: %s %v, want Cancelled and context.Canceled", r.Status, err)
	}
}

// BenchmarkModelResolve measures a re-solve after one bound change, as a
// dive makes it, by a Model (warm, nothing rebuilt) and by Solve from the
// last basis (the LP built, scaled and factorised again): on the LP
// relaxation of MIPLIB's p2756 (755 rows, 2 756 columns), the most
// fractional binary is bounded to 0, then freed again.
//
//	go test ./placement/lp -run '^$' -bench ModelResolve
func BenchmarkModelResolve(b *testing.B) {
	f, err := os.Open("testdata/miplib/p2756.mps.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	p, err := ReadMPS(zr)
	if err != nil {
		b.Fatal(err)
	}
	p.Integer = nil
	first, err := Solve(context.Background(), p, Options{})
	if err != nil || first.Status != Optimal {
		b.Fatalf("%v %v", first.Status, err)
	}
	j := -1
	for k, v := range first.X {
		if p.ColLower[k] == 0 && p.ColUpper[k] == 1 && (j < 0 || math.Abs(v-0.5) < math.Abs(first.X[j]-0.5)) {
			j = k
		}
	}
	if j < 0 || first.X[j] < 1e-6 || first.X[j] > 1-1e-6 {
		b.Skip("no fractional binary")
	}
	b.Run("Model", func(b *testing.B) {
		m, err := NewModel(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Solve(context.Background(), Options{}); err != nil {
			b.Fatal(err)
		}
		iters := 0
		for i := 0; b.Loop(); i++ {
			if err := m.SetColBounds(j, 0, float64(i%2)); err != nil {
				b.Fatal(err)
			}
			r, err := m.Solve(context.Background(), Options{})
			if err != nil || r.Status != Optimal {
				b.Fatalf("%v %v", r.Status, err)
			}
			iters += r.Iterations
		}
		b.ReportMetric(float64(iters)/float64(b.N), "iters/op")
	})
	b.Run("Solve", func(b *testing.B) {
		q := *p
		q.ColUpper = append([]float64(nil), p.ColUpper...)
		basis := first.Basis
		iters := 0
		for i := 0; b.Loop(); i++ {
			q.ColUpper[j] = float64(i % 2)
			r, err := Solve(context.Background(), &q, Options{Basis: basis})
			if err != nil || r.Status != Optimal {
				b.Fatalf("%v %v", r.Status, err)
			}
			basis = r.Basis
			iters += r.Iterations
		}
		b.ReportMetric(float64(iters)/float64(b.N), "iters/op")
	})
}
