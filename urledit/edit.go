package urledit

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// An Editor holds the edits to make to each URL; its zero value makes
// none and writes each URL in its normal form. The edits are made in
// this order: Redirect, the Sets and one combination of the Iterate
// values (generic components first, then the scheme's own parts),
// AppendPath, then the query's Trim, Replace, AppendQuery and SortQuery.
type Editor struct {
	// Redirect, when not empty, is a reference resolved against each URL
	// (RFC 3986 §5, locator.Resolve) before any other edit.
	Redirect string

	Sets    []Set
	Iterate []Iterate
	// MaxCombinations bounds the combinations of the Iterate values
	// (their counts multiplied), which Check refuses beyond it;
	// 0 is DefaultMaxCombinations.
	MaxCombinations uint64

	// AppendPath holds segments (decoded) added to the path, each after a
	// "/" (none when the path ends with one).
	AppendPath []string
	// AppendQuery holds pairs "key=value" or "key" (decoded) added to the
	// end of the query.
	AppendQuery []string
	// Trim holds the keys whose pairs are removed from the query: a key,
	// compared without regard to case, or a prefix ending in "*" ("\*"
	// for a key that ends in a star).
	Trim []string
	// Replace holds pairs "key=value" or "key" (decoded) that take the
	// place of the first pair of the same key; later pairs of that key
	// are removed. With ReplaceAppend, a pair whose key the query lacks
	// is appended.
	Replace       []string
	ReplaceAppend bool
	// SortQuery sorts the pairs by their text, without regard to case.
	SortQuery bool
	// Separator separates the query's pairs; 0 is "&".
	Separator byte

	// Guess reads an input without a scheme as curl does: a host first,
	// its scheme guessed from its first label ("ftp." is ftp) or http.
	// RFC 1738 §2.1 has no such reading; without Guess such an input is
	// refused.
	Guess bool
	// AcceptSpace encodes a space in the input, as data; otherwise a
	// space is refused, for the RFC 1738 Appendix reads white space in a
	// URL as a line break's, to be dropped.
	AcceptSpace bool
	// KnownSchemes refuses a URL whose scheme the library has no rules for
	// (RFC 1738 §3 and §4, https).
	KnownSchemes bool
	// KeepPort keeps a port that is the scheme's default; DefaultPort
	// writes the default port of a scheme that has one when none is
	// written.
	KeepPort    bool
	DefaultPort bool
}

// DefaultMaxCombinations is MaxCombinations when it is 0: as many URLs
// as "locator get" expands its globs to by default. Three --iterate of
// 1,000 values would make 10^9.
const DefaultMaxCombinations = 10000

// A Set sets one component: "name=value" encodes the value (it is
// data), "name:=value" takes it as already encoded, "name?=value" sets
// it only when the URL lacks it. An empty value removes the component.
type Set struct {
	Name    string
	Value   string
	Encoded bool
	IfUnset bool
}

// ParseSet reads the argument of trurl's --set: name[?][:]=value.
func ParseSet(arg string) (Set, error) {
	eq := strings.IndexByte(arg, '=')
	if eq <= 0 {
		return Set{}, &Error{Kind: KindSet, Input: arg, Offset: -1, Message: "invalid --set syntax: " + quote(arg)}
	}
	s := Set{Value: arg[eq+1:]}
	name := arg[:eq]
	// A ':' and a '?' may end the name, in either order.
	for n := 0; n < 2 && len(name) > 1; n++ {
		if c := name[len(name)-1]; c == ':' && !s.Encoded {
			s.Encoded = true
		} else if c == '?' && !s.IfUnset {
			s.IfUnset = true
		} else {
			break
		}
		name = name[:len(name)-1]
	}
	s.Name = name
	if !knownComponent(name) {
		return Set{}, &Error{Kind: KindSet, Input: arg, Offset: -1, Message: "unknown component: " + quote(name)}
	}
	return s, nil
}

// An Iterate sets one component to each of its values in turn; an
// Editor with several makes every combination, the first varying
// slowest.
type Iterate struct {
	Name    string
	Values  []string
	Encoded bool
}

// ParseIterate reads the argument of trurl's --iterate:
// name[:]=value1 value2 ..., the values separated by single spaces.
func ParseIterate(arg string) (Iterate, error) {
	eq := strings.IndexByte(arg, '=')
	if eq <= 0 {
		return Iterate{}, &Error{Kind: KindIterate, Input: arg, Offset: -1, Message: "wrong iterate syntax"}
	}
	it := Iterate{Name: arg[:eq], Values: strings.Split(arg[eq+1:], " ")}
	if n := len(it.Name); n > 1 && it.Name[n-1] == ':' {
		it.Name, it.Encoded = it.Name[:n-1], true
	}
	if !knownComponent(it.Name) {
		return Iterate{}, &Error{Kind: KindIterate, Input: arg, Offset: -1, Message: "bad component for iterate: " + quote(it.Name)}
	}
	return it, nil
}

// A Kind says which edit an Error is about.
type Kind uint8

const (
	// KindRead: the input is not a URL, or a URL the Editor refuses.
	KindRead Kind = iota + 1
	// KindWrite: the edited URL would not conform (or cannot be
	// written); Offset and Rule are those of the text that was built.
	KindWrite
	// KindEmpty: no input, and the components set make no URL.
	KindEmpty
	// KindSet, KindAppend, KindTrim, KindReplace, KindIterate, KindGet:
	// an edit or a template that cannot be made, whatever the URL.
	KindSet
	KindAppend
	KindTrim
	KindReplace
	KindIterate
	KindGet
)

// An Error says why a URL could not be read, edited or written: the
// text concerned, and for a URL that does not conform, the offset in
// that text and the grammar rule (RFC 1738 §5) or section it breaks.
type Error struct {
	Kind Kind
	// Field names what Input is when it is not a whole URL: a scheme's
	// part ("news group") given to its builder.
	Field   string
	Input   string // the text: the input, the URL built, or the argument
	Offset  int    // in Input; -1 when the error is not at an octet
	Rule    string
	Message string
}

func (e *Error) Error() string {
	if e.Offset < 0 {
		return e.Message
	}
	var s string
	switch {
	case e.Field != "" && e.Input == "":
		s = e.Field + ": "
	case e.Field != "":
		s = e.Field + " " + quote(e.Input) + ": "
	default:
		s = quote(e.Input) + ": "
	}
	s += "offset " + strconv.Itoa(e.Offset) + ": "
	if e.Rule != "" {
		s += e.Rule + ": "
	}
	return s + e.Message
}

// quote quotes s for a message, long text cut.
func quote(s string) string {
	const max = 200
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

// generic names trurl's components, in its order; "url" is the whole.
var generic = [...]string{"scheme", "user", "password", "options", "host", "port", "path", "query", "fragment", "zoneid"}

func isGeneric(name string) bool {
	for _, g := range generic {
		if g == name {
			return true
		}
	}
	return false
}

// knownComponent reports whether name is a generic component or a part
// of some scheme (see Parts); "parts." may precede a part's name.
func knownComponent(name string) bool {
	if isGeneric(name) {
		return true
	}
	return partKnown(strings.TrimPrefix(name, "parts."))
}

// Check reports an error in e's edits that no URL could make right: a
// component set twice, iterated twice, or both set and iterated, an
// --append or --trim of another component than path or query, more
// combinations of the Iterate values than MaxCombinations.
func (e *Editor) Check() error {
	seen := map[string]bool{}
	for _, s := range e.Sets {
		n := canonical(s.Name)
		if seen[n] {
			return &Error{Kind: KindSet, Offset: -1, Message: "duplicate --set for component " + s.Name}
		}
		seen[n] = true
	}
	iter := map[string]bool{}
	for _, it := range e.Iterate {
		n := canonical(it.Name)
		if iter[n] {
			return &Error{Kind: KindIterate, Offset: -1, Message: "duplicate component for iterate: " + it.Name}
		}
		if seen[n] {
			return &Error{Kind: KindIterate, Offset: -1, Message: "duplicate --iterate and --set for component " + it.Name}
		}
		iter[n] = true
	}
	if n, ok := e.Combinations(); !ok {
		msg := "the --iterate values make more than 2^64 combinations"
		if n > 0 {
			msg = "the --iterate values make " + strconv.FormatUint(n, 10) + " combinations"
		}
		return &Error{Kind: KindIterate, Offset: -1, Message: msg + ", more than the bound of " + strconv.FormatUint(e.maxCombinations(), 10)}
	}
	if e.Separator >= 0x80 || e.Separator == '%' || e.Separator == '#' || e.Separator == '+' || e.Separator == '=' ||
		e.Separator != 0 && locator.IsUnsafe(e.Separator) {
		return &Error{Kind: KindSet, Offset: -1, Message: "query separator " + strconv.QuoteRune(rune(e.Separator)) +
			" cannot separate pairs: it is an escape, a space, the fragment's '#', or unsafe (RFC 1738 §2.2)"}
	}
	return nil
}

// Combinations returns how many URLs each input makes: the counts of
// the Iterate values multiplied (1 without Iterate), and whether that is
// within MaxCombinations. A count past 2^64 is 0, not within.
func (e *Editor) Combinations() (uint64, bool) {
	n := uint64(1)
	for _, it := range e.Iterate {
		k := uint64(len(it.Values))
		hi, lo := bits.Mul64(n, k)
		if hi != 0 {
			return 0, false
		}
		n = lo
	}
	return n, n <= e.maxCombinations()
}

func (e *Editor) maxCombinations() uint64 {
	if e.MaxCombinations == 0 {
		return DefaultMaxCombinations
	}
	return e.MaxCombinations
}

// canonical is a component's name without "parts." before a part.
func canonical(name string) string { return strings.TrimPrefix(name, "parts.") }

func (e *Editor) sep() byte {
	if e.Separator == 0 {
		return '&'
	}
	return e.Separator
}
