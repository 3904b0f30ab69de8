package lp

import (
	"cmp"
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// vpm2NodeObjective is the optimum of testdata/nodes/vpm2_node9518 by clp
// 1.17 (clp FILE -solve: "Optimal objective 13.71776214").
const vpm2NodeObjective = 13.71776214

// vpm2NodeRNG is the state of the simplex's perturbation generator when
// branch-and-bound on vpm2 re-solved that node from the slack basis and
// gave up (node 9,518, before the fix of chuzr): with it the re-solve
// below retraces that solve.
const vpm2NodeRNG = 11083075077107692698

// TestVPM2NodeLP re-solves the node LP of vpm2 (its 318 rows include the
// root cuts; the bounds are those of node 9,518) on which branch-and-bound
// stopped with ErrNumerical: from the slack basis with the perturbation
// of that run, the dual simplex ended each attempt "optimal" while the
// final check saw a basic value 1.0000002e-7 above its bound of 300
// (chuzr and primalInfeasibility disagreed at the rounding of 300+tolP),
// nine times, then gave up. The answer must be Optimal at clp's objective
// and pass its certificates; a cold Solve too.
func TestVPM2NodeLP(t *testing.T) {
	p, err := ReadMPSFile(filepath.Join("testdata", "nodes", "vpm2_node9518.mps.gz"))
	if err != nil {
		t.Fatal(err)
	}
	mdl, err := newLPModel(p)
	if err != nil {
		t.Fatal(err)
	}
	mdl.s.rng = vpm2NodeRNG
	mdl.s.initSlackBasis()
	st, err := mdl.resolve(context.Background(), lpLimits{})
	if err != nil || st != Optimal {
		t.Fatalf("resolve from the slack basis: %v, %v", st, err)
	}
	checkNodeResult(t, "resolve", p, mdl.result(Optimal))

	res, err := Solve(context.Background(), p, Options{})
	if err != nil || res.Status != Optimal {
		t.Fatalf("Solve: %v, %v", res.Status, err)
	}
	checkNodeResult(t, "Solve", p, res)
}

func checkNodeResult(t *testing.T, what string, p *Problem, res Result) {
	t.Helper()
	if err := res.Verify(p, verifyTol); err != nil {
		t.Errorf("%s: certificate: %v", what, err)
	}
	if !relClose(res.Objective, vpm2NodeObjective, 1e-8) {
		t.Errorf("%s: objective %.12g, clp %.10g", what, res.Objective, vpm2NodeObjective)
	}
}

// TestChuzrAgreesWithPrimalInfeasibility checks that the dual simplex's
// choice of a leaving row and the final primal feasibility check use the
// same measure: chuzr finds a row exactly when primalInfeasibility exceeds
// tolP, also for values a rounding away from bound ± tolP.
func TestChuzrAgreesWithPrimalInfeasibility(t *testing.T) {
	rapid.Check(t, checkChuzrAgrees)
}

func FuzzChuzrAgreesWithPrimalInfeasibility(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(checkChuzrAgrees))
}

func checkChuzrAgrees(t *rapid.T) {
	m := rapid.IntRange(1, 6).Draw(t, "m")
	s := newSimplex(m, 0)
	for i := 0; i < m; i++ {
		lo := float64(rapid.IntRange(-1000, 1000).Draw(t, "lo"))
		up := lo + float64(rapid.IntRange(0, 1000).Draw(t, "width"))
		s.setBounds(i, lo, up)
		// Values around lo−tolP, up+tolP and inside, nudged by a few ulps.
		base := [...]float64{lo - s.tolP, up + s.tolP, (lo + up) / 2, lo, up}[rapid.IntRange(0, 4).Draw(t, "where")]
		x := base
		for k := rapid.IntRange(-4, 4).Draw(t, "ulps"); k != 0; {
			if k > 0 {
				x, k = math.Nextafter(x, math.Inf(1)), k-1
			} else {
				x, k = math.Nextafter(x, math.Inf(-1)), k+1
			}
		}
		s.x[i] = x
	}
	s.initSlackBasis()
	s.resetInfeasible()
	if found, inf := s.chuzr() >= 0, s.primalInfeasibility() > s.tolP; found != inf {
		t.Fatalf("chuzr found a row: %v; primal infeasibility %g > tolP %g: %v", found, s.primalInfeasibility(), s.tolP, inf)
	}
}

// TestMIPBranchUnsolved: a node whose LP cannot be solved is split on its
// widest integer domain, both children keeping the node's (inherited,
// valid) bound and together covering the domain; with every integer
// column fixed it is given up on, its bound kept in the search's, and the
// search then claims no proof that the node could overturn.
func TestMIPBranchUnsolved(t *testing.T) {
	var b Builder
	x := b.AddIntCol("x", 1, 0, 5)
	y := b.AddIntCol("y", 1, 0, 1)
	z := b.AddCol("z", 1, 0, 10)
	b.AddRow("r", 1, math.Inf(1), []int{x, y, z}, []float64{1, 1, 1})
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	sr, err := newMIPSearch(context.Background(), p, Options{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	nd := &mipNode{bound: 0.5, depth: 2, branchCol: y, changes: []bndChange{{col: y, lo: 0, up: 0}}}
	sr.applyNode(nd)
	sr.branchUnsolved(nd)
	if len(sr.open) != 2 {
		t.Fatalf("%d children queued, want 2", len(sr.open))
	}
	var got [][2]float64
	for _, c := range sr.open {
		last := c.changes[len(c.changes)-1]
		if c.bound != nd.bound || c.depth != 3 || last.col != x || len(c.changes) != 2 || c.changes[0] != nd.changes[0] {
			t.Errorf("child %+v: want bound %v, depth 3, the parent's change then one on x", c, nd.bound)
		}
		got = append(got, [2]float64{last.lo, last.up})
	}
	slices.SortFunc(got, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	if want := [][2]float64{{0, 2}, {3, 5}}; !slices.Equal(got, want) {
		t.Errorf("children's domains of x %v, want %v", got, want)
	}
	if sr.dropped != math.Inf(1) || sr.givenUp != 0 {
		t.Errorf("split node counted as given up on (dropped %v, %d)", sr.dropped, sr.givenUp)
	}

	sr.open = sr.open[:0]
	fixed := &mipNode{bound: 0.75, depth: 3, branchCol: x, changes: []bndChange{{col: x, lo: 1, up: 1}, {col: y, lo: 0, up: 0}}}
	sr.applyNode(fixed)
	sr.branchUnsolved(fixed)
	if len(sr.open) != 0 || sr.dropped != fixed.bound || sr.givenUp != 1 {
		t.Fatalf("no integer domain left: %d children, dropped %v, %d given up; want none, %v, 1", len(sr.open), sr.dropped, sr.givenUp, fixed.bound)
	}
	sr.hasInc, sr.incZ = true, 1
	if st, err := sr.finish(Optimal); st != NotSolved || !errors.Is(err, ErrNumerical) {
		t.Errorf("finish with a dropped node of bound %v below the incumbent %v: %v, %v; want NotSolved, ErrNumerical", fixed.bound, sr.incZ, st, err)
	}
}

// TestVPM2NodeLPsSolve runs vpm2 past node 9,518, where branch-and-bound
// gave up before the fix of chuzr (27 node LPs failed their full solve
// before it): every node LP must now solve at once, without a retry from
// scratch and without a node split unsolved; the result is checked as in
// TestMIPLIB (whose 100 nodes of vpm2 stop far before the failure). About
// 15 s on a quiet machine: not in -short mode nor the race pass.
func TestVPM2NodeLPsSolve(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("about 8 s; the node LP of the failure is solved by TestVPM2NodeLP")
	}
	t.Parallel() // CPU-bound: runs beside the package's other long tests
	p, err := ReadMPSFile(instancePath("miplib", "vpm2"))
	if err != nil {
		t.Fatal(err)
	}
	_, opt := testInstances(t, "miplib")
	sr, err := newMIPSearch(context.Background(), p, Options{NodeLimit: 10000}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	st, err := sr.search()
	if err != nil {
		t.Fatalf("search: %v, %v after %d nodes", st, err, sr.nodes)
	}
	if sr.lpRetries != 0 || sr.unsolved != 0 || sr.givenUp != 0 {
		t.Errorf("%d node LPs retried from scratch, %d split unsolved, %d nodes given up on in %d nodes", sr.lpRetries, sr.unsolved, sr.givenUp, sr.nodes)
	}
	if !sr.hasInc || sr.incZ < opt["vpm2"]-1e-6 {
		t.Errorf("incumbent %v (found: %v) below the optimum %v", sr.incZ, sr.hasInc, opt["vpm2"])
	}
	if b := sr.bestBound(); b > opt["vpm2"]+1e-6 {
		t.Errorf("bound %v above the optimum %v", b, opt["vpm2"])
	}
	t.Logf("%v after %d nodes: incumbent %.10g, bound %.10g", st, sr.nodes, sr.incZ, sr.bestBound())
}
