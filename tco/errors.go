package tco

import (
	"errors"
	"fmt"
)

// Sentinel errors of Evaluate, Compatible, BreakEven, Sensitivity and
// Simulate. Test for them with errors.Is.
var (
	// ErrIncompatible reports a workload whose requirements the offer does not
	// meet: GPU model, memory, interconnect, isolation, jurisdiction, or spot
	// for work that tolerates no interruption.
	ErrIncompatible = errors.New("requirements not met")
	// ErrDoesNotFit reports a gang or peak that needs more nodes than the offer
	// can provide.
	ErrDoesNotFit = errors.New("does not fit")
	// ErrNotOffered reports an offer with no stock at all (fill probability 0).
	ErrNotOffered = errors.New("not offered")
	// ErrInvalidAssumptions reports a negative, NaN or out-of-range assumption.
	ErrInvalidAssumptions = errors.New("invalid assumptions")
	// ErrCurrency reports amounts in different currencies.
	ErrCurrency = errors.New("currency mismatch")
	// ErrInfeasible reports a workload that cannot finish: the expected wall
	// time overflows, typically a long job that tolerates no interruption on
	// nodes that fail.
	ErrInfeasible = errors.New("cannot finish")
)

// Check names the question a compatibility problem answers.
type Check int

// The three questions of Compatible.
const (
	// CheckRequirements: do the workload's requirements match the offer?
	CheckRequirements Check = iota
	// CheckFit: does the gang (or the peak of a service) fit the offer's stock?
	CheckFit
	// CheckOffered: is the offer in stock at all?
	CheckOffered
)

// String returns "requirements", "fit" or "offered".
func (c Check) String() string {
	switch c {
	case CheckRequirements:
		return "requirements"
	case CheckFit:
		return "fit"
	case CheckOffered:
		return "offered"
	}
	return fmt.Sprintf("check(%d)", int(c))
}

// CompatibilityError is one reason why a workload cannot run on an offer.
type CompatibilityError struct {
	// Workload and Offer name the pair.
	Workload, Offer string
	// Check is the question that failed.
	Check Check
	// Reason says what did not match, e.g. "GPU memory 24 GiB < required 80 GiB".
	Reason string
}

// Error formats the problem.
func (e *CompatibilityError) Error() string {
	return fmt.Sprintf("tco: workload %q on offer %q: %s: %s", e.Workload, e.Offer, e.Check, e.Reason)
}

// Unwrap returns ErrIncompatible, ErrDoesNotFit or ErrNotOffered by Check.
func (e *CompatibilityError) Unwrap() error {
	switch e.Check {
	case CheckFit:
		return ErrDoesNotFit
	case CheckOffered:
		return ErrNotOffered
	}
	return ErrIncompatible
}
