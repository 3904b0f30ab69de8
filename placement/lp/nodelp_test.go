package lp

import (
	"context"
	"math"
	"path/filepath"
	"testing"

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
		s.lower[i], s.upper[i] = lo, up
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
