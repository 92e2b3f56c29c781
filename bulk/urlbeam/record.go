// Package urlbeam holds Apache Beam transforms over URLs, built on the
// locator library: parse and judge (a record per URL, the contract of
// `locator parse --json`), normalize, resolve partial forms against a
// base per element, extract URLs from documents (package text), and
// group equivalent URLs (locator.Normalize) with counts.
//
// The transforms are plain functions over PCollections and run on any
// Beam runner: prism in-process, or a portable runner (Flink, Spark,
// Dataflow) through --runner=universal.
package urlbeam

import (
	"encoding/json"
	"github.com/rfc1738/locator/internal/octets"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	_ "github.com/rfc1738/locator/schemes" // every scheme's rules, as the command links them
)

// A Record is one URL judged: the fields of `locator parse --json`
// (DESIGN.md, "The command line"), with the scheme's parts already
// encoded as JSON. A nil pointer is an absent part, as in the contract.
// AppendJSON writes the record byte for byte as the command does,
// including the `_escaped` siblings of values that are not valid UTF-8
// (README, "Octets that are not UTF-8 in --json").
type Record struct {
	Input         string
	OK            bool
	Conforms      bool
	Scheme        string
	User          *string
	Password      *string
	Host          *string
	Port          *string
	EffectivePort *int
	Path          *string
	Search        *string
	Fragment      *string
	// Parts is encoding/json's encoding of the scheme's parts (HTML
	// characters not escaped); nil when the scheme has no rules or the
	// input is not a URL. PartsEscaped is the same value with every
	// string written by EscapeOctets, set only when Parts holds a string
	// that is not valid UTF-8.
	Parts        json.RawMessage
	PartsEscaped json.RawMessage
	Problems     []locator.Problem
}

// Judge parses in (locator.Parse, every scheme's rules linked in) and
// returns its record. A text that is not a URL gives a record with OK
// false and the parse error's problems; Judge never fails.
func Judge(in string) Record {
	u, err := locator.Parse(in)
	return NewRecord(in, u, err)
}

// NewRecord is the record of in, given what locator.Parse returned for
// it: for a caller that needs the parsed URL too.
func NewRecord(in string, u *locator.URL, err error) Record {
	r := Record{Input: in}
	if err != nil {
		if pe, ok := err.(*locator.ParseError); ok {
			r.Problems = append(r.Problems, pe.Problems...)
		}
		return r
	}
	r.OK = true
	r.Conforms = u.Conforms()
	r.Scheme = u.Scheme()
	opt := func(s string, has bool) *string {
		if !has {
			return nil
		}
		return &s
	}
	r.User = opt(locator.Decode(u.User()), u.HasUser())
	r.Password = opt(locator.Decode(u.Password()), u.HasPassword())
	r.Host = opt(u.Host(), u.HasAuthority())
	r.Port = opt(u.Port(), u.HasPort())
	if p := u.EffectivePort(); p != 0 {
		r.EffectivePort = &p
	}
	r.Path = opt(u.Path(), u.HasPath())
	r.Search = opt(u.Search(), u.HasSearch())
	r.Fragment = opt(u.Fragment(), u.HasFragment())
	if rules := locator.Lookup(u.Scheme()); rules != nil {
		if parts := rules.Parts(u); parts != nil {
			if b, err := octets.Marshal(parts); err == nil {
				r.Parts = b
				if hasInvalidValue(parts) {
					if e, err := octets.Marshal(escapedValue(parts)); err == nil {
						r.PartsEscaped = e
					}
				}
			}
		}
	}
	if len(u.Problems()) > 0 {
		r.Problems = u.Problems()
	}
	return r
}

// Rules lists the rules of the record's problems, in order, one per
// problem (a rule may repeat).
func (r Record) Rules() []string {
	out := make([]string, len(r.Problems))
	for i, p := range r.Problems {
		out[i] = p.Rule
	}
	return out
}

// MarshalJSON is AppendJSON without the final newline.
func (r Record) MarshalJSON() ([]byte, error) {
	b := r.AppendJSON(nil)
	return b[:len(b)-1], nil
}

// AppendJSON appends the record's NDJSON line, newline included, to b:
// the bytes `locator parse --json` writes for the same input. Keys come
// in the contract's order; an absent part has no key; after a key whose
// value holds a string that is not valid UTF-8 comes key_escaped with
// the value's strings written by EscapeOctets. DEL and the C1 controls
// are written as \u escapes (octets.JSONControls).
func (r Record) AppendJSON(b []byte) []byte {
	start := len(b)
	b = append(b, '{')
	b = appendKey(b, "input", false)
	b = appendString(b, r.Input, "input")
	b = appendKey(b, "ok", true)
	b = appendBool(b, r.OK)
	b = appendKey(b, "conforms", true)
	b = appendBool(b, r.Conforms)
	if r.Scheme != "" {
		b = appendKey(b, "scheme", true)
		b = appendString(b, r.Scheme, "scheme")
	}
	for _, f := range []struct {
		key string
		val *string
	}{{"user", r.User}, {"password", r.Password}, {"host", r.Host}, {"port", r.Port}} {
		if f.val != nil {
			b = appendKey(b, f.key, true)
			b = appendString(b, *f.val, f.key)
		}
	}
	if r.EffectivePort != nil {
		b = appendKey(b, "effective_port", true)
		b = appendInt(b, *r.EffectivePort)
	}
	for _, f := range []struct {
		key string
		val *string
	}{{"path", r.Path}, {"search", r.Search}, {"fragment", r.Fragment}} {
		if f.val != nil {
			b = appendKey(b, f.key, true)
			b = appendString(b, *f.val, f.key)
		}
	}
	if len(r.Parts) > 0 {
		b = appendKey(b, "parts", true)
		b = append(b, r.Parts...)
		if len(r.PartsEscaped) > 0 {
			b = appendKey(b, "parts_escaped", true)
			b = append(b, r.PartsEscaped...)
		}
	}
	b = appendKey(b, "problems", true)
	b = appendProblems(b, r.Problems, false)
	for _, p := range r.Problems {
		if !utf8.ValidString(p.Rule) || !utf8.ValidString(p.Message) {
			b = appendKey(b, "problems_escaped", true)
			b = appendProblems(b, r.Problems, true)
			break
		}
	}
	b = append(b, '}', '\n')
	// DEL and C1 controls as \u escapes, as the command writes them.
	if esc := octets.JSONControls(b[start:]); len(esc) != len(b)-start {
		b = append(b[:start], esc...)
	}
	return b
}

func appendKey(b []byte, k string, comma bool) []byte {
	if comma {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, k...)
	return append(b, '"', ':')
}

// appendString writes s as encoding/json does (HTML characters kept);
// when s is not valid UTF-8 it adds the sibling key_escaped.
func appendString(b []byte, s, key string) []byte {
	b = appendJSONString(b, s)
	if !utf8.ValidString(s) {
		b = appendKey(b, key+escapedSuffix, true)
		b = appendJSONString(b, EscapeOctets(s))
	}
	return b
}

func appendJSONString(b []byte, s string) []byte {
	m, _ := octets.Marshal(s) // a string always marshals
	return append(b, m...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func appendInt(b []byte, v int) []byte {
	m, _ := octets.Marshal(v)
	return append(b, m...)
}

func appendProblems(b []byte, ps []locator.Problem, escaped bool) []byte {
	b = append(b, '[')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		if escaped {
			p.Rule, p.Message = EscapeOctets(p.Rule), EscapeOctets(p.Message)
		}
		m, _ := octets.Marshal(p) // Problem has only ints and strings
		b = append(b, m...)
	}
	return append(b, ']')
}

// escapedSuffix names the sibling key that carries a value's octets
// exactly (README, "Octets that are not UTF-8 in --json").
const escapedSuffix = "_escaped"

// EscapeOctets writes s so that every octet survives JSON: "%" becomes
// "%25" and every octet that is not part of valid UTF-8 becomes "%XX"
// (upper-case hex); valid UTF-8 is kept. Decoding "%XX" gives s back.
// It is the rule of the command's `_escaped` keys.
func EscapeOctets(s string) string { return octets.Escape(s) }
