package merit

import (
	"math"
	"sort"
)

// curve is a concave piecewise-linear function G: slope slopes[j] on
// (ends[j−1], ends[j]] (slopes[0] below ends[0]) and 0 beyond the last end;
// at evaluates G.
type curve struct {
	ends, slopes []float64
	at           func(y float64) float64
}

// chain is the convex separable chain problem solved by the dynamic
// programme (n stages):
//
//	minimise  Σ_i slope_i·x_i + Σ_{i<n−1} coef_i·G_i(Q_i) + constant
//	s.t.      Q_i = Q_{i−1} + x_i (Q_{−1} = 0),  lo_i ≤ x_i ≤ hi_i,
//	          Q_{n−1} ≥ need,  every Q_i ≤ limit,
//
// with coef_i ≤ 0 and G_i = curve(i) concave, so that every stage cost is
// convex. The caller guarantees feasibility (Σ hi ≥ need, Σ lo ≤ limit,
// need ≤ limit).
type chain struct {
	slope, lo, hi, coef   []float64
	curve                 func(i int) curve
	need, limit, constant float64
}

// coef returns v_i − v_{i+1} for i < n−1 and 0 for the last stage, in a
// buffer of the workspace.
func (ws *workspace) coef(v []float64) []float64 {
	n := len(v)
	if cap(ws.c) < n {
		ws.c = make([]float64, n)
	}
	c := ws.c[:n]
	for i := 0; i < n-1; i++ {
		c[i] = v[i] - v[i+1]
	}
	c[n-1] = 0
	return c
}

// solve runs the dynamic programme forward and back-tracks the optimal
// increments into x; it returns the optimal value.
//
// The state f_i is a convex piecewise-linear function of Q on
// [start, start+Σlens], stored as its value at start and its segments
// (length, slope) in ascending slope order. A stage is the infimal
// convolution of f_{i−1} with slope_i·x on [lo_i, hi_i] — a shift by lo_i
// and a sorted insert of the segment (hi_i − lo_i, slope_i) — followed by the
// addition of coef_i·G_i, which splits segments at the ends of G_i.
func (c *chain) solve(x []float64, ws *workspace) float64 {
	n := len(c.slope)
	if cap(ws.insAt) < n {
		ws.insAt, ws.insLen = make([]float64, n), make([]float64, n)
	}
	insAt, insLen := ws.insAt[:n], ws.insLen[:n]
	start, value := 0.0, 0.0
	lens, slopes := ws.lens[:0], ws.slopes[:0]
	next, nextSlopes := ws.lens2[:0], ws.slopes2[:0]
	for i := range n {
		f := c.slope[i]
		start += c.lo[i]
		value += f * c.lo[i]
		seg := math.Max(0, math.Min(c.hi[i]-c.lo[i], c.limit-start))
		// Insert (seg, f) after every segment of slope ≤ f; truncate.
		next, nextSlopes = next[:0], nextSlopes[:0]
		pos, room, inserted := start, c.limit-start, false
		for j := 0; j <= len(lens) && room > 0; j++ {
			if !inserted && (j == len(lens) || slopes[j] > f) {
				inserted = true
				insAt[i] = pos
				l := math.Min(seg, room)
				insLen[i] = l
				if l > 0 {
					next = append(next, l)
					nextSlopes = append(nextSlopes, f)
					pos += l
					room -= l
				}
			}
			if j == len(lens) || room <= 0 {
				break
			}
			l := math.Min(lens[j], room)
			next = append(next, l)
			nextSlopes = append(nextSlopes, slopes[j])
			pos += l
			room -= l
		}
		if !inserted {
			insAt[i], insLen[i] = pos, 0
		}
		lens, next = next, lens
		slopes, nextSlopes = nextSlopes, slopes
		coef := c.coef[i]
		if i == n-1 || coef == 0 {
			continue
		}
		// Add coef·G: split at the ends of G, merge equal neighbours.
		g := c.curve(i)
		value += coef * g.at(start)
		next, nextSlopes = next[:0], nextSlopes[:0]
		pos = start
		e := sort.SearchFloat64s(g.ends, pos) // first end ≥ pos
		if e < len(g.ends) && g.ends[e] == pos {
			e++
		}
		for j := range lens {
			l, s := lens[j], slopes[j]
			for l > 0 {
				piece, gs := l, 0.0
				if e < len(g.ends) {
					gs = g.slopes[e]
					if b := g.ends[e] - pos; l >= b {
						piece = b
						pos = g.ends[e]
						e++
					} else {
						pos += l
					}
				} else {
					pos += l
				}
				l -= piece
				if piece <= 0 {
					continue
				}
				ns := s + coef*gs
				if m := len(next); m > 0 && nextSlopes[m-1] == ns {
					next[m-1] += piece
				} else {
					next = append(next, piece)
					nextSlopes = append(nextSlopes, ns)
				}
			}
		}
		lens, next = next, lens
		slopes, nextSlopes = nextSlopes, slopes
	}
	ws.lens, ws.slopes, ws.lens2, ws.slopes2 = lens, slopes, next, nextSlopes

	// Q_{n−1} ∈ [max(need, start), end]: the value at the left end, then
	// descend while the slope is negative.
	q, j := start, 0
	target := math.Max(c.need, start)
	done := false
	for ; j < len(lens) && q < target; j++ {
		l, s := lens[j], slopes[j]
		if q+l <= target {
			value += l * s
			q += l
			continue
		}
		part := target - q
		value += part * s
		q = target
		if s >= 0 {
			done = true
		} else {
			value += (l - part) * s
			q += l - part
			j++
		}
		break
	}
	for ; !done && j < len(lens) && slopes[j] < 0; j++ {
		value += lens[j] * slopes[j]
		q += lens[j]
	}
	if q < target {
		q = target // rounding: the caller guarantees Σ hi ≥ need
	}
	value += c.constant

	// Back-track: stage i took the part of its own segment below Q_i.
	for i := n - 1; i >= 0; i-- {
		r := math.Max(0, math.Min(q-insAt[i], insLen[i]))
		x[i] = c.lo[i] + r
		q = math.Max(0, q-x[i])
	}
	return value
}
