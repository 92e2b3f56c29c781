// Package octets writes values as JSON without losing octets that are
// not valid UTF-8 (README, "Octets that are not UTF-8 in --json"): the
// command's records and the bulk pipeline's share it, so that both write
// the same bytes for the same URL.
package octets

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"
)

// Escape writes s so that every octet survives JSON: "%" becomes
// "%25" and every octet that is not part of valid UTF-8 becomes "%XX"
// (upper-case hex); valid UTF-8 is kept. Decoding "%XX" gives s back.
func Escape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '%':
			b.WriteString("%25")
		case r == utf8.RuneError && n == 1:
			b.WriteByte('%')
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&15])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// HasInvalid reports whether any string inside v (a struct field, an
// element, a map key or value, through pointers and interfaces) is not
// valid UTF-8: encoding/json would write U+FFFD for its octets.
func HasInvalid(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return !utf8.ValidString(v.String())
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && HasInvalid(v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && HasInvalid(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if HasInvalid(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if HasInvalid(it.Key()) || HasInvalid(it.Value()) {
				return true
			}
		}
	}
	return false
}

// EscapedCopy returns a deep copy of v in which every string (exported
// struct fields, elements, map keys and values) went through
// Escape. The copy has v's types, so a type's own MarshalJSON
// still gives its shape.
func EscapedCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		c := reflect.New(v.Type()).Elem()
		c.SetString(Escape(v.String()))
		return c
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(EscapedCopy(v.Elem()))
		return c
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(EscapedCopy(v.Elem()))
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				c.Field(i).Set(EscapedCopy(v.Field(i)))
			}
		}
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(EscapedCopy(v.Index(i)))
		}
		return c
	case reflect.Array:
		c := reflect.New(v.Type()).Elem()
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(EscapedCopy(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			c.SetMapIndex(EscapedCopy(it.Key()), EscapedCopy(it.Value()))
		}
		return c
	}
	return v
}

// Marshal is json.Marshal without HTML escaping and without the newline.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// JSONControls returns the JSON text b with DEL (0x7f) and every C1
// control (U+0080–U+009F, in UTF-8 0xc2 0x80–0x9f) written as \u00XX:
// the controls of package printable's rule that encoding/json leaves as
// they are (it escapes C0 itself), so that a line shown on a terminal
// does not drive it. Outside strings JSON text is ASCII without DEL, so
// only strings change, and they decode the same. b itself is returned
// when it holds neither, the common case; else a new slice, longer.
func JSONControls(b []byte) []byte {
	if bytes.IndexByte(b, 0x7f) < 0 && bytes.IndexByte(b, 0xc2) < 0 {
		return b
	}
	const hex = "0123456789abcdef"
	out := make([]byte, 0, len(b)+12)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == 0x7f:
			out = append(out, `\u007f`...)
		case c == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			i++
			out = append(out, '\\', 'u', '0', '0', hex[b[i]>>4&15], hex[b[i]&15])
		default:
			out = append(out, c)
		}
	}
	return out
}
