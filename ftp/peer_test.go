package ftp_test

// Integration tests against real FTP servers on loopback (started by
// internal/peer): pyftpdlib, whose DEBUG log records each raw command
// line, so that the exact command sequence of RFC 1738 §3.2.2's examples
// is asserted; and vsftpd, a second, stricter implementation. Each server is started on a free port by the test and
// stopped by its process id; a test whose server is not installed is
// skipped with a one-line reason.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/internal/peer"
)

// tree writes files (path → content) under dir.
func tree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The anonymous tree and ftpuser's home, shared by both servers.
var (
	anonFiles = map[string]string{
		"etc/motd":               "anonymous motd\n",
		"pub/hello.txt":          "line1\nline2\n",
		"pub/bin.dat":            "\x00\x01\r\n\x02\r\xff",
		"pub/sub/deep.txt":       "deep\n",
		"pub/empty/":             "",
		"pub/with space.txt":     "spaced\n",
		"top.txt":                "top\n",
		"pub/sub/inner/leaf.txt": "leaf\n",
	}
	userFiles = map[string]string{
		"etc/motd": "ftpuser motd\n",
	}
)

type pyftpd struct {
	*peer.Server
	root, home, log string
}

func startPyftpd(t *testing.T, flags ...string) *pyftpd {
	t.Helper()
	peer.RequirePython(t, peer.Python, "pyftpdlib")
	dir := t.TempDir()
	p := &pyftpd{root: filepath.Join(dir, "root"), home: filepath.Join(dir, "home")}
	tree(t, p.root, anonFiles)
	tree(t, p.home, userFiles)
	s := peer.Pyftpdlib(t, p.root, peer.PyftpdOptions{Home: p.home, Ports: 20, Flags: flags})
	p.Server, p.log = s.Server, s.Log
	return p
}

// commands returns the command lines pyftpdlib logged since offset
// (each "<- " line, trailing space kept, PASS masked by the server), and
// the new offset.
func (p *pyftpd) commands(t *testing.T, from int) ([]string, int) {
	t.Helper()
	b, err := os.ReadFile(p.log)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, l := range strings.Split(string(b[from:]), "\n") {
		if _, c, ok := strings.Cut(l, "] <- "); ok {
			cmds = append(cmds, c)
		}
	}
	return cmds, len(b)
}

// waitQuit waits until the server has logged the session's QUIT (the
// server logs after it answers, so the client may be done first).
func (p *pyftpd) waitQuit(t *testing.T, from int) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if cmds, _ := p.commands(t, from); len(cmds) > 0 && cmds[len(cmds)-1] == "QUIT" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type result struct {
	body    string
	listing []access.Entry
	res     *access.Resource
	err     error
	dialog  string
}

// withFTP returns the Schemes of an access.Client that follows ftp URLs
// with f.
func withFTP(f *ftp.Client) map[string]access.Fetcher {
	return map[string]access.Fetcher{"ftp": f}
}

// ftpOf returns the ftp client c is given (a zero one when none).
func ftpOf(c *access.Client) *ftp.Client {
	if c != nil {
		if f, ok := c.Schemes["ftp"].(*ftp.Client); ok {
			return f
		}
	}
	return &ftp.Client{}
}

// get follows raw with c, a Client made for this one call (nil: a zero
// one), its dialogue logged and its idle timeout 20 s unless c sets one.
// It ends the Client's idle sessions (CloseIdle) before it returns, so
// that each call's session ends with QUIT, as the sequences expect.
func get(t *testing.T, raw string, c *access.Client) result {
	t.Helper()
	u, err := locator.Parse(raw)
	if err != nil {
		t.Fatalf("Parse(%q): %v", raw, err)
	}
	if c == nil {
		c = &access.Client{}
	}
	var dlg bytes.Buffer
	c.Dialogue = &dlg
	if c.IdleTimeout == 0 {
		c.IdleTimeout = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := c.Get(ctx, u)
	r := result{res: res, err: err}
	if err == nil {
		if res.Listing != nil {
			r.listing, r.err = entries(res.Listing), listingErr(res, nil)
		} else {
			b, rerr := io.ReadAll(res.Body)
			cerr := res.Body.Close()
			r.body = string(b)
			r.err = errors.Join(rerr, cerr)
		}
	}
	c.CloseIdle()
	r.dialog = dlg.String()
	return r
}

func host(s *peer.Server) string { return s.Addr }

// TestPyftpdlibRFC1738Sequences follows RFC 1738 §3.2.2's examples and
// the forms around them on pyftpdlib and asserts the exact command lines
// the server received, and the object delivered. A file is exactly
// §3.2.2's sequence: USER, PASS, one CWD per <cwd>, TYPE, then EPSV (RFC
// 2428: passive mode needs it) and RETR, and QUIT; no FEAT, SIZE or
// MDTM; only PWD before the first CWD, for the login directory a reused
// session returns to. A directory is NLST, then FEAT and MLSD (pyftpdlib offers MLST),
// beyond §3.2.2 for each entry's type, size and date. MethodMetadata adds
// FEAT, SIZE and MDTM. pyftpdlib's 150 states no count: Size is -1
// without SIZE.
func TestPyftpdlibRFC1738Sequences(t *testing.T) {
	srv := startPyftpd(t)
	h := host(srv.Server)
	anon := []string{"USER anonymous", "PASS ******"}
	user := []string{"USER ftpuser", "PASS ******"}
	seq := func(login []string, cmds ...string) []string { return append(append([]string{}, login...), cmds...) }
	var prompts []string
	askFtppass := func(prompt string) (string, error) {
		prompts = append(prompts, prompt)
		return "ftppass", nil
	}
	defer func() {
		if want := []string{"Password for ftpuser at 127.0.0.1: "}; !reflect.DeepEqual(prompts, want) {
			t.Errorf("prompts %q, want %q", prompts, want)
		}
	}()
	cases := []struct {
		name, url string
		client    *access.Client
		cmds      []string
		body      string
		size      int64    // Resource.Size of a file
		entries   []string // "type name url"
	}{
		{"§3.2.2 %2Fetc/motd, a user without password", "ftp://ftpuser@" + h + "/%2Fetc/motd", &access.Client{Password: askFtppass},
			seq(user, "PWD", "CWD /etc", "TYPE I", "EPSV", "RETR motd", "QUIT"), "ftpuser motd\n", -1, nil},
		{"§3.2.2 etc/motd, a user with password", "ftp://ftpuser:ftppass@" + h + "/etc/motd", nil,
			seq(user, "PWD", "CWD etc", "TYPE I", "EPSV", "RETR motd", "QUIT"), "ftpuser motd\n", -1, nil},
		{"§3.2.2 //etc/motd empty segment", "ftp://ftpuser:ftppass@" + h + "//etc/motd", nil,
			seq(user, "PWD", "CWD ", "CWD etc", "TYPE I", "EPSV", "RETR motd", "QUIT"), "ftpuser motd\n", -1, nil},
		{"anonymous %2Fetc/motd", "ftp://" + h + "/%2Fetc/motd", nil,
			seq(anon, "PWD", "CWD /etc", "TYPE I", "EPSV", "RETR motd", "QUIT"), "anonymous motd\n", -1, nil},
		{"§3.2.3 ;type=a", "ftp://" + h + "/pub/hello.txt;type=a", nil,
			seq(anon, "PWD", "CWD pub", "TYPE A", "EPSV", "RETR hello.txt", "QUIT"), "line1\nline2\n", -1, nil},
		{"§3.2.3 ;type=i", "ftp://" + h + "/pub/bin.dat;type=i", nil,
			seq(anon, "PWD", "CWD pub", "TYPE I", "EPSV", "RETR bin.dat", "QUIT"), "\x00\x01\r\n\x02\r\xff", -1, nil},
		{"no typecode: TYPE I for .txt too (§3.2.3)", "ftp://" + h + "/top.txt", nil,
			seq(anon, "TYPE I", "EPSV", "RETR top.txt", "QUIT"), "top\n", -1, nil},
		{"no typecode, Client.ASCII: TYPE A", "ftp://" + h + "/top.txt", &access.Client{Schemes: withFTP(&ftp.Client{ASCII: true})},
			seq(anon, "TYPE A", "EPSV", "RETR top.txt", "QUIT"), "top\n", -1, nil},
		{"%2F inside a segment", "ftp://" + h + "/pub%2Fsub/deep.txt", nil,
			seq(anon, "PWD", "CWD pub/sub", "TYPE I", "EPSV", "RETR deep.txt", "QUIT"), "deep\n", -1, nil},
		{"encoded space in the name", "ftp://" + h + "/pub/with%20space.txt", nil,
			seq(anon, "PWD", "CWD pub", "TYPE I", "EPSV", "RETR with space.txt", "QUIT"), "spaced\n", -1, nil},
		{"§3.2.2 ;type=d", "ftp://" + h + "/pub;type=d", nil,
			seq(anon, "EPSV", "NLST pub", "FEAT", "EPSV", "MLSD pub", "QUIT"), "", 0, nil},
		{"empty name lists", "ftp://" + h + "/pub/sub/", nil,
			seq(anon, "PWD", "CWD pub", "CWD sub", "EPSV", "NLST", "FEAT", "EPSV", "MLSD", "QUIT"), "", 0,
			[]string{"file deep.txt ftp://" + h + "/pub/sub/deep.txt", "directory inner ftp://" + h + "/pub/sub/inner/"}},
		{"an empty directory: no FEAT, nothing to describe", "ftp://" + h + "/pub/empty/", nil,
			seq(anon, "PWD", "CWD pub", "CWD empty", "EPSV", "NLST", "QUIT"), "", 0, []string{}},
		{"user address as the anonymous password", "ftp://" + h + "/top.txt;type=i", &access.Client{Schemes: withFTP(&ftp.Client{UserAddress: "someone@example.org"})},
			seq(anon, "TYPE I", "EPSV", "RETR top.txt", "QUIT"), "top\n", -1, nil},
		{"method direct", "ftp://" + h + "/pub/sub/deep.txt", &access.Client{Schemes: withFTP(&ftp.Client{Method: "direct"})},
			seq(anon, "TYPE I", "EPSV", "RETR pub/sub/deep.txt", "QUIT"), "deep\n", -1, nil},
		{"method singlecwd", "ftp://" + h + "/pub/sub/deep.txt", &access.Client{Schemes: withFTP(&ftp.Client{Method: "singlecwd"})},
			seq(anon, "PWD", "CWD pub/sub", "TYPE I", "EPSV", "RETR deep.txt", "QUIT"), "deep\n", -1, nil},
		{"method nocwd", "ftp://" + h + "//etc/motd", &access.Client{Schemes: withFTP(&ftp.Client{Method: "nocwd"})},
			seq(anon, "TYPE I", "EPSV", "RETR /etc/motd", "QUIT"), "anonymous motd\n", -1, nil},
		{"method metadata, TYPE I: FEAT, SIZE, MDTM", "ftp://" + h + "/pub/bin.dat;type=i", &access.Client{Schemes: withFTP(&ftp.Client{Method: "metadata"})},
			seq(anon, "FEAT", "PWD", "CWD pub", "TYPE I", "SIZE bin.dat", "MDTM bin.dat", "EPSV", "RETR bin.dat", "QUIT"), "\x00\x01\r\n\x02\r\xff", 7, nil},
		{"method metadata, TYPE A: no SIZE (RFC 3659 §4)", "ftp://" + h + "/pub/hello.txt;type=a", &access.Client{Schemes: withFTP(&ftp.Client{Method: "metadata"})},
			seq(anon, "FEAT", "PWD", "CWD pub", "TYPE A", "MDTM hello.txt", "EPSV", "RETR hello.txt", "QUIT"), "line1\nline2\n", -1, nil},
	}
	off := 0
	_, off = srv.commands(t, 0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := get(t, c.url, c.client)
			srv.waitQuit(t, off)
			var cmds []string
			cmds, off = srv.commands(t, off)
			if r.err != nil {
				t.Fatalf("%s: %v\n%s", c.url, r.err, r.dialog)
			}
			if !reflect.DeepEqual(cmds, c.cmds) {
				t.Errorf("%s: the server received\n  %q\nwant\n  %q", c.url, cmds, c.cmds)
			}
			if r.body != c.body {
				t.Errorf("%s: body %q, want %q", c.url, r.body, c.body)
			}
			if r.res.Listing == nil {
				if r.res.Size != c.size {
					t.Errorf("%s: Size %d, want %d", c.url, r.res.Size, c.size)
				}
				// Modified comes only from MDTM.
				if method := ftpOf(c.client).Method; r.res.Modified.IsZero() != (method != "metadata") {
					t.Errorf("%s: Modified %v with method %q", c.url, r.res.Modified, method)
				}
			}
			// §3.2.1: the anonymous password is the user's address, else
			// the neutral one, said in the dialogue.
			neutral := strings.Contains(r.dialog, "* anonymous login: the password is the neutral address ftp@example.com")
			addr := ftpOf(c.client).UserAddress
			if anonymous := !strings.Contains(c.url, "ftpuser"); neutral != (anonymous && addr == "") {
				t.Errorf("%s: neutral-address note %v with UserAddress %q\n%s", c.url, neutral, addr, r.dialog)
			}
			if c.entries != nil {
				got := []string{}
				for _, e := range r.listing {
					got = append(got, e.Type+" "+e.Name+" "+e.URL)
				}
				if !reflect.DeepEqual(got, c.entries) {
					t.Errorf("%s: entries\n  %q\nwant\n  %q", c.url, got, c.entries)
				}
			}
		})
	}
}

// bigFile adds a file of n octets to the anonymous tree (for a transfer
// that is closed early, or cut by the size limit).
func (p *pyftpd) bigFile(t *testing.T, name string, n int) {
	t.Helper()
	b := bytes.Repeat([]byte("0123456789abcdef"), n/16)
	if err := os.WriteFile(filepath.Join(p.root, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPyftpdlibOutcomes asserts what the server's refusals become
// (access.Classify: Absent for a *ServerError, Forbidden for a missing
// password or a policy refusal, Failed for a transfer cut short) and the
// commands that end each session.
func TestPyftpdlibOutcomes(t *testing.T) {
	srv := startPyftpd(t)
	srv.bigFile(t, "big.bin", 16<<20)
	h := host(srv.Server)
	cases := []struct {
		name, url string
		client    *access.Client
		outcome   access.Outcome
		want      string // in the error's text
		cmds      []string
	}{
		{"§3.2.1 user without password, nobody to ask", "ftp://ftpuser@" + h + "/etc/motd", nil,
			access.Forbidden, "no terminal to ask", []string{"USER ftpuser", "QUIT"}},
		{"wrong password", "ftp://ftpuser:nope@" + h + "/etc/motd", nil,
			access.Absent, `the server says 530 Authentication failed. (to "PASS ****"): login refused`, []string{"USER ftpuser", "PASS ******", "QUIT"}},
		{"no such file", "ftp://" + h + "/pub/nothere.txt", nil,
			access.Absent, `the server says 550 No such file or directory. (to "RETR nothere.txt")`,
			[]string{"USER anonymous", "PASS ******", "PWD", "CWD pub", "TYPE I", "EPSV", "RETR nothere.txt", "QUIT"}},
		{"no such directory", "ftp://" + h + "/nodir/x.txt", nil,
			access.Absent, `(to "CWD nodir"): RFC 1738 §3.2.2: this CWD of the URL's directory sequence failed`,
			[]string{"USER anonymous", "PASS ******", "PWD", "CWD nodir", "QUIT"}},
		{"size limit known from SIZE (method metadata)", "ftp://" + h + "/big.bin", &access.Client{MaxSize: 1000, Schemes: withFTP(&ftp.Client{Method: "metadata"})},
			access.Failed, "larger than the size limit",
			[]string{"USER anonymous", "PASS ******", "FEAT", "TYPE I", "SIZE big.bin", "QUIT"}},
		{"size limit while reading (TYPE I: pyftpdlib's 150 states no count)", "ftp://" + h + "/big.bin", &access.Client{MaxSize: 1000},
			access.Failed, "larger than the size limit",
			[]string{"USER anonymous", "PASS ******", "TYPE I", "EPSV", "RETR big.bin", "ABOR", "QUIT"}},
		{"size limit while reading (TYPE A)", "ftp://" + h + "/big.bin;type=a", &access.Client{MaxSize: 1000},
			access.Failed, "larger than the size limit",
			[]string{"USER anonymous", "PASS ******", "TYPE A", "EPSV", "RETR big.bin", "ABOR", "QUIT"}},
		{"direct: whole path refused, then the official sequence", "ftp://" + h + "/pub/sub//top.txt", &access.Client{Schemes: withFTP(&ftp.Client{Method: "direct"})},
			access.Delivered, "",
			[]string{"USER anonymous", "PASS ******", "TYPE I", "EPSV", "RETR pub/sub//top.txt",
				"PWD", "CWD pub", "CWD sub", "CWD ", "TYPE I", "EPSV", "RETR top.txt", "QUIT"}},
	}
	_, off := srv.commands(t, 0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := get(t, c.url, c.client)
			srv.waitQuit(t, off)
			var cmds []string
			cmds, off = srv.commands(t, off)
			if got := access.Classify(r.err); got != c.outcome {
				t.Errorf("%s: outcome %d, want %d (err %v)", c.url, got, c.outcome, r.err)
			}
			if c.want != "" && (r.err == nil || !strings.Contains(r.err.Error(), c.want)) {
				t.Errorf("%s: error %v, want one containing %q", c.url, r.err, c.want)
			}
			if !reflect.DeepEqual(cmds, c.cmds) {
				t.Errorf("%s: the server received\n  %q\nwant\n  %q", c.url, cmds, c.cmds)
			}
		})
	}
}

// TestPyftpdlibAbortAndDialogue closes a transfer early: the client
// sends ABOR (RFC 959 §4.1.3) and then QUIT. The dialogue log has one
// line per command and reply and never the password.
func TestPyftpdlibAbortAndDialogue(t *testing.T) {
	srv := startPyftpd(t)
	srv.bigFile(t, "big.bin", 16<<20)
	_, off := srv.commands(t, 0)
	u, _ := locator.Parse("ftp://ftpuser:ftppass@" + srv.Addr + "/%2F..%2F..%2Fetc/motd")
	var dlg bytes.Buffer
	c := &access.Client{Dialogue: &dlg}
	res, err := c.Get(context.Background(), u)
	if err != nil {
		t.Fatalf("%v\n%s", err, dlg.String())
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	c.CloseIdle() // the session, read to its end, waits for reuse: QUIT now
	if string(b) != "ftpuser motd\n" {
		t.Errorf("body %q (the virtual user is jailed in its home)", b)
	}
	if strings.Contains(dlg.String(), "ftppass") || !strings.Contains(dlg.String(), "> PASS ****\n") {
		t.Errorf("dialogue does not mask the password:\n%s", dlg.String())
	}
	for _, want := range []string{"* connect " + srv.Addr + "\n", "> USER ftpuser\n", "< 331 ", "> CWD /../../etc\n", "> RETR motd\n", "< 226 ", "> QUIT\n", "< 221 "} {
		if !strings.Contains(dlg.String(), want) {
			t.Errorf("dialogue has no %q:\n%s", want, dlg.String())
		}
	}
	srv.waitQuit(t, off)
	_, off = srv.commands(t, off)

	u, _ = locator.Parse("ftp://" + srv.Addr + "/big.bin")
	res, err = (&access.Client{Schemes: withFTP(&ftp.Client{Method: "metadata"})}).Get(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	if res.Size != 16<<20 {
		t.Errorf("Size %d, want %d (from SIZE)", res.Size, 16<<20)
	}
	if res.Modified.IsZero() {
		t.Error("Modified not set from MDTM")
	}
	one := make([]byte, 1)
	if _, err := io.ReadFull(res.Body, one); err != nil {
		t.Fatal(err)
	}
	if err := res.Body.Close(); err != nil {
		t.Errorf("Close after an early end: %v", err)
	}
	srv.waitQuit(t, off)
	cmds, _ := srv.commands(t, off)
	want := []string{"USER anonymous", "PASS ******", "FEAT", "TYPE I", "SIZE big.bin", "MDTM big.bin", "EPSV", "RETR big.bin", "ABOR", "QUIT"} // method metadata
	if !reflect.DeepEqual(cmds, want) {
		t.Errorf("the server received\n  %q\nwant\n  %q", cmds, want)
	}
}

// TestCheckRefusesDelimiters: a decoded CR, LF or NUL in any part that
// reaches the control connection is refused before any connection (RFC
// 1738 §6), with its offset: outcome Forbidden.
func TestCheckRefusesDelimiters(t *testing.T) {
	cases := []struct {
		url    string
		offset int
		rule   string
	}{
		{"ftp://127.0.0.1:2121/pub/a%00b", 26, "RFC 1738 §6"},
		{"ftp://127.0.0.1:2121/pub%0D%0ADELE%20x/f", 24, "RFC 1738 §6"},
		{"ftp://127.0.0.1:2121/f%0a", 22, "RFC 1738 §6"},
		{"ftp://us%00er@127.0.0.1:2121/f", 8, "RFC 1738 §6"},
		{"ftp://u:p%0Dw@127.0.0.1:2121/f", 9, "RFC 1738 §6"},
		{"ftp://127.0.0.1:2121/f;type=x", 22, "ftptype"},
	}
	for _, c := range cases {
		r := get(t, c.url, nil)
		var pe *access.PolicyError
		if !errors.As(r.err, &pe) || pe.Offset != c.offset || pe.Rule != c.rule {
			t.Errorf("%s: %v, want a PolicyError at %d (%s)", c.url, r.err, c.offset, c.rule)
			continue
		}
		if access.Classify(r.err) != access.Forbidden || strings.Contains(r.dialog, "connect") {
			t.Errorf("%s: outcome %d, dialogue %q: want Forbidden before any connection", c.url, access.Classify(r.err), r.dialog)
		}
	}
	r := get(t, "ftp://127.0.0.1:2121/f", &access.Client{Schemes: withFTP(&ftp.Client{Method: "tftp"})})
	var pe *access.PolicyError
	if !errors.As(r.err, &pe) || !strings.Contains(pe.Reason, "rfc1738, direct, singlecwd, nocwd, metadata") {
		t.Errorf("unknown method: %v", r.err)
	}
}

// TestPyftpdlibPASV: a server without EPSV (RFC 2428) answers it 500;
// the client falls back to PASV (RFC 959) for this and every later
// transfer of the session, and connects to the address PASV names, which
// is the control connection's.
func TestPyftpdlibPASV(t *testing.T) {
	srv := startPyftpd(t, "noepsv")
	_, off := srv.commands(t, 0)
	r := get(t, "ftp://"+srv.Addr+"/pub/;type=d", nil)
	if r.err != nil {
		t.Fatalf("%v\n%s", r.err, r.dialog)
	}
	srv.waitQuit(t, off)
	cmds, _ := srv.commands(t, off)
	want := []string{"USER anonymous", "PASS ******", "PWD", "CWD pub", "EPSV", "PASV", "NLST", "FEAT", "PASV", "MLSD", "QUIT"}
	if !reflect.DeepEqual(cmds, want) {
		t.Errorf("the server received\n  %q\nwant\n  %q", cmds, want)
	}
	var got []string
	for _, e := range r.listing {
		got = append(got, e.Type+" "+e.Name)
	}
	sort.Strings(got)
	wantEntries := []string{"directory empty", "directory sub", "file bin.dat", "file hello.txt", "file with space.txt"}
	if !reflect.DeepEqual(got, wantEntries) {
		t.Errorf("entries %q, want %q", got, wantEntries)
	}
}

// TestPyftpdlibIPv6: over ::1 the data connection comes from EPSV, whose
// reply gives only a port (RFC 2428 §3), and entries' URLs write the
// address in brackets (RFC 2732).
func TestPyftpdlibIPv6(t *testing.T) {
	srv := startPyftpd(t, "host=::1")
	r := get(t, "ftp://"+srv.Addr+"/pub/hello.txt;type=a", nil)
	if r.err != nil || r.body != "line1\nline2\n" {
		t.Fatalf("%q %v\n%s", r.body, r.err, r.dialog)
	}
	r = get(t, "ftp://"+srv.Addr+"/pub/sub/", nil)
	if r.err != nil {
		t.Fatalf("%v\n%s", r.err, r.dialog)
	}
	var got []string
	for _, e := range r.listing {
		got = append(got, e.URL)
	}
	sort.Strings(got)
	want := []string{"ftp://" + srv.Addr + "/pub/sub/deep.txt", "ftp://" + srv.Addr + "/pub/sub/inner/"}
	if !reflect.DeepEqual(got, want) || !strings.HasPrefix(srv.Addr, "[::1]:") {
		t.Errorf("entries %q, want %q", got, want)
	}
}

// TestPyftpdlibAllowHost: with an allow list that names the host only
// (--allow-host localhost), the control connection is admitted by the
// URL's name and the data connections, which can only name the peer's
// address, go to the same peer (access.Request.DialSame); an address the
// list does not name is still refused before connecting.
func TestPyftpdlibAllowHost(t *testing.T) {
	srv := startPyftpd(t)
	_, port, _ := strings.Cut(srv.Addr, ":")
	allow := func() *access.Client { return &access.Client{Policy: access.Policy{Allow: mustRules(t, "localhost")}} }
	_, off := srv.commands(t, 0)
	r := get(t, "ftp://localhost:"+port+"/pub/hello.txt", allow())
	if r.err != nil || r.body != "line1\nline2\n" {
		t.Fatalf("body %q, %v\n%s", r.body, r.err, r.dialog)
	}
	srv.waitQuit(t, off)
	cmds, off := srv.commands(t, off)
	if want := []string{"USER anonymous", "PASS ******", "PWD", "CWD pub", "TYPE I", "EPSV", "RETR hello.txt", "QUIT"}; !reflect.DeepEqual(cmds, want) {
		t.Errorf("the server received\n  %q\nwant\n  %q", cmds, want)
	}
	if !strings.Contains(r.dialog, "* connect localhost:"+port+" (127.0.0.1)\n") || !strings.Contains(r.dialog, "* connect 127.0.0.1:") {
		t.Errorf("dialogue:\n%s", r.dialog)
	}
	r = get(t, "ftp://localhost:"+port+"/pub/", allow())
	if r.err != nil || len(r.listing) != 5 {
		t.Fatalf("listing of %d entries, %v\n%s", len(r.listing), r.err, r.dialog)
	}
	srv.waitQuit(t, off)
	r = get(t, "ftp://"+srv.Addr+"/pub/hello.txt", allow())
	var pe *access.PolicyError
	if !errors.As(r.err, &pe) || pe.Rule != "host" || strings.Contains(r.dialog, "connect") {
		t.Errorf("an address the allow list does not name: %v\n%s", r.err, r.dialog)
	}
}
