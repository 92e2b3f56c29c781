// Package urlrecord holds the record of one judged URL: the object
// `locator parse --json` writes for an input (docs/cli.md, "locator parse"),
// and the bulk pipeline writes for each of its inputs. Both make it with
// New and write it with AppendJSON, so they write the same bytes.
package urlrecord

import (
	"encoding/json"
	"reflect"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/octets"
)

// A Record is one input judged. A nil pointer is a part the URL does
// not have; a pointer to "" one it has, empty (RFC 1738 §3.1: "ftp://@h/"
// has an empty user). User and Password are decoded (locator.Decode),
// the other parts as written. The tags name the keys, in the order
// written.
type Record struct {
	Input         string  `json:"input"`
	OK            bool    `json:"ok"`
	Conforms      bool    `json:"conforms"`
	Scheme        string  `json:"scheme,omitempty"`
	User          *string `json:"user,omitempty"`
	Password      *string `json:"password,omitempty"`
	Host          *string `json:"host,omitempty"`
	Port          *string `json:"port,omitempty"`
	EffectivePort *int    `json:"effective_port,omitempty"`
	Path          *string `json:"path,omitempty"`
	Search        *string `json:"search,omitempty"`
	Fragment      *string `json:"fragment,omitempty"`
	// Parts is the JSON of the scheme's parts (locator.Rules.Parts),
	// nil when the scheme has no rules or the input is not a URL. It is
	// JSON already, not a value, so that a Record is plain data (a Beam
	// coder carries it). PartsEscaped is the same value with every
	// string written by octets.Escape, set only when the parts hold a
	// string that is not valid UTF-8: it is the parts' octets.EscapedSuffix
	// sibling, which octets cannot add to JSON that is written already.
	Parts        json.RawMessage   `json:"parts,omitempty"`
	PartsEscaped json.RawMessage   `json:"parts_escaped,omitempty"`
	Problems     []locator.Problem `json:"problems"`
}

// New is the record of in, given what locator.Parse returned for it. A
// text that is not a URL gives a record with OK false and the parse
// error's problems. The parts are those of the scheme rules linked into
// the program (package schemes links them all).
func New(in string, u *locator.URL, err error) Record {
	r := Record{Input: in, Problems: []locator.Problem{}}
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
				if v := reflect.ValueOf(parts); octets.HasInvalid(v) {
					r.PartsEscaped, _ = octets.Marshal(octets.EscapedCopy(v).Interface())
				}
			}
		}
	}
	if len(u.Problems()) > 0 {
		r.Problems = u.Problems()
	}
	return r
}

// AppendJSON appends the record's NDJSON line, newline included, to b:
// the keys in the order of the Record's fields, a part the URL does not
// have left out, and after a key whose value holds a string that is not
// valid UTF-8 its octets.EscapedSuffix sibling (octets.Line). Parts and
// PartsEscaped must be JSON, as New makes them: AppendJSON panics when
// they are not.
func (r Record) AppendJSON(b []byte) []byte {
	if r.Problems == nil {
		r.Problems = []locator.Problem{} // "problems":[], as New makes it
	}
	line, err := octets.Line(fields(r))
	if err != nil {
		panic("urlrecord: " + err.Error())
	}
	return append(append(b, line...), '\n')
}

// MarshalJSON is AppendJSON without the newline.
func (r Record) MarshalJSON() ([]byte, error) {
	b := r.AppendJSON(nil)
	return b[:len(b)-1], nil
}

// fields is a Record without its methods, for octets.Line to write
// field by field.
type fields Record
