package provider_test

import (
	"bytes"
	"errors"
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
