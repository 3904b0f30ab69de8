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

// segment is one piece of a convex piecewise-linear function.
type segment struct{ length, slope float64 }

// builder appends segments to a function truncated at a length budget,
// merging neighbours of equal slope.
type builder struct {
	segs []segment
	room float64 // length still allowed before the truncation point
}

func (b *builder) emit(l, s float64) {
	if l > b.room {
		l = b.room
	}
	if l <= 0 {
		return
	}
	b.room -= l
	if n := len(b.segs); n > 0 && b.segs[n-1].slope == s {
		b.segs[n-1].length += l
		return
	}
	b.segs = append(b.segs, segment{l, s})
}

// solve runs the dynamic programme forward and back-tracks the optimal
// increments into x; it returns the optimal value.
//
// The state g_i is a convex piecewise-linear function of Q on
// [start, start+Σ lengths], stored as its value at start and its segments
// in ascending slope order. One pass over g_{i−1} builds g_i: it adds
// coef_{i−1}·G_{i−1} (splitting segments at the ends of G), shifts by lo_i
// and inserts the segment (hi_i − lo_i, slope_i) after every segment of
// slope ≤ slope_i — the infimal convolution with slope_i·x on [lo_i, hi_i] —
// truncating at limit.
func (c *chain) solve(x []float64, ws *workspace) float64 {
	n := len(c.slope)
	if cap(ws.insAt) < n {
		ws.insAt, ws.insLen = make([]float64, n), make([]float64, n)
	}
	insAt, insLen := ws.insAt[:n], ws.insLen[:n]
	start, value := 0.0, 0.0
	cur := ws.segs[:0]
	out := builder{segs: ws.segs2[:0]}
	for i := range n {
		f := c.slope[i]
		var coef float64
		var g curve
		if i > 0 {
			coef = c.coef[i-1]
		}
		if coef != 0 {
			g = c.curve(i - 1)
			value += coef * g.at(start)
		}
		inPos := start
		start += c.lo[i]
		value += f * c.lo[i]
		out.segs, out.room = out.segs[:0], c.limit-start
		seg := c.hi[i] - c.lo[i]
		if seg > out.room {
			seg = out.room
		}
		if seg < 0 {
			seg = 0
		}
		inserted := false
		insert := func() {
			inserted = true
			insAt[i] = c.limit - out.room
			insLen[i] = min(seg, out.room)
			out.emit(seg, f)
		}
		e := 0
		if coef != 0 {
			e = sort.SearchFloat64s(g.ends, inPos) // first end ≥ inPos
			if e < len(g.ends) && g.ends[e] == inPos {
				e++
			}
		}
	segments:
		for _, sg := range cur {
			l, s := sg.length, sg.slope
			if coef == 0 {
				if !inserted && s > f {
					insert()
				}
				out.emit(l, s)
				if out.room <= 0 {
					break
				}
				continue
			}
			for l > 0 {
				piece, gs := l, 0.0
				if e < len(g.ends) {
					gs = g.slopes[e]
					if b := g.ends[e] - inPos; l >= b {
						piece = b
						inPos = g.ends[e]
						e++
					} else {
						inPos += l
					}
				} else {
					inPos += l
				}
				l -= piece
				ns := s + coef*gs
				if !inserted && ns > f {
					insert()
				}
				out.emit(piece, ns)
				if out.room <= 0 {
					break segments
				}
			}
		}
		if !inserted {
			insert()
		}
		cur, out.segs = out.segs, cur
		ws.segments = max(ws.segments, len(cur))
	}
	ws.segs, ws.segs2 = cur, out.segs

	// Q_{n−1} ∈ [max(need, start), end]: the value at the left end, then
	// descend while the slope is negative.
	q, j := start, 0
	target := math.Max(c.need, start)
	done := false
	for ; j < len(cur) && q < target; j++ {
		l, s := cur[j].length, cur[j].slope
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
	for ; !done && j < len(cur) && cur[j].slope < 0; j++ {
		value += cur[j].length * cur[j].slope
		q += cur[j].length
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
