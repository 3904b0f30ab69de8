package placement

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/gputco/gputco/placement/lp"
	"pgregory.net/rapid"
)

// naiveBuilder is colBuilder written the straightforward way: each name a
// string of its own, the entries as triplets sorted stably by column.
type naiveBuilder struct {
	p          lp.Problem
	rows, cols []int
	vals       []float64
	ints       bool
	colN, rowN []string
}

func (b *naiveBuilder) addCol(name string, cost, lower, upper float64, integer bool) int {
	b.p.Cost = append(b.p.Cost, cost)
	b.p.ColLower = append(b.p.ColLower, lower)
	b.p.ColUpper = append(b.p.ColUpper, upper)
	b.p.Integer = append(b.p.Integer, integer)
	b.ints = b.ints || integer
	b.colN = append(b.colN, name)
	return len(b.p.Cost) - 1
}

func (b *naiveBuilder) addRow(name string, lower, upper float64, cols []int, vals []float64) int {
	i := len(b.p.RowLower)
	b.p.RowLower = append(b.p.RowLower, lower)
	b.p.RowUpper = append(b.p.RowUpper, upper)
	b.rowN = append(b.rowN, name)
	for k, j := range cols {
		if vals[k] != 0 {
			b.rows, b.cols, b.vals = append(b.rows, i), append(b.cols, j), append(b.vals, vals[k])
		}
	}
	return i
}

func (b *naiveBuilder) problem() (*lp.Problem, error) {
	p := b.p
	if !b.ints {
		p.Integer = nil
	}
	p.ColNames, p.RowNames = b.colN, b.rowN
	n := len(p.Cost)
	order := make([]int, len(b.cols))
	for e := range order {
		order[e] = e
	}
	slices.SortStableFunc(order, func(x, y int) int { return b.cols[x] - b.cols[y] })
	a := lp.Matrix{Rows: len(p.RowLower), Cols: n, Start: make([]int, n+1)}
	for _, e := range order {
		a.Index, a.Value = append(a.Index, int32(b.rows[e])), append(a.Value, b.vals[e])
		a.Start[b.cols[e]+1]++
	}
	for j := range n {
		a.Start[j+1] += a.Start[j]
	}
	if a.Index == nil {
		a.Index, a.Value = []int32{}, []float64{}
	}
	p.A = a
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

// nameOf is prefix_id₁_id₂… as the model wrote it before AddColNamed.
func nameOf(prefix string, ids []int) string {
	for _, id := range ids {
		prefix += "_" + strconv.Itoa(id)
	}
	return prefix
}

// sameFloats reports whether a and b hold the same float64s bit for bit.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// propColBuilder: colBuilder gives the naive builder's problem — columns,
// rows, entries in each column by ascending row, names — or its error, for
// any sequence of columns and rows (interleaved, named either way, rows
// with zeros, empty rows, many entries across chunks), its matrix filled
// by one goroutine or several (a few columns each).
func propColBuilder(t *rapid.T) {
	fill := rapid.IntRange(0, 3).Draw(t, "fillCols")
	b := colBuilder{fillCols: fill}
	ub := colBuilder{unnamed: true, fillCols: fill} // the same without names
	var nb naiveBuilder
	b.SetName("m")
	ub.SetName("m")
	nb.p.Name = "m"
	val := rapid.SampledFrom([]float64{0, 1, -1, 0.5, 2.5e-7, 3e9, math.Copysign(0, -1)})
	lower := rapid.SampledFrom([]float64{0, -2, math.Inf(-1)})
	upper := rapid.SampledFrom([]float64{0, 1, 7.5, math.Inf(1)})
	// bounds are valid bar one in a hundred, which Validate rejects.
	bounds := func(label string) (float64, float64) {
		lo, up := lower.Draw(t, label+"Lower"), upper.Draw(t, label+"Upper")
		if rapid.IntRange(0, 99).Draw(t, label+"Invalid") == 50 { // rapid draws the ends of a range often
			return up + 1, lo
		}
		return lo, up
	}
	steps := rapid.IntRange(0, 60).Draw(t, "steps")
	for range steps {
		prefix := rapid.SampledFrom([]string{"x", "cap", "demand", ""}).Draw(t, "prefix")
		ids := rapid.SliceOfN(rapid.IntRange(0, 1<<40), 0, 4).Draw(t, "ids")
		named := rapid.Bool().Draw(t, "named")
		if ncols := len(nb.p.Cost); ncols == 0 || rapid.IntRange(0, 2).Draw(t, "what") == 0 {
			cost := val.Draw(t, "cost")
			lo, up := bounds("col")
			integer := rapid.Bool().Draw(t, "integer")
			var j int
			for _, cb := range []*colBuilder{&b, &ub} {
				switch {
				case named && integer:
					j = cb.AddIntColNamed(prefix, cost, lo, up, ids...)
				case named:
					j = cb.AddColNamed(prefix, cost, lo, up, ids...)
				case integer:
					j = cb.AddIntCol(nameOf(prefix, ids), cost, lo, up)
				default:
					j = cb.AddCol(nameOf(prefix, ids), cost, lo, up)
				}
			}
			if want := nb.addCol(nameOf(prefix, ids), cost, lo, up, integer); j != want {
				t.Fatalf("column %d, want %d", j, want)
			}
			continue
		}
		// A row: distinct columns in any order, sometimes many (chunks).
		ncols := len(nb.p.Cost)
		k := rapid.IntRange(0, ncols).Draw(t, "entries")
		cols := rapid.Permutation(seq(ncols)).Draw(t, "cols")[:k]
		vals := make([]float64, k)
		for i := range vals {
			vals[i] = val.Draw(t, "value")
		}
		if rapid.IntRange(0, 2).Draw(t, "unit") == 0 { // a row whose values are ones and zeros, not kept
			for i, v := range vals {
				if v != 0 {
					vals[i] = 1
				}
			}
		}
		reps := 1
		if rapid.IntRange(0, 9).Draw(t, "bulk") == 0 {
			reps = rapid.IntRange(2, 300).Draw(t, "rows")
		}
		lo, up := bounds("row")
		for range reps {
			var i int
			for _, cb := range []*colBuilder{&b, &ub} {
				if named {
					i = cb.AddRowNamed(prefix, lo, up, cols, vals, ids...)
				} else {
					i = cb.AddRow(nameOf(prefix, ids), lo, up, cols, vals)
				}
			}
			if want := nb.addRow(nameOf(prefix, ids), lo, up, cols, vals); i != want {
				t.Fatalf("row %d, want %d", i, want)
			}
		}
		if got := b.sumUpper(cols); math.Float64bits(got) != math.Float64bits(nb.sumUpper(cols)) {
			t.Fatalf("sumUpper %v", got)
		}
	}
	got, gerr := b.Problem()
	want, werr := nb.problem()
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("error %v, want %v", gerr, werr)
	}
	if gerr != nil {
		return
	}
	// Unnamed, the same problem without names.
	un, err := ub.Problem()
	if err != nil {
		t.Fatalf("unnamed: %v", err)
	}
	if un.ColNames != nil || un.RowNames != nil {
		t.Fatalf("unnamed: %d column and %d row names", len(un.ColNames), len(un.RowNames))
	}
	un.ColNames, un.RowNames = got.ColNames, got.RowNames
	if !reflect.DeepEqual(un, got) {
		t.Fatalf("unnamed\n got %+v\nwant %+v", un, got)
	}
	if got.Name != want.Name || !sameFloats(got.Cost, want.Cost) || !sameFloats(got.ColLower, want.ColLower) ||
		!sameFloats(got.ColUpper, want.ColUpper) || !slices.Equal(got.Integer, want.Integer) || (got.Integer == nil) != (want.Integer == nil) ||
		!slices.Equal(got.ColNames, want.ColNames) || (got.ColNames == nil) != (want.ColNames == nil) ||
		!sameFloats(got.RowLower, want.RowLower) || !sameFloats(got.RowUpper, want.RowUpper) ||
		!slices.Equal(got.RowNames, want.RowNames) || (got.RowNames == nil) != (want.RowNames == nil) {
		t.Fatalf("problem\n got %+v\nwant %+v", got, want)
	}
	ga, wa := got.A, want.A
	if ga.Rows != wa.Rows || ga.Cols != wa.Cols || !slices.Equal(ga.Start, wa.Start) || !slices.Equal(ga.Index, wa.Index) || !sameFloats(ga.Value, wa.Value) {
		t.Fatalf("matrix\n got %+v\nwant %+v", ga, wa)
	}
}

// sumUpper is colBuilder.sumUpper.
func (b *naiveBuilder) sumUpper(cols []int) float64 {
	s := 0.0
	for _, j := range cols {
		s += b.p.ColUpper[j]
	}
	return s
}

// seq returns 0, 1, …, n−1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestColBuilder(t *testing.T) { rapid.Check(t, propColBuilder) }
func FuzzColBuilder(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propColBuilder)) }
