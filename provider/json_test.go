package provider_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/provider"
)

func TestPricingJSONForm(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		pricing provider.Pricing
		want    string
	}{
		{
			name:    "per-second",
			reason:  "decimals are strings, durations Go duration strings, the mode a discriminator",
			pricing: provider.PerSecond(usd("3.60"), time.Minute),
			want:    `{"mode":"metered","ratePerHour":"3.6","increment":"1s","minimum":"1m0s"}`,
		},
		{
			name:    "monthly rental",
			reason:  "a month is a twelfth of a 365-day year: 730 h",
			pricing: provider.Monthly(usd("1500")),
			want:    `{"mode":"reserved","term":"730h0m0s","upfrontPerNode":"1500","recurringPerHour":"0"}`,
		},
		{
			name:    "credit",
			reason:  "a credit nests its base's object under \"base\"",
			pricing: provider.Credit{Base: provider.Hourly(usd("2")), Amount: usd("300")},
			want:    `{"mode":"credit","amount":"300","base":{"mode":"metered","ratePerHour":"2","increment":"1h0m0s","minimum":"1h0m0s"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := provider.MarshalPricing(tt.pricing)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("MarshalPricing = %s\nwant %s\n(%s)", got, tt.want, tt.reason)
			}
		})
	}
}

func TestPricingRoundTrip(t *testing.T) {
	pricings := builtinPricings()
	names := make([]string, 0, len(pricings))
	for name := range pricings {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := pricings[name]
		t.Run(name, func(t *testing.T) {
			// Reason: every built-in mode decodes to the value it was
			// encoded from, through MarshalPricing and through json.Marshal.
			viaMarshalPricing, err := provider.MarshalPricing(p)
			if err != nil {
				t.Fatal(err)
			}
			viaJSON, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range [][]byte{viaMarshalPricing, viaJSON} {
				got, err := provider.Decoder{}.Pricing(b)
				if err != nil {
					t.Fatalf("decoding %s: %v", b, err)
				}
				if diff := cmp.Diff(p, got); diff != "" {
					t.Errorf("round trip of %s (-want +got):\n%s", b, diff)
				}
			}
		})
	}
}

// fullCatalog returns a valid catalog with one offer of every built-in mode
// and setting, every field set.
func fullCatalog() provider.Catalog {
	c := provider.Catalog{Currency: "USD", AsOf: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}
	pricings := builtinPricings()
	names := make([]string, 0, len(pricings))
	for name := range pricings {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		o := validOffer(strings.ReplaceAll(name, " ", "-"))
		o.Pricing = pricings[name]
		o.Kind = provider.Kind(i % 3)
		o.Isolation = provider.Isolation(i % 3)
		o.Interconnect.Fabric = provider.Fabric(i % 4)
		o.GPU.Class = provider.GPUClass(i % 2)
		if i%2 == 0 {
			o.Currency = "USD"
			o.Source.Estimate = false
			o.Source.URL = ""
		}
		c.Offers = append(c.Offers, o)
	}
	return c
}

func TestCatalogRoundTrip(t *testing.T) {
	want := fullCatalog()
	if err := want.Validate(); err != nil {
		t.Fatalf("fixture invalid: %v", err)
	}
	tests := []struct {
		name   string
		reason string
		encode func(provider.Catalog) ([]byte, error)
		decode func([]byte) (provider.Catalog, error)
	}{
		{
			name:   "WriteJSON and ParseCatalog",
			reason: "the file form written by WriteJSON is what ParseCatalog reads",
			encode: func(c provider.Catalog) ([]byte, error) {
				var buf bytes.Buffer
				err := c.WriteJSON(&buf)
				return buf.Bytes(), err
			},
			decode: provider.ParseCatalog,
		},
		{
			name:   "json.Marshal and json.Unmarshal",
			reason: "Catalog implements json.Marshaler and json.Unmarshaler with the same form",
			encode: func(c provider.Catalog) ([]byte, error) { return json.Marshal(c) },
			decode: func(b []byte) (provider.Catalog, error) {
				var c provider.Catalog
				err := json.Unmarshal(b, &c)
				return c, err
			},
		},
		{
			name:   "ReadCatalog",
			reason: "ReadCatalog parses a reader as ParseCatalog parses bytes",
			encode: func(c provider.Catalog) ([]byte, error) { return json.Marshal(c) },
			decode: func(b []byte) (provider.Catalog, error) { return provider.ReadCatalog(bytes.NewReader(b)) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.encode(want)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tt.decode(b)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("round trip (-want +got), %s:\n%s", tt.reason, diff)
			}
		})
	}
}

func TestOfferRoundTrip(t *testing.T) {
	for _, want := range fullCatalog().Offers {
		t.Run(want.ID, func(t *testing.T) {
			// Reason: an offer alone round-trips through its own
			// MarshalJSON and UnmarshalJSON.
			b, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			var got provider.Offer
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

// ---- a pricing mode of one's own ------------------------------------------

// tiered is a pricing mode defined outside the provider package: every run
// on every node pays RatePerHour for its first After and ThenPerHour beyond,
// pro rata. It has no MarshalJSON: MarshalPricing encodes its fields with
// encoding/json and adds the "mode" discriminator.
type tiered struct {
	RatePerHour decimal.Decimal   `json:"ratePerHour"`
	After       provider.Duration `json:"after"`
	ThenPerHour decimal.Decimal   `json:"thenPerHour"`
}

func (p tiered) Mode() string { return "tiered" }

func (p tiered) Validate() error {
	var errs []error
	if p.RatePerHour.IsNegative() {
		errs = append(errs, &provider.FieldError{Field: "ratePerHour", Value: p.RatePerHour.String(), Err: provider.ErrNegative})
	}
	if p.After < 0 {
		errs = append(errs, &provider.FieldError{Field: "after", Value: time.Duration(p.After), Err: provider.ErrNegative})
	}
	if p.ThenPerHour.IsNegative() {
		errs = append(errs, &provider.FieldError{Field: "thenPerHour", Value: p.ThenPerHour.String(), Err: provider.ErrNegative})
	}
	return errors.Join(errs...)
}

func (p tiered) Charges(u provider.Usage) ([]provider.Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	amount := decimal.Zero
	for _, r := range u.Runs {
		first := min(r.Length, time.Duration(p.After))
		one := p.RatePerHour.Mul(hoursOf(first)).Add(p.ThenPerHour.Mul(hoursOf(r.Length - first)))
		amount = amount.Add(one.Mul(decimal.NewFromInt(int64(r.Count))).Mul(decimal.NewFromInt(int64(r.Nodes))))
	}
	return []provider.Charge{{Category: provider.Compute, Label: "tiered compute", Amount: amount, Timing: provider.Spread}}, nil
}

// decodeTiered is the PricingDecoder of tiered: raw holds the whole object,
// "mode" included.
func decodeTiered(raw json.RawMessage, _ provider.Decoder) (provider.Pricing, error) {
	var w struct {
		Mode string `json:"mode"`
		tiered
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("tiered pricing: %w", err)
	}
	return w.tiered, nil
}

var tieredDecoder = provider.Decoder{Modes: map[string]provider.PricingDecoder{"tiered": decodeTiered}}

func TestCustomPricingMode(t *testing.T) {
	const tieredJSON = `{"mode":"tiered","ratePerHour":"2.00","after":"100h","thenPerHour":"1.50"}`
	data := catalogJSON(t, tieredJSON, `{"mode":"credit","amount":"50","base":`+tieredJSON+`}`)
	want := tiered{RatePerHour: usd("2"), After: provider.Duration(100 * time.Hour), ThenPerHour: usd("1.5")}
	run := provider.Usage{Runs: []provider.Run{{Length: 150 * time.Hour, Count: 1, Nodes: 1}}}

	c, err := tieredDecoder.Catalog(data)
	if err != nil {
		t.Fatalf("decoding with the tiered mode registered: %v", err)
	}
	tests := []struct {
		name    string
		reason  string
		pricing provider.Pricing
		want    provider.Pricing
		total   string
	}{
		{
			name:    "tiered",
			reason:  "150 h: 100 h at $2 and 50 h at $1.50 = $275",
			pricing: c.Offers[0].Pricing,
			want:    want,
			total:   "275",
		},
		{
			name:    "credit on tiered",
			reason:  "a built-in credit decodes its base with the caller's decoder: $275 − $50",
			pricing: c.Offers[1].Pricing,
			want:    provider.Credit{Base: want, Amount: usd("50")},
			total:   "225",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.pricing); diff != "" {
				t.Fatalf("decoded pricing (-want +got):\n%s", diff)
			}
			cs, err := tt.pricing.Charges(run)
			if err != nil {
				t.Fatal(err)
			}
			if got := provider.Total(cs); !got.Equal(usd(tt.total)) {
				t.Errorf("total = %s, want %s (%s)", got, tt.total, tt.reason)
			}
		})
	}

	// Encode back: MarshalPricing adds the mode to tiered's own encoding.
	b, err := provider.MarshalPricing(want)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := tieredDecoder.Pricing(b); err != nil || !cmp.Equal(p, provider.Pricing(want)) {
		t.Errorf("MarshalPricing → Pricing: %s gives %+v, %v", b, p, err)
	}
	encoded, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	again, err := tieredDecoder.Catalog(encoded)
	if err != nil {
		t.Fatalf("decoding the re-encoded catalog: %v\n%s", err, encoded)
	}
	if diff := cmp.Diff(c, again); diff != "" {
		t.Errorf("catalog round trip with a custom mode (-first +second):\n%s", diff)
	}

	// The zero Decoder does not know the mode, at the top level or nested.
	for _, doc := range [][]byte{data, encoded, catalogJSON(t, `{"mode":"credit","amount":"1","base":`+tieredJSON+`}`)} {
		if _, err := provider.ParseCatalog(doc); !errors.Is(err, provider.ErrUnknownMode) {
			t.Errorf("ParseCatalog without the tiered mode: err = %v, want ErrUnknownMode", err)
		}
	}
}

func TestCustomModeOverridesBuiltin(t *testing.T) {
	// Reason: a PricingDecoder registered under a built-in name takes
	// precedence, so that downstream code can replace a built-in decoding.
	d := provider.Decoder{Modes: map[string]provider.PricingDecoder{
		"metered": func(json.RawMessage, provider.Decoder) (provider.Pricing, error) {
			return provider.Hourly(usd("7")), nil
		},
	}}
	got, err := d.Pricing([]byte(`{"mode":"metered","ratePerHour":"1"}`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(provider.Pricing(provider.Hourly(usd("7"))), got); diff != "" {
		t.Errorf("override ignored (-want +got):\n%s", diff)
	}
}

// ---- fuzzing the decoder ---------------------------------------------------

// FuzzCatalogJSON: no input makes ParseCatalog panic, and every catalog it
// accepts encodes and decodes back to an equal catalog.
func FuzzCatalogJSON(f *testing.F) {
	f.Add(provider.DefaultJSON())
	f.Add([]byte(`{"currency":"USD","asOf":"2026-11-30","offers":[]}`))
	f.Add([]byte(`{"currency":"USD","asOf":"2026-11-30","offers":[{"id":"x","mode":"metered"}]}`))
	f.Add([]byte(`{`))
	f.Add(catalogJSON(f, `{"mode":"metered","ratePerHour":"3.60","increment":"1s","minimum":"60s"}`))
	f.Add(catalogJSON(f,
		`{"mode":"spot","ratePerHour":"1.2","increment":"1s","minimum":"1m","interruptionRatePerHour":0.0001,"notice":"2m"}`,
		`{"mode":"reserved","term":"8760h","upfrontPerNode":"1e3","recurringPerHour":"0.50"}`,
	))
	f.Add(catalogJSON(f, `{"mode":"credit","amount":"300","base":{"mode":"owned","purchasePerNode":"250000","usefulLifeYears":5,`+
		`"salvagePerNode":"25000","depreciation":"double-declining","idlePowerKW":2,"maxPowerKW":10.2,"pue":1.3,"energyPerKWh":"0.12"}}`))
	if b, err := json.Marshal(fullCatalog()); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := provider.ParseCatalog(data)
		if err != nil {
			return
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("accepted catalog does not encode: %v", err)
		}
		again, err := provider.ParseCatalog(b)
		if err != nil {
			t.Fatalf("re-encoded catalog rejected: %v\n%s", err, b)
		}
		if diff := cmp.Diff(c, again); diff != "" {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
	})
}

// TestDecodeNestingLimit: hostile input nesting credits deeply is refused
// quickly rather than decoded in time quadratic in its size.
func TestDecodeNestingLimit(t *testing.T) {
	tests := []struct {
		name   string
		depth  int
		ok     bool
		reason string
	}{
		{"within the limit", provider.MaxPricingDepth - 1, true, "credits around a base up to the limit decode"},
		{"beyond the limit", provider.MaxPricingDepth, false, "one level more is refused"},
		{"far beyond", 4000, false, "a 150 KB nest is refused, not decoded for seconds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := strings.Repeat(`{"mode":"credit","amount":"1","base":`, tt.depth) +
				`{"mode":"metered","ratePerHour":"1","increment":"1s","minimum":"1s"}` + strings.Repeat("}", tt.depth)
			_, err := provider.Decoder{}.Pricing([]byte(data))
			if (err == nil) != tt.ok {
				t.Fatalf("depth %d: err = %v, want ok = %v (%s)", tt.depth, err, tt.ok, tt.reason)
			}
			if !tt.ok && !errors.Is(err, provider.ErrOutOfRange) {
				t.Errorf("err = %v, want ErrOutOfRange", err)
			}
		})
	}
}

// TestDecodeMalformed: syntax, unknown fields, wrong types and bad dates or
// durations wrap ErrMalformed.
func TestDecodeMalformed(t *testing.T) {
	tests := []struct {
		name, data, reason string
	}{
		{"truncated", `{`, "not JSON"},
		{"unknown field", `{"currency":"USD","asOf":"2026-01-01","offers":[],"colour":"red"}`, "typos are caught"},
		{"wrong type", `{"currency":1,"asOf":"2026-01-01","offers":[]}`, "currency is a string"},
		{"bad date", `{"currency":"USD","asOf":"01/01/2026","offers":[]}`, "dates are YYYY-MM-DD"},
		{"bad duration", `{"currency":"USD","asOf":"2026-01-01","offers":[{"id":"a","pricing":{"mode":"metered","ratePerHour":"1","increment":"soon","minimum":"0s"}}]}`, "durations are Go durations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := provider.ParseCatalog([]byte(tt.data)); !errors.Is(err, provider.ErrMalformed) {
				t.Errorf("err = %v, want ErrMalformed (%s)", err, tt.reason)
			}
		})
	}
}
