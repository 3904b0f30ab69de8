package workload

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gputco/gputco/internal/vocab"
)

// Sentinel errors. Validation and parsing errors wrap one of these, so
// errors.Is works on every error the package returns. Those of a kind the
// provider package reports too are the same values as provider's
// (ErrMissing is provider.ErrMissing, and so on). Their texts carry no
// package prefix; the errors wrapping them start with "workload: ".
var (
	// ErrMissing reports a missing value that must be set.
	ErrMissing = vocab.ErrMissing
	// ErrNotFinite reports a NaN or infinite number.
	ErrNotFinite = vocab.ErrNotFinite
	// ErrNegative reports a negative quantity, duration or amount.
	ErrNegative = vocab.ErrNegative
	// ErrOutOfRange reports a value outside its documented range.
	ErrOutOfRange = vocab.ErrOutOfRange
	// ErrUnknownName reports an enumeration name or curve type that is not known.
	ErrUnknownName = vocab.ErrUnknownName
	// ErrMalformed reports malformed JSON or CSV input.
	ErrMalformed = vocab.ErrMalformed
	// ErrConflict reports two settings that exclude each other.
	ErrConflict = errors.New("conflicting settings")
	// ErrDuplicate reports a name that must be unique but appears twice.
	ErrDuplicate = errors.New("duplicate")
	// ErrEmptySamples reports a sample series or step schedule without points.
	ErrEmptySamples = errors.New("no samples")
	// ErrUnsorted reports sample or step times that are not strictly increasing.
	ErrUnsorted = errors.New("times not strictly increasing")
	// ErrZeroPeriod reports a period or horizon that must be positive but is not.
	ErrZeroPeriod = errors.New("period must be positive")
	// ErrDemand reports demand that is NaN, infinite, negative or above the peak.
	ErrDemand = errors.New("invalid demand")
	// ErrUnsupportedCurve reports a curve that cannot be encoded to JSON
	// because it is not one of the built-in curve types.
	ErrUnsupportedCurve = errors.New("curve type cannot be encoded")
	// ErrTooManyProblems is wrapped by the *MoreProblemsError that ends a
	// list of problems cut at MaxProblems.
	ErrTooManyProblems = vocab.ErrTooManyProblems

	// ErrRequired is ErrMissing.
	//
	// Deprecated: use ErrMissing, the name the provider package uses.
	ErrRequired = ErrMissing
	// ErrSyntax is ErrMalformed.
	//
	// Deprecated: use ErrMalformed, the name the provider package uses.
	ErrSyntax = ErrMalformed
)

// MaxProblems bounds the problems one validation or read lists: the first
// MaxProblems are returned, each on its own, and the rest are counted in one
// final *MoreProblemsError, so that a million bad samples or steps cannot
// make a message of hundreds of megabytes.
const MaxProblems = 100

// MaxEchoBytes bounds how much of a value as given (and of a field path,
// which may hold a model name) an error message echoes: longer ones are cut,
// at a character boundary, to their first MaxEchoBytes bytes followed by "…"
// and their length.
const MaxEchoBytes = vocab.MaxEchoBytes

// MoreProblemsError ends a list of problems cut at MaxProblems: More
// problems were found beyond those listed.
type MoreProblemsError struct {
	// More is the number of problems found and not listed.
	More int
}

// Error formats the count as "workload: … and 999,900 more problems".
func (e *MoreProblemsError) Error() string {
	return fmt.Sprintf("workload: … and %s more problems (only the first MaxProblems = %d are listed)", grouped(e.More), MaxProblems)
}

// Unwrap returns ErrTooManyProblems.
func (e *MoreProblemsError) Unwrap() error { return ErrTooManyProblems }

// grouped formats n with a comma every three digits.
func grouped(n int) string { return vocab.Grouped(n) }

// cut returns s cut to MaxEchoBytes, at a character boundary, followed by
// "…" and its length in bytes; s itself when it is short enough.
func cut(s string) string { return vocab.Cut(s) }

// echo returns s quoted, cut as cut does (the length after the quotes).
func echo(s string) string { return vocab.Echo(s) }

// problemList collects the problems of one validation, keeping the first
// MaxProblems and counting the rest.
type problemList struct {
	errs []error
	more int
}

// add adds err: each leaf of a join, a *MoreProblemsError by its count.
func (l *problemList) add(err error) {
	switch e := err.(type) {
	case nil:
	case *MoreProblemsError:
		l.more += e.More
	case interface{ Unwrap() []error }:
		for _, c := range e.Unwrap() {
			l.add(c)
		}
	default:
		if len(l.errs) < MaxProblems {
			l.errs = append(l.errs, err)
		} else {
			l.more++
		}
	}
}

// addAll adds every error of errs.
func (l *problemList) addAll(errs []error) {
	for _, e := range errs {
		l.add(e)
	}
}

// err joins the problems kept, followed by a *MoreProblemsError with the
// count of the others, if any.
func (l *problemList) err() error {
	if l.more == 0 {
		return errors.Join(l.errs...)
	}
	return errors.Join(append(l.errs[:len(l.errs):len(l.errs)], &MoreProblemsError{More: l.more})...)
}

// FieldError is a problem with one field: its path (for example
// "requirements.models[H100 SXM]"), the offending value and the sentinel
// error it wraps.
type FieldError struct {
	// Field is the dotted path of the field, JSON names, indices in brackets.
	Field string
	// Value is the bad value as given.
	Value any
	// Err is the sentinel (or wrapped sentinel) describing the problem.
	Err error
}

// Error implements error: "workload: <field> = <value>: <problem>", with
// the field and the value cut to MaxEchoBytes.
func (e *FieldError) Error() string {
	msg := "invalid"
	if e.Err != nil {
		msg = strings.TrimPrefix(e.Err.Error(), "workload: ")
	}
	return fmt.Sprintf("workload: %s = %s: %s", cut(e.Field), cut(fmt.Sprint(e.Value)), msg)
}

// Unwrap returns the wrapped sentinel.
func (e *FieldError) Unwrap() error { return e.Err }

// nested is an error quoted inside a message that already names the
// package: its own leading "workload: " is dropped, so that the prefix
// appears once.
type nested struct{ err error }

func (n nested) Error() string { return strings.TrimPrefix(n.err.Error(), "workload: ") }

func (n nested) Unwrap() error { return n.err }

// fieldErr builds a *FieldError wrapping err with an optional detail.
func fieldErr(field string, value any, err error, detail string) error {
	if detail != "" {
		err = fmt.Errorf("%w (%s)", err, detail)
	}
	return &FieldError{Field: field, Value: value, Err: err}
}

// prefixErrors re-roots every FieldError inside err under prefix, keeping the
// join structure flat. Other errors are wrapped with the prefix.
func prefixErrors(prefix string, err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, prefixErrors(prefix, e)...)
		}
		return out
	}
	if mp, ok := err.(*MoreProblemsError); ok {
		return []error{mp} // a count, not a field
	}
	var fe *FieldError
	if errors.As(err, &fe) {
		return []error{&FieldError{Field: prefix + "." + fe.Field, Value: fe.Value, Err: fe.Err}}
	}
	return []error{fmt.Errorf("%s: %w", prefix, err)}
}

// boundedError is an error (of encoding/json, which quotes field names of any
// length) whose message is cut to 16 times MaxEchoBytes, room enough for the
// package's own messages that pass through.
type boundedError struct{ err error }

func (e boundedError) Error() string {
	m := e.err.Error()
	if len(m) <= 16*MaxEchoBytes {
		return m
	}
	n := 16 * MaxEchoBytes
	for n > 0 && !utf8.RuneStart(m[n]) {
		n--
	}
	return m[:n] + "… (" + grouped(len(m)) + " bytes)"
}

func (e boundedError) Unwrap() error { return e.err }
