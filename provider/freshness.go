package provider

import (
	"fmt"
	"time"
)

// Stale is a catalog or an offer whose figures are older than a caller
// accepts; see Catalog.Stale.
type Stale struct {
	// Offer is the ID of the stale offer, or "" for the catalog itself.
	Offer string
	// AsOf is the date of the figures: the offer's Source.AsOf, or the
	// catalog's AsOf for the catalog and for offers without a date of their
	// own. It is zero when neither is known.
	AsOf time.Time
	// Age is now − AsOf, saturating at the largest time.Duration (about 292
	// years) for an undated catalog.
	Age time.Duration
}

// String returns a one-line warning, e.g.
// `provider: catalog dated 2025-01-01 is 365 days old` or
// `provider: offer "aws/p5.48xlarge/us-east-1a" is undated`.
func (s Stale) String() string {
	what := "catalog"
	if s.Offer != "" {
		what = "offer " + echo(s.Offer)
	}
	if s.AsOf.IsZero() {
		return "provider: " + what + " is undated"
	}
	return fmt.Sprintf("provider: %s dated %s is %d days old", what, s.AsOf.Format(time.DateOnly),
		int64(s.Age/(24*time.Hour)))
}

// Stale lists what in c is older than maxAge at now: first the catalog itself
// when c.AsOf is, then, in catalog order, every offer whose date is. An
// offer's date is its Source.AsOf or, when that is zero, the catalog's AsOf.
// Something is stale when now − date > maxAge; an undated catalog (zero AsOf)
// is always stale, a date after now never is. now is a parameter: the package
// never reads the clock. The result is nil when nothing is stale.
func (c Catalog) Stale(now time.Time, maxAge time.Duration) []Stale {
	var out []Stale
	if s, ok := stale("", c.AsOf, now, maxAge); ok {
		out = append(out, s)
	}
	for _, o := range c.Offers {
		asOf := o.Source.AsOf
		if asOf.IsZero() {
			asOf = c.AsOf
		}
		if s, ok := stale(o.ID, asOf, now, maxAge); ok {
			out = append(out, s)
		}
	}
	return out
}

func stale(id string, asOf, now time.Time, maxAge time.Duration) (Stale, bool) {
	age := now.Sub(asOf) // saturates
	if asOf.IsZero() || age > maxAge {
		return Stale{Offer: id, AsOf: asOf, Age: age}, true
	}
	return Stale{}, false
}
