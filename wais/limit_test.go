package wais

import (
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

// TestProblemLimit: a wpath of 512Ki "a/" writes "/" unencoded in the
// wpath (RFC 1738 §5: wpath = *uchar) 524,287 times; the rules' list is
// cut at locator.MaxProblems with one summary, so the URL keeps 101
// problems (it kept 524,287, 28 MB of live heap).
func TestProblemLimit(t *testing.T) {
	in := "wais://h/db/" + strings.Repeat("a/", 512<<10)
	u, grown := loctest.ParseRetained(t, in)
	probs := u.Problems()
	if len(probs) != locator.MaxProblems+1 {
		t.Fatalf("%d problems, want %d", len(probs), locator.MaxProblems+1)
	}
	// The first "/" ends the wtype; the 101st of the wpath is the first
	// left out.
	want := locator.Problem{Offset: len("wais://h/db/a/") + 2*locator.MaxProblems + 1, Severity: locator.Violation, Rule: "url",
		Message: "524187 more problems from the scheme's rules from here on are not listed (at most 100 are)"}
	if last := probs[locator.MaxProblems]; last != want {
		t.Errorf("summary %+v, want %+v", last, want)
	}
	if grown > 1<<20 {
		t.Errorf("the URL holds %d bytes beyond its input", grown)
	}
}
