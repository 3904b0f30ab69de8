package provider_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/gputco/gputco/provider"
)

func TestMerge(t *testing.T) {
	metered := func(id, rate string) provider.Offer {
		return provider.Offer{ID: id, GPU: provider.GPU{Model: "H100 SXM"}, GPUsPerNode: 8, Pricing: provider.Hourly(byoDec(rate))}
	}
	base := provider.Catalog{Currency: "USD", AsOf: byoDate("2026-01-01"),
		Offers: provider.Offers{metered("a", "1"), metered("b", "2"), metered("c", "3")}}
	mine := provider.Catalog{Currency: "USD", AsOf: byoDate("2025-06-01"),
		Offers: provider.Offers{metered("d", "4"), metered("b", "1.5")}}
	got, err := provider.Merge(base, mine)
	if err != nil {
		t.Fatal(err)
	}
	dated := func(o provider.Offer, asOf string) provider.Offer { o.Source.AsOf = byoDate(asOf); return o }
	want := provider.Catalog{Currency: "USD", AsOf: byoDate("2025-06-01"), Offers: provider.Offers{
		dated(metered("a", "1"), "2026-01-01"), // undated offers keep their catalog's date
		metered("b", "1.5"),                    // the overlay wins in place; its catalog's date is the result's
		dated(metered("c", "3"), "2026-01-01"),
		metered("d", "4"), // new IDs follow, in the overlay's order
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Merge (-want +got):\n%s", diff)
	}
	if base.Offers[1].Pricing.(provider.Metered).RatePerHour.String() != "2" || !base.Offers[0].Source.AsOf.IsZero() {
		t.Error("Merge modified its base")
	}
}

func TestMergeCurrency(t *testing.T) {
	usd := provider.Catalog{Currency: "USD", AsOf: byoDate("2026-01-01")}
	eur := provider.Catalog{Currency: "EUR", AsOf: byoDate("2026-01-01")}
	c, err := provider.Merge(usd, usd, eur)
	var fe *provider.FieldError
	if !errors.Is(err, provider.ErrCurrencyMismatch) || !errors.As(err, &fe) || fe.Field != "overlays[1].currency" || c.Currency != "" {
		t.Errorf("catalog currency mismatch: %v", err)
	}
	usd.Offers = provider.Offers{{ID: "x", Currency: "GBP"}}
	if _, err := provider.Merge(usd); !errors.As(err, &fe) || fe.Offer != "x" || !errors.Is(err, provider.ErrCurrencyMismatch) {
		t.Errorf("offer currency mismatch: %v", err)
	}
}

// propMergeIdempotent: Merge(a, a) is a and Merge(Merge(a, b), b) is Merge(a, b).
func propMergeIdempotent(t *rapid.T) {
	a := byoCatalog(true).Draw(t, "a")
	b := byoCatalog(true).Draw(t, "b")
	aa, err := provider.Merge(a, a)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, aa, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("Merge(a, a) != a (-a +merged):\n%s", diff)
	}
	ab, err := provider.Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	abb, err := provider.Merge(ab, b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ab, abb, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("Merge(Merge(a, b), b) != Merge(a, b):\n%s", diff)
	}
	// b wins on every shared ID, and the result is dated with the oldest.
	for _, o := range b.Offers {
		got, _ := ab.Offers.Find(o.ID)
		if diff := cmp.Diff(o.Pricing, got.Pricing); diff != "" {
			t.Fatalf("%s: the overlay did not win:\n%s", o.ID, diff)
		}
	}
	oldest := a.AsOf
	if b.AsOf.Before(oldest) {
		oldest = b.AsOf
	}
	if !ab.AsOf.Equal(oldest) {
		t.Fatalf("merged as of %v, want the oldest %v", ab.AsOf, oldest)
	}
	if err := ab.Validate(); err != nil {
		t.Fatalf("merging valid catalogs gave an invalid one: %v", err)
	}
	// Staleness never improves by merging: an offer stale in its own catalog stays stale.
	now, maxAge := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), 200*24*time.Hour
	staleB := map[string]bool{}
	for _, s := range b.Stale(now, maxAge) {
		staleB[s.Offer] = true
	}
	staleAB := map[string]bool{}
	for _, s := range ab.Stale(now, maxAge) {
		staleAB[s.Offer] = true
	}
	for id := range staleB {
		if id != "" && !staleAB[id] {
			t.Fatalf("offer %s stale in b but not after merging", id)
		}
	}
}

func TestMergeIdempotent(t *testing.T) { rapid.Check(t, propMergeIdempotent) }
func FuzzMergeIdempotent(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMergeIdempotent)) }
