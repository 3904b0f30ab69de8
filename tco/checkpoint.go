package tco

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// maxExponent bounds the exponent of e in the wall-time formulas. Past it the
// result certainly exceeds the largest time.Duration whatever the other
// inputs (the smallest possible prefactor is about 1e-28 s, e^700 ≈ 1e304).
const maxExponent = 700

// YoungInterval returns Young's (1974) first-order optimum checkpoint
// interval τ = √(2δM) for a job whose checkpoint takes delta (δ) and whose
// mean time to interruption is mtti (M).
//
// Both delta and mtti must be positive. The result is rounded to the nearest
// nanosecond and is at least 1 ns; a result that does not fit in a
// time.Duration returns an error wrapping [ErrDurationOverflow]. Invalid inputs
// return every problem joined, each wrapping [ErrInvalidCheckpoint].
func YoungInterval(delta, mtti time.Duration) (time.Duration, error) {
	if err := validateIntervalInputs(delta, mtti); err != nil {
		return 0, err
	}
	return checkpointDuration("Young interval", youngSeconds(delta.Seconds(), mtti.Seconds()), true)
}

// DalyInterval returns Daly's (2006) higher-order estimate of the optimum
// checkpoint interval for a job whose checkpoint takes delta (δ) and whose
// mean time to interruption is mtti (M):
//
//	τ = √(2δM)·[1 + ⅓·√(δ/2M) + (δ/2M)/9] − δ   for δ < 2M,
//	τ = M                                       for δ ≥ 2M.
//
// The interval is compute time between the ends of two checkpoints, excluding
// the checkpoint itself; it minimises [ExpectedWallTime] to within a fraction
// of a percent when δ ≪ M. Young's √(2δM) ([YoungInterval]) is its first term.
//
// Both delta and mtti must be positive. The result is rounded to the nearest
// nanosecond and is at least 1 ns; a result that does not fit in a
// time.Duration returns an error wrapping [ErrDurationOverflow]. Invalid inputs
// return every problem joined, each wrapping [ErrInvalidCheckpoint].
func DalyInterval(delta, mtti time.Duration) (time.Duration, error) {
	if err := validateIntervalInputs(delta, mtti); err != nil {
		return 0, err
	}
	// 2·mtti overflows past MaxInt64/2, where it certainly exceeds delta.
	if mtti <= math.MaxInt64/2 && delta >= 2*mtti {
		return mtti, nil
	}
	return checkpointDuration("Daly interval", dalySeconds(delta.Seconds(), mtti.Seconds()), true)
}

// ExpectedWallTime returns the expected wall-clock time of a checkpointed job
// that needs work (T_s, solve time without checkpoints or interruptions),
// writes a checkpoint taking delta (δ) after every tau (τ) of work, needs
// restart (R) to resume after an interruption, and is interrupted as a Poisson
// process with mean time to interruption mtti (M). It is Daly's (2006)
// formula
//
//	T_w = M·e^{R/M}·(e^{(τ+δ)/M} − 1)·T_s/τ,
//
// which counts T_s/τ segments (a fraction of one included) and lets
// interruptions strike during work, checkpoints and restarts alike.
//
// mtti == 0 means no interruptions: T_w = T_s + (T_s/τ)·δ, the failure-free
// time plus the checkpoint overhead, which is also the limit of the formula as
// M → ∞. work == 0 gives 0.
//
// Preconditions: work, delta, restart and mtti ≥ 0; tau > 0. Invalid inputs
// return every problem joined, each wrapping [ErrInvalidCheckpoint]. A result
// that is not finite or does not fit in a time.Duration returns an error
// wrapping [ErrDurationOverflow]. The result is rounded to the nearest
// nanosecond.
func ExpectedWallTime(work, delta, restart, mtti, tau time.Duration) (time.Duration, error) {
	var errs []error
	errs = checkpointNonNegative(errs, "work", work)
	errs = checkpointNonNegative(errs, "checkpoint time delta", delta)
	errs = checkpointNonNegative(errs, "restart time", restart)
	errs = checkpointNonNegative(errs, "mean time to interruption", mtti)
	if tau <= 0 {
		errs = append(errs, fmt.Errorf("tco: checkpoint interval tau = %v must be positive: %w", tau, ErrInvalidCheckpoint))
	}
	if len(errs) > 0 {
		return 0, errors.Join(errs...)
	}
	if work == 0 {
		return 0, nil
	}
	s, err := wallSeconds(work.Seconds(), delta.Seconds(), restart.Seconds(), mtti.Seconds(), tau.Seconds())
	if err != nil {
		return 0, err
	}
	return checkpointDuration("expected wall time", s, false)
}

// StatelessWallTime returns the expected wall-clock time of work that keeps no
// checkpoint but is made of independent tasks of length taskLen (L): an
// interruption loses the task in progress, and every resumption costs restart
// (R). Interruptions are a Poisson process with mean time to interruption mtti
// (M) and may also strike during a restart. By the renewal argument one task
// takes M·e^{R/M}·(e^{L/M} − 1) on average, so
//
//	T_w = M·e^{R/M}·(e^{L/M} − 1)·T_s/L,
//
// which is [ExpectedWallTime] with free checkpoints (δ = 0) at every task
// boundary. A taskLen longer than work is treated as work (the job is one
// task). taskLen == 0 means infinitely divisible work that loses only restarts:
// T_w = T_s·e^{R/M}, the limit as L → 0. mtti == 0 means no interruptions:
// T_w = T_s exactly. work == 0 gives 0.
//
// Preconditions: work, restart, mtti and taskLen ≥ 0. Invalid inputs return
// every problem joined, each wrapping [ErrInvalidCheckpoint]. A result that is
// not finite or does not fit in a time.Duration returns an error wrapping
// [ErrDurationOverflow]. The result is rounded to the nearest nanosecond.
func StatelessWallTime(work, restart, mtti, taskLen time.Duration) (time.Duration, error) {
	var errs []error
	errs = checkpointNonNegative(errs, "work", work)
	errs = checkpointNonNegative(errs, "restart time", restart)
	errs = checkpointNonNegative(errs, "mean time to interruption", mtti)
	errs = checkpointNonNegative(errs, "task length", taskLen)
	if len(errs) > 0 {
		return 0, errors.Join(errs...)
	}
	if work == 0 || mtti == 0 {
		return work, nil
	}
	if taskLen > work {
		taskLen = work
	}
	if taskLen > 0 {
		s, err := wallSeconds(work.Seconds(), 0, restart.Seconds(), mtti.Seconds(), taskLen.Seconds())
		if err != nil {
			return 0, err
		}
		return checkpointDuration("stateless wall time", s, false)
	}
	a := restart.Seconds() / mtti.Seconds()
	if a > maxExponent {
		return 0, fmt.Errorf("tco: stateless wall time: restart/mtti = %g: %w", a, ErrDurationOverflow)
	}
	return checkpointDuration("stateless wall time", work.Seconds()*math.Exp(a), false)
}

// youngSeconds is √(2δM) in seconds.
func youngSeconds(delta, mtti float64) float64 {
	return math.Sqrt(2 * delta * mtti)
}

// dalySeconds is Daly's interval in seconds for delta, mtti > 0.
func dalySeconds(delta, mtti float64) float64 {
	if delta >= 2*mtti {
		return mtti
	}
	r := delta / (2 * mtti)
	return youngSeconds(delta, mtti)*(1+math.Sqrt(r)/3+r/9) - delta
}

// wallSeconds is Daly's expected wall time in seconds for finite,
// non-negative inputs with tau > 0; mtti == 0 means no interruptions.
func wallSeconds(work, delta, restart, mtti, tau float64) (float64, error) {
	segments := work / tau
	if mtti == 0 {
		return work + segments*delta, nil
	}
	a, x := restart/mtti, (tau+delta)/mtti
	if a+x > maxExponent {
		return 0, fmt.Errorf("tco: expected wall time: (restart+tau+delta)/mtti = %g: %w", a+x, ErrDurationOverflow)
	}
	// Expm1 keeps M·(e^{x}−1) ≈ τ+δ exact when M ≫ τ+δ.
	return mtti * math.Exp(a) * math.Expm1(x) * segments, nil
}

// checkpointDuration converts s seconds to a Duration rounded to the nearest
// nanosecond, or an overflow error; atLeastOne lifts a positive result below
// half a nanosecond to 1 ns.
func checkpointDuration(what string, s float64, atLeastOne bool) (time.Duration, error) {
	ns := math.Round(s * 1e9)
	if math.IsNaN(ns) || math.IsInf(ns, 0) || ns >= math.MaxInt64 || ns < 0 {
		return 0, fmt.Errorf("tco: %s = %g s: %w", what, s, ErrDurationOverflow)
	}
	d := time.Duration(ns)
	if atLeastOne && d < 1 {
		d = 1
	}
	return d, nil
}

func validateIntervalInputs(delta, mtti time.Duration) error {
	var errs []error
	if delta <= 0 {
		errs = append(errs, fmt.Errorf("tco: checkpoint time delta = %v must be positive: %w", delta, ErrInvalidCheckpoint))
	}
	if mtti <= 0 {
		errs = append(errs, fmt.Errorf("tco: mean time to interruption = %v must be positive: %w", mtti, ErrInvalidCheckpoint))
	}
	return errors.Join(errs...)
}

func checkpointNonNegative(errs []error, name string, d time.Duration) []error {
	if d < 0 {
		errs = append(errs, fmt.Errorf("tco: %s = %v must not be negative: %w", name, d, ErrInvalidCheckpoint))
	}
	return errs
}
