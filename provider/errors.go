package provider

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gputco/gputco/internal/vocab"
)

// Sentinel errors wrapped by validation and decoding errors. Test for them with
// [errors.Is].
var (
	// ErrNotFinite reports a NaN or infinite quantity.
	ErrNotFinite = errors.New("not a finite number")
	// ErrNegative reports a negative quantity or amount where only zero or more is meaningful.
	ErrNegative = errors.New("negative value")
	// ErrOutOfRange reports a value outside its documented range, such as a probability above 1.
	ErrOutOfRange = errors.New("value out of range")
	// ErrMissing reports a required field that is empty or zero.
	ErrMissing = errors.New("required value missing")
	// ErrZeroGPUs reports an offer with no GPUs per node.
	ErrZeroGPUs = errors.New("zero GPUs per node")
	// ErrSalvageAbovePrice reports an owned server whose salvage value exceeds its purchase price.
	ErrSalvageAbovePrice = errors.New("salvage value above purchase price")
	// ErrMinimumBelowIncrement reports a metered minimum charge shorter than its billing increment.
	ErrMinimumBelowIncrement = errors.New("minimum charge below billing increment")
	// ErrDuplicateID reports two offers with the same ID in one catalog.
	ErrDuplicateID = errors.New("duplicate offer ID")
	// ErrCurrencyMismatch reports money in two currencies where one is required.
	ErrCurrencyMismatch = errors.New("currency mismatch")
	// ErrUnknownMode reports a pricing mode that the decoder does not know.
	ErrUnknownMode = errors.New("unknown pricing mode")
	// ErrUnknownName reports an enumeration value (kind, fabric, isolation, ...) that does not exist.
	// It is the sentinel of the vocabulary shared with the workload package.
	ErrUnknownName = vocab.ErrUnknownName
	// ErrInvalidUsage reports a Usage that cannot be priced.
	ErrInvalidUsage = errors.New("invalid usage")
)

// FieldError is one validation problem: which offer, which field, which value,
// and why (Err, one of the sentinel errors).
type FieldError struct {
	// Offer is the ID of the offer at fault, or "" for a catalog-level or
	// stand-alone problem.
	Offer string
	// Field is the dotted path of the field, e.g. "Pricing.RatePerHour".
	Field string
	// Value is the offending value as given.
	Value any
	// Err is the reason; it is usually one of the package's sentinel errors.
	Err error
}

// Error formats the problem as `provider: offer "ID": Field = value: reason`.
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString("provider: ")
	if e.Offer != "" {
		fmt.Fprintf(&b, "offer %q: ", e.Offer)
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		switch v := e.Value.(type) {
		case nil:
		case string:
			fmt.Fprintf(&b, " = %q", v)
		default:
			fmt.Fprintf(&b, " = %v", v)
		}
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("invalid")
	}
	return b.String()
}

// Unwrap returns the reason, so that errors.Is matches the sentinel.
func (e *FieldError) Unwrap() error { return e.Err }

// problems collects FieldErrors for one validation pass.
type problems struct {
	offer string
	errs  []error
}

func (p *problems) add(field string, value any, err error) {
	p.errs = append(p.errs, &FieldError{Offer: p.offer, Field: field, Value: value, Err: err})
}

// nest adds every problem of err, prefixing field paths with prefix and
// setting the offer. A non-FieldError becomes a FieldError on prefix itself.
func (p *problems) nest(prefix string, err error) {
	for _, e := range flatten(err) {
		var fe *FieldError
		if errors.As(e, &fe) {
			c := *fe
			c.Offer = p.offer
			switch {
			case c.Field == "":
				c.Field = prefix
			case prefix != "":
				c.Field = prefix + "." + c.Field
			}
			p.errs = append(p.errs, &c)
			continue
		}
		p.errs = append(p.errs, &FieldError{Offer: p.offer, Field: prefix, Err: e})
	}
}

func (p *problems) err() error { return errors.Join(p.errs...) }

// flatten returns the leaves of a tree of joined errors.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}
