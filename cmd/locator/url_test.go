package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/printable"
)

// trurlCase is one case of trurl's tests.json, in its own format, with
// its index in trurl's file.
type trurlCase struct {
	Index int `json:"index"`
	Input struct {
		Arguments []string `json:"arguments"`
		Stdin     *string  `json:"stdin"`
	} `json:"input"`
	Expected struct {
		Stdout     json.RawMessage `json:"stdout"`
		Stderr     json.RawMessage `json:"stderr"`
		Returncode int             `json:"returncode"`
	} `json:"expected"`
}

// trurlDiffers lists the cases of trurl's tests.json where locator url
// differs from trurl, by trurl's index, each with the RFC 1738 reading
// that makes it differ. A case not listed must pass, a case listed must
// not.
var trurlDiffers = map[int]string{
	// A host is a hostname or a hostnumber (RFC 1738 §3.1). A URL that
	// breaks the rule is written as it is, with a note naming the rule
	// (trurl writes no note).
	38:  "\"10.1\" is neither a hostname nor a four-group hostnumber (§3.1): written as it is, with a note, not read as inet_aton's 10.0.0.1",
	156: "host \"0\" is neither a hostname nor a four-group hostnumber (§3.1): written as it is, with a note, not read as 0.0.0.0",
	85:  "an IPv6 literal (RFC 2732) is outside RFC 1738's host (§3.1): written as it is, with a note, not compressed",
	116: "an IPv6 literal (RFC 2732) is outside RFC 1738's host (§3.1): a note; its zone is written %25 (RFC 6874 §2)",
	158: "an IPv6 literal (RFC 2732) is outside RFC 1738's host (§3.1): written, with a note",
	40:  "an IPv6 literal is outside §3.1, and its zone is written %25 (RFC 6874 §2): a bare '%' begins no escape (§2.2), so this is no URL",
	41:  "an IPv6 literal is outside §3.1, and its zone is written %25 (RFC 6874 §2): a bare '%' begins no escape (§2.2), so this is no URL",
	144: "a line of --url-file may be 1 MiB: the 4,000-octet host is read and refused under --verify (a label is at most 63 octets, RFC 1034 §3.1), not skipped for its length",
	83:  "host names are case-insensitive (§3.1): the normal form writes them in lower case",

	// http URLs carry no login (RFC 1738 §3.3): written, with a note.
	48:  "\"No user name or password is allowed\" in an https URL (§3.3): written, with a note (and escapes are written %3A, as case 210 has them)",
	210: "\"No user name or password is allowed\" in an https URL (§3.3): written, with a note",
	35:  "\"No user name or password is allowed\" in an http URL (§3.3): written, with a note",
	49:  "\"No user name or password is allowed\" in an http URL (§3.3): written, with a note",
	99:  "the guessed http URL has a user, which §3.3 does not allow: written, with a note",

	// Escapes: upper-case hex digits, reserved characters kept as they
	// are (RFC 1738 §2.2; RFC 3986 §6.2.2.1). Each lower-case case has an
	// upper-case twin in trurl's file for libcurl 8.15 and later.
	127: "escapes are written with upper-case hex digits (%5C); case 211 is the same with them",
	128: "escapes are written with upper-case hex digits (%5C); case 207 is the same with them",
	129: "escapes are written with upper-case hex digits (%5C); case 208 is the same with them",
	131: "escapes are written with upper-case hex digits: %5C stays %5C",
	170: "escapes are written with upper-case hex digits: %2F stays %2F",
	171: "escapes are written with upper-case hex digits: %2F stays %2F",
	183: "escapes are written with upper-case hex digits: %5D stays %5D",
	184: "';' may stand unencoded in a password (§3.1: user and password are *[ uchar | ';' | '?' | '&' | '=' ]), so it is not written %3b",
	187: "';' may stand unencoded in a password (§3.1), so {:password} is pwd;giraffe, not pwd%3bgiraffe",

	// "?" is data of an ftp path (RFC 1738 §3.2.2): ftp has no query.
	101: "'?' is an ordinary character of an ftp path (fsegment, §3.2.2): path is /path?search=me, there is no query or params",
	161: "an ftp URL has no query ('?' is data of its path, §3.2.2): --append query= is refused for the ftp combination",

	// A decoded value is never written with a control character in it.
	164: "control characters \"must be encoded\" (§2.2): {query} shows %00 as written, with a note, where trurl writes an empty line",
	176: "control characters \"must be encoded\" (§2.2): {path} shows %18 as written, where trurl writes the raw octet",
}

func TestTrurlCases(t *testing.T) {
	var cases []trurlCase
	if err := json.Unmarshal(loctest.ReadShared(t, "conformance", "trurl", "tests.json"), &cases); err != nil {
		t.Fatal(err)
	}
	files := filepath.Join(loctest.SharedDir(), "conformance", "trurl")
	pass, notRun, notRunPassing := 0, 0, 0
	for _, tc := range cases {
		args, ok := trurlArgs(tc.Input.Arguments, files)
		if !ok {
			// trurl's testfiles/ are not beside tests.json: the case
			// cannot be run as trurl runs it, and is counted as it was
			// measured with them there.
			t.Logf("case %d: %q needs trurl's testfiles/, which are not beside tests.json: not run", tc.Index, tc.Input.Arguments)
			notRun++
			if _, listed := trurlDiffers[tc.Index]; !listed {
				notRunPassing++
			}
			continue
		}
		stdin := ""
		if tc.Input.Stdin != nil {
			stdin = *tc.Input.Stdin
		}
		var out, errOut bytes.Buffer
		code := runURL(args, strings.NewReader(stdin), &out, &errOut)
		why := trurlCompare(tc, code, out.String(), errOut.String())
		reason, listed := trurlDiffers[tc.Index]
		switch {
		case why == "" && listed:
			t.Errorf("case %d %q passes but is listed as differing (%s)", tc.Index, tc.Input.Arguments, reason)
		case why != "" && !listed:
			t.Errorf("case %d %q differs: %s\n  stdout %q\n  stderr %q", tc.Index, tc.Input.Arguments, why, out.String(), errOut.String())
		case why != "":
			t.Logf("case %d differs as listed (%s): %s", tc.Index, reason, why)
		default:
			pass++
		}
	}
	// trurlPass is how many of the 161 cases pass, measured with trurl's
	// testfiles/ beside tests.json (cases 123, 125 and 144 read them).
	const trurlPass = 134
	if len(cases) != 161 || pass+notRunPassing != trurlPass {
		t.Errorf("%d cases, %d pass (and %d of %d not run would); want 161 cases, %d passing", len(cases), pass, notRunPassing, notRun, trurlPass)
	}
	if len(trurlDiffers) != 161-trurlPass {
		t.Errorf("%d cases listed as differing; want %d", len(trurlDiffers), 161-trurlPass)
	}
}

// trurlArgs returns the case's arguments with a trurl testfiles/ path
// made the one under dir, and false when that file is not there.
func trurlArgs(args []string, dir string) ([]string, bool) {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if strings.HasPrefix(a, "testfiles/") {
			p := filepath.Join(dir, filepath.FromSlash(a))
			if _, err := os.Stat(p); err != nil {
				return nil, false
			}
			out[i] = p
		}
	}
	return out, true
}

// trurlCompare compares a run with the case's expectation as trurl's own
// harness does, and says how it differs ("" when it does not). Standard
// output is compared byte for byte, or as JSON when the case expects a
// JSON value; the exit status exactly. Standard error is compared for
// presence: trurl's words are libcurl's, and url's messages name the
// offset and rule instead, so a case expecting a message (true, a text or
// a list of texts) passes with any message, and one expecting "" with
// none.
func trurlCompare(tc trurlCase, code int, stdout, stderr string) string {
	var why []string
	if code != tc.Expected.Returncode {
		why = append(why, "exit status "+itoa(code)+", want "+itoa(tc.Expected.Returncode))
	}
	var want any
	if err := json.Unmarshal(tc.Expected.Stdout, &want); err != nil {
		return "bad case: " + err.Error()
	}
	switch w := want.(type) {
	case string:
		if stdout != w {
			why = append(why, "stdout differs, want "+quote(w))
		}
	default:
		var got any
		if err := json.Unmarshal([]byte(stdout), &got); err != nil || !reflect.DeepEqual(got, want) {
			why = append(why, "JSON differs, want "+string(tc.Expected.Stdout))
		}
	}
	if len(tc.Expected.Stderr) > 0 {
		var e any
		json.Unmarshal(tc.Expected.Stderr, &e)
		wantMsg := true
		switch e := e.(type) {
		case bool:
			wantMsg = e
		case string:
			wantMsg = e != ""
		}
		if wantMsg != (stderr != "") {
			why = append(why, "stderr "+quote(stderr)+", want "+string(tc.Expected.Stderr))
		}
	}
	return strings.Join(why, "; ")
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// runURLTest runs locator url with args and stdin.
func runURLTest(stdin string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := runURL(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestURLCommand(t *testing.T) {
	for _, tc := range []struct {
		stdin  string
		args   []string
		code   int
		stdout string
		stderr string // a part of standard error; "" for none at all
	}{
		// trurl's ways of giving flags.
		{"", []string{"-shost=moo", "-sscheme=http"}, 0, "http://moo/\n", ""},
		{"", []string{"-g{host}", "http://h/", "--set=port=81", "-g", "x"}, urlExitFlag, "", "only one --get is supported"},
		{"", []string{"-s", "-shost"}, urlExitSet, "", "invalid --set syntax"},
		{"", []string{"http://h/", "-g"}, urlExitArg, "", "Missing argument for -g"},
		{"", []string{"http://h/", "--redirect"}, urlExitArg, "", "Missing argument for --redirect"},
		{"", []string{"http://h/", "--replace"}, urlExitReplace, "", "No data passed to replace component"},
		{"", []string{"http://h/", "--foo"}, urlExitFlag, "", "unknown option: --foo"},
		{"", []string{"http://h/", "--append", "fragment=x"}, urlExitAppend, "", "--append unsupported component"},
		{"", []string{"http://h/", "--trim", "path=x"}, urlExitTrim, "", "Unsupported trim component"},
		{"", []string{"http://h/", "--iterate", "nope=1"}, urlExitIterate, "", "bad component for iterate"},
		{"", []string{"http://h/", "--punycode", "--as-idn"}, urlExitFlag, "", "mutually exclusive"},
		// A URL that does not conform is written as it is, with the
		// rule it breaks (RFC 1738 §3.1, §3.3); --verify stops at it.
		{"", []string{"--", "-x.example"}, 0, "http://-x.example/\n", `offset 7: domainlabel: a label does not begin with '-'`},
		{"", []string{"--json", "https://user:pw@example.com:8080/p"}, 0, "[\n  {\n    \"url\": \"https://user:pw@example.com:8080/p\",\n    \"parts\": {\n      \"scheme\": \"https\",\n      \"user\": \"user\",\n      \"password\": \"pw\",\n      \"host\": \"example.com\",\n      \"port\": \"8080\",\n      \"path\": \"/p\"\n    }\n  }\n]\n", `note: "https://user:pw@example.com:8080/p": offset 8: httpurl: no user name or password is allowed in an https URL (RFC 1738 §3.3)`},
		{"", []string{"--set", "user=me", "https://example.com/p"}, 0, "https://me@example.com/p\n", "offset 8: httpurl: "},
		{"", []string{"--set", "user=me", "https://example.com/p", "--get", "{user}"}, 0, "me\n", "offset 8: httpurl: "},
		{"", []string{"--set", "user=me", "https://example.com/p", "--quiet"}, 0, "https://me@example.com/p\n", ""},
		{"", []string{"--set", "user=me", "https://example.com/p", "--verify"}, urlExitBadURL, "", "offset 8: httpurl: "},
		{"", []string{"http://[::1]/"}, 0, "http://[::1]/\n", "offset 7: host: an IPv6 literal"},
		{"", []string{""}, 0, "", `"": offset 0: RFC 1738 §2.1: an empty input is not a URL`},
		// Every RFC 1738 scheme's own parts, through its builder.
		{"", []string{"ftp://h/d/f", "--set", "typecode=a"}, 0, "ftp://h/d/f;type=a\n", ""},
		{"", []string{"ftp://h/a%2Fb/c/f", "--get", "{parts.cwd}|{:parts.cwd}|{parts.name}"}, 0, "a/b/c|a%2Fb/c|f\n", ""},
		{"", []string{"gopher://h/1/x", "--set", "selector=/a b", "--set", "type=0"}, 0, "gopher://h/0/a%20b\n", ""},
		{"", []string{"news:comp.lang", "--set", "group=alt.test"}, 0, "news:alt.test\n", ""},
		{"", []string{"--set", "scheme=gopher", "--set", "host=h", "--set", "parts.selector=x"}, 0, "gopher://h/1x\n", ""},
		{"", []string{"ftp://h/d/f", "--set", "typecode=x"}, 0, "", `"ftp://h/d/f;type=x": offset 17: ftptype: `},
		{"", []string{"ftp://h/d/f", "--set", "typecode=x", "--verify"}, urlExitBadURL, "", "offset 17: ftptype: "},
		{"", []string{"http://h/", "--set", "selector=x"}, urlExitSet, "", "http URLs have no part \"selector\""},
		{"", []string{"http://h/", "--get", "{parts.typecode}"}, urlExitGet, "", "http URLs have no part \"typecode\""},
		// What is shown is printable: a control octet stays an escape.
		{"", []string{"http://h/%1B[2J", "--get", "{path}"}, 0, "/%1B[2J\n", "kept encoded (path)"},
		{"", []string{"http://h/%1B[2J", "--get", "{path}", "--quiet"}, 0, "/%1B[2J\n", ""},
		{"", []string{"http://h/%1B[2J", "--get", "{strict:path}"}, urlExitGet, "", "problems URL decoding path"},
		{"", []string{"http://h/\x1b[2J"}, 0, "", `"http://h/\x1b[2J": offset 9: RFC 1738 §2.2: a control character`},
		{"", []string{"http://xn--4cab6c/", "--as-idn"}, 0, "http://åäö/\n", ""},
		// --url-file: standard input, trurl's trimming.
		{"http://a/ \t\r\n\n  \nftp://b\r\n", []string{"-f", "-"}, 0, "http://a/\nftp://b/\n", ""},
		{"", []string{"-f", "/nonexistent/file"}, urlExitFile, "", "--url-file /nonexistent/file not found"},
		{"", []string{"-f", "-", "-f", "-"}, urlExitFlag, "", "only one --url-file is supported"},
		// --json: an array, closed when a URL stops the run.
		{"", []string{"--json", "--verify", "http://a/", "http://b_c/"}, urlExitBadURL, "[\n  {\n    \"url\": \"http://a/\",\n    \"parts\": {\n      \"scheme\": \"http\",\n      \"host\": \"a\",\n      \"path\": \"/\"\n    }\n  }\n]\n", "offset 8: hostname"},
		{"", []string{"--json"}, urlExitEmpty, "[]\n", "not enough input for a URL"},
		{"", []string{"--json", "--get", "{url}", "http://a/"}, urlExitFlag, "", "--get is mutually exclusive with --json"},
	} {
		code, out, errOut := runURLTest(tc.stdin, tc.args...)
		if code != tc.code || out != tc.stdout || (tc.stderr == "") != (errOut == "") || !strings.Contains(errOut, tc.stderr) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, out, errOut, tc.code, tc.stdout, tc.stderr)
		}
		if !printableOutput(errOut) {
			t.Errorf("%q: stderr %q is not printable", tc.args, errOut)
		}
	}
}

// printableOutput reports whether s is printable text, lines apart.
func printableOutput(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if !printable.Clean(line) {
			return false
		}
	}
	return true
}

func TestURLCommandParts(t *testing.T) {
	code, out, errOut := runURLTest("", "--json", "--parts", "gopher://h/7/find%09two%20words")
	var recs []struct {
		URL         string         `json:"url"`
		SchemeParts map[string]any `json:"scheme_parts"`
	}
	if err := json.Unmarshal([]byte(out), &recs); err != nil || code != 0 || errOut != "" {
		t.Fatalf("exit %d, %q, %q: %v", code, out, errOut, err)
	}
	if len(recs) != 1 || recs[0].URL != "gopher://h/7/find%09two%20words" || recs[0].SchemeParts["type"] != "7" ||
		recs[0].SchemeParts["selector"] != "/find" || recs[0].SchemeParts["search"] != "two words" {
		t.Errorf("records %+v", recs)
	}
}

type urlFailWriter struct{}

func (urlFailWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

// TestURLCommandWriteError: a standard output that fails ends the run
// with status 2, however little was written.
func TestURLCommandWriteError(t *testing.T) {
	var errOut bytes.Buffer
	if code := runURL([]string{"http://a/"}, strings.NewReader(""), urlFailWriter{}, &errOut); code != exitTrouble || !strings.Contains(errOut.String(), "writing standard output") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
	lines := strings.Repeat("http://example.com/a/long/path\n", 10000)
	errOut.Reset()
	if code := runURL([]string{"-f", "-"}, strings.NewReader(lines), urlFailWriter{}, &errOut); code != exitTrouble || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}

// TestURLCommandTable runs locator url as the command table would: its
// flags parsed by package flag, then the function urlCommand returns.
func TestURLCommandTable(t *testing.T) {
	fs := flag.NewFlagSet("url", flag.ContinueOnError)
	do := urlCommand(fs)
	if err := fs.Parse([]string{"--set", "scheme=gopher", "--set", "host=h", "--set", "selector=/x", "--get", "{url} {parts.type}"}); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := do(&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}, fs.Args()); code != 0 || out.String() != "gopher://h/1/x 1\n" || errOut.Len() > 0 {
		t.Errorf("exit %d, %q, %q", code, out.String(), errOut.String())
	}
}

// TestURLFileLines: --url-file's lines, read by the bounded line reader
// the other commands use (internal/lines): CR LF and trailing blanks
// removed, blank lines skipped, a line over 1 MiB skipped with a note
// naming it, and the lines after it read.
func TestURLFileLines(t *testing.T) {
	long := "http://h/" + strings.Repeat("a", maxLine)
	in := "http://a/ \t\r\n\n \nhttp://b/x\n" + long + "\nhttp://c/\r"
	code, out, errs := runURLTest(in, "-f", "-")
	if want := "http://a/\nhttp://b/x\nhttp://c/\n"; code != 0 || out != want {
		t.Errorf("exit %d, stdout %q; want 0, %q", code, out, want)
	}
	if want := fmt.Sprintf("locator url: note: url-file line 5: longer than %d bytes; skipped\n", maxLine); errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	// A help that the other commands' help writer makes: no NUL of the
	// old argument convention, each short name beside its long one.
	for _, args := range [][]string{{"url", "--help"}, {"help", "url"}} {
		code, out, _ = runCLI(t, "", args...)
		if code != 0 || strings.Contains(out, "\x00") || !strings.Contains(out, "  -s, --set COMPONENT[?][:]=VALUE\n") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
}
