package tco

import "github.com/gputco/gputco/provider"

// MaxHorizon bounds the horizon a workload is priced over (Assumptions.Horizon
// or Workload.Horizon): 100 years of 365 days, beyond any horizon worth
// pricing and well within the range where the package's durations add
// without saturating (about 146 years). A longer horizon is refused, never
// cut.
const MaxHorizon = 100 * provider.Year

// MaxTrials bounds SimulateOptions.Trials: 2²⁰, about a million, a few
// seconds of trials that draw few random events. Memory does not grow with
// the trials beyond QuantileSample of them.
const MaxTrials = 1 << 20
