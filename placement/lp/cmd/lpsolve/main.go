// Command lpsolve solves a linear or mixed-integer program given as an MPS
// file (fixed or free, optionally gzipped) and prints its status, objective
// (full precision), iteration and node counts and time, ending with one
// summary line
//
//	status=WORD objective=VALUE iterations=N nodes=N seconds=S
//
// where VALUE is "none" when no solution is known.
//
// Usage:
//
//	lpsolve [-time DURATION] [-gap REL] [-solver builtin|cbc|clp] [-cbc PATH] FILE.mps[.gz]
//
// The exit status is 0 when the solver proved optimality, 1 otherwise
// (infeasible, unbounded, a limit, an interrupt, a solver failure) and 2 on
// bad flags or input. Interrupt (Ctrl-C) stops the solve and prints the
// best solution found.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"time"

	"github.com/gputco/gputco/placement/lp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: lpsolve [-time DURATION] [-gap REL] [-solver builtin|cbc|clp] [-cbc PATH] FILE.mps[.gz]

Solves the LP or MILP in FILE (MPS, fixed or free, gzip allowed) and prints
its status, objective, iterations, nodes and time, then one summary line
"status=WORD objective=VALUE iterations=N nodes=N seconds=S".
Exit status: 0 optimal, 1 not proved optimal, 2 bad flags or input.

flags:
  -time DURATION   stop after this long (a Go duration such as 30s or 2m; 0: no limit)
  -gap REL         relative MILP gap at which to stop (default 0: 1e-9)
  -solver NAME     builtin (default), cbc or clp (external COIN-OR binaries; clp: LPs only)
  -cbc PATH        the cbc or clp binary for -solver cbc or clp (default: the name on PATH)
`

// run is the command with its arguments and output streams; it returns the
// exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lpsolve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	limit := fs.Duration("time", 0, "")
	gap := fs.Float64("gap", 0, "")
	solverName := fs.String("solver", "builtin", "")
	cbcPath := fs.String("cbc", "", "")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "lpsolve: "+format+"\n", a...)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		return fail("%v (lpsolve -h for usage)", err)
	}
	switch {
	case fs.NArg() != 1:
		return fail("want one MPS file, got %d arguments (lpsolve -h for usage)", fs.NArg())
	case *limit < 0:
		return fail("-time %v is negative", *limit)
	case math.IsNaN(*gap) || math.IsInf(*gap, 0) || *gap < 0:
		return fail("-gap %v is not a finite non-negative number", *gap)
	}
	var solver lp.Solver
	switch *solverName {
	case "builtin":
		solver = builtin{}
	case "cbc":
		solver = lp.CBC{Path: *cbcPath}
	case "clp":
		solver = lp.CLP{Path: *cbcPath}
	default:
		return fail("-solver %q: want builtin, cbc or clp", *solverName)
	}
	path := fs.Arg(0)

	readStart := time.Now()
	p, err := lp.ReadMPSFile(path)
	if err != nil {
		return fail("%v", err)
	}
	readTime := time.Since(readStart)
	nint := 0
	for _, b := range p.Integer {
		if b {
			nint++
		}
	}
	name := p.Name
	if name == "" {
		name = path
	}
	fmt.Fprintf(stdout, "problem    %s: %d rows, %d columns (%d integer), %d non-zeros, read in %v\n",
		name, p.NumRows(), p.NumCols(), nint, p.A.NNZ(), readTime.Round(time.Microsecond))
	fmt.Fprintf(stdout, "solver     %s\n", *solverName)

	res, err := solver.Solve(ctx, p, lp.Options{TimeLimit: *limit, Gap: *gap})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(stderr, "lpsolve: %s\n", firstLine(err.Error()))
		return 1
	}
	objective := "none"
	if res.HasSolution() {
		objective = strconv.FormatFloat(res.Objective, 'g', -1, 64)
	}
	fmt.Fprintf(stdout, "status     %v\n", res.Status)
	fmt.Fprintf(stdout, "objective  %s\n", objective)
	if p.IsMIP() {
		if !math.IsInf(res.Bound, 0) && !math.IsNaN(res.Bound) {
			fmt.Fprintf(stdout, "bound      %s\n", strconv.FormatFloat(res.Bound, 'g', -1, 64))
		}
		fmt.Fprintf(stdout, "gap        %g\n", res.Gap)
	}
	fmt.Fprintf(stdout, "iterations %d\n", res.Iterations)
	fmt.Fprintf(stdout, "nodes      %d\n", res.Nodes)
	fmt.Fprintf(stdout, "time       %v\n", res.Elapsed.Round(time.Microsecond))
	fmt.Fprintf(stdout, "status=%v objective=%s iterations=%d nodes=%d seconds=%s\n",
		res.Status, objective, res.Iterations, res.Nodes, strconv.FormatFloat(res.Elapsed.Seconds(), 'f', 6, 64))
	if res.Status == lp.Optimal {
		return 0
	}
	return 1
}

// builtin is the package's own solver as an lp.Solver.
type builtin struct{}

func (builtin) Solve(ctx context.Context, p *lp.Problem, opt lp.Options) (lp.Result, error) {
	return lp.Solve(ctx, p, opt)
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
