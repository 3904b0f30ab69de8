package tco

import (
	"errors"
	"fmt"

	"github.com/gputco/gputco/internal/vocab"
	"github.com/gputco/gputco/provider"
)

// Sentinel errors of the package. Test for them with errors.Is.
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
	// ErrCurrencyMismatch reports offers compared across currencies. It is
	// provider.ErrCurrencyMismatch.
	ErrCurrencyMismatch = provider.ErrCurrencyMismatch
	// ErrCurrency is ErrCurrencyMismatch.
	//
	// Deprecated: use ErrCurrencyMismatch, the name the provider package uses.
	ErrCurrency = ErrCurrencyMismatch
	// ErrInfeasible reports a workload that cannot finish: the expected wall
	// time overflows, typically a long job that tolerates no interruption on
	// nodes that fail.
	ErrInfeasible = errors.New("cannot finish")
	// ErrTooManyEvents reports a simulation that would draw more random
	// interruptions than Simulate allows in one call.
	ErrTooManyEvents = errors.New("too many random events to simulate")

	// ErrInvalidCheckpoint reports a checkpoint, restart, interruption or work
	// duration that is negative, or zero where zero has no meaning.
	ErrInvalidCheckpoint = errors.New("invalid checkpoint parameter")
	// ErrDurationOverflow reports a result that is not finite or does not fit
	// in a time.Duration (about 292 years).
	ErrDurationOverflow = errors.New("duration overflow")
	// ErrInvalidTrace reports a spot-availability trace, or trace parameters,
	// that cannot be used: a non-positive step, an availability outside
	// [0, 1], too many steps.
	ErrInvalidTrace = errors.New("invalid spot trace")
	// ErrInvalidDeadlineJob reports a DeadlineJob that cannot be simulated.
	ErrInvalidDeadlineJob = errors.New("invalid deadline job")
	// ErrNotFinite reports a derived quantity that is NaN or infinite, which
	// no money amount can be made of. It is provider.ErrNotFinite.
	ErrNotFinite = provider.ErrNotFinite
	// ErrNotPrepared reports a nil or zero Prepared: build one with Prepare.
	ErrNotPrepared = errors.New("workload not prepared")
	// ErrInvalidPolicyChoice reports a Policy that chose spot while spot was
	// unavailable, chose an unknown Instance, or was nil.
	ErrInvalidPolicyChoice = errors.New("invalid policy choice")
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
	return fmt.Sprintf("tco: workload %s on offer %s: %s: %s", quoted(e.Workload), quoted(e.Offer), e.Check, e.Reason)
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

// quoted returns s quoted for an error message, cut as cut cuts: a name or
// ID of any length is echoed in a bounded message.
func quoted(s string) string { return vocab.Echo(s) }

// cut returns s cut to provider.MaxEchoBytes bytes, at a character
// boundary, followed by "…" and its length; s itself when short enough.
func cut(s string) string { return vocab.Cut(s) }
