package lp

import (
	"errors"
	"math"
	"testing"
)

// TestMIPFinishKeepsDroppedNodes: a node given up on (its integral point
// failed the feasibility check) stays in the bound, and the search does not
// claim a proof that the dropped region could overturn.
func TestMIPFinishKeepsDroppedNodes(t *testing.T) {
	cases := []struct {
		name, reason string
		hasInc       bool
		incZ         float64
		dropped      float64
		in, want     Status
		wantErr      bool
	}{
		{"none dropped", "nothing given up: the status stands", true, 10, math.Inf(1), Optimal, Optimal, false},
		{"dropped above incumbent", "the region could not improve the incumbent", true, 10, 12, Optimal, Optimal, false},
		{"dropped below incumbent", "the region might hold a better point", true, 10, 5, Optimal, NotSolved, true},
		{"dropped without incumbent", "infeasibility is not proven", false, 0, 5, Infeasible, NotSolved, true},
	}
	for _, c := range cases {
		sr := &mipSearch{sense: 1, hasInc: c.hasInc, incZ: c.incZ, dropped: c.dropped, gapTol: 1e-9, curBound: math.Inf(1)}
		st, err := sr.finish(c.in)
		if st != c.want || (err != nil) != c.wantErr || (err != nil && !errors.Is(err, ErrNumerical)) {
			t.Errorf("%s (%s): finish(%v) = %v, %v; want %v, error %v", c.name, c.reason, c.in, st, err, c.want, c.wantErr)
		}
		if c.dropped < math.Inf(1) && sr.bestBound() > c.dropped {
			t.Errorf("%s: bestBound %v above the dropped node's bound %v", c.name, sr.bestBound(), c.dropped)
		}
	}
}
