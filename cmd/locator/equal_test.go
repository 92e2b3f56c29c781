package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEqualCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"equal", "http://abc.com:80/~smith/home.html", "http://ABC.com/%7Esmith/home.html"}, 0, "equal: http://abc.com/%7Esmith/home.html\n"},
		{[]string{"equal", "http://h/a%2Fb", "http://h/a/b"}, 1, "not equal:\n  http://h/a%2Fb\n  http://h/a/b\n"},
		{[]string{"equal", "nohost", "http://h/"}, 2, ""}, // not a URL: cannot be judged
		{[]string{"equal", "http://h/"}, 2, ""},
	} {
		code, out, errOut := relRun(t, "", tc.args...)
		if code != tc.code || out != tc.out {
			t.Errorf("%q: exit %d, stdout %q (stderr %q); want %d, %q", tc.args, code, out, errOut, tc.code, tc.out)
		}
	}
}

func TestEqualCommandJSON(t *testing.T) {
	code, out, _ := relRun(t, "", "equal", "--json", "ftp://ftp/%2Fetc", "ftp://ftp/%2fetc")
	var rec struct {
		Equal   bool
		NormalA string `json:"normal_a"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil || code != 0 || !rec.Equal {
		t.Fatalf("exit %d, %q: %v", code, out, err)
	}
	if rec.NormalA != "ftp://ftp/%2Fetc" || !strings.Contains(out, `"normal_b":"ftp://ftp/%2Fetc"`) {
		t.Errorf("output %q", out)
	}
}
