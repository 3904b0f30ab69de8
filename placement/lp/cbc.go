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
	"slices"
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
//	cbc model.mps -timeMode elapsed [-sec T] [-maxIterations K] [-preprocess off]
//	    [-ratioGap G] [-maxNodes N] [-threads P] [Args...] -solve -solu sol.txt -saveSolution sol.bin
//
// (-preprocess off, -ratioGap, Options.Gap or 1e-9, and -maxNodes for a
// MILP only: CBC 2.10.8's integer preprocessing cuts off the optimum of
// some MILPs, or calls them "infeasible or unbounded"; Args may turn it
// back on with {"-preprocess", "on"})
//
// and reads the status from CBC's messages and solution file and the numbers
// (full float64 precision) from its binary solution file, by index.
//
// What the Result holds:
//   - Status: Optimal, Infeasible, Unbounded, TimeLimit, IterationLimit,
//     NodeLimit, or Cancelled when ctx ended (CBC is interrupted and its
//     incumbent kept). CBC's and CLP's word Unbounded, and Infeasible
//     on a problem with a cost, is checked, since they say Unbounded when
//     a MILP's relaxation is unbounded (before any integer search), call
//     some unbounded problems infeasible (for example one with a cost on a
//     column in no row), and their dual simplex calls some bounded LPs
//     unbounded (one whose optimum lies beyond its artificial bound of
//     1e10 on columns without bounds, such as min −x s.t. x + y ≤ 1e15,
//     y ∈ [0, 1]). Solve runs the problem again with a zero objective
//     (with CBC's preprocessing, for a MILP) and, if that finds a feasible
//     (integer) point, solves the LP that optimises the objective over the
//     directions in [−1, 1]ⁿ the bounds allow without end: Unbounded when
//     the objective improves along one (for rational data a MILP with an
//     unbounded relaxation and an integer point is unbounded). If it does
//     not, the first word was wrong, and the problem is solved again with
//     the primal simplex (CBC: -primalS before -solve), a MILP both
//     without and with preprocessing and its relaxation too: the better
//     answer is Optimal when the relaxation's optimum (within the gap) or
//     both runs agree; otherwise Solve returns it with an error wrapping
//     ErrNumerical. A zero-objective run that is infeasible gives
//     Infeasible, one stopped by a limit that limit. On a problem whose
//     matrix has no non-zero entry CBC and CLP stop "on difficulties" when
//     it is infeasible; Solve reports Infeasible then when a row's range
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
		args = append(args, "-preprocess", "off", "-ratioGap", strconv.FormatFloat(gap, 'g', -1, 64))
		if opt.NodeLimit > 0 {
			args = append(args, "-maxNodes", strconv.Itoa(opt.NodeLimit))
		}
	}
	if c.Threads > 1 {
		args = append(args, "-threads", strconv.Itoa(c.Threads))
	}
	args = append(args, c.Args...)
	primal := []string{"-primalS"} // an LP: CLP's primal simplex alone
	if p.IsMIP() {
		primal = []string{"-primalS", "-solve"} // the root LP by the primal simplex
	}
	return solveCOIN(ctx, coinRun{name: "cbc", path: c.Path, args: args, solve: "-solve", primal: primal}, p, opt)
}

// CLP solves LPs with an external COIN-OR CLP binary's dual simplex, like
// CBC (same files, same Result, see CBC) but without branch and bound: a
// MILP is refused with ErrUnsupported. It runs
//
//	clp model.mps -timeMode elapsed [-sec T] [-maxIterations K] [Args...]
//	    -dualsimplex -solu sol.txt -saveSolution sol.bin
//
// and, when the dual simplex's Unbounded or Infeasible is not borne out
// (see CBC), -primalsimplex in place of -dualsimplex.
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
	return solveCOIN(ctx, coinRun{name: "clp", path: c.Path, args: c.Args, solve: "-dualsimplex", primal: []string{"-primalsimplex"}}, p, opt)
}

// coinRun describes how to run a COIN-OR binary.
type coinRun struct {
	name  string   // "cbc" or "clp": the default binary and the messages
	path  string   // the binary, "" for name on PATH
	args  []string // solver-specific arguments before the solve command
	solve string   // the solve command
	// primal replaces solve to solve the LP (CBC: the root LP) by the
	// primal simplex instead, when the dual simplex's word is not borne
	// out; nil in such a second run.
	primal []string
}

// primalRun returns run with its primal simplex commands.
func (run coinRun) primalRun() coinRun {
	r := run
	r.args = append(slices.Clip(run.args), run.primal[:len(run.primal)-1]...)
	r.solve, r.primal = run.primal[len(run.primal)-1], nil
	return r
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
	args = append(args, run.solve)

	exe := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Dir = dir
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) } // stops cleanly and writes the incumbent
		cmd.WaitDelay = 5 * time.Second
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.Bytes(), err
	}
	out, runErr := exe(append(slices.Clip(args), "-solu", solTxt, "-saveSolution", solBin)...)
	if errors.Is(runErr, exec.ErrNotFound) {
		return Result{}, fmt.Errorf("%w: %s: %w", ErrSolverUnavailable, run.name, runErr)
	}
	var exit *exec.ExitError
	if errors.As(runErr, &exit) && !exit.Exited() && ctx.Err() == nil {
		if txt, _ := os.ReadFile(solTxt); len(txt) == 0 {
			// CBC 2.10.8 without preprocessing crashes (SIGSEGV) writing
			// the solution of a MILP it found infeasible by tightening
			// bounds, and its messages die with it: run it again without
			// the solution file for them.
			if again, _ := exe(args...); bytes.Contains(again, []byte(cbcTightenInfeasible)) {
				out = again
			}
		}
	}
	res, perr := readCBCSolution(p, kept, opt, time.Since(start), out, solTxt, solBin)
	res.Elapsed = time.Since(start)
	if ctxErr := ctx.Err(); ctxErr != nil {
		res.Status = Cancelled
		return res, ctxErr
	}
	if perr != nil {
		if runErr != nil {
			return Result{Elapsed: res.Elapsed}, fmt.Errorf("lp: %s: %w: %v\n%s", run.name, runErr, perr, tail(out, 20))
		}
		return Result{Elapsed: res.Elapsed}, fmt.Errorf("lp: %s: %v\n%s", run.name, perr, tail(out, 20))
	}
	switch {
	case res.Status == Infeasible && hasCost(p):
		// CLP reports some unbounded problems as infeasible (a column
		// with a cost in no row is enough). A feasible point settles it
		// when the objective also improves along a ray; a feasible point
		// without such a ray means the word was wrong.
		feas, err := feasibility(ctx, run, p, opt, &res)
		if err != nil {
			return res, err
		}
		if feas == Optimal {
			return confirmUnbounded(ctx, run, p, opt, res, start)
		}
		res.Elapsed = time.Since(start)
	case res.Status == Unbounded:
		// CBC says Unbounded when the LP relaxation is unbounded, before
		// any integer search (and CLP may on a dual infeasible LP that is
		// primal infeasible too). The problem is unbounded only when it
		// has a feasible point (an integer one for a MILP, which for
		// rational data suffices): the same problem with a zero objective
		// decides it. CLP's dual simplex also says Unbounded for some
		// bounded LPs whose optimum lies far out (beyond its artificial
		// bounds of 1e10 on columns without bounds): confirmUnbounded
		// checks that the objective improves along a ray.
		feas := Optimal
		if hasCost(p) {
			var err error
			if feas, err = feasibility(ctx, run, p, opt, &res); err != nil {
				return res, err
			}
		}
		switch feas {
		case Optimal:
			return confirmUnbounded(ctx, run, p, opt, res, start)
		case Infeasible:
			res.Status, res.Bound = Infeasible, -trivialBound(p)
		default: // a limit: unbounded is not proven
			res.Status = feas
		}
		res.Elapsed = time.Since(start)
	}
	return res, nil
}

// confirmUnbounded decides a problem with a feasible point that CBC or CLP
// called unbounded or infeasible (res): Unbounded when the objective
// improves along a ray of p's relaxation; otherwise CBC's or CLP's word
// was wrong, and p is solved again with the primal simplex (run.primal).
func confirmUnbounded(ctx context.Context, run coinRun, p *Problem, opt Options, res Result, start time.Time) (Result, error) {
	said := res.Status
	ray, err := improvingRay(ctx, run, p, opt, &res)
	if err != nil {
		return res, err
	}
	switch {
	case ray == Optimal:
		res.Status, res.Bound, res.X, res.RowActivity, res.Objective = Unbounded, trivialBound(p), nil, nil, 0
	case ray != Infeasible: // a limit: unbounded is not proven
		res.Status, res.X, res.RowActivity, res.Objective = ray, nil, nil, 0
	case run.primal == nil:
		return res, fmt.Errorf("%w: lp: %s says %v, also with the primal simplex, but the problem has a feasible point and its objective improves along no ray", ErrNumerical, run.name, said)
	default:
		again, err := resolvePrimal(ctx, run, p, opt)
		again.Iterations += res.Iterations
		again.Nodes += res.Nodes
		again.Elapsed = time.Since(start)
		return again, err
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// resolvePrimal solves p again, with the primal simplex, after CBC's or
// CLP's first word on it proved wrong. An LP's answer is taken as it is.
// CBC's branch and bound, once wrong, is not trusted alone: a MILP is
// solved without and with CBC's preprocessing (CBC 2.10.8 gets some
// problems wrong either way, for example min −x over integers x with
// x + y ≤ 1e15, y ∈ [0, 1]: Optimal −5.00005e9 without preprocessing,
// Unbounded with it), and its LP relaxation too. The better of the two
// answers is Optimal when the relaxation's optimum proves it (within the
// gap) or when both runs found it Optimal; otherwise Solve returns it with
// an error wrapping ErrNumerical.
func resolvePrimal(ctx context.Context, run coinRun, p *Problem, opt Options) (Result, error) {
	primal := run.primalRun()
	a, err := solveCOIN(ctx, primal, p, opt)
	if err != nil || !p.IsMIP() {
		return a, err
	}
	pre := primal
	pre.args = append(slices.Clip(pre.args), "-preprocess", "on")
	b, err := solveCOIN(ctx, pre, p, opt)
	if err != nil {
		return b, err
	}
	relax := *p
	relax.Integer = nil
	r, err := solveCOIN(ctx, coinRun{name: run.name, path: run.path, solve: "-primalS"}, &relax, opt)
	if err != nil {
		return a, err
	}
	sign := 1.0
	if p.Maximize {
		sign = -1
	}
	best := a
	if b.X != nil && (a.X == nil || sign*b.Objective < sign*a.Objective) {
		best = b
	}
	best.Iterations, best.Nodes = a.Iterations+b.Iterations+r.Iterations, a.Nodes+b.Nodes
	gap := opt.Gap
	if gap == 0 {
		gap = 1e-9
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= gap*math.Max(1, math.Abs(x)) }
	switch {
	case a.Status == b.Status && a.Status != Optimal && best.X == nil:
		return best, nil // both Infeasible, or both stopped without a point
	case best.X == nil:
	case r.Status == Optimal && near(best.Objective, r.Objective):
		best.Status, best.Bound, best.Gap = Optimal, best.Objective, 0
		return best, nil
	case a.Status == Optimal && b.Status == Optimal && near(a.Objective, b.Objective):
		best.Status, best.Bound, best.Gap = Optimal, best.Objective, 0
		return best, nil
	}
	for _, st := range []Status{a.Status, b.Status} {
		if st == TimeLimit || st == IterationLimit || st == NodeLimit {
			best.Status, best.Bound, best.Gap = st, trivialBound(p), math.Inf(1)
			if best.X != nil && r.Status == Optimal {
				best.Bound = r.Objective
				best.Gap = math.Abs(best.Objective-r.Objective) / math.Max(1, math.Abs(best.Objective))
			}
			return best, nil // not proven either way: the limit stopped it
		}
	}
	return best, fmt.Errorf("%w: lp: %s gives different answers with and without preprocessing (%v %v, %v %v; relaxation %v %v)", ErrNumerical, run.name, a.Status, a.Objective, b.Status, b.Objective, r.Status, r.Objective)
}

// improvingRay reports whether the relaxation of p has a ray along which
// its objective improves: Optimal when it has, Infeasible when it has
// not, or the limit that stopped the search. It solves, with run, the LP
// that optimises p's objective over the directions d ∈ [−1, 1]ⁿ that p's
// bounds allow without end (d_j ≥ 0 when column j has a finite lower
// bound, ≤ 0 when a finite upper one, the same for the rows' activities
// A·d), a well-scaled LP whatever p's numbers, and checks its answer.
// Its iterations are added to res.
func improvingRay(ctx context.Context, run coinRun, p *Problem, opt Options, res *Result) (Status, error) {
	m, n := p.NumRows(), p.NumCols()
	q := &Problem{
		Maximize: p.Maximize, Cost: p.Cost, A: p.A,
		ColLower: make([]float64, n), ColUpper: make([]float64, n),
		RowLower: make([]float64, m), RowUpper: make([]float64, m),
	}
	recede := func(lo, up, width float64) (float64, float64) {
		l, u := -width, width
		if !math.IsInf(lo, -1) {
			l = 0
		}
		if !math.IsInf(up, 1) {
			u = 0
		}
		return l, u
	}
	for j := range n {
		q.ColLower[j], q.ColUpper[j] = recede(p.ColLower[j], p.ColUpper[j], 1)
	}
	for i := range m {
		q.RowLower[i], q.RowUpper[i] = recede(p.RowLower[i], p.RowUpper[i], math.Inf(1))
	}
	opt.Basis = nil
	r, err := solveCOIN(ctx, run, q, opt)
	res.Iterations += r.Iterations
	if err != nil {
		return 0, err
	}
	if r.Status != Optimal {
		if r.Status == Infeasible || r.Status == Unbounded {
			return 0, fmt.Errorf("%w: lp: %s calls the LP of p's rays %v (d = 0 is optimal or better)", ErrNumerical, run.name, r.Status)
		}
		return r.Status, nil
	}
	// The ray must improve the objective by more than the tolerances of
	// its bounds can account for.
	gain, scale := 0.0, 0.0
	for j, c := range p.Cost {
		gain += c * r.X[j]
		scale += math.Abs(c)
	}
	if !p.Maximize {
		gain = -gain
	}
	if !(gain > 1e-7*scale) || !feasibleWithin(q, r.X, r.RowActivity, 1e-9) {
		return Infeasible, nil
	}
	return Optimal, nil
}

// feasibility solves p with a zero objective — Optimal when p has a
// feasible point — adding its iterations and nodes to res.
//
// A MILP is solved with CBC's preprocessing: without it CBC 2.10.8 stalls
// (with no output, ignoring ctrl-c) on the zero-objective problem of an
// integer column x ≥ 0 and the row x + y ≤ 1e12, y ∈ [0, 1].
func feasibility(ctx context.Context, run coinRun, p *Problem, opt Options, res *Result) (Status, error) {
	q := *p
	q.Cost, q.Offset = make([]float64, p.NumCols()), 0
	if p.IsMIP() {
		run.args = append(slices.Clip(run.args), "-preprocess", "on")
	}
	feas, err := solveCOIN(ctx, run, &q, opt)
	if err != nil {
		return 0, err
	}
	res.Iterations += feas.Iterations
	res.Nodes += feas.Nodes
	return feas.Status, nil
}

// emptyInfeasible reports whether p has no non-zero matrix entry outside
// its free rows (which CBC is not given) and a row whose range excludes 0
// (its only activity): CLP's "Empty problem" path stops "on difficulties"
// on such a problem instead of calling it infeasible.
func emptyInfeasible(p *Problem) bool {
	for k, a := range p.A.Value {
		if i := p.A.Index[k]; a != 0 && (!math.IsInf(p.RowLower[i], -1) || !math.IsInf(p.RowUpper[i], 1)) {
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
					a.Index = append(a.Index, int32(ni))
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

// cbcTightenInfeasible is CBC's message when tightening bounds before the
// branch and bound proves a MILP infeasible.
const cbcTightenInfeasible = "Problem is infeasible - tightenPrimalBounds"

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
	if len(txt) == 0 && bytes.Contains(out, []byte(cbcTightenInfeasible)) {
		// CBC 2.10.8 without preprocessing proved infeasibility by
		// tightening bounds until some crossed, and crashed (SIGSEGV)
		// writing the solution file.
		res.Status, res.Bound = Infeasible, -trivialBound(p)
		return res, nil
	}
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
