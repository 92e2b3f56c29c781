package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// explainRun runs the locator command line with stdin and returns the
// exit status, stdout and stderr.
func explainRun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

// fakeRules show that explain asks any scheme's rules through
// locator.Explainer, with no list of scheme names of its own.
type fakeRules struct{}

func (fakeRules) Check(_ *locator.URL, r locator.Report) locator.Report { return r }
func (fakeRules) Parts(*locator.URL) any                                { return nil }
func (fakeRules) Explain(u *locator.URL) string                         { return "fake plan for " + u.Host() + "\n" }

func init() { locator.Register("x-explain-test", fakeRules{}) }

func TestExplainCommand(t *testing.T) {
	tests := []struct {
		args []string
		code int
		has  []string
	}{
		{[]string{"explain", "ftp://myname@host.dom/%2Fetc/motd"}, 0,
			[]string{"connect to host.dom port 21", "USER myname", "CWD /etc", "TYPE I", "transferred in TYPE I (image: the exact octets)", "add ;type=a", "RETR motd"}},
		{[]string{"explain", "<URL:ftp://info.cern.ch/pub/www/doc;type=d>"}, 0,
			[]string{"USER anonymous", "CWD pub", "CWD www", "NLST doc"}},
		{[]string{"explain", "http://ds.internic.net/instructions/overview.html#WARNING"}, 0,
			[]string{"GET /instructions/overview.html HTTP/1.0", "Host: ds.internic.net", `fragment "WARNING" is not sent`}},
		{[]string{"explain", "https://h/x"}, 0, []string{"RFC 2818", "not part of RFC 1738", "port 443"}},
		// through a proxy, https is a CONNECT, then the request in the tunnel
		{[]string{"explain", "https://h/x"}, 0, []string{"Through a proxy: CONNECT h:443 HTTP/1.1\n    Host: h:443\n", "in it\n    GET /x HTTP/1.0\n    Host: h\n"}},
		// the A-label on the wire
		{[]string{"explain", "http://BÜCHER.example/"}, 0, []string{"connect to xn--bcher-kva.example port 80", "GET / HTTP/1.0\n    Host: xn--bcher-kva.example\n",
			"Through a proxy: GET http://xn--bcher-kva.example/ HTTP/1.0"}},
		{[]string{"explain", "telnet://guest@h/"}, 0, []string{"advisory only", `"guest"`}},
		{[]string{"explain", "nntp://news.example.com/comp.lang.go/12"}, 0, []string{"GROUP comp.lang.go", "ARTICLE 12"}},
		{[]string{"explain", "file:///C:/x%20y"}, 0, []string{`Windows path: C:\x y`, "Unix path: /C:/x y"}},
		{[]string{"explain", "x-explain-test://somehost/"}, 0, []string{"fake plan for somehost"}},
		{[]string{"explain", "x-unknown://h/a%20b?q"}, 0, []string{"experimental scheme", "RFC 1738 §4", `path "a b"`, `search "q"`}},
		{[]string{"explain", "zz-unregistered:a%20b"}, 0, []string{"knows no rules", `path "a b"`}},
		{[]string{"explain", "ftp://h/a;b/c"}, 0, []string{"problems:", "fsegment"}},
		{[]string{"explain", "no scheme here"}, 1, []string{"not a URL", "genericurl"}},
		{[]string{"explain", "ftp://h/x", "::"}, 1, []string{"RETR x", "not a URL"}},
	}
	for _, tt := range tests {
		code, out, errOut := explainRun(t, "", tt.args...)
		if code != tt.code {
			t.Errorf("%q: exit %d (stderr %q), want %d", tt.args, code, errOut, tt.code)
		}
		for _, h := range tt.has {
			if !strings.Contains(out, h) {
				t.Errorf("%q: output lacks %q:\n%s", tt.args, h, out)
			}
		}
	}
	if _, out, _ := explainRun(t, "", "explain", "https://h/x"); strings.Contains(out, "GET https://") {
		t.Errorf("explain https: a proxy is sent GET:\n%s", out)
	}
	if code, _, errOut := explainRun(t, "", "explain"); code != 2 || !strings.Contains(errOut, "usage") {
		t.Errorf("no URL: exit %d, stderr %q", code, errOut)
	}
	if code, out, _ := explainRun(t, "", "explain", "--help"); code != 0 || !strings.Contains(out, "\n  --json\n") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

func TestExplainJSON(t *testing.T) {
	code, out, _ := explainRun(t, "ftp://h/x;type=d\n\nhttp://u@h/\r\n", "explain", "--json", "-")
	if code != 0 {
		t.Errorf("exit %d, want 0 (a blank line is no input)", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d records, want 2:\n%s", len(lines), out)
	}
	type record struct {
		Input, Scheme, Explanation string
		OK, Conforms               bool
		Problems                   []struct {
			Offset         int
			Severity, Rule string
		}
	}
	var recs []record
	for _, l := range lines {
		var r record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		recs = append(recs, r)
	}
	if r := recs[0]; !r.OK || r.Scheme != "ftp" || !r.Conforms || !strings.Contains(r.Explanation, "NLST x") || len(r.Problems) != 0 {
		t.Errorf("record 0: %+v", r)
	}
	if r := recs[1]; !r.OK || r.Conforms || r.Problems[0].Rule != "httpurl" || r.Problems[0].Offset != 7 {
		t.Errorf("record 2: %+v", r)
	}
	if !strings.Contains(lines[0], `"problems":[]`) {
		t.Errorf("problems is not an empty list: %s", lines[0])
	}
}
