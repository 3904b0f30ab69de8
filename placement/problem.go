package placement

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// Defaults used where a field of Options is zero.
const (
	// DefaultPeriod is the representative period: one week.
	DefaultPeriod = 7 * 24 * time.Hour
	// DefaultSliceLength is the length of one slice when Options.Slices is
	// zero: an hour, so the default is a week of hourly slices.
	DefaultSliceLength = time.Hour
	// DefaultGap is the relative optimality gap at which Solve stops.
	DefaultGap = 1e-6
	// DefaultRunnersUp is the number of runners-up listed per workload.
	DefaultRunnersUp = 3
	// MaxSlices bounds Options.Slices.
	MaxSlices = 1 << 14
	// DefaultEpoch is the epoch of a plan over time when Options.Epoch is
	// zero: a year (provider.Year).
	DefaultEpoch = provider.Year
	// MaxEpochs bounds the epochs of a plan over time.
	MaxEpochs = 600
	// MaxTimeSlices bounds the slices of a plan over time: the slices of the
	// period times the stretches of the horizon (epochs, split at arrivals).
	MaxTimeSlices = 1 << 18
	// DefaultMaxColumns bounds the columns of a model when
	// Options.MaxColumns is zero: twenty million, about 7 GB to build
	// (BenchmarkModelOverTimeM: 16.8 million columns, 6.1 GB resident,
	// names included) and more to solve.
	DefaultMaxColumns = 20_000_000
)

// Problem is a portfolio to place: workloads, the offers they may run on,
// the assumptions they are costed under (as in tco) and the options of the
// plan. Solve never modifies a Problem.
type Problem struct {
	// Workloads are the services and finite jobs to place; names unique.
	Workloads []workload.Workload
	// Offers are the capacity that can be bought; IDs unique, one currency
	// (an offer whose Currency is empty, in its catalog's, does not mix with
	// one that names a currency: ErrCurrency).
	Offers []provider.Offer
	// Assumptions are the costing assumptions of tco. Horizon zero means the
	// longest workload horizon, each service's demand ending at its own
	// Horizon (as tco costs it alone); a non-zero Horizon costs every
	// workload over it, as in tco. Step is replaced by the slice length (the
	// solver and tco sample demand alike); Utilization must be zero (a
	// portfolio is planned from its demand curves).
	Assumptions tco.Assumptions
	// Options are the plan's options; the zero value means the defaults.
	Options Options
}

// Options tune a plan. The zero value plans a week of hourly slices with
// quoted stock, no budget, no spot limit and the built-in solver, to a
// relative gap of DefaultGap.
type Options struct {
	// Period is the representative period whose slices the plan covers; it
	// repeats over the horizon (its slices weigh horizon/period). Zero means
	// DefaultPeriod, or the horizon if it is shorter (at least an hour). It
	// must not exceed the horizon.
	Period time.Duration
	// Slices is the number of equal slices of the period; zero means
	// Period/DefaultSliceLength (at least 1). At most MaxSlices.
	Slices int
	// Budget caps the plan's total; zero means no cap. A budget couples
	// every workload into one pool. The plan's Total (the decimal sum of
	// its lines) is at most Budget, or Solve fails with ErrInfeasible: the
	// model's budget row holds only within the solver's tolerance, so a
	// plan whose Total comes out over the budget is solved again with the
	// row tightened below the budget by more than the excess (at least
	// 1e-9 of it, doubling, at most four times) and refused if it is still
	// over. A budget within that margin of the optimum may thus be refused;
	// WriteMPS exports the row at the budget itself.
	Budget decimal.Decimal
	// MaxSpotShare is the largest share of each workload's demand (a
	// service's GPU-hours, a job's work) that may run on interruptible
	// capacity, in (0, 1]; zero means no limit.
	MaxSpotShare float64
	// Stock says which stock limits the plan respects.
	Stock StockPolicy
	// Solver chooses the solver of the general path.
	Solver SolverKind
	// CBCPath is the cbc binary for Solver == CBC; empty means "cbc" on
	// the PATH, then /usr/bin/cbc.
	CBCPath string
	// Gap is the relative gap (cost − bound)/cost at which the plan counts
	// as optimal; zero means DefaultGap.
	Gap float64
	// TimeLimit bounds the solve, counted from the call to Solve (as
	// Stats.Elapsed); zero means none. Reaching it returns the best plan
	// found with its bound (Plan.Status Feasible) and no error; with no
	// plan found yet, ErrTimeLimit. A caller's ctx that ends first still
	// returns ctx's error. Solve checks the limit between its steps and
	// inside the solver: preparing the costs, building a pool's model and
	// its first (greedy) plan each run to their end, and the first pool
	// gets its model and first plan even when preparing took the whole
	// limit, so a limit shorter than they take returns the first pool's
	// first plan when they end (about 1.5 CPU-s for 300 workloads × 150
	// offers × 168 slices; preparing the costs of 300 workloads whose
	// demand curves workload samples generically, over three years, takes
	// seconds more). The search of a pool stops before the limit by twice
	// the time its first plan took, for writing the plan (a pass over the
	// model too: on OverTimeM's 17 million columns, 1.1 s and 1.7 s).
	TimeLimit time.Duration
	// NodeLimit bounds the branch-and-bound nodes of each integer program
	// Solve runs (one per pool, and for gang jobs the ones that find how
	// many gangs fit); zero means none. Unlike TimeLimit it keeps Solve
	// deterministic. Reaching it returns the best plan found with its
	// proven bound (Plan.Status Feasible) and no error; with no plan found
	// yet, an ErrSolver error. When it stops the search for how many gangs
	// fit, the gangs left out are the fewest found, not proven fewest.
	NodeLimit int
	// RunnersUp is how many runners-up to list per workload; zero means
	// DefaultRunnersUp, negative none.
	RunnersUp int
	// MaxColumns bounds the columns of the model of each pool that Solve
	// builds (of the whole problem for Model, WriteMPS and WriteLP); zero
	// means DefaultMaxColumns, negative no bound. A model that would have
	// more is not built — its memory is not taken — and the call fails
	// with ErrTooLarge. Its size grows with the workloads times their
	// compatible offers times the classes of slices (fewer with fewer
	// slices, a shorter period, or over time fewer stretches).
	MaxColumns int
	// Progress, if set, is called now and then with the bound, the
	// incumbent and the gap, from the goroutine running Solve.
	Progress func(Progress)
	// OverTime plans over time (see "Over time" in the package comment):
	// the horizon splits into epochs of Epoch, each with its own
	// representative period sampled at its time; commitments start in an
	// epoch and last their term; capacity with a lead time exists only
	// after it. False (with Epoch zero) plans one period repeated over the
	// horizon, commitments held for all of it, lead times priced by tco
	// alone.
	OverTime bool
	// Epoch is the length of an epoch; zero means DefaultEpoch (a year).
	// provider.Month and 3·provider.Month plan by months and quarters. The
	// last epoch may be partial. A non-zero Epoch implies OverTime. It must
	// be at least the period.
	Epoch time.Duration
}

// StockPolicy says how an offer's stock limits the plan.
type StockPolicy int

// Stock policies. The zero value is QuotedStock.
const (
	// QuotedStock plans with the quoted maximum nodes of every offer.
	QuotedStock StockPolicy = iota
	// ExpectedStock plans with the nodes one can expect to get: the quoted
	// maximum times the fill probability (whole nodes for committed
	// capacity, rounded down).
	ExpectedStock
)

// String returns "quoted" or "expected".
func (s StockPolicy) String() string {
	switch s {
	case QuotedStock:
		return "quoted"
	case ExpectedStock:
		return "expected"
	}
	return fmt.Sprintf("StockPolicy(%d)", int(s))
}

// SolverKind chooses the solver of the general (coupled) path.
type SolverKind int

// Solvers. The zero value is Builtin.
const (
	// Builtin is the pure-Go placement/lp solver.
	Builtin SolverKind = iota
	// CBC solves the exported model with an external COIN-OR cbc binary.
	CBC
)

// String returns "builtin" or "cbc".
func (s SolverKind) String() string {
	switch s {
	case Builtin:
		return "builtin"
	case CBC:
		return "cbc"
	}
	return fmt.Sprintf("SolverKind(%d)", int(s))
}

// Progress is what Solve reports to Options.Progress.
type Progress struct {
	// Pool and Pools count the pools: the one being solved (from 1) and
	// all of them.
	Pool, Pools int
	// Bound and Incumbent are the proven lower bound and the best plan's
	// cost of the pools solved so far plus the current one (money as
	// float64, for display); Incumbent is +Inf before a plan is known.
	// Bound sums only proven bounds: while its LP relaxation is solved
	// the current pool adds what is proven without it (from its columns'
	// bounds and costs, or a relaxation of a coarser model; nothing when
	// that is not finite), then its relaxation's optimum or the
	// branch-and-bound tree's bound, never its incumbent before the pool
	// is proven; Bound never exceeds the optimum. The current pool's first
	// plan (a greedy one, before its relaxation) counts in Incumbent as
	// soon as it is known.
	Bound, Incumbent float64
	// Gap is (Incumbent − Bound)/max(1, |Incumbent|).
	Gap float64
	// Elapsed is the time since Solve started.
	Elapsed time.Duration
}

// settings are the options with their defaults applied.
type settings struct {
	Options
	horizon  time.Duration
	slices   int
	sliceLen time.Duration
	reps     float64 // horizon / period
	// overTime and epoch: planning over time, with epochs of epoch.
	overTime bool
	epoch    time.Duration
}

// settle validates p and applies the defaults.
func (p *Problem) settle() (settings, error) {
	s := settings{Options: p.Options}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...))
	}
	if len(p.Workloads) == 0 {
		bad("no workloads")
	}
	names := make(map[string]bool, len(p.Workloads))
	for i, w := range p.Workloads {
		if names[w.Name] {
			bad("Workloads[%d]: duplicate name %q", i, w.Name)
		}
		names[w.Name] = true
	}
	ids := make(map[string]bool, len(p.Offers))
	currency, unnamed := "", ""
	for i, o := range p.Offers {
		if ids[o.ID] {
			bad("Offers[%d]: duplicate ID %q", i, o.ID)
		}
		ids[o.ID] = true
		if o.Currency == "" {
			// A catalog's currency, which the offer does not name.
			if unnamed == "" && currency != "" {
				errs = append(errs, fmt.Errorf("%w: %s and offer %q's catalog currency (Currency empty)", ErrCurrency, currency, o.ID))
			}
			unnamed = o.ID
			continue
		}
		if currency != "" && o.Currency != currency {
			errs = append(errs, fmt.Errorf("%w: %s and %s", ErrCurrency, currency, o.Currency))
		} else if currency == "" && unnamed != "" {
			errs = append(errs, fmt.Errorf("%w: offer %q's catalog currency (Currency empty) and %s", ErrCurrency, unnamed, o.Currency))
		}
		currency = o.Currency
	}
	if p.Assumptions.Utilization != 0 {
		bad("Assumptions.Utilization = %g, want 0 (a portfolio is planned from its demand curves)", p.Assumptions.Utilization)
	}
	s.horizon = p.Assumptions.Horizon
	if s.horizon < 0 {
		bad("Assumptions.Horizon = %v, want ≥ 0 (zero: the longest workload horizon)", s.horizon)
	}
	if s.horizon <= 0 {
		for _, w := range p.Workloads {
			s.horizon = max(s.horizon, w.Horizon)
		}
	}
	if s.horizon <= 0 {
		bad("no horizon: set Assumptions.Horizon or a workload Horizon")
	}
	if s.horizon > tco.MaxHorizon {
		// Checked here, before any loop over the horizon's epochs or
		// repetitions (a horizon near the largest Duration would overflow
		// them); tco refuses such a horizon too.
		bad("horizon %v, want at most %v", s.horizon, tco.MaxHorizon)
		s.horizon = 0
	}
	if s.Period == 0 {
		s.Period = min(DefaultPeriod, max(s.horizon, time.Hour))
	}
	if s.Period < 0 || (s.horizon > 0 && s.Period > s.horizon) {
		bad("Options.Period = %v, want in (0, horizon %v]", s.Period, s.horizon)
	}
	if s.slices = s.Slices; s.slices == 0 && s.Period > 0 {
		s.slices = max(1, int(s.Period/DefaultSliceLength))
	}
	if s.slices < 1 || s.slices > MaxSlices {
		bad("Options.Slices = %d, want in [1, %d]", s.Slices, MaxSlices)
	}
	if s.Period > 0 && s.slices > 0 {
		s.sliceLen = s.Period / time.Duration(s.slices)
		if s.sliceLen < time.Minute {
			bad("Options.Slices = %d: slices of %v, want at least a minute", s.slices, s.sliceLen)
		}
	}
	if s.Budget.IsNegative() {
		bad("Options.Budget = %s, want ≥ 0", s.Budget)
	}
	if f := s.MaxSpotShare; math.IsNaN(f) || f < 0 || f > 1 {
		bad("Options.MaxSpotShare = %g, want in [0, 1]", f)
	}
	if s.Stock != QuotedStock && s.Stock != ExpectedStock {
		bad("Options.Stock = %d, unknown policy", int(s.Stock))
	}
	if s.Solver != Builtin && s.Solver != CBC {
		bad("Options.Solver = %d, unknown solver", int(s.Solver))
	}
	if g := s.Gap; math.IsNaN(g) || g < 0 || g >= 1 {
		bad("Options.Gap = %g, want in [0, 1)", g)
	}
	if s.Gap == 0 {
		s.Gap = DefaultGap
	}
	if s.TimeLimit < 0 {
		bad("Options.TimeLimit = %v, want ≥ 0", s.TimeLimit)
	}
	if s.NodeLimit < 0 {
		bad("Options.NodeLimit = %d, want ≥ 0", s.NodeLimit)
	}
	if s.MaxColumns == 0 {
		s.MaxColumns = DefaultMaxColumns
	}
	if s.RunnersUp == 0 {
		s.RunnersUp = DefaultRunnersUp
	}
	s.overTime, s.epoch = s.OverTime || s.Epoch != 0, s.Epoch
	if s.overTime && s.epoch == 0 {
		s.epoch = DefaultEpoch
	}
	switch {
	case s.Epoch < 0 || (s.overTime && s.Period > 0 && s.epoch < s.Period):
		bad("Options.Epoch = %v, want ≥ the period %v", s.Epoch, s.Period)
	case s.overTime && s.horizon > 0 && s.epoch > 0 && epochCount(s.horizon, s.epoch) > MaxEpochs:
		bad("Options.Epoch = %v: more than %d epochs in the horizon %v", s.epoch, MaxEpochs, s.horizon)
	}
	if err := errors.Join(errs...); err != nil {
		return settings{}, err
	}
	s.reps = s.horizon.Hours() / s.Period.Hours()
	return s, nil
}

// epochCount is ⌈horizon/epoch⌉ without overflow, for positive arguments.
func epochCount(horizon, epoch time.Duration) int64 {
	n := int64(horizon / epoch)
	if horizon%epoch != 0 {
		n++
	}
	return n
}
