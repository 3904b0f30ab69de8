package lp

import (
	"context"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestPricedStart: an optimal basis whose costs then changed so
// that a few non-basic columns price out (as columns priced into a model
// do) is a primal feasible start with a few dual infeasibilities: the
// answer from it is certified and has the status and the objective of the
// same LP solved from the slack basis.
func TestPricedStart(t *testing.T) {
	rapid.Check(t, checkPricedStart)
}

func FuzzPricedStart(f *testing.F) { f.Fuzz(rapid.MakeFuzz(checkPricedStart)) }

func checkPricedStart(t *rapid.T) {
	seed := rapid.Uint64().Draw(t, "seed")
	m := rapid.IntRange(1, 12).Draw(t, "m")
	n := rapid.IntRange(2, 20).Draw(t, "n")
	p := randomProblem(seed, m, n, randomFeasible, false)
	ctx := context.Background()
	r, err := Solve(ctx, p, Options{})
	if err != nil || r.Status != Optimal {
		t.Skipf("not solved to optimality: %v %v", r.Status, err)
	}
	sign := 1.0 // reduced costs are those of a minimisation, flipped for a maximisation
	if p.Maximize {
		sign = -1
	}
	q := *p
	q.Cost = append([]float64(nil), p.Cost...)
	priced := 0
	for j := range n {
		if priced == 3 || !rapid.Bool().Draw(t, "price") {
			continue
		}
		switch r.Basis.Cols[j] {
		case AtLower:
			q.Cost[j] -= r.ReducedCost[j] + sign*(1+float64(j%3))
		case AtUpper:
			q.Cost[j] -= r.ReducedCost[j] - sign*(1+float64(j%3))
		default:
			continue
		}
		priced++
	}
	if priced == 0 {
		t.Skip("no non-basic column at a bound priced out")
	}
	warm, err := Solve(ctx, &q, Options{Basis: r.Basis})
	if err != nil {
		t.Fatalf("warm: %v", err)
	}
	cold, err := Solve(ctx, &q, Options{})
	if err != nil {
		t.Fatalf("cold: %v", err)
	}
	if warm.Status != cold.Status {
		t.Fatalf("warm start %v, slack basis %v", warm.Status, cold.Status)
	}
	if warm.Status != Optimal {
		return
	}
	if msg := oracleLPCertificate(&q, &warm, 1e-7); msg != "" {
		t.Fatalf("warm answer fails its certificate: %s", msg)
	}
	if d := math.Abs(warm.Objective - cold.Objective); d > 1e-7*max(1, math.Abs(cold.Objective)) {
		t.Fatalf("warm optimum %.10g, slack basis %.10g", warm.Objective, cold.Objective)
	}
}
