package main

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"

	"github.com/rfc1738/locator/internal/octets"
)

// escapedSuffix names the sibling key that carries a value's octets
// exactly (README, "Octets that are not UTF-8").
const escapedSuffix = "_escaped"

// A field is one key of a JSON object.
type field struct {
	key string
	val any
}

// An object is a JSON object whose keys keep their order.
type object []field

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := octets.Marshal(f.key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := octets.Marshal(f.val)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// exact turns rec, a struct with json tags (`json:"name"`,
// `json:"name,omitempty"`), into the object encoding/json would write,
// with one addition that makes it lossless: after every key whose value
// holds a string that is not valid UTF-8 comes the key + "_escaped",
// holding the same value with every string in it (object keys included)
// written by octets.Escape. The plain key keeps encoding/json's reading
// (U+FFFD for each bad octet) for readers that want text.
func exact(rec any) object {
	v := reflect.Indirect(reflect.ValueOf(rec))
	t := v.Type()
	var o object
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
		o = append(o, field{name, fv.Interface()})
		if octets.HasInvalid(fv) {
			o = append(o, field{name + escapedSuffix, octets.EscapedCopy(fv).Interface()})
		}
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

// writeJSON writes rec (see exact) as one line of NDJSON. A record
// whose strings are all valid UTF-8, the common case, is written by
// encoding/json directly: exact would give the same object. DEL and the
// C1 controls, which encoding/json writes as they are, are written as
// \u escapes (octets.JSONControls), so that a line shown on a terminal does not
// drive it, and decodes to the same strings.
func writeJSON(w io.Writer, rec any) error {
	var b []byte
	if !octets.HasInvalid(reflect.ValueOf(rec)) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rec); err != nil {
			return err
		}
		b = buf.Bytes()
	} else {
		var err error
		if b, err = octets.Marshal(exact(rec)); err != nil {
			return err
		}
		b = append(b, '\n')
	}
	_, err := w.Write(octets.JSONControls(b))
	return err
}
