package merit

import (
	"math"
	"sort"
)

// pool is a validated problem prepared for the dynamic programme: the
// load-duration curve and the offers in merit order.
type pool struct {
	p      Problem
	ldc    LoadDuration
	order  []int     // order[i] is the offer at merit position i
	fixed  []float64 // F, in merit order
	vari   []float64 // v, in merit order
	limit  []float64 // usable L, in merit order
	peak   float64   // P = max_t d_t
	energy float64   // H(P) = Σ_t Δ_t·d_t
}

// newPool validates p, checks that the stock covers the peak and sorts the
// offers into merit order: v ascending, ties by F ascending, then by index.
func newPool(p Problem) (*pool, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	k := len(p.Offers)
	pl := &pool{p: p, ldc: NewLoadDuration(p), order: make([]int, k)}
	for i := range pl.order {
		pl.order[i] = i
	}
	sort.SliceStable(pl.order, func(a, b int) bool {
		oa, ob := p.Offers[pl.order[a]], p.Offers[pl.order[b]]
		if oa.VariablePerGPUHour != ob.VariablePerGPUHour {
			return oa.VariablePerGPUHour < ob.VariablePerGPUHour
		}
		return oa.FixedPerGPU < ob.FixedPerGPU
	})
	pl.fixed = make([]float64, k)
	pl.vari = make([]float64, k)
	pl.limit = make([]float64, k)
	stock := 0.0
	for i, o := range pl.order {
		off := p.Offers[o]
		pl.fixed[i] = off.FixedPerGPU
		pl.vari[i] = off.VariablePerGPUHour
		pl.limit[i] = off.usableLimit()
		stock += pl.limit[i]
	}
	pl.peak = pl.ldc.PeakGPUs()
	pl.energy = pl.ldc.Energy(pl.peak)
	if stock < pl.peak {
		return nil, &InfeasibleError{PeakGPUs: pl.peak, StockGPUs: stock, ShortfallGPUs: pl.peak - stock}
	}
	return pl, nil
}

// workspace holds the buffers of one DP run, reused across the runs of a
// branch-and-bound search.
type workspace struct {
	lens, slopes   []float64 // the current convex function's segments
	lens2, slopes2 []float64 // the next one's
	insAt, insLen  []float64 // per stage: where the stage's segment went
}

func newWorkspace(k int) *workspace {
	return &workspace{insAt: make([]float64, k), insLen: make([]float64, k)}
}

// relax solves the divisible chain problem with box constraints
// lo_i ≤ x_i ≤ hi_i on the capacity of the offer at merit position i (see
// the package documentation for the derivation). It returns the capacities
// x (merit order, written into x), the optimal cost, and false when
// Σ hi < P (infeasible box).
//
// The state is a convex piecewise-linear function f of the cumulative
// capacity Q on [start, start+Σlens], stored as its value at start and its
// segments (length, slope) in ascending slope order.
func (pl *pool) relax(lo, hi, x []float64, ws *workspace) (float64, bool) {
	k := len(pl.order)
	total, lower := 0.0, 0.0
	for i := 0; i < k; i++ {
		total += hi[i]
		lower += lo[i]
	}
	if total < pl.peak {
		return 0, false
	}
	// Some optimum has Q_K ≤ P + Σ lo (offers above the peak held at their
	// lower bound), so the domain is truncated there.
	limit := pl.peak + lower
	levels, durations := pl.ldc.LevelGPUs, pl.ldc.DurationHours
	start, value := 0.0, 0.0
	lens, slopes := ws.lens[:0], ws.slopes[:0]
	next, nextSlopes := ws.lens2[:0], ws.slopes2[:0]
	for i := 0; i < k; i++ {
		f := pl.fixed[i]
		start += lo[i]
		value += f * lo[i]
		seg := math.Min(hi[i]-lo[i], limit-start)
		if seg < 0 {
			seg = 0
		}
		// Infimal convolution with F·x on [lo, hi]: insert the segment
		// (seg, F) after every segment of slope ≤ F; truncate at limit.
		next, nextSlopes = next[:0], nextSlopes[:0]
		pos, inserted := start, false
		room := limit - start
		for j := 0; j <= len(lens) && room > 0; j++ {
			if !inserted && (j == len(lens) || slopes[j] > f) {
				inserted = true
				ws.insAt[i] = pos
				l := math.Min(seg, room)
				ws.insLen[i] = l
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
			ws.insAt[i], ws.insLen[i] = pos, 0
		}
		lens, next = next, lens
		slopes, nextSlopes = nextSlopes, slopes
		if i == k-1 {
			break
		}
		// Add ψ_i(Q) = (v_i − v_{i+1})·H(Q): split segments at the levels
		// and add c·h on each piece; merge equal neighbouring slopes.
		c := pl.vari[i] - pl.vari[i+1]
		if c == 0 {
			continue
		}
		value += c * pl.ldc.Energy(start)
		next, nextSlopes = next[:0], nextSlopes[:0]
		pos = start
		lv := sort.SearchFloat64s(levels, pos) // first level ≥ pos
		if lv < len(levels) && levels[lv] == pos {
			lv++
		}
		for j := range lens {
			l, s := lens[j], slopes[j]
			for l > 0 {
				var piece, h float64
				if lv < len(levels) {
					h = durations[lv]
					if b := levels[lv] - pos; l >= b {
						piece = b
						pos = levels[lv]
						lv++
					} else {
						piece = l
						pos += l
					}
				} else {
					piece = l
					pos += l
				}
				l -= piece
				if piece <= 0 {
					continue
				}
				ns := s + c*h
				if n := len(next); n > 0 && nextSlopes[n-1] == ns {
					next[n-1] += piece
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

	// Q_K ∈ [max(P, start), end]: value at the left end, then descend
	// while the slope is negative.
	q, j := start, 0
	target := math.Max(pl.peak, start)
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
		q = target // rounding: the stock covers the peak by the check above
	}
	value += pl.vari[k-1] * pl.energy

	// Back-track the capacities.
	for i := k - 1; i >= 0; i-- {
		r := q - ws.insAt[i]
		if r < 0 {
			r = 0
		} else if r > ws.insLen[i] {
			r = ws.insLen[i]
		}
		x[i] = lo[i] + r
		q -= x[i]
		if q < 0 {
			q = 0
		}
	}
	return value, true
}
