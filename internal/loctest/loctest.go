// Package loctest holds the helpers the scheme packages' tests share:
// parsing a URL a test takes as given, writing problems compactly as
// "offset rule" for table tests, and an in-memory Archive with which a
// record/replay test keeps what a Client recorded and follows it again.
// It imports the core and access only, never a scheme package, so that
// every scheme package's tests may import it.
package loctest

import (
	"strconv"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// MustParse parses s or stops the test.
func MustParse(t testing.TB, s string) *locator.URL {
	t.Helper()
	u, err := locator.Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return u
}

// Where writes each problem as "offset rule", in order, keeping only
// those of the given severities (all of them when none is given). It
// returns nil when nothing is kept, so a table's nil want compares equal.
func Where(probs []locator.Problem, sevs ...locator.Severity) []string {
	var out []string
	for _, p := range probs {
		keep := len(sevs) == 0
		for _, s := range sevs {
			keep = keep || p.Severity == s
		}
		if keep {
			out = append(out, strconv.Itoa(p.Offset)+" "+p.Rule)
		}
	}
	return out
}

// Rules reads each of ss as an access.Rule (a destination policy's).
func Rules(t testing.TB, ss ...string) []access.Rule {
	t.Helper()
	rs, err := access.ParseRules(ss)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
