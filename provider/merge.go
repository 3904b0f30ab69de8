package provider

import "fmt"

// Merge returns one catalog holding the offers of base and of every overlay,
// later catalogs winning on equal IDs — typically the default catalog
// followed by the user's own offers. None of the arguments is modified.
//
// Order is deterministic: base's offers first, in order, then each overlay's
// new IDs in the overlay's order; an offer whose ID is already present
// replaces the earlier one in its position. Duplicate IDs within one catalog
// resolve the same way, the later one winning. Hence Merge(a, a) is a for a
// catalog with unique IDs, and Merge(Merge(a, b), b) is Merge(a, b).
//
// Every catalog must have base's currency, and so must every offer that
// names its own; otherwise Merge returns an empty catalog and a *FieldError
// wrapping ErrCurrencyMismatch for each mismatch.
//
// The result is dated with the oldest AsOf of all the catalogs (zero if any
// is undated): a merged catalog is only as fresh as its stalest part. So
// that no offer looks older than it is, an offer without a date of its own
// takes its catalog's AsOf when that differs from the result's. Merge does not
// otherwise validate.
func Merge(base Catalog, overlays ...Catalog) (Catalog, error) {
	all := append([]Catalog{base}, overlays...)
	var p problems
	asOf := base.AsOf
	n := 0
	for i, c := range all {
		if c.Currency != base.Currency {
			p.add(fmt.Sprintf("overlays[%d].currency", i-1), c.Currency, ErrCurrencyMismatch)
		}
		for _, o := range c.Offers {
			if o.Currency != "" && o.Currency != base.Currency {
				p.put(&FieldError{Offer: o.ID, Field: "currency", Value: o.Currency, Err: ErrCurrencyMismatch})
			}
		}
		if c.AsOf.IsZero() || (!asOf.IsZero() && c.AsOf.Before(asOf)) {
			asOf = c.AsOf
		}
		n += len(c.Offers)
	}
	if err := p.err(); err != nil {
		return Catalog{}, err
	}
	out := Catalog{Currency: base.Currency, AsOf: asOf}
	if n > 0 {
		out.Offers = make(Offers, 0, n)
	}
	at := make(map[string]int, n)
	for _, c := range all {
		for _, o := range c.Offers {
			if o.Source.AsOf.IsZero() && !c.AsOf.Equal(asOf) {
				o.Source.AsOf = c.AsOf
			}
			if i, ok := at[o.ID]; ok {
				out.Offers[i] = o
				continue
			}
			at[o.ID] = len(out.Offers)
			out.Offers = append(out.Offers, o)
		}
	}
	return out, nil
}
