package provider_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"pgregory.net/rapid"

	"github.com/gputco/gputco/provider"
)

// validOffer returns a valid on-demand offer with every field set.
func validOffer(id string) provider.Offer {
	return provider.Offer{
		ID: id, Provider: "AWS", Kind: provider.GeneralCloud, Region: "us-east-1", Jurisdiction: "US",
		GPU:          provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700, Class: provider.Datacenter},
		GPUsPerNode:  8,
		Interconnect: provider.Interconnect{Fabric: provider.InfiniBand, GbpsPerNode: 3200, NVLink: true},
		Isolation:    provider.Dedicated,
		Pricing:      provider.PerSecond(usd("98.32"), time.Minute),
		Availability: provider.Availability{FillProbability: 0.8, MaxNodes: 4, LeadTime: time.Hour},
		Hidden: provider.HiddenCosts{
			SetupHours: 4, EgressPerGB: usd("0.09"), IngressPerGB: usd("0"), StoragePerGBMonth: usd("0.08"),
			TransferGbps: 10, NodeMTBF: 2000 * time.Hour, RecoveryTime: 30 * time.Minute,
			PlatformFeeFraction: 0.02, StaffFTE: 0.1, StaffCostPerYear: usd("150000"),
		},
		Source: provider.Source{Name: "test fixture", URL: "https://example.com/prices",
			AsOf: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Estimate: true, Note: "made up"},
	}
}

// validOwned returns a valid owned 8-GPU server.
func validOwned() provider.Owned {
	return provider.Owned{
		PurchasePerNode: usd("250000"), UsefulLifeYears: 5, SalvagePerNode: usd("25000"),
		Method: provider.DoubleDeclining, IdlePowerKW: 2, MaxPowerKW: 10.2, ContractedPowerKW: 11, PUE: 1.3,
		EnergyPerKWh: usd("0.12"), ColocationPerKWMonth: usd("150"), MaintenanceFractionPerYear: 0.08,
		StaffFTEPerNode: 0.05, StaffCostPerYear: usd("180000"), ProcurementLeadTime: 60 * 24 * time.Hour,
	}
}

// builtinPricings returns one valid pricing of every built-in mode and setting.
func builtinPricings() map[string]provider.Pricing {
	return map[string]provider.Pricing{
		"per-second": provider.PerSecond(usd("3.60"), time.Minute),
		"per-minute": provider.PerMinute(usd("2.49")),
		"hourly":     provider.Hourly(usd("98.32")),
		"pro rata":   provider.ProRata(usd("1.99")),
		"spot": provider.Spot{RatePerHour: usd("31.4"), Increment: time.Second, Minimum: time.Minute,
			InterruptionRatePerHour: 0.05 / 730, Notice: 2 * time.Minute},
		"reserved 1 year":  provider.Reserved{Term: provider.Year, UpfrontPerNode: usd("100000"), RecurringPerHour: usd("20.5")},
		"reserved 3 years": provider.Reserved{Term: 3 * provider.Year, RecurringPerHour: usd("39.33")},
		"monthly":          provider.Monthly(usd("1500")),
		"owned":            validOwned(),
		"credit":           provider.Credit{Base: provider.PerSecond(usd("2"), 0), Amount: usd("300")},
		"credit on credit": provider.Credit{Base: provider.Credit{Base: validOwned(), Amount: usd("1000")}, Amount: usd("5")},
	}
}

// fieldErrors returns every *FieldError in the tree of err.
func fieldErrors(t *testing.T, err error) []*provider.FieldError {
	t.Helper()
	var out []*provider.FieldError
	var walk func(error)
	walk = func(e error) {
		if fe, ok := e.(*provider.FieldError); ok {
			out = append(out, fe)
			return
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, c := range u.Unwrap() {
				walk(c)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	if err != nil {
		walk(err)
	}
	return out
}

// problem is one expected validation problem.
type problem struct {
	offer string
	field string
	value any // compared by its fmt.Sprint form, so that NaN matches NaN
	err   error
}

// checkProblems checks that err holds exactly the problems want (in any
// order), each a *FieldError naming offer, field and value and matching its
// sentinel with errors.Is, and that errors.Is on err matches every sentinel.
func checkProblems(t *testing.T, err error, want []problem) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %d problems", len(want))
	}
	got := fieldErrors(t, err)
	if len(got) != len(want) {
		t.Errorf("%d problems, want %d: %v", len(got), len(want), err)
	}
	for _, w := range want {
		found := false
		for _, fe := range got {
			if fe.Offer == w.offer && fe.Field == w.field && fmt.Sprint(fe.Value) == fmt.Sprint(w.value) && errors.Is(fe, w.err) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("missing problem: offer %q field %q value %v: %v\ngot: %v", w.offer, w.field, w.value, w.err, err)
		}
		if !errors.Is(err, w.err) {
			t.Errorf("errors.Is(err, %v) = false", w.err)
		}
	}
}

func TestValidBuiltins(t *testing.T) {
	// Reason: the fixtures every other test builds on are valid offers.
	for name, p := range builtinPricings() {
		t.Run(name, func(t *testing.T) {
			o := validOffer("ok")
			o.Pricing = p
			if err := o.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestOfferValidate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name   string
		reason string
		mutate func(o *provider.Offer)
		want   []problem
	}{
		{
			name:   "negative rate",
			reason: "a negative price is meaningless",
			mutate: func(o *provider.Offer) { o.Pricing = provider.PerSecond(usd("-1.5"), time.Minute) },
			want:   []problem{{"x", "pricing.ratePerHour", "-1.5", provider.ErrNegative}},
		},
		{
			name:   "NaN memory",
			reason: "NaN quantities are errors, not panics",
			mutate: func(o *provider.Offer) { o.GPU.MemoryGiB = nan },
			want:   []problem{{"x", "gpu.memoryGiB", nan, provider.ErrNotFinite}},
		},
		{
			name:   "infinite bandwidth",
			reason: "infinite quantities are errors",
			mutate: func(o *provider.Offer) { o.Interconnect.GbpsPerNode = inf },
			want:   []problem{{"x", "interconnect.gbpsPerNode", inf, provider.ErrNotFinite}},
		},
		{
			name:   "minus infinite setup hours",
			reason: "−Inf is not finite either",
			mutate: func(o *provider.Offer) { o.Hidden.SetupHours = -inf },
			want:   []problem{{"x", "hidden.setupHours", -inf, provider.ErrNotFinite}},
		},
		{
			name:   "negative egress price",
			reason: "hidden-cost prices are money, never negative",
			mutate: func(o *provider.Offer) { o.Hidden.EgressPerGB = usd("-0.09") },
			want:   []problem{{"x", "hidden.egressPerGB", "-0.09", provider.ErrNegative}},
		},
		{
			name:   "fill probability above one",
			reason: "a probability is in [0, 1]",
			mutate: func(o *provider.Offer) { o.Availability.FillProbability = 1.5 },
			want:   []problem{{"x", "availability.fillProbability", 1.5, provider.ErrOutOfRange}},
		},
		{
			name:   "zero GPUs per node",
			reason: "a node without GPUs has no per-GPU price",
			mutate: func(o *provider.Offer) { o.GPUsPerNode = 0 },
			want:   []problem{{"x", "gpusPerNode", 0, provider.ErrZeroGPUs}},
		},
		{
			name:   "negative GPUs per node",
			reason: "a negative count is not zero GPUs but still invalid",
			mutate: func(o *provider.Offer) { o.GPUsPerNode = -8 },
			want:   []problem{{"x", "gpusPerNode", -8, provider.ErrNegative}},
		},
		{
			name:   "salvage above price",
			reason: "hardware cannot be worth more at the end of its life than new",
			mutate: func(o *provider.Offer) {
				ow := validOwned()
				ow.SalvagePerNode = usd("300000")
				o.Pricing = ow
			},
			want: []problem{{"x", "pricing.salvagePerNode", "300000", provider.ErrSalvageAbovePrice}},
		},
		{
			name:   "minimum below increment",
			reason: "a one-minute minimum on hourly increments cannot be honoured",
			mutate: func(o *provider.Offer) {
				o.Pricing = provider.Metered{RatePerHour: usd("1"), Increment: time.Hour, Minimum: time.Minute}
			},
			want: []problem{{"x", "pricing.minimum", time.Minute, provider.ErrMinimumBelowIncrement}},
		},
		{
			name:   "missing pricing",
			reason: "an offer must say how it bills",
			mutate: func(o *provider.Offer) { o.Pricing = nil },
			want:   []problem{{"x", "pricing", nil, provider.ErrMissing}},
		},
		{
			name:   "credit without base",
			reason: "a credit applies to some pricing",
			mutate: func(o *provider.Offer) { o.Pricing = provider.Credit{Amount: usd("10")} },
			want:   []problem{{"x", "pricing.base", nil, provider.ErrMissing}},
		},
		{
			name:   "credit on invalid base",
			reason: "the base's problems are reported under Pricing.Base",
			mutate: func(o *provider.Offer) {
				o.Pricing = provider.Credit{Base: provider.Hourly(usd("-2")), Amount: usd("-10")}
			},
			want: []problem{
				{"x", "pricing.base.ratePerHour", "-2", provider.ErrNegative},
				{"x", "pricing.amount", "-10", provider.ErrNegative},
			},
		},
		{
			name:   "NaN interruption rate",
			reason: "spot interruption rates are quantities, checked for NaN",
			mutate: func(o *provider.Offer) {
				o.Pricing = provider.Spot{RatePerHour: usd("1"), InterruptionRatePerHour: nan}
			},
			want: []problem{{"x", "pricing.interruptionRatePerHour", nan, provider.ErrNotFinite}},
		},
		{
			name:   "owned with bad quantities",
			reason: "infinite power, PUE below 1, negative maintenance and a zero life all at once",
			mutate: func(o *provider.Offer) {
				ow := validOwned()
				ow.MaxPowerKW, ow.PUE, ow.MaintenanceFractionPerYear, ow.UsefulLifeYears = inf, 0.5, -0.1, 0
				o.Pricing = ow
			},
			want: []problem{
				{"x", "pricing.maxPowerKW", inf, provider.ErrNotFinite},
				{"x", "pricing.pue", 0.5, provider.ErrOutOfRange},
				{"x", "pricing.maintenanceFractionPerYear", -0.1, provider.ErrNegative},
				{"x", "pricing.usefulLifeYears", 0, provider.ErrMissing},
			},
		},
		{
			name:   "reserved without term",
			reason: "a reservation without a term cannot be billed in whole terms",
			mutate: func(o *provider.Offer) { o.Pricing = provider.Reserved{UpfrontPerNode: usd("1")} },
			want:   []problem{{"x", "pricing.term", time.Duration(0), provider.ErrMissing}},
		},
		{
			name:   "unknown kind",
			reason: "enumerations out of range are errors",
			mutate: func(o *provider.Offer) { o.Kind = provider.Kind(7) },
			want:   []problem{{"x", "kind", 7, provider.ErrUnknownName}},
		},
		{
			name:   "every problem at once",
			reason: "Validate joins all problems rather than stopping at the first",
			mutate: func(o *provider.Offer) {
				o.GPUsPerNode = 0
				o.GPU.TDPWatts = nan
				o.Availability.LeadTime = -time.Hour
				o.Hidden.PlatformFeeFraction = inf
				o.Pricing = provider.Metered{RatePerHour: usd("-1"), Increment: time.Hour, Minimum: time.Second}
			},
			want: []problem{
				{"x", "gpusPerNode", 0, provider.ErrZeroGPUs},
				{"x", "gpu.tdpWatts", nan, provider.ErrNotFinite},
				{"x", "availability.leadTime", -time.Hour, provider.ErrNegative},
				{"x", "hidden.platformFeeFraction", inf, provider.ErrNotFinite},
				{"x", "pricing.ratePerHour", "-1", provider.ErrNegative},
				{"x", "pricing.minimum", time.Second, provider.ErrMinimumBelowIncrement},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := validOffer("x")
			tt.mutate(&o)
			err := o.Validate()
			checkProblems(t, err, tt.want)
			if t.Failed() {
				t.Logf("reason: %s", tt.reason)
			}
		})
	}
}

func TestCatalogValidate(t *testing.T) {
	asOf := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		reason  string
		catalog func() provider.Catalog
		want    []problem
	}{
		{
			name:   "duplicate IDs",
			reason: "offer IDs identify offers within a catalog",
			catalog: func() provider.Catalog {
				return provider.Catalog{Currency: "USD", AsOf: asOf, Offers: provider.Offers{validOffer("a"), validOffer("b"), validOffer("a")}}
			},
			want: []problem{{"a", "id", "a", provider.ErrDuplicateID}},
		},
		{
			name:   "mixed currencies",
			reason: "a catalog has one currency; the library does no FX",
			catalog: func() provider.Catalog {
				eur := validOffer("eur")
				eur.Currency = "EUR"
				usdOffer := validOffer("usd")
				usdOffer.Currency = "USD"
				return provider.Catalog{Currency: "USD", AsOf: asOf, Offers: provider.Offers{usdOffer, eur}}
			},
			want: []problem{{"eur", "currency", "EUR", provider.ErrCurrencyMismatch}},
		},
		{
			name:   "missing currency and date",
			reason: "a catalog must say its currency and date",
			catalog: func() provider.Catalog {
				return provider.Catalog{Offers: provider.Offers{validOffer("a")}}
			},
			want: []problem{
				{"", "currency", "", provider.ErrMissing},
				{"", "asOf", "", provider.ErrMissing},
			},
		},
		{
			name:   "problems of several offers",
			reason: "catalog validation reports every offer's problems at once, each naming its offer",
			catalog: func() provider.Catalog {
				a, b := validOffer("a"), validOffer("b")
				a.GPUsPerNode = 0
				b.Pricing = nil
				b.Currency = "GBP"
				return provider.Catalog{Currency: "USD", AsOf: asOf, Offers: provider.Offers{a, b, validOffer("a")}}
			},
			want: []problem{
				{"a", "gpusPerNode", 0, provider.ErrZeroGPUs},
				{"b", "pricing", nil, provider.ErrMissing},
				{"b", "currency", "GBP", provider.ErrCurrencyMismatch},
				{"a", "id", "a", provider.ErrDuplicateID},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkProblems(t, tt.catalog().Validate(), tt.want)
			if t.Failed() {
				t.Logf("reason: %s", tt.reason)
			}
		})
	}
}

// catalogJSON returns a catalog JSON document with the given pricing objects,
// one offer each, IDs o0, o1, ...
func catalogJSON(t testing.TB, pricings ...string) []byte {
	t.Helper()
	var offers []string
	for i, p := range pricings {
		o := validOffer(fmt.Sprintf("o%d", i))
		o.Pricing = nil
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		offers = append(offers, strings.Replace(string(b), `"pricing":null`, `"pricing":`+p, 1))
	}
	return []byte(`{"currency":"USD","asOf":"2026-11-30","offers":[` + strings.Join(offers, ",") + `]}`)
}

func TestDecodeModeErrors(t *testing.T) {
	tests := []struct {
		name     string
		reason   string
		pricings []string
		sentinel error
		field    string   // the path of the "mode" at fault
		values   []string // the bad "mode" values, one per problem
		offers   []string // offer IDs the error text must name
	}{
		{
			name:     "unknown mode",
			reason:   "the zero Decoder knows only the built-in modes",
			pricings: []string{`{"mode":"bogus","ratePerHour":"1"}`},
			field:    "pricing.mode", sentinel: provider.ErrUnknownMode, values: []string{"bogus"}, offers: []string{"o0"},
		},
		{
			name:     "unknown mode inside a credit",
			reason:   "a credit decodes its base with the same decoder",
			pricings: []string{`{"mode":"credit","amount":"5","base":{"mode":"bogus"}}`},
			field:    "pricing.base.mode", sentinel: provider.ErrUnknownMode, values: []string{"bogus"}, offers: []string{"o0"},
		},
		{
			name:     "two unknown modes",
			reason:   "decoding reports the problems of every offer at once",
			pricings: []string{`{"mode":"tiered"}`, `{"mode":"metered","ratePerHour":"1"}`, `{"mode":"auction"}`},
			field:    "pricing.mode", sentinel: provider.ErrUnknownMode, values: []string{"tiered", "auction"}, offers: []string{"o0", "o2"},
		},
		{
			name:     "missing mode",
			reason:   "the discriminator is required",
			pricings: []string{`{"ratePerHour":"1"}`},
			field:    "pricing.mode", sentinel: provider.ErrMissing, values: []string{""}, offers: []string{"o0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := provider.ParseCatalog(catalogJSON(t, tt.pricings...))
			if !errors.Is(err, tt.sentinel) {
				t.Fatalf("err = %v, want %v (%s)", err, tt.sentinel, tt.reason)
			}
			var got []string
			for _, fe := range fieldErrors(t, err) {
				if fe.Field == tt.field && errors.Is(fe, tt.sentinel) && fe.Offer != "" {
					got = append(got, fmt.Sprint(fe.Value))
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.values) {
				t.Errorf("mode problems with values %q, want %q: %v", got, tt.values, err)
			}
			for _, id := range tt.offers {
				if !strings.Contains(err.Error(), fmt.Sprintf("%q", id)) {
					t.Errorf("error does not name offer %q: %v", id, err)
				}
			}
		})
	}
}

func TestInvalidUsage(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		reason string
		usage  provider.Usage
		want   []problem
	}{
		{
			name: "negative horizon", reason: "time does not run backwards",
			usage: provider.Usage{Horizon: -time.Hour},
			want:  []problem{{"", "Usage.Horizon", -time.Hour, provider.ErrNegative}},
		},
		{
			name: "negative nodes", reason: "nodes held are counted from zero",
			usage: provider.Usage{Nodes: -1},
			want:  []problem{{"", "Usage.Nodes", -1, provider.ErrNegative}},
		},
		{
			name: "NaN busy fraction", reason: "NaN is an error, not a panic",
			usage: provider.Usage{BusyFraction: nan},
			want:  []problem{{"", "Usage.BusyFraction", nan, provider.ErrNotFinite}},
		},
		{
			name: "busy fraction above one", reason: "a node cannot be busy more than all the time",
			usage: provider.Usage{BusyFraction: 1.5},
			want:  []problem{{"", "Usage.BusyFraction", 1.5, provider.ErrOutOfRange}},
		},
		{
			name: "bad runs", reason: "every field of every run is checked, all at once",
			usage: provider.Usage{Runs: []provider.Run{{Length: time.Hour, Count: 1, Nodes: 1}, {Length: -time.Second, Count: -2, Nodes: -3}}},
			want: []problem{
				{"", "Usage.Runs[1].Length", -time.Second, provider.ErrNegative},
				{"", "Usage.Runs[1].Count", -2, provider.ErrNegative},
				{"", "Usage.Runs[1].Nodes", -3, provider.ErrNegative},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkProblems(t, tt.usage.Validate(), tt.want)
			for mode, p := range builtinPricings() {
				cs, err := p.Charges(tt.usage)
				if cs != nil {
					t.Errorf("%s: charges %v for an invalid usage", mode, cs)
				}
				if !errors.Is(err, provider.ErrInvalidUsage) {
					t.Errorf("%s: err = %v, want ErrInvalidUsage", mode, err)
				}
				checkProblems(t, err, tt.want)
			}
			if t.Failed() {
				t.Logf("reason: %s", tt.reason)
			}
		})
	}
}

// ---- no input panics ---------------------------------------------------------

// anyFloat draws any float64: NaN, ±Inf, ±0, extremes, negatives and
// ordinary values.
var anyFloat = rapid.OneOf(
	rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 1, -1}),
	rapid.Float64Range(-1e3, 1e3),
	rapid.Float64Range(-math.MaxFloat64, math.MaxFloat64),
)

// anyDecimal draws any amount, negative included, with an exponent bounded to
// ±30: a decimal's exponent is an int32 and decimal.Mul panics when the sum of
// two exponents overflows it, which no catalog can reach (decimal's decoder
// caps exponents at 10000).
var anyDecimal = rapid.Custom(func(t *rapid.T) decimal.Decimal {
	if rapid.Bool().Draw(t, "zeroValueDecimal") {
		return decimal.Decimal{}
	}
	return decimal.New(rapid.Int64().Draw(t, "coefficient"), rapid.Int32Range(-30, 30).Draw(t, "exponent"))
})

var anyDuration = rapid.Custom(func(t *rapid.T) time.Duration {
	return time.Duration(rapid.Int64().Draw(t, "durationNs"))
})

var anyPricingBase = rapid.OneOf(
	rapid.Just[provider.Pricing](nil),
	rapid.Custom(func(t *rapid.T) provider.Pricing {
		return provider.Metered{RatePerHour: anyDecimal.Draw(t, "rate"), Increment: anyDuration.Draw(t, "increment"), Minimum: anyDuration.Draw(t, "minimum")}
	}),
	rapid.Custom(func(t *rapid.T) provider.Pricing {
		return provider.Spot{RatePerHour: anyDecimal.Draw(t, "rate"), Increment: anyDuration.Draw(t, "increment"), Minimum: anyDuration.Draw(t, "minimum"),
			InterruptionRatePerHour: anyFloat.Draw(t, "interruptionsPerHour"), Notice: anyDuration.Draw(t, "notice")}
	}),
	rapid.Custom(func(t *rapid.T) provider.Pricing {
		return provider.Reserved{Term: anyDuration.Draw(t, "term"), UpfrontPerNode: anyDecimal.Draw(t, "upfront"), RecurringPerHour: anyDecimal.Draw(t, "recurring")}
	}),
	rapid.Custom(func(t *rapid.T) provider.Pricing {
		return provider.Owned{
			PurchasePerNode: anyDecimal.Draw(t, "purchase"), UsefulLifeYears: rapid.Int().Draw(t, "usefulLifeYears"),
			SalvagePerNode: anyDecimal.Draw(t, "salvage"), Method: provider.Depreciation(rapid.Int().Draw(t, "depreciation")),
			IdlePowerKW: anyFloat.Draw(t, "idlePowerKW"), MaxPowerKW: anyFloat.Draw(t, "maxPowerKW"),
			ContractedPowerKW: anyFloat.Draw(t, "contractedPowerKW"), PUE: anyFloat.Draw(t, "pue"),
			EnergyPerKWh: anyDecimal.Draw(t, "energyPerKWh"), ColocationPerKWMonth: anyDecimal.Draw(t, "colocationPerKWMonth"),
			MaintenanceFractionPerYear: anyFloat.Draw(t, "maintenancePerYear"), StaffFTEPerNode: anyFloat.Draw(t, "staffFTE"),
			StaffCostPerYear: anyDecimal.Draw(t, "staffCost"), ProcurementLeadTime: anyDuration.Draw(t, "leadTime"),
			Resale: provider.Resale{Points: rapid.SliceOfN(rapid.Custom(func(t *rapid.T) provider.ResalePoint {
				return provider.ResalePoint{Age: anyDuration.Draw(t, "resaleAge"), Fraction: anyFloat.Draw(t, "resaleFraction")}
			}), 0, 3).Draw(t, "resalePoints")},
		}
	}),
)

var anyPricing = rapid.OneOf(
	anyPricingBase,
	rapid.Custom(func(t *rapid.T) provider.Pricing {
		return provider.Credit{Base: anyPricingBase.Draw(t, "creditBase"), Amount: anyDecimal.Draw(t, "creditAmount")}
	}),
)

var anyOffer = rapid.Custom(func(t *rapid.T) provider.Offer {
	return provider.Offer{
		ID:       rapid.String().Draw(t, "id"),
		Kind:     provider.Kind(rapid.Int().Draw(t, "kind")),
		Currency: rapid.String().Draw(t, "currency"),
		GPU: provider.GPU{Model: rapid.String().Draw(t, "gpuModel"), MemoryGiB: anyFloat.Draw(t, "memoryGiB"),
			BF16TFLOPS: anyFloat.Draw(t, "tflops"), TDPWatts: anyFloat.Draw(t, "tdpWatts"),
			Class: provider.GPUClass(rapid.Int().Draw(t, "gpuClass"))},
		GPUsPerNode:  rapid.Int().Draw(t, "gpusPerNode"),
		Interconnect: provider.Interconnect{Fabric: provider.Fabric(rapid.Int().Draw(t, "fabric")), GbpsPerNode: anyFloat.Draw(t, "gbps")},
		Isolation:    provider.Isolation(rapid.Int().Draw(t, "isolation")),
		Pricing:      anyPricing.Draw(t, "pricing"),
		Availability: provider.Availability{FillProbability: anyFloat.Draw(t, "fillProbability"),
			MaxNodes: rapid.Int().Draw(t, "maxNodes"), LeadTime: anyDuration.Draw(t, "leadTime")},
		Hidden: provider.HiddenCosts{
			SetupHours: anyFloat.Draw(t, "setupHours"), EgressPerGB: anyDecimal.Draw(t, "egress"),
			IngressPerGB: anyDecimal.Draw(t, "ingress"), StoragePerGBMonth: anyDecimal.Draw(t, "storage"),
			TransferGbps: anyFloat.Draw(t, "transferGbps"), NodeMTBF: anyDuration.Draw(t, "mtbf"),
			RecoveryTime: anyDuration.Draw(t, "recovery"), PlatformFeeFraction: anyFloat.Draw(t, "platformFee"),
			StaffFTE: anyFloat.Draw(t, "hiddenStaffFTE"), StaffCostPerYear: anyDecimal.Draw(t, "hiddenStaffCost"),
		},
	}
})

var anyUsage = rapid.Custom(func(t *rapid.T) provider.Usage {
	return provider.Usage{
		Horizon:      anyDuration.Draw(t, "horizon"),
		Nodes:        rapid.Int().Draw(t, "heldNodes"),
		BusyFraction: anyFloat.Draw(t, "busyFraction"),
		Runs: rapid.SliceOfN(rapid.Custom(func(t *rapid.T) provider.Run {
			return provider.Run{Length: anyDuration.Draw(t, "runLength"), Count: rapid.Int().Draw(t, "runCount"), Nodes: rapid.Int().Draw(t, "runNodes"),
				Start: anyDuration.Draw(t, "runStart"), Every: anyDuration.Draw(t, "runEvery")}
		}), 0, 3).Draw(t, "runs"),
	}
})

// propNoPanic: no offer or usage built from arbitrary field values (NaN, ±Inf,
// negatives, extremes, out-of-range enumerations, nil pricing) makes
// Validate, Charges, RatePerGPUHour, catalog validation or JSON encoding
// panic. A panic fails the property by itself; nothing is recovered.
func propNoPanic(t *rapid.T) {
	o := anyOffer.Draw(t, "offer")
	u := anyUsage.Draw(t, "usage")
	verr := o.Validate()
	if o.Pricing != nil {
		_ = o.Pricing.Validate()
		if cs, err := o.Pricing.Charges(u); err == nil {
			_ = provider.Total(cs)
		}
	}
	if _, err := o.RatePerGPUHour(anyDuration.Draw(t, "rateHorizon")); verr != nil && err == nil {
		t.Fatalf("RatePerGPUHour accepted an invalid offer: %v", verr)
	}
	_ = u.Validate()
	for _, r := range u.Runs {
		_ = r.StartOf(r.Count - 1)
	}
	_ = provider.Catalog{Currency: "USD", AsOf: time.Unix(0, 0), Offers: provider.Offers{o, o}}.Validate()
	_, _ = json.Marshal(o)
}

func TestNoPanic(t *testing.T) { rapid.Check(t, propNoPanic) }
func FuzzNoPanic(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propNoPanic)) }

// TestExtremeExponents: amounts whose decimal exponent would overflow
// decimal's int32 arithmetic are invalid, so Charges returns an error instead
// of panicking.
func TestExtremeExponents(t *testing.T) {
	tests := []struct {
		name   string
		rate   decimal.Decimal
		reason string
	}{
		{"tiny exponent", decimal.New(1, -2147483640), "rate × nanoseconds would overflow the exponent"},
		{"huge exponent", decimal.New(1, 2147483640), "same, upwards"},
		{"beyond the bound", decimal.New(1, -65), "the documented bound is ±64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := provider.Hourly(tt.rate)
			if err := m.Validate(); !errors.Is(err, provider.ErrOutOfRange) {
				t.Errorf("Validate = %v, want ErrOutOfRange (%s)", err, tt.reason)
			}
			if _, err := m.Charges(provider.Usage{Runs: []provider.Run{{Length: time.Hour, Count: 1, Nodes: 1}}}); err == nil {
				t.Errorf("Charges succeeded (%s)", tt.reason)
			}
		})
	}
}
