package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var summaryRe = regexp.MustCompile(`(?m)^status=(\S+) objective=(\S+) iterations=(\d+) nodes=(\d+) seconds=(\S+)$`)

func runLPSolve(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestLPSolveOptimal(t *testing.T) {
	solvers := []string{"builtin"}
	for _, bin := range []string{"cbc", "clp"} {
		if _, err := exec.LookPath(bin); err == nil {
			solvers = append(solvers, bin)
		} else {
			t.Logf("%s not found on PATH (%v): -solver %s not tested", bin, err, bin)
		}
	}
	cases := []struct {
		file string
		want float64 // optima.tsv
		mip  bool
	}{
		{filepath.Join("..", "..", "testdata", "netlib", "afiro.mps.gz"), -464.7531429, false},
		{filepath.Join("..", "..", "testdata", "miplib", "p0033.mps.gz"), 3089, true},
	}
	for _, c := range cases {
		for _, s := range solvers {
			if c.mip && s == "clp" {
				if code, _, errOut := runLPSolve(t, "-solver", s, c.file); code != 1 || !strings.Contains(errOut, "LPs only") {
					t.Errorf("clp on a MILP: exit %d, stderr %q", code, errOut)
				}
				continue
			}
			code, out, errOut := runLPSolve(t, "-solver", s, "-time", "1m", c.file)
			if code != 0 || errOut != "" {
				t.Fatalf("-solver %s %s: exit %d, stderr %q\n%s", s, c.file, code, errOut, out)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			m := summaryRe.FindStringSubmatch(lines[len(lines)-1])
			if m == nil {
				t.Fatalf("-solver %s: last line %q is not the summary", s, lines[len(lines)-1])
			}
			obj, err := strconv.ParseFloat(m[2], 64)
			if err != nil || m[1] != "optimal" {
				t.Fatalf("-solver %s: summary %q", s, m[0])
			}
			if d := obj - c.want; d > 1e-6*math.Max(1, math.Abs(c.want)) || -d > 1e-6*math.Max(1, math.Abs(c.want)) {
				t.Errorf("-solver %s %s: objective %v, want %v", s, c.file, obj, c.want)
			}
			if n, _ := strconv.Atoi(m[3]); n <= 0 {
				t.Errorf("-solver %s %s: %s iterations", s, c.file, m[3])
			}
		}
	}
}

func TestLPSolveNotOptimal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "infeasible.mps")
	model := "NAME inf\nROWS\n N obj\n G r\nCOLUMNS\n    x obj 1 r 1\nRHS\n    rhs r 5\nBOUNDS\n UP b x 2\nENDATA\n"
	if err := os.WriteFile(path, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runLPSolve(t, path)
	if code != 1 || !strings.Contains(out, "status=infeasible objective=none ") {
		t.Errorf("infeasible: exit %d\n%s", code, out)
	}
}

func TestLPSolveBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.mps")
	if err := os.WriteFile(bad, []byte("NAME x\nROWS\n Q r\nENDATA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		msg  string
	}{
		{"no file", nil, "want one MPS file"},
		{"two files", []string{"a", "b"}, "want one MPS file"},
		{"unknown flag", []string{"-x", "a"}, "flag provided but not defined"},
		{"negative time", []string{"-time", "-1s", "a"}, "negative"},
		{"bad duration", []string{"-time", "soon", "a"}, "invalid value"},
		{"bad gap", []string{"-gap", "-0.1", "a"}, "-gap"},
		{"unknown solver", []string{"-solver", "glpk", "a"}, "want builtin, cbc or clp"},
		{"missing file", []string{filepath.Join(t.TempDir(), "none.mps")}, "no such file"},
		{"syntax error", []string{bad}, "line 3"},
	}
	for _, c := range cases {
		code, out, errOut := runLPSolve(t, c.args...)
		if code != 2 || out != "" {
			t.Errorf("%s: exit %d, stdout %q", c.name, code, out)
		}
		if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.msg) {
			t.Errorf("%s: stderr %q, want one line saying %q", c.name, errOut, c.msg)
		}
	}
	if code, out, _ := runLPSolve(t, "-h"); code != 0 || !strings.Contains(out, "usage: lpsolve") {
		t.Errorf("-h: exit %d\n%s", code, out)
	}
}
