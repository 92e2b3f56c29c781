package main

// Tests of what `get`, `probe` and `send` promise an attacker cannot
// break: -o never loses an existing file or writes through a link, a
// whole-operation deadline (--max-time), no server text that drives the
// terminal, passwords masked in every URL printed, and failures told
// accurately, each naming the URL.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// readRequest reads what the client sends first (a request's head, at
// most 4 KiB), under a deadline.
func readRequest(c net.Conn) {
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	var buf [4096]byte
	c.Read(buf[:])
}

// trickle writes s one octet every 300 ms, and stops by itself at its
// end or at the first write that fails (the client gone).
func trickle(c net.Conn, s string) {
	for i := 0; i < len(s); i++ {
		c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write([]byte{s[i]}); err != nil {
			return
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// leftovers lists the temporary files -o left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, de := range des {
		if strings.Contains(de.Name(), ".locator-") {
			left = append(left, de.Name())
		}
	}
	return left
}

// The threat: `get -o FILE` truncated FILE before the transfer and
// followed a symbolic link there, so a failed transfer destroyed an
// existing file and a link planted at FILE had its target overwritten.
// Against nginx: a complete object replaces FILE (keeping its permission
// bits, else 0666 less the umask); a failure (--max-filesize smaller than
// the object) leaves FILE as it was and no temporary file; a link at
// FILE is replaced, its target never written; "-" is standard output; a
// device (/dev/null) is written to, not replaced.
func TestGetOutputFile(t *testing.T) {
	root := t.TempDir()
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<12) // 64 KiB
	for name, body := range map[string][]byte{"big.bin": big, "small.txt": []byte("small\n")} {
		if err := os.WriteFile(filepath.Join(root, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := peer.Nginx(t, root, peer.NginxConfig{Connections: 64})
	base := "http://" + s.Addr + "/"
	dir := t.TempDir()
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			return "error: " + err.Error()
		}
		return string(b)
	}
	check := func(name string) {
		t.Helper()
		if left := leftovers(t, dir); len(left) > 0 {
			t.Errorf("%s: temporary files left: %q", name, left)
		}
	}

	// A new file: the object, with the mode os.Create would give it.
	ref := filepath.Join(dir, "ref")
	f, err := os.OpenFile(ref, os.O_CREATE|os.O_WRONLY, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	refInfo, _ := os.Stat(ref)
	dst := filepath.Join(dir, "new.bin")
	code, out, errs := runCLI(t, "", "get", "--max-time", "30s", "-o", dst, base+"big.bin")
	fi, serr := os.Stat(dst)
	if code != 0 || out != "" || errs != "" || read(dst) != string(big) || serr != nil || fi.Mode() != refInfo.Mode() {
		t.Errorf("new file: exit %d %q, %v, mode %v want %v", code, errs, serr, fi.Mode(), refInfo.Mode())
	}
	check("new file")

	// An existing file, mode 0600: replaced, its mode kept.
	kept := filepath.Join(dir, "kept.txt")
	if err := os.WriteFile(kept, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, "", "get", "-o", kept, base+"small.txt")
	fi, _ = os.Stat(kept)
	if code != 0 || read(kept) != "small\n" || fi.Mode().Perm() != 0o600 {
		t.Errorf("replace: exit %d %q, %q, mode %v", code, errs, read(kept), fi.Mode())
	}
	check("replace")

	// A transfer that fails (the object over --max-filesize, read past the
	// limit): exit 3, the existing file as it was.
	if err := os.WriteFile(kept, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, "", "get", "--max-filesize", "1K", "-o", kept, base+"big.bin")
	if code != 3 || read(kept) != "precious\n" || !strings.Contains(errs, "(--max-filesize 1024)") {
		t.Errorf("failure: exit %d %q, file now %q", code, errs, read(kept))
	}
	check("failure")

	// A symbolic link at FILE: a failure leaves link and target alone;
	// a success replaces the link by the object, its target untouched.
	target := filepath.Join(dir, "target.txt")
	link := filepath.Join(dir, "link")
	if err := os.WriteFile(target, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	code, _, _ = runCLI(t, "", "get", "--max-filesize", "1K", "-o", link, base+"big.bin")
	if li, err := os.Lstat(link); code != 3 || err != nil || li.Mode()&fs.ModeSymlink == 0 || read(target) != "precious\n" {
		t.Errorf("link, failure: exit %d, link %v, target %q", code, err, read(target))
	}
	code, _, errs = runCLI(t, "", "get", "-o", link, base+"small.txt")
	if li, err := os.Lstat(link); code != 0 || err != nil || !li.Mode().IsRegular() || read(link) != "small\n" || read(target) != "precious\n" {
		t.Errorf("link, success: exit %d %q, link now %v, target %q", code, errs, err, read(target))
	}
	check("link")
	// A dangling link: replaced; the file it names is not created.
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "planted"), dangling); err != nil {
		t.Fatal(err)
	}
	code, _, _ = runCLI(t, "", "get", "-o", dangling, base+"small.txt")
	if _, err := os.Lstat(filepath.Join(dir, "planted")); code != 0 || read(dangling) != "small\n" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dangling link: exit %d, planted: %v", code, err)
	}

	// "-" is standard output.
	code, out, _ = runCLI(t, "", "get", "-o", "-", base+"small.txt")
	if _, err := os.Stat("-"); code != 0 || out != "small\n" || err == nil {
		t.Errorf("-o -: exit %d %q (a file named - exists: %v)", code, out, err == nil)
	}
	// A device is written to, never replaced.
	code, _, errs = runCLI(t, "", "get", "-o", os.DevNull, base+"small.txt")
	if fi, err := os.Lstat(os.DevNull); code != 0 || err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("/dev/null: exit %d %q, now %v", code, errs, fi.Mode())
	}
	// A directory: refused before anything is fetched.
	code, _, errs = runCLI(t, "", "get", "-o", dir, base+"small.txt")
	if code != 2 || !strings.Contains(errs, "is a directory") {
		t.Errorf("directory: exit %d %q", code, errs)
	}
	check("end")
}

// The threat: --idle-timeout bounds each read, so a server sending one octet
// a second kept a two-second timeout alive for as long as it liked.
// --max-time bounds the whole operation: a hostile listener trickles a
// reply one octet every 300 ms (no real server does this on purpose),
// and get, probe and send end with the deadline's own message. And a
// real server sending slowly (nginx's limit_rate) is cut the same way.
func TestMaxTime(t *testing.T) {
	httpTrickle := peer.Hostile(t, func(c net.Conn) {
		readRequest(c)
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n")
		trickle(c, strings.Repeat("x", 40))
	})
	code, out, errs := runCLI(t, "", "get", "--max-time", "1s", "--idle-timeout", "5s", "http://"+httpTrickle+"/slow")
	if code != 3 || !strings.Contains(errs, "locator get: http://"+httpTrickle+"/slow: the operation exceeded its maximum time (--max-time 1s), with ") ||
		!strings.Contains(errs, "octets of the object delivered") || strings.Contains(errs, "sent nothing") || len(out) >= 40 {
		t.Errorf("get: exit %d, %d octets, %q", code, len(out), errs)
	}

	// The reply's head trickled: probe's per-URL bound.
	headTrickle := peer.Hostile(t, func(c net.Conn) {
		readRequest(c)
		trickle(c, "HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n")
	})
	code, out, _ = runCLI(t, "", "probe", "--json", "--max-time", "1s", "--idle-timeout", "5s", "--retries", "0", "http://"+headTrickle+"/slow")
	var rec probeRecord
	if err := json.Unmarshal([]byte(out), &rec); code != 1 || err != nil || rec.Status != "error" || rec.Error != "the probe exceeded its maximum time (--max-time 1s)" {
		t.Errorf("probe: exit %d %q", code, out)
	}

	// An SMTP greeting trickled: send's bound; nothing is sent.
	smtpTrickle := peer.Hostile(t, func(c net.Conn) { trickle(c, "220 slow.example ESMTP\r\n") })
	code, _, errs = runCLI(t, "hello\n", "send", "--max-time", "1s", "--idle-timeout", "5s", "--from", "a@example.org", "--smtp", smtpTrickle, "mailto:b@example.org")
	if code != 3 || !strings.Contains(errs, "exceeded its maximum time (--max-time 1s); nothing was sent") {
		t.Errorf("send: exit %d %q", code, errs)
	}

	// A real server that sends slowly, 1 KiB a second: cut at 1 s.
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "big.bin"), bytes.Repeat([]byte("z"), 64<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	s := peer.Nginx(t, root, peer.NginxConfig{Connections: 64, Server: "location / { limit_rate 1k; }"})
	code, out, errs = runCLI(t, "", "get", "--max-time", "1s", "http://"+s.Addr+"/big.bin")
	if code != 3 || !strings.Contains(errs, "the operation exceeded its maximum time (--max-time 1s)") || len(out) >= 64<<10 {
		t.Errorf("nginx limit_rate: exit %d, %d octets, %q", code, len(out), errs)
	}
	// --max-time that does not run out changes nothing.
	if err := os.WriteFile(filepath.Join(root, "small.txt"), []byte("small\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "", "get", "--max-time", "30s", "http://"+s.Addr+"/small.txt")
	if code != 0 || out != "small\n" || errs != "" {
		t.Errorf("within --max-time: exit %d %q %q", code, out, errs)
	}
	if code, _, errs = runCLI(t, "", "get", "--max-time", "-1s", "http://"+s.Addr+"/small.txt"); code != 2 || !strings.Contains(errs, "--max-time not negative") {
		t.Errorf("--max-time -1s: exit %d %q", code, errs)
	}
}

// killingWriter is standard output that kills a server's process group
// at the first octets it is given: the server dies in the middle of the
// transfer.
type killingWriter struct {
	bytes.Buffer
	pid  int
	once sync.Once
}

func (k *killingWriter) Write(p []byte) (int, error) {
	k.once.Do(func() { syscall.Kill(-k.pid, syscall.SIGKILL) })
	return k.Buffer.Write(p)
}

// The threat to a person's understanding: `get` said "unexpected EOF"
// without the URL, and "the server sent nothing" after data had
// arrived. Every failure names the URL and says what happened: the
// connection closed (nginx killed in the middle of a transfer) after so
// many octets, or no data for --idle-timeout after so many (a hostile
// listener that stops sending), or silence before the object began.
func TestGetFailureMessages(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "big.bin"), bytes.Repeat([]byte("z"), 256<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	s := peer.Nginx(t, root, peer.NginxConfig{Connections: 64, Server: "location / { limit_rate 4k; }"})
	url := "http://" + s.Addr + "/big.bin"
	out := &killingWriter{pid: s.Pid()}
	var errs bytes.Buffer
	code := run([]string{"get", url}, &env{stdin: strings.NewReader(""), stdout: out, stderr: &errs})
	want := "locator get: " + url + ": the connection closed after "
	if code != 3 || !strings.HasPrefix(errs.String(), want) || !strings.HasSuffix(errs.String(), " octets, before the end of the object\n") ||
		!strings.Contains(errs.String(), " after "+strconv.Itoa(out.Len())+" octets") {
		t.Errorf("server killed: exit %d, %d octets, %q", code, out.Len(), errs.String())
	}

	stall := peer.Hostile(t, func(c net.Conn) {
		readRequest(c)
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhello")
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		c.Read(make([]byte, 1)) // until the client gives up
	})
	code, _, e := runCLI(t, "", "get", "--idle-timeout", "300ms", "http://"+stall+"/x")
	if code != 3 || e != "locator get: http://"+stall+"/x: no data for --idle-timeout 300ms after 5 octets, before the end of the object\n" {
		t.Errorf("stalled: exit %d %q", code, e)
	}
	cut := peer.Hostile(t, func(c net.Conn) {
		readRequest(c)
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhello")
	})
	code, _, e = runCLI(t, "", "get", "http://"+cut+"/x")
	if code != 3 || e != "locator get: http://"+cut+"/x: the connection closed after 5 octets, before the end of the object\n" {
		t.Errorf("cut: exit %d %q", code, e)
	}
	silent := peer.Hostile(t, func(c net.Conn) {
		readRequest(c)
		c.Read(make([]byte, 1))
	})
	code, _, e = runCLI(t, "", "get", "--idle-timeout", "300ms", "http://"+silent+"/x")
	if code != 3 || e != "locator get: http://"+silent+"/x: the server was silent for --idle-timeout 300ms, before the object began\n" {
		t.Errorf("silent: exit %d %q", code, e)
	}
}

// The threat: a server's text (an HTTP reason phrase, a Gopher error
// line, an FTP reply echoing a name) reached the terminal with ESC, BEL
// and C1 controls, which can set the window title or move the cursor.
// Every message and every line of probe's output is made printable
// (package printable's rule), and probe's JSON escapes them too.
func TestServerTextNeverDrivesTheTerminal(t *testing.T) {
	const evil = "\x1b]0;owned\x07\u009b2J"
	const shown = `\x1b]0;owned\x07\u009b2J`
	clean := func(name, s string) {
		t.Helper()
		if bad := firstControl(s); bad >= 0 {
			t.Errorf("%s: control at %d of %q", name, bad, s)
		}
	}

	// An HTTP reason phrase (a hostile listener: nginx sends its own).
	reason := peer.Hostile(t, func(c net.Conn) {
		readRequest(c)
		io.WriteString(c, "HTTP/1.1 404 Not "+evil+" Found\r\nContent-Length: 0\r\n\r\n")
	})
	code, out, errs := runCLI(t, "", "get", "http://"+reason+"/x")
	clean("get, HTTP reason", errs)
	if code != 1 || !strings.Contains(errs, "the server says 404 Not "+shown+" Found") {
		t.Errorf("HTTP reason: exit %d %q %q", code, out, errs)
	}

	// A Gopher error line, from pygopherd, that quotes the selector.
	groot := t.TempDir()
	if err := os.WriteFile(filepath.Join(groot, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := peer.Pygopherd(t, groot)
	code, _, errs = runCLI(t, "", "get", "gopher://"+g.Addr+"/0/missing%1B%5D0%3Bowned%07%C2%9B2J")
	clean("get, Gopher error", errs)
	if code != 1 || !strings.Contains(errs, "missing"+shown) {
		t.Errorf("Gopher error: exit %d %q", code, errs)
	}

	// An FTP 550 that echoes the name asked for (pyftpdlib's reply to
	// SIZE), in probe's text and JSON.
	froot := t.TempDir()
	ftp := peer.Pyftpdlib(t, froot, peer.PyftpdOptions{})
	u := "ftp://" + ftp.Addr + "/missing%1B%5D0%3Bowned%07%C2%9B2J"
	code, out, errs = runCLI(t, "", "probe", "--allow-port", strconv.Itoa(ftp.Port), u)
	clean("probe", out+errs)
	if code != 1 || !strings.Contains(out, "missing"+shown+" is not retrievable") {
		t.Errorf("probe: exit %d %q %q", code, out, errs)
	}
	code, out, _ = runCLI(t, "", "probe", "--json", "--allow-port", strconv.Itoa(ftp.Port), u)
	clean("probe --json", out)
	var rec probeRecord
	if err := json.Unmarshal([]byte(out), &rec); code != 1 || err != nil || !strings.Contains(rec.Text, "missing"+evil+" is not retrievable") {
		t.Errorf("probe --json: exit %d %q (%v): text %q", code, out, err, rec.Text)
	}
}

// The threat: probe echoed an FTP URL's password in its output. Every
// URL the command prints (probe's text and JSON, an unparsable input,
// get --print-url) shows "****" for it; the FTP server (pyftpdlib,
// user ftpuser) checks that the password was sent all the same.
func TestPasswordsMaskedInOutput(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "mine.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ftp := peer.Pyftpdlib(t, root, peer.PyftpdOptions{Home: home})
	port := strconv.Itoa(ftp.Port)
	u := "ftp://ftpuser:ftppass@" + ftp.Addr + "/mine.txt"
	masked := "ftp://ftpuser:****@" + ftp.Addr + "/mine.txt"
	for _, args := range [][]string{
		{"probe", "--allow-port", port, u},
		{"probe", "--json", "--allow-port", port, u},
		{"get", "--print-url", "--allow-port", port, u},
	} {
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || strings.Contains(out+errs, "ftppass") || !strings.Contains(out+errs, masked) {
			t.Errorf("%v: exit %d %q %q", args[:2], code, out, errs)
		}
	}
	// An unparsable URL with a password: masked in the line and in the
	// parser's message that quotes it.
	bad := "ftp://ftpuser:ftppass@" + ftp.Addr + ":99999/x"
	_, out, errs := runCLI(t, "", "probe", bad)
	if strings.Contains(out+errs, "ftppass") || !strings.Contains(out, "ftp://ftpuser:****@") {
		t.Errorf("unparsable: %q %q", out, errs)
	}
}

// maskedText masks the password field of a URL as given, and nothing
// else: not the same letters elsewhere, not the case of the scheme.
func TestMaskedText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"FTP://joe:p@ftp.example.org/pub/p", "FTP://joe:****@ftp.example.org/pub/p"},
		{"ftp://joe:@h/", "ftp://joe:****@h/"},
		{"ftp://joe@h/x:y@z", "ftp://joe@h/x:y@z"},
		{"HTTP://Example.COM/a", "HTTP://Example.COM/a"},
		{"ftp://u:secret@h:99999999/", "ftp://u:****@h:99999999/"}, // unparsable: its port
		{"ftp://u:s@cret@h:99999999/", "ftp://u:****@h:99999999/"},
		{"not a url: a:b@c", "not a url: a:b@c"},
	} {
		if got := maskedText(c.in); got != c.want {
			t.Errorf("maskedText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// writeJSON writes DEL and the C1 controls, which encoding/json leaves
// as they are, as \u escapes: a line shown on a terminal does not drive
// it, and decodes to the same strings.
func TestWriteJSONEscapesControls(t *testing.T) {
	rec := listed{URL: "gopher://h/1\u009b2J", Name: "del\x7f esc\x1b nel\u0085 caf\u00e9", Type: "file"}
	var b bytes.Buffer
	if err := writeJSON(&b, rec); err != nil {
		t.Fatal(err)
	}
	if bad := firstControl(b.String()); bad >= 0 {
		t.Errorf("control at %d of %q", bad, b.String())
	}
	if !strings.Contains(b.String(), `"name":"del\u007f esc\u001b nel\u0085 café"`) {
		t.Errorf("written as %s", b.String())
	}
	var back listed
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.URL != rec.URL || back.Name != rec.Name {
		t.Errorf("decodes to %+v (%v)", back, err)
	}
}
