package main

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rfc1738/locator/internal/printable"
)

// failWriter accepts ok octets, then fails every write, as /dev/full or
// a closed pipe does.
type failWriter struct{ ok int }

var errFull = errors.New("no space left on device")

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) <= f.ok {
		f.ok -= len(p)
		return len(p), nil
	}
	n := f.ok
	f.ok = 0
	return n, errFull
}

// pipelineCases runs every subcommand once with output, so that a test
// over them covers the whole command (TestWriteErrors checks none is
// missing).
var pipelineCases = map[string][]string{
	"parse":     {"parse", "--json", "http://a/"},
	"check":     {"check", "http://a/"},
	"explain":   {"explain", "http://a/"},
	"encode":    {"encode", "a b"},
	"decode":    {"decode", "a%20b"},
	"resolve":   {"resolve", "http://a/b", "c"},
	"relative":  {"relative", "http://a/b", "http://x/c"},
	"normalize": {"normalize", "http://A/"},
	"equal":     {"equal", "http://a/", "http://A/"},
	"extract":   {"extract", "-"},
	"get":       {"get", "file:///"},
	"probe":     {"probe", "file:///"},
	"crawl":     {"crawl", "--json", "--delay", "0", "file:///dev/null"},
	"gateway":   {"gateway", "--listen", "127.0.0.1:0", "--log", "none"},
	"url":       {"url", "http://a/"},
	"version":   {"version"},
	"help":      {"help"},
}

// TestWriteErrors: a write error on standard output, however small the
// output, gives exit status 2 and a message on standard error, for
// every subcommand (`locator parse --json http://a/ >
// /dev/full` exited 0).
func TestWriteErrors(t *testing.T) {
	for name := range commands {
		if _, ok := pipelineCases[name]; !ok {
			t.Errorf("subcommand %s has no case in pipelineCases", name)
		}
	}
	for name, args := range pipelineCases {
		for _, ok := range []int{0, 3} {
			var errOut bytes.Buffer
			e := &env{stdin: strings.NewReader("see http://a/ here\n"), stdout: &failWriter{ok: ok}, stderr: &errOut}
			code := run(args, e)
			if code != 2 || !strings.Contains(errOut.String(), "writing standard output: "+errFull.Error()) {
				t.Errorf("%s (write fails after %d octets): exit %d, stderr %q; want 2 and the write error", name, ok, code, errOut.String())
			}
			if strings.Count(errOut.String(), "writing standard output") != 1 {
				t.Errorf("%s: the write error is not reported once: %q", name, errOut.String())
			}
		}
	}
	// A stream stops at the first failed write instead of reading on.
	in := strings.NewReader(strings.Repeat("http://a/\n", 100000))
	var errOut bytes.Buffer
	if code := run([]string{"normalize", "-"}, &env{stdin: in, stdout: &failWriter{}, stderr: &errOut}); code != 2 {
		t.Errorf("normalize - on a failing writer: exit %d", code)
	}
	if in.Len() == 0 {
		t.Errorf("normalize - read all its input after standard output failed")
	}
}

// TestNoControlsOnTerminal: parse, explain and check show C0 and C1
// controls, DEL and octets that are not UTF-8 as '?'
// (`locator explain $'http://h/a\x1b]0;x\x07'` set the window title).
func TestNoControlsOnTerminal(t *testing.T) {
	inputs := []string{
		"http://h/a\x1b]0;x\x07", "ftp://h/\x7f\u009b31m", "gopher://h/1\x9b2J", "x\x1b:y", "\x1b[2J",
		"news:a\x00b", "http://h/a\tb\rc",
	}
	for _, cmd := range []string{"parse", "explain", "check"} {
		for _, in := range inputs {
			_, out, errOut := runCLI(t, "", cmd, in)
			for _, s := range []string{out, errOut} {
				if bad := firstControl(s); bad >= 0 {
					t.Errorf("%s %q: control octet at %d of %q", cmd, in, bad, s)
				}
			}
			// the same from standard input, where failures also go to stderr
			_, out, errOut = runCLI(t, in+"\n", cmd, "-")
			for _, s := range []string{out, errOut} {
				if bad := firstControl(s); bad >= 0 {
					t.Errorf("%s - (%q): control octet at %d of %q", cmd, in, bad, s)
				}
			}
		}
	}
	_, out, _ := runCLI(t, "", "explain", "http://h/a\x1b]0;x\x07")
	if !strings.HasPrefix(out, "http://h/a?]0;x?\n") {
		t.Errorf("explain shows the input as %q", out)
	}
}

// firstControl returns the offset of the first control (other than the
// line feed that ends lines) or bad UTF-8 octet in s, or -1.
func firstControl(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != '\n' && printable.Control(r, n) {
			return i
		}
		i += n
	}
	return -1
}

// TestOneLinePerLine: the line-per-line commands write one line of
// output for each line of input, an empty one for a failure (reported on
// stderr with its line number), a blank line or a line too long, so that
// `paste` of input and output stays aligned.
func TestOneLinePerLine(t *testing.T) {
	long := strings.Repeat("x", maxLine+1)
	tests := []struct {
		args           []string
		stdin          string
		code           int
		out            string
		stderrContains []string
	}{
		{[]string{"resolve", "http://a/b/c", "-"}, "g\n//a b/\n\nh\n", 1, "http://a/b/g\n\n\nhttp://a/b/h\n",
			[]string{"locator resolve: standard input, line 2: resolve \"//a b/\""}},
		{[]string{"normalize", "-"}, "HTTP://A/\nnot a url\n  \nhttp://b\n", 1, "http://a/\n\n\nhttp://b/\n",
			[]string{"locator normalize: standard input, line 2: parse \"not a url\""}},
		{[]string{"relative", "http://a/b/c", "-"}, "http://a/b/d\nnope\nhttp://a/x\n", 1, "d\n\n/x\n",
			[]string{"locator relative: standard input, line 2: parse \"nope\""}},
		{[]string{"normalize", "-"}, "http://a/\n" + long + "\nhttp://b/\n", 2, "http://a/\n\nhttp://b/\n",
			[]string{"locator normalize: standard input, line 2: longer than 1048576 bytes; skipped"}},
		{[]string{"encode", "-"}, "a b\n\nc\n", 0, "a%20b\n\nc\n", nil},
		{[]string{"decode", "-"}, "a%20b\n%zz\nc\n", 1, "a b\n%zz\nc\n", []string{"locator decode: standard input, line 2: \"%zz\": offset 0"}},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, tt.stdin, tt.args...)
		if code != tt.code || out != tt.out {
			t.Errorf("%q: exit %d, stdout %q; want %d, %q (stderr %q)", tt.args, code, out, tt.code, tt.out, errOut)
		}
		if strings.Count(out, "\n") != strings.Count(tt.stdin, "\n") {
			t.Errorf("%q: %d output lines for %d input lines", tt.args, strings.Count(out, "\n"), strings.Count(tt.stdin, "\n"))
		}
		for _, s := range tt.stderrContains {
			if !strings.Contains(errOut, s) {
				t.Errorf("%q: stderr %q lacks %q", tt.args, errOut, s)
			}
		}
	}
	// parse writes one block per input; a failure on stdin is also
	// reported on stderr with its line number; blank lines are no input.
	code, out, errOut := runCLI(t, "http://a/\n\nnot a url\n", "parse", "-")
	if code != 1 || strings.Count(out, "\n\n") != 2 || !strings.Contains(out, "not a url\n  not a URL\n") ||
		!strings.HasPrefix(errOut, "locator parse: standard input, line 3: not a URL: parse \"not a url\"") {
		t.Errorf("parse -: exit %d\n%s\nstderr %q", code, out, errOut)
	}
	if _, _, errOut := runCLI(t, "not a url\n", "parse", "--json", "-"); errOut != "" {
		t.Errorf("parse --json -: stderr %q; the record says ok:false itself", errOut)
	}
}

// TestExitStatus: 0 yes, 1 a negative answer, 2 trouble, for every
// subcommand (docs/cli.md, DESCRIPTION).
func TestExitStatus(t *testing.T) {
	tests := []struct {
		stdin string
		args  []string
		code  int
	}{
		{"", []string{"parse", "http://a/"}, 0},
		{"", []string{"parse", "not a url"}, 1},
		{"", []string{"parse"}, 2},
		{"", []string{"check", "http://a/"}, 0},
		{"", []string{"check", "http://a/~"}, 1},
		{"", []string{"check", "not a url"}, 1},
		{"", []string{"explain", "not a url"}, 1},
		{"", []string{"resolve", "http://a/", "g"}, 0},
		{"", []string{"resolve", "http://a/", "//a b/"}, 1},
		{"", []string{"resolve", "not a url", "g"}, 2},
		{"", []string{"relative", "not a url", "http://a/"}, 2},
		{"", []string{"normalize", "nope"}, 1},
		{"", []string{"equal", "http://a/", "http://A:80/"}, 0},
		{"", []string{"equal", "http://a/", "http://b/"}, 1},
		{"", []string{"equal", "http://a/", "nope"}, 2},
		{"http://a/\nhttp://A/\n", []string{"equal", "-"}, 0},
		{"http://A/\n", []string{"equal", "http://a/", "-"}, 0},
		{"http://a/\nhttp://b/\n", []string{"equal", "-"}, 1},
		{"http://a/\n", []string{"equal", "-"}, 2},
		{"http://a/\nhttp://a/\nhttp://a/\n", []string{"equal", "-"}, 2},
		{"", []string{"equal", "a", "b", "c"}, 2},
		{"", []string{"decode", "%zz"}, 1},
		{"", []string{"help"}, 0},
		{"", []string{"help", "parse"}, 0},
		{"", []string{"help", "nosuch"}, 2},
		{"", []string{"nosuch"}, 2},
		{"", []string{}, 2},
		{"", []string{"parse", "--nosuch", "x"}, 2},
		{"", []string{"version"}, 0},
		{"", []string{"--version"}, 0},
		{"", []string{"version", "extra"}, 2},
	}
	for _, tt := range tests {
		if code, _, errOut := runCLI(t, tt.stdin, tt.args...); code != tt.code {
			t.Errorf("locator %q: exit %d, want %d (stderr %q)", tt.args, code, tt.code, errOut)
		}
	}
}

// TestMessagesNameCommandOnce: "locator resolve: resolve ...", never
// "locator resolve: locator: ...".
func TestMessagesNameCommandOnce(t *testing.T) {
	for _, args := range [][]string{
		{"resolve", "http://a/", "//a b/"}, {"resolve", "nope", "g"}, {"relative", "http://a/", "nope"},
		{"normalize", "nope"}, {"equal", "nope", "http://a/"}, {"decode", "%zz"}, {"resolve", "--rules", "x", "http://a/", "g"},
	} {
		_, _, errOut := runCLI(t, "", args...)
		if errOut == "" || strings.Count(errOut, "locator") != strings.Count(errOut, "locator "+args[0]) {
			t.Errorf("locator %q: stderr %q names the command more than once or not at all", args, errOut)
		}
	}
}

// TestFlagHelp: a command's help lists its flags as the synopsis writes
// them, "--json", never "-json" (flag.PrintDefaults' spelling), and a
// one-letter flag "-v"; a one-letter alias comes before its long name,
// as curl's "-o, --output".
func TestFlagHelp(t *testing.T) {
	oneLetter := regexp.MustCompile(`^-[A-Za-z0-9]( |,|$)`)
	for name := range commands {
		_, out, _ := runCLI(t, "", name, "--help")
		for _, line := range strings.Split(out, "\n") {
			l := strings.TrimSpace(line)
			if len(l) > 4 && l[0] == '-' && l[1] != '-' && l[2:4] == ", " {
				l = strings.TrimSpace(l[4:])
			}
			if strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "--") && !oneLetter.MatchString(l) {
				t.Errorf("%s --help: flag line %q", name, line)
			}
		}
	}
	_, out, _ := runCLI(t, "", "resolve", "--help")
	if !strings.Contains(out, "\n  --rules string\n") || !strings.Contains(out, `(default "rfc3986")`) || !strings.Contains(out, "\n  --json\n") {
		t.Errorf("resolve --help:\n%s", out)
	}
	_, _, errOut := runCLI(t, "", "parse", "--nosuch", "x")
	if !strings.HasPrefix(errOut, "locator parse: unknown flag --nosuch\n") {
		t.Errorf("unknown flag: %q", errOut)
	}
}
