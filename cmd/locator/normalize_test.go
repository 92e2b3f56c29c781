package main

import (
	"encoding/json"
	"testing"
)

func TestNormalizeCommand(t *testing.T) {
	for _, tc := range []struct {
		stdin string
		args  []string
		code  int
		out   string
	}{
		{"", []string{"normalize", "HTTP://WWW.SN.NO:80", "http://h/%7e/./a/../%41%2f"}, 0, "http://www.sn.no/\nhttp://h/%7E/A%2F\n"},
		{"ftp://H:21/a/b/../c\n", []string{"normalize", "-"}, 0, "ftp://h/a/c\n"},
		{"", []string{"normalize", "no scheme", "http://h"}, 1, "\nhttp://h/\n"}, // one line per input
		{"", []string{"normalize"}, 2, ""},
	} {
		code, out, errOut := relRun(t, tc.stdin, tc.args...)
		if code != tc.code || out != tc.out {
			t.Errorf("%q: exit %d, stdout %q (stderr %q); want %d, %q", tc.args, code, out, errOut, tc.code, tc.out)
		}
	}
}

func TestNormalizeCommandJSON(t *testing.T) {
	code, out, _ := relRun(t, "", "normalize", "--json", "http://H/a b")
	var rec struct {
		Input, Normal string
		OK, Conforms  bool
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil || code != 0 {
		t.Fatalf("exit %d, %q: %v", code, out, err)
	}
	if !rec.OK || rec.Normal != "http://h/a%20b" || !rec.Conforms || rec.Input != "http://H/a b" {
		t.Errorf("record %+v", rec)
	}
}
