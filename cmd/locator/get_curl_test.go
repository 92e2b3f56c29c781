package main

// get's curl flags side by side with curl 7.88 on the same requests to
// nginx on loopback: -I, -i, -w, -s, -S, -L, -f, -X, -A, --resolve, -4,
// -6, --limit-rate, the times in seconds, -u's prompt, and -H's
// credentials after a redirection.

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/rfc1738/locator/internal/peer"
)

// curlNginx starts nginx serving pub/hello.txt (6 octets) and big.bin
// (256 KiB), a chain of two redirections (/moved, /again), a refusal
// (/secret), /echo, which answers the request's method, User-Agent and
// Host field, and, when v6 is not 0, a second listener on [::1]:v6. It
// returns the base URL.
func curlNginx(t *testing.T, v6 int) string {
	t.Helper()
	root := headTree(t)
	writeTree(t, root, map[string]string{"big.bin": strings.Repeat("0123456789abcdef", 16<<10)})
	openUp(t, root)
	more := ""
	if v6 != 0 {
		more = fmt.Sprintf("    listen [::1]:%d;\n", v6)
	}
	s := peer.Nginx(t, root, peer.NginxConfig{Connections: 64, HTTP: "types { text/plain txt; application/octet-stream bin; }",
		Server: more + `    location /moved { return 301 /again; }
    location /again { return 302 /pub/hello.txt; }
    location /secret { deny all; }
    location /echo { return 200 "$request_method|$http_user_agent|$http_host\n"; }`})
	return "http://" + s.Addr
}

// runCurl runs curl with args and returns its exit status and standard
// output.
func runCurl(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("/usr/bin/curl", args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String()
	case err != nil:
		t.Fatalf("curl %q: %v", args, err)
	}
	return 0, out.String()
}

// dated stands for the Date field's value, which differs between two
// requests a second apart.
var dated = regexp.MustCompile(`(?m)^Date: [^\r\n]*`)

// TestGetLikeCurl: the same requests by locator get and by curl, the
// same standard output (the Date field's value aside): -I's and -i's
// heads as nginx sent them, every -w variable of a successful
// transfer, -X, -A, and the grouped flags curl's users write. Where
// locator's exit status is its own (1 for a refusal, curl 0 or 22), the
// output is still curl's.
func TestGetLikeCurl(t *testing.T) {
	peer.Require(t, "/usr/bin/curl")
	base := curlNginx(t, 0)
	const vars = `%{url_effective} %{http_code} %{size_download} %{num_redirects} %{exitcode}\n`
	const failVars = `%{url_effective} %{http_code} %{size_download} %{num_redirects}\n`
	for _, tt := range []struct {
		name       string
		get, curl  []string // BASE stands for the server's URL
		code       int      // get's exit status
		curlCode   int
		wantPrefix string // what the output begins with, so that no empty output passes
	}{
		{"-I", []string{"-I", "BASE/pub/hello.txt"}, []string{"-sI", "BASE/pub/hello.txt"}, 0, 0, "HTTP/1.1 200 OK\r\nServer: nginx"},
		{"-I redirected", []string{"-I", "BASE/moved"}, []string{"-sIL", "BASE/moved"}, 0, 0, "HTTP/1.1 301 Moved Permanently\r\n"},
		{"-I -L", []string{"-IL", "BASE/moved"}, []string{"-sIL", "BASE/moved"}, 0, 0, "HTTP/1.1 301"},
		{"-I 404", []string{"-I", "BASE/pub/missing"}, []string{"-sI", "BASE/pub/missing"}, 1, 0, "HTTP/1.1 404 Not Found\r\n"},
		{"-I 403", []string{"--head", "BASE/secret"}, []string{"-sI", "BASE/secret"}, 1, 0, "HTTP/1.1 403 Forbidden\r\n"},
		{"-i", []string{"-i", "BASE/moved"}, []string{"-siL", "BASE/moved"}, 0, 0, "HTTP/1.1 301"},
		{"-fsSLi", []string{"-fsSLi", "BASE/pub/hello.txt"}, []string{"-fsSLi", "BASE/pub/hello.txt"}, 0, 0, "HTTP/1.1 200 OK\r\n"},
		{"-fi 404", []string{"-fi", "BASE/pub/missing"}, []string{"-fsi", "BASE/pub/missing"}, 1, 22, "HTTP/1.1 404"},
		{"-w", []string{"-w", vars, "BASE/moved"}, []string{"-sL", "-w", vars, "BASE/moved"}, 0, 0, "hello\nBASE/pub/hello.txt 200 6 2 0\n"},
		{"-w -o", []string{"-o", "/dev/null", "-w", vars, "BASE/big.bin"}, []string{"-s", "-o", "/dev/null", "-w", vars, "BASE/big.bin"}, 0, 0, "BASE/big.bin 200 262144 0 0\n"},
		{"-w -I", []string{"-I", "-w", vars, "BASE/moved"}, []string{"-sIL", "-w", vars, "BASE/moved"}, 0, 0, "HTTP/1.1 301"},
		{"-w 404", []string{"-w", failVars, "BASE/pub/missing"}, []string{"-sf", "-w", failVars, "BASE/pub/missing"}, 1, 22, "BASE/pub/missing 404 0 0\n"},
		// curl writes the redirection's page, get none: its size aside.
		{"-w not followed", []string{"--max-redirs", "0", "-w", "%{url_effective} %{http_code} %{num_redirects}", "BASE/moved"},
			[]string{"-s", "-o", "/dev/null", "-w", "%{url_effective} %{http_code} %{num_redirects}", "BASE/moved"}, 3, 0, "BASE/moved 301 0"},
		{"-X", []string{"-sX", "DELETE", "-o", "/dev/null", "-w", failVars, "BASE/moved"}, []string{"-fsLX", "DELETE", "-o", "/dev/null", "-w", failVars, "BASE/moved"}, 1, 22, "BASE/pub/hello.txt 405 0 2\n"},
		{"-X echo", []string{"--request", "PUT", "-A", "a", "BASE/echo"}, []string{"-s", "-X", "PUT", "-A", "a", "BASE/echo"}, 0, 0, "PUT|a|127.0.0.1"},
		{"-A", []string{"-A", "agent/1.0", "BASE/echo"}, []string{"-s", "-A", "agent/1.0", "BASE/echo"}, 0, 0, "GET|agent/1.0|"},
		{"-A none", []string{"--user-agent=", "BASE/echo"}, []string{"-s", "-A", "", "BASE/echo"}, 0, 0, "GET||"},
		{"-sLo", []string{"-sLo", "/dev/null", "-w", "%{size_download}", "BASE/moved"}, []string{"-sLo", "/dev/null", "-w", "%{size_download}", "BASE/moved"}, 0, 0, "6"},
		{"times", []string{"--max-time", "2", "--connect-timeout", "5", "--retry", "1", "--retry-delay", "1", "--retry-max-time", "0.5", "BASE/pub/hello.txt"},
			[]string{"-s", "--max-time", "2", "--connect-timeout", "5", "--retry", "1", "--retry-delay", "1", "--retry-max-time", "1", "BASE/pub/hello.txt"}, 0, 0, "hello\n"},
		{"--limit-rate", []string{"--limit-rate", "1M", "-o", "/dev/null", "-w", "%{size_download}", "BASE/big.bin"},
			[]string{"-s", "--limit-rate", "1M", "-o", "/dev/null", "-w", "%{size_download}", "BASE/big.bin"}, 0, 0, "262144"},
	} {
		sub := func(args []string) []string {
			var r []string
			for _, a := range args {
				r = append(r, strings.ReplaceAll(a, "BASE", base))
			}
			return r
		}
		code, out, errs := runCLI(t, "", append([]string{"get"}, sub(tt.get)...)...)
		ccode, cout := runCurl(t, sub(tt.curl)...)
		out, cout = dated.ReplaceAllString(out, "Date: *"), dated.ReplaceAllString(cout, "Date: *")
		if code != tt.code || ccode != tt.curlCode || out != cout || !strings.HasPrefix(out, strings.ReplaceAll(tt.wantPrefix, "BASE", base)) {
			t.Errorf("%s: get exit %d (want %d), curl exit %d (want %d);\nget  %q\ncurl %q\nstderr %q", tt.name, code, tt.code, ccode, tt.curlCode, out, cout, errs)
		}
	}

	// %{json}: curl's values for each key get writes, the time aside.
	_, out, _ := runCLI(t, "", "get", "-o", "/dev/null", "-w", "%{json}", base+"/moved")
	_, cout := runCurl(t, "-sL", "-o", "/dev/null", "-w", "%{json}", base+"/moved")
	var g, c map[string]any
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatalf("get's %%{json} %q: %v", out, err)
	}
	if err := json.Unmarshal([]byte(cout), &c); err != nil {
		t.Fatalf("curl's %%{json} %q: %v", cout, err)
	}
	if len(g) != 6 || g["http_code"] != 200.0 {
		t.Errorf("get's %%{json}: %v", g)
	}
	for k, v := range g {
		if k != "time_total" && c[k] != v {
			t.Errorf("%%{json} %s: get %v, curl %v", k, v, c[k])
		}
	}
}

// -s: a failure says nothing on standard error (the exit status does),
// -sS says it; a usage error is always said.
func TestGetSilent(t *testing.T) {
	base := curlNginx(t, 0)
	for _, tt := range []struct {
		args   []string
		code   int
		stderr bool
	}{
		{[]string{"-s", base + "/pub/missing"}, 1, false},
		{[]string{"--silent", fmt.Sprintf("http://127.0.0.1:%d/", peer.FreePort(t))}, 3, false},
		{[]string{"-sS", base + "/pub/missing"}, 1, true},
		{[]string{"-s", "--show-error", base + "/pub/missing"}, 1, true},
		{[]string{"-S", base + "/pub/missing"}, 1, true},
		{[]string{"-s", "-4", "-6", base + "/pub/hello.txt"}, 2, true},
		{[]string{"-s", base + "/pub/hello.txt"}, 0, false},
	} {
		code, _, errs := runCLI(t, "", append([]string{"get"}, tt.args...)...)
		if code != tt.code || (errs != "") != tt.stderr {
			t.Errorf("get %q: exit %d, stderr %q", tt.args, code, errs)
		}
	}
}

// --resolve, -4 and -6, with curl's answers where curl gives one: nginx
// on 127.0.0.1 and on [::1] at another port.
func TestGetResolveFamilies(t *testing.T) {
	peer.Require(t, "/usr/bin/curl")
	v6 := peer.FreePort(t)
	base := curlNginx(t, v6)
	port := base[strings.LastIndexByte(base, ':')+1:]
	p6 := fmt.Sprint(v6)
	for _, tt := range []struct {
		args []string
		code int
		out  string
		curl bool // curl answers the same
	}{
		{[]string{"--resolve", "h.test:" + port + ":127.0.0.1", "http://h.test:" + port + "/echo"}, 0, "GET|agent|h.test:" + port + "\n", true},
		{[]string{"--resolve", "*:" + port + ":127.0.0.1", "http://other.test:" + port + "/echo"}, 0, "GET|agent|other.test:" + port + "\n", false},
		{[]string{"-6", "--resolve", "h.test:" + p6 + ":127.0.0.1,::1", "http://h.test:" + p6 + "/echo"}, 0, "GET|agent|h.test:" + p6 + "\n", true},
		{[]string{"--resolve", "h.test:" + p6 + ":127.0.0.1,[::1]", "http://h.test:" + p6 + "/echo"}, 0, "GET|agent|h.test:" + p6 + "\n", true},
		{[]string{"-4", "--resolve", "h.test:" + p6 + ":::1,127.0.0.1", "http://h.test:" + p6 + "/echo"}, 3, "", false},
		{[]string{"-4", "http://[::1]:" + p6 + "/echo"}, 3, "", false},
		{[]string{"-6", "http://[::1]:" + p6 + "/echo"}, 0, "GET|agent|[::1]:" + p6 + "\n", true},
		{[]string{"-6", "http://127.0.0.1:" + port + "/echo"}, 3, "", false},
	} {
		args := append([]string{"get", "-A", "agent"}, tt.args...)
		code, out, errs := runCLI(t, "", args...)
		if code != tt.code || out != tt.out {
			t.Errorf("get %q: exit %d %q %q, want exit %d %q", tt.args, code, out, errs, tt.code, tt.out)
		}
		if tt.curl {
			if ccode, cout := runCurl(t, append([]string{"-s", "-A", "agent"}, tt.args...)...); ccode != 0 || cout != out {
				t.Errorf("curl %q: exit %d %q, get's %q", tt.args, ccode, cout, out)
			}
		}
	}
	for _, bad := range []string{"h.test:80", "h.test:x:127.0.0.1", "h.test:80:nope", ":80:127.0.0.1"} {
		if code, _, errs := runCLI(t, "", "get", "--resolve", bad, base+"/echo"); code != 2 || !strings.Contains(errs, "--resolve") {
			t.Errorf("--resolve %q: exit %d %q", bad, code, errs)
		}
	}
}

// --limit-rate: the object is read no faster than the rate, each read
// waiting until its octets are due. The clock is the test's, moved only
// by the waits, so that the time taken is exact: 256 KiB at 64 KiB a
// second, four seconds.
func TestGetLimitRate(t *testing.T) {
	base := curlNginx(t, 0)
	fc := &testClock{t: time.Unix(0, 0)}
	var out, errb bytes.Buffer
	o := getOptions{limits: limits{connect: time.Second, idle: time.Second, maxEntries: 10, maxRedirs: 1}, noPrompt: true,
		curlOptions: curlOptions{limitRate: 64 << 10}, clock: fc}
	code := runGet(&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, []string{base + "/big.bin"}, &o)
	if code != 0 || out.Len() != 256<<10 {
		t.Fatalf("exit %d, %d octets, %q", code, out.Len(), errb.String())
	}
	if took := fc.t.Sub(time.Unix(0, 0)); took < 4*time.Second-time.Millisecond || took > 4*time.Second+time.Millisecond {
		t.Errorf("256 KiB at 64 KiB/s took %v of the clock, want 4s", took)
	}
	if fc.sleeps < 32 {
		t.Errorf("%d waits: reads of more than an eighth of a second's octets", fc.sleeps)
	}
}

// testClock is a clock that moves only when slept.
type testClock struct {
	t      time.Time
	sleeps int
}

func (c *testClock) now() time.Time { return c.t }
func (c *testClock) sleep(d time.Duration) {
	c.t = c.t.Add(d)
	c.sleeps++
}

// -u USER without a password: asked on the terminal as curl asks, not
// echoed, and sent (a pseudo-terminal stands for the person's).
func TestGetUserPrompt(t *testing.T) {
	addr, _, _ := httpNginx(t)
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if _, err := ptmx.Write([]byte("s3cret\n")); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"get", "-u", "joe", "http://" + addr + "/private/ok.txt"}, &env{stdin: tty, stdout: &out, stderr: &errb})
	if code != 0 || out.String() != "inside\n" || errb.String() != "Enter host password for user 'joe':\n" {
		t.Errorf("exit %d %q, stderr %q", code, out.String(), errb.String())
	}
}

// -H's Authorization and Cookie after a redirection to another port of
// the same host (CVE-2022-27776): dropped, as curl 7.88 drops them, and
// sent with --location-trusted, as curl's; nginx's log of the second
// port says what reached it.
func TestGetHeaderCredentialsRedirect(t *testing.T) {
	peer.Require(t, "/usr/bin/curl")
	dir := t.TempDir()
	root := headTree(t)
	format := `log_format creds '$uri "$http_authorization" "$http_cookie" "$http_proxy_authorization"';`
	log := filepath.Join(dir, "second.log")
	second := peer.Nginx(t, root, peer.NginxConfig{Connections: 16, HTTP: format, Server: "    access_log " + log + " creds;"})
	first := peer.Nginx(t, root, peer.NginxConfig{Connections: 16, Server: "    location /away { return 302 http://" + second.Addr + "/pub/hello.txt; }"})
	creds := []string{"-H", "Authorization: Bearer t0ken", "-H", "Cookie: s=c00kie", "-H", "Proxy-Authorization: Basic cHJveHk="}
	for _, tt := range []struct {
		trusted     bool
		want, wantc string // get's log line, curl's
	}{
		{false, `"-" "-" "-"`, `"-" "-" "Basic cHJveHk="`},
		{true, `"Bearer t0ken" "s=c00kie" "Basic cHJveHk="`, `"Bearer t0ken" "s=c00kie" "Basic cHJveHk="`},
	} {
		args := append([]string{"get", "-o", "/dev/null"}, creds...)
		cargs := append([]string{"-sL", "-o", "/dev/null"}, creds...)
		if tt.trusted {
			args, cargs = append(args, "--location-trusted"), append(cargs, "--location-trusted")
		}
		for _, who := range []string{"get", "curl"} {
			os.Truncate(log, 0)
			var code int
			want := tt.want
			if who == "get" {
				code, _, _ = runCLI(t, "", append(args, "http://"+first.Addr+"/away")...)
			} else {
				code, _ = runCurl(t, append(cargs, "http://"+first.Addr+"/away")...)
				want = tt.wantc
			}
			if line := peer.LogLine(t, log, "/pub/hello.txt "); code != 0 || line != "/pub/hello.txt "+want {
				t.Errorf("%s, --location-trusted %v: exit %d, the second server logged %q, want %s", who, tt.trusted, code, line, want)
			}
		}
	}
}

// Grouped one-letter flags are read as getopt reads them (POSIX XBD
// §12.2, guideline 5); a value is never read as flags, nor is anything
// after "--".
func TestUngroup(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	for _, b := range []string{"f", "s", "S", "L", "max-bool"} {
		fs.Bool(b, false, "")
	}
	for _, v := range []string{"o", "C", "max-time", "H"} {
		fs.String(v, "", "")
	}
	for _, tt := range []struct{ in, want, err string }{
		{"-fsSL URL", "-f -s -S -L URL", ""},
		{"-sLo FILE URL", "-s -L -o FILE URL", ""},
		{"-ofile URL", "-o=file URL", ""},
		{"-C- -o x", "-C=- -o x", ""},
		{"-sC - URL", "-s -C - URL", ""},
		{"-max-time 2 -max-bool", "-max-time 2 -max-bool", ""},
		{"--max-time -fs URL", "--max-time -fs URL", ""}, // a value
		{"-H -fsSL URL", "-H -fsSL URL", ""},
		{"-o=-fs -fs", "-o=-fs -f -s", ""},
		{"URL -- -fs", "URL -- -fs", ""},
		{"- -x -fx", "- -x -fx", "unknown flag -x in -fx"},
		{"-zf", "-zf", ""}, // the flag package's message
	} {
		got, err := ungroup(fs, strings.Fields(tt.in))
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("ungroup(%q): %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != tt.want {
			t.Errorf("ungroup(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}

// The messages and the help write a flag as the synopsis does: -L,
// --max-time; the help lists each flag once, its one-letter name with
// its long one, without the deprecated names or an empty list's
// default.
func TestFlagSpelling(t *testing.T) {
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"parse", "-L", "x"}, "locator parse: unknown flag -L\n"},
		{[]string{"parse", "--L", "x"}, "locator parse: unknown flag -L\n"},
		{[]string{"parse", "-nope", "x"}, "locator parse: unknown flag --nope\n"},
		{[]string{"get", "-o"}, "locator get: flag -o needs an argument\n"},
		{[]string{"get", "--max-time", "soon", "x"}, "locator get: invalid value \"soon\" for --max-time: not a time: seconds (2, 0.5) or a number with a unit (500ms, 1m30s)\n"},
		{[]string{"get", "-fsZ", "x"}, "locator get: unknown flag -Z in -fsZ\n"},
	} {
		code, _, errs := runCLI(t, "", tt.args...)
		if code != 2 || !strings.HasPrefix(errs, tt.msg) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tt.args, code, errs, tt.msg)
		}
	}
	_, help, _ := runCLI(t, "", "get", "--help")
	for _, want := range []string{"\n  -o, --output FILE\n", "\n  -I, --head\n", "\n  -s, --silent\n", "\n  -X, --request METHOD\n", "\n  -4\n", "\n  -v\n",
		"\n  --connect-timeout seconds\n", `(default "30s")`} {
		if strings.Count(help, want) != 1 {
			t.Errorf("get --help holds %q %d times", want, strings.Count(help, want))
		}
	}
	for _, never := range []string{"deprecated", "--timeout", "--max-size", `(default "[]")`, "(the same as", "\n  -output", "\n  --o "} {
		if strings.Contains(help, never) {
			t.Errorf("get --help holds %q", never)
		}
	}
}

// Times as curl and wget write them: seconds, a fraction allowed, or
// Go's form with a unit.
func TestDurationFlag(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"2", 2 * time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{".25", 250 * time.Millisecond, true},
		{"5.", 5 * time.Second, true},
		{"0", 0, true},
		{"-1", -time.Second, true},
		{"1m30s", 90 * time.Second, true},
		{"500ms", 500 * time.Millisecond, true},
		{"", 0, false},
		{".", 0, false},
		{"1e3", 0, false},
		{"inf", 0, false},
		{"NaN", 0, false},
		{"0x10", 0, false},
		{"1.2.3", 0, false},
		{"99999999999999", 0, false},
		{"2 s", 0, false},
	} {
		var d time.Duration
		err := (*durationFlag)(&d).Set(tt.in)
		if (err == nil) != tt.ok || d != tt.want {
			t.Errorf("Set(%q) = %v, %v; want %v, ok %v", tt.in, d, err, tt.want, tt.ok)
		}
	}
}
