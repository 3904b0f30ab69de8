package workload

import "time"

// Cycler is an optional interface for curves that do not repeat exactly
// (their Period is 0) but whose shape follows a cycle: a daily pattern that
// grows, or that starts at a launch. Cycle returns that cycle, or 0 for
// none. Implement it on a curve of your own that wraps a periodic one.
type Cycler interface {
	Cycle() time.Duration
}

// Cycle returns the cycle of c's shape: its Period when it repeats;
// otherwise that of the curve it wraps for Growth, Scale, Clamp, Shift and
// Window, the least common multiple of its terms' cycles for a Sum
// (Constant terms ignored), a Cycler's Cycle; 0 when it has none (or the multiple would
// overflow, or c has more than MaxCurveNodes curves in its tree: Cycle
// looks at no more). A moment and the moments a whole number of cycles from it are
// the same moment of the pattern, though the curve may differ there by a
// trend. A planner may sample one moment of each phase of the cycle —
// a demand's largest value over the phase's moments, and their mean — and
// stay on the safe side of the demand, at its volume.
func Cycle(c Curve) time.Duration {
	budget := MaxCurveNodes
	return cycle(c, &budget)
}

// cycle is Cycle of c looking at no more than budget curves (counted down).
func cycle(c Curve, budget *int) time.Duration {
	if c == nil || *budget <= 0 {
		return 0
	}
	*budget--
	if p := c.Period(); p > 0 {
		return p
	}
	switch v := c.(type) {
	case Growth:
		return cycle(v.Base, budget)
	case Scale:
		return cycle(v.Curve, budget)
	case Clamp:
		return cycle(v.Curve, budget)
	case Shift:
		return cycle(v.Curve, budget)
	case Window:
		return cycle(v.Curve, budget)
	case Sum:
		return termsLCM(v.Terms, func(t Curve) time.Duration { return cycle(t, budget) })
	case Cycler:
		return max(v.Cycle(), 0)
	}
	return 0
}
