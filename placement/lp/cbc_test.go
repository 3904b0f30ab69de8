package lp

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCBCNetlib solves every netlib instance through the CBC adapter: the
// objective must match optima.tsv within 1e-6 relative, and the solution
// with its duals must pass the optimality certificate check. Each instance
// is also solved as the equivalent maximisation (max −cᵀx), which checks the
// sign mapping of the adapter. -short (and the race pass) runs a few.
func TestCBCNetlib(t *testing.T) {
	// CLP's default dual tolerance (1e-7) leaves pilot87 at 301.7106865,
	// 1.1e-6 above its optimum 301.7103473 (its certificate holds at 1e-7
	// only); 1e-9 gives the optimum on every instance.
	cbc := CBC{Path: cbcPath(t), Args: []string{"-dualTolerance", "1e-9"}}
	names, opt := testInstances(t, "netlib")
	for _, name := range slowestFirst(names, []string{"pilot87", "pilot", "maros-r7", "greenbeb"}) { // the slowest for CLP first
		if (testing.Short() || raceEnabled) && name != "afiro" && name != "boeing1" && name != "e226" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, err := ReadMPSFile(instancePath("netlib", name))
			if err != nil {
				t.Fatal(err)
			}
			res, err := cbc.Solve(context.Background(), p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Optimal || !relClose(res.Objective, opt[name], 1e-6) {
				t.Fatalf("status %v objective %.10g, want optimal %.10g", res.Status, res.Objective, opt[name])
			}
			if msg := oracleLPCertificate(p, &res, 1e-6); msg != "" {
				t.Errorf("certificate: %s", msg)
			}
			if err := res.Verify(p, 1e-6); err != nil { // the package's own checker agrees
				t.Errorf("Verify: %v", err)
			}
			if res.Bound != res.Objective || res.Gap != 0 || res.Iterations <= 0 && p.NumRows() > 0 {
				t.Errorf("bound %v gap %v iterations %d", res.Bound, res.Gap, res.Iterations)
			}
			if name != "afiro" && name != "e226" {
				return
			}
			q := *p
			q.Maximize, q.Offset = true, -p.Offset
			q.Cost = make([]float64, len(p.Cost))
			for j, c := range p.Cost {
				q.Cost[j] = -c
			}
			res, err = cbc.Solve(context.Background(), &q, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Optimal || !relClose(res.Objective, -opt[name], 1e-6) {
				t.Fatalf("as a maximisation: status %v objective %.10g, want optimal %.10g", res.Status, res.Objective, -opt[name])
			}
			if msg := oracleLPCertificate(&q, &res, 1e-6); msg != "" {
				t.Errorf("as a maximisation: certificate: %s", msg)
			}
		})
	}
}

// TestCBCMIPLIB solves every MIPLIB instance through the CBC adapter to
// proven optimality: this is what proves that ReadMPS reads the markers and
// bounds of these files as their authors meant. -short (and the race pass)
// runs the three fastest.
func TestCBCMIPLIB(t *testing.T) {
	cbc := CBC{Path: cbcPath(t)}
	names, opt := testInstances(t, "miplib")
	quick := map[string]bool{"p0033": true, "flugpl": true, "egout": true}
	// The slowest for CBC first (mas76 and stein45 take 20 s each on a quiet
	// machine), so that the others share the other core.
	slowest := []string{"mas76", "stein45", "pp08aCUTS", "modglob", "blend2", "gesa2", "rgn", "vpm2", "bell3a", "10teams"}
	for _, name := range slowestFirst(names, slowest) {
		if (testing.Short() || raceEnabled) && !quick[name] {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, err := ReadMPSFile(instancePath("miplib", name))
			if err != nil {
				t.Fatal(err)
			}
			res, err := cbc.Solve(context.Background(), p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Optimal || !relClose(res.Objective, opt[name], 1e-6) {
				t.Fatalf("status %v objective %.10g, want optimal %.10g", res.Status, res.Objective, opt[name])
			}
			for j, isInt := range p.Integer {
				if isInt && res.X[j] != math.Round(res.X[j]) {
					t.Fatalf("integer column %s = %v", p.ColName(j), res.X[j])
				}
			}
			if !feasibleWithin(p, res.X, res.RowActivity, 1e-6) {
				t.Errorf("solution infeasible")
			}
			if res.RowDual != nil || res.Bound != res.Objective || res.Gap != 0 {
				t.Errorf("MILP result: duals %v, bound %v, gap %v", res.RowDual != nil, res.Bound, res.Gap)
			}
		})
	}
}

func TestCBCStatuses(t *testing.T) {
	cbc := CBC{Path: cbcPath(t)}
	build := func(integer bool, maximize bool, rows ...[3]float64) *Problem {
		// one column x ≥ 0 with cost 1 (integer if asked), rows lo ≤ a·x ≤ up.
		var b Builder
		if integer {
			b.AddIntCol("x", 1, 0, 10)
		} else {
			b.AddCol("x", 1, 0, inf)
		}
		b.SetObjective(maximize, 0)
		for _, r := range rows {
			b.AddRow("", r[1], r[2], []int{0}, []float64{r[0]})
		}
		p, err := b.Problem()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, reason string
		p            *Problem
		want         Status
		objective    float64
	}{
		{"optimal LP", "min x, x ≥ 2", build(false, false, [3]float64{1, 2, inf}), Optimal, 2},
		{"infeasible LP", "x ≥ 2 and x ≤ 1", build(false, false, [3]float64{1, 2, inf}, [3]float64{1, -inf, 1}), Infeasible, 0},
		{"unbounded LP", "max x, x ≥ 2", build(false, true, [3]float64{1, 2, inf}), Unbounded, 0},
		{"optimal MILP", "min x, 2x ≥ 3, x integer", build(true, false, [3]float64{2, 3, inf}), Optimal, 2},
		{"infeasible MILP", "2x = 1 has no integer solution", build(true, false, [3]float64{2, 1, 1}), Infeasible, 0},
		{"maximised MILP", "max x, 2x ≤ 7", build(true, true, [3]float64{2, -inf, 7}), Optimal, 3},
	}
	// CLP calls this one infeasible: y has a cost and no row.
	var b Builder
	b.AddCol("x", 1, 0, inf)
	b.AddCol("y", -1, 0, inf)
	b.AddRow("r", 1, 2, []int{0}, []float64{1})
	emptyRay, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, struct {
		name, reason string
		p            *Problem
		want         Status
		objective    float64
	}{"unbounded empty column", "y ≥ 0 with cost −1 in no row", emptyRay, Unbounded, 0})
	for _, c := range cases {
		res, err := cbc.Solve(context.Background(), c.p, Options{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if res.Status != c.want {
			t.Errorf("%s (%s): status %v, want %v", c.name, c.reason, res.Status, c.want)
			continue
		}
		if c.want == Optimal && res.Objective != c.objective {
			t.Errorf("%s (%s): objective %v, want %v", c.name, c.reason, res.Objective, c.objective)
		}
		if c.want != Optimal && res.HasSolution() {
			t.Errorf("%s: %v result with a solution", c.name, res.Status)
		}
	}
}

func TestCBCLimitsAndCancel(t *testing.T) {
	cbc := CBC{Path: cbcPath(t)}
	if testing.Short() || raceEnabled {
		t.Skip("limits on mas76 and 10teams take a few seconds; run without -short")
	}
	p, err := ReadMPSFile(instancePath("miplib", "mas76"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := cbc.Solve(context.Background(), p, Options{NodeLimit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != NodeLimit || res.Nodes > 5 {
		t.Errorf("node limit 5: status %v after %d nodes", res.Status, res.Nodes)
	}
	if res.HasSolution() && (res.Bound > res.Objective || res.Gap <= 0) {
		t.Errorf("node limit: objective %v, bound %v, gap %v", res.Objective, res.Bound, res.Gap)
	}
	res, err = cbc.Solve(context.Background(), p, Options{TimeLimit: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != TimeLimit {
		t.Errorf("time limit: status %v", res.Status)
	}
	// Cancelled: CBC is interrupted, the error is the context's.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	p, err = ReadMPSFile(instancePath("miplib", "10teams"))
	if err != nil {
		t.Fatal(err)
	}
	res, err = cbc.Solve(ctx, p, Options{})
	if !errors.Is(err, context.DeadlineExceeded) || res.Status != Cancelled {
		t.Errorf("cancelled: status %v, err %v", res.Status, err)
	}
	// An LP stopped by an iteration limit.
	p, err = ReadMPSFile(instancePath("netlib", "afiro"))
	if err != nil {
		t.Fatal(err)
	}
	res, err = cbc.Solve(context.Background(), p, Options{IterationLimit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != IterationLimit {
		t.Errorf("iteration limit: status %v", res.Status)
	}
	if res.HasSolution() && !feasibleWithin(p, res.X, res.RowActivity, 1e-6) {
		t.Errorf("iteration limit: an infeasible point returned as a solution")
	}
}

func TestCBCErrors(t *testing.T) {
	p := &Problem{Cost: []float64{1}, ColLower: []float64{0}, ColUpper: []float64{1}, A: Matrix{Cols: 1, Start: []int{0, 0}}}
	missing := CBC{Path: filepath.Join(t.TempDir(), "no-such-cbc")}
	if _, err := missing.Solve(context.Background(), p, Options{}); !errors.Is(err, ErrSolverUnavailable) {
		t.Errorf("missing binary: err = %v, want ErrSolverUnavailable", err)
	}
	cbc := CBC{Path: cbcPath(t)}
	for _, o := range []Options{{TimeLimit: -1}, {NodeLimit: -1}, {IterationLimit: -1}, {Gap: math.NaN()}, {Gap: -1}, {Basis: &Basis{}}} {
		if _, err := cbc.Solve(context.Background(), p, o); !errors.Is(err, ErrInvalid) {
			t.Errorf("options %+v: err = %v, want ErrInvalid", o, err)
		}
	}
	bad := *p
	bad.Cost = []float64{math.Inf(1)}
	if _, err := cbc.Solve(context.Background(), &bad, Options{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid problem: err = %v, want ErrInvalid", err)
	}
}

// clpPath returns the clp binary or skips the test, saying why.
func clpPath(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("clp")
	if err != nil {
		t.Skipf("clp not found on PATH: %v (install coinor-clp to run this oracle test)", err)
	}
	return path
}

// TestCLP checks the CLP adapter on netlib instances (objective, optimality
// certificate), statuses and limits.
func TestCLP(t *testing.T) {
	clp := CLP{Path: clpPath(t)}
	names, opt := testInstances(t, "netlib")
	for _, name := range names {
		if name != "afiro" && name != "boeing1" && name != "e226" && name != "forplan" && name != "vtpbase" && (testing.Short() || raceEnabled || name != "25fv47") {
			continue
		}
		p, err := ReadMPSFile(instancePath("netlib", name))
		if err != nil {
			t.Fatal(err)
		}
		res, err := clp.Solve(context.Background(), p, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Status != Optimal || !relClose(res.Objective, opt[name], 1e-6) {
			t.Errorf("%s: status %v objective %.10g, want optimal %.10g", name, res.Status, res.Objective, opt[name])
			continue
		}
		if msg := oracleLPCertificate(p, &res, 1e-6); msg != "" {
			t.Errorf("%s: certificate: %s", name, msg)
		}
	}
	var b Builder
	b.AddCol("x", 1, 0, inf)
	b.AddCol("y", -1, 0, inf)
	b.AddRow("r", 1, 2, []int{0}, []float64{1})
	ray, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	if res, err := clp.Solve(context.Background(), ray, Options{}); err != nil || res.Status != Unbounded {
		t.Errorf("costed column in no row: status %v, err %v; want unbounded", res.Status, err)
	}
	b.AddRow("s", 3, inf, []int{0}, []float64{1}) // x ≤ 2 and x ≥ 3
	bad, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	if res, err := clp.Solve(context.Background(), bad, Options{}); err != nil || res.Status != Infeasible || res.HasSolution() {
		t.Errorf("infeasible: status %v, err %v", res.Status, err)
	}
	p, err := ReadMPSFile(instancePath("netlib", "afiro"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := clp.Solve(context.Background(), p, Options{IterationLimit: 2})
	if err != nil || res.Status != IterationLimit {
		t.Errorf("iteration limit: status %v, err %v", res.Status, err)
	}
	mip, err := ReadMPSFile(instancePath("miplib", "p0033"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := clp.Solve(context.Background(), mip, Options{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("MILP: err = %v, want ErrUnsupported", err)
	}
	missing := CLP{Path: filepath.Join(t.TempDir(), "no-such-clp")}
	if _, err := missing.Solve(context.Background(), p, Options{}); !errors.Is(err, ErrSolverUnavailable) {
		t.Errorf("missing binary: err = %v, want ErrSolverUnavailable", err)
	}
}

func TestCOINStoppedStatus(t *testing.T) {
	cases := []struct {
		name, first, result string
		opt                 Options
		mip                 bool
		elapsed             time.Duration
		want                Status
	}{
		{"cbc node limit", "Stopped on iterations - objective value 1", "stopped on node limit", Options{NodeLimit: 5}, true, 0, NodeLimit},
		{"cbc time", "Stopped on time - objective value 1", "stopped on time limit", Options{TimeLimit: time.Second}, true, time.Second, TimeLimit},
		{"cbc LP iterations", "Stopped on iterations - objective value 1", "stopped on node limit", Options{IterationLimit: 2}, false, 0, IterationLimit},
		{"clp time", "Stopped on iterations or time - objective value 1", "", Options{TimeLimit: time.Second, IterationLimit: 1e6}, false, 2 * time.Second, TimeLimit},
		{"clp iterations", "Stopped on iterations or time - objective value 1", "", Options{TimeLimit: time.Minute, IterationLimit: 9}, false, time.Second, IterationLimit},
		{"interrupt", "Stopped on iterations - objective value 1", "user ctrl-cuser ctrl-c", Options{}, true, 0, Cancelled},
	}
	for _, c := range cases {
		got, err := stoppedStatus(c.first, c.result, c.opt, c.mip, c.elapsed)
		if err != nil || got != c.want {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	if _, err := stoppedStatus("Stopped on iterations", "", Options{}, false, 0); err == nil {
		t.Error("stopped with no limit set: no error")
	}
}

// TestWriteMPSReadByCBC: cbc reads what WriteMPS and the CBC adapter write
// with no error and no "No match" message (the name of a BOUNDS line not
// found). CoinMpsIO splits the fields of a file it believes fixed-format at
// columns 5–12 and 15–22 while every name so far fitted in 8 bytes, which
// glues "BND" to a 4-byte column name (" UP BND C157 1" reads as column
// "BNDC157"); WriteMPS's 9-byte objective row name turns that off. The
// cases: the MIPLIB instances (p0033's columns are C157 …), as written by
// WriteMPS with their names and by the adapter with generated ones, and a
// problem whose names are all 4 bytes, minimised and maximised.
func TestWriteMPSReadByCBC(t *testing.T) {
	cbc := cbcPath(t)
	dir := t.TempDir()
	type model struct {
		name string
		p    *Problem
	}
	var models []model
	names, _ := testInstances(t, "miplib")
	for _, name := range names {
		if (testing.Short() || raceEnabled) && name != "p0033" {
			continue
		}
		p, err := ReadMPSFile(instancePath("miplib", name))
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, model{name, p})
	}
	var b Builder
	x := b.AddIntCol("C157", 1, 0, 1)
	y := b.AddCol("C158", 2, 1, 3)
	b.AddRow("R101", 2, 5, []int{x, y}, []float64{1, 1})
	small, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	smallMax := *small
	smallMax.Maximize = true
	models = append(models, model{"short names", small}, model{"short names, max", &smallMax})
	for _, m := range models {
		for _, how := range []string{"WriteMPS", "adapter"} {
			path := filepath.Join(dir, strings.ReplaceAll(m.name, " ", "_")+"_"+how+".mps")
			if how == "adapter" {
				if _, err := writeForCBC(path, m.p); err != nil {
					t.Fatal(err)
				}
			} else {
				var buf bytes.Buffer
				if err := WriteMPS(&buf, m.p); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, err := exec.Command(cbc, path, "-quit").CombinedOutput()
			if err != nil {
				t.Fatalf("%s (%s): cbc: %v\n%s", m.name, how, err, out)
			}
			if s := string(out); !strings.Contains(s, " read with 0 errors") || strings.Contains(s, "No match") {
				t.Errorf("%s (%s): cbc did not read the file cleanly:\n%s", m.name, how, tail(out, 12))
			}
		}
	}
}
