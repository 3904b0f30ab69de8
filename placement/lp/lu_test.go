package lp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// luCols is a basis for the luFactor tests: sparse columns by position.
type luCols struct {
	idx [][]int
	val [][]float64
}

func (b *luCols) col(q int) ([]int, []float64) { return b.idx[q], b.val[q] }

// randomLUColumn is a sparse column with about k random entries, or a unit
// column (a logical) with probability 1/4.
func randomLUColumn(rng *rand.Rand, m, k int) ([]int, []float64) {
	if rng.IntN(4) == 0 {
		return []int{rng.IntN(m)}, []float64{1}
	}
	seen := map[int]bool{}
	var idx []int
	var val []float64
	for range 1 + rng.IntN(k) {
		i := rng.IntN(m)
		if seen[i] {
			continue
		}
		seen[i] = true
		idx = append(idx, i)
		val = append(val, rng.NormFloat64())
	}
	return idx, val
}

// luCheckSolves checks FTRAN and BTRAN of f on random sparse and dense
// right-hand sides by their residuals against the basis b, and that every
// non-zero of a result is listed.
func luCheckSolves(t *testing.T, f *luFactor, b *luCols, rng *rand.Rand, what string) {
	t.Helper()
	m := len(b.idx)
	for trial := 0; trial < 3; trial++ {
		// FTRAN of a sparse and of a dense right-hand side.
		for _, nnz := range []int{1, 2, m} {
			v := newSvec(m)
			rhs := make([]float64, m)
			for range nnz {
				i := rng.IntN(m)
				x := rng.NormFloat64()
				v.set(i, v.val[i]+x)
				rhs[i] += x
			}
			f.ftran(v)
			got := make([]float64, m)
			for q := range m {
				idx, val := b.col(q)
				for k, i := range idx {
					got[i] += val[k] * v.val[q]
				}
			}
			for i := range m {
				if d := math.Abs(got[i] - rhs[i]); d > 1e-8*(1+math.Abs(rhs[i])) {
					t.Fatalf("%s: ftran residual %g in row %d", what, d, i)
				}
			}
			for i := range m {
				if v.val[i] != 0 && !v.in[i] {
					t.Fatalf("%s: ftran result entry %d not listed", what, i)
				}
			}
			// BTRAN.
			w := newSvec(m)
			c := make([]float64, m)
			for range nnz {
				q := rng.IntN(m)
				x := rng.NormFloat64()
				w.set(q, w.val[q]+x)
				c[q] += x
			}
			f.btran(w)
			for q := range m {
				idx, val := b.col(q)
				s := 0.0
				for k, i := range idx {
					s += val[k] * w.val[i]
				}
				if d := math.Abs(s - c[q]); d > 1e-8*(1+math.Abs(c[q])) {
					t.Fatalf("%s: btran residual %g in position %d", what, d, q)
				}
			}
			for i := range m {
				if w.val[i] != 0 && !w.in[i] {
					t.Fatalf("%s: btran result entry %d not listed", what, i)
				}
			}
		}
	}
}

// luCheckEtas applies the row etas of f to a random sparse vector with
// ftranEtas and checks the result, bit for bit, against the plain pass over
// every eta in order, and that every non-zero is listed.
func luCheckEtas(t *testing.T, f *luFactor, rng *rand.Rand) {
	t.Helper()
	m := f.m
	v := newSvec(m)
	for range 1 + rng.IntN(3) {
		v.set(rng.IntN(m), rng.NormFloat64())
	}
	want := append([]float64(nil), v.val...)
	for e, p := range f.ePiv {
		for k := f.eStart[e]; k < f.eStart[e+1]; k++ {
			want[p] += f.eVal[k] * want[f.eIdx[k]]
		}
	}
	f.ftranEtas(v)
	for i := range m {
		if v.val[i] != want[i] {
			t.Fatalf("ftranEtas: row %d is %v, the pass over all etas gives %v", i, v.val[i], want[i])
		}
		if v.val[i] != 0 && !v.in[i] {
			t.Fatalf("ftranEtas: row %d not listed", i)
		}
	}
}

// TestLUUpdate factorises random sparse bases, replaces random columns by
// Forrest–Tomlin updates and checks every FTRAN and BTRAN by its residual
// against the basis matrix itself.
func TestLUUpdate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rounds := 40
	if testing.Short() {
		rounds = 8
	}
	for round := range rounds {
		m := 5 + rng.IntN(60)
		b := &luCols{idx: make([][]int, m), val: make([][]float64, m)}
		// Start from the slack basis with a few structural columns.
		for q := range m {
			b.idx[q], b.val[q] = []int{q}, []float64{1}
		}
		var f luFactor
		singPos, singRow := f.factor(m, b.col)
		if len(singPos) > 0 {
			t.Fatalf("round %d: slack basis singular", round)
		}
		_ = singRow
		luCheckSolves(t, &f, b, rng, "slack")
		updates, refactors := 0, 0
		for step := 0; step < 3*m; step++ {
			idx, val := randomLUColumn(rng, m, 1+m/4)
			v := newSvec(m)
			for k, i := range idx {
				v.set(i, val[k])
			}
			f.ftranSpike(v)
			r := rng.IntN(m)
			// Take the largest pivot among a few positions, as a ratio test would.
			for range 3 {
				if r2 := rng.IntN(m); math.Abs(v.val[r2]) > math.Abs(v.val[r]) {
					r = r2
				}
			}
			if math.Abs(v.val[r]) < 1e-3 {
				continue
			}
			if step%2 == 0 {
				// As the simplex does: the row of the leaving position first.
				w := newSvec(m)
				w.set(r, 1)
				f.btranUnit(w, r)
			}
			b.idx[r], b.val[r] = idx, val
			if f.update(r, v) {
				updates++
			} else {
				refactors++
				if sp, _ := f.factor(m, b.col); len(sp) > 0 {
					t.Fatalf("round %d: basis singular after a pivot of %g", round, v.val[r])
				}
			}
			luCheckSolves(t, &f, b, rng, "after an update")
			luCheckEtas(t, &f, rng)
			if f.needRefactor(0) {
				if sp, _ := f.factor(m, b.col); len(sp) > 0 {
					t.Fatalf("round %d: basis singular on refactorisation", round)
				}
			}
		}
		t.Logf("round %d: m=%d, %d updates, %d refused", round, m, updates, refactors)
		if updates == 0 {
			t.Fatalf("round %d: no update accepted", round)
		}
		// A fresh factorisation of the final basis agrees.
		if sp, _ := f.factor(m, b.col); len(sp) > 0 {
			t.Fatalf("round %d: final basis singular", round)
		}
		luCheckSolves(t, &f, b, rng, "refactorised")
	}
}
