package placement

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gputco/gputco/placement/lp"
)

// cbcSolver solves an lp.Problem with an external COIN-OR cbc binary: it
// writes the problem as free MPS to a temporary directory, runs cbc on it
// and reads cbc's solution file back. It implements lp.Solver.
type cbcSolver struct {
	path string
}

// cbcBinary returns the cbc to run: path, or "cbc" on the PATH, or
// /usr/bin/cbc; an error wrapping lp.ErrSolverUnavailable when none runs.
func cbcBinary(path string) (string, error) {
	if path != "" {
		return exec.LookPath(path)
	}
	if p, err := exec.LookPath("cbc"); err == nil {
		return p, nil
	}
	if _, err := os.Stat("/usr/bin/cbc"); err == nil {
		return "/usr/bin/cbc", nil
	}
	return "", fmt.Errorf("%w: cbc not found", lp.ErrSolverUnavailable)
}

// Solve runs cbc on p. The Result has X, Objective recomputed from X,
// Status, and Bound = Objective when cbc proved optimality within
// opt.Gap; no duals.
func (c cbcSolver) Solve(ctx context.Context, p *lp.Problem, opt lp.Options) (lp.Result, error) {
	start := time.Now()
	bin, err := cbcBinary(c.path)
	if err != nil {
		return lp.Result{}, fmt.Errorf("%w: %w", lp.ErrSolverUnavailable, err)
	}
	dir, err := os.MkdirTemp("", "gputco-cbc-")
	if err != nil {
		return lp.Result{}, err
	}
	defer os.RemoveAll(dir)
	mps, sol := filepath.Join(dir, "model.mps"), filepath.Join(dir, "solution.txt")
	var buf bytes.Buffer
	if err := lp.WriteMPS(&buf, p); err != nil {
		return lp.Result{}, err
	}
	if err := os.WriteFile(mps, buf.Bytes(), 0o600); err != nil {
		return lp.Result{}, err
	}
	gap := opt.Gap
	if gap == 0 {
		gap = 1e-9
	}
	args := []string{mps, "-ratioGap", strconv.FormatFloat(gap, 'g', -1, 64)}
	if opt.TimeLimit > 0 {
		args = append(args, "-sec", strconv.FormatFloat(opt.TimeLimit.Seconds(), 'f', 3, 64))
	}
	args = append(args, "-solve", "-solution", sol)
	cmd := exec.CommandContext(ctx, bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return lp.Result{Status: lp.Cancelled, Elapsed: time.Since(start)}, ctx.Err()
	}
	data, err := os.ReadFile(sol)
	if err != nil {
		return lp.Result{}, fmt.Errorf("%w: cbc wrote no solution (%v): %s", ErrSolver, runErr, tail(out.String()))
	}
	res, err := readCBCSolution(data, p)
	res.Elapsed = time.Since(start)
	return res, err
}

// readCBCSolution parses cbc's solution file for p.
func readCBCSolution(data []byte, p *lp.Problem) (lp.Result, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	if !sc.Scan() {
		return lp.Result{}, fmt.Errorf("%w: empty cbc solution", ErrSolver)
	}
	head := sc.Text()
	var res lp.Result
	switch {
	case strings.HasPrefix(head, "Optimal"):
		res.Status = lp.Optimal
	case strings.Contains(head, "nfeasible"):
		res.Status = lp.Infeasible
		return res, nil
	case strings.Contains(head, "nbounded"):
		res.Status = lp.Unbounded
		return res, nil
	case strings.HasPrefix(head, "Stopped on time"):
		res.Status = lp.TimeLimit
	case strings.HasPrefix(head, "Stopped"):
		res.Status = lp.NodeLimit
	default:
		return lp.Result{}, fmt.Errorf("%w: cbc status %q", ErrSolver, head)
	}
	x := make([]float64, p.NumCols())
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 3 && f[0] == "**" {
			f = f[1:]
		}
		if len(f) < 3 {
			continue
		}
		j, err := strconv.Atoi(f[0])
		if err != nil || j < 0 || j >= len(x) {
			return lp.Result{}, fmt.Errorf("%w: cbc solution line %q", ErrSolver, sc.Text())
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return lp.Result{}, fmt.Errorf("%w: cbc solution line %q", ErrSolver, sc.Text())
		}
		x[j] = v
	}
	if err := sc.Err(); err != nil {
		return lp.Result{}, fmt.Errorf("%w: %w", ErrSolver, err)
	}
	if strings.Contains(head, "no integer solution") || strings.Contains(head, "infeasible") {
		return res, nil
	}
	for j := range x {
		if p.Integer != nil && p.Integer[j] {
			x[j] = math.Round(x[j])
		}
		x[j] = min(max(x[j], p.ColLower[j]), p.ColUpper[j])
	}
	res.X = x
	res.Objective = p.Offset
	for j, c := range p.Cost {
		res.Objective += c * x[j]
	}
	res.Bound, res.Gap = math.Inf(-1), math.Inf(1)
	if res.Status == lp.Optimal {
		res.Bound, res.Gap = res.Objective, 0
	}
	return res, nil
}

// tail returns the last lines of a solver's output, for errors.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if i := len(s) - 400; i > 0 {
		s = "…" + s[i:]
	}
	return s
}
