package workload

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Validation and parsing errors wrap one of these, so
// errors.Is works on every error the package returns.
var (
	// ErrRequired reports a missing value that must be set.
	ErrRequired = errors.New("workload: value required")
	// ErrNotFinite reports a NaN or infinite number.
	ErrNotFinite = errors.New("workload: not a finite number")
	// ErrNegative reports a negative quantity, duration or amount.
	ErrNegative = errors.New("workload: negative value")
	// ErrOutOfRange reports a value outside its documented range.
	ErrOutOfRange = errors.New("workload: value out of range")
	// ErrUnknownName reports an enumeration name or curve type that is not known.
	ErrUnknownName = errors.New("workload: unknown name")
	// ErrConflict reports two settings that exclude each other.
	ErrConflict = errors.New("workload: conflicting settings")
	// ErrDuplicate reports a name that must be unique but appears twice.
	ErrDuplicate = errors.New("workload: duplicate")
	// ErrEmptySamples reports a sample series or step schedule without points.
	ErrEmptySamples = errors.New("workload: no samples")
	// ErrUnsorted reports sample or step times that are not strictly increasing.
	ErrUnsorted = errors.New("workload: times not strictly increasing")
	// ErrZeroPeriod reports a period or horizon that must be positive but is not.
	ErrZeroPeriod = errors.New("workload: period must be positive")
	// ErrDemand reports demand that is NaN, infinite, negative or above the peak.
	ErrDemand = errors.New("workload: invalid demand")
	// ErrUnsupportedCurve reports a curve that cannot be encoded to JSON
	// because it is not one of the built-in curve types.
	ErrUnsupportedCurve = errors.New("workload: curve type cannot be encoded")
	// ErrSyntax reports malformed JSON or CSV input.
	ErrSyntax = errors.New("workload: malformed input")
)

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

// Error implements error: "workload: <field> = <value>: <problem>".
func (e *FieldError) Error() string {
	msg := "invalid"
	if e.Err != nil {
		msg = strings.TrimPrefix(e.Err.Error(), "workload: ")
	}
	return fmt.Sprintf("workload: %s = %v: %s", e.Field, e.Value, msg)
}

// Unwrap returns the wrapped sentinel.
func (e *FieldError) Unwrap() error { return e.Err }

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
	var fe *FieldError
	if errors.As(err, &fe) {
		return []error{&FieldError{Field: prefix + "." + fe.Field, Value: fe.Value, Err: fe.Err}}
	}
	return []error{fmt.Errorf("%s: %w", prefix, err)}
}
