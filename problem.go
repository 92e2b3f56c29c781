package locator

import "strconv"

// Severity says how far a URL departs from RFC 1738.
type Severity uint8

const (
	// Warning marks a security concern of RFC 1738 §6: a port other than
	// the scheme's default, an encoded protocol delimiter, a password.
	Warning Severity = iota + 1
	// Violation marks a departure from the RFC 1738 grammar or a rule of
	// the text that a lenient reader can still get past.
	Violation
	// Error marks input that cannot be read as a URL at all.
	Error
)

func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Violation:
		return "violation"
	case Error:
		return "error"
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText writes the severity's name, as used in JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// A Problem is one departure from RFC 1738 found in a URL.
type Problem struct {
	// Offset is the byte offset in the input as given (before any
	// "URL:" prefix or wrapper was removed).
	Offset int `json:"offset"`
	// Severity is Error, Violation or Warning.
	Severity Severity `json:"severity"`
	// Rule names the grammar rule of RFC 1738 §5 (e.g. "hsegment",
	// "ftptype") or the section of the text (e.g. "RFC 1738 §6") broken.
	Rule string `json:"rule"`
	// Message says what is wrong, for a person.
	Message string `json:"message"`
}

func (p Problem) String() string {
	return "offset " + strconv.Itoa(p.Offset) + ": " + p.Severity.String() + ": " + p.Rule + ": " + p.Message
}

// ParseError is returned by Parse when the input cannot be read as an
// absolute URL. It carries the first problem of severity Error and all the
// problems found.
type ParseError struct {
	Input    string
	Problem  Problem
	Problems []Problem
}

func (e *ParseError) Error() string {
	return "locator: parse " + strconv.Quote(e.Input) + ": " + e.Problem.String()
}
