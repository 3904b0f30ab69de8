package tco

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/shopspring/decimal"
)

// QuantileSample is the number of trials whose outcomes Simulate keeps for
// its quantiles: 2¹⁶. Up to that many trials the quantiles are exact; beyond
// it they are those of a uniform random sample of QuantileSample trials
// (reservoir sampling, seeded from SimulateOptions.Seed), so that memory does
// not grow with the trials. Means and the missed-deadline fraction count
// every trial.
const QuantileSample = 1 << 16

// outcomes accumulates the trials of a simulation: exact sums for the means,
// and a reservoir of at most QuantileSample trials for the quantiles.
type outcomes struct {
	n                  int
	costSum            decimal.Decimal
	wallSum, finishSum float64
	costs              []decimal.Decimal
	walls, finishes    []time.Duration
	pick               *rand.Rand // the reservoir's choices, apart from the trials' draws
}

// newOutcomes returns an accumulator for trials trials.
func newOutcomes(trials int, seed uint64) *outcomes {
	k := min(trials, QuantileSample)
	return &outcomes{
		costSum:  decimal.Zero,
		costs:    make([]decimal.Decimal, 0, k),
		walls:    make([]time.Duration, 0, k),
		finishes: make([]time.Duration, 0, k),
		// A stream of its own, so that the trials draw what they always drew.
		pick: rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909)),
	}
}

// add records one trial: kept while the reservoir has room, then in place
// of a kept one with probability QuantileSample/(trials so far) (Vitter's
// algorithm R), so that the kept trials are a uniform sample of all.
func (o *outcomes) add(cost decimal.Decimal, wall, finish time.Duration) {
	o.costSum = o.costSum.Add(cost)
	o.wallSum += float64(wall)
	o.finishSum += float64(finish)
	switch {
	case len(o.costs) < QuantileSample:
		o.costs = append(o.costs, cost)
		o.walls = append(o.walls, wall)
		o.finishes = append(o.finishes, finish)
	default:
		if j := o.pick.IntN(o.n + 1); j < QuantileSample {
			o.costs[j], o.walls[j], o.finishes[j] = cost, wall, finish
		}
	}
	o.n++
}

// cost summarizes the total costs.
func (o *outcomes) cost() Summary {
	sorted := slices.Clone(o.costs)
	slices.SortFunc(sorted, func(a, b decimal.Decimal) int { return a.Cmp(b) })
	return Summary{
		Mean: o.costSum.DivRound(decimal.NewFromInt(int64(o.n)), provider.Precision),
		P50:  sorted[quantileIndex(len(sorted), 0.50)],
		P90:  sorted[quantileIndex(len(sorted), 0.90)],
		P99:  sorted[quantileIndex(len(sorted), 0.99)],
	}
}

// durations summarizes durations kept and their sum over all trials.
func (o *outcomes) durations(kept []time.Duration, sum float64) DurationSummary {
	sorted := slices.Clone(kept)
	slices.Sort(sorted)
	return DurationSummary{
		Mean: time.Duration(sum / float64(o.n)),
		P50:  sorted[quantileIndex(len(sorted), 0.50)],
		P90:  sorted[quantileIndex(len(sorted), 0.90)],
		P99:  sorted[quantileIndex(len(sorted), 0.99)],
	}
}

// quantileIndex is the index of the empirical q-quantile of n sorted samples.
func quantileIndex(n int, q float64) int {
	return min(n-1, max(0, int(math.Ceil(q*float64(n)))-1))
}
