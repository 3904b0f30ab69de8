package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/gputco/gputco/internal/duration"
	"github.com/gputco/gputco/internal/jsonpath"
	"github.com/shopspring/decimal"
)

// MaxNumberLen bounds the text of a money amount read from JSON: 64
// characters, as in the provider package, since parsing a decimal takes time
// quadratic in its length.
const MaxNumberLen = 64

// jsonAmount reads a decimal string or number of at most MaxNumberLen
// characters and writes it as decimal.Decimal does.
type jsonAmount decimal.Decimal

// MarshalJSON writes the amount as decimal.Decimal does.
func (a jsonAmount) MarshalJSON() ([]byte, error) { return decimal.Decimal(a).MarshalJSON() }

// UnmarshalJSON refuses text longer than MaxNumberLen (ErrOutOfRange) and
// text that is not a decimal (ErrMalformed).
func (a *jsonAmount) UnmarshalJSON(b []byte) error {
	text := b
	if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
		text = text[1 : len(text)-1]
	}
	if len(text) > MaxNumberLen {
		return fmt.Errorf("workload: %w: amount %s: more than MaxNumberLen = %d characters", ErrOutOfRange, echo(string(text)), MaxNumberLen)
	}
	d := decimal.Decimal(*a)
	if err := d.UnmarshalJSON(b); err != nil {
		return fmt.Errorf("workload: %w: amount %s: not a decimal number", ErrMalformed, echo(string(text)))
	}
	*a = jsonAmount(d)
	return nil
}

// jsonDuration encodes a time.Duration as a Go duration string ("720h0m0s").
type jsonDuration time.Duration

// MarshalText writes the duration in time.Duration.String form.
func (d jsonDuration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText parses a Go duration or a number of days, months (730 h) or
// years (8,760 h) — "30d", "1mo", "3y" — as the provider package reads
// catalogs in JSON and CSV.
func (d *jsonDuration) UnmarshalText(b []byte) error {
	v, err := duration.Parse(string(b))
	switch {
	case errors.Is(err, duration.ErrRange):
		return fmt.Errorf("workload: %w: duration %s: %w", ErrOutOfRange, echo(string(b)), err)
	case err != nil:
		// time's error quotes the whole input: echo a bounded part instead.
		return fmt.Errorf("workload: %w: duration %s: %w", ErrMalformed, echo(string(b)), err)
	}
	*d = jsonDuration(v)
	return nil
}

// strictUnmarshal decodes data into v, rejecting unknown fields and trailing data.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return boundedError{err}
	}
	if dec.More() {
		return fmt.Errorf("workload: %w: trailing data after JSON value", ErrMalformed)
	}
	return nil
}

// located returns the problem of a JSON object of struct type t, raw,
// that did not decode (err), named by the path of the field at fault when
// it can be told: a value of the wrong type (encoding/json names the Go
// struct instead), or one that does not parse as its field's (a duration,
// an amount, a name), found by decoding raw again field by field. It
// returns nil otherwise (a syntax error, an unknown field).
func located(raw []byte, t reflect.Type, err error) *FieldError {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return nil
	}
	path, value, ok := jsonpath.Locate(raw, t, "")
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if !ok {
			if te.Field == "" {
				return nil
			}
			path, value = te.Field, []byte(te.Value)
		}
		return &FieldError{Field: path, Value: string(value), Err: fmt.Errorf("%w: %s", ErrMalformed, jsonpath.Mismatch(te))}
	}
	if !ok {
		return nil
	}
	reason := error(nested{err})
	if !errors.Is(err, ErrMalformed) { // an unknown name: malformed input as well
		reason = fmt.Errorf("%w: %w", ErrMalformed, reason)
	}
	return &FieldError{Field: path, Value: string(value), Err: reason}
}

// under re-roots a *FieldError at the top of err under prefix (a key of the
// enclosing object, "demand", "terms[2]"); other errors pass as they are.
func under(prefix string, err error) error {
	if fe, ok := err.(*FieldError); ok {
		c := *fe
		c.Field = jsonpath.Join(prefix, fe.Field)
		return &c
	}
	return err
}

// readAll reads r into memory with an error wrapping ErrMalformed on failure.
func readAll(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("workload: %w: read: %w", ErrMalformed, err)
	}
	return b, nil
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// wrapSyntax makes sure a decoding error wraps ErrMalformed (enumeration
// and curve errors keep their own sentinel too) and carries the package
// prefix once.
func wrapSyntax(err error) error {
	if errors.Is(err, ErrMalformed) && strings.HasPrefix(err.Error(), "workload: ") {
		return err
	}
	return fmt.Errorf("workload: %w: %w", ErrMalformed, nested{err})
}
