package lp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// CBC solves problems with an external COIN-OR CBC binary, behind the same
// Solver interface as the built-in solver: for users who prefer a mature
// solver, and as a test oracle. It is never used unless asked for. (CLP
// does the same for LPs with the clp binary.)
//
// Solve writes the problem as free MPS to a temporary directory, with
// generated names (C<j>, R<i>) so that no name can confuse CBC, as a
// minimisation (a maximisation is solved as min −cᵀx and mapped back) and
// without its free rows (which CBC would drop; their duals are 0). It
// runs
//
//	cbc model.mps -timeMode elapsed [-sec T] [-maxIterations K] [-ratioGap G]
//	    [-maxNodes N] [-threads P] [Args...] -solve -solu sol.txt -saveSolution sol.bin
//
// (-ratioGap, Options.Gap or 1e-9, and -maxNodes for a MILP only)
//
// and reads the status from CBC's messages and solution file and the numbers
// (full float64 precision) from its binary solution file, by index.
//
// What the Result holds:
//   - Status: Optimal, Infeasible, Unbounded, TimeLimit, IterationLimit,
//     NodeLimit, or Cancelled when ctx ended (CBC is interrupted and its
//     incumbent kept). CLP calls some unbounded problems infeasible (for
//     example one with a cost on a column in no row): when CBC says
//     Infeasible, Solve runs it again with a zero objective and reports
//     Unbounded if that finds a feasible point. CBC says Unbounded when a
//     MILP's relaxation is unbounded, before any integer search: when CBC
//     or CLP says Unbounded, Solve runs it again with a zero objective
//     and reports Unbounded if that finds a feasible (integer) point —
//     for rational data a MILP with an unbounded relaxation and an
//     integer point is unbounded —, Infeasible if that is infeasible, and
//     the limit that stopped it otherwise. On a problem whose matrix has
//     no non-zero entry CBC and CLP stop "on difficulties" when it is
//     infeasible; Solve reports Infeasible then when a row's range
//     excludes 0 (every row's activity).
//   - X: for Optimal; for a limit or cancellation when CBC has an integer
//     solution (a MILP) or when CBC's point satisfies the constraints and
//     bounds within 1e-6 (an LP). Integer columns are rounded to the
//     nearest integer. Objective (cᵀx + Offset) and RowActivity (A·x) are
//     computed from X.
//   - RowDual and ReducedCost: for an LP solved to Optimal, CBC's (CLP's)
//     duals in this package's sign convention (see Result).
//   - Iterations and Nodes: as CBC reports them. Bound: Objective when
//     Optimal (CBC proved it within the gap); for a MILP stopped at a limit
//     the "Lower bound" CBC prints (3 decimals) less half a unit of its
//     last digit (what the rounding may have added), else −Inf for a
//     minimisation (+Inf for a maximisation); for Infeasible the opposite
//     infinity. Gap: 0 when Optimal, else from Objective and Bound (+Inf
//     without a solution).
//   - Not provided: Ray (CBC gives no certificate), Basis, Progress calls;
//     Options.Basis is checked for shape and ignored.
//
// With Threads ≤ 1 CBC is deterministic; with more threads it may not be.
// Solve returns ErrSolverUnavailable (wrapped) when the binary cannot be
// found or run, and an error when CBC fails without a solution file.
type CBC struct {
	// Path is the cbc binary; "" looks up "cbc" on PATH.
	Path string
	// Threads, when > 1, is passed as -threads.
	Threads int
	// Args are extra cbc arguments, placed before -solve: for example
	// {"-dualTolerance", "1e-9"} (CLP's default 1e-7 leaves netlib's
	// pilot87 1.1e-6 above its optimum) or {"-presolve", "off"}.
	Args []string
}

// Solve implements Solver with the cbc binary.
func (c CBC) Solve(ctx context.Context, p *Problem, opt Options) (Result, error) {
	var args []string
	if p.IsMIP() {
		gap := opt.Gap
		if gap == 0 {
			gap = 1e-9
		}
		args = append(args, "-ratioGap", strconv.FormatFloat(gap, 'g', -1, 64))
		if opt.NodeLimit > 0 {
			args = append(args, "-maxNodes", strconv.Itoa(opt.NodeLimit))
		}
	}
	if c.Threads > 1 {
		args = append(args, "-threads", strconv.Itoa(c.Threads))
	}
	args = append(args, c.Args...)
	return solveCOIN(ctx, coinRun{name: "cbc", path: c.Path, args: args, solve: "-solve"}, p, opt)
}

// CLP solves LPs with an external COIN-OR CLP binary's dual simplex, like
// CBC (same files, same Result, see CBC) but without branch and bound: a
// MILP is refused with ErrUnsupported. It runs
//
//	clp model.mps -timeMode elapsed [-sec T] [-maxIterations K] [Args...]
//	    -dualsimplex -solu sol.txt -saveSolution sol.bin
type CLP struct {
	// Path is the clp binary; "" looks up "clp" on PATH.
	Path string
	// Args are extra clp arguments, placed before -dualsimplex.
	Args []string
}

// Solve implements Solver with the clp binary.
func (c CLP) Solve(ctx context.Context, p *Problem, opt Options) (Result, error) {
	if p.IsMIP() {
		return Result{}, fmt.Errorf("%w: clp solves LPs only; use CBC for a MILP", ErrUnsupported)
	}
	return solveCOIN(ctx, coinRun{name: "clp", path: c.Path, args: c.Args, solve: "-dualsimplex"}, p, opt)
}

// coinRun describes how to run a COIN-OR binary.
type coinRun struct {
	name  string   // "cbc" or "clp": the default binary and the messages
	path  string   // the binary, "" for name on PATH
	args  []string // solver-specific arguments before the solve command
	solve string   // the solve command
}

// solveCOIN writes p, runs the binary and reads its answer back.
func solveCOIN(ctx context.Context, run coinRun, p *Problem, opt Options) (Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	if err := checkOptions(p, opt); err != nil {
		return Result{}, err
	}
	bin := run.path
	if bin == "" {
		bin = run.name
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return Result{}, fmt.Errorf("%w: %s: %w", ErrSolverUnavailable, run.name, err)
	}
	if err := ctx.Err(); err != nil {
		return Result{Status: Cancelled, Gap: math.Inf(1), Bound: trivialBound(p)}, err
	}

	dir, err := os.MkdirTemp("", "lp-"+run.name+"-")
	if err != nil {
		return Result{}, fmt.Errorf("lp: %s: %w", run.name, err)
	}
	defer os.RemoveAll(dir)
	model := filepath.Join(dir, "model.mps")
	kept, err := writeForCBC(model, p)
	if err != nil {
		return Result{}, err
	}
	solTxt, solBin := filepath.Join(dir, "sol.txt"), filepath.Join(dir, "sol.bin")
	args := []string{model, "-timeMode", "elapsed"}
	if opt.TimeLimit > 0 {
		args = append(args, "-sec", strconv.FormatFloat(opt.TimeLimit.Seconds(), 'g', -1, 64))
	}
	if opt.IterationLimit > 0 {
		args = append(args, "-maxIterations", strconv.Itoa(opt.IterationLimit))
	}
	args = append(args, run.args...)
	args = append(args, run.solve, "-solu", solTxt, "-saveSolution", solBin)

	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) } // stops cleanly and writes the incumbent
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	if errors.Is(runErr, exec.ErrNotFound) {
		return Result{}, fmt.Errorf("%w: %s: %w", ErrSolverUnavailable, run.name, runErr)
	}
	res, perr := readCBCSolution(p, kept, opt, time.Since(start), out.Bytes(), solTxt, solBin)
	res.Elapsed = time.Since(start)
	if ctxErr := ctx.Err(); ctxErr != nil {
		res.Status = Cancelled
		return res, ctxErr
	}
	if perr != nil {
		if runErr != nil {
			return Result{Elapsed: res.Elapsed}, fmt.Errorf("lp: %s: %w: %v\n%s", run.name, runErr, perr, tail(out.Bytes(), 20))
		}
		return Result{Elapsed: res.Elapsed}, fmt.Errorf("lp: %s: %v\n%s", run.name, perr, tail(out.Bytes(), 20))
	}
	if res.Status == Infeasible && hasCost(p) {
		// CLP reports some unbounded problems as infeasible (a column
		// with a cost in no row is enough). A feasible point settles it:
		// feasible and not solved to optimality means unbounded.
		feas, err := feasibility(ctx, run, p, opt, &res)
		if err != nil {
			return res, err
		}
		if feas == Optimal {
			res.Status, res.Bound = Unbounded, trivialBound(p)
		}
		res.Elapsed = time.Since(start)
	} else if res.Status == Unbounded {
		// CBC says Unbounded when the LP relaxation is unbounded, before
		// any integer search (and CLP may on a dual infeasible LP that is
		// primal infeasible too). The problem is unbounded only when it
		// has a feasible point (an integer one for a MILP, which for
		// rational data suffices): the same problem with a zero objective
		// decides it.
		feas, err := feasibility(ctx, run, p, opt, &res)
		if err != nil {
			return res, err
		}
		switch feas {
		case Optimal:
		case Infeasible:
			res.Status, res.Bound = Infeasible, -trivialBound(p)
		default: // a limit: unbounded is not proven
			res.Status = feas
		}
		res.Elapsed = time.Since(start)
	}
	return res, nil
}

// feasibility solves p with a zero objective — Optimal when p has a
// feasible point — adding its iterations and nodes to res.
func feasibility(ctx context.Context, run coinRun, p *Problem, opt Options, res *Result) (Status, error) {
	q := *p
	q.Cost, q.Offset = make([]float64, p.NumCols()), 0
	feas, err := solveCOIN(ctx, run, &q, opt)
	if err != nil {
		return 0, err
	}
	res.Iterations += feas.Iterations
	res.Nodes += feas.Nodes
	return feas.Status, nil
}

// emptyInfeasible reports whether p has no non-zero matrix entry and a row
// whose range excludes 0 (its only activity): CLP's "Empty problem" path
// stops "on difficulties" on such a problem instead of calling it
// infeasible.
func emptyInfeasible(p *Problem) bool {
	for _, a := range p.A.Value {
		if a != 0 {
			return false
		}
	}
	for i := range p.RowLower {
		l, u := p.RowLower[i], p.RowUpper[i]
		if l > primalTol*(1+math.Abs(l)) || u < -primalTol*(1+math.Abs(u)) {
			return true
		}
	}
	return false
}

func hasCost(p *Problem) bool {
	for _, c := range p.Cost {
		if c != 0 {
			return true
		}
	}
	return false
}

// stoppedStatus tells which limit stopped CBC or CLP, from the first line
// of its solution file, its "Result - " message (lower case) and the limits
// that were set: the binaries' messages do not always say (CBC writes
// "Stopped on iterations" after a node limit, CLP "Stopped on iterations
// or time").
func stoppedStatus(first, result string, opt Options, isMIP bool, elapsed time.Duration) (Status, error) {
	switch {
	case strings.Contains(result, "ctrl-c"):
		return Cancelled, nil
	case strings.Contains(result, "time limit"), strings.Contains(first, "Stopped on time"):
		return TimeLimit, nil
	case strings.Contains(result, "node limit") && isMIP && opt.NodeLimit > 0:
		return NodeLimit, nil
	}
	timed := opt.TimeLimit > 0
	iter := opt.IterationLimit > 0
	node := isMIP && opt.NodeLimit > 0
	switch {
	case timed && (elapsed >= opt.TimeLimit || (!iter && !node)):
		return TimeLimit, nil
	case iter && !node:
		return IterationLimit, nil
	case node && !iter:
		return NodeLimit, nil
	case node && iter:
		return IterationLimit, nil // no way to tell; the iteration limit is the stricter test
	}
	return NotSolved, fmt.Errorf("stopped for no limit that was set: %q / %q", first, result)
}

// trivialBound is the bound known without solving: −Inf for a
// minimisation, +Inf for a maximisation.
func trivialBound(p *Problem) float64 {
	if p.Maximize {
		return math.Inf(1)
	}
	return math.Inf(-1)
}

// checkOptions validates the parts of opt a solver relies on.
func checkOptions(p *Problem, opt Options) error {
	switch {
	case opt.TimeLimit < 0:
		return fmt.Errorf("%w: negative time limit %v", ErrInvalid, opt.TimeLimit)
	case opt.IterationLimit < 0:
		return fmt.Errorf("%w: negative iteration limit %d", ErrInvalid, opt.IterationLimit)
	case opt.NodeLimit < 0:
		return fmt.Errorf("%w: negative node limit %d", ErrInvalid, opt.NodeLimit)
	case math.IsNaN(opt.Gap) || opt.Gap < 0 || math.IsInf(opt.Gap, 0):
		return fmt.Errorf("%w: gap %v is not a finite non-negative number", ErrInvalid, opt.Gap)
	}
	if b := opt.Basis; b != nil && (len(b.Cols) != p.NumCols() || len(b.Rows) != p.NumRows()) {
		return fmt.Errorf("%w: basis has %d column and %d row statuses, problem is %d×%d", ErrInvalid, len(b.Cols), len(b.Rows), p.NumRows(), p.NumCols())
	}
	return nil
}

// writeForCBC writes p as a minimisation with generated names and without
// its free rows (CBC drops N rows other than the objective). It returns the
// index in p of each row written.
func writeForCBC(path string, p *Problem) ([]int, error) {
	q := *p
	q.Name, q.ColNames, q.RowNames = "", nil, nil
	if p.Maximize {
		q.Maximize = false
		q.Offset = -p.Offset
		q.Cost = make([]float64, len(p.Cost))
		for j, c := range p.Cost {
			q.Cost[j] = -c
		}
	}
	kept := make([]int, 0, p.NumRows())
	newIndex := make([]int, p.NumRows())
	for i := range p.RowLower {
		newIndex[i] = -1
		if !math.IsInf(p.RowLower[i], -1) || !math.IsInf(p.RowUpper[i], 1) {
			newIndex[i] = len(kept)
			kept = append(kept, i)
		}
	}
	if len(kept) < p.NumRows() {
		q.RowLower, q.RowUpper = make([]float64, len(kept)), make([]float64, len(kept))
		for k, i := range kept {
			q.RowLower[k], q.RowUpper[k] = p.RowLower[i], p.RowUpper[i]
		}
		a := Matrix{Rows: len(kept), Cols: p.A.Cols, Start: make([]int, 1, p.A.Cols+1)}
		for j := 0; j < p.A.Cols; j++ {
			for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
				if ni := newIndex[p.A.Index[k]]; ni >= 0 {
					a.Index = append(a.Index, ni)
					a.Value = append(a.Value, p.A.Value[k])
				}
			}
			a.Start = append(a.Start, len(a.Index))
		}
		q.A = a
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("lp: cbc: %w", err)
	}
	if err := WriteMPS(f, &q); err != nil {
		f.Close()
		return nil, fmt.Errorf("lp: cbc: writing the model: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("lp: cbc: %w", err)
	}
	return kept, nil
}

var (
	cbcResultRe     = regexp.MustCompile(`(?m)^Result - (.*)$`)
	cbcLowerRe      = regexp.MustCompile(`(?m)^Lower bound:\s+(\S+)`)
	cbcNodesRe      = regexp.MustCompile(`(?m)^Enumerated nodes:\s+(\d+)`)
	cbcTotalItersRe = regexp.MustCompile(`(?m)^Total iterations:\s+(\d+)`)
	cbcLPItersRe    = regexp.MustCompile(`(?m)objective \S+ - (\d+) iterations`)
)

// printedLowerBound reads the "Lower bound" CBC prints for a MILP stopped
// at a limit. CBC rounds it (to 3 decimals): the bound it proved may be up
// to half a unit of the last digit printed below the figure, so that half
// unit is taken off — a bound above what was proven would claim too much.
func printedLowerBound(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || strings.ContainsAny(s, "xX") {
		return 0, false // not a decimal figure: no bound
	}
	if math.IsInf(v, 0) {
		return v, true
	}
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	e := 0
	if exp != "" {
		if e, err = strconv.Atoi(exp); err != nil {
			return 0, false
		}
	}
	if _, frac, ok := strings.Cut(mant, "."); ok {
		e -= len(frac)
	}
	return v - 0.5*math.Pow(10, float64(e)), true
}

// readCBCSolution maps CBC's output and solution files to a Result.
// kept lists the rows of p that were written, in order.
// elapsed is the time since the solve started.
func readCBCSolution(p *Problem, kept []int, opt Options, elapsed time.Duration, out []byte, solTxt, solBin string) (Result, error) {
	res := Result{Gap: math.Inf(1), Bound: trivialBound(p)}
	txt, err := os.ReadFile(solTxt)
	if err != nil {
		return res, fmt.Errorf("no solution file: %w", err)
	}
	first, _, _ := strings.Cut(string(txt), "\n")
	result := ""
	if mm := cbcResultRe.FindSubmatch(out); mm != nil {
		result = strings.ToLower(string(mm[1]))
	}
	isMIP := p.IsMIP()
	hasIncumbent := true
	switch {
	case strings.HasPrefix(first, "Optimal"):
		res.Status = Optimal
	case strings.HasPrefix(first, "Infeasible"), strings.HasPrefix(first, "Integer infeasible"):
		res.Status = Infeasible
	case strings.HasPrefix(first, "Unbounded"):
		res.Status = Unbounded
	case strings.HasPrefix(first, "Stopped on difficulties") && bytes.Contains(out, []byte("Empty problem")) && emptyInfeasible(p):
		res.Status = Infeasible
	case strings.HasPrefix(first, "Stopped"):
		hasIncumbent = !strings.Contains(first, "no integer solution")
		st, err := stoppedStatus(first, result, opt, isMIP, elapsed)
		if err != nil {
			return res, err
		}
		res.Status = st
	default:
		return res, fmt.Errorf("unrecognised solution status %q", first)
	}
	if mm := cbcNodesRe.FindSubmatch(out); mm != nil {
		res.Nodes, _ = strconv.Atoi(string(mm[1]))
	}
	if mm := cbcTotalItersRe.FindSubmatch(out); mm != nil {
		res.Iterations, _ = strconv.Atoi(string(mm[1]))
	}
	if res.Iterations == 0 {
		for _, mm := range cbcLPItersRe.FindAllSubmatch(out, -1) {
			n, _ := strconv.Atoi(string(mm[1]))
			res.Iterations = max(res.Iterations, n)
		}
	}
	switch res.Status {
	case Infeasible:
		res.Bound = -trivialBound(p)
		return res, nil
	case Unbounded:
		return res, nil
	}
	m, n := p.NumRows(), p.NumCols()
	keptDual, x, redCost, err := readCBCBinary(solBin, len(kept), n)
	if err != nil {
		if res.Status == Optimal {
			return res, err
		}
		return res, nil // a limit without a point
	}
	if p.Integer != nil {
		for j, isInt := range p.Integer {
			if isInt {
				x[j] = math.Round(x[j])
			}
		}
	}
	act := make([]float64, m)
	for j := 0; j < n; j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			act[p.A.Index[k]] += p.A.Value[k] * x[j]
		}
	}
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	if isMIP && res.Status != Optimal {
		if mm := cbcLowerRe.FindSubmatch(out); mm != nil {
			if v, ok := printedLowerBound(string(mm[1])); ok {
				res.Bound = sign * v
			}
		}
	}
	keep := res.Status == Optimal || (isMIP && hasIncumbent) || (!isMIP && feasibleWithin(p, x, act, 1e-6))
	if !keep {
		return res, nil
	}
	res.X, res.RowActivity = x, act
	obj := p.Offset
	for j, c := range p.Cost {
		obj += c * x[j]
	}
	res.Objective = obj
	if res.Status == Optimal {
		res.Bound, res.Gap = obj, 0
	} else if !math.IsInf(res.Bound, 0) {
		res.Gap = math.Abs(obj-res.Bound) / math.Max(1, math.Abs(obj))
	}
	if !isMIP && res.Status == Optimal {
		rowDual := make([]float64, m) // 0 on free rows
		for k, i := range kept {
			rowDual[i] = keptDual[k]
		}
		res.RowDual, res.ReducedCost = rowDual, redCost
		if p.Maximize {
			for i := range rowDual {
				rowDual[i] = -rowDual[i]
			}
			for j := range redCost {
				redCost[j] = -redCost[j]
			}
		}
	}
	return res, nil
}

// readCBCBinary reads CBC's -saveSolution file: int32 rows, int32 columns,
// float64 objective, then row activities (not used: Solve computes A·x
// from the rounded X), row duals, column values and reduced costs.
func readCBCBinary(path string, m, n int) (rowDual, x, redCost []float64, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("no binary solution file: %w", err)
	}
	want := 16 + 8*(2*m+2*n)
	if len(data) != want {
		return nil, nil, nil, fmt.Errorf("binary solution file has %d bytes, want %d for %d rows and %d columns", len(data), want, m, n)
	}
	gm, gn := int32(binary.LittleEndian.Uint32(data[0:4])), int32(binary.LittleEndian.Uint32(data[4:8]))
	if int(gm) != m || int(gn) != n {
		return nil, nil, nil, fmt.Errorf("binary solution file is for %d rows and %d columns, want %d and %d", gm, gn, m, n)
	}
	off := 16 + 8*m
	vec := func(k int) []float64 {
		v := make([]float64, k)
		for i := range v {
			v[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[off:]))
			off += 8
		}
		return v
	}
	rowDual = vec(m)
	x, redCost = vec(n), vec(n)
	return rowDual, x, redCost, nil
}

// feasibleWithin reports whether x with row activities act satisfies the
// bounds of p within tol (absolute, relative to the bound's magnitude above
// 1).
func feasibleWithin(p *Problem, x, act []float64, tol float64) bool {
	ok := func(v, lo, up float64) bool {
		return v >= lo-tol*math.Max(1, math.Abs(lo)) && v <= up+tol*math.Max(1, math.Abs(up))
	}
	for j, v := range x {
		if math.IsNaN(v) || !ok(v, p.ColLower[j], p.ColUpper[j]) {
			return false
		}
	}
	for i, v := range act {
		if !ok(v, p.RowLower[i], p.RowUpper[i]) {
			return false
		}
	}
	return true
}

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	return strings.Join(lines, "\n")
}
