package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// getServer serves /hello.txt ("hello\n", length given), /stream (4000
// octets in chunks), /redir?to=URL and 404 for anything else.
func getServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hello.txt":
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Length", "6")
			io.WriteString(w, "hello\n")
		case "/stream":
			for range 4 {
				w.Write(bytes.Repeat([]byte("s"), 1000))
				w.(http.Flusher).Flush()
			}
		case "/redir":
			http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestGetHTTP(t *testing.T) {
	srv := getServer(t)
	code, out, errs := runCLI(t, "", "get", srv.URL+"/hello.txt")
	if code != 0 || out != "hello\n" || errs != "" {
		t.Errorf("exit %d, out %q, err %q", code, out, errs)
	}
	// "-": the URL on standard input.
	code, out, errs = runCLI(t, "\n"+srv.URL+"/hello.txt\r\n", "get", "-")
	if code != 0 || out != "hello\n" || errs != "" {
		t.Errorf("-: exit %d, out %q, err %q", code, out, errs)
	}

	// -o FILE: the octets there, nothing on stdout.
	dst := filepath.Join(t.TempDir(), "out")
	code, out, _ = runCLI(t, "", "get", "-o", dst, srv.URL+"/stream")
	b, _ := os.ReadFile(dst)
	if code != 0 || out != "" || len(b) != 4000 {
		t.Errorf("-o: exit %d, out %q, file %d octets", code, out, len(b))
	}

	// -v: the dialogue on stderr, the password masked.
	hostport := strings.TrimPrefix(srv.URL, "http://")
	code, out, errs = runCLI(t, "", "get", "-v", "http://joe:secret@"+hostport+"/hello.txt#frag")
	for _, want := range []string{"* connect " + hostport + "\n", "> GET /hello.txt HTTP/1.1\n", "> Host: " + hostport + "\n", "< HTTP/1.1 200 OK\n", "< Content-Length: 6\n"} {
		if !strings.Contains(errs, want) {
			t.Errorf("-v lacks %q:\n%s", want, errs)
		}
	}
	if code != 0 || out != "hello\n" || strings.Contains(errs, "secret") {
		t.Errorf("-v: exit %d out %q\n%s", code, out, errs)
	}

	// The server's "no": exit 1.
	code, _, errs = runCLI(t, "", "get", srv.URL+"/missing")
	if code != 1 || !strings.Contains(errs, "the server says 404 Not Found") {
		t.Errorf("404: exit %d %q", code, errs)
	}
}

// RFC 1738 §6: the command's answers to hostile or mistaken URLs.
func TestGetSafety(t *testing.T) {
	srv := getServer(t)
	// A smuggled port: refused before connecting, exit 4, unless allowed
	// (then whatever is there is not an HTTP server, or nothing is: 3).
	code, _, errs := runCLI(t, "", "get", "http://127.0.0.1:25/")
	if code != 4 || !strings.Contains(errs, "port 25 belongs to another service") || !strings.Contains(errs, "--allow-port") {
		t.Errorf("port 25: exit %d %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "get", "--allow-port", "21,25", "--connect-timeout", "2s", "--idle-timeout", "2s", "http://127.0.0.1:25/")
	if code != 3 {
		t.Errorf("port 25 allowed: exit %d %q", code, errs)
	}
	// A redirection to a bad port.
	code, _, errs = runCLI(t, "", "get", srv.URL+"/redir?to=http://127.0.0.1:119/")
	if code != 4 || !strings.Contains(errs, "port 119") {
		t.Errorf("redirect to 119: exit %d %q", code, errs)
	}
	// A denied host, and a host outside the allowed ones.
	for _, flags := range [][]string{{"--deny-host", "127.0.0.1"}, {"--allow-host", "example.com,.example.org"}} {
		code, _, errs = runCLI(t, "", append(append([]string{"get"}, flags...), srv.URL+"/hello.txt")...)
		if code != 4 || !strings.Contains(errs, "not allowed by local policy") {
			t.Errorf("%v: exit %d %q", flags, code, errs)
		}
	}
	// A server that accepts and says nothing: cut off, exit 3.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	defer func() { close(done); ln.Close() }()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { <-done; c.Close() }()
		}
	}()
	code, _, errs = runCLI(t, "", "get", "--idle-timeout", "200ms", "http://"+ln.Addr().String()+"/")
	if code != 3 || !strings.Contains(errs, "timeout") || !strings.Contains(errs, "--idle-timeout 200ms") {
		t.Errorf("stalling server: exit %d %q", code, errs)
	}
	// Oversized, declared and not: exit 3, and -o leaves no partial file.
	code, _, errs = runCLI(t, "", "get", "--max-filesize", "5", srv.URL+"/hello.txt")
	if code != 3 || !strings.Contains(errs, "Content-Length 6, the limit is 5") || !strings.Contains(errs, "(--max-filesize 5)") {
		t.Errorf("declared oversize: exit %d %q", code, errs)
	}
	dst := filepath.Join(t.TempDir(), "partial")
	code, out, errs := runCLI(t, "", "get", "--max-filesize", "3K", "-o", dst, srv.URL+"/stream")
	if _, serr := os.Stat(dst); code != 3 || out != "" || !strings.Contains(errs, "larger than the size limit (--max-filesize 3072)") || serr == nil {
		t.Errorf("streamed oversize: exit %d %q, file left: %v", code, errs, serr == nil)
	}
	code, out, _ = runCLI(t, "", "get", "--max-filesize", "4000", srv.URL+"/stream")
	if code != 0 || len(out) != 4000 {
		t.Errorf("at the limit: exit %d, %d octets", code, len(out))
	}
	// Redirections: followed, or not at all with --max-redirs 0.
	code, out, _ = runCLI(t, "", "get", srv.URL+"/redir?to=/hello.txt")
	if code != 0 || out != "hello\n" {
		t.Errorf("redirect: exit %d %q", code, out)
	}
	code, _, errs = runCLI(t, "", "get", "--max-redirs", "0", srv.URL+"/redir?to=/hello.txt")
	if code != 3 || !strings.Contains(errs, "following redirections is off") {
		t.Errorf("--max-redirs 0: exit %d %q", code, errs)
	}
}

func TestGetFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub dir"), 0o755)
	stamp := time.Date(1994, 12, 20, 12, 0, 0, 0, time.UTC)
	os.Chtimes(filepath.Join(dir, "a.txt"), stamp, stamp)
	os.Chtimes(filepath.Join(dir, "sub dir"), stamp, stamp)

	code, out, _ := runCLI(t, "", "get", "file://"+dir+"/a.txt")
	if code != 0 || out != "alpha\n" {
		t.Errorf("file: exit %d %q", code, out)
	}
	code, out, _ = runCLI(t, "", "get", "file://localhost"+dir)
	want := "TYPE       SIZE  MODIFIED          NAME     URL\n" +
		"file       6     1994-12-20 12:00  a.txt    file://localhost" + dir + "/a.txt\n" +
		"directory  -     1994-12-20 12:00  sub dir  file://localhost" + dir + "/sub%20dir/\n"
	if code != 0 || out != want {
		t.Errorf("listing: exit %d\n%s\nwant\n%s", code, out, want)
	}
	code, out, _ = runCLI(t, "", "get", "--json", "file://"+dir+"/")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 2 {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
	wantJSON := []string{
		`{"url":"file://` + dir + `/a.txt","name":"a.txt","type":"file","size":6,"modified":"1994-12-20T12:00:00Z"}`,
		`{"url":"file://` + dir + `/sub%20dir/","name":"sub dir","type":"directory","modified":"1994-12-20T12:00:00Z"}`,
	}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || l != wantJSON[i] {
			t.Errorf("--json line %d: %s (%v)\nwant %s", i, l, err, wantJSON[i])
		}
	}
	// -o takes a listing too.
	dst := filepath.Join(t.TempDir(), "listing")
	code, out, errs := runCLI(t, "", "get", "-o", dst, "file://"+dir+"/")
	b, _ := os.ReadFile(dst)
	if code != 0 || out != "" || strings.Count(string(b), "\n") != 3 || errs != "" {
		t.Errorf("-o listing: exit %d %q %q", code, b, errs)
	}
	// --max-entries cuts it: a failure (exit 3) that says so and names
	// the URL; -o keeps nothing of it.
	dst = filepath.Join(t.TempDir(), "cut")
	code, out, errs = runCLI(t, "", "get", "--max-entries", "1", "-o", dst, "file://"+dir+"/")
	_, serr := os.Stat(dst)
	if code != 3 || out != "" || !errors.Is(serr, os.ErrNotExist) || errs != "locator get: file://"+dir+"/: the listing has more than 1 entries; the rest were not read (--max-entries)\n" {
		t.Errorf("-o listing cut: exit %d %q, file: %v", code, errs, serr)
	}
	// A name with a control octet is quoted in the table.
	odd := t.TempDir()
	os.WriteFile(filepath.Join(odd, "x\ny"), nil, 0o644)
	code, out, _ = runCLI(t, "", "get", "file://"+odd+"/")
	if code != 0 || !strings.Contains(out, `  "x\ny"  file://`+odd+"/x%0Ay\n") {
		t.Errorf("control octet in a name: exit %d\n%s", code, out)
	}

	code, _, errs = runCLI(t, "", "get", "file://"+dir+"/missing")
	if code != 1 || !strings.Contains(errs, "ENOENT") {
		t.Errorf("missing: exit %d %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "get", "file://vms.host.edu/disk$user/my/notes/note12345.txt")
	if code != 4 || !strings.Contains(errs, `"The file URL scheme is unusual in that it does not specify an Internet protocol or access method for such files"`) {
		t.Errorf("another host: exit %d %q", code, errs)
	}
}

func TestGetUsage(t *testing.T) {
	for _, args := range [][]string{
		{"get"},
		{"get", "http://a/", "http://b/["}, // a malformed glob
		{"get", "--allow-port", "x", "http://a/"},
		{"get", "--allow-port", "70000", "http://a/"},
		{"get", "--max-filesize", "1Q", "http://a/"},
		{"get", "--idle-timeout", "0s", "http://a/"},
		{"get", "--max-redirs", "-1", "http://a/"},
		{"get", "--method", "nocwd", "http://a/"}, // http has no methods to choose from
		{"get", "--no-such-flag", "http://a/"},
		{"get", "not a url"},
		{"get", "-"}, // nothing on stdin

	} {
		if code, _, errs := runCLI(t, "", args...); code != 2 || !strings.Contains(errs, "usage: locator get") {
			t.Errorf("%q: exit %d %q", args, code, errs)
		}
	}
	if code, _, errs := runCLI(t, "http://a/\nhttp://b/\n", "get", "-"); code != 2 || !strings.Contains(errs, "want one URL on standard input, got 2") {
		t.Errorf("two URLs on stdin: exit %d %q", code, errs)
	}
	code, out, _ := runCLI(t, "", "get", "--help")
	if code != 0 || !strings.Contains(out, "-max-redirs") || !strings.Contains(out, "exit 0 delivered") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
	// No client for the scheme: refused locally, exit 4, the clients named.
	// (mailto has a client that refuses: send_test.go's TestGetMailto.)
	code, _, errs := runCLI(t, "", "get", "x-none:joe@example.com")
	if code != 4 || !strings.Contains(errs, `no client for scheme "x-none" (clients: `) || !strings.Contains(errs, "http, https") {
		t.Errorf("x-none: exit %d %q", code, errs)
	}
}

// fullDisk refuses every write, as a full disk does.
type fullDisk struct{}

func (fullDisk) Write(p []byte) (int, error) { return 0, errors.New("no space left on device") }

// An error writing our own output is local trouble: exit 2, said so.
func TestGetWriteError(t *testing.T) {
	srv := getServer(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a"), nil, 0o644)
	for _, u := range []string{srv.URL + "/hello.txt", "file://" + dir + "/"} {
		var errb bytes.Buffer
		code := run([]string{"get", u}, &env{stdin: strings.NewReader(""), stdout: fullDisk{}, stderr: &errb})
		if code != 2 || !strings.Contains(errb.String(), "writing standard output: no space left on device") {
			t.Errorf("%s: exit %d %q", u, code, errb.String())
		}
	}
	code, _, errs := runCLI(t, "", "get", "-o", filepath.Join(dir, "no", "such", "dir"), srv.URL+"/hello.txt")
	if code != 2 || !strings.Contains(errs, "no such file or directory") {
		t.Errorf("-o in a missing directory: exit %d %q", code, errs)
	}
}

// The progress bar: never when standard error is not a terminal; when
// it is (forced here), only after the transfer has run its delay.
func TestGetProgress(t *testing.T) {
	srv := getServer(t)
	for _, tt := range []struct {
		force bool
		after time.Duration
		bar   bool
	}{
		{false, time.Nanosecond, false},
		{true, time.Hour, false},
		{true, time.Nanosecond, true},
	} {
		var out, errb bytes.Buffer
		o := getOptions{limits: limits{connect: time.Second, idle: time.Second, maxEntries: 10, maxRedirs: 1}, forceProgress: tt.force, progressAfter: tt.after, noPrompt: true}
		code := runGet(&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, []string{srv.URL + "/stream"}, &o)
		if code != 0 || out.Len() != 4000 || strings.Contains(errb.String(), "locator get") != tt.bar {
			t.Errorf("force %v after %v: exit %d, %d octets, stderr %q", tt.force, tt.after, code, out.Len(), errb.String())
		}
	}
}

func ExampleGet() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "motd"), []byte("Welcome.\n"), 0o644)
	e := &env{stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stdout}
	code := run([]string{"get", "file://" + dir + "/motd"}, e)
	fmt.Println("exit", code)
	// Output:
	// Welcome.
	// exit 0
}
