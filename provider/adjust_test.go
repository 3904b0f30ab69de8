package provider_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"

	"github.com/gputco/gputco/provider"
)

var (
	byoProviders = []string{"AWS", "GCP", "Lambda"}
	byoRegions   = []string{"us-east-1", "eu-west-1"}
	byoModels    = []string{"H100 SXM", "A100 80GB"}
	byoModes     = []string{"metered", "spot", "reserved", "owned", "credit"}
)

// byoMoney draws an amount in cents from 0 to max units.
func byoMoney(t *rapid.T, label string, max int64) decimal.Decimal {
	return decimal.New(rapid.Int64Range(0, max*100).Draw(t, label), -2)
}

// byoPricing draws a valid pricing; owned hardware only when withOwned.
func byoPricing(t *rapid.T, withOwned bool) provider.Pricing {
	modes := byoModes
	if !withOwned {
		modes = []string{"metered", "spot", "reserved", "credit"}
	}
	switch rapid.SampledFrom(modes).Draw(t, "mode") {
	case "metered":
		return provider.PerSecond(byoMoney(t, "rate", 100), time.Minute)
	case "spot":
		return provider.Spot{RatePerHour: byoMoney(t, "spot rate", 100), Increment: time.Second,
			InterruptionRatePerHour: rapid.Float64Range(0, 0.01).Draw(t, "interruptions per hour")}
	case "reserved":
		return provider.Reserved{Term: rapid.SampledFrom([]time.Duration{provider.Month, provider.Year}).Draw(t, "term"),
			UpfrontPerNode: byoMoney(t, "upfront", 100_000), RecurringPerHour: byoMoney(t, "recurring", 50)}
	case "owned":
		purchase := byoMoney(t, "purchase", 400_000)
		return provider.Owned{PurchasePerNode: purchase, UsefulLifeYears: rapid.IntRange(1, 6).Draw(t, "life"),
			SalvagePerNode: purchase.Mul(decimal.New(rapid.Int64Range(0, 100).Draw(t, "salvage %"), -2)),
			IdlePowerKW:    2, MaxPowerKW: 10, PUE: 1.3, EnergyPerKWh: byoMoney(t, "energy", 1),
			MaintenanceFractionPerYear: 0.1}
	default:
		return provider.Credit{Base: provider.Hourly(byoMoney(t, "credited rate", 100)), Amount: byoMoney(t, "credit", 1000)}
	}
}

// byoCatalog generates valid catalogs of up to 6 offers with unique IDs drawn
// from a pool of 8, so that two catalogs often share IDs.
func byoCatalog(withOwned bool) *rapid.Generator[provider.Catalog] {
	return rapid.Custom(func(t *rapid.T) provider.Catalog {
		ids := rapid.Permutation([]string{"o0", "o1", "o2", "o3", "o4", "o5", "o6", "o7"}).Draw(t, "ids")
		n := rapid.IntRange(0, 6).Draw(t, "offers")
		c := provider.Catalog{
			Currency: "USD",
			AsOf:     time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rapid.IntRange(0, 700).Draw(t, "catalog day")),
		}
		for i := range n {
			o := provider.Offer{
				ID:           ids[i],
				Provider:     rapid.SampledFrom(byoProviders).Draw(t, "provider"),
				Region:       rapid.SampledFrom(byoRegions).Draw(t, "region"),
				GPU:          provider.GPU{Model: rapid.SampledFrom(byoModels).Draw(t, "gpu"), MemoryGiB: 80},
				GPUsPerNode:  rapid.SampledFrom([]int{1, 8}).Draw(t, "gpus per node"),
				Pricing:      byoPricing(t, withOwned),
				Availability: provider.Availability{FillProbability: 1},
			}
			if rapid.Bool().Draw(t, "dated offer") {
				o.Source.AsOf = c.AsOf.AddDate(0, 0, -rapid.IntRange(0, 400).Draw(t, "offer age days"))
			}
			c.Offers = append(c.Offers, o)
		}
		return c
	})
}

// byoSelector draws a selector whose fields are empty or one of the pools.
func byoSelector(t *rapid.T) provider.Selector {
	pick := func(label string, pool []string) string {
		if rapid.Bool().Draw(t, label+" any") {
			return ""
		}
		return rapid.SampledFrom(pool).Draw(t, label)
	}
	return provider.Selector{Provider: pick("provider", byoProviders), Region: pick("region", byoRegions),
		GPUModel: pick("gpu", byoModels), Mode: pick("mode", byoModes)}
}

// byoAdjustment generates adjustments with a percentage in [minPct, maxPct]
// and an absolute amount in [minAmt, maxAmt] per node-hour, both in hundredths.
func byoAdjustment(minPct, maxPct, minAmt, maxAmt int64) *rapid.Generator[provider.Adjustment] {
	return rapid.Custom(func(t *rapid.T) provider.Adjustment {
		a := provider.Adjustment{
			Selector: byoSelector(t),
			Percent:  decimal.New(rapid.Int64Range(minPct, maxPct).Draw(t, "percent x100"), -2),
			Weight:   rapid.IntRange(-3, 3).Draw(t, "weight"),
			Source:   provider.Source{Name: "negotiated", AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
		}
		if rapid.Bool().Draw(t, "absolute") {
			a.AmountPerNodeHour = decimal.New(rapid.Int64Range(minAmt, maxAmt).Draw(t, "amount x100"), -2)
		}
		return a
	})
}

// propAdjustZeroPercent: an adjustment of 0 % (and no amount) changes nothing.
func propAdjustZeroPercent(t *rapid.T) {
	c := byoCatalog(true).Draw(t, "catalog")
	adjs := []provider.Adjustment{{Selector: byoSelector(t), Weight: rapid.IntRange(-3, 3).Draw(t, "weight")}}
	got, applied, err := provider.ApplyAdjustments(c, adjs)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, got); diff != "" {
		t.Fatalf("0 %% changed the catalog (-before +after):\n%s", diff)
	}
	for _, a := range applied {
		if !a.ListPerGPUHour.Equal(a.AdjustedPerGPUHour) || a.Clamped {
			t.Fatalf("0 %% changed %s: %v", a.Offer, a)
		}
	}
}

func TestAdjustZeroPercent(t *testing.T) { rapid.Check(t, propAdjustZeroPercent) }
func FuzzAdjustZeroPercent(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propAdjustZeroPercent)) }

// propAdjustDiscountsNeverRaise: discounts (percent ≤ 0, amount ≤ 0) never
// raise the price of any offer, and never take one below zero.
func propAdjustDiscountsNeverRaise(t *rapid.T) {
	c := byoCatalog(false).Draw(t, "catalog")
	adjs := rapid.SliceOfN(byoAdjustment(-15000, 0, -500, 0), 0, 4).Draw(t, "discounts")
	got, applied, err := provider.ApplyAdjustments(c, adjs)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range got.Offers {
		before, err1 := c.Offers[i].RatePerGPUHour(provider.Year)
		after, err2 := o.RatePerGPUHour(provider.Year)
		if err := errors.Join(err1, err2); err != nil {
			t.Fatal(err)
		}
		if after.GreaterThan(before) || after.IsNegative() {
			t.Fatalf("%s: %s → %s per GPU-hour", o.ID, before, after)
		}
	}
	for _, a := range applied {
		if a.AdjustedPerGPUHour.GreaterThan(a.ListPerGPUHour) {
			t.Fatalf("Applied raised a price: %v", a)
		}
	}
}

func TestAdjustDiscountsNeverRaise(t *testing.T) { rapid.Check(t, propAdjustDiscountsNeverRaise) }
func FuzzAdjustDiscountsNeverRaise(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(propAdjustDiscountsNeverRaise))
}

// propAdjustComposeInWeightOrder: applying a set of adjustments at once is
// applying them one at a time in ascending weight, ties in slice order.
func propAdjustComposeInWeightOrder(t *rapid.T) {
	c := byoCatalog(false).Draw(t, "catalog")
	adjs := rapid.SliceOfN(byoAdjustment(-15000, 5000, -500, 500), 0, 5).Draw(t, "adjustments")
	all, _, err := provider.ApplyAdjustments(c, adjs)
	if err != nil {
		t.Fatal(err)
	}
	sorted := slices.Clone(adjs)
	slices.SortStableFunc(sorted, func(a, b provider.Adjustment) int { return a.Weight - b.Weight })
	step := c
	for _, a := range sorted {
		if step, _, err = provider.ApplyAdjustments(step, []provider.Adjustment{a}); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(step, all); diff != "" {
		t.Fatalf("at once differs from one by one in weight order (-one by one +at once):\n%s", diff)
	}
}

func TestAdjustComposeInWeightOrder(t *testing.T) { rapid.Check(t, propAdjustComposeInWeightOrder) }
func FuzzAdjustComposeInWeightOrder(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(propAdjustComposeInWeightOrder))
}

func byoAdjustCatalog() provider.Catalog {
	h100 := provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700}
	mk := func(id, prov string, p provider.Pricing) provider.Offer {
		return provider.Offer{ID: id, Provider: prov, Region: "us-east-1", GPU: h100, GPUsPerNode: 8, Pricing: p,
			Availability: provider.Availability{FillProbability: 1}}
	}
	return provider.Catalog{Currency: "USD", AsOf: byoDate("2026-01-15"), Offers: provider.Offers{
		mk("aws-p5", "AWS", provider.PerSecond(byoDec("55.04"), time.Minute)),
		mk("aws-p5-spot", "AWS", provider.Spot{RatePerHour: byoDec("11.25"), Increment: time.Second}),
		mk("aws-p5-1y", "AWS", provider.Reserved{Term: provider.Year, RecurringPerHour: byoDec("43.16")}),
		mk("lambda-month", "Lambda", provider.Monthly(byoDec("20000"))),
		mk("own", "self", provider.Owned{PurchasePerNode: byoDec("300000"), UsefulLifeYears: 5}),
	}}
}

func TestApplyAdjustments(t *testing.T) {
	aws := provider.Selector{Provider: "aws"}
	tests := []struct {
		name    string
		reason  string
		adjs    []provider.Adjustment
		offer   string
		want    provider.Pricing
		clamped bool
	}{
		{"percent", "-15 % scales the rate by 0.85; the selector ignores case",
			[]provider.Adjustment{{Selector: aws, Percent: byoDec("-15")}}, "aws-p5",
			provider.PerSecond(byoDec("46.784"), time.Minute), false},
		{"absolute", "an absolute amount is added to the spot rate",
			[]provider.Adjustment{{Selector: aws, AmountPerNodeHour: byoDec("-1.25")}}, "aws-p5-spot",
			provider.Spot{RatePerHour: byoDec("10"), Increment: time.Second}, false},
		{"weight order", "percent at weight 2 applies after the amount at weight 1: (55.04-5.04)·0.9",
			[]provider.Adjustment{{Selector: aws, Percent: byoDec("-10"), Weight: 2}, {Selector: aws, AmountPerNodeHour: byoDec("-5.04"), Weight: 1}},
			"aws-p5", provider.PerSecond(byoDec("45"), time.Minute), false},
		{"weight order reversed", "the same two with weights swapped: 55.04·0.9-5.04",
			[]provider.Adjustment{{Selector: aws, Percent: byoDec("-10"), Weight: 1}, {Selector: aws, AmountPerNodeHour: byoDec("-5.04"), Weight: 2}},
			"aws-p5", provider.PerSecond(byoDec("44.496"), time.Minute), false},
		{"percentages compound", "-10 % twice is -19 %",
			[]provider.Adjustment{{Percent: byoDec("-10")}, {Percent: byoDec("-10")}}, "aws-p5-1y",
			provider.Reserved{Term: provider.Year, RecurringPerHour: byoDec("34.9596")}, false},
		{"reserved absolute beyond recurring", "a monthly rental has no recurring rate: -1/h takes 730 from the upfront",
			[]provider.Adjustment{{Selector: provider.Selector{Provider: "Lambda"}, AmountPerNodeHour: byoDec("-1")}}, "lambda-month",
			provider.Monthly(byoDec("19270")), false},
		{"clamp absolute", "a discount larger than the rate stops at zero",
			[]provider.Adjustment{{Selector: provider.Selector{Mode: "spot"}, AmountPerNodeHour: byoDec("-20")}}, "aws-p5-spot",
			provider.Spot{RatePerHour: decimal.Zero, Increment: time.Second}, true},
		{"clamp percent", "-150 % is clamped to free",
			[]provider.Adjustment{{Selector: provider.Selector{Mode: "metered"}, Percent: byoDec("-150")}}, "aws-p5",
			provider.PerSecond(decimal.Zero, time.Minute), true},
		{"owned percent", "owned hardware takes percentages through Scaler",
			[]provider.Adjustment{{Selector: provider.Selector{Mode: "owned"}, Percent: byoDec("-20")}}, "own",
			provider.Owned{PurchasePerNode: byoDec("240000"), UsefulLifeYears: 5, SalvagePerNode: decimal.Zero,
				EnergyPerKWh: decimal.Zero, ColocationPerKWMonth: decimal.Zero, StaffCostPerYear: decimal.Zero}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := byoAdjustCatalog()
			got, applied, err := provider.ApplyAdjustments(in, tt.adjs)
			if err != nil {
				t.Fatalf("%s: %v", tt.reason, err)
			}
			if diff := cmp.Diff(byoAdjustCatalog(), in); diff != "" {
				t.Fatalf("input modified (-original +after):\n%s", diff)
			}
			o, _ := got.Offers.Find(tt.offer)
			if diff := cmp.Diff(tt.want, o.Pricing); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
			}
			i := slices.IndexFunc(applied, func(a provider.Applied) bool { return a.Offer == tt.offer })
			if i < 0 {
				t.Fatalf("%s: no Applied record for %s", tt.reason, tt.offer)
			}
			a := applied[i]
			if a.Clamped != tt.clamped {
				t.Errorf("%s: Clamped = %v, want %v", tt.reason, a.Clamped, tt.clamped)
			}
			orig, _ := in.Offers.Find(tt.offer)
			list, _ := orig.RatePerGPUHour(a.Horizon)
			adj, _ := o.RatePerGPUHour(a.Horizon)
			if !a.ListPerGPUHour.Equal(list) || !a.AdjustedPerGPUHour.Equal(adj) || len(a.Adjustments) != len(tt.adjs) {
				t.Errorf("%s: Applied %v, want list %s, adjusted %s", tt.reason, a, list, adj)
			}
			if !strings.Contains(o.Source.Note, "adjusted ") {
				t.Errorf("%s: adjustment not noted in the source: %q", tt.reason, o.Source.Note)
			}
		})
	}
}

func TestApplyAdjustmentsErrors(t *testing.T) {
	in := byoAdjustCatalog()
	_, applied, err := provider.ApplyAdjustments(in, []provider.Adjustment{{AmountPerNodeHour: byoDec("-1")}})
	var fe *provider.FieldError
	if !errors.Is(err, provider.ErrNotApplicable) || !errors.As(err, &fe) || fe.Offer != "own" || applied != nil {
		t.Fatalf("absolute amount on owned hardware: err = %v, want a FieldError naming offer \"own\" wrapping ErrNotApplicable", err)
	}
	// An unknown pricing mode without Scaler cannot take a percentage.
	in.Offers = append(in.Offers, provider.Offer{ID: "custom", GPU: provider.GPU{Model: "X"}, GPUsPerNode: 1, Pricing: byoFlat{}})
	_, _, err = provider.ApplyAdjustments(in, []provider.Adjustment{{Selector: provider.Selector{Mode: "flat"}, Percent: byoDec("5")}})
	if !errors.As(err, &fe) || fe.Offer != "custom" || !errors.Is(err, provider.ErrNotApplicable) {
		t.Fatalf("percentage on a mode without Scaler: err = %v", err)
	}
	// Unmatched offers are untouched even when they could not be adjusted.
	got, applied, err := provider.ApplyAdjustments(in, []provider.Adjustment{{Selector: provider.Selector{GPUModel: "B200"}, Percent: byoDec("5")}})
	if err != nil || len(applied) != 0 || len(got.Offers) != len(in.Offers) {
		t.Fatalf("no match: %d applied, err %v", len(applied), err)
	}
}

// byoFlat is a pricing mode of downstream code, without Scaler.
type byoFlat struct{}

func (byoFlat) Mode() string { return "flat" }
func (byoFlat) Charges(u provider.Usage) ([]provider.Charge, error) {
	return []provider.Charge{{Category: provider.Compute, Amount: decimal.Zero}}, u.Validate()
}
func (byoFlat) Validate() error { return nil }

func ExampleApplyAdjustments() {
	h100 := provider.KnownAccelerators()["H100"]
	c := provider.Catalog{Currency: "USD", AsOf: time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC), Offers: provider.Offers{
		{ID: "aws-p5", Provider: "AWS", Region: "us-east-1", GPU: h100, GPUsPerNode: 8,
			Pricing: provider.PerSecond(decimal.RequireFromString("55.04"), time.Minute)},
		{ID: "lambda-8xh100", Provider: "Lambda", Region: "us-east-1", GPU: h100, GPUsPerNode: 8,
			Pricing: provider.PerMinute(decimal.RequireFromString("31.92"))},
	}}
	adjs := []provider.Adjustment{{
		Selector: provider.Selector{Provider: "AWS", GPUModel: "H100 SXM"},
		Percent:  decimal.NewFromInt(-15),
		Source:   provider.Source{Name: "enterprise agreement", AsOf: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
	}}
	adjusted, applied, err := provider.ApplyAdjustments(c, adjs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range applied {
		fmt.Println(a)
	}
	fmt.Println(adjusted.Offers[0].Pricing.(provider.Metered).RatePerHour, "per node-hour; list", c.Offers[0].Pricing.(provider.Metered).RatePerHour)
	// Output:
	// aws-p5: 6.88 → 5.85 per GPU-hour after -15% (enterprise agreement, 2026-01-02)
	// 46.784 per node-hour; list 55.04
}
