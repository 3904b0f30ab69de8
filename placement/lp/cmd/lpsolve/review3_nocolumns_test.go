package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReview3NoColumns: an MPS file with a row 5 ≤ (nothing) and no
// columns is an infeasible model; lpsolve should print
// "status=infeasible objective=none …" and exit 1. It panics in lp.Solve
// (index out of range in simplex.price), which from the shell is a Go stack
// trace and exit status 2 — the status of bad flags or input. Same cause as
// lp.TestReview3NoColumnsInfeasible.
func TestReview3NoColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nocolumns.mps")
	model := "NAME noc\nROWS\n N obj\n G r\nCOLUMNS\nRHS\n    rhs r 5\nENDATA\n"
	if err := os.WriteFile(path, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	var code int
	var out string
	func() {
		defer func() {
			if v := recover(); v != nil {
				t.Fatalf("lpsolve panics: %v", v)
			}
		}()
		code, out, _ = runLPSolve(t, path)
	}()
	if code != 1 || !strings.Contains(out, "status=infeasible objective=none ") {
		t.Errorf("exit %d, want 1 with status=infeasible\n%s", code, out)
	}
}
