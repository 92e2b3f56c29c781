// Package octets writes values as JSON lines without losing octets that
// are not valid UTF-8 (docs/cli.md, "Octets that are not UTF-8 in --json"),
// and without characters that would drive a terminal. The command's
// records and the bulk pipeline's are written by it alone, so that both
// write the same bytes for the same URL.
//
// The rule: a value is written as encoding/json writes it (HTML
// characters not escaped); after every key whose value holds a string
// that is not valid UTF-8 comes the key + "_escaped", the same value with
// every string in it (object keys included) written by Escape. The plain
// key keeps encoding/json's reading (U+FFFD for each bad octet) for
// readers that want text. In the line, every character package
// printable's rule refuses is a \u escape (JSONControls).
package octets

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/rfc1738/locator/internal/printable"
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
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return false // bytes (json.RawMessage, base64): no string
		}
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

// JSONControls returns the JSON text b (as Marshal writes it, without
// the final newline) with every character that package printable's rule
// refuses written as a \u00XX escape. encoding/json escapes the C0
// controls in strings itself, writes none outside them, and writes no
// octet that is not UTF-8, so what changes is DEL (0x7f) and the C1
// controls (U+0080–U+009F, in UTF-8 0xc2 0x80–0x9f), which it leaves as
// they are: a line shown on a terminal does not drive it, and its
// strings decode the same. b itself is returned when it holds none, the
// common case; else a new slice, longer.
func JSONControls(b []byte) []byte {
	i := nextControl(b, 0)
	if i == len(b) {
		return b
	}
	const hex = "0123456789abcdef"
	out := make([]byte, 0, len(b)+12)
	from := 0
	for i < len(b) {
		out = append(out, b[from:i]...)
		r, n := utf8.DecodeRune(b[i:])
		out = append(out, '\\', 'u', '0', '0', hex[r>>4&15], hex[r&15])
		from = i + n
		i = nextControl(b, from)
	}
	return append(out, b[from:]...)
}

// nextControl is the offset of the first character at or after b[i]
// that printable.Control refuses and that a \u escape can write (an
// octet that is not UTF-8 cannot be; Marshal writes none), or len(b).
func nextControl(b []byte, i int) int {
	for i < len(b) {
		if c := b[i]; c < utf8.RuneSelf {
			if printable.Control(rune(c), 1) {
				return i
			}
			i++ // ASCII, nearly all of JSON, decoded inline
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if printable.Control(r, n) && !(r == utf8.RuneError && n == 1) {
			return i
		}
		i += n
	}
	return len(b)
}
