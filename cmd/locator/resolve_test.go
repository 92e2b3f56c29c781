package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// relRun runs the locator command in-process with stdin and returns its
// exit status, standard output and standard error.
func relRun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

func TestResolveCommand(t *testing.T) {
	for _, tc := range []struct {
		stdin string
		args  []string
		code  int
		out   string
	}{
		{"", []string{"resolve", "http://a/b/c/d;p?q", "g", "../g", "?y", "#s"}, 0,
			"http://a/b/c/g\nhttp://a/b/g\nhttp://a/b/c/d;p?y\nhttp://a/b/c/d;p?q#s\n"},
		{"", []string{"resolve", "--rules", "rfc1808", "http://a/b/c/d;p?q", ";x"}, 0, "http://a/b/c/d;x\n"},
		{"", []string{"resolve", "--rules=draft1993", "http://a/b/c/d;p?q", "?y", ".."}, 0, "http://a/b/c/?y\nhttp://a/b\n"},
		{"g\n../h\r\n", []string{"resolve", "http://a/b/c", "-"}, 0, "http://a/b/g\nhttp://a/h\n"},
		{"", []string{"resolve", "http://a/b", "//a b/", "g"}, 1, "\nhttp://a/g\n"}, // one line per input
		{"", []string{"resolve", "a/b", "g"}, 2, ""},                                // an unparsable base is trouble
		{"", []string{"resolve", "http://a/b"}, 2, ""},
		{"", []string{"resolve", "--rules", "rfc2396", "http://a/b", "g"}, 2, ""},
	} {
		code, out, errOut := relRun(t, tc.stdin, tc.args...)
		if code != tc.code || out != tc.out {
			t.Errorf("%q: exit %d, stdout %q (stderr %q); want %d, %q", tc.args, code, out, errOut, tc.code, tc.out)
		}
		if code != 0 && errOut == "" {
			t.Errorf("%q: exit %d and nothing on stderr", tc.args, code)
		}
	}
}

func TestResolveCommandJSON(t *testing.T) {
	code, out, _ := relRun(t, "", "resolve", "--json", "--rules", "rfc1808", "http://a/b/c/d;p?q", "g;x=1/../y", "//[::1/")
	if code != 1 {
		t.Errorf("exit %d, want 1 (one reference fails)", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 JSON lines, got %q", out)
	}
	var recs [2]struct {
		Base, Ref, Rules, Result, Error string
		OK, Conforms                    bool
		Problems                        []map[string]any
	}
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &recs[i]); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
	}
	if r := recs[0]; !r.OK || r.Result != "http://a/b/c/g;x=1/../y" || r.Rules != "rfc1808" || r.Ref != "g;x=1/../y" || r.Base != "http://a/b/c/d;p?q" || r.Problems == nil {
		t.Errorf("first record %+v", r)
	}
	violations := false
	for _, p := range recs[0].Problems {
		if p["severity"] != "warning" {
			violations = true
		}
	}
	if recs[0].Conforms == violations {
		t.Errorf("conforms %v with problems %v", recs[0].Conforms, recs[0].Problems)
	}
	if r := recs[1]; r.OK || r.Error == "" || r.Result != "" {
		t.Errorf("second record %+v", r)
	}
}

func TestResolveCommandHelp(t *testing.T) {
	code, out, _ := relRun(t, "", "resolve", "--help")
	if code != 0 || !strings.Contains(out, "draft1993") || !strings.Contains(out, "--json") {
		t.Errorf("help: exit %d, %q", code, out)
	}
}
