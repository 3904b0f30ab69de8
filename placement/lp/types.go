package lp

import (
	"context"
	"fmt"
	"time"
)

// Status says how a solve ended.
type Status int8

// Statuses of a solve. Only Optimal proves optimality (for a MILP, within
// Options.Gap); the limit statuses and Cancelled return the best solution
// found, if any (Result.HasSolution).
const (
	// NotSolved is the zero Status: no solve has run.
	NotSolved Status = iota
	// Optimal: the solution is optimal within the tolerances (a MILP: within
	// the requested relative gap).
	Optimal
	// Infeasible: no point satisfies the constraints (for a MILP: no integer
	// point). For an LP, Result.Ray holds a Farkas certificate.
	Infeasible
	// Unbounded: the objective improves without limit on the feasible set.
	// For an LP, Result.Ray holds a primal ray.
	Unbounded
	// TimeLimit: Options.TimeLimit was reached.
	TimeLimit
	// IterationLimit: Options.IterationLimit was reached.
	IterationLimit
	// NodeLimit: Options.NodeLimit was reached (MILP only).
	NodeLimit
	// Cancelled: the context was cancelled or its deadline passed.
	Cancelled
)

var statusNames = [...]string{"not-solved", "optimal", "infeasible", "unbounded", "time-limit", "iteration-limit", "node-limit", "cancelled"}

// String returns a one-word lower-case name: "optimal", "infeasible",
// "unbounded", "time-limit", "iteration-limit", "node-limit", "cancelled" or
// "not-solved".
func (s Status) String() string {
	if int(s) >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// BasisStatus is the status of one column or row (its slack) in a simplex
// basis.
type BasisStatus int8

// Basis statuses. A row's status is that of its activity aᵢᵀx: AtLower
// means the activity sits at RowLower.
const (
	// Basic: in the basis.
	Basic BasisStatus = iota
	// AtLower: non-basic at its lower bound.
	AtLower
	// AtUpper: non-basic at its upper bound.
	AtUpper
	// Zero: non-basic free variable held at zero.
	Zero
)

// Basis is a simplex basis: one status per column and one per row. Exactly
// as many entries as there are rows are Basic. It warm-starts a re-solve of
// the same problem after bounds or costs changed (Options.Basis).
type Basis struct {
	Cols []BasisStatus
	Rows []BasisStatus
}

// Progress is what a solve reports to Options.Progress while it runs.
type Progress struct {
	// Iterations is the number of simplex iterations so far, over all nodes.
	Iterations int
	// Nodes is the number of branch-and-bound nodes explored (0 for an LP).
	Nodes int
	// Bound is the best proven bound on the objective (in the problem's
	// sense: -Inf when minimising, +Inf when maximising, while none is
	// proven — throughout an LP's solve, and in a MILP's until its root is
	// solved); Incumbent is the objective of the best feasible solution,
	// or ±Inf when none is known yet. Gap is their relative gap
	// |Incumbent − Bound| / max(1, |Incumbent|), +Inf without an incumbent.
	Bound, Incumbent, Gap float64
	// Elapsed is the time since the solve started.
	Elapsed time.Duration
}

// Options tunes a solve. The zero Options solves to optimality with no
// limits and default tolerances.
type Options struct {
	// TimeLimit stops the solve after this long; 0 means none.
	TimeLimit time.Duration
	// IterationLimit stops after this many simplex iterations in total;
	// 0 means none.
	IterationLimit int
	// NodeLimit stops branch-and-bound after this many nodes; 0 means none.
	NodeLimit int
	// Gap is the relative MILP gap at which to stop and report Optimal:
	// |incumbent − bound| ≤ Gap·max(1, |incumbent|). 0 means 1e-9.
	Gap float64
	// Progress, if set, is called from the solving goroutine now and then
	// (at most every few milliseconds, and at every new incumbent). It must
	// not retain the Progress beyond the call.
	Progress func(Progress)
	// Basis warm-starts an LP solve (or the root of a MILP) from a basis of
	// a problem of the same shape, typically Result.Basis of an earlier
	// solve. A basis of the wrong shape is an ErrInvalid error; a singular
	// one is repaired.
	Basis *Basis
	// Start seeds a MILP's incumbent with a point, one value per column,
	// typically a feasible plan found by a heuristic outside: it is checked
	// against the problem (integrality, bounds, rows) and used only when it
	// passes, so a wrong point costs nothing but the check. A Start of the
	// wrong length or with a NaN or infinite value is an ErrInvalid error;
	// an LP ignores it.
	Start []float64

	// noMIR leaves the MIR cuts out of the root cut loop (tests: they hide
	// wrong prunes that other paths would reveal).
	noMIR bool
}

// Result is the outcome of a solve. Values are in the problem's own terms
// (unscaled, before presolve, objective in the problem's sense, Offset
// included).
type Result struct {
	Status Status
	// Objective is cᵀx + Offset of X. Meaningful when HasSolution.
	Objective float64
	// X holds the primal values, one per column; nil when no solution is
	// known.
	X []float64
	// RowActivity holds A·x, one per row (nil with X).
	RowActivity []float64

	// RowDual and ReducedCost are the LP duals y and reduced costs
	// d = c − Aᵀy of the final basis, for LPs solved to Optimal (nil
	// otherwise). Sign convention (minimisation): d_j ≥ 0 at a lower bound,
	// ≤ 0 at an upper bound, 0 when basic; y_i ≥ 0 when row i is active at
	// its lower bound, ≤ 0 at its upper bound. For a maximisation every sign
	// flips. y_i is the rate of change of the objective per unit increase
	// of the active bound of row i.
	RowDual     []float64
	ReducedCost []float64
	// Basis is the final simplex basis of an LP (nil for a MILP).
	Basis *Basis

	// Ray certifies an LP's Infeasible or Unbounded status. Infeasible: a
	// vector y (one per row) such that, with r = Aᵀy, the largest value of
	// rᵀx over the column bounds is below the smallest value of yᵀa over
	// the row bounds (a ∈ [RowLower, RowUpper]), both finite. Unbounded
	// (minimisation): a direction d (one per column) with cᵀd < 0, d_j ≥ 0
	// where ColLower is finite and ≤ 0 where ColUpper is finite, and
	// (A·d)_i ≥ 0 where RowLower is finite and ≤ 0 where RowUpper is finite;
	// for a maximisation cᵀd > 0.
	Ray []float64

	// Iterations counts simplex iterations (all nodes of a MILP).
	Iterations int
	// Nodes counts branch-and-bound nodes (0 for an LP).
	Nodes int
	// Bound is the best proven bound on the objective: equal to Objective
	// for an LP solved to Optimal; for a MILP the best bound of the open
	// nodes and of those pruned only because Options.Gap allowed it. Gap
	// is the relative gap |Objective − Bound| / max(1, |Objective|): 0 when
	// proven optimal, at most Options.Gap for a MILP stopped within it
	// (Status Optimal), +Inf without a solution.
	Bound, Gap float64
	// Elapsed is the wall time of the solve.
	Elapsed time.Duration
}

// HasSolution reports whether r holds a primal solution (X): always for
// Optimal, and for a limit or cancellation when a feasible point was found.
func (r *Result) HasSolution() bool { return r.X != nil }

// Solver solves a Problem. The built-in simplex and branch-and-bound, and
// the adapter for an external CBC binary, implement it.
//
// Contract: Solve never modifies p or opt.Basis. It returns an error only
// when the problem or options are invalid (wrapping ErrInvalid), when an
// external solver could not run, on a numerical failure (ErrNumerical), or
// when ctx ends (the context's error, with Status Cancelled and the best
// solution found so far in the Result). Infeasible, Unbounded and the
// limits are statuses, not errors. It is deterministic: the same problem
// and options give the same Result (Elapsed aside) and the same iteration
// count.
type Solver interface {
	Solve(ctx context.Context, p *Problem, opt Options) (Result, error)
}
