package lp_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gputco/gputco/placement/lp"
)

// review8BoxedMILP is a MILP of 9 columns (5 integer) and 16 rows written
// by WriteMPS (a maximisation, negated): every column is boxed by a row
// −60 ≤ x_j ≤ 60, so it cannot be unbounded.
const review8BoxedMILP = `NAME
* lp: maximise: the objective below is negated and minimised
ROWS
 N  OBJECTIVE
 G r0
 L r1
 N r2
 G r3
 G r4
 G r5
 G r6
 G box0
 G box1
 G box2
 G box3
 G box4
 G box5
 G box6
 G box7
 G box8
COLUMNS
 x0 OBJECTIVE -4.8
 x0 r1 -6
 x0 r6 1
 x0 box0 1
 x1 OBJECTIVE -8.2
 x1 r5 -1
 x1 box1 1
 MARKER 'MARKER' 'INTORG'
 x2 OBJECTIVE 3.94
 x2 r1 -3
 x2 r2 9
 x2 r3 -3.27
 x2 r6 -3
 x2 box2 1
 MARKER 'MARKER' 'INTEND'
 x3 OBJECTIVE -2
 x3 r0 5
 x3 r1 -5
 x3 r2 10
 x3 r5 8
 x3 r6 9.8
 x3 box3 1
 x4 OBJECTIVE 5
 x4 r1 8.7
 x4 r2 -6.2
 x4 r3 4.62
 x4 box4 1
 MARKER 'MARKER' 'INTORG'
 x5 OBJECTIVE -5
 x5 r0 -6.1
 x5 r6 0.9
 x5 box5 1
 x6 OBJECTIVE -9
 x6 r2 8
 x6 r5 -2
 x6 box6 1
 MARKER 'MARKER' 'INTEND'
 x7 OBJECTIVE 2.6
 x7 r0 2.81
 x7 r1 9.8
 x7 r2 7
 x7 r3 10
 x7 r6 -3.5
 x7 box7 1
 MARKER 'MARKER' 'INTORG'
 x8 OBJECTIVE 3.9
 x8 r0 -4.3
 x8 r1 1.2
 x8 r4 9.6
 x8 box8 1
 MARKER 'MARKER' 'INTEND'
RHS
 RHS OBJECTIVE 3
 RHS r0 145.13333333333335
 RHS r1 146.77666666666667
 RHS r3 248.93666666666667
 RHS r4 -80.46666666666667
 RHS r5 -63.666666666666664
 RHS r6 -263.3
 RHS box0 -60
 RHS box1 -60
 RHS box2 -60
 RHS box3 -60
 RHS box4 -60
 RHS box5 -60
 RHS box6 -60
 RHS box7 -60
 RHS box8 -60
RANGES
 RNG r5 11.333333333333329
 RNG box0 120
 RNG box1 120
 RNG box2 120
 RNG box3 120
 RNG box4 120
 RNG box5 120
 RNG box6 120
 RNG box7 120
 RNG box8 120
BOUNDS
 MI BND x0
 UP BND x0 32
 LO BND x1 -8
 LO BND x2 17
 UP BND x2 35
 LO BND x3 -10
 UP BND x3 19
 LO BND x4 13.3
 LO BND x5 -11
 UP BND x6 1
 LO BND x7 11
 UP BND x7 37
 LO BND x8 -9
 UP BND x8 -7
ENDATA
`

// TestReview8CBCUnboundedBoxed: lp.CBC reports Unbounded for a MILP whose
// every column lies in [−60, 60] (rows box0 … box8), which cannot be
// unbounded. Expected: Optimal 464.53569333 (max). Actual: Unbounded.
// Independent checks: lp.Solve says Optimal 464.53569333333 and its
// certificate check passes; `cbc file.mps -preprocess off -solve` says
// "Optimal solution found, Objective value: -464.53569333" (the file's
// objective is the maximum negated); plain `cbc file.mps -solve` says
// "Pre-processing says infeasible or unbounded" (CLP's presolve also
// prints "infeasible with tolerance of 1e-08" yet solves the LP to
// −467.547), which the adapter reads as Unbounded and then confirms
// with its zero-objective re-solve — that only shows a feasible point
// exists, not that the objective improves without limit. The adapter
// could check boundedness (all columns boxed, here) or solve without
// preprocessing before believing it. Found by random MILPs (seed 167 of
// a generator with decimal coefficients and general integers in
// [−20, 50]) against lp.Solve. Severity: medium (the CBC adapter is the
// test oracle and a user-facing Solver; its status is wrong).
func TestReview8CBCUnboundedBoxed(t *testing.T) {
	t.Skip("finding: lp.CBC says Unbounded for a MILP with every column in [−60, 60] whose optimum is 464.53569333 (lp.Solve and cbc -preprocess off agree)")
	review6CBC(t)
	p, err := lp.ReadMPS(strings.NewReader(review8BoxedMILP))
	if err != nil {
		t.Fatal(err)
	}
	const want = 464.53569333333
	own, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil || own.Status != lp.Optimal || math.Abs(own.Objective-want) > 1e-6*want {
		t.Fatalf("lp.Solve: %v %v %v, want Optimal %v", own.Status, own.Objective, err, want)
	}
	if err := own.Verify(p, 1e-6); err != nil {
		t.Fatalf("lp.Solve's answer: %v", err)
	}
	res, err := lp.CBC{}.Solve(context.Background(), p, lp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != lp.Optimal || math.Abs(res.Objective-want) > 1e-6*want {
		t.Errorf("lp.CBC: status %v objective %v, want Optimal %v", res.Status, res.Objective, want)
	}
}
