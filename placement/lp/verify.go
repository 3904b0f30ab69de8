package lp

import (
	"errors"
	"fmt"
	"math"
)

// Verify checks r as an answer to p, independently of the solver that
// produced it, and returns nil or an error wrapping ErrCertificate that
// lists up to 20 failures. tol is a relative tolerance (1e-6 is a sensible
// choice for answers of this package): each test allows tol times 1 plus the
// magnitude of the quantities involved (the bound, or the largest of the
// bound and Σ|a_ij·x_j| for a row).
//
// Checked, by status:
//   - any Result with X: primal feasibility (column bounds; row bounds on
//     A·x), RowActivity = A·x and Objective = cᵀx + Offset, every one of
//     them finite (an objective that overflows to ±Inf fails);
//   - Optimal LP (p not a MIP): the lengths of RowDual and ReducedCost,
//     d = c − Aᵀy (finite), dual feasibility and complementary slackness in the sign
//     convention of Result (a reduced cost or row dual that is not
//     negligible requires the column or row to sit at the corresponding,
//     finite, bound), and equal primal and dual objectives, the dual one
//     being Σ_i y_i·(active row bound) + Σ_j d_j·(active column bound) +
//     Offset (with x_j or aᵢᵀx in place of the bound for negligible duals);
//   - Infeasible LP: the Farkas ray y, normalised to a largest |y_i| of
//     1: an entry whose row bound on its side is infinite fails unless it
//     is within tol (then it is taken as 0); with r = Aᵀy of the ray so
//     cleaned, max rᵀx over the column bounds is finite and below min yᵀa
//     over the row bounds (terms whose r_j is negligible next to
//     Σ_i|a_ij·y_i| are ignored where the bound is infinite);
//   - Unbounded LP: the ray d, normalised to a largest |d_j| of 1, is a
//     recession direction: an entry against a finite column bound fails
//     unless it is within tol (then it is taken as 0), and on the ray so
//     cleaned each row with a finite bound moves away from it by no more
//     than tol·Σ_j|a_ij·d_j| plus the rounding noise of its entries
//     (64 ulps of Σ_j|a_ij| over the non-zero d_j), and the objective improves (cᵀd < 0 for a
//     minimisation, > 0 for a maximisation, by more than tol·Σ|c_j·d_j|).
//     A large entry thus cannot hide a violation or carry the improvement.
//
// Statuses other than these three are checked only for the feasibility of
// X when present.
func (r *Result) Verify(p *Problem, tol float64) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if !(tol >= 0) {
		return fmt.Errorf("%w: tolerance %v", ErrInvalid, tol)
	}
	v := verifier{p: p, tol: tol}
	if r.X != nil {
		v.primal(r)
	}
	switch r.Status {
	case Optimal:
		if r.X == nil {
			v.fail("optimal result without primal values")
		} else if !p.IsMIP() {
			v.dual(r)
		}
	case Infeasible:
		if !p.IsMIP() {
			v.farkas(r)
		}
	case Unbounded:
		if !p.IsMIP() {
			v.ray(r)
		}
	}
	if len(v.errs) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrCertificate, errors.Join(v.errs...))
}

type verifier struct {
	p    *Problem
	tol  float64
	errs []error
	act  []float64 // A·x
	mag  []float64 // Σ_j |a_ij·x_j|
}

func (v *verifier) fail(format string, args ...any) {
	if len(v.errs) < maxValidateProblems {
		v.errs = append(v.errs, fmt.Errorf(format, args...))
	}
}

func (v *verifier) primal(r *Result) {
	p, tol := v.p, v.tol
	n, m := p.NumCols(), p.NumRows()
	if len(r.X) != n {
		v.fail("%d primal values for %d columns", len(r.X), n)
		return
	}
	obj, objMag := p.Offset, math.Abs(p.Offset)
	for j, x := range r.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			v.fail("column %s: value %v", p.ColName(j), x)
			continue
		}
		if l := p.ColLower[j]; x < l-tol*(1+math.Abs(l)) {
			v.fail("column %s: value %v below lower bound %v", p.ColName(j), x, l)
		}
		if u := p.ColUpper[j]; x > u+tol*(1+math.Abs(u)) {
			v.fail("column %s: value %v above upper bound %v", p.ColName(j), x, u)
		}
		obj += p.Cost[j] * x
		objMag += math.Abs(p.Cost[j] * x)
	}
	// A value that is not finite makes every comparison with it false:
	// an objective that overflowed (−2e308 is −Inf) would pass unchecked.
	switch {
	case !isFinite(r.Objective) || !isFinite(obj):
		v.fail("objective %v, cᵀx + offset = %v: not finite", r.Objective, obj)
	case math.Abs(obj-r.Objective) > tol*(1+objMag):
		v.fail("objective %v, but cᵀx + offset = %v", r.Objective, obj)
	}
	v.act = make([]float64, m)
	v.mag = make([]float64, m)
	for j := 0; j < n; j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			t := p.A.Value[k] * r.X[j]
			v.act[p.A.Index[k]] += t
			v.mag[p.A.Index[k]] += math.Abs(t)
		}
	}
	if len(r.RowActivity) != m {
		v.fail("%d row activities for %d rows", len(r.RowActivity), m)
	}
	for i := 0; i < m; i++ {
		a := v.act[i]
		if !isFinite(a) || len(r.RowActivity) == m && !isFinite(r.RowActivity[i]) {
			v.fail("row %s: activity %v: not finite", p.RowName(i), a)
			continue
		}
		if len(r.RowActivity) == m && math.Abs(r.RowActivity[i]-a) > tol*(1+v.mag[i]) {
			v.fail("row %s: activity %v, but A·x = %v", p.RowName(i), r.RowActivity[i], a)
		}
		if l := p.RowLower[i]; a < l-tol*(1+max(math.Abs(l), v.mag[i])) {
			v.fail("row %s: activity %v below lower bound %v", p.RowName(i), a, l)
		}
		if u := p.RowUpper[i]; a > u+tol*(1+max(math.Abs(u), v.mag[i])) {
			v.fail("row %s: activity %v above upper bound %v", p.RowName(i), a, u)
		}
	}
}

func (v *verifier) dual(r *Result) {
	p, tol := v.p, v.tol
	n, m := p.NumCols(), p.NumRows()
	if len(r.RowDual) != m || len(r.ReducedCost) != n {
		v.fail("%d row duals and %d reduced costs for %d rows and %d columns", len(r.RowDual), len(r.ReducedCost), m, n)
		return
	}
	if v.act == nil {
		return
	}
	sense := 1.0
	if p.Maximize {
		sense = -1
	}
	ymax := 0.0
	for i, y := range r.RowDual {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			v.fail("row %s: dual %v", p.RowName(i), y)
			return
		}
		ymax = max(ymax, math.Abs(y))
	}
	primalObj := p.Offset
	dualObj, terms := p.Offset, math.Abs(p.Offset)
	for j := 0; j < n; j++ {
		x := r.X[j]
		primalObj += p.Cost[j] * x
		dj := p.Cost[j]
		dmag := math.Abs(p.Cost[j])
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			t := p.A.Value[k] * r.RowDual[p.A.Index[k]]
			dj -= t
			dmag += math.Abs(t)
		}
		got := r.ReducedCost[j]
		dtol := tol * (1 + dmag)
		if !isFinite(got) || !isFinite(dj) || math.Abs(got-dj) > dtol {
			v.fail("column %s: reduced cost %v, but c − Aᵀy = %v", p.ColName(j), got, dj)
			continue
		}
		l, u := p.ColLower[j], p.ColUpper[j]
		term := got * x
		switch s := sense * got; {
		case s > dtol:
			if math.IsInf(l, -1) || math.Abs(x-l) > tol*(1+math.Abs(l)) {
				v.fail("column %s: reduced cost %v asks for the lower bound %v, value %v", p.ColName(j), got, l, x)
				continue
			}
			term = got * l
		case s < -dtol:
			if math.IsInf(u, 1) || math.Abs(x-u) > tol*(1+math.Abs(u)) {
				v.fail("column %s: reduced cost %v asks for the upper bound %v, value %v", p.ColName(j), got, u, x)
				continue
			}
			term = got * u
		}
		dualObj += term
		terms += math.Abs(term)
	}
	ytol := tol * (1 + ymax)
	for i := 0; i < m; i++ {
		y, a := r.RowDual[i], v.act[i]
		l, u := p.RowLower[i], p.RowUpper[i]
		term := y * a
		atol := tol * (1 + v.mag[i])
		switch s := sense * y; {
		case s > ytol:
			if math.IsInf(l, -1) || math.Abs(a-l) > atol+tol*math.Abs(l) {
				v.fail("row %s: dual %v asks for the lower bound %v, activity %v", p.RowName(i), y, l, a)
				continue
			}
			term = y * l
		case s < -ytol:
			if math.IsInf(u, 1) || math.Abs(a-u) > atol+tol*math.Abs(u) {
				v.fail("row %s: dual %v asks for the upper bound %v, activity %v", p.RowName(i), y, u, a)
				continue
			}
			term = y * u
		}
		dualObj += term
		terms += math.Abs(term)
	}
	if !isFinite(primalObj) || !isFinite(dualObj) || math.Abs(primalObj-dualObj) > tol*(1+math.Abs(primalObj))+1e-12*terms {
		v.fail("primal objective %v but dual objective %v", primalObj, dualObj)
	}
}

// rayNoise is the size, relative to a ray's largest entry, below which an
// entry is rounding noise (a few ulps of 1) and is taken as 0: an entry of
// 2.2e-16 on a row met by a free column failed a Farkas ray a warm
// re-solve had proven (TestBoundChangeResolve's saved case). For an
// unbounded ray, each row may move by the noise its columns' entries can
// carry (rayNoise·Σ_j|a_ij| over the ray's non-zero entries): an entry of
// 1.9e-16 on a free column, alone in a row at its upper bound, failed a
// proven ray (TestLPProperties, TestRayNoise), and so did entries of
// 4e-17 and 4e-14 that cancel in a row of coefficients 10 and 0.01 of a
// badly scaled LP (TestReview3BadScaling) once the smaller is taken as 0.
const rayNoise = 64 * 0x1p-52

func (v *verifier) farkas(r *Result) {
	p, tol := v.p, v.tol
	n, m := p.NumCols(), p.NumRows()
	if len(r.Ray) != m {
		v.fail("Farkas ray has %d entries for %d rows", len(r.Ray), m)
		return
	}
	ymax := 0.0
	for _, y := range r.Ray {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			v.fail("Farkas ray entry %v", y)
			return
		}
		ymax = max(ymax, math.Abs(y))
	}
	if ymax == 0 {
		v.fail("Farkas ray is zero")
		return
	}
	// The ray is normalised to a largest entry of 1. An entry whose row
	// bound on its side is infinite makes min yᵀa = −∞ unless it is
	// negligible (within tol of the largest); a negligible one is set to 0
	// and everything below is computed from the ray so cleaned, so that it
	// cannot hide in the large entries' terms.
	y := make([]float64, m)
	for i, yi := range r.Ray {
		yi /= ymax
		if math.Abs(yi) <= rayNoise {
			yi = 0 // rounding noise of the solve, not a multiplier
		}
		b := p.RowLower[i]
		if yi < 0 {
			b = p.RowUpper[i]
		}
		if yi != 0 && math.IsInf(b, 0) {
			if math.Abs(yi) > tol {
				v.fail("Farkas ray: row %s has y_i = %v with an infinite bound", p.RowName(i), r.Ray[i])
				return
			}
			yi = 0
		}
		y[i] = yi
	}
	colMax, terms := 0.0, 0.0
	for j := 0; j < n; j++ {
		rj, mag := 0.0, 0.0
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			t := p.A.Value[k] * y[p.A.Index[k]]
			rj += t
			mag += math.Abs(t)
		}
		b := p.ColUpper[j]
		if rj < 0 {
			b = p.ColLower[j]
		}
		if math.IsInf(b, 0) {
			if math.Abs(rj) <= tol*mag || rj == 0 {
				continue
			}
			v.fail("Farkas ray: column %s has r_j = %v with an infinite bound", p.ColName(j), rj*ymax)
			return
		}
		colMax += rj * b
		terms += math.Abs(rj * b)
	}
	rowMin := 0.0
	for i, yi := range y {
		if yi == 0 {
			continue
		}
		b := p.RowLower[i]
		if yi < 0 {
			b = p.RowUpper[i]
		}
		rowMin += yi * b
		terms += math.Abs(yi * b)
	}
	if !(rowMin-colMax > 1e-9*(1+terms)) {
		v.fail("Farkas ray: max rᵀx over the column bounds %v is not below min yᵀa over the row bounds %v", colMax*ymax, rowMin*ymax)
	}
}

func (v *verifier) ray(r *Result) {
	p, tol := v.p, v.tol
	n, m := p.NumCols(), p.NumRows()
	if len(r.Ray) != n {
		v.fail("ray has %d entries for %d columns", len(r.Ray), n)
		return
	}
	dmax := 0.0
	for _, d := range r.Ray {
		if math.IsNaN(d) || math.IsInf(d, 0) {
			v.fail("ray entry %v", d)
			return
		}
		dmax = max(dmax, math.Abs(d))
	}
	if dmax == 0 {
		v.fail("ray is zero")
		return
	}
	// The ray is normalised to a largest entry of 1. An entry against a
	// finite column bound is a failure unless it is negligible (within tol
	// of the largest); a negligible one is set to 0 and the rows and the
	// objective are checked on the ray so cleaned, each relative to its own
	// terms, so that a large entry cannot hide a violation or carry an
	// improvement that a violation makes.
	d := make([]float64, n)
	for j, dj := range r.Ray {
		dj /= dmax
		if dj < 0 && p.ColLower[j] > math.Inf(-1) || dj > 0 && p.ColUpper[j] < math.Inf(1) {
			if math.Abs(dj) > tol {
				b := p.ColLower[j]
				verb := "decreases"
				if dj > 0 {
					b, verb = p.ColUpper[j], "increases"
				}
				v.fail("ray: column %s %s (%v) but has bound %v", p.ColName(j), verb, r.Ray[j], b)
			}
			dj = 0
		}
		d[j] = dj
	}
	// A row may also move by what entries of rounding noise (rayNoise of
	// the largest) on its columns can make it move: tiny entries of a
	// badly scaled ray cancel each other only up to their own rounding.
	cd, cmag := 0.0, 0.0
	ad := make([]float64, m)
	amag := make([]float64, m)
	for j, dj := range d {
		cd += p.Cost[j] * dj
		cmag += math.Abs(p.Cost[j] * dj)
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			t := p.A.Value[k] * dj
			i := int(p.A.Index[k])
			ad[i] += t
			amag[i] += math.Abs(t) * tol
			if dj != 0 {
				amag[i] += math.Abs(p.A.Value[k]) * rayNoise
			}
		}
	}
	for i := 0; i < m; i++ {
		if ad[i] < -amag[i] && p.RowLower[i] > math.Inf(-1) {
			v.fail("ray: row %s decreases (%v) but has lower bound %v", p.RowName(i), ad[i]*dmax, p.RowLower[i])
		}
		if ad[i] > amag[i] && p.RowUpper[i] < math.Inf(1) {
			v.fail("ray: row %s increases (%v) but has upper bound %v", p.RowName(i), ad[i]*dmax, p.RowUpper[i])
		}
	}
	if p.Maximize {
		cd = -cd
	}
	if !(cd < -tol*cmag) || cd >= 0 {
		v.fail("ray does not improve the objective: cᵀd = %v", cd*dmax)
	}
}

// isFinite reports whether v is neither NaN nor infinite.
func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
