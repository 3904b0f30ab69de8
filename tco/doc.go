// Package tco prices one workload on one offer: the total cost of ownership
// over a horizon, line by line, with the hidden costs that list prices leave
// out, its present value and monthly cash flow, break-even against another
// offer, spot economics under a checkpoint policy, and the risk around the
// expected figure.
//
// Evaluate is the centre: it checks that the workload can run on the offer
// (Compatible), derives how many nodes it holds and for how long — the work
// divided by the GPU's speed factor and the interconnect's efficiency, then
// stretched by spot preemptions and node failures per Daly's (2006) model of
// checkpoint/restart — and turns that into a provider.Usage that the offer's
// pricing bills. Each effect is priced as the difference it makes to the bill,
// so that the lines add up exactly to the total and each hidden cost can be
// switched off on its own (Assumptions.Exclude).
//
// One cost model serves one workload and many. Prepare validates a workload
// under assumptions and samples a service's demand curve once, with
// workload.Discretize — the slices a placement solver sees — so that
// Prepared.Evaluate prices any number of offers quickly and Evaluate(w, o, a)
// is Prepare followed by Evaluate. Prepared.Terms splits the same bill into
// the linear cost terms a solver needs (Terms: fixed per node held over the
// horizon, variable per node-hour of use, one-off per placement, once per
// offer), which at the workload's own use give Evaluate's total. Every report
// line and every term says whether it belongs to the offer (shared by all
// workloads on that capacity) or to the workload (Owner). Rank prices a
// workload on a list of offers and returns the compatible ones cheapest
// first, and every other one with the error that excluded it; IsCompatible
// answers Compatible's questions without allocating.
//
// The runs of every provider.Usage carry their start times (provider.Run's
// Start and Every), so that a mode may price by when capacity is used — a
// monthly tier, a night rate. A finite job's runs follow one another from
// the horizon's start: setup and the first run, then a run after each
// expected preemption. A service at Assumptions.Utilization runs from the
// start of each day. A service that follows its demand curve runs each
// demand level from the first time the level is needed in the curve's
// period (or the horizon), then at the mean spacing of the level's starts in
// that period — the level's own times when it starts once a period, as a
// daily schedule's levels do; an even spread of its starts otherwise —, moved
// earlier if need be so that its last run ends by the horizon's end; a level
// held through its idle gaps runs from the horizon's start, and setup comes
// right before a level's first run. Time lost to preemptions and failures is
// billed as runs spread evenly over the horizon. A service's node-hours
// count each slice of its sampled period as often as it occurs in the
// horizon: the whole repetitions and, of a partial last one, its part
// before the horizon's end (over 45 days, the slices of a weekly curve's
// first three days count seven times, the others six).
//
// Pricing modes are known only through the provider package's interfaces
// (provider.Metering for pay-as-you-go billing, provider.Interruptible for
// spot-like capacity, provider.Linear for the terms, provider.Wrapper for
// credits, ...), so a mode defined downstream is priced like a built-in one
// with the same behaviour.
//
// BreakEven finds every utilization at which owning and renting cost the same
// and the ranges where each is cheaper;
// Sensitivity varies one input; Simulate draws preemptions, failures and
// stock-outs at random to give the distribution around Evaluate's expectation;
// SimulatePolicy replays a spot-availability trace under a deadline policy
// (greedy or Uniform Progress from "Can't Be Late", NSDI'24).
//
// Money is decimal.Decimal; times are time.Duration; quantities are float64.
// No input panics the package; every function is pure and safe for concurrent
// use.
//
// # Errors
//
// Errors wrap the package's sentinels (or provider's and workload's, whose
// problems pass through unchanged) so that errors.Is works. A field of a
// workload or an offer is named as its own package names it, by its path in
// the JSON a file is written in ("data.datasetGB", "hidden.staffFTE",
// "requirements.interconnect.independent"); the fields of Assumptions,
// DeadlineJob and the other values that no file holds are named as Go code
// names them ("assumptions: Horizon", "deadline job work").
//
// # Limits
//
// Every input is bounded so that no request can take unbounded work or
// memory and no figure is silently cut; each limit is checked once, with an
// error naming it:
//   - the charges and rates a pricing returns (a custom one included) have
//     decimal exponents within ±provider.MaxChargeExponent
//     (provider.CheckCharges);
//   - a job's preemptions must leave runs of at least 1 ns: a spot
//     interruption rate so high that they would not is refused (ErrInfeasible)
//     rather than priced as free;
//   - [MaxHorizon] bounds the horizon costed (100 years), the workload's or
//     the assumptions'; a job's setup and expected (in Simulate, drawn) wall
//     time may not hold capacity beyond it either, and a service's runs,
//     stretched by restarts, up to about 146 years;
//   - [MaxTrials] bounds Simulate's trials (2²⁰), and its memory is that of
//     [QuantileSample] trials (2¹⁶) however many run: beyond that many, its
//     quantiles are those of a uniform sample of the trials; a simulation
//     that would draw more than 5·10⁷ random events is refused
//     (ErrTooManyEvents).
package tco
