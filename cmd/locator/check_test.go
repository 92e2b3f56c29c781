package main

import (
	"strings"
	"testing"
)

// TestCheckLongInput: past caretWidth columns, check writes the input
// once and each problem under an excerpt of it, the caret under the
// offset, "…" where the excerpt is cut (as a compiler shows a long
// line), so its output grows with the input plus the problems. A caret
// padded to each offset made 130 MB of output for "news:" and 16,000 "<".
func TestCheckLongInput(t *testing.T) {
	a, b := strings.Repeat("a", 200), strings.Repeat("b", 200)
	in := "http://h/" + a + "~" + b
	code, out, _ := runCLI(t, "", "check", in)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := in + "\n" +
		"…" + a[:excerptContext] + "~" + b[:excerptContext-1] + "…\n" +
		strings.Repeat(" ", 1+excerptContext) + "^ violation (urlpath) at 209: unsafe character '~' must be encoded (RFC 1738 §2.2)\n\n"
	if out != want {
		t.Errorf("report:\n%s\nwant:\n%s", out, want)
	}

	// At the edges the excerpt is not cut, and multi-byte characters
	// and controls take one column each.
	in = "http://h/\x1bé" + strings.Repeat("c", caretWidth) + "~"
	_, out, _ = runCLI(t, "", "check", in)
	lines := strings.Split(out, "\n")
	if bad := firstControl(out); bad >= 0 {
		t.Fatalf("control octet at %d of %q", bad, out)
	}
	if len(lines) < 3 || lines[1] != "http://h/?é"+strings.Repeat("c", excerptContext-2)+"…" ||
		!strings.HasPrefix(lines[2], strings.Repeat(" ", 9)+"^ violation (urlpath) at 9:") {
		t.Errorf("report at the start:\n%s", out)
	}
	if i := strings.Index(out, "\n…"+strings.Repeat("c", excerptContext)+"~\n"+strings.Repeat(" ", 1+excerptContext)+"^ violation (urlpath) at "); i < 0 {
		t.Errorf("report at the end:\n%s", out)
	}

	// Linear: twice the input adds only the input's own length, the
	// problems and their excerpts being the same (at most MaxProblems
	// of the core and of the scheme's rules, each list then summed up).
	size := func(n int) int {
		_, out, _ := runCLI(t, "", "check", "news:"+strings.Repeat("<", n))
		return len(out)
	}
	if s1, s2 := size(16000), size(32000); s2-s1 != 16000 || s1 > 16000+64000 {
		t.Errorf("reports of %d and %d bytes for inputs of 16,000 and 32,000", s1, s2)
	}
}
