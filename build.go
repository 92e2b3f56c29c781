package locator

import "strconv"

// A BuildError says why components cannot be written as a conforming URL
// of a scheme.
type BuildError struct {
	Scheme  string // the scheme whose builder failed, e.g. "ftp"
	URL     string // what was built
	Problem Problem
}

func (e *BuildError) Error() string {
	return e.Scheme + ": cannot build a URL: " + strconv.Quote(e.URL) + ": " + e.Problem.String()
}

// A SchemeError says why a URL does not have the structure its scheme
// gives it (RFC 1738 §3), or why a field of a scheme's URL cannot be
// written: the field, the offset in that field's text, the rule (a
// grammar rule of §5 or the section of the text) and what is wrong. Every
// scheme package reports its syntax errors with it.
type SchemeError struct {
	Scheme  string // "gopher", "news", ...
	Field   string // "url", "selector", "group", ...
	Offset  int    // octet offset in that field
	Rule    string
	Message string
}

func (e *SchemeError) Error() string {
	return e.Scheme + ": " + e.Field + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + ": " + e.Message
}
