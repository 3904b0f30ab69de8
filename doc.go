// Package gputco models the total cost of ownership (TCO) of GPU compute —
// what one workload really costs on one offer — and the placement of many
// workloads on the cheapest feasible mix of offers.
//
// Teams that train, fine-tune and serve models choose where their GPUs come from:
// a general cloud (on-demand, spot and reserved virtual machines), a specialised
// GPU platform (per-second or per-minute billing, platform fees, weaker
// isolation) or servers of their own (capital expense, depreciation, power,
// colocation, staff, procurement lead time). List prices mislead: the real cost
// hides in setup time, data transfer, storage, failure recovery, preemptions,
// stock that is quoted but not available, staff and lock-in. gputco prices all
// of it, with money as exact decimals and every figure traceable to a line item.
//
// This package holds documentation only. The work is done by its sub-packages:
//
//   - provider: GPUs, offers, pricing modes (metered per-second, per-minute and
//     hourly on-demand; spot; reserved and monthly rentals; owned hardware with
//     depreciation; credits), the hidden-cost profile of each offer, and
//     catalogs in JSON with an embedded, dated default catalog.
//   - workload: training, fine-tuning, inference, batch and development
//     workloads, their requirements, interruption tolerance, data, and demand
//     curves.
//   - tco: the full cost of one workload on one offer: line items, explicit and
//     hidden subtotals, present value, break-even, spot economics and risk.
//   - placement: the cheapest feasible mix of offers for many workloads,
//     priced by tco's cost terms, with a bound on its distance from optimal;
//     placement/lp is the LP/MILP engine under it, usable on its own.
//   - examples: runnable programs that answer concrete questions.
//
// # Quick start
//
//	cat, err := provider.Default()
//	if err != nil {
//		log.Fatal(err)
//	}
//	for _, o := range cat.Offers {
//		fmt.Println(o.ID, o.GPU.Model, o.Pricing.Mode())
//	}
//
// Money is [github.com/shopspring/decimal.Decimal] everywhere; quantities
// (hours, fractions, rates) are float64 or time.Duration and are validated.
// No input panics the library; validation returns every problem at once.
package gputco
