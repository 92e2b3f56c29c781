package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

func init() {
	// TestWriteErrors covers every subcommand.
	pipelineCases["send"] = []string{"send", "--dry-run", "--from", "me@example.net", "mailto:joe@example.com"}
	pipelineCases["get"] = []string{"get", "file:///"}
}

var volatile = regexp.MustCompile(`(?m)^(Date: |Message-ID: <)[^\r\n]*`)

// TestSendDryRun: the message is printed, not sent; what the URL asked
// for and did not get is said on stderr.
func TestSendDryRun(t *testing.T) {
	url := "mailto:joe@example.com?cc=bob@example.com&subject=caf%C3%A9&bcc=eve@example.com&from=boss@example.com&body=default"
	code, out, errs := runCLI(t, "Hello,\n.dot\n", "send", "--dry-run", "--from", "me@example.net", url)
	want := "Date: \r\nFrom: me@example.net\r\nTo: joe@example.com\r\nCc: bob@example.com\r\nSubject: =?utf-8?q?caf=C3=A9?=\r\n" +
		"Message-ID: <\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\nHello,\r\n.dot\r\n"
	if got := volatile.ReplaceAllString(out, "$1"); code != 0 || got != want {
		t.Errorf("exit %d, stdout\n%q\nwant\n%q\nstderr %s", code, got, want, errs)
	}
	wantErr := "locator send: dropped the URL's header field bcc=\"eve@example.com\" (offset 60): a blind copy the URL's reader would not see is unsafe (RFC 6068 §4 and §7, RFC 2368 §4); not sent\n" +
		"locator send: dropped the URL's header field from=\"boss@example.com\" (offset 80): originator, routing, trace and MIME fields in a mailto URI \"MUST be ignored\" (RFC 6068 §3)\n"
	if errs != wantErr {
		t.Errorf("stderr\n%q\nwant\n%q", errs, wantErr)
	}
	// No body on stdin: the URL's body= is the default (RFC 6068 §2).
	code, out, _ = runCLI(t, "", "send", "--dry-run", "--from", "me@example.net", url)
	if code != 0 || !strings.HasSuffix(out, "\r\n\r\ndefault\r\n") {
		t.Errorf("default body: exit %d %q", code, out)
	}
	// $EMAIL stands for --from.
	t.Setenv("EMAIL", "env@example.net")
	code, out, _ = runCLI(t, "", "send", "--dry-run", "mailto:joe@example.com")
	if code != 0 || !strings.Contains(out, "\r\nFrom: env@example.net\r\n") || !strings.Contains(out, "@example.net>\r\n") {
		t.Errorf("$EMAIL: exit %d %q", code, out)
	}
}

func TestSendUsage(t *testing.T) {
	t.Setenv("EMAIL", "")
	t.Setenv("SMTP_SERVER", "")
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{}, 2, "want one mailto URL, got 0 arguments"},
		{[]string{"mailto:a@b", "mailto:c@d"}, 2, "got 2 arguments"},
		{[]string{"--from", "me@x", "http://a/"}, 2, "http://a/ is a http URL; send takes a mailto URL"},
		{[]string{"mailto:a@b"}, 2, "no sender: give --from ADDRESS or set $EMAIL"},
		{[]string{"--from", "me@x", "mailto:a@b"}, 2, "no SMTP server: give --smtp HOST:PORT or set $SMTP_SERVER"},
		{[]string{"--from", "me at x", "--dry-run", "mailto:a@b"}, 2, `--from "me at x": mailto: address: offset 2: addr-spec: space cannot appear in the local-part`},
		{[]string{"--from", "me@x", "--dry-run", "mailto:a@b..c"}, 2, "mailto: address: offset 11: addr-spec: an empty word in the domain"},
		{[]string{"--from", "me@x", "--smtp", "nowhere", "mailto:a@b"}, 2, `mailto: server: offset 0: host:port: "nowhere" is not host:port`},
		{[]string{"--from", "me@x", "--dry-run", "--idle-timeout", "0", "mailto:a@b"}, 2, "must be positive"},
		{[]string{"--from", "me@x", "--dry-run", "--max-body", "3", "mailto:a@b"}, 2, "longer than --max-body 3 octets"},
		{[]string{"--from", "me@x", "--dry-run", "mailto:a@b?subject=%FF"}, 2, `the "subject" value is not UTF-8`},
	}
	for _, tt := range tests {
		code, out, errs := runCLI(t, "body\n", append([]string{"send"}, tt.args...)...)
		if code != tt.code || !strings.Contains(errs, tt.msg) || out != "" {
			t.Errorf("send %q: exit %d, stdout %q, stderr %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.msg)
		}
	}
	code, out, _ := runCLI(t, "", "send", "--help")
	if code != 0 || !strings.Contains(out, "-smtp-user") || !strings.Contains(out, "exit 0 sent") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
}

// TestSendInjection: a CR LF smuggled into a header field is refused
// before any connection (exit 4, with its offset), and nothing is sent:
// the server given is a listener that counts connections.
func TestSendInjection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	for _, tt := range []struct{ url, want string }{
		{"mailto:a@b?subject=x%0D%0ABcc:c@d", `(RFC 6068 §5, at 20): a CR, LF or NUL in the "subject" header field would end the header field and begin another (header injection)`},
		{"mailto:a@b%0ABcc:c@d", "(RFC 6068 §5, at 10): a CR, LF or NUL in the address"},
	} {
		code, out, errs := runCLI(t, "body\n", "send", "--from", "me@example.net", "--smtp", ln.Addr().String(), tt.url)
		if code != 4 || out != "" || !strings.Contains(errs, tt.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tt.url, code, out, errs)
		}
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("%d connections to the server, want none", n)
	}
}

// TestGetMailto: a mailto URL names a mailbox, not an object (RFC 6068
// §3): get refuses it before any connection (exit 4) and points to send.
func TestGetMailto(t *testing.T) {
	code, out, errs := runCLI(t, "", "get", "mailto:joe@example.com?subject=hi")
	want := "locator get: mailto:joe@example.com?subject=hi: names no object to retrieve (RFC 6068 §3): a mailto URL designates a mailbox, " +
		"which a client writes a message to (RFC 1738 §3.5); compose and send one with `locator send 'mailto:joe@example.com?subject=hi'`\n"
	if code != 4 || out != "" || errs != want {
		t.Errorf("exit %d, stdout %q, stderr\n%q\nwant\n%q", code, out, errs, want)
	}
}

// runEditor starts $EDITOR on a file holding the URL's body and reads
// back what the editor left.
func TestSendEditor(t *testing.T) {
	got, err := runEditor(`sed -i 's/default/edited/'`, "default body\r\nline 2", nil, os.Stderr)
	if err != nil || got != "edited body\nline 2" {
		t.Errorf("runEditor = %q, %v", got, err)
	}
	_, err = runEditor("false", "x", nil, os.Stderr)
	if err == nil || !strings.Contains(err.Error(), `the editor "false": exit status 1; nothing was sent`) {
		t.Errorf("a failing editor: %v", err)
	}
}

// TestSendAiosmtpd: locator send against aiosmtpd on loopback (the
// Debian package python3-aiosmtpd, which test.sh installs): the body from stdin, the summary on
// stderr, -v's dialogue; the message lands in the maildir; a refused
// injection lands nothing.
func TestSendAiosmtpd(t *testing.T) {
	const python = "/usr/bin/python3"
	peer.RequirePython(t, python, "aiosmtpd")
	dir := filepath.Join(t.TempDir(), "maildir")
	srv := peer.Start(t, peer.Spec{
		Name:    "aiosmtpd",
		Program: python,
		Args: func(port int) ([]string, error) {
			return []string{"-m", "aiosmtpd", "-n", "-l", fmt.Sprintf("%s:%d", peer.Host, port), "-c", "aiosmtpd.handlers.Mailbox", dir}, nil
		},
		Ready: peer.ReadyLine("220 "),
	})
	t.Setenv("SMTP_SERVER", srv.Addr)
	code, out, errs := runCLI(t, "Hello Joe,\ncafé\n", "send", "-v", "--from", "me@example.net", "mailto:joe@example.com?subject=hi&bcc=eve@example.com")
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	for _, l := range []string{
		"locator send: dropped the URL's header field bcc=",
		"* connect " + srv.Addr + "\n",
		"< 220 ",
		"* no STARTTLS: the server does not offer it; the message goes in clear\n",
		"> MAIL FROM:<me@example.net> BODY=8BITMIME\n",
		"> RCPT TO:<joe@example.com>\n< 250 OK\n> DATA\n< 354 ",
		"> Subject: hi\n",
		"* body: 2 lines, 19 octets\n> .\n< 250 OK\n> QUIT\n< 221 Bye\n",
		"@example.net> to joe@example.com through " + srv.Addr + ": 250 OK (no STARTTLS: the server does not offer it; the message goes in clear; body 8bit: the server offers 8BITMIME (RFC 6152))\n",
	} {
		if !strings.Contains(errs, l) {
			t.Errorf("stderr lacks %q:\n%s", l, errs)
		}
	}
	names, _ := filepath.Glob(filepath.Join(dir, "new", "*"))
	if len(names) != 1 {
		t.Fatalf("%d messages delivered, want 1", len(names))
	}
	b, _ := os.ReadFile(names[0])
	if !strings.Contains(string(b), "\nTo: joe@example.com\n") || !strings.HasSuffix(string(b), "\n\nHello Joe,\ncafé\n") || strings.Contains(string(b), "eve@") {
		t.Errorf("delivered %q", b)
	}

	// Refused before connecting; still one message.
	code, _, errs = runCLI(t, "body\n", "send", "--from", "me@example.net", "mailto:a@b?subject=x%0D%0ABcc:c@d")
	if code != 4 || !strings.Contains(errs, "header injection") {
		t.Errorf("injection: exit %d %q", code, errs)
	}
	// AUTH asked for, not offered: refused, exit 4; the password unused.
	t.Setenv("SMTP_PASSWORD", "hunter2")
	code, _, errs = runCLI(t, "body\n", "send", "-v", "--smtp-user", "me", "--from", "me@example.net", "mailto:joe@example.com")
	if code != 4 || !strings.Contains(errs, "does not offer AUTH; nothing was sent") || strings.Contains(errs, "hunter2") {
		t.Errorf("AUTH: exit %d %q", code, errs)
	}
	// --require-tls against a server without STARTTLS.
	code, _, errs = runCLI(t, "body\n", "send", "--require-tls", "--from", "me@example.net", "mailto:joe@example.com")
	if code != 4 || !strings.Contains(errs, "does not offer STARTTLS, and TLS is required; nothing was sent") {
		t.Errorf("--require-tls: exit %d %q", code, errs)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "new", "*")); len(names) != 1 {
		t.Errorf("%d messages delivered, want still 1", len(names))
	}
}
