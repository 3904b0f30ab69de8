package provider_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"

	"github.com/gputco/gputco/provider"
)

// lineTolerance bounds the difference per charge line between two ways of
// computing the same amount. The package's internal divisions round at
// provider.Precision (16) decimal places, so amounts that go through a
// division (hours from nanoseconds, colocation per month, depreciation
// schedules, book values) may differ from exact arithmetic by a few units in
// the 16th place, multiplied by nodes and counts; 1e-12 covers the bounded
// generators below with a wide margin.
var lineTolerance = decimal.New(1, -12)

// ---- generators ------------------------------------------------------------

// drawMoney draws an amount from $0 to maxCents cents, built from an integer
// count of cents so that every amount is exact.
func drawMoney(t *rapid.T, label string, maxCents int64) decimal.Decimal {
	return decimal.New(rapid.Int64Range(0, maxCents).Draw(t, label), -2)
}

// drawRate draws a price per node-hour between $0 and $200.
func drawRate(t *rapid.T, label string) decimal.Decimal {
	return drawMoney(t, label, 20000)
}

// durationUpTo draws a duration in [0, max] as a whole number of a unit
// (nanosecond, second, minute or hour), so that exact multiples of billing
// increments are common.
func durationUpTo(max time.Duration) *rapid.Generator[time.Duration] {
	return rapid.Custom(func(t *rapid.T) time.Duration {
		unit := rapid.SampledFrom([]time.Duration{1, time.Second, time.Minute, time.Hour}).Draw(t, "unit")
		return unit * time.Duration(rapid.Int64Range(0, int64(max/unit)).Draw(t, "units"))
	})
}

var (
	// maxRunLength bounds one run to 30 days.
	maxRunLength = 30 * 24 * time.Hour
	// maxHorizon bounds a horizon to three years.
	maxHorizon = 3 * provider.Year
)

var genRun = rapid.Custom(func(t *rapid.T) provider.Run {
	return provider.Run{
		Length: durationUpTo(maxRunLength).Draw(t, "runLength"),
		Count:  rapid.IntRange(0, 100).Draw(t, "runCount"),
		Nodes:  rapid.IntRange(0, 64).Draw(t, "runNodes"),
	}
})

var genRuns = rapid.SliceOfN(genRun, 0, 4)

var genUsage = rapid.Custom(func(t *rapid.T) provider.Usage {
	return provider.Usage{
		Horizon:      durationUpTo(maxHorizon).Draw(t, "horizon"),
		Nodes:        rapid.IntRange(0, 64).Draw(t, "heldNodes"),
		Runs:         genRuns.Draw(t, "runs"),
		BusyFraction: rapid.Float64Range(0, 1).Draw(t, "busyFraction"),
	}
})

// genIncrement draws a billing increment: pro rata, one of the usual ones or
// an arbitrary one up to two hours.
var genIncrement = rapid.OneOf(
	rapid.SampledFrom([]time.Duration{0, time.Second, time.Minute, time.Hour}),
	durationUpTo(2*time.Hour),
)

// genPositiveIncrement draws a billing increment of at least 1 ns.
var genPositiveIncrement = rapid.OneOf(
	rapid.SampledFrom([]time.Duration{time.Second, time.Minute, time.Hour}),
	rapid.Custom(func(t *rapid.T) time.Duration {
		return time.Duration(rapid.Int64Range(1, int64(2*time.Hour)).Draw(t, "incrementNs"))
	}),
)

// genMetered draws valid metered billing: a minimum of zero (one increment)
// or at least one increment.
var genMetered = rapid.Custom(func(t *rapid.T) provider.Metered {
	m := provider.Metered{RatePerHour: drawRate(t, "rateCents"), Increment: genIncrement.Draw(t, "increment")}
	if rapid.Bool().Draw(t, "hasMinimum") {
		m.Minimum = m.Increment + durationUpTo(2*time.Hour).Draw(t, "minimumBeyondIncrement")
	}
	return m
})

var genSpot = rapid.Custom(func(t *rapid.T) provider.Spot {
	m := genMetered.Draw(t, "spotBilling")
	return provider.Spot{
		RatePerHour: m.RatePerHour, Increment: m.Increment, Minimum: m.Minimum,
		InterruptionRatePerHour: rapid.Float64Range(0, 1).Draw(t, "interruptionsPerHour"),
		Notice:                  durationUpTo(10*time.Minute).Draw(t, "notice"),
	}
})

// genTerm draws a reservation term in whole hours: the usual month, one and
// three years, or anything from one hour to three years.
var genTerm = rapid.OneOf(
	rapid.SampledFrom([]time.Duration{provider.Month, provider.Year, 3 * provider.Year}),
	rapid.Custom(func(t *rapid.T) time.Duration {
		return time.Hour * time.Duration(rapid.Int64Range(1, 3*8760).Draw(t, "termHours"))
	}),
)

var genReserved = rapid.Custom(func(t *rapid.T) provider.Reserved {
	return provider.Reserved{
		Term:             genTerm.Draw(t, "term"),
		UpfrontPerNode:   drawMoney(t, "upfrontCents", 100_000_00),
		RecurringPerHour: drawRate(t, "recurringCents"),
	}
})

// genOwned draws a valid owned server. The useful life is at most 10 years
// (servers are depreciated over 3 to 7) so that the scaling tolerance holds
// for 64 nodes; the depreciation property draws lives up to 100 years.
var genOwned = rapid.Custom(func(t *rapid.T) provider.Owned {
	return drawOwned(t, 10)
})

func drawOwned(t *rapid.T, maxLife int) provider.Owned {
	purchaseCents := rapid.Int64Range(0, 500_000_00).Draw(t, "purchaseCents")
	idle := rapid.Float64Range(0, 5).Draw(t, "idlePowerKW")
	o := provider.Owned{
		PurchasePerNode:            decimal.New(purchaseCents, -2),
		UsefulLifeYears:            rapid.IntRange(1, maxLife).Draw(t, "usefulLifeYears"),
		SalvagePerNode:             decimal.New(rapid.Int64Range(0, purchaseCents).Draw(t, "salvageCents"), -2),
		Method:                     rapid.SampledFrom([]provider.Depreciation{provider.StraightLine, provider.DoubleDeclining, provider.SumOfYearsDigits}).Draw(t, "depreciation"),
		IdlePowerKW:                idle,
		MaxPowerKW:                 idle + rapid.Float64Range(0, 10).Draw(t, "peakAboveIdleKW"),
		PUE:                        rapid.SampledFrom([]float64{0, 1, 1.2, 1.5, 2}).Draw(t, "pue"),
		EnergyPerKWh:               decimal.New(rapid.Int64Range(0, 5000).Draw(t, "energyTenthsOfCentPerKWh"), -4),
		ColocationPerKWMonth:       drawMoney(t, "colocationCentsPerKWMonth", 500_00),
		MaintenanceFractionPerYear: rapid.Float64Range(0, 0.3).Draw(t, "maintenancePerYear"),
		StaffFTEPerNode:            rapid.Float64Range(0, 0.5).Draw(t, "staffFTEPerNode"),
		StaffCostPerYear:           drawMoney(t, "staffCentsPerYear", 300_000_00),
		ProcurementLeadTime:        durationUpTo(180*24*time.Hour).Draw(t, "procurementLeadTime"),
	}
	if rapid.Bool().Draw(t, "hasContractedPower") {
		o.ContractedPowerKW = rapid.Float64Range(0, 20).Draw(t, "contractedPowerKW")
	}
	return o
}

// genBase draws any built-in mode except Credit.
var genBase = rapid.OneOf(
	rapid.Custom(func(t *rapid.T) provider.Pricing { return genMetered.Draw(t, "metered") }),
	rapid.Custom(func(t *rapid.T) provider.Pricing { return genSpot.Draw(t, "spot") }),
	rapid.Custom(func(t *rapid.T) provider.Pricing { return genReserved.Draw(t, "reserved") }),
	rapid.Custom(func(t *rapid.T) provider.Pricing { return genOwned.Draw(t, "owned") }),
)

// genCredit draws a credit of up to $100,000 on a base mode, sometimes on a
// credit on a base mode.
var genCredit = rapid.Custom(func(t *rapid.T) provider.Credit {
	c := provider.Credit{Base: genBase.Draw(t, "creditBase"), Amount: drawMoney(t, "creditCents", 100_000_00)}
	if rapid.Bool().Draw(t, "nestedCredit") {
		c = provider.Credit{Base: c, Amount: drawMoney(t, "outerCreditCents", 100_000_00)}
	}
	return c
})

// genPricing draws any built-in mode.
var genPricing = rapid.OneOf(
	genBase,
	rapid.Custom(func(t *rapid.T) provider.Pricing { return genCredit.Draw(t, "credit") }),
)

// ---- helpers -----------------------------------------------------------------

// mustCharges returns p.Charges(u), failing the property on an error.
func mustCharges(t *rapid.T, p provider.Pricing, u provider.Usage) []provider.Charge {
	t.Helper()
	cs, err := p.Charges(u)
	if err != nil {
		t.Fatalf("%s.Charges(%+v): %v", p.Mode(), u, err)
	}
	return cs
}

// hoursOf converts d to hours the way the package documents: one division
// rounded at provider.Precision.
func hoursOf(d time.Duration) decimal.Decimal {
	return decimal.NewFromInt(int64(d)).DivRound(decimal.NewFromInt(int64(time.Hour)), provider.Precision)
}

// costOf is ratePerHour × d with one division rounded at provider.Precision,
// as the metered modes bill.
func costOf(ratePerHour decimal.Decimal, d time.Duration) decimal.Decimal {
	return ratePerHour.Mul(decimal.NewFromInt(int64(d))).DivRound(decimal.NewFromInt(int64(time.Hour)), provider.Precision)
}

func within(a, b, tol decimal.Decimal) bool { return a.Sub(b).Abs().LessThanOrEqual(tol) }

func oneRun(length time.Duration) provider.Usage {
	return provider.Usage{Horizon: length, Runs: []provider.Run{{Length: length, Count: 1, Nodes: 1}}}
}

// ---- invariant 1: signs and sums --------------------------------------------

// propChargeSigns: every charge is ≥ 0 except credits and residual value
// (≤ 0); Total is exactly the sum of the lines; the explicit and hidden
// subtotals of Split add up to Total exactly.
func propChargeSigns(t *rapid.T) {
	p := genPricing.Draw(t, "pricing")
	u := genUsage.Draw(t, "usage")
	cs := mustCharges(t, p, u)
	if len(cs) == 0 {
		t.Fatalf("%s: no charges", p.Mode())
	}
	sum := decimal.Zero
	for _, c := range cs {
		sum = sum.Add(c.Amount)
		switch {
		case c.Category.MayBeNegative() && c.Amount.IsPositive():
			t.Fatalf("%s: %s line %q = %s, want ≤ 0", p.Mode(), c.Category, c.Label, c.Amount)
		case !c.Category.MayBeNegative() && c.Amount.IsNegative():
			t.Fatalf("%s: %s line %q = %s, want ≥ 0", p.Mode(), c.Category, c.Label, c.Amount)
		}
	}
	total := provider.Total(cs)
	if !total.Equal(sum) {
		t.Fatalf("Total = %s, sum of lines = %s", total, sum)
	}
	explicit, hidden := provider.Split(cs)
	if !explicit.Add(hidden).Equal(total) {
		t.Fatalf("explicit %s + hidden %s != total %s", explicit, hidden, total)
	}
}

func TestChargeSigns(t *testing.T) { rapid.Check(t, propChargeSigns) }
func FuzzChargeSigns(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propChargeSigns)) }

// ---- invariant 2: monotonicity -----------------------------------------------

// grow returns a copy of u with one dimension grown (or all of them at once):
// run lengths, run counts, nodes per run, an extra run, nodes held, the busy
// fraction or the horizon. u is not modified.
func grow(t *rapid.T, u provider.Usage) provider.Usage {
	t.Helper()
	dim := rapid.SampledFrom([]string{"all", "runLength", "runCount", "runNodes", "extraRun", "heldNodes", "busyFraction", "horizon"}).Draw(t, "grownDimension")
	all := dim == "all"
	g := u
	g.Runs = slices.Clone(u.Runs)
	for i := range g.Runs {
		if all || dim == "runLength" {
			g.Runs[i].Length += durationUpTo(maxRunLength).Draw(t, "extraLength")
		}
		if all || dim == "runCount" {
			g.Runs[i].Count += rapid.IntRange(0, 100).Draw(t, "extraCount")
		}
		if all || dim == "runNodes" {
			g.Runs[i].Nodes += rapid.IntRange(0, 64).Draw(t, "extraRunNodes")
		}
	}
	if all || dim == "extraRun" {
		g.Runs = append(g.Runs, genRun.Draw(t, "extraRun"))
	}
	if all || dim == "heldNodes" {
		g.Nodes += rapid.IntRange(0, 64).Draw(t, "extraHeldNodes")
	}
	if all || dim == "busyFraction" {
		f := rapid.Float64Range(0, 1).Draw(t, "busyGrowth")
		g.BusyFraction = math.Min(1, u.BusyFraction+(1-u.BusyFraction)*f)
	}
	if all || dim == "horizon" {
		g.Horizon += durationUpTo(maxHorizon).Draw(t, "extraHorizon")
	}
	return g
}

// propMonotoneInUsage: longer runs, more runs, more nodes, a higher busy
// fraction or a longer horizon never lower the total, for every mode.
func propMonotoneInUsage(t *rapid.T) {
	p := genPricing.Draw(t, "pricing")
	u := genUsage.Draw(t, "usage")
	g := grow(t, u)
	before, after := provider.Total(mustCharges(t, p, u)), provider.Total(mustCharges(t, p, g))
	if after.LessThan(before) {
		t.Fatalf("%s: total fell from %s to %s when usage grew from %+v to %+v", p.Mode(), before, after, u, g)
	}
}

func TestMonotoneInUsage(t *testing.T) { rapid.Check(t, propMonotoneInUsage) }
func FuzzMonotoneInUsage(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMonotoneInUsage)) }

// raise returns p with its prices raised by non-negative amounts. For Owned
// the purchase price rises with the salvage value fixed (a higher salvage is
// money back, not a price); for Credit the base's prices rise and the credit
// stays.
func raise(t *rapid.T, p provider.Pricing) provider.Pricing {
	t.Helper()
	switch p := p.(type) {
	case provider.Metered:
		p.RatePerHour = p.RatePerHour.Add(drawRate(t, "rateIncreaseCents"))
		return p
	case provider.Spot:
		p.RatePerHour = p.RatePerHour.Add(drawRate(t, "rateIncreaseCents"))
		return p
	case provider.Reserved:
		p.UpfrontPerNode = p.UpfrontPerNode.Add(drawMoney(t, "upfrontIncreaseCents", 100_000_00))
		p.RecurringPerHour = p.RecurringPerHour.Add(drawRate(t, "recurringIncreaseCents"))
		return p
	case provider.Owned:
		p.PurchasePerNode = p.PurchasePerNode.Add(drawMoney(t, "purchaseIncreaseCents", 500_000_00))
		p.EnergyPerKWh = p.EnergyPerKWh.Add(decimal.New(rapid.Int64Range(0, 5000).Draw(t, "energyIncrease"), -4))
		p.ColocationPerKWMonth = p.ColocationPerKWMonth.Add(drawMoney(t, "colocationIncreaseCents", 500_00))
		p.StaffCostPerYear = p.StaffCostPerYear.Add(drawMoney(t, "staffIncreaseCents", 300_000_00))
		f := rapid.Float64Range(0, 1).Draw(t, "maintenanceGrowth")
		p.MaintenanceFractionPerYear = math.Min(1, p.MaintenanceFractionPerYear+(1-p.MaintenanceFractionPerYear)*f)
		return p
	case provider.Credit:
		p.Base = raise(t, p.Base)
		return p
	}
	t.Fatalf("raise: unexpected mode %T", p)
	return nil
}

// propMonotoneInPrice: a higher price never lowers the total, for every mode.
func propMonotoneInPrice(t *rapid.T) {
	p := genPricing.Draw(t, "pricing")
	q := raise(t, p)
	u := genUsage.Draw(t, "usage")
	before, after := provider.Total(mustCharges(t, p, u)), provider.Total(mustCharges(t, q, u))
	if after.LessThan(before) {
		t.Fatalf("total fell from %s to %s when prices rose from %+v to %+v", before, after, p, q)
	}
}

func TestMonotoneInPrice(t *testing.T) { rapid.Check(t, propMonotoneInPrice) }
func FuzzMonotoneInPrice(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMonotoneInPrice)) }

// ---- invariant 3: increments, rounding, minimum ------------------------------

// propIncrementOrder: for the same rate and runs, pro-rata ≤ per-second (with
// a minimum of at most one minute) ≤ per-minute ≤ hourly, and pro-rata is a
// lower bound of every metered setting.
func propIncrementOrder(t *rapid.T) {
	rate := drawRate(t, "rateCents")
	perSecondMinimum := time.Second * time.Duration(rapid.IntRange(0, 60).Draw(t, "perSecondMinimumSeconds"))
	u := provider.Usage{Runs: genRuns.Draw(t, "runs")}
	chain := []provider.Metered{
		provider.ProRata(rate),
		provider.PerSecond(rate, perSecondMinimum),
		provider.PerMinute(rate),
		provider.Hourly(rate),
	}
	prev := decimal.Zero
	for i, m := range chain {
		total := provider.Total(mustCharges(t, m, u))
		if i > 0 && total.LessThan(prev) {
			t.Fatalf("%+v costs %s, less than %+v at %s", m, total, chain[i-1], prev)
		}
		prev = total
	}
	floor := provider.Total(mustCharges(t, chain[0], u))
	other := genMetered.Draw(t, "otherMetered")
	other.RatePerHour = rate
	if got := provider.Total(mustCharges(t, other, u)); got.LessThan(floor) {
		t.Fatalf("%+v costs %s, below pro rata %s", other, got, floor)
	}
}

func TestIncrementOrder(t *testing.T) { rapid.Check(t, propIncrementOrder) }
func FuzzIncrementOrder(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propIncrementOrder)) }

// propRoundingExcess: one run longer than the minimum costs at least its
// pro-rata price and less than one increment's price more.
func propRoundingExcess(t *rapid.T) {
	m := genMetered.Draw(t, "metered")
	m.Increment = genPositiveIncrement.Draw(t, "increment")
	if m.Minimum != 0 && m.Minimum < m.Increment {
		m.Minimum = m.Increment
	}
	effectiveMinimum := max(m.Minimum, m.Increment)
	length := effectiveMinimum + time.Duration(rapid.Int64Range(1, int64(maxRunLength)).Draw(t, "lengthBeyondMinimumNs"))
	u := oneRun(length)
	billed := provider.Total(mustCharges(t, m, u))
	exact := provider.Total(mustCharges(t, provider.ProRata(m.RatePerHour), u))
	excess := billed.Sub(exact)
	bound := m.RatePerHour.Mul(hoursOf(m.Increment))
	if excess.IsNegative() {
		t.Fatalf("%+v bills %s for %v, below pro rata %s", m, billed, length, exact)
	}
	if m.RatePerHour.IsPositive() && !excess.LessThan(bound) {
		t.Fatalf("%+v: rounding excess %s for %v, want < one increment's price %s", m, excess, length, bound)
	}
	if m.RatePerHour.IsZero() && !excess.IsZero() {
		t.Fatalf("free %+v: rounding excess %s", m, excess)
	}
}

func TestRoundingExcess(t *testing.T) { rapid.Check(t, propRoundingExcess) }
func FuzzRoundingExcess(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propRoundingExcess)) }

// propMinimumCharge: every run no longer than the minimum is billed exactly
// the minimum, per run and node: rate × minimum × count × nodes, rounded
// once at provider.Precision as Metered documents. The minimum
// is drawn as a whole number of increments: with a minimum that is not a
// multiple of the increment, a run just under the minimum is rounded up past
// it (max(minimum, ⌈run/increment⌉·increment)).
func propMinimumCharge(t *rapid.T) {
	rate := drawRate(t, "rateCents")
	inc := genIncrement.Draw(t, "increment")
	minimum := time.Duration(rapid.Int64Range(1, int64(2*time.Hour)).Draw(t, "minimumNs"))
	if inc > 0 {
		minimum = inc * time.Duration(rapid.IntRange(1, 10).Draw(t, "minimumIncrements"))
	}
	m := provider.Metered{RatePerHour: rate, Increment: inc, Minimum: minimum}
	run := provider.Run{
		Length: time.Duration(rapid.Int64Range(1, int64(minimum)).Draw(t, "shortLengthNs")),
		Count:  rapid.IntRange(0, 100).Draw(t, "runCount"),
		Nodes:  rapid.IntRange(0, 64).Draw(t, "runNodes"),
	}
	got := provider.Total(mustCharges(t, m, provider.Usage{Runs: []provider.Run{run}}))
	want := costOf(rate, minimum*time.Duration(run.Count*run.Nodes))
	if !got.Equal(want) {
		t.Fatalf("%+v bills %s for %+v, want the minimum %s", m, got, run, want)
	}
	spot := provider.Spot{RatePerHour: rate, Increment: inc, Minimum: minimum}
	if s := provider.Total(mustCharges(t, spot, provider.Usage{Runs: []provider.Run{run}})); !s.Equal(want) {
		t.Fatalf("%+v bills %s for %+v, want the minimum %s", spot, s, run, want)
	}
}

func TestMinimumCharge(t *testing.T) { rapid.Check(t, propMinimumCharge) }
func FuzzMinimumCharge(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMinimumCharge)) }

// propSpotBillsAsMetered: spot capacity is billed exactly as its metered part;
// the interruption rate and notice do not change the bill.
func propSpotBillsAsMetered(t *rapid.T) {
	s := genSpot.Draw(t, "spot")
	u := genUsage.Draw(t, "usage")
	spot, metered := provider.Total(mustCharges(t, s, u)), provider.Total(mustCharges(t, s.Metered(), u))
	if !spot.Equal(metered) {
		t.Fatalf("%+v bills %s, its metered part %s", s, spot, metered)
	}
}

func TestSpotBillsAsMetered(t *testing.T) { rapid.Check(t, propSpotBillsAsMetered) }
func FuzzSpotBillsAsMetered(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propSpotBillsAsMetered)) }

// ---- invariant 4: reserved -----------------------------------------------------

// propReservedIgnoresUse: reserved charges do not depend on the runs or the
// busy fraction, only on the horizon and the nodes held.
func propReservedIgnoresUse(t *rapid.T) {
	r := genReserved.Draw(t, "reserved")
	u := genUsage.Draw(t, "usage")
	v := u
	v.Runs = genRuns.Draw(t, "otherRuns")
	v.BusyFraction = rapid.Float64Range(0, 1).Draw(t, "otherBusyFraction")
	if diff := cmp.Diff(mustCharges(t, r, u), mustCharges(t, r, v)); diff != "" {
		t.Fatalf("%+v: charges depend on use (-%+v +%+v):\n%s", r, u, v, diff)
	}
}

func TestReservedIgnoresUse(t *testing.T) { rapid.Check(t, propReservedIgnoresUse) }
func FuzzReservedIgnoresUse(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propReservedIgnoresUse)) }

// propReservedWholeTerms: a horizon costs ⌈horizon/term⌉ whole terms per node,
// each the upfront amount plus the recurring amount for every hour of the
// term. The terms are whole hours, so the term's hours are exact and the
// identity is exact. Over whole terms the total is also the effective hourly
// rate times the node-hours (the rate rounds at provider.Precision).
func propReservedWholeTerms(t *rapid.T) {
	r := genReserved.Draw(t, "reserved")
	u := provider.Usage{Horizon: durationUpTo(maxHorizon).Draw(t, "horizon"), Nodes: rapid.IntRange(0, 64).Draw(t, "heldNodes")}
	var terms int64
	if u.Horizon > 0 {
		terms = (int64(u.Horizon) + int64(r.Term) - 1) / int64(r.Term)
	}
	if got := r.Terms(u.Horizon); got != terms {
		t.Fatalf("%+v.Terms(%v) = %d, want %d", r, u.Horizon, got, terms)
	}
	termHours := decimal.NewFromInt(int64(r.Term / time.Hour))
	perTerm := r.UpfrontPerNode.Add(r.RecurringPerHour.Mul(termHours))
	want := perTerm.Mul(decimal.NewFromInt(terms * int64(u.Nodes)))
	if got := provider.Total(mustCharges(t, r, u)); !got.Equal(want) {
		t.Fatalf("%+v for %v on %d nodes costs %s, want %d terms = %s", r, u.Horizon, u.Nodes, got, terms, want)
	}
	nodeHours := termHours.Mul(decimal.NewFromInt(terms * int64(u.Nodes)))
	viaRate := r.EffectiveRatePerHour().Mul(nodeHours)
	if !within(viaRate, want, decimal.New(1, -provider.Precision).Mul(nodeHours)) {
		t.Fatalf("%+v: effective rate %s × %s node-hours = %s, want %s", r, r.EffectiveRatePerHour(), nodeHours, viaRate, want)
	}
}

func TestReservedWholeTerms(t *testing.T) { rapid.Check(t, propReservedWholeTerms) }
func FuzzReservedWholeTerms(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propReservedWholeTerms)) }

// ---- invariant 5: depreciation -------------------------------------------------

// propDepreciation: for every method the schedule has one non-negative amount
// per year of life summing exactly to price − salvage; the book value starts
// at the price, never rises (on a quarterly grid and at random ages), stays
// between salvage and price, agrees with the schedule at whole years and is
// the salvage value at and after the end of the life.
func propDepreciation(t *rapid.T) {
	o := drawOwned(t, 100)
	sched := o.Schedule()
	if len(sched) != o.UsefulLifeYears {
		t.Fatalf("%v: schedule has %d years, want %d", o.Method, len(sched), o.UsefulLifeYears)
	}
	sum := decimal.Zero
	for y, d := range sched {
		if d.IsNegative() {
			t.Fatalf("%v: depreciation %s in year %d", o.Method, d, y)
		}
		sum = sum.Add(d)
	}
	if want := o.PurchasePerNode.Sub(o.SalvagePerNode); !sum.Equal(want) {
		t.Fatalf("%v: schedule sums to %s, want price − salvage = %s", o.Method, sum, want)
	}
	if bv := o.BookValue(0); !bv.Equal(o.PurchasePerNode) {
		t.Fatalf("%v: BookValue(0) = %s, want price %s", o.Method, bv, o.PurchasePerNode)
	}
	end := time.Duration(o.UsefulLifeYears) * provider.Year
	for _, age := range []time.Duration{end, end + 1, end + durationUpTo(maxHorizon).Draw(t, "ageBeyondLife")} {
		if bv := o.BookValue(age); !bv.Equal(o.SalvagePerNode) {
			t.Fatalf("%v: BookValue(%v) = %s, want salvage %s", o.Method, age, bv, o.SalvagePerNode)
		}
	}
	book := o.PurchasePerNode
	for y, d := range sched {
		if bv := o.BookValue(time.Duration(y) * provider.Year); !bv.Equal(book) {
			t.Fatalf("%v: BookValue at year %d = %s, want price less the schedule = %s", o.Method, y, bv, book)
		}
		book = book.Sub(d)
	}
	ages := []time.Duration{-time.Hour}
	for a := time.Duration(0); a <= end+provider.Year; a += provider.Year / 4 {
		ages = append(ages, a)
	}
	for _, a := range rapid.SliceOfN(rapid.Int64Range(0, int64(end+provider.Year)), 0, 20).Draw(t, "randomAgesNs") {
		ages = append(ages, time.Duration(a))
	}
	slices.Sort(ages)
	prev := o.PurchasePerNode
	for _, a := range ages {
		bv := o.BookValue(a)
		if bv.GreaterThan(prev) {
			t.Fatalf("%v: book value rose to %s at age %v from %s", o.Method, bv, a, prev)
		}
		if bv.LessThan(o.SalvagePerNode) || bv.GreaterThan(o.PurchasePerNode) {
			t.Fatalf("%v: book value %s at age %v outside [salvage %s, price %s]", o.Method, bv, a, o.SalvagePerNode, o.PurchasePerNode)
		}
		prev = bv
	}
}

func TestDepreciation(t *testing.T) { rapid.Check(t, propDepreciation) }
func FuzzDepreciation(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propDepreciation)) }

// ---- invariant 7: scaling and additivity ---------------------------------------

// propScale: scaling every price by an integer k via Scaler scales every line
// by k, within lineTolerance per line: internal divisions round at
// provider.Precision, so k × a rounded quotient and the rounded quotient of k ×
// the dividend may differ in the last places. Scale does not modify its
// receiver, and keeps the line structure (category, label, timing).
func propScale(t *rapid.T) {
	p := genPricing.Draw(t, "pricing")
	u := genUsage.Draw(t, "usage")
	k := decimal.NewFromInt(rapid.Int64Range(0, 20).Draw(t, "k"))
	s, ok := p.(provider.Scaler)
	if !ok {
		t.Fatalf("%T does not implement Scaler", p)
	}
	before := mustCharges(t, p, u)
	scaled := mustCharges(t, s.Scale(k), u)
	if diff := cmp.Diff(before, mustCharges(t, p, u)); diff != "" {
		t.Fatalf("Scale modified its receiver:\n%s", diff)
	}
	if k.IsZero() {
		// Reserved documents that it omits lines that would be zero, so
		// scaling by zero may drop lines: compare line by line with a
		// missing line counting as zero.
		before, scaled = alignLines(before, scaled)
	}
	if len(scaled) != len(before) {
		t.Fatalf("%s: %d lines scaled by %s, %d unscaled", p.Mode(), len(scaled), k, len(before))
	}
	for i, c := range before {
		sc := scaled[i]
		if sc.Category != c.Category || sc.Label != c.Label || sc.Timing != c.Timing {
			t.Fatalf("line %d changed from %+v to %+v", i, c, sc)
		}
		if want := c.Amount.Mul(k); !within(sc.Amount, want, lineTolerance) {
			t.Fatalf("%s line %q scaled by %s = %s, want %s", p.Mode(), c.Label, k, sc.Amount, want)
		}
	}
}

// alignLines returns a and b with the lines of each that the other lacks
// (same category, label and timing) added to it as zero lines, both in a's
// order followed by b's extra lines.
func alignLines(a, b []provider.Charge) ([]provider.Charge, []provider.Charge) {
	type key struct {
		cat    provider.Category
		label  string
		timing provider.Timing
	}
	keyOf := func(c provider.Charge) key { return key{c.Category, c.Label, c.Timing} }
	var order []key
	am, bm := map[key]decimal.Decimal{}, map[key]decimal.Decimal{}
	for _, c := range a {
		if _, ok := am[keyOf(c)]; !ok {
			order = append(order, keyOf(c))
		}
		am[keyOf(c)] = am[keyOf(c)].Add(c.Amount)
	}
	for _, c := range b {
		if _, ok := am[keyOf(c)]; !ok {
			if _, ok := bm[keyOf(c)]; !ok {
				order = append(order, keyOf(c))
			}
		}
		bm[keyOf(c)] = bm[keyOf(c)].Add(c.Amount)
	}
	var ao, bo []provider.Charge
	for _, k := range order {
		ao = append(ao, provider.Charge{Category: k.cat, Label: k.label, Timing: k.timing, Amount: am[k]})
		bo = append(bo, provider.Charge{Category: k.cat, Label: k.label, Timing: k.timing, Amount: bm[k]})
	}
	return ao, bo
}

func TestScale(t *testing.T) { rapid.Check(t, propScale) }
func FuzzScale(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propScale)) }

// propPayAsYouGoAdditive: n identical independent pay-as-you-go workloads
// (the runs of one, n times over) cost n times one, for metered and spot
// billing, within lineTolerance (node-hours are rounded once per bill).
func propPayAsYouGoAdditive(t *rapid.T) {
	p := rapid.OneOf(
		rapid.Custom(func(t *rapid.T) provider.Pricing { return genMetered.Draw(t, "metered") }),
		rapid.Custom(func(t *rapid.T) provider.Pricing { return genSpot.Draw(t, "spot") }),
	).Draw(t, "payAsYouGo")
	u := genUsage.Draw(t, "oneWorkload")
	n := rapid.IntRange(0, 10).Draw(t, "workloads")
	all := u
	all.Runs = nil
	for range n {
		all.Runs = append(all.Runs, u.Runs...)
	}
	one, many := provider.Total(mustCharges(t, p, u)), provider.Total(mustCharges(t, p, all))
	if want := one.Mul(decimal.NewFromInt(int64(n))); !within(many, want, lineTolerance) {
		t.Fatalf("%d workloads cost %s, want %d × %s = %s", n, many, n, one, want)
	}
}

func TestPayAsYouGoAdditive(t *testing.T) { rapid.Check(t, propPayAsYouGoAdditive) }
func FuzzPayAsYouGoAdditive(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propPayAsYouGoAdditive)) }

// ---- invariant 8: credits ----------------------------------------------------

// propCredit: a credit keeps the base's lines, adds one CreditCategory line of
// −min(credit, base total) and so lowers the total by exactly that, never
// below zero.
func propCredit(t *rapid.T) {
	c := genCredit.Draw(t, "credit")
	u := genUsage.Draw(t, "usage")
	base := mustCharges(t, c.Base, u)
	cs := mustCharges(t, c, u)
	if len(cs) != len(base)+1 {
		t.Fatalf("credit has %d lines, base %d", len(cs), len(base))
	}
	if diff := cmp.Diff(base, cs[:len(base)]); diff != "" {
		t.Fatalf("credit changed the base's lines:\n%s", diff)
	}
	baseTotal := provider.Total(base)
	applied := decimal.Min(c.Amount, baseTotal)
	line := cs[len(base)]
	if line.Category != provider.CreditCategory || !line.Amount.Equal(applied.Neg()) {
		t.Fatalf("credit line %+v, want %s of category credit", line, applied.Neg())
	}
	total := provider.Total(cs)
	if want := baseTotal.Sub(applied); !total.Equal(want) {
		t.Fatalf("credit %s on %s gives %s, want %s", c.Amount, baseTotal, total, want)
	}
	if total.IsNegative() {
		t.Fatalf("credit %s on %s gives a negative total %s", c.Amount, baseTotal, total)
	}
}

func TestCredit(t *testing.T) { rapid.Check(t, propCredit) }
func FuzzCredit(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propCredit)) }

// ---- hand-checked cases --------------------------------------------------------

func usd(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestChargesHandChecked(t *testing.T) {
	owned := provider.Owned{
		PurchasePerNode: usd("1000"), UsefulLifeYears: 5, SalvagePerNode: usd("100"),
		IdlePowerKW: 1, MaxPowerKW: 2, PUE: 1.5, EnergyPerKWh: usd("0.10"),
		ColocationPerKWMonth: usd("100"), MaintenanceFractionPerYear: 0.1,
		StaffFTEPerNode: 0.1, StaffCostPerYear: usd("120000"),
	}
	tests := []struct {
		name    string
		reason  string
		pricing provider.Pricing
		usage   provider.Usage
		want    decimal.Decimal
	}{
		{
			name:    "per-second 90 s",
			reason:  "90 s at $3.60/h is 90 × $0.001 = $0.09",
			pricing: provider.PerSecond(usd("3.60"), time.Minute),
			usage:   oneRun(90 * time.Second),
			want:    usd("0.09"),
		},
		{
			name:    "per-second below minimum",
			reason:  "30 s with a 60 s minimum is billed 60 s at $3.60/h = $0.06",
			pricing: provider.PerSecond(usd("3.60"), time.Minute),
			usage:   oneRun(30 * time.Second),
			want:    usd("0.06"),
		},
		{
			name:    "per-second fractional second",
			reason:  "90.2 s rounds up to 91 s at $3.60/h = $0.091",
			pricing: provider.PerSecond(usd("3.60"), time.Minute),
			usage:   oneRun(90*time.Second + 200*time.Millisecond),
			want:    usd("0.091"),
		},
		{
			name:    "per-second runs and nodes",
			reason:  "3 runs of 90 s on 2 nodes are 6 × $0.09 = $0.54",
			pricing: provider.PerSecond(usd("3.60"), time.Minute),
			usage:   provider.Usage{Runs: []provider.Run{{Length: 90 * time.Second, Count: 3, Nodes: 2}}},
			want:    usd("0.54"),
		},
		{
			name:    "per-minute 61 s",
			reason:  "61 s is billed as 2 minutes at $3.60/h = $0.12",
			pricing: provider.PerMinute(usd("3.60")),
			usage:   oneRun(61 * time.Second),
			want:    usd("0.12"),
		},
		{
			name:    "hourly 61 min",
			reason:  "61 minutes is billed as 2 whole hours at $2.50/h = $5",
			pricing: provider.Hourly(usd("2.50")),
			usage:   oneRun(61 * time.Minute),
			want:    usd("5"),
		},
		{
			name:    "pro rata 90 s",
			reason:  "pro rata bills 90 s exactly: $0.09 at $3.60/h",
			pricing: provider.ProRata(usd("3.60")),
			usage:   oneRun(90 * time.Second),
			want:    usd("0.09"),
		},
		{
			name:    "zero-length run",
			reason:  "a run that never starts costs nothing, whatever the minimum",
			pricing: provider.Hourly(usd("2.50")),
			usage:   oneRun(0),
			want:    usd("0"),
		},
		{
			name:    "spot hourly 61 min",
			reason:  "spot bills like metered: 2 hours at $1.10/h = $2.20",
			pricing: provider.Spot{RatePerHour: usd("1.10"), Increment: time.Hour, InterruptionRatePerHour: 0.01, Notice: 2 * time.Minute},
			usage:   oneRun(61 * time.Minute),
			want:    usd("2.20"),
		},
		{
			name:    "reserved 13 months of a 1-year term",
			reason:  "13 months need 2 one-year terms: 2 × ($1000 upfront + 8760 h × $1) = $19520",
			pricing: provider.Reserved{Term: provider.Year, UpfrontPerNode: usd("1000"), RecurringPerHour: usd("1")},
			usage:   provider.Usage{Horizon: 13 * provider.Month, Nodes: 1},
			want:    usd("19520"),
		},
		{
			name:    "reserved 12 months of a 1-year term",
			reason:  "exactly one year needs exactly one term: $1000 + 8760 h × $1 = $9760",
			pricing: provider.Reserved{Term: provider.Year, UpfrontPerNode: usd("1000"), RecurringPerHour: usd("1")},
			usage:   provider.Usage{Horizon: provider.Year, Nodes: 1},
			want:    usd("9760"),
		},
		{
			name:    "monthly rental 45 days on 2 nodes",
			reason:  "45 days need 2 one-month terms on each of 2 nodes: 4 × $2000 = $8000",
			pricing: provider.Monthly(usd("2000")),
			usage:   provider.Usage{Horizon: 45 * 24 * time.Hour, Nodes: 2, BusyFraction: 0.1},
			want:    usd("8000"),
		},
		{
			name:    "monthly rental one month",
			reason:  "one month is one term: $2000",
			pricing: provider.Monthly(usd("2000")),
			usage:   provider.Usage{Horizon: provider.Month, Nodes: 1},
			want:    usd("2000"),
		},
		{
			name: "owned server one year",
			reason: "purchase $1000; energy 1.5 kW × PUE 1.5 × 8760 h × $0.10 = $1971; colocation 2 kW × $100 × 12 = $2400; " +
				"maintenance 10 % × $1000 = $100; staff 0.1 × $120000 = $12000; residual −$820 (SL: 1000 − 180) → $16651",
			pricing: owned,
			usage:   provider.Usage{Horizon: provider.Year, Nodes: 1, BusyFraction: 0.5},
			want:    usd("16651"),
		},
		{
			name:    "credit larger than the bill",
			reason:  "a $300 credit on a $5 bill takes the total to zero, not below",
			pricing: provider.Credit{Base: provider.Hourly(usd("2.50")), Amount: usd("300")},
			usage:   oneRun(61 * time.Minute),
			want:    usd("0"),
		},
		{
			name:    "credit smaller than the bill",
			reason:  "a $2 credit on a $5 bill leaves $3",
			pricing: provider.Credit{Base: provider.Hourly(usd("2.50")), Amount: usd("2")},
			usage:   oneRun(61 * time.Minute),
			want:    usd("3"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := tt.pricing.Charges(tt.usage)
			if err != nil {
				t.Fatalf("Charges: %v", err)
			}
			// rate × billed time is divided once, rounding at
			// provider.Precision, so non-terminating figures are off in
			// the 16th place.
			if got := provider.Total(cs); !within(got, tt.want, lineTolerance) {
				t.Errorf("total = %s, want %s (%s)\nlines: %+v", got, tt.want, tt.reason, cs)
			}
		})
	}
}

func TestChargeLines(t *testing.T) {
	owned := provider.Owned{
		PurchasePerNode: usd("1000"), UsefulLifeYears: 5, SalvagePerNode: usd("100"),
		IdlePowerKW: 1, MaxPowerKW: 2, PUE: 1.5, EnergyPerKWh: usd("0.10"),
		ColocationPerKWMonth: usd("100"), MaintenanceFractionPerYear: 0.1,
		StaffFTEPerNode: 0.1, StaffCostPerYear: usd("120000"),
	}
	tests := []struct {
		name    string
		reason  string
		pricing provider.Pricing
		usage   provider.Usage
		want    []provider.Charge
	}{
		{
			name:    "owned server two nodes one year",
			reason:  "the one-year, one-node figures of TestChargesHandChecked, doubled, in the documented order",
			pricing: owned,
			usage:   provider.Usage{Horizon: provider.Year, Nodes: 2, BusyFraction: 0.5},
			want: []provider.Charge{
				{Category: provider.Capital, Label: "purchase", Amount: usd("2000"), Timing: provider.Upfront},
				{Category: provider.Power, Label: "energy", Amount: usd("3942"), Timing: provider.Spread},
				{Category: provider.Facility, Label: "colocation", Amount: usd("4800"), Timing: provider.Spread},
				{Category: provider.Facility, Label: "maintenance", Amount: usd("200"), Timing: provider.Spread},
				{Category: provider.Staff, Label: "operations staff", Amount: usd("24000"), Timing: provider.Spread},
				{Category: provider.Residual, Label: "residual at book value", Amount: usd("-1640"), Timing: provider.AtEnd},
			},
		},
		{
			name:    "reserved 13 months of a 1-year term",
			reason:  "13 months = 9490 h need two terms; the second term's 8030 h beyond the horizon are still owed",
			pricing: provider.Reserved{Term: provider.Year, UpfrontPerNode: usd("1000"), RecurringPerHour: usd("1")},
			usage:   provider.Usage{Horizon: 13 * provider.Month, Nodes: 1},
			want: []provider.Charge{
				{Category: provider.Commitment, Label: "upfront", Amount: usd("1000"), Timing: provider.Upfront},
				{Category: provider.Commitment, Label: "renewal upfront", Amount: usd("1000"), Timing: provider.Spread},
				{Category: provider.Commitment, Label: "recurring", Amount: usd("9490"), Timing: provider.Spread},
				{Category: provider.Commitment, Label: "commitment beyond horizon", Amount: usd("8030"), Timing: provider.AtEnd},
			},
		},
		{
			name:    "reserved nothing held",
			reason:  "with no nodes held a reservation is one zero recurring line",
			pricing: provider.Reserved{Term: provider.Year, UpfrontPerNode: usd("1000"), RecurringPerHour: usd("1")},
			usage:   provider.Usage{Horizon: provider.Year},
			want:    []provider.Charge{{Category: provider.Commitment, Label: "recurring", Amount: usd("0"), Timing: provider.Spread}},
		},
		{
			name:    "credit line",
			reason:  "a credit appends one upfront credit line of −min(credit, total) to the base's lines",
			pricing: provider.Credit{Base: provider.Hourly(usd("2.50")), Amount: usd("2")},
			usage:   oneRun(61 * time.Minute),
			want: []provider.Charge{
				{Category: provider.Compute, Label: "on-demand compute", Amount: usd("5"), Timing: provider.Spread},
				{Category: provider.CreditCategory, Label: "credit", Amount: usd("-2"), Timing: provider.Upfront},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.pricing.Charges(tt.usage)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("charges (-want +got), %s:\n%s", tt.reason, diff)
			}
		})
	}
}

func TestDepreciationSchedules(t *testing.T) {
	server := func(m provider.Depreciation) provider.Owned {
		return provider.Owned{PurchasePerNode: usd("1000"), SalvagePerNode: usd("100"), UsefulLifeYears: 5, Method: m}
	}
	tests := []struct {
		name   string
		reason string
		owned  provider.Owned
		want   []string
	}{
		{
			name:   "straight line",
			reason: "(1000 − 100)/5 = 180 every year",
			owned:  server(provider.StraightLine),
			want:   []string{"180", "180", "180", "180", "180"},
		},
		{
			name: "double declining",
			reason: "40 % of book: 400, 240, 144, 86.4 (larger than the straight-line rest, 58), " +
				"then the rest down to salvage: 129.6 − 100 = 29.6",
			owned: server(provider.DoubleDeclining),
			want:  []string{"400", "240", "144", "86.4", "29.6"},
		},
		{
			name:   "sum of years digits",
			reason: "900 × 5/15, 4/15, 3/15, 2/15, 1/15",
			owned:  server(provider.SumOfYearsDigits),
			want:   []string{"300", "240", "180", "120", "60"},
		},
		{
			name:   "one-year life",
			reason: "a one-year life depreciates everything down to salvage in year one",
			owned:  provider.Owned{PurchasePerNode: usd("1000"), SalvagePerNode: usd("100"), UsefulLifeYears: 1, Method: provider.DoubleDeclining},
			want:   []string{"900"},
		},
		{
			name:   "straight line three years",
			reason: "1000/3 does not terminate: the last year takes the remainder so the sum is exact",
			owned:  provider.Owned{PurchasePerNode: usd("1000"), UsefulLifeYears: 3},
			want:   []string{"333.3333333333333333", "333.3333333333333333", "333.3333333333333334"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []decimal.Decimal
			for _, s := range tt.want {
				want = append(want, usd(s))
			}
			if diff := cmp.Diff(want, tt.owned.Schedule()); diff != "" {
				t.Errorf("schedule (-want +got), %s:\n%s", tt.reason, diff)
			}
		})
	}
}

func TestBookValueHandChecked(t *testing.T) {
	o := provider.Owned{PurchasePerNode: usd("1000"), SalvagePerNode: usd("100"), UsefulLifeYears: 5, Method: provider.DoubleDeclining}
	tests := []struct {
		name   string
		reason string
		age    time.Duration
		want   string
	}{
		{name: "new", reason: "at age zero the book value is the price", age: 0, want: "1000"},
		{name: "before purchase", reason: "a negative age is before the purchase: the price", age: -provider.Year, want: "1000"},
		{name: "half year", reason: "half of the first year's 400", age: provider.Year / 2, want: "800"},
		{name: "two years", reason: "1000 − 400 − 240", age: 2 * provider.Year, want: "360"},
		{name: "end of life", reason: "salvage at the end of the life", age: 5 * provider.Year, want: "100"},
		{name: "after life", reason: "salvage after the end of the life", age: 9 * provider.Year, want: "100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := o.BookValue(tt.age); !got.Equal(usd(tt.want)) {
				t.Errorf("BookValue(%v) = %s, want %s (%s)", tt.age, got, tt.want, tt.reason)
			}
		})
	}
}

func TestRatePerGPUHour(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		pricing provider.Pricing
		gpus    int
		horizon time.Duration
		want    string
	}{
		{
			name: "hourly 8-GPU node", reason: "$32 per node-hour over 8 GPUs is $4 per GPU-hour",
			pricing: provider.Hourly(usd("32")), gpus: 8, horizon: 100 * time.Hour, want: "4",
		},
		{
			name: "reserved whole year", reason: "$8760 upfront for a year on 1 GPU is $1 per GPU-hour",
			pricing: provider.Reserved{Term: provider.Year, UpfrontPerNode: usd("8760")}, gpus: 1, horizon: provider.Year, want: "1",
		},
		{
			name: "reserved half a term", reason: "half a year still pays the whole term: $2 per GPU-hour",
			pricing: provider.Reserved{Term: provider.Year, UpfrontPerNode: usd("8760")}, gpus: 1, horizon: provider.Year / 2, want: "2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := validOffer("rate")
			o.Pricing, o.GPUsPerNode = tt.pricing, tt.gpus
			got, err := o.RatePerGPUHour(tt.horizon)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(usd(tt.want)) {
				t.Errorf("RatePerGPUHour = %s, want %s (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// propGeneratorsValid: the generators above produce valid pricings and
// usages; a generator bug would otherwise surface as confusing failures.
func propGeneratorsValid(t *rapid.T) {
	p := genPricing.Draw(t, "pricing")
	if err := p.Validate(); err != nil {
		t.Fatalf("generated %+v is invalid: %v", p, err)
	}
	if err := genUsage.Draw(t, "usage").Validate(); err != nil {
		t.Fatalf("generated usage is invalid: %v", err)
	}
}

func TestGeneratorsValid(t *testing.T) { rapid.Check(t, propGeneratorsValid) }
func FuzzGeneratorsValid(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propGeneratorsValid)) }

// propBilledDuration: BilledDuration is BilledTime in nanoseconds, exactly.
func propBilledDuration(t *rapid.T) {
	m := provider.Metered{
		Increment: genIncrement.Draw(t, "increment"),
		Minimum:   time.Duration(rapid.Int64Range(0, int64(2*time.Hour)).Draw(t, "minimumNs")),
	}
	if m.Minimum < m.Increment {
		m.Minimum = 0
	}
	length := time.Duration(rapid.Int64Range(0, int64(1000*time.Hour)).Draw(t, "runLengthNs"))
	got := decimal.NewFromInt(int64(m.BilledDuration(length)))
	want := m.BilledTime(length).Mul(decimal.NewFromInt(int64(time.Hour)))
	if got.Sub(want).Abs().GreaterThan(decimal.NewFromInt(1)) {
		t.Fatalf("%+v: BilledDuration(%v) = %s ns, BilledTime = %s ns", m, length, got, want)
	}
}

func TestBilledDuration(t *testing.T) { rapid.Check(t, propBilledDuration) }
func FuzzBilledDuration(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propBilledDuration)) }
