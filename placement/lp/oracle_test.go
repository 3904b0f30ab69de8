package lp

import (
	"context"
	"errors"
	"math"
	"testing"
)

// oracleCases lists the random problems of the oracle comparison: LPs of
// every kind and size, and MILPs small enough for brute force.
func oracleCases(integer bool, count int) []*Problem {
	var ps []*Problem
	for k := 0; k < count; k++ {
		seed := uint64(1000*btoi(integer) + k)
		kind := randomFeasible
		switch k % 10 {
		case 7:
			kind = randomInfeasible
		case 8:
			kind = randomUnbounded
		}
		m, n := 1+k%13, 1+(k*7)%17
		if integer {
			m, n = 1+k%5, 1+k%5
		}
		ps = append(ps, randomProblem(seed, m, n, kind, integer))
	}
	return ps
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestOracleLPBuiltinVersusCBC solves 40 random LPs of varied shape with
// the built-in Solve and with CBC: the statuses must agree, and the
// objectives within 1e-6 relative. Each built-in answer must also pass
// Verify.
func TestOracleLPBuiltinVersusCBC(t *testing.T) {
	cbc := CBC{Path: cbcPath(t)}
	ps := oracleCases(false, 40)
	if testing.Short() || raceEnabled {
		ps = ps[:10]
	}
	statuses := map[Status]int{}
	for _, p := range ps {
		t.Run(p.Name, func(t *testing.T) {
			got, err := Solve(context.Background(), p, Options{})
			if err != nil {
				t.Fatalf("Solve: %v\n%s", err, goLiteral(p))
			}
			want, err := cbc.Solve(context.Background(), p, Options{})
			if err != nil {
				t.Fatalf("CBC: %v", err)
			}
			statuses[want.Status]++
			if got.Status != want.Status {
				t.Fatalf("status %v, CBC %v\n%s", got.Status, want.Status, goLiteral(p))
			}
			if got.Status == Optimal && !relClose(got.Objective, want.Objective, 1e-6) {
				t.Errorf("objective %.12g, CBC %.12g\n%s", got.Objective, want.Objective, goLiteral(p))
			}
			if err := got.Verify(p, 1e-6); err != nil {
				t.Errorf("Verify: %v", err)
			}
		})
	}
	// The generator must give every kind (4 in 40 are built infeasible, 4
	// unbounded).
	if n := len(ps); n == 40 && (statuses[Optimal] < 25 || statuses[Infeasible] < 4 || statuses[Unbounded] < 4) {
		t.Errorf("statuses %v: too little variety", statuses)
	}
}

// bruteForceMILP solves a small MILP by enumerating the integer columns
// over their (finite) bounds and solving the LP that remains for each
// assignment with lp, which must handle pure LPs. It returns the status
// (Optimal, Infeasible or Unbounded) and the optimal objective. ok is false
// when an integer column is unbounded (enumeration impossible).
func bruteForceMILP(t *testing.T, p *Problem, lp Solver) (Status, float64, bool) {
	t.Helper()
	var ints []int
	for j, isInt := range p.Integer {
		if isInt {
			if math.IsInf(p.ColLower[j], 0) || math.IsInf(p.ColUpper[j], 0) {
				return NotSolved, 0, false
			}
			ints = append(ints, j)
		}
	}
	q := *p
	q.Integer = nil
	q.ColLower = append([]float64(nil), p.ColLower...)
	q.ColUpper = append([]float64(nil), p.ColUpper...)
	best, found, unbounded := 0.0, false, false
	better := func(a, b float64) bool {
		if p.Maximize {
			return a > b
		}
		return a < b
	}
	var rec func(k int)
	rec = func(k int) {
		if unbounded {
			return
		}
		if k == len(ints) {
			res, err := lp.Solve(context.Background(), &q, Options{})
			if err != nil {
				t.Fatalf("brute force LP: %v", err)
			}
			switch res.Status {
			case Optimal:
				if !found || better(res.Objective, best) {
					best, found = res.Objective, true
				}
			case Unbounded:
				unbounded = true
			}
			return
		}
		j := ints[k]
		for v := math.Ceil(p.ColLower[j]); v <= math.Floor(p.ColUpper[j]); v++ {
			q.ColLower[j], q.ColUpper[j] = v, v
			rec(k + 1)
		}
	}
	rec(0)
	switch {
	case unbounded:
		return Unbounded, 0, true
	case !found:
		return Infeasible, 0, true
	}
	return Optimal, best, true
}

// TestOracleMILPCBCVersusBruteForce checks the CBC adapter and the MILP
// generator on 24 random MILPs against brute-force enumeration (whose LPs
// the built-in Solve solves): statuses agree, objectives within 1e-6.
func TestOracleMILPCBCVersusBruteForce(t *testing.T) {
	cbc := CBC{Path: cbcPath(t)}
	ps := oracleCases(true, 24)
	if testing.Short() || raceEnabled {
		ps = ps[:8]
	}
	lpSolver := solverFunc(Solve)
	enumerated := 0
	for _, p := range ps {
		t.Run(p.Name, func(t *testing.T) {
			want, obj, ok := bruteForceMILP(t, p, lpSolver)
			if !ok {
				// The unbounded kind adds an unbounded integer column:
				// enumeration is impossible, CBC must still say so.
				want = Unbounded
			} else {
				enumerated++
			}
			got, err := cbc.Solve(context.Background(), p, Options{})
			if err != nil {
				t.Fatalf("CBC: %v", err)
			}
			if got.Status != want {
				t.Fatalf("CBC status %v, brute force %v\n%s", got.Status, want, goLiteral(p))
			}
			if want == Optimal && !relClose(got.Objective, obj, 1e-6) {
				t.Errorf("CBC objective %.12g, brute force %.12g\n%s", got.Objective, obj, goLiteral(p))
			}
		})
	}
	if enumerated < len(ps)/2 {
		t.Errorf("only %d of %d MILPs could be enumerated", enumerated, len(ps))
	}
}

// mediumMILPs returns count random MILPs with 6 to 15 rows and 6 to 20
// columns, too large for brute force.
func mediumMILPs(count int) []*Problem {
	var ps []*Problem
	for k := 0; k < count; k++ {
		kind := randomFeasible
		switch k % 8 {
		case 5:
			kind = randomInfeasible
		case 6:
			kind = randomUnbounded
		}
		ps = append(ps, randomProblem(uint64(5000+k), 6+k%10, 6+(k*5)%15, kind, true))
	}
	return ps
}

// TestOracleMILPBuiltinVersusCBC solves 24 small and 16 medium random
// MILPs with the built-in Solve and with CBC: statuses agree, objectives
// within 1e-6 relative; the built-in solutions are integral and pass
// Verify.
func TestOracleMILPBuiltinVersusCBC(t *testing.T) {
	cbc := CBC{Path: cbcPath(t)}
	ps := append(oracleCases(true, 24), mediumMILPs(16)...)
	if testing.Short() || raceEnabled {
		ps = append(ps[:8], ps[24:28]...)
	}
	for _, p := range ps {
		if !p.IsMIP() {
			continue
		}
		if _, err := Solve(context.Background(), p, Options{}); errors.Is(err, ErrUnsupported) {
			t.Skipf("the built-in Solve does not solve MILPs yet: %v", err)
		}
		break
	}
	for _, p := range ps {
		t.Run(p.Name, func(t *testing.T) {
			got, err := Solve(context.Background(), p, Options{})
			if err != nil {
				t.Fatalf("Solve: %v\n%s", err, goLiteral(p))
			}
			want, err := cbc.Solve(context.Background(), p, Options{})
			if err != nil {
				t.Fatalf("CBC: %v", err)
			}
			if got.Status != want.Status {
				t.Fatalf("status %v, CBC %v\n%s", got.Status, want.Status, goLiteral(p))
			}
			if got.Status == Optimal && !relClose(got.Objective, want.Objective, 1e-6) {
				t.Errorf("objective %.12g, CBC %.12g\n%s", got.Objective, want.Objective, goLiteral(p))
			}
			if got.HasSolution() {
				for j, isInt := range p.Integer {
					if isInt && math.Abs(got.X[j]-math.Round(got.X[j])) > 1e-6 {
						t.Errorf("integer column %s = %v", p.ColName(j), got.X[j])
					}
				}
				if err := got.Verify(p, 1e-6); err != nil {
					t.Errorf("Verify: %v", err)
				}
			}
		})
	}
}

// solverFunc adapts a function to the Solver interface.
type solverFunc func(context.Context, *Problem, Options) (Result, error)

func (f solverFunc) Solve(ctx context.Context, p *Problem, opt Options) (Result, error) {
	return f(ctx, p, opt)
}
