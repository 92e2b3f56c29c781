package locator_test

import (
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

// benchPairs builds (base, reference) pairs for TestResolveReadsAsParse
// from the http(s) URLs of the
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
		ref := loctest.PairRef(i, base, t)
		bases = append(bases, base.String())
		refs = append(refs, ref)
	}
	for _, r := range []string{"g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", ";x", "g;x", ".", "./", "..", "../", "../g", "../..", "../../g", "../../../g", "/./g", "g/../h"} {
		bases = append(bases, "http://a/b/c/d;p?q")
		refs = append(refs, r)
	}
	return bases, refs
}
