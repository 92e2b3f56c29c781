package text_test

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/text"
)

// shared is the project's shared folder, beside the repository (used by
// the benchmarks, which may run without it).
var shared = loctest.SharedDir()

// wrapperCase is one row of conformance/rfc/in-text-wrapped-urls.tsv.
type wrapperCase struct {
	source, raw, want, notes string
	line                     int
}

func readWrapperTSV(t *testing.T) []wrapperCase {
	var cs []wrapperCase
	for _, f := range loctest.ReadTSV(t, "rfc", "in-text-wrapped-urls.tsv") {
		if len(f) < 4 {
			t.Fatalf("bad row %q", f)
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatalf("bad line number in %q", f)
		}
		c := wrapperCase{source: f[0], line: n, raw: unescapeTSV(f[2]), want: unescapeTSV(f[3])}
		if len(f) > 4 {
			c.notes = f[4]
		}
		cs = append(cs, c)
	}
	return cs
}

// unescapeTSV reads the file's escapes: \n a line break, \t a TAB, \\ a
// backslash.
func unescapeTSV(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			case 't':
				b.WriteByte('\t')
				i++
				continue
			case '\\':
				b.WriteByte('\\')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// appendixReading returns, for a row flagged malformed ("contains
// unencoded space not at a line break"), the URL the note says RFC 1738's
// rule gives ("whitespace should be ignored" would give X).
func appendixReading(notes string) (string, bool) {
	const key = `"whitespace should be ignored" would give `
	i := strings.Index(notes, key)
	if i < 0 {
		return "", false
	}
	rest := notes[i+len(key):]
	if j := strings.IndexByte(rest, ')'); j >= 0 {
		rest = rest[:j]
	}
	return rest, true
}

// TestWrappedURLsInRFCs checks every wrapper the RFC texts hold, one row
// at a time: the URL the Appendix rule gives, and for the rows the file
// flags as malformed (an unencoded space away from a line break), the
// Appendix reading as URL and the file's reading (space kept, written
// %20) among the Alternatives.
func TestWrappedURLsInRFCs(t *testing.T) {
	cs := readWrapperTSV(t)
	pass, malformed := 0, 0
	for _, c := range cs {
		ms := text.FindAll(c.raw)
		if len(ms) != 1 {
			t.Errorf("%s:%d %q: %d matches %+v, want 1", c.source, c.line, c.raw, len(ms), ms)
			continue
		}
		m := ms[0]
		ok := m.Wrapped && m.Offset == 0 && m.End == int64(len(c.raw)) && m.Line == 1 && m.Column == 1
		if rule, bad := appendixReading(c.notes); bad {
			malformed++
			alt := strings.ReplaceAll(c.want, " ", "%20")
			ok = ok && m.URL == rule && m.Ambiguous && contains(m.Alternatives, alt)
		} else {
			ok = ok && m.URL == c.want && !m.Ambiguous
		}
		if !ok {
			t.Errorf("%s:%d %q: got %+v, want %q", c.source, c.line, c.raw, m, c.want)
			continue
		}
		pass++
	}
	t.Logf("in-text-wrapped-urls.tsv: %d/%d rows pass (%d flagged malformed)", pass, len(cs), malformed)
	// Measured: every row of the file, 4 of them flagged malformed.
	if pass != 99 || len(cs) != 99 || malformed != 4 {
		t.Errorf("in-text-wrapped-urls.tsv: %d/%d rows pass, %d malformed; measured 99/99, 4", pass, len(cs), malformed)
	}
}

// TestSpecTexts runs the scanner over the spec texts themselves: every
// row of the TSV is found in its file, in order, and every "<URL:" of
// rfc1738.txt begins a match.
func TestSpecTexts(t *testing.T) {
	cs := readWrapperTSV(t)
	bySource := map[string][]wrapperCase{}
	for _, c := range cs {
		bySource[c.source] = append(bySource[c.source], c)
	}
	for src, rows := range bySource {
		data, err := os.ReadFile(loctest.SharedPath(t, "spec", src))
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		ms := text.FindAll(string(data))
		// The rows are in file order; their line numbers come from other
		// copies of rfc1738.txt and rfc1808.txt (a few lines apart), so
		// rows are matched in order, not by line.
		var wrapped []text.Match
		for _, m := range ms {
			if m.Wrapped {
				wrapped = append(wrapped, m)
			}
		}
		k, shifted := 0, 0
		for _, c := range rows {
			want := c.want
			if rule, malformed := appendixReading(c.notes); malformed {
				want = rule
			}
			for k < len(wrapped) && wrapped[k].URL != want {
				k++
			}
			if k == len(wrapped) {
				t.Errorf("%s:%d: %q not found in order", src, c.line, want)
				k = 0
				continue
			}
			if wrapped[k].Line != c.line {
				shifted++
			}
			k++
		}
		if shifted > 0 {
			t.Logf("%s: %d rows found %s", src, shifted, "at other line numbers than the TSV's (its copy of the text differs)")
		}
		t.Logf("%s: %d URLs found, %d wrapped rows of the TSV checked", src, len(ms), len(rows))
		if want, ok := specCounts[src]; !ok || len(ms) != want[0] || len(rows) != want[1] {
			t.Errorf("%s: %d URLs found, %d rows; measured %v", src, len(ms), len(rows), want)
		}
		if src == "rfc1738.txt" {
			starts := map[int64]bool{}
			for _, m := range ms {
				starts[m.Offset] = true
			}
			s, n := string(data), 0
			for i := strings.Index(s, "<URL:"); i >= 0; {
				n++
				if !starts[int64(i)] {
					t.Errorf("rfc1738.txt offset %d: <URL: wrapper not found", i)
				}
				j := strings.Index(s[i+1:], "<URL:")
				if j < 0 {
					break
				}
				i += 1 + j
			}
			t.Logf("rfc1738.txt: all %d <URL:...> wrappers found", n)
			if n != 30 {
				t.Errorf("rfc1738.txt: %d <URL: wrappers, measured 30", n)
			}
		}
	}
}

// specCounts pins, per spec text, the URLs the scanner finds in it and
// the TSV rows that come from it, as measured.
var specCounts = map[string][2]int{
	"rfc1738.txt":               {30, 30},
	"rfc1808.txt":               {45, 43},
	"rfc1630.txt":               {27, 11},
	"draft-ietf-uri-url-03.txt": {21, 15},
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func firstURL(s string) (string, bool) {
	ms := text.FindAll(s)
	if len(ms) == 0 {
		return "", false
	}
	return ms[0].URL, true
}

// xurlsCase is one case of conformance/xurls/xurls_cases.json.
type xurlsCase struct {
	Group  string  `json:"group"`
	Regexp string  `json:"regexp"`
	Input  string  `json:"input"`
	Want   *string `json:"want"`
	Line   int     `json:"line"`
}

// xurlsDifferent lists the xurls cases inside what this scanner promises
// where it answers otherwise, on principle. The value is our answer ("" for
// no URL); the test asserts it.
var xurlsDifferent = map[string]struct{ got, why string }{
	"mailto:foo": {"", "RFC 1738 §3.5: mailto:<rfc822-addr-spec>, and an addr-spec has an \"@\" (RFC 822 §6.1)"},
	"MAILTO:foo": {"", "as mailto:foo"},
	"sms:123": {"", "RFC 5724 §2.2: an sms recipient is an RFC 3966 telephone-subscriber, a global number (\"+\", E.164) " +
		"or a local one with ;phone-context=; \"123\" is neither, and a bare short word after a colon is taken for a label"},
	"http://1080::8:800:200c:417a/path": {"", "an IPv6 address is written in brackets in a URL (RFC 2732 §2); " +
		"unbracketed, \"1080\" is a host and \":8:800...\" no port"},
}

// TestXurlsCases runs mvdan/xurls' own test cases. In scope: the cases run
// with Strict() (a URL needs a scheme), and Relaxed() cases that expect
// no URL. Out of scope: Relaxed() cases expecting a URL without a scheme
// (foo.com, 1.1.1.1, foo@bar.com) — RFC 1738 §2.1 makes the scheme part of
// every URL — where we assert that nothing is found, and
// StrictMatchingScheme cases, which test a caller-chosen scheme pattern.
func TestXurlsCases(t *testing.T) {
	p := loctest.SharedPath(t, "conformance", "xurls", "xurls_cases.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var cs []xurlsCase
	if err := json.Unmarshal(data, &cs); err != nil {
		t.Fatal(err)
	}
	inScope, pass, differ, schemeless, matching := 0, 0, 0, 0, 0
	for _, c := range cs {
		got, _ := firstURL(c.Input)
		want := ""
		if c.Want != nil {
			want = *c.Want
		}
		switch {
		case strings.HasPrefix(c.Regexp, "StrictMatchingScheme"):
			matching++
			// Our scanner has one scheme set; the answer must be what it
			// gives for the same text everywhere, i.e. the Strict answer.
			if w, ok := strictMatchingOurs[c.Input]; !ok || got != w {
				t.Errorf("xurls line %d (%s) %q: got %q, want %q (ours) ", c.Line, c.Regexp, c.Input, got, w)
			}
			continue
		case c.Regexp == "Relaxed()" && want != "":
			schemeless++
			if got != "" {
				t.Errorf("xurls line %d (Relaxed, schemeless) %q: got %q, want no URL", c.Line, c.Input, got)
			}
			continue
		}
		inScope++
		if d, ok := xurlsDifferent[c.Input]; ok {
			differ++
			if got != d.got {
				t.Errorf("xurls line %d %q: got %q, want %q (expected difference: %s)", c.Line, c.Input, got, d.got, d.why)
			}
			continue
		}
		if got != want {
			t.Errorf("xurls line %d %q: got %q, want %q", c.Line, c.Input, got, want)
			continue
		}
		pass++
	}
	t.Logf("xurls: %d/%d in-scope cases agree (%.1f%%), %d differ on principle; out of scope: %d schemeless Relaxed() cases, %d StrictMatchingScheme cases",
		pass, inScope, 100*float64(pass)/float64(inScope), differ, schemeless, matching)
	// Measured; a drop of one case fails.
	if got, want := [5]int{pass, inScope, differ, schemeless, matching}, xurlsMeasured; got != want {
		t.Errorf("xurls: pass, in scope, differ, schemeless, matching = %v; measured %v", got, want)
	}
}

// xurlsMeasured is what TestXurlsCases measures: cases that agree, cases
// in scope, principled differences, schemeless Relaxed() cases and
// StrictMatchingScheme cases.
var xurlsMeasured = [5]int{163, 167, 4, 111, 14}

// strictMatchingOurs is what the scanner finds in the inputs xurls runs
// through StrictMatchingScheme, a pattern chosen by the caller.
var strictMatchingOurs = map[string]string{
	"foo.com":                      "",
	"foo@bar.com":                  "",
	"http://foo":                   "http://foo",
	"Http://foo":                   "Http://foo",
	"https://foo":                  "https://foo", // known scheme; xurls' pattern there lists only http, ftp(s), mailto
	"ftp://foo":                    "ftp://foo",
	"ftps://foo":                   "ftps://foo",
	"mailto:foo":                   "", // see xurlsDifferent
	"MAILTO:foo":                   "",
	"sms:123":                      "", // see xurlsDifferent
	"git+https://foo":              "git+https://foo",
	"randomtexthttp://foo.bar/etc": "http://foo.bar/etc", // a known scheme glued to a word
}

type linkifyCase struct {
	Line  int     `json:"line"`
	Input string  `json:"input"`
	Want  *string `json:"want"`
}

// linkifyDifferent lists the linkify-it cases inside what this scanner
// promises where it answers otherwise, on principle.
var linkifyDifferent = map[string]struct{ got, why string }{
	`http://foo.com/blah_blah_"doublequoted"`: {"http://foo.com/blah_blah_",
		"RFC 1738 §2.2: the quote mark \"\"\" is used to delimit URLs in some systems; it ends a bare URL (as in xurls)"},
	"_http://example.com": {"http://example.com",
		"\"_\" is not a scheme character (RFC 1738 §2.1), so the scheme begins after it (xurls agrees: _http://foo.com/bar_)"},
}

// TestLinkifyCases runs linkify-it's fixtures. In scope: links whose
// expected text has a scheme, and every not-link. Out of scope: links
// without a scheme (example.com, user@domain.com, //localhost), where we
// assert that nothing with a scheme is invented.
func TestLinkifyCases(t *testing.T) {
	loctest.SharedPath(t, "conformance", "linkify-it", "links.json") // fails when missing
	var links, notLinks []linkifyCase
	for _, f := range []struct {
		name string
		to   *[]linkifyCase
	}{{"links.json", &links}, {"not_links.json", &notLinks}} {
		data, err := os.ReadFile(loctest.SharedPath(t, "conformance", "linkify-it", f.name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, f.to); err != nil {
			t.Fatal(err)
		}
	}
	inScope, pass, differ, outScope := 0, 0, 0, 0
	check := func(c linkifyCase, want string) {
		got, _ := firstURL(c.Input)
		inScope++
		if d, ok := linkifyDifferent[c.Input]; ok {
			differ++
			if got != d.got {
				t.Errorf("linkify line %d %q: got %q, want %q (expected difference: %s)", c.Line, c.Input, got, d.got, d.why)
			}
			return
		}
		if got != want {
			t.Errorf("linkify line %d %q: got %q, want %q", c.Line, c.Input, got, want)
			return
		}
		pass++
	}
	for _, c := range links {
		want := *c.Want
		if !hasScheme(want) {
			outScope++
			if got, ok := firstURL(c.Input); ok && !strings.Contains(c.Input, got) {
				t.Errorf("linkify line %d %q: invented %q", c.Line, c.Input, got)
			} else if ok {
				t.Errorf("linkify line %d %q (schemeless %q): got %q, want no URL", c.Line, c.Input, want, got)
			}
			continue
		}
		check(c, want)
	}
	for _, c := range notLinks {
		check(c, "")
	}
	t.Logf("linkify-it: %d/%d in-scope cases agree (%.1f%%), %d differ on principle; %d schemeless links out of scope",
		pass, inScope, 100*float64(pass)/float64(inScope), differ, outScope)
	// Measured; a drop of one case fails.
	if got, want := [4]int{pass, inScope, differ, outScope}, [4]int{118, 120, 2, 35}; got != want {
		t.Errorf("linkify-it: pass, in scope, differ, schemeless = %v; measured %v", got, want)
	}
}

// hasScheme reports whether s begins with scheme ":" ("//" or a mailto).
func hasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return false
	}
	for _, c := range s[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}
