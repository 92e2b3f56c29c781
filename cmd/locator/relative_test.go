package main

import (
	"encoding/json"
	"testing"
)

func TestRelativeCommand(t *testing.T) {
	for _, tc := range []struct {
		stdin string
		args  []string
		code  int
		out   string
	}{
		{"", []string{"relative", "http://a/b/c/d;p?q", "http://a/b/c/g", "http://a/x", "http://g/h", "ftp://a/b"}, 0,
			"g\n/x\n//g/h\nftp://a/b\n"},
		{"", []string{"relative", "--rules", "draft1993", "http://a/b/c/d;p?q", "http://a/b/c/d;p?y", "http://a/b/"}, 0, "d;p?y\n../\n"},
		{"http://www.math.uio.no/doc/mail/top.html\n", []string{"relative", "http://www.math.uio.no/doc/linux/", "-"}, 0, "../mail/top.html\n"},
		{"", []string{"relative", "http://a/b", "nohost", "http://a/c"}, 1, "\nc\n"}, // one line per input
		{"", []string{"relative", "nohost", "http://a/c"}, 2, ""},                    // the base cannot be used
		{"", []string{"relative", "http://a/b"}, 2, ""},
	} {
		code, out, errOut := relRun(t, tc.stdin, tc.args...)
		if code != tc.code || out != tc.out {
			t.Errorf("%q: exit %d, stdout %q (stderr %q); want %d, %q", tc.args, code, out, errOut, tc.code, tc.out)
		}
	}
}

func TestRelativeCommandJSON(t *testing.T) {
	code, out, _ := relRun(t, "", "relative", "--json", "http://a/b/c", "http://a/b/d?q")
	var rec struct {
		Target, Rules string
		OK            bool
		Relative      *string
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil || code != 0 {
		t.Fatalf("exit %d, %q: %v", code, out, err)
	}
	if !rec.OK || rec.Relative == nil || *rec.Relative != "d?q" || rec.Rules != "rfc3986" {
		t.Errorf("record %+v", rec)
	}
}
