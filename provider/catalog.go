package provider

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"
)

// Catalog is a dated list of offers in one currency.
type Catalog struct {
	// Currency is the ISO 4217 code of every amount, e.g. "USD".
	Currency string
	// AsOf is the date of the catalog as a whole.
	AsOf time.Time
	// Offers are the offers; their IDs are unique.
	Offers Offers
}

var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

// errCurrencyCode is the reason given for a currency that is not an ISO
// 4217 code.
var errCurrencyCode = fmt.Errorf("%w: want three upper-case letters, an ISO 4217 code such as USD", ErrMalformed)

// Validate reports every problem of the catalog at once: a missing currency
// or one that is not three upper-case letters, a missing date, duplicate offer IDs, offers in another
// currency, and every problem of every offer. It lists at most MaxProblems
// problems and counts the rest in a final *MoreProblemsError.
func (c Catalog) Validate() error {
	var p problems
	cc := c.check(&p)
	for _, o := range c.Offers {
		cc.offer(&p, o)
	}
	return p.err()
}

// catalogCheck validates a catalog offer by offer, so that a decoder can
// check each offer as it reads it.
type catalogCheck struct {
	currency string
	seen     map[string]bool
}

// check adds the catalog-level problems of c to p and returns the check of
// its offers.
func (c Catalog) check(p *problems) *catalogCheck {
	switch {
	case c.Currency == "":
		p.add("currency", c.Currency, ErrMissing)
	case !currencyCode.MatchString(c.Currency):
		p.add("currency", c.Currency, errCurrencyCode)
	}
	if c.AsOf.IsZero() {
		p.add("asOf", "", ErrMissing)
	}
	return &catalogCheck{currency: c.Currency, seen: make(map[string]bool, len(c.Offers))}
}

// offer adds the problems of o, one offer of the catalog, to p.
func (cc *catalogCheck) offer(p *problems, o Offer) {
	op := problems{offer: o.ID}
	if o.ID != "" && cc.seen[o.ID] {
		op.add("id", o.ID, ErrDuplicateID)
	}
	cc.seen[o.ID] = true
	switch {
	case o.Currency == "" || o.Currency == cc.currency:
	case !currencyCode.MatchString(o.Currency):
		op.add("currency", o.Currency, errCurrencyCode)
	default:
		op.add("currency", o.Currency, ErrCurrencyMismatch)
	}
	o.validate(&op)
	p.merge(op)
}

// ParseCatalog decodes and validates a JSON catalog with the built-in pricing
// modes. It is Decoder{}.Catalog(data).
func ParseCatalog(data []byte) (Catalog, error) { return Decoder{}.Catalog(data) }

// ReadCatalog reads all of r and parses it as ParseCatalog does.
func ReadCatalog(r io.Reader) (Catalog, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Catalog{}, err
	}
	return ParseCatalog(data)
}

// LoadCatalog reads and parses the JSON catalog file at path.
func LoadCatalog(path string) (Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Catalog{}, err
	}
	return ParseCatalog(data)
}

// WriteJSON writes the catalog to w as indented JSON, the form ParseCatalog reads.
func (c Catalog) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(c)
}

// Offers is a list of offers with chainable queries. Queries return new
// slices and never modify the receiver.
type Offers []Offer

// Find returns the offer with the given ID.
func (os Offers) Find(id string) (Offer, bool) {
	for _, o := range os {
		if o.ID == id {
			return o, true
		}
	}
	return Offer{}, false
}

// Filter returns the offers for which keep returns true, in order.
func (os Offers) Filter(keep func(Offer) bool) Offers {
	var out Offers
	for _, o := range os {
		if keep(o) {
			out = append(out, o)
		}
	}
	return out
}

// Kind returns the offers of provider kind k.
func (os Offers) Kind(k Kind) Offers {
	return os.Filter(func(o Offer) bool { return o.Kind == k })
}

// Mode returns the offers whose pricing mode is mode.
func (os Offers) Mode(mode string) Offers {
	return os.Filter(func(o Offer) bool { return o.Pricing != nil && o.Pricing.Mode() == mode })
}

// GPU returns the offers of GPU model.
func (os Offers) GPU(model string) Offers {
	return os.Filter(func(o Offer) bool { return o.GPU.Model == model })
}

// Available returns the offers with a fill probability above zero.
func (os Offers) Available() Offers {
	return os.Filter(func(o Offer) bool { return o.Availability.FillProbability > 0 })
}
