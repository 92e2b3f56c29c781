package octets

import (
	"bytes"
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"strings"
)

// EscapedSuffix ends the sibling key that carries a value's octets
// exactly.
const EscapedSuffix = "_escaped"

// A Field is one key of an Object and its value (anything encoding/json
// writes).
type Field struct {
	Key   string
	Value any
}

// An Object is a JSON object whose keys keep their order. After a key
// whose value holds a string that is not valid UTF-8 it writes the key +
// EscapedSuffix, the value with every string in it written by Escape
// (the package's rule).
type Object []Field

// MarshalJSON writes the object (HTML characters not escaped).
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	add := func(k string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		m, err := Marshal(k)
		if err != nil {
			return err
		}
		b.Write(m)
		b.WriteByte(':')
		if m, err = Marshal(v); err != nil {
			return err
		}
		b.Write(m)
		return nil
	}
	for _, f := range o {
		if err := add(f.Key, f.Value); err != nil {
			return nil, err
		}
		if v := reflect.ValueOf(f.Value); HasInvalid(v) {
			if err := add(f.Key+EscapedSuffix, EscapedCopy(v).Interface()); err != nil {
				return nil, err
			}
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Exact returns the Object of rec, a struct or a pointer to one with
// json tags (`json:"name"`, `json:"name,omitempty"`, `json:"-"`; no
// embedded struct): the
// keys and values encoding/json would write for it, in its order. The
// Object adds the EscapedSuffix siblings when it is written.
func Exact(rec any) Object {
	v := reflect.Indirect(reflect.ValueOf(rec))
	t := v.Type()
	var o Object
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		fv := v.Field(i)
		if opts == "omitempty" && isEmpty(fv) {
			continue
		}
		o = append(o, Field{name, fv.Interface()})
	}
	return o
}

// isEmpty is encoding/json's test for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// Line returns v as one line of NDJSON, without the newline, by the
// package's rule: a struct (or a pointer to one) as its Object (Exact),
// any other value, and one that marshals itself (an Object), as
// encoding/json writes it; then JSONControls. A struct whose strings are
// all valid UTF-8, the common case, is written by encoding/json
// directly: its Object would give the same bytes.
func Line(v any) ([]byte, error) {
	if isRecord(v) && HasInvalid(reflect.ValueOf(v)) {
		v = Exact(v)
	}
	b, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	return JSONControls(b), nil
}

// isRecord reports whether v is a struct, or a pointer to one, that
// encoding/json writes field by field.
func isRecord(v any) bool {
	switch v.(type) {
	case json.Marshaler, encoding.TextMarshaler:
		return false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return false
		}
		rv = rv.Elem()
	}
	return rv.Kind() == reflect.Struct
}

// WriteLine writes v's Line and a newline to w in one Write.
func WriteLine(w io.Writer, v any) error {
	b, err := Line(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
