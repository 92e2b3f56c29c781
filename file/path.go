package file

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// A Style is a family of local path syntaxes.
type Style uint8

const (
	// Unix paths: "/" separates names, a name holds any octet but "/"
	// and NUL.
	Unix Style = iota
	// Windows paths: "\" (or "/") separates names; "C:\" begins a drive,
	// "\\host\share\" a UNC path; a name holds no "\", "/" or NUL.
	Windows
)

func (s Style) String() string {
	if s == Windows {
		return "Windows"
	}
	return "Unix"
}

// A PathError says why a URL and a local path cannot be converted, with
// the offset in the URL (or the path) and the rule.
type PathError struct {
	Input   string // the URL, reference or path given
	Problem locator.Problem
}

func (e *PathError) Error() string {
	return "file: " + strconv.Quote(e.Input) + ": " + e.Problem.String()
}

func pathError(in string, off int, rule, msg string) error {
	return &PathError{Input: in, Problem: locator.Problem{Offset: off, Severity: locator.Error, Rule: rule, Message: msg}}
}

// LocalPath returns the local path that the file URL u names, in the
// given style. The url-path is split at "/" before each segment is
// decoded, so a segment whose decoded form holds the separator ("%2F",
// and "%5C" for Windows) or NUL cannot be a name and is refused.
//
// Unix: the host must be this machine (IsLocal); the path is the decoded
// url-path, with its leading "/" ("file:///etc/motd" is /etc/motd).
//
// Windows: "file:///C:/x" is C:\x (a drive letter is written in upper
// case; "C|" is read as "C:", the Netscape form); "file://host/share/x"
// is the UNC path \\host\share\x; "file:///x" is \x, on the current
// drive. The legacy form "file://c:/x", which the core reads as host "c"
// with an empty port, is read as drive C:.
//
// LocalPath fails with a *PathError when u is not a file URL, names
// another host (Unix), or has no absolute path.
func LocalPath(u *locator.URL, style Style) (string, error) {
	in := u.Input()
	if u.Scheme() != "file" {
		return "", pathError(in, u.Offset(locator.SchemeComponent), "fileurl", "not a file URL")
	}
	path, ok := urlPath(u)
	base := u.Offset(locator.PathComponent)
	if u.HasAuthority() {
		base-- // path holds the "/" before u.Path
	}
	if !ok {
		path = "/" // file://host names the host's root
	}
	if path == "" || path[0] != '/' {
		return "", pathError(in, base, "fileurl", "the path is not absolute: a file URL's path begins with \"/\" (RFC 1738 §3.10)")
	}
	drive := ""
	if u.HasAuthority() && u.HasPort() && u.Port() == "" && len(u.Host()) == 1 && isLetter(u.Host()[0]) {
		drive = strings.ToUpper(u.Host()) + ":" // legacy file://c:/x
	}
	local := IsLocal(u)
	if style == Unix {
		if !local || drive != "" {
			return "", pathError(in, u.Offset(locator.HostComponent), "host",
				"host "+strconv.Quote(u.Host())+" is not this machine: only \"\" and \"localhost\" are (RFC 1738 §3.10)")
		}
		segs, err := decodeSegments(in, path[1:], base+1, "/")
		if err != nil {
			return "", err
		}
		return "/" + strings.Join(segs, "/"), nil
	}
	segs, err := decodeSegments(in, path[1:], base+1, "/\\")
	if err != nil {
		return "", err
	}
	switch {
	case drive != "":
		return drive + `\` + strings.Join(segs, `\`), nil
	case !local:
		return `\\` + u.Host() + `\` + strings.Join(segs, `\`), nil
	case isDrive(segs[0]):
		d := strings.ToUpper(segs[0][:1]) + ":"
		if len(segs) == 1 {
			return d + `\`, nil
		}
		return d + `\` + strings.Join(segs[1:], `\`), nil
	}
	return `\` + strings.Join(segs, `\`), nil
}

// RelativePath returns the local path that a relative reference names:
// its segments decoded and joined by the style's separator ("foo/bar" is
// foo\bar on Windows, "../%2E%2E" is ../..). A reference with a scheme or
// beginning "//" is refused: use LocalPath with the resolved URL.
func RelativePath(ref string, style Style) (string, error) {
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		if c == ':' {
			return "", pathError(ref, i, "fileurl", "a reference with a scheme is not relative; use LocalPath")
		}
		if c == '/' || c == '?' || c == '#' {
			break
		}
	}
	if strings.HasPrefix(ref, "//") {
		return "", pathError(ref, 0, "fileurl", "a reference beginning \"//\" names a host; use LocalPath")
	}
	seps, sep := "/", "/"
	if style == Windows {
		seps, sep = "/\\", `\`
	}
	segs, err := decodeSegments(ref, ref, 0, seps)
	if err != nil {
		return "", err
	}
	return strings.Join(segs, sep), nil
}

// decodeSegments splits the encoded p at "/" and decodes each segment,
// refusing one that decodes to hold a byte of seps or NUL.
func decodeSegments(in, p string, base int, seps string) ([]string, error) {
	segs := strings.Split(p, "/")
	at := base
	for i, s := range segs {
		d := locator.Decode(s)
		if j := strings.IndexAny(d, seps+"\x00"); j >= 0 {
			return nil, pathError(in, at, "fsegment", "segment "+strconv.Quote(s)+" decodes to hold "+strconv.QuoteRune(rune(d[j]))+", which no name in a local path can hold")
		}
		segs[i] = d
		at += len(s) + 1
	}
	return segs, nil
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isDrive reports whether a decoded segment is a drive: a letter and ":"
// or "|".
func isDrive(s string) bool {
	return len(s) == 2 && isLetter(s[0]) && (s[1] == ':' || s[1] == '|')
}

// FromLocalPath returns the file URL of an absolute local path, or the
// relative reference of a relative one, each name encoded as an fsegment
// (RFC 1738 §5). Absolute paths give "file:///..." (the empty host, this
// machine), as fileurl requires; a Windows UNC path \\host\share\x gives
// "file://host/share/x" and a drive path C:\x gives "file:///C:/x". In a
// relative reference a ":" in the first segment is encoded, so that it
// is not read as a scheme.
//
// It fails with a *PathError for an empty path, a path holding NUL, a
// Windows path relative to a drive's current directory ("C:x", "C:"), or a UNC
// path with no share or with a host that is not a host name, or a
// Windows name holding one of < > : " | ? * (which Windows forbids in
// names; a drive's "C:" aside).
func FromLocalPath(p string, style Style) (string, error) {
	if p == "" {
		return "", pathError(p, 0, "fpath", "the path is empty")
	}
	if i := strings.IndexByte(p, 0); i >= 0 {
		return "", pathError(p, i, "fpath", "a path holds no NUL")
	}
	var segs []string
	prefix := ""
	hasDrive := false
	if style == Windows {
		segs = splitAny(p, `\/`)
		switch {
		case len(p) >= 2 && (p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/'):
			// \\host\share\x: segs are "", "", host, share, x.
			host := segs[2]
			if host == "" || !isHostname(host) {
				return "", pathError(p, 2, "host", "UNC host "+strconv.Quote(host)+" is not a host name")
			}
			if len(segs) < 4 {
				return "", pathError(p, len(p), "fpath", "a UNC path names a share after the host: \\\\host\\share")
			}
			prefix = "file://" + host
			segs = append([]string{""}, segs[3:]...)
		case isDrive(p[:min(2, len(p))]):
			if len(p) == 2 || p[2] != '\\' && p[2] != '/' {
				return "", pathError(p, 2, "fpath", "\""+p[:2]+"\" followed by a name is relative to that drive's current directory; no URL names it")
			}
			segs[0] = strings.ToUpper(p[:1]) + ":"
			segs = append([]string{""}, segs...)
			hasDrive = true
			prefix = "file://"
		case p[0] == '\\' || p[0] == '/':
			prefix = "file://"
		}
		for i, seg := range segs {
			if i == 1 && hasDrive {
				continue
			}
			if j := strings.IndexAny(seg, `<>:"|?*`); j >= 0 {
				return "", pathError(p, strings.Index(p, seg)+j, "fpath", "a Windows name holds none of < > : \" | ? * (the drive's \"C:\" aside)")
			}
		}
	} else {
		segs = strings.Split(p, "/")
		if p[0] == '/' {
			prefix = "file://"
		}
	}
	var b strings.Builder
	b.WriteString(prefix)
	for i, s := range segs {
		if i > 0 {
			b.WriteByte('/')
		}
		e := locator.Escape(s, locator.EncodeFSegment)
		if i == 0 && prefix == "" {
			e = strings.ReplaceAll(e, ":", "%3A")
		}
		b.WriteString(e)
	}
	return b.String(), nil
}

func splitAny(s, seps string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(seps, s[i]) >= 0 {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// isHostname reports whether s is empty (this machine) or a host of RFC
// 1738 §3.1's grammar: a hostnumber, four groups of digits, or a hostname
// whose labels begin and end with a letter or digit and whose toplabel
// begins with a letter, with labels of at most 63 octets and at most 253
// in all (RFC 1034 §3.1, which the core checks too). A UNC host such as
// "0" is neither, and a file URL naming it would not conform.
func isHostname(s string) bool {
	if s == "" {
		return true
	}
	if len(s) > 253 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !('0' <= c && c <= '9') && c != '-' && c != '.' {
			return false
		}
	}
	labels := strings.Split(s, ".")
	digits := len(labels) == 4
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		digits = digits && strings.Trim(l, "0123456789") == ""
	}
	return digits || isLetter(labels[len(labels)-1][0])
}
