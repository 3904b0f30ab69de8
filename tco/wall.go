package tco

import (
	"fmt"
	"math"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// wallModel is the interruption model of a finite job on one offer, in hours.
type wallModel struct {
	tolerance workload.Tolerance
	delta     float64 // checkpoint write time δ
	fixedTau  float64 // fixed checkpoint interval; 0 = optimal
	spotRate  float64 // job-level preemptions per hour (all nodes of the gang)
	failRate  float64 // job-level node failures per hour
	spotR     float64 // time lost to restart after a preemption
	failR     float64 // time lost to recover from a failure
}

// wallResult is the outcome of wallModel.expect for ts hours of work.
type wallResult struct {
	wall        float64 // expected wall time
	tau         float64 // checkpoint interval used; 0 = none
	preemptions float64 // expected preemptions
	failures    float64 // expected node failures
}

// rates returns the job-level rates of the interruptions switched on (spot,
// fail) — preemptions ls, failures lf, both lambda, zero when their mean
// time is infinite — and the mean restart time of one interruption.
func (m wallModel) rates(spot, fail bool) (ls, lf, lambda, restart float64) {
	if spot {
		ls = m.spotRate
	}
	if fail {
		lf = m.failRate
	}
	lambda = ls + lf
	if lambda == 0 || !(1/lambda < math.MaxFloat64) {
		// A rate so small that its mean time is infinite: no interruptions.
		return 0, 0, 0, 0
	}
	return ls, lf, lambda, (ls*m.spotR + lf*m.failR) / lambda
}

// expect returns the expected wall time of ts hours of failure-free work,
// with only the interruptions switched on (spot, fail).
func (m wallModel) expect(ts float64, spot, fail bool) (wallResult, error) {
	ls, lf, lambda, restart := m.rates(spot, fail)
	res := wallResult{wall: ts}
	if ts <= 0 {
		return wallResult{}, nil
	}
	mtti := 0.0
	if lambda > 0 {
		mtti = 1 / lambda
	}
	switch m.tolerance {
	case workload.Checkpointed:
		tau := m.fixedTau
		if tau <= 0 {
			if lambda == 0 {
				break // nothing to guard against: no checkpoints
			}
			tau = dalySeconds(m.delta, mtti) // homogeneous: works in hours
		}
		// Whole segments: the last checkpoint falls at the end of the work.
		k := math.Ceil(ts / tau)
		tau = ts / k
		w, err := wallSeconds(ts, m.delta, restart, mtti, tau)
		if err != nil {
			return wallResult{}, fmt.Errorf("%w: %w", ErrInfeasible, err)
		}
		res.wall, res.tau = w, tau
	case workload.Stateless:
		if lambda > 0 {
			if restart/mtti > maxExponent {
				return wallResult{}, fmt.Errorf("tco: restart/mtti = %g: %w", restart/mtti, ErrInfeasible)
			}
			res.wall = ts * math.Exp(restart/mtti)
		}
	default: // no tolerance: a failure restarts the job from scratch
		if lambda > 0 {
			w, err := wallSeconds(ts, 0, restart, mtti, ts)
			if err != nil {
				return wallResult{}, fmt.Errorf("%w: %w", ErrInfeasible, err)
			}
			res.wall = w
		}
	}
	if math.IsInf(res.wall, 0) || math.IsNaN(res.wall) || res.wall*float64(time.Hour) >= float64(maxTime/2) {
		return wallResult{}, fmt.Errorf("tco: expected wall time %g h: %w", res.wall, ErrInfeasible)
	}
	res.preemptions = ls * res.wall
	res.failures = lf * res.wall
	return res, nil
}

// maxTime is where the package's durations saturate: about 146 years, far
// beyond any horizon worth pricing, with room to add a few of them.
const maxTime = time.Duration(math.MaxInt64 / 2)

// satAdd adds non-negative durations, saturating at maxTime.
func satAdd(ds ...time.Duration) time.Duration {
	var t time.Duration
	for _, d := range ds {
		if d >= maxTime-t {
			return maxTime
		}
		t += d
	}
	return t
}

// hoursToDuration converts hours to a Duration, saturating at maxTime.
func hoursToDuration(h float64) time.Duration {
	ns := h * float64(time.Hour)
	switch {
	case math.IsNaN(ns) || ns <= 0:
		return 0
	case ns >= float64(maxTime):
		return maxTime
	}
	return time.Duration(math.Round(ns))
}

// withLostTime returns runs followed by the runs of the time that events
// interruptions cost, extraHours node-hours in all: each interruption resumes
// on one replacement node, so the lost and repeated time is billed as
// max(1, round(events)) runs of its own on one node — not as a stretch of
// every run, which would round each of them up to the billing increment once
// more —, spread evenly over the horizon. runs is not modified.
func withLostTime(runs []provider.Run, extraHours, events float64, horizon time.Duration) []provider.Run {
	if !(extraHours > 0) {
		return runs
	}
	count := max(1, int(math.Min(math.Round(events), math.MaxInt32)))
	out := make([]provider.Run, len(runs), len(runs)+1)
	copy(out, runs)
	lost := provider.Run{Length: hoursToDuration(extraHours / float64(count)), Count: count, Nodes: 1}
	return append(out, place(lost, 0, horizon/time.Duration(count), horizon))
}

// place sets when the runs of r start: the first at first, the next ones
// every apart, moved earlier so that the last ends by the horizon's end, or
// spread evenly from the horizon's start when they do not fit at that
// spacing (back to back when even that does not fit). r is a copy.
func place(r provider.Run, first, every, horizon time.Duration) provider.Run {
	first, every = max(first, 0), max(every, 0)
	if r.Count <= 1 {
		r.Start, r.Every = min(first, max(horizon-r.Length, 0)), 0
		return r
	}
	gaps := float64(r.Count - 1)
	if span := gaps*float64(every) + float64(r.Length); span > float64(horizon) {
		first, every = 0, 0
		if horizon > r.Length {
			every = time.Duration(float64(horizon-r.Length) / gaps)
		}
	} else {
		first = min(first, time.Duration(float64(horizon)-span))
	}
	r.Start, r.Every = first, every
	return r
}

// runHours returns the node-hours of runs.
func runHours(runs []provider.Run) float64 {
	h := 0.0
	for _, r := range runs {
		h += r.Length.Hours() * float64(r.Count) * float64(r.Nodes)
	}
	return h
}
