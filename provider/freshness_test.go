package provider_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gputco/gputco/provider"
)

func TestCatalogStale(t *testing.T) {
	day := 24 * time.Hour
	now := byoDate("2026-07-01")
	cat := func(asOf string, offers ...provider.Offer) provider.Catalog {
		c := provider.Catalog{Currency: "USD", Offers: offers}
		if asOf != "" {
			c.AsOf = byoDate(asOf)
		}
		return c
	}
	offer := func(id, asOf string) provider.Offer {
		o := provider.Offer{ID: id}
		if asOf != "" {
			o.Source.AsOf = byoDate(asOf)
		}
		return o
	}
	tests := []struct {
		name   string
		reason string
		c      provider.Catalog
		maxAge time.Duration
		want   []provider.Stale
	}{
		{"fresh", "nothing older than 180 days", cat("2026-06-01", offer("a", "2026-05-01")), 180 * day, nil},
		{"catalog and offer", "the catalog first, then offers in order",
			cat("2025-12-01", offer("a", "2026-06-30"), offer("b", "2025-01-01")), 180 * day,
			[]provider.Stale{{AsOf: byoDate("2025-12-01"), Age: 212 * day}, {Offer: "b", AsOf: byoDate("2025-01-01"), Age: 546 * day}}},
		{"inherits", "an undated offer takes the catalog's date", cat("2025-12-01", offer("a", "")), 180 * day,
			[]provider.Stale{{AsOf: byoDate("2025-12-01"), Age: 212 * day}, {Offer: "a", AsOf: byoDate("2025-12-01"), Age: 212 * day}}},
		{"boundary", "exactly maxAge old is not stale", cat("2026-01-02", offer("a", "2026-01-01")), 180 * day,
			[]provider.Stale{{Offer: "a", AsOf: byoDate("2026-01-01"), Age: 181 * day}}},
		{"future", "a date after now is never stale", cat("2027-01-01"), 0, nil},
		{"undated", "an undated catalog is always stale; its age saturates", cat(""), 1000 * 365 * day,
			[]provider.Stale{{Age: time.Duration(math.MaxInt64)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.c.Stale(now, tt.maxAge)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestStaleString(t *testing.T) {
	for _, tt := range []struct {
		s    provider.Stale
		want string
	}{
		{provider.Stale{AsOf: byoDate("2025-07-01"), Age: 243 * 24 * time.Hour}, "provider: catalog dated 2025-07-01 is 243 days old"},
		{provider.Stale{Offer: "x", AsOf: byoDate("2025-07-01"), Age: 36 * time.Hour}, `provider: offer "x" dated 2025-07-01 is 1 days old`},
		{provider.Stale{Offer: "x"}, `provider: offer "x" is undated`},
	} {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}
