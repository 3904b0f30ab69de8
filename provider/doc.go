// Package provider describes what GPU capacity can be bought and how it is
// billed: GPUs, offers, pricing modes, the hidden-cost profile of each offer,
// and catalogs of offers in JSON with an embedded, dated default catalog.
//
// A [GPU] is what a machine has; an [Offer] is where and how it can be bought:
// provider, region, jurisdiction, nodes of a given GPU count, interconnect,
// isolation, availability, hidden costs and a [Pricing] mode. Prices are per
// node, the unit that is rented or bought; per-GPU figures are derived.
//
// [Pricing] is the extension point. It turns a [Usage] — how capacity is held
// over a horizon — into [Charge] lines. The built-in modes are [Metered]
// (per-second, per-minute and hourly on-demand are settings of one type),
// [Spot], [Reserved] (a monthly rental is a one-month term), [Owned] (capital
// expense with depreciation, power, colocation, maintenance and staff) and
// [Credit], a wrapper that applies a one-time credit to any mode. Downstream
// code adds its own mode by implementing [Pricing] and, for JSON, registering
// a decoder in a [Decoder]. What the tco and placement packages need to know
// beyond the charges comes through small interfaces a mode implements when
// they fit it — [Metering] (pay-as-you-go billing of runs), [Interruptible]
// (capacity that may be taken back), [LeadTimer], [Committer], [Linear] (the
// charges as rates per node, per busy node-hour and per billed node-hour),
// [Wrapper] (a mode around another, as Credit), [Scaler], [HourlyAdder] and
// [EnergyPricer] — found with [As], which looks through wrappers.
//
// Money is [decimal.Decimal] throughout; quantities are float64 or
// time.Duration. A year is 365 days (8,760 hours) and a month is a twelfth of
// a year (730 hours). Internal divisions round half away from zero at
// [Precision] decimal places; nothing rounds to cents until presentation.
//
// # Errors
//
// Validation returns every problem at once (up to [MaxProblems]), joined
// with [errors.Join]; each problem is a [*FieldError] naming the offer, the
// field and the bad value and wrapping one of the exported sentinel errors,
// so [errors.Is] works. No input panics the package. All exported types are
// safe for concurrent reads, and no function mutates its arguments.
//
// A field is named by its path in the JSON a catalog file is written in —
// the keys of that format, dotted, indices in brackets: "gpusPerNode",
// "availability.maxNodes", "pricing.ratePerHour",
// "pricing.base.ratePerHour" (the mode a credit wraps),
// "pricing.resale.points[2].age" — whether the value was read from a file or
// built in Go, as the workload package names a workload's fields. A pricing
// mode of your own names its fields by the keys of its own JSON object. The
// CSV importers name the column at fault instead ([RowError].Column, e.g.
// "gpus_per_node"), for the problems that the offer's validation finds as
// for those of reading. Values that no file holds are named as Go code names
// them: a [Usage] ("Usage.Runs[0].Length"), the charges and rates a pricing
// returns ("Charges[1].Amount"), import options ("ImportOptions.AsOf"),
// adjustments ("adjustments[0].Percent") and parameters ("horizon").
//
// # Limits
//
// Every input is bounded so that no request can take unbounded work or
// memory; each limit is checked once, by validation or decoding, with an
// error naming it:
//   - [MaxGPUsPerNode] bounds Offer.GPUsPerNode (2¹⁶);
//   - [MaxExponent] bounds the decimal exponent of money amounts (±64);
//   - [MaxChargeExponent] bounds the decimal exponent of the amounts a
//     pricing, a custom one included, returns (±4096), through
//     [CheckCharges] and [CheckRates];
//   - [MaxNumberLen] bounds the text of a number in CSV and of a money
//     amount in JSON ([Amount]) to 64 characters;
//   - [MaxPricingDepth] bounds a chain of pricings (wrappers such as credits
//     around a base mode) to 8, in validation, encoding and decoding alike;
//   - [MaxProblems] bounds the problems one validation, decoding or import
//     lists (100); the rest are counted in a final [*MoreProblemsError], and
//     a catalog with more problems is not returned;
//   - [MaxEchoBytes] bounds how much of a value an error message quotes (64
//     bytes).
package provider
