package merit

import (
	"math/rand/v2"
	"testing"
)

// TestSolveMatchesSimplex compares the DP with gonum's simplex on the full
// time-indexed LP, and checks feasibility, the recomputed cost and the duals.
func TestSolveMatchesSimplex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := range n {
		p := randomSmall(r, 6, 4)
		s, err := Solve(p)
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		want := simplexCost(t, p)
		if !relClose(s.CostTotal, want, 1e-9) {
			t.Fatalf("instance %d: DP %.12g, simplex %.12g\n%+v", i, s.CostTotal, want, p)
		}
		if err := Check(p, s, 1e-9); err != nil {
			t.Fatalf("instance %d: infeasible: %v", i, err)
		}
		c, err := Cost(p, s)
		if err != nil || !relClose(c, s.CostTotal, 1e-9) {
			t.Fatalf("instance %d: recomputed cost %g (%v), DP %g", i, c, err, s.CostTotal)
		}
		checkDuals(t, p, s)
	}
}
