package wayback

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
)

var errNotFlat = errors.New("not a flat object")

// parseFlat reads the JSON object of a CDXJ line whose values are
// strings, numbers, true, false or null (pywb's lines are), calling set
// with each key and value (a string's value unescaped, another's as
// written, null as ""). Any other object is errNotFlat, read then by
// encoding/json: what parseFlat reads, encoding/json reads alike
// (FuzzRowJSON).
func parseFlat(js []byte, set func(k, v string)) error {
	i := skipWS(js, 0)
	if i >= len(js) || js[i] != '{' {
		return errNotFlat
	}
	i = skipWS(js, i+1)
	if i < len(js) && js[i] == '}' {
		return trailing(js, i+1)
	}
	for {
		k, n, err := flatString(js, i)
		if err != nil {
			return err
		}
		i = skipWS(js, n)
		if i >= len(js) || js[i] != ':' {
			return errNotFlat
		}
		i = skipWS(js, i+1)
		var v string
		if i < len(js) && js[i] == '"' {
			if v, n, err = flatString(js, i); err != nil {
				return err
			}
		} else {
			n = i
			for n < len(js) && js[n] != ',' && js[n] != '}' && !isWS(js[n]) {
				n++
			}
			lit := js[i:n]
			switch {
			case string(lit) == "null":
			case string(lit) == "true" || string(lit) == "false" || isNumber(lit):
				v = string(lit)
			default:
				return errNotFlat
			}
		}
		set(k, v)
		i = skipWS(js, n)
		if i >= len(js) {
			return errNotFlat
		}
		if js[i] == '}' {
			return trailing(js, i+1)
		}
		if js[i] != ',' {
			return errNotFlat
		}
		i = skipWS(js, i+1)
	}
}

func trailing(js []byte, i int) error {
	if skipWS(js, i) != len(js) {
		return errNotFlat
	}
	return nil
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(js []byte, i int) int {
	for i < len(js) && isWS(js[i]) {
		i++
	}
	return i
}

// flatString reads the string at js[i] ('"'): its value and where it
// ends. One with an escape or that is not UTF-8 is read by
// encoding/json (its replacement of invalid octets).
func flatString(js []byte, i int) (string, int, error) {
	if i >= len(js) || js[i] != '"' {
		return "", 0, errNotFlat
	}
	plain := true
	for j := i + 1; j < len(js); j++ {
		switch c := js[j]; {
		case c == '"':
			if plain && utf8.Valid(js[i+1:j]) {
				return string(js[i+1 : j]), j + 1, nil
			}
			var s string
			if err := json.Unmarshal(js[i:j+1], &s); err != nil {
				return "", 0, errNotFlat
			}
			return s, j + 1, nil
		case c == '\\':
			plain = false
			j++
		case c < ' ':
			return "", 0, errNotFlat
		}
	}
	return "", 0, errNotFlat
}

// isNumber says whether b is a JSON number (RFC 8259 §6).
func isNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	return i == len(b)
}
