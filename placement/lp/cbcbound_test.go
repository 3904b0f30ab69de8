package lp

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"testing"
)

// TestPrintedLowerBound: the lower bound CBC prints rounded is read as
// the figure less half a unit of its last digit, never above what CBC
// may have proven.
func TestPrintedLowerBound(t *testing.T) {
	cases := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"21424.015", 21424.0145, true},
		{"-3.250", -3.2505, true},
		{"12", 11.5, true},
		{"1.5e+10", 1.5e10 - 0.5e9, true},
		{"2.25E-3", 2.25e-3 - 0.5e-5, true},
		{"-1e+30", -1e30 - 0.5e30, true},
		{"inf", math.Inf(1), true},
		{"-Infinity", math.Inf(-1), true},
		{"nan", 0, false},
		{"0x1p-2", 0, false},
		{"1.2.3", 0, false},
		{"", 0, false},
	}
	for _, c := range cases {
		got, ok := printedLowerBound(c.in)
		if ok != c.ok || ok && math.Abs(got-c.want) > 1e-12*max(1, math.Abs(c.want)) && got != c.want {
			t.Errorf("printedLowerBound(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestCBCNodeLimitBound: max 10a + Σ (0.00004 + j·1e-9) x_j over 21
// binary items x_j of weight 2 in a capacity of 21 — optimum ≈ 10.0004
// (a and ten items), relaxation ≈ 10.00042 (ten and a half; the values
// differ so that cbc sees no objective step to round the bound to) —
// stopped by cbc's node limit before it proves its optimum (cuts and
// preprocessing off). cbc prints its bound on the minimisation rounded to
// −10.000: read as printed, the bound would be 10, below the plan's own
// objective.
func TestCBCNodeLimitBound(t *testing.T) {
	bin, err := exec.LookPath("cbc")
	if err != nil {
		t.Skip("cbc not installed: the CBC adapter's bound is not checked (install coinor-cbc)")
	}
	var b Builder
	b.AddIntCol("a", 10, 0, 1)
	var cols []int
	var ws []float64
	for j := range 21 {
		cols = append(cols, b.AddIntCol(fmt.Sprintf("x%d", j), 0.00004+float64(j)*1e-9, 0, 1))
		ws = append(ws, 2)
	}
	b.AddRow("w", math.Inf(-1), 21, cols, ws)
	b.SetObjective(true, 0)
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	r, err := CBC{Path: bin, Args: []string{"-cuts", "off", "-presolve", "off", "-preprocess", "off"}}.Solve(context.Background(), p, Options{NodeLimit: 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cbc: %v objective %v bound %v nodes %d", r.Status, r.Objective, r.Bound, r.Nodes)
	if r.Status != NodeLimit {
		t.Fatalf("cbc: %v after %d nodes, want NodeLimit", r.Status, r.Nodes)
	}
	if r.HasSolution() && r.Bound < r.Objective {
		t.Fatalf("%v: bound %v below the objective %v of a maximisation", r.Status, r.Bound, r.Objective)
	}
}
