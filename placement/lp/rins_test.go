package lp

import (
	"context"
	"testing"
	"time"
)

// TestWidenRINS checks the RINS neighbourhood of a choice row
// g0 + g1 + g2 + g3 = 1 next to eight unrelated binaries h0…h7: with the
// incumbent on g0 and the LP on g3, RINS frees g0 and g3 and would fix g1
// and g2 at 0, which pins the row to {g0, g3}. widenRINS frees g1 and g2
// (the equality partners of the free columns), not the h; asked for a
// larger neighbourhood (rinsFree), it frees the h of the smallest reduced
// cost next, but leaves at least subMIPMinFix of the integer columns
// fixed.
func TestWidenRINS(t *testing.T) {
	var b Builder
	var g, h []int
	for k := 0; k < 4; k++ {
		g = append(g, b.AddIntCol("", float64(5-k), 0, 1))
	}
	for k := 0; k < 8; k++ {
		// At their lower bound in the LP, reduced cost k+1.
		h = append(h, b.AddIntCol("", float64(k+1), 0, 1))
	}
	b.AddRow("choice", 1, 1, g, []float64{1, 1, 1, 1})
	b.AddRow("cap", 0, 3, h, []float64{1, 1, 1, 1, 1, 1, 1, 1})
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	sr, err := newMIPSearch(context.Background(), p, Options{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if st, err := sr.solveLP(0, false); st != Optimal || err != nil {
		t.Fatalf("LP: %v %v", st, err)
	}
	sr.lpObjective()
	if sr.x[g[3]] != 1 {
		t.Fatalf("LP point %v, want g3 = 1", sr.x)
	}
	sr.incX = make([]float64, p.NumCols())
	sr.incX[g[0]] = 1
	sr.incZ, sr.hasInc = 5, true
	// freed runs RINS's fixing and widenRINS and returns the integer
	// columns left free.
	freed := func() map[int]bool {
		lo := append([]float64(nil), sr.rootLo...)
		up := append([]float64(nil), sr.rootUp...)
		var agree []int
		for _, j := range sr.intCols {
			if sr.x[j] == sr.incX[j] {
				lo[j], up[j] = sr.x[j], sr.x[j]
				agree = append(agree, j)
			}
		}
		n := sr.widenRINS(agree, lo, up, len(sr.intCols)-len(agree))
		free := map[int]bool{}
		for _, j := range sr.intCols {
			if lo[j] < up[j] {
				free[j] = true
			}
		}
		if len(free) != len(sr.intCols)-len(agree)+n {
			t.Errorf("widenRINS reports %d freed, %d columns free of which %d disagree", n, len(free), len(sr.intCols)-len(agree))
		}
		return free
	}
	same := func(got map[int]bool, want ...int) bool {
		if len(got) != len(want) {
			return false
		}
		for _, j := range want {
			if !got[j] {
				return false
			}
		}
		return true
	}
	if got := freed(); !same(got, g...) {
		t.Errorf("free %v, want g0…g3 (columns %v)", got, g)
	}
	sr.rinsFree = 5
	if got := freed(); !same(got, append(g, h[0])...) {
		t.Errorf("rinsFree 5: free %v, want g0…g3 and h0 (columns %v, %d)", got, g, h[0])
	}
	// Twelve integer columns: at most six free.
	sr.rinsFree = 100
	if got := freed(); !same(got, append(g, h[0], h[1])...) {
		t.Errorf("rinsFree 100: free %v, want g0…g3, h0 and h1 (columns %v, %d, %d)", got, g, h[0], h[1])
	}
}

// TestSubMIPEffortDue checks the effort trigger of RINS on a search whose
// counters are set by hand: at a node that is no multiple of subMIPEvery,
// RINS is due once the model's own iterations since the last sub-MIP reach
// subMIPEffort root LPs (subMIPEffortMin at least; twice that after a
// failed one), not before, not without an incumbent, and not when sub-MIPs
// below the root already had more than subMIPShare of all iterations.
func TestSubMIPEffortDue(t *testing.T) {
	var b Builder
	x := b.AddIntCol("x", 1, 0, 3)
	y := b.AddIntCol("y", 1, 0, 3)
	b.AddRow("r", 2.5, 6, []int{x, y}, []float64{1, 1})
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	sr, err := newMIPSearch(context.Background(), p, Options{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	const mark = 20000
	for _, root := range []int{subMIPEffortMin / subMIPEffort / 4, 2 * subMIPEffortMin / subMIPEffort} {
		need := max(subMIPEffort*root, subMIPEffortMin) // own iterations since the last sub-MIP
		// share is the sub-MIP iterations that are subMIPShare of the
		// total at own = mark + need.
		share := int(subMIPShare / (1 - subMIPShare) * float64(mark+need))
		for _, c := range []struct {
			nodes, own, sub, fails int
			inc, want              bool
		}{
			{7, mark + need - 1, 0, 0, true, false},
			{7, mark + need, 0, 0, true, true},
			{7, mark + need, 0, 0, false, false},            // no incumbent
			{7, mark + need, 0, 1, true, false},             // one failure: twice as many
			{7, mark + 2*need, 0, 1, true, true},            //
			{7, mark + need, share + 10, 0, true, false},    // sub-MIPs had more than their share
			{7, mark + need, share - 10, 0, true, true},     // a little less
			{7, mark + need, 0, subMIPBackoff, true, false}, // backed off
			{1, mark + need, 0, 0, true, true},              // the root: RENS, as before
			{199, mark, 0, 0, true, false},                  // neither trigger
			{200, mark, 0, 0, true, true},                   // the node trigger, as before
			{200, mark, 0, 0, false, false},                 // the node trigger needs an incumbent
		} {
			sr.nodes, sr.rootIters, sr.hasInc = c.nodes, root, c.inc
			sr.mdl.s.iters, sr.subMark, sr.subIters, sr.extraIters, sr.subFails = c.own, mark, c.sub, c.sub, c.fails
			sr.subNext, sr.subNodes = 0, 0
			if got := sr.subMIPDue(); got != c.want {
				t.Errorf("root LP %d, nodes %d, own iterations %d since %d, sub-MIP iterations %d, %d failures, incumbent %v: due %v, want %v",
					root, c.nodes, c.own, mark, c.sub, c.fails, c.inc, got, c.want)
			}
		}
	}
	sr.isSub, sr.nodes, sr.mdl.s.iters, sr.subIters, sr.extraIters, sr.subFails, sr.hasInc = true, 7, 10*subMIPEffortMin, 0, 0, 0, true
	if sr.subMIPDue() {
		t.Error("a sub-MIP's own RINS is due; want none")
	}
}
