package urlbeam

import (
	"reflect"

	"github.com/rfc1738/locator/internal/octets"
)

// hasInvalidValue reports whether any string inside v is not valid
// UTF-8 (octets.HasInvalid): encoding/json would write U+FFFD for it.
func hasInvalidValue(v any) bool { return octets.HasInvalid(reflect.ValueOf(v)) }

// escapedValue returns a deep copy of v with every string written by
// EscapeOctets (octets.EscapedCopy), keeping v's types.
func escapedValue(v any) any { return octets.EscapedCopy(reflect.ValueOf(v)).Interface() }

// A Field is one key of an Object and its value (anything encoding/json
// writes).
type Field struct {
	Key   string
	Value any
}

// An Object is a JSON object whose keys keep their order. After a key
// whose value holds a string that is not valid UTF-8 it writes
// key_escaped, the value with every string in it written by
// EscapeOctets (README, "Octets that are not UTF-8 in --json").
type Object []Field

// MarshalJSON writes the object (HTML characters not escaped).
func (o Object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	first := true
	add := func(k string, v any) error {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONString(b, k)
		b = append(b, ':')
		m, err := octets.Marshal(v)
		if err != nil {
			return err
		}
		b = append(b, m...)
		return nil
	}
	for _, f := range o {
		if err := add(f.Key, f.Value); err != nil {
			return nil, err
		}
		if hasInvalidValue(f.Value) {
			if err := add(f.Key+escapedSuffix, escapedValue(f.Value)); err != nil {
				return nil, err
			}
		}
	}
	return append(b, '}'), nil
}

// AppendObject appends the Object of fields to b, as one line without
// its newline. A value encoding/json cannot write is written null.
func AppendObject(b []byte, fields ...Field) []byte {
	m, err := Object(fields).MarshalJSON()
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, m...)
}
