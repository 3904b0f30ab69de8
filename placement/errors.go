package placement

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gputco/gputco/tco"
)

// Sentinel errors of the package. Test for them with errors.Is.
var (
	// ErrInvalid reports a Problem whose options, workloads or offers cannot
	// be planned as given; the error names the field and the value.
	ErrInvalid = errors.New("placement: invalid problem")
	// ErrInfeasible reports a portfolio that no plan satisfies: the placed
	// workloads together exceed the stock, or the budget is too small.
	ErrInfeasible = errors.New("placement: infeasible")
	// ErrNoOffer reports a workload that no offer can take (see Unplaced).
	ErrNoOffer = errors.New("placement: no offer can take the workload")
	// ErrGang reports a gang job (a finite job that tolerates no
	// interruption, or one with a range of gang sizes) in a plan that is
	// not over time: it needs one offer for its whole gang in a window
	// before its deadline, which only a plan over time (Options.OverTime)
	// models.
	ErrGang = errors.New("placement: gang jobs are placed only when planning over time")
	// ErrDeadline reports a job that cannot do its work before its deadline
	// even at its full width on its fastest offer.
	ErrDeadline = errors.New("placement: cannot finish before the deadline")
	// ErrHorizon reports a job that cannot do its work within the horizon
	// (Assumptions.Horizon) even at its full width on its fastest offer: a
	// job without a deadline, or whose deadline is past the horizon's end,
	// which is then the limit that excludes it.
	ErrHorizon = errors.New("placement: cannot finish within the horizon")
	// ErrStock reports a service whose peak exceeds the stock of every offer
	// it can use, together, or a gang job left out because the gangs that
	// share its capacity cannot all fit on it (the fewest are left out).
	ErrStock = errors.New("placement: not enough stock")
	// ErrLeadTime reports capacity that does not exist when it is needed:
	// an offer whose lead time reaches the horizon's end, or (planning over
	// time) a service whose demand before the lead times of its offers
	// exceeds what exists then.
	ErrLeadTime = errors.New("placement: capacity does not exist yet")
	// ErrCurrency reports offers in more than one currency.
	ErrCurrency = errors.New("placement: offers in more than one currency")
	// ErrTimeLimit reports a solve that reached Options.TimeLimit before
	// it knew any plan (reaching it with a plan is no error: the plan's
	// Status is Feasible).
	ErrTimeLimit = errors.New("placement: time limit reached")
	// ErrTooLarge reports a model with more columns than
	// Options.MaxColumns allows: it was not built.
	ErrTooLarge = errors.New("placement: model too large")
	// ErrSolver reports a solve that ended without a usable answer: a
	// numerical failure of the solver, or an external solver that could not
	// run or whose output could not be read.
	ErrSolver = errors.New("placement: solver failed")
)

// UnplacedError says why no offer could take a workload: the error of every
// offer that excluded it, and, when one question excluded them all, which.
type UnplacedError struct {
	// Workload names the workload.
	Workload string
	// Excluded lists every offer with the error that excluded it (a
	// *tco.CompatibilityError or several joined, or the offer's terms error).
	Excluded []tco.Exclusion
	// Check is the question that failed for every offer, when one did
	// (Common reports whether there is one).
	Check  tco.Check
	Common bool
	// Err, when set, excludes the workload whatever the offers (ErrGang).
	Err error
}

// Error names the workload and the constraint that excluded every offer.
func (e *UnplacedError) Error() string {
	switch {
	case e.Err != nil:
		return fmt.Sprintf("placement: workload %q: %s", e.Workload, strings.TrimPrefix(e.Err.Error(), "placement: "))
	case len(e.Excluded) == 0:
		return fmt.Sprintf("placement: workload %q: no offers", e.Workload)
	case e.Common:
		return fmt.Sprintf("placement: workload %q: every offer (%d) fails the %s check; first: %v",
			e.Workload, len(e.Excluded), e.Check, e.Excluded[0].Err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "placement: workload %q: every offer (%d) excluded:", e.Workload, len(e.Excluded))
	for i, x := range e.Excluded {
		if i == 3 {
			fmt.Fprintf(&b, "; … and %d more", len(e.Excluded)-3)
			break
		}
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %v", x.Err)
	}
	return b.String()
}

// Unwrap returns ErrNoOffer and the errors it names, so that errors.Is
// finds tco.ErrIncompatible, tco.ErrNotOffered or ErrGang.
func (e *UnplacedError) Unwrap() []error {
	errs := []error{ErrNoOffer}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	for _, x := range e.Excluded {
		errs = append(errs, x.Err)
	}
	return errs
}
