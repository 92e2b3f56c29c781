package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// extractRun runs the command in-process with stdin.
func extractRun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"extract"}, args...), &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

const appendixMail = `Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
      type=d> but you can probably pick it up from <URL:ftp://ds.in
      ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.
      net/instructions/overview.html#WARNING>.
`

func TestExtractCommand(t *testing.T) {
	dir := t.TempDir()
	f1 := filepath.Join(dir, "a.txt")
	f2 := filepath.Join(dir, "b.txt")
	if err := os.WriteFile(f1, []byte(appendixMail), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f2, []byte("see http://b.example/x. note: 10:30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stdin string
		args  []string
		code  int
		out   string
	}{
		{appendixMail, nil, 0,
			"ftp://info.cern.ch/pub/www/doc;type=d\nftp://ds.internic.net/rfc\nhttp://ds.internic.net/instructions/overview.html#WARNING\n"},
		{"x http://a.example/ y", []string{"-"}, 0, "http://a.example/\n"},
		{"", []string{f2, f1}, 0,
			"http://b.example/x\nftp://info.cern.ch/pub/www/doc;type=d\nftp://ds.internic.net/rfc\nhttp://ds.internic.net/instructions/overview.html#WARNING\n"},
		{"stdin http://s.example/", []string{f2, "-"}, 0, "http://b.example/x\nhttp://s.example/\n"},
		{"note: 10:30 <not a url> http://", nil, 1, ""},
		{"<URL:../g> <URL:#s>", []string{"--base", "http://a/b/c/d;p?q"}, 0, "http://a/b/g\nhttp://a/b/c/d;p?q#s\n"},
		{"<URL:?y>", []string{"--base=http://a/b/c/d;p?q", "--rules", "rfc1808"}, 0, "http://a/b/c/d;p?y\n"},
		{"<URL:../g>", nil, 1, ""},
		{"", []string{"--base", "no scheme"}, 2, ""},
		{"", []string{"--rules", "rfc2396"}, 2, ""},
		{"", []string{"--max-len", "0"}, 2, ""},
	} {
		code, out, errOut := extractRun(t, tc.stdin, tc.args...)
		if code != tc.code || out != tc.out {
			t.Errorf("%q: exit %d, stdout %q (stderr %q); want %d, %q", tc.args, code, out, errOut, tc.code, tc.out)
		}
		if code == 2 && !strings.Contains(errOut, "usage: locator extract") {
			t.Errorf("%q: usage error without usage: %q", tc.args, errOut)
		}
	}
}

func TestExtractJSON(t *testing.T) {
	in := "line one\n<URL:http://c.example/long-\n   path> and URL:news:comp.x\n"
	code, out, errOut := extractRun(t, in, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines: %q", len(lines), out)
	}
	var recs []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		recs = append(recs, m)
	}
	want := []map[string]any{
		{"url": "http://c.example/long-path", "offset": 9.0, "line": 2.0, "column": 1.0, "wrapped": true,
			"ambiguous": true, "alternatives": []any{"http://c.example/longpath"}},
		{"url": "news:comp.x", "offset": 50.0, "line": 3.0, "column": 14.0, "wrapped": false,
			"ambiguous": false, "alternatives": []any{}},
	}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("got  %v\nwant %v", recs, want)
	}

	// A named file adds "file"; --base adds "ref".
	dir := t.TempDir()
	f := filepath.Join(dir, "m.txt")
	if err := os.WriteFile(f, []byte("<URL:g>"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = extractRun(t, "", "--json", "--base", "http://a/b/c", f)
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); code != 0 || err != nil || rec["ref"] != "g" || rec["file"] != f || rec["url"] != "http://a/b/g" {
		t.Errorf("exit %d, %q", code, out)
	}
}

func TestExtractTooLong(t *testing.T) {
	in := "a http://a.example/" + strings.Repeat("x", 100) + " b http://ok.example/\n"
	code, out, errOut := extractRun(t, in, "--max-len", "64")
	if code != 0 || out != "http://ok.example/\n" || !strings.Contains(errOut, "line 1, column 3 (offset 2)") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestExtractHelp(t *testing.T) {
	code, out, _ := extractRun(t, "", "--help")
	if code != 0 || !strings.Contains(out, "usage: locator extract [--json] [--base URL]") || !strings.Contains(out, "-max-len") {
		t.Errorf("exit %d: %q", code, out)
	}
}

// errReader fails after its data.
type errReader struct{ data string }

func (r *errReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, errors.New("disk on fire")
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// failingWriter refuses every write, as a closed pipe does.
type failingWriter struct{ writes int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.writes++
	return 0, errors.New("broken pipe")
}

// TestExtractStatus: the project's convention, 0 found, 1 nothing found,
// 2 trouble (usage, an input that cannot be read, a write error); each
// message names the command once.
func TestExtractStatus(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	if err := os.WriteFile(good, []byte("see http://b.example/x.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.txt")
	check := func(name string, code, wantCode int, out, wantOut, errOut, wantErr string) {
		t.Helper()
		if code != wantCode || out != wantOut || !strings.Contains(errOut, wantErr) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d, %q, stderr with %q", name, code, out, errOut, wantCode, wantOut, wantErr)
		}
		for _, l := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
			if n := strings.Count(l, "extract"); l != "" && n != 1 {
				t.Errorf("%s: %q names the command %d times", name, l, n)
			}
		}
	}
	// An unreadable file is trouble; the other inputs are still read.
	code, out, errOut := extractRun(t, "", missing, good)
	check("missing file", code, 2, out, "http://b.example/x\n", errOut, "locator extract: open "+missing+": ")
	code, out, errOut = extractRun(t, "", missing)
	check("only a missing file", code, 2, out, "", errOut, "no such file")
	if strings.Contains(errOut, "usage:") {
		t.Errorf("a missing file is not a usage error: %q", errOut)
	}
	// A read error, after what was read.
	var so, se bytes.Buffer
	code = run([]string{"extract"}, &env{stdin: &errReader{"http://a.example/ "}, stdout: &so, stderr: &se})
	check("read error", code, 2, so.String(), "http://a.example/\n", se.String(), "locator extract: standard input: disk on fire")
	// A write error: at the final flush, and at once when the output
	// outgrows the buffer.
	for _, in := range []string{"http://a.example/", strings.Repeat("http://a.example/long/path/to/something\n", 10000)} {
		fw := &failingWriter{}
		se.Reset()
		code = run([]string{"extract"}, &env{stdin: strings.NewReader(in), stdout: fw, stderr: &se})
		check("write error", code, 2, "", "", se.String(), "locator extract: writing standard output: ")
		if fw.writes != 1 || strings.Count(se.String(), "\n") != 1 {
			t.Errorf("write error: %d writes, stderr %q", fw.writes, se.String())
		}
	}
	// Nothing found is 1, with nothing on stderr.
	code, out, errOut = extractRun(t, "note: 10:30 Fax:+1 555 9999")
	check("nothing found", code, 1, out, "", errOut, "")
	if errOut != "" {
		t.Errorf("nothing found: stderr %q", errOut)
	}
}

// TestExtractPartial: partial forms met without --base are reported once
// per run on stderr, with the first one's place.
func TestExtractPartial(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "m.txt")
	if err := os.WriteFile(f, []byte("x\n  <URL:#frag> http://a.example/"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := extractRun(t, "<URL:../g> and <URL:g>", "-", f)
	want := "locator extract: 3 partial form(s) in <URL:...> wrappers not resolved, no --base given (the first: standard input, line 1, column 1: \"../g\")\n"
	if code != 0 || out != "http://a.example/\n" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = extractRun(t, "<URL:../g>", "--base", "http://a/b/c")
	if code != 0 || errOut != "" {
		t.Errorf("with --base: exit %d, stderr %q", code, errOut)
	}
}

// TestExtractQuotedAndHTML: a wrapper continued in a quoted reply, and
// HTML by flag or by its first bytes.
func TestExtractQuotedAndHTML(t *testing.T) {
	for _, tc := range []struct {
		in   string
		args []string
		out  string
	}{
		{"> see <URL:ftp://host.dom/pub/some/\n> file.txt> ok\n", nil, "ftp://host.dom/pub/some/file.txt\n"},
		{`<p><a href="http://a.example/?x=1&amp;y=2">x</a> &lt;URL:ftp://a.example/f&gt;`, []string{"--html"},
			"http://a.example/?x=1&y=2\nftp://a.example/f\n"},
		{"<!DOCTYPE html>\n<a href=\"http://a.example/?x=1&amp;y=2\">", nil, "http://a.example/?x=1&y=2\n"},
		{"plain http://a.example/?x=1&amp;y=2", nil, "http://a.example/?x=1&amp;y=2\n"},
	} {
		code, out, errOut := extractRun(t, tc.in, tc.args...)
		if code != 0 || out != tc.out {
			t.Errorf("%q %q: exit %d, stdout %q, stderr %q; want %q", tc.in, tc.args, code, out, errOut, tc.out)
		}
	}
}

// TestExtractHTMLRelative: with --html, a relative link of an element is
// given resolved against --base, or against the document's <base href>
// (itself resolved against --base), in document order with the URLs of
// the text; without any base it is counted on stderr, not given.
func TestExtractHTMLRelative(t *testing.T) {
	doc := "<p>see http://t.example/x</p>\n<a href=\"a.txt\">a</a> <img src='../i.png'> <a href=\"#top\">top</a>\n<a href=\"http://abs.example/\">abs</a>\n"
	for _, tc := range []struct {
		name, doc string
		args      []string
		code      int
		out, err  string
	}{
		{"--base", doc, []string{"--html", "--base", "http://h.example/d/p.html"}, 0,
			"http://t.example/x\nhttp://h.example/d/a.txt\nhttp://h.example/i.png\nhttp://abs.example/\n", ""},
		{"no base", doc, []string{"--html"}, 0,
			"http://t.example/x\nhttp://abs.example/\n", "2 relative link(s) in HTML attributes not resolved"},
		{"<base href>", "<!DOCTYPE html><base href=\"/b/\"><a href=\"a.txt\">", []string{"--base", "http://h.example/d/p.html"}, 0,
			"http://h.example/b/a.txt\n", ""},
		{"absolute <base href> alone", "<html><base href=\"ftp://f.example/pub/\"><a href=\"a.txt\">", nil, 0,
			"ftp://f.example/pub/\nftp://f.example/pub/a.txt\n", ""}, // the base is a URL of the text too
		{"only a relative link, no base", "<html><a href=\"a.txt\">", nil, 1, "", "<a href=\"a.txt\">"},
	} {
		code, out, errOut := extractRun(t, tc.doc, tc.args...)
		if code != tc.code || out != tc.out || !strings.Contains(errOut, tc.err) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d, %q, stderr with %q", tc.name, code, out, errOut, tc.code, tc.out, tc.err)
		}
	}
	// --json: the link's place and the reference as written.
	code, out, errOut := extractRun(t, doc, "--html", "--json", "--base", "http://h.example/d/p.html")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%q", out)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &rec); err != nil {
		t.Fatal(err)
	}
	if rec["url"] != "http://h.example/d/a.txt" || rec["ref"] != "a.txt" || rec["line"] != 2.0 || rec["column"] != 10.0 || rec["offset"] != 39.0 {
		t.Errorf("record %v", rec)
	}
}
