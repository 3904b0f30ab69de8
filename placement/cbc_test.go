package placement_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
)

// cbcPath returns the cbc binary or skips the test, saying so.
func cbcPath(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("cbc")
	if err != nil {
		if _, serr := os.Stat("/usr/bin/cbc"); serr != nil {
			t.Skip("cbc not installed: the CBC oracle is skipped (install coinor-cbc)")
		}
		p = "/usr/bin/cbc"
	}
	return p
}

// cbcObjective solves the MPS file with cbc and returns its objective.
func cbcObjective(t testing.TB, bin string, mps []byte) float64 {
	t.Helper()
	dir := t.TempDir()
	f, sol := filepath.Join(dir, "m.mps"), filepath.Join(dir, "sol.txt")
	if err := os.WriteFile(f, mps, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, f, "-ratioGap", "1e-9", "-solve", "-solution", sol).CombinedOutput()
	if err != nil {
		t.Fatalf("cbc: %v\n%s", err, out)
	}
	data, err := os.ReadFile(sol)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(data), "\n")
	if !strings.HasPrefix(head, "Optimal") {
		t.Fatalf("cbc: %s", head)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(head[strings.LastIndex(head, " "):]), 64)
	if err != nil {
		t.Fatalf("cbc objective in %q: %v", head, err)
	}
	return v
}

// TestCBCOracle is oracle 3: on random portfolios (services, batch jobs,
// compliance classes sharing offers, integer nodes, one-off costs), Solve's
// total equals cbc's optimum of the exported MPS within 1e-6 relative.
// Seeds alternate between the built-in solver and Options.Solver = CBC (which
// reads cbc's own plan back through lp.CBC).
func TestCBCOracle(t *testing.T) {
	bin := cbcPath(t)
	n := 20
	if testing.Short() {
		n = 4
	}
	for seed := range uint64(n) {
		solver := placement.Builtin
		if seed%4 == 3 {
			solver = placement.CBC
		}
		p := portfolio(seed+1, 3, 2, 6, 24*time.Hour, seed%2 == 1)
		p.Options.Solver = solver
		p.Options.Gap = 1e-9
		var buf bytes.Buffer
		if err := placement.WriteMPS(&buf, p); err != nil {
			t.Fatal(err)
		}
		want := cbcObjective(t, bin, buf.Bytes())
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		got, _ := plan.Total.Float64()
		if d := math.Abs(got - want); d > 1e-6*max(1, math.Abs(want)) {
			t.Errorf("seed %d (%v): Solve total %.6f, cbc %.6f (%.2g relative)", seed, solver, got, want, d/max(1, math.Abs(want)))
		}
		if b, _ := plan.Bound.Float64(); b > want+1e-7*max(1, math.Abs(want)) { // cbc's feasibility tolerance
			t.Errorf("seed %d: bound %.6f above cbc's optimum %.6f", seed, b, want)
		}
	}
}
