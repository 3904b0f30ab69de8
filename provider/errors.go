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
	ErrNotFinite = vocab.ErrNotFinite
	// ErrNegative reports a negative quantity or amount where only zero or more is meaningful.
	ErrNegative = vocab.ErrNegative
	// ErrOutOfRange reports a value outside its documented range, such as a probability above 1.
	ErrOutOfRange = vocab.ErrOutOfRange
	// ErrMissing reports a required field that is empty or zero.
	ErrMissing = vocab.ErrMissing
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
	// ErrTooManyProblems is wrapped by the *MoreProblemsError that ends a
	// list of problems cut at MaxProblems.
	ErrTooManyProblems = vocab.ErrTooManyProblems
)

// MaxProblems bounds the problems one validation, decoding or import lists:
// the first MaxProblems are returned, each on its own, and the rest are
// counted in one final *MoreProblemsError, so that a hostile input of a
// million bad offers or rows cannot make a message of hundreds of megabytes.
const MaxProblems = 100

// MaxEchoBytes bounds how much of a value as given an error message echoes:
// longer values are cut, at a character boundary, to their first
// MaxEchoBytes bytes followed by "…" and their length.
const MaxEchoBytes = vocab.MaxEchoBytes

// MoreProblemsError ends a list of problems cut at MaxProblems: More
// problems were found beyond those listed.
type MoreProblemsError struct {
	// More is the number of problems found and not listed.
	More int
}

// Error formats the count as "provider: … and 999,900 more problems".
func (e *MoreProblemsError) Error() string {
	return fmt.Sprintf("provider: … and %s more problems (only the first MaxProblems = %d are listed)", grouped(e.More), MaxProblems)
}

// Unwrap returns ErrTooManyProblems.
func (e *MoreProblemsError) Unwrap() error { return ErrTooManyProblems }

// grouped formats n with a comma every three digits.
func grouped(n int) string { return vocab.Grouped(n) }

// echo returns s quoted, cut to MaxEchoBytes as MaxEchoBytes describes.
func echo(s string) string { return vocab.Echo(s) }

// echoValue formats a value as given for a message: strings quoted, other
// values as fmt's %v does, both cut as echo cuts.
func echoValue(v any) string {
	if s, ok := v.(string); ok {
		return echo(s)
	}
	s := fmt.Sprint(v)
	if len(s) <= MaxEchoBytes {
		return s
	}
	return strings.TrimPrefix(strings.TrimSuffix(echo(s), `"`), `"`)
}

// FieldError is one validation problem: which offer, which field, which value,
// and why (Err, one of the sentinel errors).
type FieldError struct {
	// Offer is the ID of the offer at fault, or "" for a catalog-level or
	// stand-alone problem.
	Offer string
	// Field is the path of the field in the offer's (or catalog's) JSON,
	// dotted, indices in brackets, e.g. "pricing.ratePerHour" or
	// "pricing.resale.points[2].age"; see the package documentation.
	Field string
	// Value is the offending value as given.
	Value any
	// Err is the reason; it is usually one of the package's sentinel errors.
	Err error
}

// Error formats the problem as `provider: offer "ID": Field = value: reason`,
// with the offer ID and the value cut to MaxEchoBytes.
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString("provider: ")
	if e.Offer != "" {
		fmt.Fprintf(&b, "offer %s: ", echo(e.Offer))
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		if e.Value != nil {
			b.WriteString(" = ")
			b.WriteString(echoValue(e.Value))
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

// problems collects the problems of one validation pass, keeping the first
// MaxProblems and counting the rest.
type problems struct {
	offer string
	errs  []error
	more  int // problems found beyond MaxProblems
}

// full reports whether no more problems are kept, only counted.
func (p *problems) full() bool { return len(p.errs) >= MaxProblems }

// put adds one problem; a *MoreProblemsError adds its count.
func (p *problems) put(err error) {
	mp, isMore := err.(*MoreProblemsError)
	switch {
	case isMore:
		p.more += mp.More
	case p.full():
		p.more++
	default:
		p.errs = append(p.errs, err)
	}
}

// putAll adds every leaf of a tree of joined errors as it is.
func (p *problems) putAll(err error) {
	for _, e := range flatten(err) {
		p.put(e)
	}
}

// merge adds the problems of q, kept and counted.
func (p *problems) merge(q problems) {
	for _, e := range q.errs {
		p.put(e)
	}
	p.more += q.more
}

func (p *problems) add(field string, value any, err error) {
	if p.full() {
		p.more++
		return
	}
	p.errs = append(p.errs, &FieldError{Offer: p.offer, Field: field, Value: value, Err: err})
}

// nest adds every problem of err, prefixing field paths with prefix and
// setting the offer. A non-FieldError becomes a FieldError on prefix itself.
func (p *problems) nest(prefix string, err error) {
	for _, e := range flatten(err) {
		if mp, ok := e.(*MoreProblemsError); ok {
			p.more += mp.More
			continue
		}
		if p.full() {
			p.more++
			continue
		}
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

// err joins the problems kept, followed by a *MoreProblemsError with the
// count of the others, if any.
func (p *problems) err() error {
	if p.more == 0 {
		return errors.Join(p.errs...)
	}
	return errors.Join(append(p.errs[:len(p.errs):len(p.errs)], &MoreProblemsError{More: p.more})...)
}

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
