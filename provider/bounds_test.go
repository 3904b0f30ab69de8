package provider_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/provider"
)

// Regression tests of issue 14: inputs at the extremes that once took
// unbounded work or memory.

// creditChain returns n credits of $1 around an hourly $10 pricing.
func creditChain(n int) provider.Pricing {
	var p provider.Pricing = provider.Hourly(decimal.NewFromInt(10))
	for range n {
		p = provider.Credit{Base: p, Amount: decimal.NewFromInt(1)}
	}
	return p
}

// TestCreditDepthOneLimit: a catalog with 8 nested credits (9 pricings)
// passed Validate and WriteJSON but ParseCatalog refused it, and a chain of
// 10⁴ credits validated (in time quadratic in the depth) and encoded. One
// limit, MaxPricingDepth pricings in a chain, holds for validation, encoding
// and decoding alike.
func TestCreditDepthOneLimit(t *testing.T) {
	asOf := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	atLimit := validOffer("at-limit")
	atLimit.Pricing = creditChain(provider.MaxPricingDepth - 1)
	cat := provider.Catalog{Currency: "USD", AsOf: asOf, Offers: provider.Offers{atLimit}}
	var buf bytes.Buffer
	if err := cat.WriteJSON(&buf); err != nil {
		t.Fatalf("WriteJSON at the limit: %v", err)
	}
	back, err := provider.ParseCatalog(buf.Bytes())
	if err != nil {
		t.Fatalf("ParseCatalog at the limit: %v", err)
	}
	if !atLimit.Pricing.(provider.Credit).Amount.Equal(back.Offers[0].Pricing.(provider.Credit).Amount) {
		t.Errorf("round trip changed the credit")
	}

	for _, n := range []int{provider.MaxPricingDepth, 10_000} {
		deep := validOffer("deep")
		deep.Pricing = creditChain(n)
		cat := provider.Catalog{Currency: "USD", AsOf: asOf, Offers: provider.Offers{deep}}
		err := cat.Validate()
		if !errors.Is(err, provider.ErrOutOfRange) || !strings.Contains(err.Error(), "MaxPricingDepth") {
			t.Errorf("%d credits: Validate = %v, want ErrOutOfRange naming MaxPricingDepth", n, err)
		}
		if got := len(fieldErrors(t, err)); got != 1 {
			t.Errorf("%d credits: %d problems, want one", n, got)
		}
		if err := cat.WriteJSON(&bytes.Buffer{}); !errors.Is(err, provider.ErrOutOfRange) {
			t.Errorf("%d credits: WriteJSON = %v, want ErrOutOfRange", n, err)
		}
		if _, err := provider.MarshalPricing(deep.Pricing); !errors.Is(err, provider.ErrOutOfRange) {
			t.Errorf("%d credits: MarshalPricing = %v, want ErrOutOfRange", n, err)
		}
		if _, err := deep.Pricing.Charges(provider.Usage{Horizon: time.Hour}); !errors.Is(err, provider.ErrOutOfRange) {
			t.Errorf("%d credits: Charges = %v, want ErrOutOfRange", n, err)
		}
	}
	// JSON written by hand with one pricing too many is refused by the
	// decoder with the same limit named.
	inner := `{"mode":"metered","ratePerHour":"10","increment":"1h0m0s","minimum":"0s"}`
	for range provider.MaxPricingDepth {
		inner = `{"mode":"credit","amount":"1","base":` + inner + `}`
	}
	_, err = provider.Decoder{}.Pricing([]byte(inner))
	if !errors.Is(err, provider.ErrOutOfRange) || !strings.Contains(err.Error(), "MaxPricingDepth") {
		t.Errorf("decoding %d pricings: %v, want ErrOutOfRange naming MaxPricingDepth", provider.MaxPricingDepth+1, err)
	}
}

var asOfForTest = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// leaves returns the errors joined at the top of err.
func leaves(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// checkCapped checks that err lists MaxProblems problems and ends with a
// *MoreProblemsError counting the other more, and that its message stays
// within perProblem bytes a problem.
func checkCapped(t *testing.T, what string, err error, more, perProblem int) {
	t.Helper()
	ls := leaves(err)
	if len(ls) != provider.MaxProblems+1 {
		t.Fatalf("%s: %d errors listed, want MaxProblems + 1 = %d", what, len(ls), provider.MaxProblems+1)
	}
	var mp *provider.MoreProblemsError
	if !errors.As(ls[len(ls)-1], &mp) || mp.More != more || !errors.Is(err, provider.ErrTooManyProblems) {
		t.Errorf("%s: last error %v, want a *MoreProblemsError of %d wrapping ErrTooManyProblems", what, ls[len(ls)-1], more)
	}
	if want := fmt.Sprintf("and %s more problems", groupedForTest(more)); !strings.Contains(err.Error(), want) {
		t.Errorf("%s: message does not say %q", what, want)
	}
	if n := len(err.Error()); n > perProblem*(provider.MaxProblems+1) {
		t.Errorf("%s: message of %d bytes, want at most %d", what, n, perProblem*(provider.MaxProblems+1))
	}
}

// groupedForTest writes n with thousands separators, independently of the
// package's formatter.
func groupedForTest(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestProblemsCapped: a catalog of 10⁶ {} offers gave 4·10⁶ problems in a
// message of 179 MB (and 1.4 GB of memory). Validation, decoding and the
// CSV importers list MaxProblems problems and count the others.
func TestProblemsCapped(t *testing.T) {
	n := 20_000 // the 10⁶ is measured outside the tests: the cap is the same at any size
	if testing.Short() {
		n = 5_000
	}
	const perOffer = 4 // ID, GPU model, GPUs per node, pricing
	var b strings.Builder
	b.WriteString(`{"currency":"USD","asOf":"2026-01-01","offers":[{}`)
	for range n - 1 {
		b.WriteString(",{}")
	}
	b.WriteString("]}")
	c, err := provider.ParseCatalog([]byte(b.String()))
	checkCapped(t, "ParseCatalog", err, perOffer*n-provider.MaxProblems, 200)
	if len(c.Offers) != 0 {
		t.Errorf("ParseCatalog kept %d offers of a catalog with too many problems, want none", len(c.Offers))
	}

	cat := provider.Catalog{Currency: "USD", AsOf: time.Now(), Offers: make(provider.Offers, 1000)}
	checkCapped(t, "Catalog.Validate", cat.Validate(), perOffer*1000-provider.MaxProblems, 200)

	// The CSV importers: one problem a row, and one a header column.
	var pl strings.Builder
	pl.WriteString("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n")
	for range n {
		pl.WriteString("i,NOPE,8,1,r\n")
	}
	_, err = provider.ImportPriceList(strings.NewReader(pl.String()), provider.ImportOptions{Provider: "AWS", AsOf: asOfForTest})
	checkCapped(t, "ImportPriceList", err, n-provider.MaxProblems, 200)
	var oc strings.Builder
	oc.WriteString("id,gpu_model,gpus_per_node,mode\n")
	for range n {
		oc.WriteString("x,H100 SXM,8,nope\n")
	}
	_, err = provider.ImportOffers(strings.NewReader(oc.String()), provider.OfferImportOptions{})
	checkCapped(t, "ImportOffers rows", err, n-provider.MaxProblems, 200)
	header := "id,gpu_model,gpus_per_node,mode" + strings.Repeat(",unknown", 1000) + "\n"
	_, err = provider.ImportOffers(strings.NewReader(header), provider.OfferImportOptions{})
	checkCapped(t, "ImportOffers header", err, 1000-provider.MaxProblems, 200)

	// Adjusting and merging catalogs of offers in error.
	_, _, err = provider.ApplyAdjustments(cat, []provider.Adjustment{{Percent: decimal.NewFromInt(10)}})
	checkCapped(t, "ApplyAdjustments", err, 1000-provider.MaxProblems, 200)
	eur := provider.Catalog{Currency: "USD", AsOf: time.Now(), Offers: make(provider.Offers, 1000)}
	for i := range eur.Offers {
		eur.Offers[i].Currency = "EUR"
	}
	_, err = provider.Merge(eur)
	checkCapped(t, "Merge", err, 1000-provider.MaxProblems, 200)

	// Fewer problems than the cap are listed whole, with no count.
	few := provider.Catalog{Currency: "USD", AsOf: time.Now(), Offers: make(provider.Offers, 3)}
	if err := few.Validate(); len(leaves(err)) != 3*perOffer || errors.Is(err, provider.ErrTooManyProblems) {
		t.Errorf("3 empty offers: %d problems listed (%v), want %d and no count", len(leaves(err)), err, 3*perOffer)
	}
}

// TestEchoedValuesCut: a 50 MB field was echoed whole in its error. Messages
// quote at most MaxEchoBytes of a value; the FieldError keeps it as given.
func TestEchoedValuesCut(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	o := validOffer(huge)
	o.GPU.Model = ""
	err := o.Validate()
	fes := fieldErrors(t, err)
	if len(fes) != 1 || fes[0].Offer != huge {
		t.Fatalf("Validate = %d problems, want one naming the offer as given", len(fes))
	}
	checkShort := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error", what)
		}
		msg := err.Error()
		if len(msg) > 1000 || !strings.Contains(msg, "…") || !strings.Contains(msg, "1,048,576 bytes") {
			t.Errorf("%s: message of %d bytes (%.200s), want the value cut to MaxEchoBytes with its length", what, len(msg), msg)
		}
	}
	checkShort("Offer.Validate", err)
	checkShort("duration in JSON", new(provider.Duration).UnmarshalText([]byte(huge)))
	checkShort("date in JSON", new(provider.Date).UnmarshalText([]byte(huge)))
	_, err = provider.Decoder{}.Pricing([]byte(`{"mode":"` + huge + `"}`))
	checkShort("unknown mode", err)
	_, err = provider.Decoder{}.Offer([]byte(`{"` + huge + `":1}`))
	if err == nil || len(err.Error()) > 1000 || !errors.Is(err, provider.ErrMalformed) {
		t.Errorf("unknown JSON field of 1 MiB: %d bytes of message, want ErrMalformed within 1000", len(fmt.Sprint(err)))
	}
	csv := "id,gpu_model,gpus_per_node,mode\nx,H100 SXM," + huge + ",metered\n"
	_, err = provider.ImportOffers(strings.NewReader(csv), provider.OfferImportOptions{})
	checkShort("CSV field", err)
	// A multi-byte character is never split.
	wide := validOffer(strings.Repeat("é", 100))
	wide.GPU.Model = ""
	if msg := wide.Validate().Error(); !strings.Contains(msg, strings.Repeat("é", provider.MaxEchoBytes/2)+"…") {
		t.Errorf("cut inside a character: %q", msg)
	}
}

// TestJSONAmountLength: decimal strings in JSON had no length cap and parse
// in quadratic time (4·10⁶ digits took 16 s); the CSV path capped numbers at
// 64 characters. One cap, MaxNumberLen, holds for both.
func TestJSONAmountLength(t *testing.T) {
	pricing := func(rate string) []byte {
		return []byte(`{"mode":"metered","ratePerHour":` + rate + `,"increment":"1h0m0s","minimum":"0s"}`)
	}
	atCap := "1." + strings.Repeat("0", provider.MaxNumberLen-2)
	tests := []struct {
		name, rate string
		ok         bool
	}{
		{"at the cap, quoted", `"` + atCap + `"`, true},
		{"at the cap, bare number", atCap, true},
		{"one beyond, quoted", `"` + atCap + `0"`, false},
		{"one beyond, bare number", atCap + "0", false},
		{"a million digits", `"` + strings.Repeat("9", 1_000_000) + `"`, false},
	}
	for _, tt := range tests {
		p, err := (provider.Decoder{}).Pricing(pricing(tt.rate))
		switch {
		case tt.ok && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.ok && !p.(provider.Metered).RatePerHour.Equal(decimal.NewFromInt(1)):
			t.Errorf("%s: rate %s, want 1", tt.name, p.(provider.Metered).RatePerHour)
		case !tt.ok && (!errors.Is(err, provider.ErrOutOfRange) || !strings.Contains(fmt.Sprint(err), "MaxNumberLen")):
			t.Errorf("%s: %v, want ErrOutOfRange naming MaxNumberLen", tt.name, err)
		}
	}
	// Every money field of an offer is read with the cap, the hidden costs included.
	long := `"` + atCap + `0"`
	o := validOffer("long")
	b, err := o.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	hidden := strings.Replace(string(b), `"egressPerGB":"0.09"`, `"egressPerGB":`+long, 1)
	if hidden == string(b) {
		t.Fatalf("fixture has no egressPerGB of 0.09: %s", b)
	}
	if _, err := (provider.Decoder{}).Offer([]byte(hidden)); !errors.Is(err, provider.ErrOutOfRange) {
		t.Errorf("long egressPerGB: %v, want ErrOutOfRange", err)
	}
	// The CSV importers apply the same cap.
	csv := func(rate string) string {
		return "id,gpu_model,gpus_per_node,mode,rate_per_hour,source_as_of\nx,H100 SXM,8,metered," + rate + ",2026-01-01\n"
	}
	if _, err := provider.ImportOffers(strings.NewReader(csv(atCap)), provider.OfferImportOptions{}); err != nil {
		t.Errorf("CSV at the cap: %v", err)
	}
	if _, err := provider.ImportOffers(strings.NewReader(csv(atCap+"0")), provider.OfferImportOptions{}); !errors.Is(err, provider.ErrOutOfRange) {
		t.Errorf("CSV beyond the cap: %v, want ErrOutOfRange", err)
	}
}
