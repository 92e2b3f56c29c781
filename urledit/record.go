package urledit

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/octets"
)

// A Record is a Result as trurl's --json writes it: the URL, its
// components ("parts", decoded unless the View says Encoded) and, when
// it has a query, its pairs ("params", always decoded). SchemeParts,
// when set, is the scheme's own structure (locator.Rules.Parts, as
// "locator parse --json" shows it) under the key "scheme_parts".
type Record struct {
	URL         string
	Parts       []Field
	Params      []Param // nil: no query
	SchemeParts any
}

// A Field is one component of a Record's parts.
type Field struct{ Name, Value string }

// A Param is one pair of a query, decoded.
type Param struct{ Key, Value string }

// Record returns r as a JSON record in view v, with the scheme's own
// parts when withParts is set (and the scheme has rules).
func (r *Result) Record(v View, withParts bool) (*Record, []Note) {
	rec := &Record{}
	var notes []Note
	rec.URL, notes = r.String(v)
	for _, name := range generic {
		s, ok := r.raw(name, v.DefaultPort)
		if !ok {
			continue
		}
		switch {
		case name == "host" && v.Unicode:
			var n *Note
			if s, n = unicodeHost(s); n != nil {
				n.Component = name
				notes = append(notes, *n)
			}
		case !v.Encoded && name != "scheme" && name != "port" && name != "host":
			s = decoded(s, name == "query" && r.form.plusSpace)
		}
		rec.Parts = append(rec.Parts, Field{name, s})
	}
	if pairs := r.pairs(); pairs != nil {
		rec.Params = []Param{}
		for _, p := range pairs {
			if p == "" {
				continue
			}
			k, val, _ := strings.Cut(p, "=")
			rec.Params = append(rec.Params, Param{r.form.decode(k), r.form.decode(val)})
		}
	}
	if withParts {
		if rules := locator.Lookup(r.url.Scheme()); rules != nil {
			rec.SchemeParts = rules.Parts(r.url)
		}
	}
	return rec, notes
}

// MarshalJSON writes the record with its keys in trurl's order: url,
// parts (scheme, user, password, options, host, port, path, query,
// fragment, zoneid, those present), params, then scheme_parts. A value
// that is not valid UTF-8 is followed by its key + "_escaped", its
// octets written by octets.Escape, as the command's other records do;
// DEL and C1 controls are \u escapes.
func (rec *Record) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"url":`)
	if err := str(&b, "url", rec.URL); err != nil {
		return nil, err
	}
	b.WriteString(`,"parts":{`)
	for i, f := range rec.Parts {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := keyed(&b, f.Name, f.Value); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	if rec.Params != nil {
		b.WriteString(`,"params":[`)
		for i, p := range rec.Params {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('{')
			if err := keyed(&b, "key", p.Key); err != nil {
				return nil, err
			}
			b.WriteByte(',')
			if err := keyed(&b, "value", p.Value); err != nil {
				return nil, err
			}
			b.WriteByte('}')
		}
		b.WriteByte(']')
	}
	if rec.SchemeParts != nil {
		v, err := octets.Marshal(rec.SchemeParts)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"scheme_parts":`)
		b.Write(v)
	}
	b.WriteByte('}')
	return octets.JSONControls(b.Bytes()), nil
}

// keyed writes "key":value, and "key_escaped":escaped after it when the
// value is not valid UTF-8.
func keyed(b *bytes.Buffer, key, val string) error {
	k, err := octets.Marshal(key)
	if err != nil {
		return err
	}
	b.Write(k)
	b.WriteByte(':')
	return str(b, key, val)
}

// str writes val as a JSON string, with the sibling key for octets that
// are not UTF-8 (the caller wrote key).
func str(b *bytes.Buffer, key, val string) error {
	v, err := octets.Marshal(val)
	if err != nil {
		return err
	}
	b.Write(v)
	if !utf8.ValidString(val) {
		k, _ := octets.Marshal(key + octets.EscapedSuffix)
		e, _ := octets.Marshal(octets.Escape(val))
		b.WriteByte(',')
		b.Write(k)
		b.WriteByte(':')
		b.Write(e)
	}
	return nil
}
