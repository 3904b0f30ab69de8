package provider

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gputco/gputco/internal/vocab"
)

// Sentinel errors of the importers, adjustments and merging. Test for them
// with [errors.Is].
var (
	// ErrMalformed reports input that does not parse: a CSV value that is not
	// of its column's type (number, decimal amount, duration, date, name), or
	// JSON that is not well formed or has unknown fields or wrong types.
	ErrMalformed = vocab.ErrMalformed
	// ErrMissingColumn reports a required column absent from a CSV header.
	ErrMissingColumn = errors.New("required column missing")
	// ErrFieldCount reports a CSV row whose number of fields differs from the header's.
	ErrFieldCount = errors.New("wrong number of fields")
	// ErrUnknownAccelerator reports an accelerator name that is not in the
	// table of known accelerators; the importer never guesses its specs.
	ErrUnknownAccelerator = errors.New("unknown accelerator")
	// ErrNotApplicable reports a value that the row's pricing mode does not
	// use, or an adjustment that the offer's pricing mode cannot take.
	ErrNotApplicable = errors.New("not applicable to the pricing mode")
)

// RowError is one problem of one CSV row: where it is (Line, Column), what
// was found (Value) and why it is wrong (Err, which wraps a sentinel error).
type RowError struct {
	// Line is the 1-based line of the input where the row starts; the
	// header is line 1 unless blank lines precede it.
	Line int
	// Column is the header name of the field at fault, or "" for the row as a
	// whole.
	Column string
	// Value is the field as read, or "" for the row as a whole.
	Value string
	// Err is the reason; errors.Is(Err, sentinel) holds for the sentinel it wraps.
	Err error
}

// Error formats the problem as `provider: line N: column "C" = "V": reason`,
// with the column and the value cut to MaxEchoBytes.
func (e *RowError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "provider: line %d: ", e.Line)
	if e.Column != "" {
		fmt.Fprintf(&b, "column %s = %s: ", echo(e.Column), echo(e.Value))
	}
	if e.Err != nil {
		b.WriteString(strings.TrimPrefix(e.Err.Error(), "provider: "))
	} else {
		b.WriteString("invalid")
	}
	return b.String()
}

// Unwrap returns the reason, so that errors.Is matches the sentinel.
func (e *RowError) Unwrap() error { return e.Err }

// reasonf wraps a sentinel with detail: errors.Is(reasonf(s, ...), s) holds.
func reasonf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))
}
