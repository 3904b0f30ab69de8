package tco

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/shopspring/decimal"
)

// Defaults used where a field of Assumptions is zero.
const (
	// DefaultEngineerCostPerHour is the loaded cost of an engineer hour, in the
	// catalog's currency, when Assumptions.EngineerCostPerHour is zero.
	DefaultEngineerCostPerHour = 100
	// DefaultSourceEgressCentsPerGB is the egress price at the data's current
	// home, in cents per GB, when Assumptions.SourceEgressPerGB is zero: AWS's
	// internet egress of $0.09/GB (reference-data §4a).
	DefaultSourceEgressCentsPerGB = 9
	// DefaultTransferGbps is the bandwidth for moving data when the offer does
	// not state one.
	DefaultTransferGbps = 10
	// DefaultStockRetry is the wait between attempts to get capacity that was
	// quoted but not in stock.
	DefaultStockRetry = 24 * time.Hour
	// DefaultStep is the sampling step of demand curves.
	DefaultStep = 5 * time.Minute
)

// maxSamples bounds the samples of one demand curve evaluation.
const maxSamples = 1 << 17

// Assumptions are the inputs of an evaluation that belong to neither the
// workload nor the offer. The zero value means: the workload's own horizon,
// no discounting, the defaults above, every hidden cost included.
type Assumptions struct {
	// Horizon is the period costed, at most MaxHorizon. Zero means the
	// workload's Horizon (which must then be at most MaxHorizon too), and for
	// a finite job without one, the time the job holds capacity (setup plus
	// expected wall time).
	Horizon time.Duration
	// DiscountRatePerYear is the annual rate for present values (0.08 is 8 %);
	// zero means no discounting. It must be in [−0.5, 10]: rates outside
	// make present values over long horizons meaningless (or overflow).
	DiscountRatePerYear float64
	// EngineerCostPerHour is the loaded cost of one engineer hour (setup);
	// zero means DefaultEngineerCostPerHour.
	EngineerCostPerHour decimal.Decimal
	// Exclude lists hidden-cost categories to leave out (provider.Setup,
	// provider.DataTransfer, ...). An excluded category contributes no line,
	// and the effects it prices (a slower fabric, preemptions, failures, the
	// GPU time held during setup) lengthen neither the billed time nor the
	// report's wall time, finish and deadline verdict.
	// Explicit categories cannot be excluded.
	Exclude []provider.Category
	// Utilization, when positive, replaces a service's demand curve by a duty
	// cycle: the service runs at its peak for this fraction of every day,
	// from the day's start, and is idle the rest. It must be in [0, 1]. BreakEven varies it.
	Utilization float64
	// SourceEgressPerGB is the egress price at the data's current home; zero
	// means DefaultSourceEgressCentsPerGB unless FreeSourceEgress is set.
	SourceEgressPerGB decimal.Decimal
	// FreeSourceEgress says the data's current home charges nothing for egress.
	FreeSourceEgress bool
	// TransferGbps is the bandwidth for moving data in when the offer does not
	// state one; zero means DefaultTransferGbps.
	TransferGbps float64
	// StockRetry is the wait before asking again for capacity that was not in
	// stock; zero means DefaultStockRetry.
	StockRetry time.Duration
	// Step is the sampling step of demand curves; zero means DefaultStep.
	Step time.Duration
}

// Validate reports every problem of a, each wrapping ErrInvalidAssumptions.
func (a Assumptions) Validate() error {
	var errs []error
	bad := func(field string, v any, why string) {
		errs = append(errs, fmt.Errorf("tco: assumptions: %s = %v: %s: %w", field, v, why, ErrInvalidAssumptions))
	}
	switch {
	case a.Horizon < 0:
		bad("Horizon", a.Horizon, "negative")
	case a.Horizon > MaxHorizon:
		bad("Horizon", a.Horizon, fmt.Sprintf("beyond MaxHorizon = %v (100 years)", MaxHorizon))
	}
	if math.IsNaN(a.DiscountRatePerYear) || a.DiscountRatePerYear < -0.5 || a.DiscountRatePerYear > 10 {
		bad("DiscountRatePerYear", a.DiscountRatePerYear, "must be in [-0.5, 10]")
	}
	money := func(field string, d decimal.Decimal) {
		switch {
		case !moneyInBounds(d):
			bad(field, fmt.Sprintf("%se%d", d.Coefficient(), d.Exponent()), "exponent out of range")
		case d.IsNegative():
			bad(field, d, "negative")
		}
	}
	money("EngineerCostPerHour", a.EngineerCostPerHour)
	for _, c := range a.Exclude {
		if !c.Hidden() {
			bad("Exclude", c, "not a hidden-cost category")
		}
	}
	if math.IsNaN(a.Utilization) || a.Utilization < 0 || a.Utilization > 1 {
		bad("Utilization", a.Utilization, "must be in [0, 1]")
	}
	money("SourceEgressPerGB", a.SourceEgressPerGB)
	if math.IsNaN(a.TransferGbps) || math.IsInf(a.TransferGbps, 0) || a.TransferGbps < 0 {
		bad("TransferGbps", a.TransferGbps, "must be finite and ≥ 0")
	}
	if a.StockRetry < 0 {
		bad("StockRetry", a.StockRetry, "negative")
	}
	if a.Step < 0 {
		bad("Step", a.Step, "negative")
	}
	return errors.Join(errs...)
}

// moneyInBounds reports whether d's exponent is within ±provider.MaxExponent,
// so that arithmetic on it cannot overflow decimal's int32 exponent.
func moneyInBounds(d decimal.Decimal) bool {
	e := d.Exponent()
	return e <= provider.MaxExponent && e >= -provider.MaxExponent
}

// includes reports whether category c is priced.
func (a Assumptions) includes(c provider.Category) bool { return !slices.Contains(a.Exclude, c) }

// Defaults as decimals.
var (
	defaultEngineerRate = decimal.NewFromInt(DefaultEngineerCostPerHour)
	defaultSourceEgress = decimal.New(DefaultSourceEgressCentsPerGB, -2)
)

func (a Assumptions) engineerRate() decimal.Decimal {
	if a.EngineerCostPerHour.IsZero() {
		return defaultEngineerRate
	}
	return a.EngineerCostPerHour
}

func (a Assumptions) sourceEgress() decimal.Decimal {
	switch {
	case a.FreeSourceEgress:
		return decimal.Zero
	case a.SourceEgressPerGB.IsZero():
		return defaultSourceEgress
	}
	return a.SourceEgressPerGB
}

func (a Assumptions) stockRetry() time.Duration {
	if a.StockRetry == 0 {
		return DefaultStockRetry
	}
	return a.StockRetry
}

func (a Assumptions) step() time.Duration {
	if a.Step == 0 {
		return DefaultStep
	}
	return a.Step
}
