package locator

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/loctest/vectors"
)

// composedResolve is Resolve under RFC 3986 the way every rule set's text
// is composed (resolve3986 in a buffer, then parseResolved or Parse): what
// resolveDirect must equal, field for field.
func composedResolve(base *URL, ref string) (*URL, error) {
	return resolveIn(make([]byte, 0, len(base.in)+len(ref)+3), base, unwrapRef(ref), RFC3986)
}

// checkDirect fails unless resolveDirect, where it answers, returns what
// composedResolve does: the same URL (text, offsets, flags, problems) or
// an equal error; and the URL is what Parse makes of its text.
func checkDirect(t *testing.T, base *URL, ref string) bool {
	t.Helper()
	u, done, err := resolveDirect(base, unwrapRef(ref))
	if !done {
		return false
	}
	v, verr := composedResolve(base, ref)
	if !reflect.DeepEqual(err, verr) || !reflect.DeepEqual(u, v) {
		t.Fatalf("%s + %q: resolveDirect gives %+v, %v; composed, %+v, %v", base.in, ref, u, err, v, verr)
	}
	// Both read the text without Parse where they can: Parse reads it so.
	if err == nil {
		if w, perr := Parse(u.in); perr != nil || !reflect.DeepEqual(u, w) {
			t.Fatalf("%s + %q = %q: resolveDirect gives %+v; Parse, %+v, %v", base.in, ref, u.in, u, w, perr)
		}
	}
	return true
}

// directRefs are references of the forms whose paths resolveDirect
// writes apart (dot segments the base's part drops, ones it does not,
// guards, empty parts), besides those drawn from the corpora.
var directRefs = []string{
	"", "#", "?", "#f", "?q", "?q#f", ".", "..", "./", "../", "../..", "../../", "../../../g", "./g", "../g",
	"g", "g/", "g;x?y#s", ";x", "./.g", ".g", "..g", "g.", "g..", "...", ".../g", "./../g", "../.", "../..g",
	"g/./h", "g/../h", "g/../../../h", "a/b/c/./../../g", "/", "/g", "/./g", "/../g", "/g/.", "/g/..",
	"//", "//h", "//h/", "//h/./g", "//h/../g", "//h?q", "//h#f", "//h:80/g", "//u@h/g", "//[::1]:8/x", "//h/p%zz?q",
	"..//g", ".//g", "g//../h", "%2e%2e/g", "a%20b?c%2F/d#e%0D", "a b", "g#f#g", "g?y/./x", "g#s/../x",
	"/a%41?q#f#g", "x\x00y", ":", "./a:b", "ERRx/../y",
	// Dot segments where hasDotSegment's words meet.
	"abcdefg/.hij", "abcdefgh/..", "abcdef/.", "abcdefghijklmn/.x/y", "abcdefghijklmno/.", "../abcdefghijkl/./m",
}

func TestResolveDirectAsComposed(t *testing.T) {
	bases := []string{
		"http://a/b/c/d;p?q", "http://a", "http://a?q", "http://a/", "http://a/b", "http://a/.b/c/", "http://a/b/./c/../d",
		"http://a//b//c", "HTTP://A/b/c", "http://u:p@a:8080/b/c?q#f", "http://[::1]/b/c", "http://a/%zz/b?%zz#%zz",
		"ftp://h/a/b;type=i", "ftp://h/a?b/c/d", "ftp://h", "file:///a/b/c", "file://h", "gopher://h/1a/b?c",
		"fred:///s//a/b/c", "foo://h/a/b", "resolvetest://h/x/y?q", "resolvetest://u@h/a/x/b", "http://a/b c/d",
		"resolvescreen://h/x/y?q", "resolvescreen://h/x/", "resolvescreen://u@h/a/b",
		"http://a/b/c/d;p?q#f", "<URL:http://a/b/c>",
	}
	for _, s := range bases {
		base, err := Parse(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		for _, ref := range directRefs {
			checkDirect(t, base, ref)
		}
	}
	n, direct := 0, 0
	for _, name := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		var prev *URL
		for i, line := range vectors.ReadLines(t, "data", "urls", name) {
			if i%7 != 0 {
				continue
			}
			u, err := Parse(line)
			if err != nil || !u.HasAuthority() {
				continue
			}
			if prev != nil {
				for _, ref := range refsOf(u) {
					n++
					if checkDirect(t, prev, ref) {
						direct++
					}
				}
			}
			prev = u
		}
	}
	// Nearly all are resolveDirect's: the few it leaves are references
	// with a scheme ("//" in a path read as one) and bases whose path
	// does not follow a "/".
	if direct < n*99/100 {
		t.Errorf("resolveDirect answered %d of %d pairs from the corpora", direct, n)
	}
	t.Logf("resolveDirect answered %d of %d pairs from the corpora", direct, n)
}

// refsOf makes references of every kind from u: its path as a relative,
// an absolute and a "../" path, a network path, a query, a fragment.
func refsOf(u *URL) []string {
	p := u.Path()
	name := p[strings.LastIndexByte(p, '/')+1:]
	refs := []string{p, "/" + p, "../" + name, "./" + name, "../../" + p, "//" + u.Host() + "/" + p, "?" + u.Search(), "#" + u.Fragment()}
	if i := strings.Index(u.in, "//"); i >= 0 {
		refs = append(refs, u.in[i:])
	}
	return refs
}

// checkDotScans fails unless hasDotSegment, which lets a path through
// without §5.2.4, agrees with dotSegmentAt, cleanPathPrefix and cleanRun
// with cleanPrefix (and hasDotSegment), and lastSlashIn, allowedPrefix
// and splitRef3986's authority with octet-by-octet readings, on s and on s with its
// octets above 0x7f made "/", "." and "a" (which makes dot segments
// common).
func checkDotScans(t *testing.T, s string) {
	t.Helper()
	b := []byte(s)
	for i, c := range b {
		if c >= 0x80 {
			b[i] = "/.a"[c%3]
		}
	}
	for _, s := range []string{s, string(b)} {
		if got, want := hasDotSegment(s), dotSegmentAt([]byte(s), 0) >= 0; got != want {
			t.Fatalf("hasDotSegment(%q) = %v, want %v", s, got, want)
		}
		if got, want := cleanRun(s, &xcharOK), cleanPrefix(s, &xcharOK); got != want {
			t.Fatalf("cleanRun(%q) = %d, want %d", s, got, want)
		}
		if got, want := lastSlashIn(s), strings.LastIndexByte(s, '/'); got != want {
			t.Fatalf("lastSlashIn(%q) = %d, want %d", s, got, want)
		}
		if got, want := allowedPrefix(s, &notAuthorityEnd), strings.IndexAny(s, "/?#"); got != want && (want >= 0 || got != len(s)) {
			t.Fatalf("allowedPrefix(%q, notAuthorityEnd) = %d, want %d", s, got, want)
		}
		// splitRef3986's authority (Appendix B: up to "/", "?" or "#"),
		// read as a hostname's octets first.
		var r refParts
		splitRef3986(&r, "//"+s)
		auth := s
		if i := strings.IndexAny(s, "/?#"); i >= 0 {
			auth = s[:i]
		}
		if r.auth != auth || r.hostAuth != (strings.Trim(auth, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.") == "") {
			t.Fatalf("splitRef3986(%q): auth %q, hostAuth %v; want %q", "//"+s, r.auth, r.hostAuth, auth)
		}
		k, dots := cleanPathPrefix(s)
		if want := cleanPrefix(s, &xcharNoSearch); k != want || dots != hasDotSegment(s[:k]) {
			t.Fatalf("cleanPathPrefix(%q) = %d, %v; want %d, %v", s, k, dots, want, hasDotSegment(s[:want]))
		}
	}
}

func TestDotScans(t *testing.T) {
	for _, s := range directRefs {
		checkDotScans(t, s)
	}
	for _, s := range []string{"abcdefg/.", "abcdefgh/.", "abcdefghabcdefg/.", "abcdefg/abcdefg.", "abcdef/.abcdefgh", "%41bcdefg/.", "abcdefgh%41/.x", "abcdefgh?/.", "abcdefgh#/.", "abcdefg\x7f/.", ".abcdefgh"} {
		checkDotScans(t, s)
	}
}

// FuzzResolveDirect: resolveDirect returns what composing the text as
// for every rule set does, field for field; and the scans for dot
// segments agree with dotSegmentAt (checkDotScans).
func FuzzResolveDirect(f *testing.F) {
	for _, s := range directRefs {
		f.Add("http://a/b/c/d;p?q", s)
	}
	f.Add("ftp://h/a?b/c/d", "../x")
	f.Add("http://a/b/./c/../d", "../../g")
	f.Add("http://a", "g")
	f.Fuzz(func(t *testing.T, base, ref string) {
		checkDotScans(t, ref)
		checkDotScans(t, base)
		b, err := Parse(base)
		if err != nil {
			return
		}
		checkDirect(t, b, ref)
	})
}

// TestURLRoom: the room newURLRoom gives holds n octets, in one object
// of the smallest of the allocator's size classes that holds the URL and
// them, as the runtime counts the bytes it allocates. (A count is taken
// up to five times: another goroutine may allocate between the reads.)
func TestURLRoom(t *testing.T) {
	var m0, m1 runtime.MemStats
	for n := 0; n <= 1100; n++ {
		_, b := newURLRoom(n)
		if len(b) != 0 || cap(b) < n {
			t.Fatalf("newURLRoom(%d): room %d", n, cap(b))
		}
		if n > maxRoom {
			continue
		}
		want, header := 0, 0
		for _, c := range roomSizes {
			if c > 512 {
				header = 8 // an object with pointers above 512 bytes has one
			}
			if c >= header+urlSize+n {
				want = c
				break
			}
		}
		var objects, bytes uint64
		for range 5 {
			runtime.ReadMemStats(&m0)
			newURLRoom(n)
			runtime.ReadMemStats(&m1)
			if objects, bytes = m1.Mallocs-m0.Mallocs, m1.TotalAlloc-m0.TotalAlloc; objects == 1 && bytes == uint64(want) {
				break
			}
		}
		if objects != 1 || bytes != uint64(want) {
			t.Fatalf("newURLRoom(%d): %d objects of %d bytes in all, want one of %d", n, objects, bytes, want)
		}
	}
}
