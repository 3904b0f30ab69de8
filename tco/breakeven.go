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
	// OwnAlwaysCheaper: owning costs less than renting at every utilization
	// in (0, 1].
	OwnAlwaysCheaper
	// RentAlwaysCheaper: renting costs no more than owning at every
	// utilization in (0, 1].
	RentAlwaysCheaper
	// OwnCheaperBelow: owning is cheaper below Utilization and renting above
	// it — owning's running costs (power) rise with use faster than the rent
	// does, as against a reservation billed whatever the use.
	OwnCheaperBelow
	// Mixed: the cheaper side changes more than once; see Ranges.
	Mixed
)

// String returns "crossover", "own always cheaper", "rent always cheaper",
// "own cheaper below" or "mixed".
func (o Outcome) String() string {
	switch o {
	case Crossover:
		return "crossover"
	case OwnAlwaysCheaper:
		return "own always cheaper"
	case RentAlwaysCheaper:
		return "rent always cheaper"
	case OwnCheaperBelow:
		return "own cheaper below"
	case Mixed:
		return "mixed"
	}
	return fmt.Sprintf("outcome(%d)", int(o))
}

// Side names one of the two offers of a break-even.
type Side int

// The sides of a break-even.
const (
	// RentSide is the offer rented (BreakEven's rent argument).
	RentSide Side = iota
	// OwnSide is the offer owned or committed to (BreakEven's own argument).
	OwnSide
)

// String returns "rent" or "own".
func (s Side) String() string {
	switch s {
	case RentSide:
		return "rent"
	case OwnSide:
		return "own"
	}
	return fmt.Sprintf("side(%d)", int(s))
}

// UtilizationRange is a range of utilizations over which one side is cheaper.
type UtilizationRange struct {
	// From and To bound the range (From < To): the first range starts at 0
	// (meaning "just above idle"), the last ends at 1, and each other bound
	// is a crossing.
	From, To float64
	// Cheaper is the side with the lower present value throughout the range;
	// on a tie, renting (no capital is committed).
	Cheaper Side
}

// Crossing is a utilization at which the cheaper side changes.
type Crossing struct {
	// Utilization is where the present values cross, to within 1e-7.
	Utilization float64
	// Below and Above are the sides cheaper just below and just above it.
	Below, Above Side
	// Rent and Own are the present values of the two offers at Utilization.
	Rent, Own decimal.Decimal
}

// BreakEvenPoint is the result of BreakEven.
type BreakEvenPoint struct {
	// Outcome summarizes Crossings and Ranges.
	Outcome Outcome
	// Utilization is the first crossing: the fraction of each day the
	// workload runs at its peak for which both offers cost the same. It is
	// 0 when owning always wins and 1 when renting always wins.
	Utilization float64
	// Rent and Own are the present values of the two offers at Utilization.
	Rent, Own decimal.Decimal
	// Crossings are every utilization in (0, 1] at which the cheaper side
	// changes, in increasing order; empty when one side always wins.
	Crossings []Crossing
	// Ranges cover [0, 1] in order, alternating sides, one more than the
	// crossings: at any utilization u, the range holding u names the side
	// whose present value at u is lower.
	Ranges []UtilizationRange
	// Month is the first month (1-based) from which the cumulative cash
	// spent on owning stays at or below the cumulative cash spent on renting
	// until the horizon's end, at utilization MonthUtilization; 0 if never.
	Month int
	// MonthUtilization is the utilization Month refers to: the assumptions'
	// Utilization if set, otherwise full utilization.
	MonthUtilization float64
}

// OwnCheaperAt reports whether owning is cheaper than renting at
// utilization u, per Ranges (false outside [0, 1]).
func (p BreakEvenPoint) OwnCheaperAt(u float64) bool {
	for _, r := range p.Ranges {
		if u >= r.From && u <= r.To {
			return r.Cheaper == OwnSide
		}
	}
	return false
}

// breakEvenTolerance is the precision of the bisection on utilization.
const breakEvenTolerance = 1e-7

// breakEvenCells is the number of equal cells of (0, 1] at whose ends
// BreakEven compares the two offers before bisecting each change of side.
const breakEvenCells = 40

// minUtilization stands for "almost idle" in BreakEven (Utilization 0 means
// "use the demand curve" to Evaluate).
const minUtilization = 1e-9

// BreakEven compares owning (or committing to) own with renting rent over
// the horizon at every utilization, comparing present values (equal to
// totals without discounting), and returns every utilization at which the
// cheaper side changes and the ranges where each side wins. The workload
// runs at its peak GPUs (w.GPUs) for a fraction u of every day and is idle
// the rest; a finite job is treated the same way, as standing capacity for
// w.GPUs. Its requirements, data and setup apply as in Evaluate. The horizon
// is a.Horizon, or the workload's.
//
// Renting usually costs more with use and owning is mostly fixed, giving one
// crossing (Crossover), but not always: owning's power bill rises with use
// while a reservation's does not, so owning can be the cheaper side only
// below a utilization (OwnCheaperBelow). BreakEven compares the two at the
// ends of 40 equal cells of (0, 1] and bisects every cell whose ends
// disagree to within 1e-7, so two crossings closer together than 1/40 of
// utilization — a near-tie over a stretch, within a billing step — can go
// unseen; both costs are close to linear in u, which makes that rare.
//
// The same call finds the month from which owning has cost less cash than
// renting, at a.Utilization (or 1 when unset). Offers that state different
// currencies are an error wrapping ErrCurrencyMismatch; the package does no exchange.
func BreakEven(w workload.Workload, rent, own provider.Offer, a Assumptions) (BreakEvenPoint, error) {
	if err := a.Validate(); err != nil {
		return BreakEvenPoint{}, err
	}
	if rent.Currency != "" && own.Currency != "" && rent.Currency != own.Currency {
		return BreakEvenPoint{}, fmt.Errorf("tco: break-even of %s (%s) against %s (%s): %w",
			quoted(rent.ID), quoted(rent.Currency), quoted(own.ID), quoted(own.Currency), ErrCurrencyMismatch)
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
		p, err := Prepare(sw, au) // once for both offers
		if err != nil {
			return r, o, err
		}
		if r, err = p.Evaluate(rent); err != nil {
			return r, o, err
		}
		o, err = p.Evaluate(own)
		return r, o, err
	}
	// cheaper returns the cheaper side at u (renting on a tie).
	cheaper := func(u float64) (Side, Report, Report, error) {
		r, o, err := costs(u)
		if err != nil {
			return 0, r, o, err
		}
		if o.PresentValue.LessThan(r.PresentValue) {
			return OwnSide, r, o, nil
		}
		return RentSide, r, o, nil
	}

	us := make([]float64, breakEvenCells+1)
	sides := make([]Side, len(us))
	var rlo, olo, rhi, ohi Report
	for i := range us {
		us[i] = max(minUtilization, float64(i)/breakEvenCells)
		s, r, o, err := cheaper(us[i])
		if err != nil {
			return BreakEvenPoint{}, err
		}
		sides[i] = s
		switch i {
		case 0:
			rlo, olo = r, o
		case len(us) - 1:
			rhi, ohi = r, o
		}
	}
	var res BreakEvenPoint
	from := 0.0
	for i := 1; i < len(us); i++ {
		if sides[i] == sides[i-1] {
			continue
		}
		lo, hi := us[i-1], us[i]
		for hi-lo > breakEvenTolerance {
			mid := (lo + hi) / 2
			s, _, _, err := cheaper(mid)
			if err != nil {
				return BreakEvenPoint{}, err
			}
			if s == sides[i-1] {
				lo = mid
			} else {
				hi = mid
			}
		}
		u := (lo + hi) / 2
		r, o, err := costs(u)
		if err != nil {
			return BreakEvenPoint{}, err
		}
		res.Crossings = append(res.Crossings, Crossing{Utilization: u, Below: sides[i-1], Above: sides[i],
			Rent: r.PresentValue, Own: o.PresentValue})
		res.Ranges = append(res.Ranges, UtilizationRange{From: from, To: u, Cheaper: sides[i-1]})
		from = u
	}
	res.Ranges = append(res.Ranges, UtilizationRange{From: from, To: 1, Cheaper: sides[len(sides)-1]})
	switch c := res.Crossings; {
	case len(c) == 0 && sides[0] == OwnSide:
		res.Outcome, res.Utilization, res.Rent, res.Own = OwnAlwaysCheaper, 0, rlo.PresentValue, olo.PresentValue
	case len(c) == 0:
		res.Outcome, res.Utilization, res.Rent, res.Own = RentAlwaysCheaper, 1, rhi.PresentValue, ohi.PresentValue
	default:
		res.Outcome = Mixed
		if len(c) == 1 && c[0].Below == RentSide {
			res.Outcome = Crossover
		} else if len(c) == 1 {
			res.Outcome = OwnCheaperBelow
		}
		res.Utilization, res.Rent, res.Own = c[0].Utilization, c[0].Rent, c[0].Own
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
