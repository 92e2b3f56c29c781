package locator

// Syntax is what the core must know of a scheme to split its URLs into
// components; the rest of a scheme's rules live in its own package.
type Syntax struct {
	// DefaultPort is the port RFC 1738 §3 assigns, or 0 when none.
	DefaultPort int
	// Internet is true when the scheme uses the common Internet scheme
	// syntax of §3.1, "//" login [ "/" url-path ].
	Internet bool
	// Search is true when "?" ends the path and begins a search part
	// (http, wais; mailto headers per RFC 2368; schemes not in RFC 1738).
	// For ftp, file, gopher, news and prospero "?" is an ordinary
	// character of the path (fsegment, selector, article, psegment).
	Search bool
	// Delims lists the octets the scheme's own structure uses in encoded
	// form (gopher's %09 and the CR LF of a Gopher+ ASK block). The core
	// does not warn about them; the scheme's rules judge them.
	Delims string
	// Hierarchical is true when "/" separates levels of a hierarchy, so
	// that dot segments ("." and "..") may be removed and partial forms
	// resolved by path (http, https, ftp, file).
	Hierarchical bool
}

// syntaxes holds the schemes of RFC 1738 §3 and https. Unknown schemes
// get the generic syntax (Internet if the part starts with "//", Search).
var syntaxes = map[string]Syntax{
	"ftp":      {DefaultPort: 21, Internet: true, Hierarchical: true},
	"http":     {DefaultPort: 80, Internet: true, Search: true, Hierarchical: true},
	"https":    {DefaultPort: 443, Internet: true, Search: true, Hierarchical: true},
	"gopher":   {DefaultPort: 70, Internet: true, Delims: "\t\r\n"},
	"mailto":   {Search: true},
	"news":     {},
	"nntp":     {DefaultPort: 119, Internet: true},
	"telnet":   {DefaultPort: 23, Internet: true},
	"wais":     {DefaultPort: 210, Internet: true, Search: true},
	"file":     {Internet: true, Hierarchical: true},
	"prospero": {DefaultPort: 1525, Internet: true},
}

var genericSyntax = Syntax{Search: true}

// SchemeSyntax returns the syntax the core uses for the lower-case scheme
// name, and whether the scheme is one it knows.
func SchemeSyntax(scheme string) (Syntax, bool) {
	s, ok := syntaxes[scheme]
	if !ok {
		return genericSyntax, false
	}
	return s, true
}

// DefaultPort returns the default port of the lower-case scheme, or 0.
func DefaultPort(scheme string) int {
	return syntaxes[scheme].DefaultPort
}

// Rules are a scheme's own rules, supplied by its package (ftp, gopher,
// ...) through Register.
type Rules interface {
	// Check returns the problems u's scheme-specific structure has, with
	// offsets into u.Input. It must not modify u.
	Check(u *URL) []Problem
	// Parts returns the scheme's decoded structure, ready for JSON.
	Parts(u *URL) any
}

// Explainer is implemented by Rules that can say, for a person, what a URL
// means: the commands or request it stands for.
type Explainer interface {
	Explain(u *URL) string
}

// rules is written only from init functions, so reads need no lock.
var rules = map[string]Rules{}

// Register makes r the rules of the lower-case scheme. It must be called
// from a scheme package's init function; Parse then applies r.Check
// to every URL of that scheme.
func Register(scheme string, r Rules) {
	rules[scheme] = r
}

// RegisterSyntax tells the core how to split URLs of a scheme it does not
// know. It must be called before any Parse of that scheme, from init.
func RegisterSyntax(scheme string, s Syntax) {
	if _, ok := syntaxes[scheme]; !ok {
		syntaxes[scheme] = s
	}
}

// Lookup returns the rules registered for the lower-case scheme, or nil.
func Lookup(scheme string) Rules {
	return rules[scheme]
}

// Normalizer is implemented by Rules whose scheme has normal forms of its
// own (the ftp typecode's case, gopher's default type "1"). Normalize
// calls it after the generic steps; it rewrites u's components in place.
type Normalizer interface {
	Normalize(u *URL)
}
