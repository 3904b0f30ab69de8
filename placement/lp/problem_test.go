package lp

import (
	"errors"
	"math"
	"testing"
)

func TestBuilderSumsDuplicatesAndSortsRows(t *testing.T) {
	var b Builder
	x := b.AddCol("x", 1, 0, math.Inf(1))
	y := b.AddIntCol("y", 2, 0, 10)
	b.AddRow("r0", 1, math.Inf(1), []int{y, x}, []float64{3, 1})
	b.AddRow("r1", -1, 1, []int{x}, []float64{2})
	b.Set(0, x, 4)  // sums with the 1 above
	b.Set(1, y, 5)  // later row first in build order of y
	b.Set(1, y, -5) // cancels: dropped
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	want := Matrix{Rows: 2, Cols: 2, Start: []int{0, 2, 3}, Index: []int32{0, 1, 0}, Value: []float64{5, 2, 3}}
	if p.A.Rows != want.Rows || p.A.Cols != want.Cols || !equalInts(p.A.Start, want.Start) || !equalInts(p.A.Index, want.Index) || !equalFloats(p.A.Value, want.Value) {
		t.Fatalf("matrix = %+v, want %+v", p.A, want)
	}
	if !p.IsMIP() || p.Integer[x] || !p.Integer[y] {
		t.Errorf("integer flags = %v, want [false true]", p.Integer)
	}
	if p.ColName(1) != "y" || p.RowName(1) != "r1" {
		t.Errorf("names %q %q", p.ColName(1), p.RowName(1))
	}
}

func TestBuilderRejectsEntryOutsideMatrix(t *testing.T) {
	var b Builder
	b.AddCol("x", 1, 0, 1)
	b.Set(0, 0, 1) // no row 0
	if _, err := b.Problem(); !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
}

func TestValidate(t *testing.T) {
	inf := math.Inf(1)
	good := func() *Problem {
		return &Problem{
			Cost: []float64{1, 2}, ColLower: []float64{0, -inf}, ColUpper: []float64{inf, 3},
			RowLower: []float64{1}, RowUpper: []float64{inf},
			A: Matrix{Rows: 1, Cols: 2, Start: []int{0, 1, 2}, Index: []int32{0, 0}, Value: []float64{1, 1}},
		}
	}
	if err := good().Validate(); err != nil {
		t.Fatalf("good problem: %v", err)
	}
	if err := (&Problem{}).Validate(); err != nil {
		t.Fatalf("zero problem: %v", err)
	}
	cases := []struct {
		name   string
		reason string
		mutate func(p *Problem)
	}{
		{"nan cost", "costs must be finite", func(p *Problem) { p.Cost[0] = math.NaN() }},
		{"inf coefficient", "matrix entries must be finite", func(p *Problem) { p.A.Value[1] = inf }},
		{"crossed bounds", "lower above upper", func(p *Problem) { p.ColLower[1] = 4 }},
		{"+inf lower", "a lower bound of +Inf is empty", func(p *Problem) { p.RowLower[0] = inf }},
		{"short upper", "one upper bound per column", func(p *Problem) { p.ColUpper = p.ColUpper[:1] }},
		{"row out of range", "row indices below Rows", func(p *Problem) { p.A.Index[0] = 1 }},
		{"bad starts", "starts must not decrease", func(p *Problem) { p.A.Start = []int{0, 2, 1} }},
		{"integer without integer", "integer bounds must hold an integer", func(p *Problem) {
			p.Integer = []bool{true, false}
			p.ColLower[0], p.ColUpper[0] = 0.2, 0.8
		}},
		{"wrong shape", "matrix shape matches the bounds", func(p *Problem) { p.A.Rows = 2 }},
	}
	for _, c := range cases {
		p := good()
		c.mutate(p)
		if err := p.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s (%s): err = %v, want ErrInvalid", c.name, c.reason, err)
		}
	}
}

func TestStatusString(t *testing.T) {
	for s, want := range map[Status]string{Optimal: "optimal", Infeasible: "infeasible", Cancelled: "cancelled", Status(99): "Status(99)"} {
		if got := s.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", s, got, want)
		}
	}
}

func equalInts[T int | int32](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
