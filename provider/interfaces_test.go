package provider_test

import (
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// The built-in modes implement the interfaces that fit them.
var (
	_ provider.Metering      = provider.Metered{}
	_ provider.Metering      = provider.Spot{}
	_ provider.Interruptible = provider.Spot{}
	_ provider.Committer     = provider.Reserved{}
	_ provider.Committer     = provider.Owned{}
	_ provider.LeadTimer     = provider.Owned{}
	_ provider.Wrapper       = provider.Credit{}
	_ provider.HourlyAdder   = provider.Metered{}
	_ provider.HourlyAdder   = provider.Spot{}
	_ provider.HourlyAdder   = provider.Reserved{}
	_ provider.Linear        = provider.Metered{}
	_ provider.Linear        = provider.Spot{}
	_ provider.Linear        = provider.Reserved{}
	_ provider.Linear        = provider.Owned{}
)

// propRatesLinear: for every built-in linear mode and usage, the charges of
// each category equal its rates times the usage's quantities (Linear's
// contract), within 10⁻⁹ of the amount.
func propRatesLinear(t *rapid.T) {
	p, _ := provider.Unwrap(genPricing.Draw(t, "pricing"))
	u := genUsage.Draw(t, "usage")
	lin, ok := p.(provider.Linear)
	if !ok {
		t.Fatalf("%s does not implement Linear", p.Mode())
	}
	rates, err := lin.Rates(u.Horizon)
	if err != nil {
		t.Fatalf("%s.Rates(%v): %v", p.Mode(), u.Horizon, err)
	}
	// In decimal: runs × nodes × billed length overflows int64 nanoseconds
	// for long usages (720 h × 57 × 63 does).
	billedNs := decimal.Zero
	if m, ok := p.(provider.Metering); ok {
		for _, r := range u.Runs {
			billedNs = billedNs.Add(decimal.NewFromInt(int64(m.BilledDuration(r.Length))).Mul(decimal.NewFromInt(int64(r.Count) * int64(r.Nodes))))
		}
	}
	hour := decimal.NewFromInt(int64(time.Hour))
	qty := map[provider.Basis]decimal.Decimal{
		provider.PerNode:           decimal.NewFromInt(int64(u.Nodes)),
		provider.PerBusyNodeHour:   decimal.NewFromFloat(float64(u.Nodes)*u.BusyFraction).Mul(decimal.NewFromInt(int64(u.Horizon))).DivRound(hour, 20),
		provider.PerBilledNodeHour: billedNs.DivRound(hour, 20),
	}
	want := map[provider.Category]decimal.Decimal{}
	for _, c := range mustCharges(t, p, u) {
		want[c.Category] = want[c.Category].Add(c.Amount)
	}
	got := map[provider.Category]decimal.Decimal{}
	for _, r := range rates {
		got[r.Category] = got[r.Category].Add(r.Amount.Mul(qty[r.Basis]))
	}
	for c, w := range want {
		tol := decimal.New(1, -9).Mul(decimal.Max(decimal.NewFromInt(1), w.Abs()))
		if !within(got[c], w, tol) {
			t.Fatalf("%s %s: rates give %s, charges %s (usage %+v)", p.Mode(), c, got[c], w, u)
		}
	}
	for c, g := range got {
		if _, ok := want[c]; !ok && !g.IsZero() {
			t.Fatalf("%s: rates charge %s %s that Charges does not", p.Mode(), g, c)
		}
	}
}

func TestRatesLinear(t *testing.T) { rapid.Check(t, propRatesLinear) }
func FuzzRatesLinear(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propRatesLinear)) }

// TestAsLooksThroughCredits: As finds the mode inside nested credits, Unwrap
// returns it with the credits outermost first, and a mode that does not
// implement an interface is not found.
func TestAsLooksThroughCredits(t *testing.T) {
	spot := provider.Spot{RatePerHour: decimal.NewFromInt(2), InterruptionRatePerHour: 0.01, Notice: time.Minute}
	inner := provider.Credit{Base: spot, Amount: decimal.NewFromInt(5)}
	outer := provider.Credit{Base: inner, Amount: decimal.NewFromInt(7)}
	if i, ok := provider.As[provider.Interruptible](outer); !ok || i != provider.Interruptible(spot) {
		t.Errorf("As[Interruptible] = %v, %v; want the spot mode", i, ok)
	}
	if _, ok := provider.As[provider.Committer](outer); ok {
		t.Error("a spot mode is not a Committer")
	}
	base, wrappers := provider.Unwrap(outer)
	if base != provider.Pricing(spot) || len(wrappers) != 2 || wrappers[0] != provider.Wrapper(outer) || wrappers[1] != provider.Wrapper(inner) {
		t.Errorf("Unwrap = %v, %v", base, wrappers)
	}
	if base, _ := provider.Unwrap(provider.Credit{Amount: decimal.NewFromInt(1)}); base != nil {
		t.Errorf("a credit without a base unwraps to %v, want nil", base)
	}
	owned := provider.Owned{PurchasePerNode: decimal.NewFromInt(1000), UsefulLifeYears: 3, ProcurementLeadTime: 90 * 24 * time.Hour}
	o := provider.Offer{Pricing: provider.Credit{Base: owned, Amount: decimal.NewFromInt(1)}, Availability: provider.Availability{LeadTime: time.Hour}}
	if got := o.LeadTime(); got != owned.ProcurementLeadTime {
		t.Errorf("LeadTime under a credit = %v, want the procurement lead time %v", got, owned.ProcurementLeadTime)
	}
}

// propBookValueFromSchedule: BookValue is the price less the schedule's whole
// years and a pro-rata share of the current one, for every method (the
// straight line computes it without building the schedule).
func propBookValueFromSchedule(t *rapid.T) {
	o := drawOwned(t, 10)
	o.Method = provider.Depreciation(rapid.IntRange(0, 2).Draw(t, "method"))
	age := durationUpTo(12*provider.Year).Draw(t, "age")
	sched := o.Schedule()
	want := o.PurchasePerNode
	full := int(age / provider.Year)
	switch {
	case age <= 0:
	case full >= len(sched):
		want = o.SalvagePerNode
	default:
		for _, d := range sched[:full] {
			want = want.Sub(d)
		}
		frac := decimal.NewFromInt(int64(age%provider.Year)).DivRound(decimal.NewFromInt(int64(provider.Year)), provider.Precision)
		want = want.Sub(sched[full].Mul(frac).Round(provider.Precision))
	}
	if got := o.BookValue(age); !got.Equal(want) {
		t.Fatalf("%s BookValue(%v) = %s, from the schedule %s", o.Method, age, got, want)
	}
}

func TestBookValueFromSchedule(t *testing.T) { rapid.Check(t, propBookValueFromSchedule) }
func FuzzBookValueFromSchedule(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propBookValueFromSchedule)) }
