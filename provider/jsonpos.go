package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/gputco/gputco/internal/jsonpath"
)

// JSONError is a JSON syntax or type error at a position of the document
// being decoded: a catalog, or the offer or pricing given to a Decoder.
type JSONError struct {
	// Line and Column locate the error, both counted from 1; Column counts
	// bytes.
	Line, Column int
	// Err is the error, wrapping ErrMalformed.
	Err error
}

// Error formats the error as "line 12, column 5: malformed value: …".
func (e *JSONError) Error() string {
	return fmt.Sprintf("line %d, column %d: %v", e.Line, e.Column, e.Err)
}

// Unwrap returns Err.
func (e *JSONError) Unwrap() error { return e.Err }

// positioned returns err marked malformed and, when it is a syntax or type
// error of encoding/json, located in doc: part is the slice of doc (its bytes,
// not necessarily its memory) that was being decoded, nil for doc itself.
func positioned(doc, part []byte, err error) error {
	err = malformed(err)
	var off int64
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
		if te.Field != "" {
			err = typeError{te}
		}
	default:
		return err
	}
	if doc == nil {
		doc = part
	}
	base := 0
	if part != nil {
		if i := bytes.Index(doc, part); i >= 0 {
			base = i
		} else {
			doc = part
		}
	}
	// encoding/json's offsets count the bytes read, the offending one
	// included: the error is at the byte before.
	at := min(base+int(max(off-1, 0)), len(doc))
	line := 1 + bytes.Count(doc[:at], []byte{'\n'})
	col := at - bytes.LastIndexByte(doc[:at], '\n')
	return &JSONError{Line: line, Column: col, Err: err}
}

// typeError is a JSON value of the wrong type, named by its path in the
// JSON decoded (encoding/json's own message names the Go struct instead).
type typeError struct{ te *json.UnmarshalTypeError }

func (e typeError) Error() string {
	return fmt.Sprintf("%v: %s: %s", ErrMalformed, echoPath(e.te.Field), echoPath(jsonpath.Mismatch(e.te)))
}

func (e typeError) Unwrap() []error { return []error{ErrMalformed, e.te} }

// rootTypeError prefixes the path of the JSON type error in err, if any,
// with the path of the object it was decoded from, so that an error in a
// pricing names "pricing.increment" as an error in an offer names
// "availability.maxNodes". err is encoding/json's own, made for this call
// and not yet in any message.
func rootTypeError(err error, prefix string) {
	var te *json.UnmarshalTypeError
	if prefix != "" && errors.As(err, &te) && te.Field != "" {
		te.Field = prefix + "." + te.Field
	}
}

// echoPath cuts a path or a value kind as echo cuts a value, unquoted.
func echoPath(s string) string { return strings.TrimSuffix(strings.TrimPrefix(echo(s), `"`), `"`) }

// offerID returns the "id" of an offer's JSON object, or "" when it has none
// or is not an object.
func offerID(raw []byte) string {
	var head struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return ""
	}
	return head.ID
}

// nested is an error quoted inside a message that already names the
// package: its own leading "provider: " is dropped, so that the prefix
// appears once.
type nested struct{ err error }

func (n nested) Error() string { return strings.TrimPrefix(n.err.Error(), "provider: ") }

func (n nested) Unwrap() error { return n.err }

// located returns the problem of a JSON value whose own decoding (an
// amount, a duration, a date) failed, err: encoding/json does not say where
// the value is, so located finds it by decoding the object of struct type t
// in raw again, one field at a time. It returns a *FieldError naming the
// field's path, wrapping err, or nil when err is a syntax, type or field
// error, or no single field fails alone.
func located(raw []byte, t reflect.Type, err error) *FieldError {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var fe *FieldError
	if errors.As(err, &se) || errors.As(err, &te) || errors.As(err, &fe) {
		return nil
	}
	path, _, ok := jsonpath.Locate(raw, t, "")
	if !ok {
		return nil
	}
	return &FieldError{Field: path, Err: nested{err}}
}
