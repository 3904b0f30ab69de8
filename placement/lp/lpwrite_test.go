package lp

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestWriteLPText(t *testing.T) {
	var b Builder
	b.SetName("demo")
	b.SetObjective(true, 2.5)
	x := b.AddCol("x", 3, 0, inf)
	y := b.AddIntCol("y", -1, -2, 5)
	z := b.AddIntCol("z", 0, 0, 1)
	f := b.AddCol("2bad name", 1e-20, -inf, inf)
	u := b.AddCol("u", 0, -inf, 4)
	b.AddRow("cap", -inf, 10, []int{x, y, z}, []float64{1, 2, -1})
	b.AddRow("rng", -1, 1, []int{x, f}, []float64{1, -1})
	b.AddRow("eq", 4, 4, []int{u}, []float64{1})
	b.AddRow("free", -inf, inf, []int{x}, []float64{1})
	b.AddRow("empty", 0, inf, nil, nil)
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteLP(&buf, p); err != nil {
		t.Fatal(err)
	}
	want := `\ Problem: demo
Maximize
 obj: 3 x - 1 y + 1e-20 C3 + 2.5
Subject To
 cap: 1 x + 2 y - 1 z <= 10
 rng_lo: 1 x - 1 C3 >= -1
 rng_hi: 1 x - 1 C3 <= 1
 eq: 1 u = 4
 empty: 0 x >= 0
Bounds
 -2 <= y <= 5
 C3 free
 -inf <= u <= 4
Generals
 y
Binaries
 z
End
`
	if got := buf.String(); got != want {
		t.Errorf("WriteLP =\n%s\nwant\n%s", got, want)
	}
}

func TestWriteLPNoColumns(t *testing.T) {
	p := &Problem{RowLower: []float64{0}, RowUpper: []float64{1}, A: Matrix{Rows: 1}}
	if err := WriteLP(&bytes.Buffer{}, p); err == nil {
		t.Error("WriteLP of rows without columns: no error")
	}
	if err := WriteLP(&bytes.Buffer{}, &Problem{}); err != nil {
		t.Errorf("WriteLP of the empty problem: %v", err)
	}
}

func TestSafeLPName(t *testing.T) {
	for s, want := range map[string]bool{"x": true, "x_1.a": true, "_y": true, "": false, "1x": false, "e1": false, "E2x": false,
		"ee": false, "ex": true, "free": false, "Inf": false, "a b": false, "a-b": false, "a:b": false, "st": false} {
		if got := safeLPName(s); got != want {
			t.Errorf("safeLPName(%q) = %v, want %v", s, got, want)
		}
	}
}

// cbcPath returns the cbc binary or skips the test, saying why.
func cbcPath(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("cbc")
	if err != nil {
		t.Skipf("cbc not found on PATH: %v (install coinor-cbc to run this oracle test)", err)
	}
	return path
}

// cbcObjective solves a model file with the cbc binary and returns the
// objective it reports in its binary solution file (full precision).
func cbcObjective(t *testing.T, cbc, model string) float64 {
	t.Helper()
	sol := filepath.Join(t.TempDir(), "sol.bin")
	out, err := exec.Command(cbc, model, "-solve", "-saveSolution", sol).CombinedOutput()
	if err != nil {
		t.Fatalf("cbc %s: %v\n%s", model, err, out)
	}
	data, err := os.ReadFile(sol)
	if err != nil || len(data) < 16 {
		t.Fatalf("cbc %s: no solution file (%v)\n%s", model, err, out)
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(data[8:16]))
}

// TestWriteLPReadByCBC writes instances with ranges, free columns, an
// objective constant, names with spaces and integers as LP files and
// checks that cbc finds their known optima in them.
func TestWriteLPReadByCBC(t *testing.T) {
	cbc := cbcPath(t)
	cases := []struct{ set, name string }{
		{"netlib", "afiro"}, {"netlib", "boeing1"}, {"netlib", "e226"}, {"netlib", "forplan"},
		{"netlib", "capri"}, {"miplib", "p0033"}, {"miplib", "flugpl"},
	}
	for _, c := range cases {
		_, opt := testInstances(t, c.set)
		p, err := ReadMPSFile(instancePath(c.set, c.name))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), c.name+".lp")
		var buf bytes.Buffer
		if err := WriteLP(&buf, p); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		// CBC's LP reader drops the objective constant: add it back.
		got := cbcObjective(t, cbc, path) + p.Offset
		if want := opt[c.name]; math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: cbc on the LP file: objective %.10g, want %.10g", c.name, got, want)
		}
	}
}
