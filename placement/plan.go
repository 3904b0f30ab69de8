package placement

import (
	"fmt"
	"time"

	"github.com/gputco/gputco/tco"
	"github.com/shopspring/decimal"
)

// Status says how good a plan is proven to be.
type Status int

// Statuses. The zero value is NoPlan.
const (
	// NoPlan: no feasible plan is known (a cancelled solve before the
	// first one).
	NoPlan Status = iota
	// Optimal: the plan's cost is within Options.Gap of its proven bound.
	Optimal
	// Feasible: a feasible plan whose gap is above Options.Gap (a time limit,
	// a cancellation, or a solver without branch-and-bound).
	Feasible
)

// String returns "no-plan", "optimal" or "feasible".
func (s Status) String() string {
	switch s {
	case NoPlan:
		return "no-plan"
	case Optimal:
		return "optimal"
	case Feasible:
		return "feasible"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Tier is how a workload's use of an offer is bought.
type Tier int

// Tiers. The zero value is Base.
const (
	// Base is committed capacity: reserved terms, monthly rentals, owned
	// servers — nodes paid for while held, shared by the workloads on them.
	Base Tier = iota
	// Burst is pay-as-you-go capacity that is not interruptible: on-demand,
	// per-second, per-minute.
	Burst
	// Spot is interruptible pay-as-you-go capacity.
	Spot
)

// String returns "base", "burst" or "spot".
func (t Tier) String() string {
	switch t {
	case Base:
		return "base"
	case Burst:
		return "burst"
	case Spot:
		return "spot"
	}
	return fmt.Sprintf("Tier(%d)", int(t))
}

// Plan is the outcome of Solve: where each workload runs, what is
// committed, what it costs, and how close to optimal that is proven to be.
// Money is in Currency; a Plan is a value, safe for concurrent reads.
type Plan struct {
	// Currency is the offers' currency (empty when they leave it to their
	// catalog, as provider.Default's do); Horizon the period costed; Period
	// and Slices the representative period and its slices.
	Currency string
	Horizon  time.Duration
	Period   time.Duration
	Slices   int
	// Status says whether the plan is proven optimal.
	Status Status
	// Assignments are the placed workloads, in the problem's order.
	Assignments []Assignment
	// Commitments are the offers the plan uses, in the problem's order.
	Commitments []Commitment
	// Unplaced are the workloads the plan leaves out, in the problem's
	// order, each with the error that says why: those no offer can take,
	// and gang jobs that cannot all fit on the capacity they share
	// (ErrStock; the fewest gangs, then the cheapest plan). The plan is for
	// the others.
	Unplaced []Unplaced
	// Total is the plan's cost over the horizon, exactly the sum of the
	// lines of its assignments and commitments; Explicit + Hidden = Total.
	// PresentValue discounts them at the assumptions' rate as tco does.
	Total, Explicit, Hidden, PresentValue decimal.Decimal
	// Bound is a proven lower bound on the cost of every plan of the
	// problem (the placed workloads); Gap is (Total − Bound)/Total (0 when
	// Total is 0).
	Bound decimal.Decimal
	Gap   float64
	// Stock lists, for each offer whose stock limits the plan, what one
	// more node of stock would save with the plan's other decisions held
	// (see StockValue), in the problem's order of offers.
	Stock []StockValue
	// Epochs are, for a plan over time (Options.OverTime), the stretches of
	// the horizon in order — each epoch, split where capacity with a lead
	// time arrives — with what is started, held and used in each; nil
	// otherwise.
	Epochs []Epoch
	// Stats describe the solve.
	Stats Stats
}

// Epoch is one stretch of a plan over time: an epoch, or the part of one
// before or after capacity with a lead time arrives.
type Epoch struct {
	// Epoch numbers the epoch from 0 (the stretches of a split epoch share
	// it); Start and End bound the stretch, from the horizon's start.
	Epoch      int
	Start, End time.Duration
	// Started are the commitments that start at Start, in the problem's
	// order of offers.
	Started []Held
	// Held are the nodes held of each committed offer in the stretch.
	Held []Holding
	// Uses are each workload's use of each offer in the stretch, by
	// workload in the problem's order, then by offer.
	Uses []EpochUse
	// Slices are the GPUs used in each slice of the stretch's period (as
	// Plan.Slices), by tier and by offer: the data of a stacked chart.
	Slices []SliceGPUs
}

// Held is one commitment of a plan over time: Nodes of Offer from Start
// (its arrival) to End (its term's end, or the horizon's end for owned
// hardware), ordered at Order (Start minus the offer's lead time).
type Held struct {
	Offer             string
	Nodes             int
	Order, Start, End time.Duration
	// Cost is its fixed lines (the nodes times the terms' fixed cost for
	// the time held, residual value credited at the end).
	Cost decimal.Decimal
}

// Holding is the nodes of one committed offer held in a stretch.
type Holding struct {
	Offer string
	Nodes int
}

// EpochUse is one workload's use of one offer in a stretch: the most GPUs
// in one slice (a gang job's: the GPUs it runs on) and the GPU-hours over
// the stretch.
type EpochUse struct {
	Workload, Offer    string
	Tier               Tier
	PeakGPUs, GPUHours float64
}

// SliceGPUs is the GPUs used in one slice of a stretch: in total by tier,
// and by offer ID.
type SliceGPUs struct {
	Base, Burst, Spot float64
	Offers            map[string]float64
}

// Assignment is where one workload runs.
type Assignment struct {
	// Workload names the workload; Service says it is a service.
	Workload string
	Service  bool
	// Uses are the offers it runs on, in the problem's order of offers.
	Uses []Use
	// Cost is its own lines plus its share of the commitments it uses
	// (each commitment's cost split by the GPU-hours of its users).
	Cost decimal.Decimal
	// PeakGPUValue is what one more GPU of a service's peak demand would
	// cost — every slice's demand up by the curve's fraction of the peak
	// there — and for a job what one more reference GPU-hour of work would
	// cost: the change of the optimum of the plan's LP with its integer
	// decisions held (the nodes committed, the offers each workload is
	// placed on where placing costs a one-off, the gang runs), its uses
	// re-optimised; a finite difference of one unit, not a rate. Where
	// the plan holds a capped offer full, the extra GPU goes where the plan
	// has room (say on-demand), not on a node the plan does not hold; where
	// the offers the workload is placed on have no room, on the cheapest
	// one more of its offers, that placement's one-off paid. The one-off
	// costs are those of the workload as it is (setup's GPU time held is
	// not re-priced for one more GPU). The value is at least what
	// re-solving the whole problem with one more GPU adds, and equal to it
	// when that re-solve keeps the plan's commitments and placements. It is
	// the LP relaxation's dual instead (the demand duals weighted by the
	// curve's shape: a rate, and at a degenerate optimum either end of its
	// interval) when no plan with the plan's commitments has room for one
	// more GPU, when the work to compute it runs out (a bound of a few
	// solves of the plan's LP, or Options.TimeLimit or the context ending
	// the solve first); for a gang job it is 0. In a pool solved by the
	// merit-order programme (one service without a spot share,
	// Stats.FastPools) the plan's LP is the merit order of its capacities
	// in every slice, and the value is read from it without an LP.
	PeakGPUValue decimal.Decimal
	// Alone is tco.Evaluate of the workload alone on its offer when it uses
	// exactly one offer. A job that runs there narrower than its GPUs, the
	// offer's stock holding fewer, and that tco.Evaluate therefore refuses
	// at full width, is priced at the width it runs (its Use's PeakGPUs,
	// rounded up; the report's Workload says so). Alone is nil when the
	// workload uses several offers, or when tco.Evaluate refuses it alone
	// on its offer even at that width.
	Alone *tco.Report
	// RunnersUp are the cheapest offers it does not use and could run on
	// alone — those tco.Evaluate accepts, its stock holding the workload's
	// peak, on which it meets its deadline, and not interruptible where
	// Options.MaxSpotShare (below 1) forbids all its demand on spot — each
	// priced alone (tco.Evaluate; a gang at the best of the sizes within
	// its range that finish by its deadline there) with the difference to
	// Cost; cheapest first.
	RunnersUp []RunnerUp
	// Gang is the run of a gang job (planning over time); nil otherwise.
	Gang *GangRun
}

// GangRun is where and when a gang job runs: on one offer, GPUs on Nodes
// whole nodes, from Start (when its stretch starts, its capacity existing
// by then) to Finish (after transfer, setup and WallTime, tco's expected
// wall time at that size on that offer), by its deadline.
type GangRun struct {
	Offer         string
	GPUs, Nodes   int
	Start, Finish time.Duration
	WallTime      time.Duration
}

// Use is one workload's use of one offer.
type Use struct {
	// Offer is the offer's ID; Tier how it is bought.
	Offer string
	Tier  Tier
	// PeakGPUs is the most GPUs used in one slice; GPUHours the GPU-hours
	// occupied over the horizon; NodeHours the node-hours of use as tco
	// prices them (tco.Use.NodeHours).
	PeakGPUs, GPUHours, NodeHours float64
	// GPUs is the GPUs used in each slice of the period (Plan.Slices);
	// over time, in each slice of every stretch (Plan.Epochs), stretch by
	// stretch.
	GPUs []float64
	// Lines are the workload's own lines of the offer's cost terms priced
	// at this use: variable lines per node-hour, one-off lines once.
	Lines []tco.Line
	// Cost sums Lines.
	Cost decimal.Decimal
	// Terms are the cost terms the lines come from.
	Terms tco.Terms
}

// Commitment is an offer the plan uses, with what is held of it.
type Commitment struct {
	// Offer is the offer's ID; Tier its tier (Base for committed capacity).
	Offer string
	Tier  Tier
	// Nodes is the whole nodes held over the horizon (committed capacity;
	// over time, the most held at once); zero for pay-as-you-go. Stock is
	// the plan's node limit (0: none).
	Nodes int
	Stock float64
	// PeakGPUs is the most GPUs used in one slice by all its workloads (the
	// gang jobs counting, in every slice of a stretch, the most GPUs their
	// runs hold at once in it: gangs that take turns count one at a time);
	// Utilization the GPU-hours used over the GPU-hours held (committed
	// capacity only).
	PeakGPUs, Utilization float64
	// Workloads names the workloads on it.
	Workloads []string
	// Lines are the offer's own lines: fixed lines times Nodes (over time,
	// of every commitment in Held), and the per-offer lines once. Cost sums
	// them.
	Lines []tco.Line
	Cost  decimal.Decimal
	// Held are the commitments of a plan over time, by start; nil
	// otherwise.
	Held []Held
}

// StockValue is what one more node of an offer's stock is worth to the
// plan: the cost of the plan's LP with its integer decisions held (the
// nodes committed, the placements that cost a one-off, the gang runs) and
// its uses re-optimised, less that cost with one more node in stock — for
// committed capacity, with one more node held of the commitment (over
// time: the best one) that the stock kept from it. A finite difference
// of one node, not a rate; at most what re-solving the whole problem with
// one more node would save (which may also change the plan's other
// commitments), and equal to it when that re-solve keeps them. When the
// work to compute it runs out (a bound of a few solves of the plan's LP,
// or Options.TimeLimit or the context ending the solve first), it is the
// relaxation's instead: the duals of the stock limit, a rate, exact only
// for small changes and, at a degenerate optimum, one end of an interval.
// In a pool solved by the merit-order programme (one service without a
// spot share, Stats.FastPools) the plan's LP is the merit order of its
// capacities in every slice, and the value is read from it without an LP.
type StockValue struct {
	Offer string
	// SavingPerNode is the money one more node of stock would save; > 0.
	SavingPerNode decimal.Decimal
}

// RunnerUp is an offer a workload could run on alone instead.
type RunnerUp struct {
	Offer string
	// Total is tco.Evaluate's total of the workload alone on the offer;
	// Delta is Total minus the workload's Cost in the plan.
	Total, Delta decimal.Decimal
}

// Unplaced is a workload the plan leaves out, and why.
type Unplaced struct {
	Workload string
	// Err is an *UnplacedError naming the constraint that excluded every
	// offer.
	Err error
}

// Stats describe how a plan was found.
type Stats struct {
	// Pools is the number of independent pools; FastPools those solved by
	// the merit-order programme.
	Pools, FastPools int
	// Rows, Cols and Integers size the largest model solved.
	Rows, Cols, Integers int
	// Iterations and Nodes sum the simplex iterations and branch-and-bound
	// nodes of every solve.
	Iterations, Nodes int
	// Solver names the solver of the general path.
	Solver  string
	Elapsed time.Duration
	// FirstPlan is when, from Solve's start, the last pool solved had its
	// first feasible plan (a pool solved in closed form, by the merit-order
	// programme or as a pure LP, has it when it is solved): the time to a
	// first plan of the whole problem, which a time limit returns when it
	// stops the search.
	FirstPlan time.Duration
}
