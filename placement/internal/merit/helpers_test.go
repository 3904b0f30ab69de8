package merit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// benchInstance generates the single-pool model of lp-bench §2: T hourly
// slices of integer demand (diurnal ±25 %, weekends at 80 %, +10 % growth,
// 3 % noise, scaled to 60 % of the finite stock) and K offers — offer 0
// unlimited on-demand, the others on-demand, spot, reserved or owned with
// stock limits (removed when limits is false).
func benchInstance(t, k int, seed uint64, limits bool) Problem {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	horizon := float64(t)
	uni := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	ints := func(lo, hi int) float64 { return float64(lo + r.IntN(hi-lo+1)) }
	offers := []Offer{{VariablePerGPUHour: uni(3.6, 4.4), LimitGPUs: math.Inf(1)}}
	stock := 0.0
	for len(offers) < k {
		var o Offer
		switch u := r.Float64(); {
		case u < 0.15:
			o = Offer{VariablePerGPUHour: uni(3.6, 4.4), LimitGPUs: ints(100, 400)}
		case u < 0.30:
			o = Offer{VariablePerGPUHour: uni(1.3, 2.2), LimitGPUs: ints(50, 250)}
		case u < 0.75:
			o = Offer{FixedPerGPU: uni(1.6, 2.6) * horizon, VariablePerGPUHour: uni(0, 0.1), LimitGPUs: ints(100, 600)}
		default:
			o = Offer{FixedPerGPU: uni(0.9, 1.4) * horizon, VariablePerGPUHour: uni(0.25, 0.45), LimitGPUs: ints(50, 400)}
		}
		stock += o.LimitGPUs
		offers = append(offers, o)
	}
	if stock == 0 {
		stock = 100
	}
	scale := 0.6 * stock
	d := make([]float64, t)
	for i := range d {
		hour, day := i%24, i/24
		v := 1 + 0.25*math.Sin(2*math.Pi*float64(hour-8)/24)
		if day%7 >= 5 {
			v *= 0.8
		}
		v *= 1 + 0.1*float64(i)/horizon
		v *= 1 + 0.03*(2*r.Float64()-1)
		d[i] = math.Round(scale * v / 1.1)
	}
	if !limits {
		for i := range offers {
			offers[i].LimitGPUs = math.Inf(1)
		}
	}
	return Problem{DemandGPUs: d, Offers: offers}
}

// randomSmall draws a small instance with real-valued data: T slices of
// random lengths, K offers mixing fixed and variable costs, some limits.
func randomSmall(r *rand.Rand, maxT, maxK int) Problem {
	t := 1 + r.IntN(maxT)
	k := 1 + r.IntN(maxK)
	p := Problem{DemandGPUs: make([]float64, t), Hours: make([]float64, t)}
	for i := range t {
		p.DemandGPUs[i] = math.Round(20*r.Float64()*4) / 4
		if r.IntN(5) == 0 {
			p.DemandGPUs[i] = 0
		}
		p.Hours[i] = 0.5 + 3*r.Float64()
	}
	peak := 0.0
	for _, d := range p.DemandGPUs {
		peak = math.Max(peak, d)
	}
	stock := 0.0
	for i := range k {
		o := Offer{
			FixedPerGPU:        math.Round(40*r.Float64()) / 2,
			VariablePerGPUHour: math.Round(10*r.Float64()) / 4,
			LimitGPUs:          math.Round(12 * r.Float64()),
		}
		if r.IntN(3) == 0 {
			o.FixedPerGPU = 0
		}
		if i == k-1 && stock+o.LimitGPUs < peak || r.IntN(6) == 0 {
			o.LimitGPUs = math.Inf(1)
		}
		stock += o.LimitGPUs
		p.Offers = append(p.Offers, o)
	}
	return p
}

// simplexCost solves the full time-indexed LP of p with gonum's dense
// simplex on a standard form built by hand (never lp.Convert):
//
//	Σ_k use_kt − s_t = d_t,  use_kt − cap_k + r_kt = 0,  cap_k + u_k = L_k.
func simplexCost(tb testing.TB, p Problem) float64 {
	tb.Helper()
	T, K := len(p.DemandGPUs), len(p.Offers)
	var finite []int
	for k, o := range p.Offers {
		if !math.IsInf(o.usableLimit(), 1) {
			finite = append(finite, k)
		}
	}
	rows := T + K*T + len(finite)
	capCol := func(k int) int { return k }
	useCol := func(k, t int) int { return K + k*T + t }
	sCol := func(t int) int { return K + K*T + t }
	rCol := func(k, t int) int { return K + K*T + T + k*T + t }
	uCol := func(i int) int { return K + 2*K*T + T + i }
	cols := K + 2*K*T + T + len(finite)
	a := mat.NewDense(rows, cols, nil)
	b := make([]float64, rows)
	c := make([]float64, cols)
	for k, o := range p.Offers {
		c[capCol(k)] = o.FixedPerGPU
		for t := range T {
			c[useCol(k, t)] = o.VariablePerGPUHour * p.hours(t)
		}
	}
	for t := range T {
		for k := range K {
			a.Set(t, useCol(k, t), 1)
		}
		a.Set(t, sCol(t), -1)
		b[t] = p.DemandGPUs[t]
	}
	for k := range K {
		for t := range T {
			row := T + k*T + t
			a.Set(row, useCol(k, t), 1)
			a.Set(row, capCol(k), -1)
			a.Set(row, rCol(k, t), 1)
		}
	}
	for i, k := range finite {
		row := T + K*T + i
		a.Set(row, capCol(k), 1)
		a.Set(row, uCol(i), 1)
		b[row] = p.Offers[k].usableLimit()
	}
	f, _, err := lp.Simplex(c, a, b, 1e-10, nil)
	if err != nil {
		tb.Fatalf("gonum simplex: %v", err)
	}
	return f
}

// checkDuals verifies that s's duals are an optimal solution of the dual of
// the full LP — p_t ≥ 0, μ_k ≥ 0 (0 when unlimited),
// Σ_t (p_t − v_k·Δ_t)⁺ ≤ F_k + μ_k, and Σ_t p_t·d_t − Σ_k L_k·μ_k equal to
// the primal cost: a certificate of optimality independent of the DP.
func checkDuals(tb fataler, p Problem, s Solution) {
	tb.Helper()
	scale := math.Max(1, math.Abs(s.CostTotal))
	obj := 0.0
	for t, pt := range s.SlicePrice {
		if pt < 0 {
			tb.Fatalf("SlicePrice[%d] = %g < 0", t, pt)
		}
		obj += pt * p.DemandGPUs[t]
	}
	for k, o := range p.Offers {
		mu := s.StockValue[k]
		l := o.usableLimit()
		if mu < 0 || (math.IsInf(l, 1) && mu != 0) {
			tb.Fatalf("StockValue[%d] = %g (limit %g)", k, mu, l)
		}
		if mu > 0 {
			obj -= l * mu
		}
		rent := 0.0
		for t, pt := range s.SlicePrice {
			rent += math.Max(0, pt-o.VariablePerGPUHour*p.hours(t))
		}
		if rent > o.FixedPerGPU+mu+1e-9*scale {
			tb.Fatalf("offer %d: dual infeasible: Σ(p−vΔ)⁺ = %g > F + μ = %g", k, rent, o.FixedPerGPU+mu)
		}
	}
	// Layer prices are the sums of the slice prices at or above each level.
	ldc := NewLoadDuration(p)
	for i, level := range ldc.LevelGPUs {
		sum := 0.0
		for t, d := range p.DemandGPUs {
			if d >= level {
				sum += s.SlicePrice[t]
			}
		}
		if math.Abs(sum-s.LayerPrice[i]) > 1e-9*math.Max(1, sum) {
			tb.Fatalf("LayerPrice[%d] = %g, slice prices at or above level %g sum to %g", i, s.LayerPrice[i], level, sum)
		}
	}
	if math.Abs(obj-s.CostTotal) > 1e-9*scale {
		tb.Fatalf("dual objective %.12g != primal %.12g (gap %g)", obj, s.CostTotal, obj-s.CostTotal)
	}
}

// fataler is what the check helpers need of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
