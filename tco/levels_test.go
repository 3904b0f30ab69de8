package tco

import (
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/workload"
	"pgregory.net/rapid"
)

// propIndex: index gives sortIndex's peaks, rises, levels and first rises
// exactly, for slices whose peaks repeat (ties), rise and fall, wrap
// around or not, and include zeros (and now and then −0, which index
// leaves to sortIndex).
func propIndex(t *rapid.T) {
	n := rapid.IntRange(1, 400).Draw(t, "slices")
	distinct := rapid.IntRange(1, 12).Draw(t, "distinctPeaks")
	values := rapid.SliceOfN(rapid.OneOf(rapid.Float64Range(0, 1), rapid.Just(0.0), rapid.Just(1.0)), distinct, distinct).Draw(t, "values")
	if rapid.IntRange(0, 19).Draw(t, "negativeZero") == 0 {
		values[0] = math.Copysign(0, -1)
	}
	sl := make([]workload.Slice, n)
	for i := range sl {
		sl[i] = workload.Slice{Start: time.Duration(i) * time.Hour, Length: time.Hour,
			Peak: values[rapid.IntRange(0, distinct-1).Draw(t, "peak")]}
	}
	circular := rapid.Bool().Draw(t, "circular")
	got, want := &demand{slices: sl, circular: circular}, &demand{slices: sl, circular: circular}
	got.index()
	want.sortIndex()
	for _, f := range []struct {
		name      string
		got, want []float64
	}{{"peaks", got.peaks, want.peaks}, {"riseFrom", got.riseFrom, want.riseFrom},
		{"riseTo", got.riseTo, want.riseTo}, {"levels", got.levels, want.levels}} {
		if len(f.got) != len(f.want) || (f.got == nil) != (f.want == nil) {
			t.Fatalf("%s: %v, want %v", f.name, f.got, f.want)
		}
		for i := range f.got {
			if math.Float64bits(f.got[i]) != math.Float64bits(f.want[i]) {
				t.Fatalf("%s[%d] = %v, want %v", f.name, i, f.got[i], f.want[i])
			}
		}
	}
	if len(got.firstRise) != len(want.firstRise) {
		t.Fatalf("firstRise %v, want %v", got.firstRise, want.firstRise)
	}
	for j := range got.firstRise {
		if got.firstRise[j] != want.firstRise[j] {
			t.Fatalf("firstRise[%d] = %d, want %d", j, got.firstRise[j], want.firstRise[j])
		}
	}
}

// propArgsort: argsortNonNegative orders numbers ≥ 0 as a comparison sort
// does, ties in index order.
func propArgsort(t *rapid.T) {
	v := rapid.SliceOf(rapid.OneOf(rapid.Float64Range(0, 1e300), rapid.Float64Range(0, 1),
		rapid.SampledFrom([]float64{0, 5e-324, 1, math.MaxFloat64, math.Inf(1)}))).Draw(t, "values")
	idx := argsortNonNegative(v)
	seen := make([]bool, len(v))
	for r, i := range idx {
		if seen[i] {
			t.Fatalf("index %d twice", i)
		}
		seen[i] = true
		if r > 0 {
			p := idx[r-1]
			if v[p] > v[i] || v[p] == v[i] && p > i {
				t.Fatalf("v[%d] = %v before v[%d] = %v", p, v[p], i, v[i])
			}
		}
	}
}

func TestIndexIsSortIndex(t *testing.T)   { rapid.Check(t, propIndex) }
func TestArgsortNonNegative(t *testing.T) { rapid.Check(t, propArgsort) }

func FuzzIndexIsSortIndex(f *testing.F)   { f.Fuzz(rapid.MakeFuzz(propIndex)) }
func FuzzArgsortNonNegative(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propArgsort)) }
