package file

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

func TestPartsAndCheck(t *testing.T) {
	tests := []struct {
		in, parts string
		probs     []string
	}{
		{"file://vms.host.edu/disk$user/my/notes/note12345.txt", `{"host":"vms.host.edu","path":"/disk$user/my/notes/note12345.txt"}`, nil},
		{"file:///etc/motd", `{"host":"","path":"/etc/motd"}`, nil},
		{"file://localhost/a%20b/c%2Fd", `{"host":"localhost","path":"/a b/c/d"}`, nil},
		{"file:///", `{"host":"","path":"/"}`, nil},
		{"file:///a?b", `{"host":"","path":"/a?b"}`, nil},
		{"file:/etc/motd", `{"path":"/etc/motd"}`, nil},
		{"file://host", `{"host":"host"}`, []string{"11 fileurl"}},
		{"file://u@host/x", `{"host":"host","path":"/x"}`, []string{"7 fileurl"}},
		{"file://host:21/x", `{"host":"host","path":"/x"}`, []string{"11 fileurl"}},
		{"file:///a;b", `{"host":"","path":"/a;b"}`, []string{"9 fsegment"}},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		b, err := json.Marshal(Rules{}.Parts(u))
		if err != nil || string(b) != tt.parts {
			t.Errorf("Parts(%q) = %s %v, want %s", tt.in, b, err, tt.parts)
		}
		got := loctest.Where((Rules{}).Check(u, locator.Report{}).Problems())
		if !reflect.DeepEqual(got, tt.probs) {
			t.Errorf("Check(%q) = %q, want %q", tt.in, got, tt.probs)
		}
	}
}

func TestLocalPath(t *testing.T) {
	tests := []struct {
		in, unix, windows string // "" = error
	}{
		{"file:///etc/motd", "/etc/motd", `\etc\motd`},
		{"file://LocalHost/etc/motd", "/etc/motd", `\etc\motd`},
		{"file:///a%20b/%E3%83%86", "/a b/\xe3\x83\x86", "\\a b\\\xe3\x83\x86"},
		{"file:///C:/x/y", "/C:/x/y", `C:\x\y`},
		{"file:///c|/x", "/c|/x", `C:\x`},
		{"file:///c:", "/c:", `C:\`},
		{"file://server/share/x", "", `\\server\share\x`},
		{"file://c:/x", "", `C:\x`},
		{"file:///a%2Fb", "", ""},
		{"file:///a%5Cb", "/a\\b", ""},
		{"file:///a%00b", "", ""},
		{"file:rel/x", "", ""},
		{"file://host", "", `\\host\`},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		for _, c := range []struct {
			st   Style
			want string
		}{{Unix, tt.unix}, {Windows, tt.windows}} {
			got, err := LocalPath(u, c.st)
			if c.want == "" {
				if _, ok := err.(*PathError); !ok {
					t.Errorf("LocalPath(%q, %v) = %q %v, want a *PathError", tt.in, c.st, got, err)
				}
				continue
			}
			if err != nil || got != c.want {
				t.Errorf("LocalPath(%q, %v) = %q %v, want %q", tt.in, c.st, got, err, c.want)
			}
		}
	}
	if _, err := LocalPath(loctest.MustParse(t, "ftp://h/x"), Unix); err == nil {
		t.Error("LocalPath of an ftp URL did not fail")
	}
	// The error names the offset of the bad segment in the input.
	_, err := LocalPath(loctest.MustParse(t, "<URL:file:///ok/a%2Fb>"), Unix)
	if pe, ok := err.(*PathError); !ok || pe.Problem.Offset != 16 || pe.Problem.Rule != "fsegment" {
		t.Errorf("LocalPath error = %v, want offset 16 rule fsegment", err)
	}
}

func TestFromLocalPath(t *testing.T) {
	tests := []struct {
		path  string
		style Style
		want  string // "" = error
	}{
		{"/etc/motd", Unix, "file:///etc/motd"},
		{"/", Unix, "file:///"},
		{"/a b;c#d%e?f", Unix, "file:///a%20b%3Bc%23d%25e?f"},
		{"rel/x", Unix, "rel/x"},
		{"a:b/c", Unix, "a%3Ab/c"},
		{`C:\x\y z`, Windows, "file:///C:/x/y%20z"},
		{`c:/x`, Windows, "file:///C:/x"},
		{`\\server\share\x`, Windows, "file://server/share/x"},
		{`\x`, Windows, "file:///x"},
		{`a\b`, Windows, "a/b"},
		{`C:x`, Windows, ""},
		{`C:`, Windows, ""},
		{`\\bad host\x`, Windows, ""},
		{"", Unix, ""},
		{"/a\x00b", Unix, ""},
	}
	for _, tt := range tests {
		got, err := FromLocalPath(tt.path, tt.style)
		if tt.want == "" {
			if _, ok := err.(*PathError); !ok {
				t.Errorf("FromLocalPath(%q, %v) = %q %v, want a *PathError", tt.path, tt.style, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("FromLocalPath(%q, %v) = %q %v, want %q", tt.path, tt.style, got, err, tt.want)
		}
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		r    URL
		want string
	}{
		{URL{Host: "vms.host.edu", Path: "/disk$user/my/notes/note12345.txt"}, "file://vms.host.edu/disk$user/my/notes/note12345.txt"},
		{URL{Path: "/a b;c"}, "file:///a%20b%3Bc"},
		{URL{Host: "localhost", Path: "/"}, "file://localhost/"},
	}
	for _, tt := range tests {
		if got, err := tt.r.Build(); err != nil || got != tt.want {
			t.Errorf("Build(%+v) = %q %v, want %q", tt.r, got, err, tt.want)
		}
	}
	for _, r := range []URL{{Path: "rel"}, {Host: "a/b", Path: "/x"}, {Host: "a_b", Path: "/x"}, {Host: "h:1", Path: "/"}} {
		if s, err := r.Build(); err == nil {
			t.Errorf("Build(%+v) = %q, want an error", r, s)
		} else if _, ok := err.(*locator.BuildError); !ok {
			t.Errorf("Build(%+v) error %T, want *locator.BuildError", r, err)
		}
	}
}

// TestFrom: From reads every file URL, and refuses a URL of another
// scheme with a *locator.SchemeError of field "url"; Parse is
// locator.Parse then From.
func TestFrom(t *testing.T) {
	for in, want := range map[string]URL{
		"file://vms.host.edu/disk$user/a%20b": {Host: "vms.host.edu", Path: "/disk$user/a b"},
		"file:///etc/motd":                    {Path: "/etc/motd"},
		"file://h":                            {Host: "h", Path: "/"},
		"file:/etc/motd":                      {Path: "/etc/motd"},
	} {
		if f, err := Parse(in); err != nil || *f != want {
			t.Errorf("Parse(%s) = %+v %v, want %+v", in, f, err, want)
		}
	}
	if f, err := Parse("file://h:99999/x"); err == nil {
		t.Errorf("Parse(file://h:99999/x) = %+v, want a *locator.ParseError", f)
	} else if _, ok := err.(*locator.ParseError); !ok {
		t.Errorf("Parse(file://h:99999/x) error %T, want *locator.ParseError", err)
	}
	for _, s := range []string{"ftp://h/x", "http://h/"} {
		f, err := From(loctest.MustParse(t, s))
		se, ok := err.(*locator.SchemeError)
		if f != nil || !ok || se.Scheme != "file" || se.Field != "url" {
			t.Errorf("From(%s) = %+v %v, want a *locator.SchemeError of field url", s, f, err)
		}
	}
}

// perlDiff lists where our conversion departs from libwww-perl's URI::file
// (perl-uri/extracted/file_url_to_os_path.tsv), keyed by source, URL,
// style and direction ("to" path, "from" path), with the reason; the
// value "" means "we give an error".
var perlDiff = map[string]struct{ ours, why string }{
	// A host other than "" or "localhost" is another machine (§3.10);
	// URI writes a path beginning "//", which Unix leaves
	// implementation-defined.
	"file.t file://foo3445x/bar Unix to":     {"", "another host is not a local Unix path"},
	"old-file.t file://foo3445x/bar Unix to": {"", "another host is not a local Unix path"},
	"file.t file://a:/ Unix to":              {"", "a drive letter is not a Unix host"},
	"old-file.t file://a:/ Unix to":          {"", "a drive letter is not a Unix host"},
	// RFC 1738 §5 fileurl begins "file://"; old URI wrote "file:/".
	"old-file.t file:/foo/bar Unix from":    {"file:///foo/bar", `fileurl requires "//"`},
	"old-file.t file:/foo/bar Windows from": {"file:///foo/bar", `fileurl requires "//"`},
	"old-file.t file:/ Unix from":           {"file:///", `fileurl requires "//"`},
	"old-file.t file:/ Windows from":        {"file:///", `fileurl requires "//"`},
	// "A:relative" cannot be read as host and port: the port is digits.
	"old-file.t file://A:relative/ Unix to":    {"", "not a URL: the port is not digits (RFC 1738 §3.1)"},
	"old-file.t file://A:relative/ Windows to": {"", "not a URL: the port is not digits (RFC 1738 §3.1)"},
	// "A:" is drive A's current directory, which no URL names; URI
	// restores the text it read.
	"old-file.t file://A:relative/ Windows from": {"", `"A:" is relative to the drive's current directory`},
}

// TestPerlURIFile converts every URL of file_url_to_os_path.tsv to Unix
// and Windows paths and, where the row says it round-trips, back. The
// Mac OS (classic) column is not a supported style.
func TestPerlURIFile(t *testing.T) {
	rows, diffs := 0, 0
	for _, f := range loctest.ReadTSV(t, "perl-uri", "extracted", "file_url_to_os_path.tsv") {
		src, url := f[0], f[1]
		rows++
		for _, c := range []struct {
			st   Style
			want string
		}{{Unix, f[2]}, {Windows, f[3]}} {
			want, oneWay := strings.CutPrefix(c.want, "!")
			key := src + " " + url + " " + c.st.String()
			// URL to path.
			var got string
			var err error
			if strings.HasPrefix(url, "file:") {
				var u *locator.URL
				if u, err = locator.Parse(url); err == nil {
					got, err = LocalPath(u, c.st)
				}
			} else {
				got, err = RelativePath(url, c.st)
			}
			if d, ok := perlDiff[key+" to"]; ok {
				diffs++
				if (d.ours == "") != (err != nil) || (err == nil && got != d.ours) || got == want {
					t.Errorf("%s to path: %q %v; listed difference %q (%s), URI %q", key, got, err, d.ours, d.why, want)
				}
			} else if err != nil || got != want {
				t.Errorf("%s to path: %q %v, want %q", key, got, err, want)
			}
			if oneWay {
				continue
			}
			// Path back to URL.
			back, err := FromLocalPath(want, c.st)
			if d, ok := perlDiff[key+" from"]; ok {
				diffs++
				if (d.ours == "") != (err != nil) || back != d.ours || back == url {
					t.Errorf("%s from path %q: %q %v; listed difference %q (%s)", key, want, back, err, d.ours, d.why)
				}
			} else if err != nil || back != url {
				t.Errorf("%s from path %q: %q %v, want %q", key, want, back, err, url)
			}
		}
	}
	if rows != 24 || diffs != len(perlDiff) {
		t.Errorf("%d rows, %d differences met, %d listed", rows, diffs, len(perlDiff))
	}
}

// TestCurlFile reads the file rows of curl/url_to_protocol.tsv. Curl's
// "local file" is relative to its working directory (%PWD); our
// LocalPath is compared with it, and the differences are listed.
func TestCurlFile(t *testing.T) {
	const pwd = "/tmp/curltest"
	diff := map[string]struct{ ours, why string }{
		// §5 fsegment allows "?": RFC 1738 file URLs have no search part.
		"1220": {pwd + "/log/test1220.txt?a_query=foobar", `curl cuts a query at "?"; fsegment allows "?", so it is part of the name`},
		// Only "" and "localhost" are this machine (§3.10).
		"2071": {"", `curl takes 127.0.0.1 as this machine; §3.10 names only "" and "localhost"`},
		// The url-path "//tmp/..." has an empty first segment.
		"2072": {"//" + pwd + "/log/test2072.txt", `curl drops the extra "/"s; the empty segments are kept (Linux reads "///" as "/")`},
		"201":  {"/" + pwd + "/log/non-existent-file.txt", `as 2072; curl then fails to read the missing file`},
	}
	n := 0
	for _, f := range loctest.ReadTSV(t, "curl", "url_to_protocol.tsv") {
		if len(f) < 7 || f[1] != "file" {
			continue
		}
		test, exit := f[0], f[6]
		r := strings.NewReplacer("%FILE_PWD", pwd, "%PWD", pwd, "%LOGDIR", "log", "%TESTNUMBER", test)
		want := ""
		if local, ok := strings.CutPrefix(f[5], "local file: "); ok && exit == "0" {
			want = pwd + "/" + r.Replace(strings.ReplaceAll(strings.ReplaceAll(local, "%hex[", ""), "]hex%", ""))
		}
		for _, s := range strings.Fields(f[3]) {
			n++
			u := loctest.MustParse(t, r.Replace(s))
			got, err := LocalPath(u, Unix)
			if d, ok := diff[test]; ok {
				if (d.ours == "") != (err != nil) || got != d.ours {
					t.Errorf("curl test %s: %q %v; listed difference %q (%s)", test, got, err, d.ours, d.why)
				}
				continue
			}
			if exit != "0" {
				// 1145: curl refuses another host; so do we.
				if err == nil {
					t.Errorf("curl test %s (exit %s): %q, want an error", test, exit, got)
				}
				continue
			}
			// 1703's file name is UTF-8, written %hex[...]hex% in the TSV.
			want = strings.NewReplacer("%E3", "\xe3", "%83", "\x83", "%86", "\x86", "%82", "\x82", "%B9", "\xb9", "%88", "\x88").Replace(want)
			if err != nil || got != want {
				t.Errorf("curl test %s: %q %v, want %q", test, got, err, want)
			}
		}
	}
	if n != 9 {
		t.Errorf("%d file URLs, want 9", n)
	}
}

// TestRFCExample checks RFC 1738 §3.10's VMS example from
// rfc/rfc1738-normative-examples.tsv.
func TestRFCExample(t *testing.T) {
	n := 0
	for _, f := range loctest.ReadTSV(t, "rfc", "rfc1738-normative-examples.tsv") {
		if len(f) < 4 || !strings.HasPrefix(f[1], "file:") {
			continue
		}
		n++
		u := loctest.MustParse(t, f[1])
		r, err := From(u)
		if err != nil {
			t.Fatal(err)
		}
		segs := strings.Split(strings.TrimPrefix(r.Path, "/"), "/")
		want := `host="` + r.Host + `"; path segments ` + strings.Join(segs, ", ")
		if !strings.HasPrefix(f[3], want+" ") || !u.Conforms() {
			t.Errorf("%s: %s, want %s", f[1], want, f[3])
		}
	}
	if n != 1 {
		t.Errorf("%d file rows, want 1", n)
	}
}

var (
	_ locator.Rules     = Rules{}
	_ locator.Explainer = Rules{}
)
