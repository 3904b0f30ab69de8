package merit

import "sort"

// LoadDuration is the load-duration curve of a demand curve: demand sorted
// from the highest slice down, cut into horizontal layers. Layer i covers
// the heights (LevelGPUs[i−1], LevelGPUs[i]] (LevelGPUs[−1] = 0) and is
// needed for DurationHours[i] hours: the total length of the slices whose
// demand reaches LevelGPUs[i]. Levels are the distinct positive demands in
// ascending order, so durations strictly decrease.
type LoadDuration struct {
	LevelGPUs     []float64
	DurationHours []float64
}

// NewLoadDuration returns the load-duration curve of p's demand. It does not
// validate p: call Problem.Validate first.
func NewLoadDuration(p Problem) LoadDuration {
	idx := make([]int, len(p.DemandGPUs))
	for t := range idx {
		idx[t] = t
	}
	sort.Slice(idx, func(a, b int) bool {
		da, db := p.DemandGPUs[idx[a]], p.DemandGPUs[idx[b]]
		if da != db {
			return da > db
		}
		return idx[a] < idx[b]
	})
	var levels, durations []float64
	hours := 0.0
	for i := 0; i < len(idx); {
		d := p.DemandGPUs[idx[i]]
		if d <= 0 {
			break
		}
		for i < len(idx) && p.DemandGPUs[idx[i]] == d {
			hours += p.hours(idx[i])
			i++
		}
		levels = append(levels, d)
		durations = append(durations, hours)
	}
	// Built top-down; store bottom-up.
	for i, j := 0, len(levels)-1; i < j; i, j = i+1, j-1 {
		levels[i], levels[j] = levels[j], levels[i]
		durations[i], durations[j] = durations[j], durations[i]
	}
	return LoadDuration{LevelGPUs: levels, DurationHours: durations}
}

// PeakGPUs is the highest demand (0 when there is none).
func (c LoadDuration) PeakGPUs() float64 {
	if len(c.LevelGPUs) == 0 {
		return 0
	}
	return c.LevelGPUs[len(c.LevelGPUs)-1]
}

// Hours is h(y): for how many hours demand exceeds the height y GPUs, taken
// as the duration of the layer just above y (h is right-continuous on the
// layers: Hours(LevelGPUs[i]) is the duration of layer i+1, 0 at and above
// the peak; Hours(0) below 0).
func (c LoadDuration) Hours(y float64) float64 {
	i := sort.SearchFloat64s(c.LevelGPUs, y) // first level ≥ y
	if i < len(c.LevelGPUs) && c.LevelGPUs[i] == y {
		i++
	}
	if i >= len(c.LevelGPUs) {
		return 0
	}
	return c.DurationHours[i]
}

// Energy is H(y) = ∫_0^y h(u) du: the GPU-hours of demand below the height y
// (concave and nondecreasing in y; H(peak) is the total GPU-hours). Negative
// y gives 0.
func (c LoadDuration) Energy(y float64) float64 {
	if y <= 0 {
		return 0
	}
	e, lo := 0.0, 0.0
	for i, l := range c.LevelGPUs {
		if y <= l {
			return e + (y-lo)*c.DurationHours[i]
		}
		e += (l - lo) * c.DurationHours[i]
		lo = l
	}
	return e
}

// slopes returns h((y−tol)−) and h((y+tol)+): the widest one-sided slopes
// of H within tol of y, so that [above, below] contains the
// superdifferential of H at every point of [y−tol, y+tol]. h(0−) is the
// duration of the first layer (H extended linearly below 0). Used by the
// dual construction, where tol absorbs the rounding of cumulative sums.
func (c LoadDuration) slopes(y, tol float64) (below, above float64) {
	n := len(c.LevelGPUs)
	if n == 0 {
		return 0, 0
	}
	i := sort.SearchFloat64s(c.LevelGPUs, y-tol) // first level ≥ y−tol
	if i < n {
		below = c.DurationHours[i]
	}
	j := sort.Search(n, func(j int) bool { return c.LevelGPUs[j] > y+tol })
	if j < n {
		above = c.DurationHours[j]
	}
	return below, above
}
