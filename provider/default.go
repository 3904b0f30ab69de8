package provider

import _ "embed"

//go:embed default.json
var defaultJSON []byte

// Default returns the embedded default catalog: public list prices and
// figures for hyperscaler, GPU-platform and self-hosted offers, each offer
// citing its source and date (see Offer.Source). Estimates are marked as such.
// Each call decodes a fresh copy, so callers may modify the result.
func Default() (Catalog, error) { return ParseCatalog(defaultJSON) }

// DefaultJSON returns a copy of the embedded default catalog's JSON.
func DefaultJSON() []byte { return append([]byte(nil), defaultJSON...) }
