package tco

import (
	"fmt"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// Outcome says how a break-even search ended.
type Outcome int

// Break-even outcomes.
const (
	// Crossover: renting is cheaper below Utilization and owning above it.
	Crossover Outcome = iota
	// OwnAlwaysCheaper: owning costs no more than renting even at (almost) zero utilization.
	OwnAlwaysCheaper
	// RentAlwaysCheaper: renting is cheaper even at full utilization.
	RentAlwaysCheaper
)

// String returns "crossover", "own always cheaper" or "rent always cheaper".
func (o Outcome) String() string {
	switch o {
	case Crossover:
		return "crossover"
	case OwnAlwaysCheaper:
		return "own always cheaper"
	case RentAlwaysCheaper:
		return "rent always cheaper"
	}
	return fmt.Sprintf("outcome(%d)", int(o))
}

// BreakEvenPoint is the result of BreakEven.
type BreakEvenPoint struct {
	// Outcome says whether the costs cross within (0, 1].
	Outcome Outcome
	// Utilization is the break-even utilization u*: the fraction of each day
	// the workload runs at its peak for which both offers cost the same. It is
	// 0 when owning always wins and 1 when renting always wins.
	Utilization float64
	// Rent and Own are the present values of the two offers at Utilization.
	Rent, Own decimal.Decimal
	// Month is the first month (1-based) from which the cumulative cash
	// spent on owning stays at or below the cumulative cash spent on renting
	// until the horizon's end, at utilization MonthUtilization; 0 if never.
	Month int
	// MonthUtilization is the utilization Month refers to: the assumptions'
	// Utilization if set, otherwise full utilization.
	MonthUtilization float64
}

// breakEvenTolerance is the precision of the bisection on utilization.
const breakEvenTolerance = 1e-7

// minUtilization stands for "almost idle" in BreakEven (Utilization 0 means
// "use the demand curve" to Evaluate).
const minUtilization = 1e-9

// BreakEven finds the utilization at which owning (or committing to) own
// costs as much as renting rent over the horizon, comparing present values
// (equal to totals without discounting). The workload runs at its peak GPUs
// (w.GPUs) for a fraction u of every day and is idle the rest; a finite job is
// treated the same way, as standing capacity for w.GPUs. Its requirements,
// data and setup apply as in Evaluate. The horizon is a.Horizon, or the
// workload's.
//
// Rent's cost grows with u (billed time) while own's is mostly fixed, so the
// difference is found by bisection to within 1e-7; BreakEven reports
// OwnAlwaysCheaper or RentAlwaysCheaper when there is no crossing in (0, 1].
//
// The same call finds the month from which owning has cost less cash than
// renting, at a.Utilization (or 1 when unset). Offers that state different
// currencies are an error wrapping ErrCurrency; the package does no exchange.
func BreakEven(w workload.Workload, rent, own provider.Offer, a Assumptions) (BreakEvenPoint, error) {
	if err := a.Validate(); err != nil {
		return BreakEvenPoint{}, err
	}
	if rent.Currency != "" && own.Currency != "" && rent.Currency != own.Currency {
		return BreakEvenPoint{}, fmt.Errorf("tco: break-even of %s (%s) against %s (%s): %w",
			quoted(rent.ID), quoted(rent.Currency), quoted(own.ID), quoted(own.Currency), ErrCurrency)
	}
	sw := w
	if !sw.IsService() {
		sw.Demand = workload.Constant{Value: 1}
		sw.WorkGPUHours = 0
		sw.Deadline = 0
	}
	if a.Horizon > 0 {
		sw.Horizon = a.Horizon
	}
	if sw.Horizon <= 0 {
		return BreakEvenPoint{}, fmt.Errorf("tco: break-even for %s: horizon required: %w", quoted(w.Name), ErrInvalidAssumptions)
	}
	costs := func(u float64) (r, o Report, err error) {
		au := a
		au.Utilization = u
		if r, err = Evaluate(sw, rent, au); err != nil {
			return r, o, err
		}
		o, err = Evaluate(sw, own, au)
		return r, o, err
	}
	// diff returns the sign of own − rent at u.
	diff := func(u float64) (int, Report, Report, error) {
		r, o, err := costs(u)
		if err != nil {
			return 0, r, o, err
		}
		return o.PresentValue.Cmp(r.PresentValue), r, o, nil
	}
	var res BreakEvenPoint
	lo, hi := minUtilization, 1.0
	dlo, rlo, olo, err := diff(lo)
	if err != nil {
		return BreakEvenPoint{}, err
	}
	dhi, rhi, ohi, err := diff(hi)
	if err != nil {
		return BreakEvenPoint{}, err
	}
	switch {
	case dlo <= 0:
		res = BreakEvenPoint{Outcome: OwnAlwaysCheaper, Utilization: 0, Rent: rlo.PresentValue, Own: olo.PresentValue}
	case dhi > 0:
		res = BreakEvenPoint{Outcome: RentAlwaysCheaper, Utilization: 1, Rent: rhi.PresentValue, Own: ohi.PresentValue}
	default:
		for hi-lo > breakEvenTolerance {
			mid := (lo + hi) / 2
			d, _, _, err := diff(mid)
			if err != nil {
				return BreakEvenPoint{}, err
			}
			if d > 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		u := (lo + hi) / 2
		_, r, o, err := diff(u)
		if err != nil {
			return BreakEvenPoint{}, err
		}
		res = BreakEvenPoint{Outcome: Crossover, Utilization: u, Rent: r.PresentValue, Own: o.PresentValue}
	}

	res.MonthUtilization = a.Utilization
	if res.MonthUtilization == 0 {
		res.MonthUtilization = 1
	}
	r, o, err := costs(res.MonthUtilization)
	if err != nil {
		return BreakEvenPoint{}, err
	}
	res.Month = crossoverMonth(r.CashFlow, o.CashFlow)
	return res, nil
}

// crossoverMonth returns the first month (1-based) from which the cumulative
// own cash flow stays at or below the cumulative rent cash flow, or 0.
func crossoverMonth(rent, own []decimal.Decimal) int {
	n := max(len(rent), len(own))
	cr, co := decimal.Zero, decimal.Zero
	month := 0
	for m := range n {
		if m < len(rent) {
			cr = cr.Add(rent[m])
		}
		if m < len(own) {
			co = co.Add(own[m])
		}
		switch {
		case co.GreaterThan(cr):
			month = 0
		case month == 0:
			month = m + 1
		}
	}
	return month
}
