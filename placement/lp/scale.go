package lp

import "math"

// scaleFactors computes row and column scale factors R, C for the matrix
// a: the scaled matrix is R·A·C. A few geometric-mean passes (each row and
// then each column divided by the geometric mean of its largest and
// smallest magnitude) are followed by an equilibration of the columns
// (largest magnitude 1). Every factor is rounded to a power of two, so that
// scaling and unscaling are exact.
func scaleFactors(a *Matrix) (rowScale, colScale []float64) {
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
		return rowScale, colScale
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
				i := a.Index[k]
				rmin[i] = min(rmin[i], v)
				rmax[i] = max(rmax[i], v)
			}
		}
		for i := range m {
			if rmax[i] > 0 {
				rowScale[i] = pow2(1 / math.Sqrt(rmin[i]*rmax[i]))
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
				colScale[j] = pow2(1 / math.Sqrt(lo*hi))
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
	return rowScale, colScale
}

// pow2 rounds a positive factor to the nearest power of two, within
// [2⁻⁵⁰, 2⁵⁰].
func pow2(f float64) float64 {
	if !(f > 0) || math.IsInf(f, 0) {
		return 1
	}
	e := math.Round(math.Log2(f))
	e = max(-50, min(50, e))
	return math.Ldexp(1, int(e))
}
