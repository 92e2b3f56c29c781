package locator_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// benchPairs builds (base, reference) pairs from the http(s) URLs of the
// corpora: a reference is a same-host URL written as a relative path, an
// absolute path, a query, "../" forms or a network path; the RFC 3986
// §5.4.1 references against its base are added.
func benchPairs(b testing.TB) (bases []string, refs []string) {
	urls := loadURLs(b, 11)
	var web []*locator.URL
	for _, u := range urls {
		if (u.Scheme() == "http" || u.Scheme() == "https") && u.Conforms() {
			web = append(web, u)
		}
	}
	for i := 0; i+1 < len(web) && len(refs) < 4000; i++ {
		base, t := web[i], web[i+1]
		var ref string
		switch i % 5 {
		case 0:
			ref = locator.Relative(base, t, locator.RFC3986)
		case 1:
			ref = "/" + t.Path()
		case 2:
			ref = "../" + t.Path()[strings.LastIndexByte(t.Path(), '/')+1:]
		case 3:
			ref = "//" + t.Host() + "/" + t.Path()
		case 4:
			ref = "?" + t.Search()
		}
		bases = append(bases, base.String())
		refs = append(refs, ref)
	}
	for _, r := range []string{"g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", ";x", "g;x", ".", "./", "..", "../", "../g", "../..", "../../g", "../../../g", "/./g", "g/../h"} {
		bases = append(bases, "http://a/b/c/d;p?q")
		refs = append(refs, r)
	}
	return bases, refs
}

// BenchmarkResolve times locator.Resolve(base, ref, RFC3986): the split
// of the reference, the §5.2 transform, remove_dot_segments and the Parse
// of the result into a *URL (with its diagnostics). The bases are parsed
// before the timer starts.
func BenchmarkResolve(b *testing.B) {
	bs, refs := benchPairs(b)
	bases := make([]*locator.URL, len(bs))
	for i, s := range bs {
		bases[i], _ = locator.Parse(s)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(refs)
		if _, err := locator.Resolve(bases[k], refs[k], locator.RFC3986); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNetURLResolveReference times net/url on the same pairs:
// url.Parse(ref) (net/url needs the reference parsed) and
// base.ResolveReference(refURL), which returns a *url.URL. The bases are
// parsed before the timer starts.
func BenchmarkNetURLResolveReference(b *testing.B) {
	bs, refs := benchPairs(b)
	bases := make([]*url.URL, len(bs))
	for i, s := range bs {
		var err error
		if bases[i], err = url.Parse(s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(refs)
		r, err := url.Parse(refs[k])
		if err != nil {
			continue
		}
		_ = bases[k].ResolveReference(r)
	}
}
