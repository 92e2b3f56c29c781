package urledit

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/printable"
)

// A Result is a URL an Editor wrote, in its normal form: a URL, and
// one that conforms to RFC 1738 unless Violations says where not.
type Result struct {
	url        *locator.URL
	form       pairForm
	violations []*Error
}

// URL returns the URL written.
func (r *Result) URL() *locator.URL { return r.url }

// Violations returns where the URL written does not conform to RFC 1738
// (each a problem of severity locator.Violation, which a lenient reader
// gets past: a login in an http URL, §3.3; an IPv6 literal, §3.1), as
// errors of KindWrite whose offsets are in URL().String(); nil when it
// conforms. The URL is written all the same, as trurl writes it: a
// caller that wants only conforming URLs refuses a Result that has any.
func (r *Result) Violations() []*Error { return r.violations }

// A View says how a Result's components are shown.
type View struct {
	// Encoded shows components as written, still encoded; otherwise they
	// are decoded, but for octets that cannot be shown as text (controls,
	// octets that are not UTF-8), which stay escapes.
	Encoded bool
	// Unicode shows an internationalized host name with its U-labels
	// (RFC 5890), as a person reads it; the URL itself holds A-labels, and
	// a URL shown so is not one of RFC 1738 (§3.1: a host is ASCII).
	Unicode bool
	// DefaultPort shows the scheme's default port where none is written.
	DefaultPort bool
}

// A Note is something a Result could not show as asked; the value was
// shown another way.
type Note struct {
	Component string
	Message   string
}

func (n Note) String() string { return n.Message + " (" + n.Component + ")" }

// String returns the URL in view v: its text, with the default port and
// U-labels if v asks for them.
func (r *Result) String(v View) (string, []Note) {
	if !v.DefaultPort && !v.Unicode {
		return r.url.String(), nil
	}
	p := r.url.Parts()
	var notes []Note
	if v.DefaultPort && p.HasAuthority && !p.HasPort {
		if d := defaultPort(p.Scheme); d != 0 {
			p.HasPort, p.Port = true, strconv.Itoa(d)
		}
	}
	if v.Unicode {
		h, note := unicodeHost(p.Host)
		p.Host = h
		if note != nil {
			note.Component = "url"
			notes = append(notes, *note)
		}
	}
	return p.String(), notes
}

// unicodeHost writes host's A-labels as U-labels; a host that does not
// convert is kept, with a note.
func unicodeHost(host string) (string, *Note) {
	if !strings.Contains(strings.ToLower(host), "xn--") {
		return host, nil
	}
	u, err := idna.Lookup.ToUnicode(host)
	if err != nil {
		return host, &Note{Message: "Error converting url to IDN [Bad hostname]: " + err.Error()}
	}
	return u, nil
}

// raw returns component name as written in the URL, and whether the URL
// has it. The path of a URL with a host begins with "/"; an IPv6 host is
// in brackets, its zone apart.
func (r *Result) raw(name string, defPort bool) (string, bool) {
	u := r.url
	p := u.Parts()
	switch name {
	case "scheme":
		return p.Scheme, true
	case "user":
		user, _, _ := login(&p)
		return user, p.HasUser
	case "password":
		_, pass, _ := login(&p)
		return pass, p.HasPassword
	case "options":
		_, _, o := login(&p)
		return o, o != ""
	case "host":
		if !p.HasAuthority || p.Host == "" {
			return "", false
		}
		if strings.Contains(p.Host, ":") {
			addr, _, _ := strings.Cut(p.Host, "%25")
			return "[" + addr + "]", true
		}
		return p.Host, true
	case "zoneid":
		_, z, ok := strings.Cut(p.Host, "%25")
		return z, ok && strings.Contains(p.Host, ":")
	case "port":
		if p.HasPort {
			return p.Port, true
		}
		if d := defaultPort(p.Scheme); defPort && d != 0 {
			return strconv.Itoa(d), true
		}
		return "", false
	case "path":
		if p.HasAuthority {
			return "/" + p.Path, true
		}
		return p.Path, p.Path != ""
	case "query":
		return p.Search, p.HasSearch
	case "fragment":
		return p.Fragment, p.HasFragment
	}
	return "", false
}

// Get returns the generic component name shown in view v (decoded or
// not, see View), and whether the URL has it. A note says what could not
// be shown decoded. Get returns false for a name that is not a generic
// component.
func (r *Result) Get(name string, v View) (string, bool, *Note) {
	s, ok := r.raw(name, v.DefaultPort)
	if !ok {
		return "", false, nil
	}
	if name == "host" && v.Unicode {
		h, note := unicodeHost(s)
		if note != nil {
			note.Component = name
		}
		return h, true, note
	}
	if v.Encoded || name == "scheme" || name == "port" || name == "host" {
		return s, true, nil
	}
	d, kept := shown(s, name == "query" && r.form.plusSpace)
	if kept {
		return d, true, &Note{Component: name, Message: "octets that are not text kept encoded"}
	}
	return d, true, nil
}

// shown decodes s for a person: every escape, "+" as a space where it is
// one, but for octets that cannot be shown as text (C0 and C1 controls,
// DEL, octets that are not UTF-8), which stay as written; kept reports
// whether any did.
func shown(s string, plusSpace bool) (string, bool) {
	if strings.IndexByte(s, '%') < 0 && !(plusSpace && strings.IndexByte(s, '+') >= 0) {
		return s, false
	}
	// The decoded octets, and for each the text it was written as.
	dec := make([]byte, 0, len(s))
	src := make([]string, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && locator.IsHex(s[i+1]) && locator.IsHex(s[i+2]):
			d, _ := locator.Unescape(s[i : i+3])
			dec, src = append(dec, d[0]), append(src, s[i:i+3])
			i += 2
		case c == '+' && plusSpace:
			dec, src = append(dec, ' '), append(src, "+")
		default:
			dec, src = append(dec, c), append(src, s[i:i+1])
		}
	}
	var b strings.Builder
	kept := false
	for i := 0; i < len(dec); {
		r, n := utf8.DecodeRune(dec[i:])
		if printable.Control(r, n) {
			for k := i; k < i+n; k++ {
				b.WriteString(src[k])
			}
			kept = true
		} else {
			b.Write(dec[i : i+n])
		}
		i += n
	}
	return b.String(), kept
}

// decoded decodes s wholly (for JSON, which escapes what is not text),
// "+" as a space where it is one.
func decoded(s string, plusSpace bool) string {
	if plusSpace {
		s = strings.ReplaceAll(s, "+", " ")
	}
	return locator.Decode(s)
}

// pairs returns the query's pairs as written, empty ones included; nil
// when the URL has no query or an empty one.
func (r *Result) pairs() []string {
	if !r.url.HasSearch() || r.url.Search() == "" {
		return nil
	}
	return strings.Split(r.url.Search(), string(r.form.sep))
}

// queryValues returns the values of the query's pairs whose key is key
// (decoded, compared as it is), as written or shown decoded.
func (r *Result) queryValues(key string, v View) (vals []string, kept bool) {
	for _, p := range r.pairs() {
		k, val, _ := strings.Cut(p, "=")
		if r.form.decode(k) != key {
			continue
		}
		if !v.Encoded {
			var kk bool
			val, kk = shown(val, r.form.plusSpace)
			kept = kept || kk
		}
		vals = append(vals, val)
	}
	return vals, kept
}
