package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// runCLI runs locator in-process with the given stdin and returns its exit
// status, standard output and standard error.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

// TestParseJSONContract checks the keys of `locator parse --json` as
// docs/cli.md's table defines them: absent parts are absent keys, empty
// ones are "".
func TestParseJSONContract(t *testing.T) {
	tests := []struct {
		in      string
		present map[string]any // key → expected value (JSON-decoded)
		absent  []string
	}{
		{"ftp://@host.com/", map[string]any{"ok": true, "conforms": true, "scheme": "ftp", "user": "", "host": "host.com", "effective_port": 21.0, "path": ""},
			[]string{"password", "port", "search", "fragment"}},
		{"ftp://host.com/", map[string]any{"host": "host.com"}, []string{"user", "password"}},
		{"ftp://foo:@host.com/", map[string]any{"user": "foo", "password": ""}, nil},
		{"ftp://a%40b:c%3Ad@h/", map[string]any{"user": "a@b", "password": "c:d"}, nil},
		{"http://[::1]:8080/a%20b?q#f", map[string]any{"host": "::1", "port": "8080", "effective_port": 8080.0, "path": "a%20b", "search": "q", "fragment": "f", "conforms": false}, nil},
		{"http://h", map[string]any{"host": "h", "effective_port": 80.0}, []string{"path", "port", "search"}},
		{"HTTP://h/", map[string]any{"scheme": "http", "ok": true, "conforms": false}, nil},
		{"<URL:mailto:a@b.c>", map[string]any{"input": "<URL:mailto:a@b.c>", "scheme": "mailto", "path": "a@b.c"}, []string{"host", "effective_port"}},
		{"x-y:z", map[string]any{"scheme": "x-y", "path": "z"}, []string{"effective_port", "host"}},
		{"relative/ref", map[string]any{"ok": false, "conforms": false}, []string{"scheme", "host", "path", "parts"}},
	}
	for _, tt := range tests {
		code, out, _ := runCLI(t, "", "parse", "--json", tt.in)
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("parse --json %q: %v\n%s", tt.in, err, out)
		}
		if ok, _ := m["ok"].(bool); ok != (code == 0) {
			t.Errorf("parse --json %q: exit %d with ok=%v", tt.in, code, ok)
		}
		if m["input"] != tt.in {
			t.Errorf("parse --json %q: input = %v", tt.in, m["input"])
		}
		if _, ok := m["problems"].([]any); !ok {
			t.Errorf("parse --json %q: problems is not a list: %v", tt.in, m["problems"])
		}
		for k, want := range tt.present {
			if got, ok := m[k]; !ok || got != want {
				t.Errorf("parse --json %q: %s = %#v (present %v), want %#v", tt.in, k, got, ok, want)
			}
		}
		for _, k := range tt.absent {
			if v, ok := m[k]; ok {
				t.Errorf("parse --json %q: key %s present (%v), want absent", tt.in, k, v)
			}
		}
	}
}

// TestParseStdin: "-" reads one URL per line, output in input order, and
// the exit status is 1 when any input is not a URL.
func TestParseStdin(t *testing.T) {
	code, out, _ := runCLI(t, "http://a/\r\nnot a url\nftp://b/\n", "parse", "--json", "-")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 3 {
		t.Fatalf("exit %d, %d lines:\n%s", code, len(lines), out)
	}
	for i, want := range []string{"http://a/", "not a url", "ftp://b/"} {
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &m); err != nil || m["input"] != want {
			t.Errorf("line %d: %v %s", i, err, lines[i])
		}
	}
	if code, _, _ := runCLI(t, "http://a/\n", "parse", "-"); code != 0 {
		t.Errorf("all-ok stdin: exit %d", code)
	}
}

func TestParseReadable(t *testing.T) {
	code, out, _ := runCLI(t, "", "parse", "ftp://u:p@h.com:2121/a;type=d")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"scheme          ftp", "user            \"u\"", "port            2121", "RFC 1738 §3.1"} {
		if !strings.Contains(out, want) {
			t.Errorf("readable output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheck(t *testing.T) {
	code, out, _ := runCLI(t, "", "check", "http://h/~x")
	if code != 1 {
		t.Errorf("check with a violation: exit %d, want 1", code)
	}
	want := "http://h/~x\n         ^ violation (urlpath) at 9:"
	if !strings.HasPrefix(out, want) {
		t.Errorf("caret report:\n%s\nwant prefix:\n%s", out, want)
	}
	if code, _, _ := runCLI(t, "", "check", "http://h:8080/"); code != 0 {
		t.Errorf("warnings only: exit %d, want 0", code)
	}
	code, out, _ = runCLI(t, "", "check", "--json", "ftp://h:99999/")
	var m struct {
		OK       bool `json:"ok"`
		Problems []struct {
			Offset   int    `json:"offset"`
			Severity string `json:"severity"`
			Rule     string `json:"rule"`
		} `json:"problems"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || code != 1 || m.OK || len(m.Problems) == 0 ||
		m.Problems[0].Rule != "port" || m.Problems[0].Severity != "error" || m.Problems[0].Offset != 8 {
		t.Errorf("check --json: exit %d, %+v (%v)", code, m, err)
	}
}

func TestEncodeDecode(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"encode", "a b/c"}, 0, "a%20b%2Fc\n"},
		{[]string{"encode", "--as", "fsegment", "/etc"}, 0, "%2Fetc\n"},
		{[]string{"encode", "--as", "safe", "a b%20~"}, 0, "a%20b%20%7E\n"},
		{[]string{"encode", "--as", "nope", "x"}, 2, ""},
		{[]string{"decode", "a%20b", "%2Fetc"}, 0, "a b\n/etc\n"},
		{[]string{"decode", "50%zz"}, 1, "50%zz\n"},
		{[]string{"decode"}, 2, ""},
	}
	for _, tt := range tests {
		code, out, _ := runCLI(t, "", tt.args...)
		if code != tt.code || out != tt.out {
			t.Errorf("locator %v: exit %d %q, want %d %q", tt.args, code, out, tt.code, tt.out)
		}
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"nosuch"}, {"parse"}, {"parse", "--nosuch", "x"}, {"check"}} {
		if code, _, errOut := runCLI(t, "", args...); code != 2 || !strings.Contains(errOut, "usage:") {
			t.Errorf("locator %v: exit %d, stderr %q; want 2 and a usage line", args, code, errOut)
		}
	}
	for _, name := range []string{"parse", "check", "encode", "decode"} {
		if code, out, _ := runCLI(t, "", name, "--help"); code != 0 || !strings.Contains(out, "usage: locator "+name) {
			t.Errorf("locator %s --help: exit %d\n%s", name, code, out)
		}
	}
}

// TestLongLine: a line of standard input past maxLine is reported with
// its line number and skipped; the lines after it are answered (issue
// 8.5), and the exit status says trouble.
func TestLongLine(t *testing.T) {
	in := "http://a/\n" + "http://b/" + strings.Repeat("x", maxLine) + "\nhttp://c/\n"
	code, out, errOut := runCLI(t, in, "parse", "--json", "-")
	if code != 2 || errOut != "locator parse: standard input, line 2: longer than 1048576 bytes; skipped\n" ||
		strings.Count(out, "\n") != 2 || !strings.Contains(out, `"input":"http://c/"`) {
		t.Errorf("exit %d, stderr %q, %d lines out", code, errOut, strings.Count(out, "\n"))
	}
	// A line of exactly maxLine octets (CRLF not counted) is read.
	exact := "http://d/" + strings.Repeat("z", maxLine-len("http://d/"))
	code, out, errOut = runCLI(t, exact+"\r\n", "normalize", "-")
	if code != 0 || out != exact+"\n" || errOut != "" {
		t.Errorf("a line of maxLine octets: exit %d, stderr %q", code, errOut)
	}
	// Lines longer than the reader's buffer but within maxLine are whole.
	mid := "http://h/" + strings.Repeat("y", 200<<10)
	code, out, _ = runCLI(t, mid+"\nhttp://z/", "parse", "-")
	if code != 0 || !strings.Contains(out, mid) || !strings.Contains(out, "http://z/") {
		t.Errorf("a 200 KiB line: exit %d", code)
	}
}
