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
package tco
