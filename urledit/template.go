package urledit

import (
	"strings"
)

// Expand writes format with each {component} (or [component]: the first
// of "{" and "[" in format is the one used) replaced by r's component,
// as trurl's --get does. Before the name, modifiers ending in ":" say
// how: "url:" (or a bare ":") as written, not decoded; "default:" the
// scheme's default port where none is written; "puny:" the host in
// ASCII (A-labels), "idn:" in Unicode; "strict:" an error, not a note,
// when a value cannot be shown decoded; "must:" an error when the URL
// lacks the component. {query:key} is the first value of key in the
// query, {query-all:key} all of them separated by spaces. A scheme's
// own part is {parts.name} (see Parts). "\n", "\t", "\r", "\\", "\{" and
// "\[" are a newline, a tab, a carriage return, a backslash and the
// brackets themselves; "{{" is "{". A component the URL lacks is
// empty.
//
// The notes say what could not be shown as asked (and how it was
// shown); the error, of KindGet, is a template that cannot be expanded.
func (r *Result) Expand(format string, v View) (string, []Note, error) {
	var b strings.Builder
	var notes []Note
	var open, close byte
	for i := 0; i < len(format); {
		c := format[i]
		if open == 0 && (c == '{' || c == '[') {
			open, close = c, '}'
			if c == '[' {
				close = ']'
			}
		}
		switch {
		case open != 0 && c == open:
			if i+1 < len(format) && format[i+1] == open {
				b.WriteByte(open)
				i += 2
				continue
			}
			end := strings.IndexByte(format[i:], close)
			if end < 0 {
				b.WriteByte(open)
				i++
				continue
			}
			s, n, err := r.variable(format[i:i+end+1], format[i+1:i+end], v)
			if err != nil {
				return "", notes, err
			}
			b.WriteString(s)
			notes = append(notes, n...)
			i += end + 1
		case c == '\\' && i+1 < len(format):
			switch d := format[i+1]; d {
			case 'r':
				b.WriteByte('\r')
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\', '{', '[':
				b.WriteByte(d)
			default:
				b.WriteByte(c)
				b.WriteByte(d)
			}
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), notes, nil
}

// variable expands one {...}: whole is it with its brackets, body what
// is between them.
func (r *Result) variable(whole, body string, v View) (string, []Note, error) {
	bad := func(msg string) error { return &Error{Kind: KindGet, Input: whole, Offset: -1, Message: msg} }
	if strings.HasPrefix(body, ":") {
		v.Encoded, body = true, body[1:]
	}
	var strict, must, puny, idn, query, all bool
modifiers:
	for {
		k := strings.IndexByte(body, ':')
		if k < 0 {
			break
		}
		word := body[:k]
		body = body[k+1:]
		switch word {
		case "default":
			v.DefaultPort = true
		case "puny":
			if idn {
				return "", nil, bad("puny modifier is mutually exclusive with idn")
			}
			puny = true
		case "idn":
			if puny {
				return "", nil, bad("idn modifier is mutually exclusive with puny")
			}
			idn = true
		case "strict":
			strict = true
		case "must":
			must = true
		case "url":
			v.Encoded = true
		case "query", "query-all":
			query, all = true, word == "query-all"
			break modifiers // the rest is the key
		default:
			return "", nil, bad("Bad --get syntax: " + whole)
		}
	}
	if puny {
		v.Unicode = false
	}
	if idn {
		v.Unicode = true
	}
	if query {
		vals, kept := r.queryValues(body, v)
		if !all && len(vals) > 1 {
			vals = vals[:1]
		}
		var notes []Note
		if kept {
			if strict {
				return "", nil, bad("problems URL decoding query")
			}
			notes = append(notes, Note{Component: "query", Message: "octets that are not text kept encoded"})
		}
		return strings.Join(vals, " "), notes, nil
	}
	if body == "" {
		return "", nil, bad("Bad --get syntax: " + whole)
	}
	if body == "url" {
		s, notes := r.String(v)
		return s, notes, nil
	}
	var s string
	var ok bool
	var note *Note
	switch {
	case isGeneric(body):
		s, ok, note = r.Get(body, v)
	case partKnown(canonical(body)):
		var err error
		if s, ok, note, err = r.Part(canonical(body), v); err != nil {
			return "", nil, err
		}
	default:
		return "", nil, bad(quote(body) + " is not a recognized URL component")
	}
	switch {
	case !ok && must:
		return "", nil, bad("missing must:" + body)
	case !ok:
		return "", nil, nil
	case note != nil && strict:
		return "", nil, bad("problems URL decoding " + body)
	case note != nil:
		return s, []Note{*note}, nil
	}
	return s, nil, nil
}
