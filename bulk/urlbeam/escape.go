package urlbeam

import (
	"reflect"
	"unicode/utf8"
)

// hasInvalidValue reports whether any string inside v (a struct field,
// an element, a map key or value, through pointers and interfaces) is
// not valid UTF-8: encoding/json would write U+FFFD for its octets.
func hasInvalidValue(v any) bool { return hasInvalid(reflect.ValueOf(v)) }

func hasInvalid(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return !utf8.ValidString(v.String())
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && hasInvalid(v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && hasInvalid(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if hasInvalid(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if hasInvalid(it.Key()) || hasInvalid(it.Value()) {
				return true
			}
		}
	}
	return false
}

// escapedValue returns a deep copy of v in which every string (exported
// struct fields, elements, map keys and values) went through
// EscapeOctets. The copy has v's types, so a type's own MarshalJSON
// still gives its shape.
func escapedValue(v any) any { return escapedCopy(reflect.ValueOf(v)).Interface() }

func escapedCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		c := reflect.New(v.Type()).Elem()
		c.SetString(EscapeOctets(v.String()))
		return c
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(escapedCopy(v.Elem()))
		return c
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(escapedCopy(v.Elem()))
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				c.Field(i).Set(escapedCopy(v.Field(i)))
			}
		}
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(escapedCopy(v.Index(i)))
		}
		return c
	case reflect.Array:
		c := reflect.New(v.Type()).Elem()
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(escapedCopy(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			c.SetMapIndex(escapedCopy(it.Key()), escapedCopy(it.Value()))
		}
		return c
	}
	return v
}

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
		m, err := marshal(v)
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
