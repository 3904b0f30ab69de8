package lp

import "math"

// Bounds of the scale factors: 2^±scaleExp for a model's first solve,
// 2^±wideScaleExp for the retry of an LP whose answer failed its
// certificate with factors at the first bound (a coefficient of 1e-40,
// which needs a factor near 2^133). Wide factors can make the scaled data
// overflow: newLPModel rejects those.
const (
	scaleExp     = 50
	wideScaleExp = 500
)

// scaleFactors computes row and column scale factors R, C for the matrix
// a: the scaled matrix is R·A·C. A few geometric-mean passes (each row and
// then each column divided by the geometric mean of its largest and
// smallest magnitude) are followed by an equilibration of the columns
// (largest magnitude 1). Every factor is rounded to a power of two within
// [2^−maxExp, 2^maxExp], so that scaling and unscaling are exact; clamped
// reports whether a factor was held at that bound.
func scaleFactors(a *Matrix, maxExp int) (rowScale, colScale []float64, clamped bool) {
	pow2 := func(f float64) float64 {
		v, c := pow2Within(f, maxExp)
		clamped = clamped || c
		return v
	}
	m, n := a.Rows, a.Cols
	rowScale = make([]float64, m)
	colScale = make([]float64, n)
	for i := range rowScale {
		rowScale[i] = 1
	}
	for j := range colScale {
		colScale[j] = 1
	}
	if a.NNZ() == 0 {
		return rowScale, colScale, false
	}
	rmin := make([]float64, m)
	rmax := make([]float64, m)
	spread := func() float64 {
		lo, hi := math.Inf(1), 0.0
		for j := 0; j < n; j++ {
			for k := a.Start[j]; k < a.Start[j+1]; k++ {
				v := math.Abs(a.Value[k]) * rowScale[a.Index[k]] * colScale[j]
				if v == 0 {
					continue
				}
				lo = min(lo, v)
				hi = max(hi, v)
			}
		}
		if hi == 0 {
			return 1
		}
		return hi / lo
	}
	prev := spread()
	for pass := 0; pass < 6; pass++ {
		for i := range m {
			rmin[i], rmax[i] = math.Inf(1), 0
		}
		for j := 0; j < n; j++ {
			for k := a.Start[j]; k < a.Start[j+1]; k++ {
				v := math.Abs(a.Value[k]) * colScale[j]
				if v == 0 {
					continue
				}
				i := int(a.Index[k])
				rmin[i] = min(rmin[i], v)
				rmax[i] = max(rmax[i], v)
			}
		}
		for i := range m {
			if rmax[i] > 0 {
				rowScale[i] = pow2(1 / geoMean(rmin[i], rmax[i]))
			}
		}
		for j := 0; j < n; j++ {
			lo, hi := math.Inf(1), 0.0
			for k := a.Start[j]; k < a.Start[j+1]; k++ {
				v := math.Abs(a.Value[k]) * rowScale[a.Index[k]]
				if v == 0 {
					continue
				}
				lo = min(lo, v)
				hi = max(hi, v)
			}
			if hi > 0 {
				colScale[j] = pow2(1 / geoMean(lo, hi))
			}
		}
		sp := spread()
		if sp > 0.9*prev {
			break
		}
		prev = sp
	}
	for j := 0; j < n; j++ {
		hi := 0.0
		for k := a.Start[j]; k < a.Start[j+1]; k++ {
			hi = max(hi, math.Abs(a.Value[k])*rowScale[a.Index[k]])
		}
		if hi > 0 {
			colScale[j] = pow2(1 / hi)
		}
	}
	return rowScale, colScale, clamped
}

// geoMean is √(a·b) for positive a, b, also when a·b under- or overflows.
func geoMean(a, b float64) float64 {
	if g := math.Sqrt(a * b); g > 0 && !math.IsInf(g, 0) {
		return g
	}
	return math.Sqrt(a) * math.Sqrt(b)
}

// pow2Within rounds a positive factor to the nearest power of two within
// [2^−maxExp, 2^maxExp] (1 for a factor that is not positive and finite)
// and reports whether the bound held it.
func pow2Within(f float64, maxExp int) (float64, bool) {
	if !(f > 0) || math.IsInf(f, 0) {
		return 1, false
	}
	e := math.Round(math.Log2(f))
	c := math.Abs(e) > float64(maxExp)
	e = max(-float64(maxExp), min(float64(maxExp), e))
	return math.Ldexp(1, int(e)), c
}
