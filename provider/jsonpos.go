package provider

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
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
	return fmt.Sprintf("%v: %s: a JSON %s where %s belongs", ErrMalformed, echoPath(e.te.Field), echoPath(e.te.Value), jsonKind(e.te.Type))
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

// joinPath joins two parts of a JSON path with a dot.
func joinPath(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// echoPath cuts a path or a value kind as echo cuts a value, unquoted.
func echoPath(s string) string { return strings.TrimSuffix(strings.TrimPrefix(echo(s), `"`), `"`) }

// jsonKind names the JSON values that decode into t.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	if reflect.PointerTo(t).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) {
		return "a string"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "another value"
}

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
	path, ok := locate(raw, t, "")
	if !ok {
		return nil
	}
	return &FieldError{Field: path, Err: nested{err}}
}

// maxLocateDepth bounds how deeply locate looks into nested objects.
const maxLocateDepth = 8

// locate returns the path, below prefix, of the first field of the JSON
// object raw that does not decode into its field of the struct type t.
func locate(raw []byte, t reflect.Type, prefix string) (string, bool) {
	return locateIn(raw, t, prefix, 0)
}

func locateIn(raw []byte, t reflect.Type, prefix string, depth int) (string, bool) {
	if depth > maxLocateDepth {
		return "", false
	}
	switch {
	case t.Kind() == reflect.Struct && !decodesItself(t):
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return "", false
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" || !f.IsExported() {
				continue
			}
			v, ok := obj[name]
			if !ok {
				for k, kv := range obj {
					if strings.EqualFold(k, name) {
						v, ok = kv, true
						break
					}
				}
			}
			if !ok {
				continue
			}
			if path, bad := locateIn(v, f.Type, joinPath(prefix, name), depth+1); bad {
				return path, true
			}
		}
		return "", false
	case t.Kind() == reflect.Pointer && !decodesItself(t):
		if string(bytes.TrimSpace(raw)) == "null" {
			return "", false
		}
		return locateIn(raw, t.Elem(), prefix, depth+1)
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8 && !decodesItself(t):
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return "", false
		}
		for i, item := range items {
			if path, bad := locateIn(item, t.Elem(), prefix+"["+strconv.Itoa(i)+"]", depth+1); bad {
				return path, true
			}
		}
		return "", false
	}
	if json.Unmarshal(raw, reflect.New(t).Interface()) != nil {
		return prefix, true
	}
	return "", false
}

// decodesItself reports whether values of t decode themselves from JSON.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(reflect.TypeFor[json.Unmarshaler]()) || p.Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
}
