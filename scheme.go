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
	// form (gopher's %09 and the CR LF of a Gopher+ ASK block, the %00 of
	// the 1993 draft's prospero form). The core does not warn about them;
	// the scheme's rules judge them.
	Delims string
	// Hierarchical is true when "/" separates levels of a hierarchy, so
	// that dot segments ("." and "..") may be removed and partial forms
	// resolved by path (http, https, ftp, file).
	Hierarchical bool
}

// schemeEntry is one scheme the core knows: its syntax and, once its
// package registered them, its rules.
type schemeEntry struct {
	name  string
	syn   Syntax
	rules Rules
	// screen, when not 0: the flags of the components the rules read
	// (Screener); Check is called only for a URL with one of them.
	screen flags
}

// checks reports whether the entry's rules are to be called for a URL
// of flags f: there are rules, and they read one of its components.
func (e *schemeEntry) checks(f flags) bool {
	return e.rules != nil && (e.screen == 0 || f&e.screen != 0)
}

// schemes holds the schemes of RFC 1738 §3 and https, then those added by
// RegisterSyntax and Register. It is small and searched linearly, which
// beats a map for a handful of short names; it is written only from init
// functions, so reads need no lock.
var schemes = []schemeEntry{
	{name: "http", syn: Syntax{DefaultPort: 80, Internet: true, Search: true, Hierarchical: true}},
	{name: "https", syn: Syntax{DefaultPort: 443, Internet: true, Search: true, Hierarchical: true}},
	{name: "ftp", syn: Syntax{DefaultPort: 21, Internet: true, Hierarchical: true}},
	{name: "file", syn: Syntax{Internet: true, Hierarchical: true}},
	{name: "mailto", syn: Syntax{Search: true}},
	{name: "news", syn: Syntax{}},
	{name: "gopher", syn: Syntax{DefaultPort: 70, Internet: true, Delims: "\t\r\n"}},
	{name: "nntp", syn: Syntax{DefaultPort: 119, Internet: true}},
	{name: "telnet", syn: Syntax{DefaultPort: 23, Internet: true}},
	{name: "wais", syn: Syntax{DefaultPort: 210, Internet: true, Search: true}},
	{name: "prospero", syn: Syntax{DefaultPort: 1525, Internet: true, Delims: "\x00"}},
}

// genericSyntax applies to schemes the core does not know: Internet
// syntax when the part begins with "//", and "?" begins a search.
var genericSyntax = Syntax{Search: true}

func findScheme(name string) *schemeEntry {
	if k := schemeIndex(name); k >= 0 {
		return &schemes[k]
	}
	return nil
}

// schemeIndex returns the index of the lower-case name in schemes, or -1.
func schemeIndex(name string) int {
	if name == "" {
		return -1
	}
	for i := range schemes {
		// The length and first letter first: most names differ there,
		// and the full comparison is a call.
		if e := schemes[i].name; len(e) == len(name) && e[0] == name[0] && e == name {
			return i
		}
	}
	return -1
}

// SchemeSyntax returns the syntax the core uses for the lower-case scheme
// name, and whether the scheme is one it knows.
func SchemeSyntax(scheme string) (Syntax, bool) {
	if e := findScheme(scheme); e != nil {
		return e.syn, true
	}
	return genericSyntax, false
}

// DefaultPort returns the default port of the lower-case scheme, or 0.
func DefaultPort(scheme string) int {
	if e := findScheme(scheme); e != nil {
		return e.syn.DefaultPort
	}
	return 0
}

// Rules are a scheme's own rules, supplied by its package (ftp, gopher,
// ...) through Register.
type Rules interface {
	// Check adds to r the problems u's scheme-specific structure has,
	// with offsets into u.Input, and returns r. It must not modify u.
	// Every problem goes through r.Add, which keeps at most MaxProblems
	// (see Report), so a rule may report one per octet of hostile input.
	Check(u *URL, r Report) Report
	// Parts returns the scheme's decoded structure, ready for JSON.
	Parts(u *URL) any
}

// Explainer is implemented by Rules that can say, for a person, what a URL
// means: the commands or request it stands for.
type Explainer interface {
	Explain(u *URL) string
}

// A Screener is implemented by Rules that find nothing to report in a
// URL that has none of the components Screen names (a URL has a
// component when its Has method says so; HostComponent is the
// authority). Parse then calls Check only for a URL that has one of
// them: most http URLs have neither a user nor a search, the only
// components http's rules read. A list that names SchemeComponent, or
// none, screens nothing: Check is called for every URL.
type Screener interface {
	Screen() []Component
}

// Register makes r the rules of the lower-case scheme. It must be called
// from a scheme package's init function; Parse then applies r.Check
// to every URL of that scheme (of those that have a component r reads,
// when r is a Screener).
func Register(scheme string, r Rules) {
	var screen flags
	if sc, ok := r.(Screener); ok {
		screen = screenFlags(sc.Screen())
	}
	if e := findScheme(scheme); e != nil {
		e.rules, e.screen = r, screen
		return
	}
	schemes = append(schemes, schemeEntry{name: scheme, syn: genericSyntax, rules: r, screen: screen})
}

// screenFlags returns the flags of the components cs, or 0 (every URL)
// when they include the scheme or none is named.
func screenFlags(cs []Component) flags {
	var f flags
	for _, c := range cs {
		switch c {
		case UserComponent:
			f |= fUser
		case PasswordComponent:
			f |= fPassword
		case HostComponent:
			f |= fAuthority
		case PortComponent:
			f |= fPort
		case PathComponent:
			f |= fPath
		case SearchComponent:
			f |= fSearch
		case FragmentComponent:
			f |= fFragment
		default:
			return 0
		}
	}
	return f
}

// RegisterSyntax tells the core how to split URLs of a scheme (one it does
// not know, or to replace what it knows). It must be called from init.
func RegisterSyntax(scheme string, s Syntax) {
	if e := findScheme(scheme); e != nil {
		e.syn = s
		return
	}
	schemes = append(schemes, schemeEntry{name: scheme, syn: s})
}

// Lookup returns the rules registered for the lower-case scheme, or nil.
func Lookup(scheme string) Rules {
	if e := findScheme(scheme); e != nil {
		return e.rules
	}
	return nil
}

// Normalizer is implemented by Rules whose scheme has normal forms of its
// own (the ftp typecode's case, gopher's default type "1"). Normalize
// calls it after the generic steps; it rewrites the components in place.
type Normalizer interface {
	Normalize(p *Parts)
}

// A PartEditor is implemented by Rules whose scheme has parts of its own
// beyond the generic components (an ftp URL's cwd, name and typecode,
// RFC 1738 §3.2.2; a gopher URL's type and selector, §3.4): an editor of
// URLs (trurl's --get and --set) gets and sets them by name, and the
// scheme's builder writes the URL, encoding each part for its place in
// the grammar (§5) and refusing what would not conform.
type PartEditor interface {
	// PartNames returns the names of the parts, in the order the
	// scheme's URL type holds them.
	PartNames() []string
	// Part returns part name of u encoded for its place in the URL (so
	// that a list keeps its elements apart: an ftp cwd's "a%2Fb/c"),
	// and whether u has it.
	Part(u *URL, name string) (string, bool)
	// SetPart returns u written by the scheme's builder with part name
	// set to value ("" removes it). When encoded is true, value is
	// written with escapes, decoded after it is split where the part's
	// structure says (an escaped "/" stays within its ftp directory).
	SetPart(u *URL, name, value string, encoded bool) (string, error)
}

// Schemes returns the lower-case names of the schemes the core knows:
// those of RFC 1738 §3 and https, then those registered, in that order.
func Schemes() []string {
	s := make([]string, len(schemes))
	for i := range schemes {
		s[i] = schemes[i].name
	}
	return s
}
