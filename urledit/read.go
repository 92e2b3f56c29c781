package urledit

import (
	"strings"

	"github.com/rfc1738/locator"
)

// read reads input as the URL to edit, and reports whether its scheme
// was guessed.
func (e *Editor) read(input string) (*locator.URL, bool, error) {
	if input == "" {
		// Guessing would make "http:///" of it: no URL was given.
		return nil, false, &Error{Kind: KindRead, Input: input, Offset: 0, Rule: "RFC 1738 §2.1", Message: "an empty input is not a URL"}
	}
	text := input
	for i := 0; i < len(input); i++ {
		c := input[i]
		switch {
		case c < 0x20 || c == 0x7f:
			return nil, false, &Error{Kind: KindRead, Input: input, Offset: i, Rule: "RFC 1738 §2.2",
				Message: "a control character is not part of a URL; it is written encoded, as %" + string(hexUpper[c>>4]) + string(hexUpper[c&15])}
		case c == ' ' && !e.AcceptSpace:
			return nil, false, &Error{Kind: KindRead, Input: input, Offset: i, Rule: "RFC 1738 Appendix",
				Message: "white space in a URL is a line break's, to be dropped, or data to be encoded as %20: say which (--accept-space encodes it)"}
		}
	}
	if e.AcceptSpace {
		text = strings.ReplaceAll(text, " ", "%20")
	}
	guessed := false
	prefix := 0
	if e.Guess && !hasScheme(text) {
		s := guessScheme(text) + "://"
		text, guessed, prefix = s+text, true, len(s)
	}
	u, err := locator.Parse(text)
	if err != nil {
		pe, ok := err.(*locator.ParseError)
		if !ok {
			return nil, false, &Error{Kind: KindRead, Input: input, Offset: -1, Message: err.Error()}
		}
		q := pe.Problem
		return nil, false, &Error{Kind: KindRead, Input: input, Offset: inputOffset(input, e.AcceptSpace, q.Offset, prefix), Rule: q.Rule, Message: q.Message}
	}
	if e.KnownSchemes && !knownScheme(u.Scheme()) {
		return nil, false, &Error{Kind: KindRead, Input: input, Offset: inputOffset(input, e.AcceptSpace, u.Offset(locator.SchemeComponent), prefix), Rule: "scheme",
			Message: "the library has no rules for the scheme " + quote(u.Scheme()) + " (RFC 1738 §3, §4)"}
	}
	return u, guessed, nil
}

// inputOffset maps an offset in the text read, input with prefix octets
// before it and, with spaces, each space written as "%20", back to input.
func inputOffset(input string, spaces bool, off, prefix int) int {
	off -= prefix
	j := 0
	for i := 0; i < len(input); i++ {
		w := 1
		if spaces && input[i] == ' ' {
			w = 3
		}
		if off < j+w {
			return i
		}
		j += w
	}
	return len(input)
}

// knownScheme reports whether the library knows scheme's syntax or has
// rules for it.
func knownScheme(scheme string) bool {
	if _, ok := locator.SchemeSyntax(scheme); ok {
		return true
	}
	return locator.Lookup(scheme) != nil
}

// hasScheme reports whether s begins with a scheme that makes it an
// absolute URL when guessing is on. As curl does, a name followed by ":"
// and "/" is a scheme; so is a name the library knows ("news:", "mailto:",
// whose URLs have no "//"). Otherwise a name and ":" are a host and its
// port ("example.com:88"), or a user and a password before "@", and s
// is a reference without a scheme; what follows ":" in "urn:isbn:1"
// makes no port or login, so it is a URL of its own scheme (RFC 1738
// §2.1).
func hasScheme(s string) bool {
	i := 0
	for i < len(s) && (isAlpha(s[i]) || i > 0 && (isDigit(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.')) {
		i++
	}
	if i == 0 || i == len(s) || s[i] != ':' {
		return false
	}
	rest := s[i+1:]
	if rest != "" && rest[0] == '/' {
		return true
	}
	if knownScheme(strings.ToLower(s[:i])) {
		return true
	}
	// A port: digits, then the end or what ends an authority.
	j := 0
	for j < len(rest) && isDigit(rest[j]) {
		j++
	}
	if j == len(rest) || strings.IndexByte("/?#", rest[j]) >= 0 {
		return false
	}
	// A login: an "@" before anything that ends an authority.
	if k := strings.IndexAny(rest, "@/?#"); k >= 0 && rest[k] == '@' {
		return false
	}
	return true
}

// guessScheme is curl's guess for a reference without a scheme: from the
// first label of its host, else http.
func guessScheme(s string) string {
	if k := strings.IndexAny(s, "/?#"); k >= 0 {
		s = s[:k]
	}
	if k := strings.LastIndexByte(s, '@'); k >= 0 {
		s = s[k+1:]
	}
	for _, p := range [...]string{"ftp", "dict", "ldap", "imap", "smtp", "pop3"} {
		if len(s) > len(p) && s[len(p)] == '.' && strings.EqualFold(s[:len(p)], p) {
			return p
		}
	}
	return "http"
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

const hexUpper = "0123456789ABCDEF"
