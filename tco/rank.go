package tco

import (
	"fmt"
	"slices"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// Ranking is the outcome of Rank: the offers a workload can run on, cheapest
// first, and the others with the reason each was excluded.
type Ranking struct {
	// Reports are the reports of the offers the workload can run on, by
	// present value ascending; ties by total, then by offer ID.
	Reports []Report
	// Excluded are the other offers, in the order given, each with the error
	// that excluded it: a *CompatibilityError (or several joined) whose
	// Check says which question failed, the offer's validation problems, or
	// ErrInfeasible.
	Excluded []Exclusion
}

// Exclusion is an offer that Rank excluded and why.
type Exclusion struct {
	// Offer is the offer's ID.
	Offer string
	// Err is the error Evaluate returned for it.
	Err error
}

// Error formats the exclusion as its error.
func (e Exclusion) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e Exclusion) Unwrap() error { return e.Err }

// Rank evaluates w on every offer under a and returns the compatible
// offers' reports, cheapest first by present value, and every other offer
// with the error that excluded it. Only a problem of w or a (as Prepare
// reports it), or offers in more than one currency (ErrCurrencyMismatch: the package
// does no exchange), is an error. It does not modify its arguments.
func Rank(w workload.Workload, offers []provider.Offer, a Assumptions) (Ranking, error) {
	p, err := Prepare(w, a)
	if err != nil {
		return Ranking{}, err
	}
	return p.Rank(offers)
}

// Rank is the package-level Rank for the prepared workload.
func (p *Prepared) Rank(offers []provider.Offer) (Ranking, error) {
	if err := p.check(); err != nil {
		return Ranking{}, err
	}
	currency := ""
	for _, o := range offers {
		if o.Currency == "" {
			continue
		}
		if currency != "" && o.Currency != currency {
			return Ranking{}, fmt.Errorf("tco: rank: offers in %s and %s: %w", currency, o.Currency, ErrCurrencyMismatch)
		}
		currency = o.Currency
	}
	var r Ranking
	r.Reports = make([]Report, 0, len(offers))
	for _, o := range offers {
		rep, err := p.Evaluate(o)
		if err != nil {
			r.Excluded = append(r.Excluded, Exclusion{Offer: o.ID, Err: err})
			continue
		}
		r.Reports = append(r.Reports, rep)
	}
	slices.SortStableFunc(r.Reports, func(x, y Report) int {
		if c := x.PresentValue.Cmp(y.PresentValue); c != 0 {
			return c
		}
		if c := x.Total.Cmp(y.Total); c != 0 {
			return c
		}
		switch {
		case x.Offer < y.Offer:
			return -1
		case x.Offer > y.Offer:
			return 1
		}
		return 0
	})
	return r, nil
}
