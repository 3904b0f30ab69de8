package lp

import (
	"fmt"
	"math"
)

// oracleLPCertificate checks an LP result that claims Optimal against the
// optimality conditions, independently of the solver that produced it, and
// returns a description of the first violation ("" when it holds). With
// tol the relative tolerance:
//
//   - primal feasibility: ColLower ≤ X ≤ ColUpper and RowLower ≤ A·X ≤
//     RowUpper, within tol·max(1, |bound|); RowActivity equals A·X;
//   - ReducedCost = c − Aᵀ·RowDual, within tol·max(1, |c_j|, Σ|a_ij·y_i|);
//   - dual feasibility and complementary slackness, in the sign convention
//     of Result (minimisation; every sign flips for a maximisation): a
//     multiplier may be positive only at an active lower bound and negative
//     only at an active upper bound;
//   - strong duality: the dual objective Σ y_i·(active row bound) +
//     Σ d_j·(active column bound) + Offset equals Objective = cᵀX + Offset,
//     within tol·max(1, |Objective|).
//
// A multiplier counts as zero below tol·max(1, scale); a bound counts as
// active within tol·max(1, |bound|) of the value.
func oracleLPCertificate(p *Problem, r *Result, tol float64) string {
	m, n := p.NumRows(), p.NumCols()
	if len(r.X) != n || len(r.RowActivity) != m || len(r.RowDual) != m || len(r.ReducedCost) != n {
		return fmt.Sprintf("lengths: X %d, RowActivity %d, RowDual %d, ReducedCost %d; want %d, %d, %d, %d",
			len(r.X), len(r.RowActivity), len(r.RowDual), len(r.ReducedCost), n, m, m, n)
	}
	sense := 1.0
	if p.Maximize {
		sense = -1
	}
	near := func(v, b float64) bool { return math.Abs(v-b) <= tol*math.Max(1, math.Abs(b)) }
	act := make([]float64, m)
	atY := make([]float64, n)    // (Aᵀy)_j
	atYAbs := make([]float64, n) // Σ|a_ij y_i|
	for j := 0; j < n; j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			i, a := p.A.Index[k], p.A.Value[k]
			act[i] += a * r.X[j]
			atY[j] += a * r.RowDual[i]
			atYAbs[j] += math.Abs(a * r.RowDual[i])
		}
	}
	obj, dualObj := p.Offset, p.Offset
	for j := 0; j < n; j++ {
		x, lo, up := r.X[j], p.ColLower[j], p.ColUpper[j]
		if x < lo-tol*math.Max(1, math.Abs(lo)) || x > up+tol*math.Max(1, math.Abs(up)) {
			return fmt.Sprintf("column %s = %v outside [%v, %v]", p.ColName(j), x, lo, up)
		}
		obj += p.Cost[j] * x
		d := r.ReducedCost[j]
		scale := math.Max(1, math.Max(math.Abs(p.Cost[j]), atYAbs[j]))
		if math.Abs(d-(p.Cost[j]-atY[j])) > tol*scale {
			return fmt.Sprintf("column %s: reduced cost %v, but c − Aᵀy = %v", p.ColName(j), d, p.Cost[j]-atY[j])
		}
		switch ds := sense * d; {
		case math.Abs(ds) <= tol*scale:
			dualObj += d * x // zero multiplier: contributes d·x ≈ 0
		case ds > 0:
			if math.IsInf(lo, -1) || !near(x, lo) {
				return fmt.Sprintf("column %s = %v: reduced cost %v but not at its lower bound %v", p.ColName(j), x, d, lo)
			}
			dualObj += d * lo
		default:
			if math.IsInf(up, 1) || !near(x, up) {
				return fmt.Sprintf("column %s = %v: reduced cost %v but not at its upper bound %v", p.ColName(j), x, d, up)
			}
			dualObj += d * up
		}
	}
	for i := 0; i < m; i++ {
		a, lo, up := act[i], p.RowLower[i], p.RowUpper[i]
		if math.Abs(r.RowActivity[i]-a) > tol*math.Max(1, math.Abs(a)) {
			return fmt.Sprintf("row %s: RowActivity %v, but A·x = %v", p.RowName(i), r.RowActivity[i], a)
		}
		if a < lo-tol*math.Max(1, math.Abs(lo)) || a > up+tol*math.Max(1, math.Abs(up)) {
			return fmt.Sprintf("row %s: activity %v outside [%v, %v]", p.RowName(i), a, lo, up)
		}
		y := r.RowDual[i]
		switch ys := sense * y; {
		case math.Abs(ys) <= tol:
			dualObj += y * a
		case ys > 0:
			if math.IsInf(lo, -1) || !near(a, lo) {
				return fmt.Sprintf("row %s: activity %v, dual %v but not at its lower bound %v", p.RowName(i), a, y, lo)
			}
			dualObj += y * lo
		default:
			if math.IsInf(up, 1) || !near(a, up) {
				return fmt.Sprintf("row %s: activity %v, dual %v but not at its upper bound %v", p.RowName(i), a, y, up)
			}
			dualObj += y * up
		}
	}
	if !near(r.Objective, obj) {
		return fmt.Sprintf("Objective %v, but cᵀx + Offset = %v", r.Objective, obj)
	}
	if !near(dualObj, obj) {
		return fmt.Sprintf("dual objective %v differs from the primal %v", dualObj, obj)
	}
	return ""
}
