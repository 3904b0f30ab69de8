// Package jsonpath names where in a JSON document a value failed to decode,
// by its path of keys ("availability.maxNodes", "steps[2].start"), for the
// error messages of the provider and workload packages: encoding/json names
// the Go struct of a value of the wrong type, and does not say where a
// value's own decoding (an amount, a duration, a date) failed.
package jsonpath

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// Join joins two parts of a path with a dot; either may be empty.
func Join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "." + b
}

// Kind names the JSON values that decode into t ("a whole number", "a
// string", "an object", ...).
func Kind(t reflect.Type) string {
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

// Mismatch describes a JSON value of the wrong type: "a JSON string where a
// whole number belongs".
func Mismatch(te *json.UnmarshalTypeError) string {
	return "a JSON " + te.Value + " where " + Kind(te.Type) + " belongs"
}

// maxDepth bounds how deeply Locate looks into nested objects and arrays.
const maxDepth = 16

// Locate returns the path, below prefix, of the first field of the JSON
// object raw that does not decode alone into its field of the struct type
// t, and that field's JSON text; ok is false when every field decodes
// alone. Fields are matched by their json tags, case-insensitively as
// encoding/json does; fields that decode themselves (json.Unmarshaler,
// encoding.TextUnmarshaler) are decoded whole, structs, pointers to them
// and slices are looked into. It costs about one more decoding of raw; call
// it only on an error.
func Locate(raw []byte, t reflect.Type, prefix string) (path string, value []byte, ok bool) {
	return locate(raw, t, prefix, 0)
}

func locate(raw []byte, t reflect.Type, prefix string, depth int) (string, []byte, bool) {
	if depth > maxDepth {
		return "", nil, false
	}
	switch {
	case t.Kind() == reflect.Struct && !decodesItself(t):
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return "", nil, false
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
			if path, value, bad := locate(v, f.Type, Join(prefix, name), depth+1); bad {
				return path, value, true
			}
		}
		return "", nil, false
	case t.Kind() == reflect.Pointer && !decodesItself(t):
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			return "", nil, false
		}
		return locate(raw, t.Elem(), prefix, depth+1)
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8 && !decodesItself(t):
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return "", nil, false
		}
		for i, item := range items {
			if path, value, bad := locate(item, t.Elem(), prefix+"["+strconv.Itoa(i)+"]", depth+1); bad {
				return path, value, true
			}
		}
		return "", nil, false
	}
	if json.Unmarshal(raw, reflect.New(t).Interface()) != nil {
		return prefix, bytes.TrimSpace(raw), true
	}
	return "", nil, false
}

// decodesItself reports whether values of t decode themselves from JSON.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(reflect.TypeFor[json.Unmarshaler]()) || p.Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
}
