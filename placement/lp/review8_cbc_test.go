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

// review8SuboptimalMILP is a random minimisation MILP written by WriteMPS
// (seed 1142 of the generator of review8BoxedMILP).
const review8SuboptimalMILP = `NAME
ROWS
 N  OBJECTIVE
 L r0
 G r1
 E r2
 L r3
 L r4
 L r5
 L r6
 G r7
 E r8
 G box0
 G box1
 G box2
 G box3
 G box4
COLUMNS
 x0 OBJECTIVE -3.7
 x0 r1 9.4
 x0 r2 4.61
 x0 r3 -4
 x0 r4 5.6
 x0 r5 2.45
 x0 box0 1
 MARKER 'MARKER' 'INTORG'
 x1 OBJECTIVE -5
 x1 r1 10
 x1 box1 1
 x2 OBJECTIVE 7
 x2 r1 -4.24
 x2 r3 2
 x2 r4 -1.75
 x2 r5 -4
 x2 box2 1
 x3 OBJECTIVE 5
 x3 r0 6.13
 x3 r1 -3
 x3 r2 3
 x3 r6 5.6
 x3 r7 7.9
 x3 r8 -10
 x3 box3 1
 x4 OBJECTIVE 7
 x4 r1 5
 x4 r4 8.72
 x4 r8 -1.67
 x4 box4 1
 MARKER 'MARKER' 'INTEND'
RHS
 RHS OBJECTIVE -3
 RHS r0 100.08
 RHS r1 301.87333333333333
 RHS r2 132.36
 RHS r3 -64.53333333333333
 RHS r4 278.38
 RHS r5 38.50666666666667
 RHS r6 94.6
 RHS r7 123.73333333333333
 RHS r8 -193.4
 RHS box0 -60
 RHS box1 -60
 RHS box2 -60
 RHS box3 -60
 RHS box4 -60
RANGES
 RNG r1 7.333333333333371
 RNG box0 120
 RNG box1 120
 RNG box2 120
 RNG box3 120
 RNG box4 120
BOUNDS
 LO BND x0 13.3
 UP BND x0 41
 LO BND x1 3
 UP BND x1 10
 LO BND x2 2
 LO BND x3 16
 LO BND x4 16
 UP BND x4 29
ENDATA
`

// TestReview8CBCSuboptimal: lp.CBC returns Optimal 133.2924078 for a
// minimisation whose optimum is 124.2924078. Expected: Optimal 124.2924078.
// Independent checks: lp.Solve returns 124.29240780911 with a point that
// satisfies every row, bound and integrality exactly (worst violation 0)
// and passes Result.Verify; `cbc file.mps -preprocess off -solve` finds
// "Optimal solution found, Objective value: 124.29240781"; plain `cbc
// file.mps -solve` (what the adapter runs) stops at 133.29240781 — CBC
// 2.10.8's preprocessing cuts off the optimum. Of 1 800 random MILPs
// (seeds 0–1799), CBC's default run was wrong on 8 (seeds 167, 520, 659:
// "Unbounded", see TestReview8CBCUnboundedBoxed; 571, 930, 1142, 1514:
// worse objectives, for example 385.137 instead of 428.357 in a
// maximisation), lp.Solve on none. The adapter and the oracle tests
// that use it trust CBC's word; "-preprocess off" (or checking CBC's
// answer against lp.Solve's incumbent) would avoid it. Severity: medium
// (the CBC Solver returns a wrong Optimal; the built-in solver is right).
// The same CBC behaviour made the existing TestReview3LPFileCBC fail once
// in this review's full run (rapid's random draw): on min −C0 s.t.
// C0 + C1 ≤ −3, C0 ≤ −0.5, C1 = −3 integer, `cbc file.lp -solve` says
// Optimal 1 (C0 = −1), `-preprocess off` says 0.5, as lp.Solve does.
func TestReview8CBCSuboptimal(t *testing.T) {
	review6CBC(t)
	p, err := lp.ReadMPS(strings.NewReader(review8SuboptimalMILP))
	if err != nil {
		t.Fatal(err)
	}
	const want = 124.29240780911
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

// TestReview8COINUnboundedLargeRHS: min −x s.t. x + y ≤ 1e15, x ≥ 0,
// 0 ≤ y ≤ 1 is bounded (optimum −1e15 at x = 1e15, y = 0; lp.Solve finds
// it and Verify passes). lp.CBC and lp.CLP report Unbounded, for the LP
// and for the MILP with x integer. Independent check: on the file
// WriteMPS writes, `clp file.mps -dualsimplex` prints "Presolve thinks
// problem is unbounded … DualInfeasible objective -1e+10" (CLP's
// artificial bound of 1e10 on columns with no upper bound), the same
// with -presolve off from a right-hand side of 1e11 on; rhs 1e12 is
// still solved by the adapters, 1e15 is not. The adapters confirm CBC's
// "Unbounded" only by finding a feasible point with a zero objective,
// which does not show the objective improves without limit: a check
// that some column with a cost can move without limit (here none can:
// x ≤ 1e15 through the row) or a ray check would catch it. Same cause
// class as TestReview8CBCUnboundedBoxed. Severity: medium (the external
// Solvers return a wrong status on finite data of moderate size).
func TestReview8COINUnboundedLargeRHS(t *testing.T) {
	review6CBC(t)
	inf := math.Inf(1)
	for _, integer := range []bool{false, true} {
		p := &lp.Problem{
			Cost: []float64{-1, 0}, ColLower: []float64{0, 0}, ColUpper: []float64{inf, 1},
			RowLower: []float64{-inf}, RowUpper: []float64{1e15},
			A: lp.Matrix{Rows: 1, Cols: 2, Start: []int{0, 1, 2}, Index: []int32{0, 0}, Value: []float64{1, 1}},
		}
		if integer {
			p.Integer = []bool{true, false}
		}
		own, err := lp.Solve(context.Background(), p, lp.Options{})
		if err != nil || own.Status != lp.Optimal || own.Objective != -1e15 {
			t.Fatalf("lp.Solve: %v %v %v, want Optimal -1e15", own.Status, own.Objective, err)
		}
		solvers := map[string]lp.Solver{"CBC": lp.CBC{}}
		if !integer {
			solvers["CLP"] = lp.CLP{}
		}
		for name, s := range solvers {
			res, err := s.Solve(context.Background(), p, lp.Options{})
			if err != nil {
				t.Errorf("integer %v: %s: %v", integer, name, err)
				continue
			}
			if res.Status != lp.Optimal || math.Abs(res.Objective+1e15) > 1e-6*1e15 {
				t.Errorf("integer %v: lp.%s: status %v objective %v, want Optimal -1e15", integer, name, res.Status, res.Objective)
			}
		}
	}
}

// TestCOINEmptyRowBesideFreeRow: a problem whose only matrix entry lies in
// a free row (which lp.CBC and lp.CLP do not give the binary) and whose
// empty row must equal 0.5 is infeasible; cbc and clp, given an empty
// matrix, stop "on difficulties", which the adapters read as Infeasible
// only when no entry outside free rows exists. Found by random LPs
// against lp.Solve (the independent check here).
func TestCOINEmptyRowBesideFreeRow(t *testing.T) {
	review6CBC(t)
	inf := math.Inf(1)
	p := &lp.Problem{
		Cost: []float64{2, -1}, ColLower: []float64{3, 1}, ColUpper: []float64{3, inf},
		RowLower: []float64{-inf, 0.5}, RowUpper: []float64{inf, 0.5},
		A: lp.Matrix{Rows: 2, Cols: 2, Start: []int{0, 1, 1}, Index: []int32{0}, Value: []float64{1}},
	}
	own, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil || own.Status != lp.Infeasible {
		t.Fatalf("lp.Solve: %v %v, want Infeasible", own.Status, err)
	}
	for name, solve := range map[string]func(context.Context, *lp.Problem, lp.Options) (lp.Result, error){"CBC": lp.CBC{}.Solve, "CLP": lp.CLP{}.Solve} {
		res, err := solve(context.Background(), p, lp.Options{})
		if err != nil || res.Status != lp.Infeasible {
			t.Errorf("lp.%s: %v %v, want Infeasible", name, res.Status, err)
		}
	}
}
