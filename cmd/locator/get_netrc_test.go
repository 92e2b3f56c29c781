package main

// get's --netrc, --netrc-optional and --netrc-file: the logins of a
// .netrc file, through locator get, against pyftpdlib (FTP USER and
// PASS) and nginx (HTTP Basic).

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// writeNetrc writes a .netrc of text with mode into dir.
func writeNetrc(t *testing.T, dir, text string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, ".netrc")
	if err := os.WriteFile(p, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // whatever the umask
		t.Fatal(err)
	}
	return p
}

// TestGetNetrcFTP: the .netrc's login for the URL's host is the one
// pyftpdlib's user ftpuser logs in with, for a URL naming the user and
// for one naming none (which would otherwise be anonymous, and see
// another tree).
func TestGetNetrcFTP(t *testing.T) {
	dir := t.TempDir()
	root, home := filepath.Join(dir, "anon"), filepath.Join(dir, "home")
	for _, d := range []string{filepath.Join(root, "pub"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "pub", "hello.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "secret.txt"), []byte("ftpuser's own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := peer.Pyftpdlib(t, root, peer.PyftpdOptions{Home: home})
	_, port, _ := strings.Cut(s.Addr, ":")
	secret := "ftp://ftpuser@127.0.0.1:" + port + "/secret.txt"
	noUser := "ftp://127.0.0.1:" + port + "/secret.txt"

	// Without a .netrc there is nobody to ask for the password.
	code, out, errs := runCLI(t, "", "get", secret)
	if code != 4 || out != "" || !strings.Contains(errs, "no terminal to ask") {
		t.Fatalf("no .netrc: exit %d, out %q, err %q", code, out, errs)
	}

	nd := t.TempDir()
	netrc := writeNetrc(t, nd, "# pyftpdlib\nmachine other.example login x password y\n"+
		"machine 127.0.0.1\n  login ftpuser\n  password \"ftppass\"\nmacdef init\nbinary\n\ndefault login anonymous password me@example.org\n", 0o600)
	for _, args := range [][]string{
		{"--netrc-file", netrc, secret},
		{"--netrc-file", netrc, noUser},
		{"--netrc-file", netrc, "--netrc-optional", secret},
	} {
		code, out, errs := runCLI(t, "", append([]string{"get", "-v"}, args...)...)
		if code != 0 || out != "ftpuser's own\n" {
			t.Errorf("%q: exit %d, out %q, err %q", args, code, out, errs)
		}
		if !strings.Contains(errs, "> USER ftpuser\n") || strings.Contains(errs, "ftppass") {
			t.Errorf("%q: the dialogue does not log in as ftpuser, or shows the password:\n%s", args, errs)
		}
	}
	// Another user than the .netrc's for the host: the default entry's
	// login is another too, so nothing is known, and nobody is asked.
	code, _, errs = runCLI(t, "", "get", "--netrc-file", netrc, "ftp://joe@127.0.0.1:"+port+"/secret.txt")
	if code != 4 || !strings.Contains(errs, "no terminal to ask") {
		t.Errorf("joe: exit 0, err %q", errs)
	}

	// --netrc and -n: ~/.netrc.
	t.Setenv("HOME", nd)
	for _, flag := range []string{"--netrc", "-n", "--netrc-optional"} {
		code, out, errs := runCLI(t, "", "get", flag, noUser)
		if code != 0 || out != "ftpuser's own\n" || errs != "" {
			t.Errorf("%s: exit %d, out %q, err %q", flag, code, out, errs)
		}
	}
	// The default entry for another host name of the same server:
	// anonymous, its password the entry's.
	code, out, errs = runCLI(t, "", "get", "-v", "--netrc", "ftp://localhost:"+port+"/pub/hello.txt")
	if code != 0 || out != "hello\n" || !strings.Contains(errs, "> USER anonymous\n") {
		t.Errorf("default entry: exit %d, out %q, err %q", code, out, errs)
	}
	// No ~/.netrc: --netrc goes on without, as curl's.
	t.Setenv("HOME", t.TempDir())
	code, out, errs = runCLI(t, "", "get", "--netrc", "ftp://127.0.0.1:"+port+"/pub/hello.txt")
	if code != 0 || out != "hello\n" || errs != "" {
		t.Errorf("no ~/.netrc: exit %d, out %q, err %q", code, out, errs)
	}
}

// TestGetNetrcHTTP: Basic authorization (RFC 7617) from the .netrc for
// an http URL, which gives no user (RFC 1738 §3.3 allows none).
func TestGetNetrcHTTP(t *testing.T) {
	addr, _, _ := httpNginx(t)
	u := "http://" + addr + "/private/ok.txt"
	code, _, errs := runCLI(t, "", "get", u)
	if code != 1 || !strings.Contains(errs, "401") {
		t.Fatalf("no .netrc: exit %d, err %q", code, errs)
	}
	netrc := writeNetrc(t, t.TempDir(), "machine 127.0.0.1 login joe password s3cret\n", 0o600)
	code, out, errs := runCLI(t, "", "get", "-v", "--netrc-file", netrc, u)
	if code != 0 || out != "inside\n" || strings.Contains(errs, "s3cret") {
		t.Errorf("--netrc-file: exit %d, out %q, err %q", code, out, errs)
	}
	// A wrong password in the file: the server's refusal.
	bad := writeNetrc(t, t.TempDir(), "machine 127.0.0.1 login joe password wrong\n", 0o600)
	code, _, errs = runCLI(t, "", "get", "--netrc-file", bad, u)
	if code != 1 || !strings.Contains(errs, "401") {
		t.Errorf("wrong password: exit %d, err %q", code, errs)
	}
}

// TestGetNetrcFile: a .netrc that cannot be used is a usage error
// (exit 2) before any connection, naming the file and the line; a file
// others may read is used with one warning.
func TestGetNetrcFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	// Nothing listens on the URL's port: exit 2 shows nothing was tried.
	url := "ftp://127.0.0.1:" + strconv.Itoa(peer.FreePort(t)) + "/x"
	for _, tc := range []struct {
		text  string
		want  string
		flags []string
	}{
		{"machine 127.0.0.1\n login ftpuser\n pasword x\n", `.netrc: line 3: unknown keyword "pasword"`, nil},
		{"machine 127.0.0.1 login", ".netrc: line 1: login has no value at the end of the file", nil},
		{"machine h\n\n password \"open\n", ".netrc: line 3: a quoted token has no closing quote on its line", nil},
		{"login joe password x\n", ".netrc: line 1: login before any machine or default entry", nil},
		{"", "--netrc-file: open " + missing + ": no such file or directory", []string{"--netrc-file", missing}},
	} {
		args := tc.flags
		if args == nil {
			args = []string{"--netrc-file", writeNetrc(t, t.TempDir(), tc.text, 0o600)}
		}
		code, out, errs := runCLI(t, "", append(append([]string{"get"}, args...), url)...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) || !strings.HasPrefix(errs, "locator get: --netrc-file: ") {
			t.Errorf("%q: exit %d, out %q, err %q; want 2 and %q", tc.text, code, out, errs, tc.want)
		}
	}
	// --netrc-optional: a missing --netrc-file is none (then exit 3:
	// nothing listens there).
	code, _, errs := runCLI(t, "", "get", "--netrc-optional", "--netrc-file", missing, "--connect-timeout", "5s", url)
	if code != 3 || strings.Contains(errs, "netrc") {
		t.Errorf("--netrc-optional, missing file: exit %d, err %q", code, errs)
	}

	// A readable file with a password: one warning, and it is used.
	f := getServer(t)
	for _, tc := range []struct {
		text string
		mode os.FileMode
		warn bool
	}{
		{"machine 127.0.0.1 login joe password secret\n", 0o644, true},
		{"machine 127.0.0.1 login joe password secret\n", 0o660, true},
		{"machine 127.0.0.1 login joe password secret\n", 0o600, false},
		{"machine 127.0.0.1 login joe\n", 0o644, false}, // no password to keep
	} {
		p := writeNetrc(t, t.TempDir(), tc.text, tc.mode)
		code, out, errs := runCLI(t, "", "get", "--netrc-file", p, f.URL+"/hello.txt")
		n := strings.Count(errs, "warning")
		if code != 0 || out != "hello\n" || tc.warn != (n == 1) || n > 1 {
			t.Errorf("%q mode %o: exit %d, out %q, err %q", tc.text, tc.mode, code, out, errs)
		}
		if tc.warn && !strings.Contains(errs, "locator get: warning: "+p+" holds passwords and other users than its owner have access to it") {
			t.Errorf("mode %o: warning %q", tc.mode, errs)
		}
	}
}
