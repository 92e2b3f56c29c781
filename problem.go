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

// A Report receives the problems a scheme's rules find in one URL: Parse
// gives one to the scheme's Rules.Check, which adds to it with Add and
// returns it. Every problem a scheme's rules report passes through Add,
// which keeps them as the core keeps its own: the first MaxProblems, and
// past them only how many there were, where the first of them was and the
// highest severity among them, so that input breaking a rule at every
// octet ("news:<<<...", a wpath of "/" after "/") cannot multiply its size
// in memory. Problems then ends the list with one problem (rule "url")
// that says how many more there were, at the offset of the first left
// out and with the highest severity among them, so Conforms still
// answers for the whole URL. The first Error past the limit is kept as
// well, so a ParseError names the rule's own.
//
// The zero Report is empty and ready to use. (It is a slice and a
// pointer, 32 bytes, which the compiler keeps in registers across the
// call to Check; what is counted past the limit is allocated when the
// first problem is left out.)
type Report struct {
	list []Problem
	over *leftOut
}

// leftOut is what a Report counts of the problems past its limit.
type leftOut struct {
	n, at int      // how many, and the offset of the first
	sev   Severity // the highest severity among them
}

// Add records a problem at byte offset off of the URL's input.
func (r *Report) Add(off int, sev Severity, rule, msg string) {
	if n := len(r.list); n < MaxProblems || n == MaxProblems && sev == Error {
		r.list = append(r.list, Problem{Offset: off, Severity: sev, Rule: rule, Message: msg})
		return
	}
	r.drop(off, sev)
}

// drop counts a problem past the limit.
func (r *Report) drop(off int, sev Severity) {
	if r.over == nil {
		r.over = &leftOut{at: off}
	}
	r.over.n++
	r.over.sev = max(r.over.sev, sev)
}

// Problems returns the problems r keeps, in the order added, followed,
// when some were left out, by the one that says how many.
func (r Report) Problems() []Problem {
	if r.over == nil {
		return r.list
	}
	return r.withSummary()
}

func (r Report) withSummary() []Problem {
	return append(r.list, Problem{Offset: r.over.at, Severity: r.over.sev, Rule: "url",
		Message: strconv.Itoa(r.over.n) + " more problems from the scheme's rules from here on are not listed (at most " + strconv.Itoa(MaxProblems) + " are)"})
}
