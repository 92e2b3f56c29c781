package news

import (
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

// TestProblemLimit: "news:" and a group of 1 MiB of "<" breaks the
// group grammar of RFC 1738 §5 at every octet, and the core's urlpath
// too; each list is cut at locator.MaxProblems with one summary, so the
// URL keeps 202 problems (it kept 1,048,677, 168 MB of live heap) and
// little memory beyond its input.
func TestProblemLimit(t *testing.T) {
	in := "news:" + strings.Repeat("<", 1<<20)
	u, grown := loctest.ParseRetained(t, in)
	probs := u.Problems()
	if len(probs) != 202 {
		t.Fatalf("%d problems, want 202 (measured: 100 and a summary from the core, as many from the rules)", len(probs))
	}
	var group, summaries int
	for _, q := range probs {
		switch q.Rule {
		case "group":
			group++
		case "url":
			summaries++
			if !strings.HasPrefix(q.Message, "1048476 more problems") || q.Severity != locator.Violation {
				t.Errorf("summary %+v", q)
			}
		}
	}
	if group != locator.MaxProblems || summaries != 2 {
		t.Errorf("%d group problems and %d summaries, want %d and 2", group, summaries, locator.MaxProblems)
	}
	if grown > 1<<20 {
		t.Errorf("the URL holds %d bytes beyond its input", grown)
	}
}
