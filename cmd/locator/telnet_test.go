package main

import (
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// greeter is a service on 127.0.0.1 that writes a greeting and ends its
// side of the connection, for the tests of the command's plumbing (exit status,
// output, a failed standard output). The Telnet protocol itself is
// tested against telnetd in package telnet.
var greeter = struct {
	once sync.Once
	addr string
}{}

const greeting = "\xff\xfb\x01hello from the service\r\n" // IAC WILL ECHO, then a line

func startGreeter() string {
	greeter.once.Do(func() {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return
		}
		greeter.addr = l.Addr().String()
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				go func() {
					// The greeting, then the end of the service's
					// output; what the client sends is read to its end
					// so that closing sends no reset.
					c.Write([]byte(greeting))
					c.(*net.TCPConn).CloseWrite()
					io.Copy(io.Discard, c)
					c.Close()
				}()
			}
		}()
	})
	if greeter.addr == "" {
		return ""
	}
	return "telnet://" + greeter.addr + "/"
}

func greeterURL(t testing.TB) string {
	u := startGreeter()
	if u == "" {
		t.Skip("no loopback listener")
	}
	return u
}

func init() {
	// TestWriteErrors runs every subcommand once with output.
	pipelineCases["telnet"] = []string{"telnet", startGreeter()}
}

// TestTelnetRelay: without a terminal, locator telnet relays the
// service's data to standard output (the NVT line end CR LF written as
// LF, RFC 854) and answers its negotiation; locator get hands a telnet
// URL over to the same session (RFC 1738 §3.8: not a data object).
func TestTelnetRelay(t *testing.T) {
	u := greeterURL(t)
	for _, args := range [][]string{{"telnet", "-v", u}, {"get", "-v", u}} {
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || out != "hello from the service\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
		for _, want := range []string{"* connect " + strings.TrimSuffix(strings.TrimPrefix(u, "telnet://"), "/"), "< IAC WILL ECHO", "> IAC DO ECHO", "Connected to 127.0.0.1 port "} {
			if !strings.Contains(errs, want) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, want, errs)
			}
		}
	}
}

// TestTelnetAdvice: the URL's user is shown as advice (RFC 1738 §3.8),
// the password only with --show-password, and -v never logs it.
func TestTelnetAdvice(t *testing.T) {
	u := strings.Replace(greeterURL(t), "telnet://", "telnet://guest:s3cret@", 1)
	code, _, errs := runCLI(t, "", "telnet", "-v", u)
	if code != 0 || !strings.Contains(errs, `The URL suggests the login name "guest" and a password (not shown unless asked for): advice only (RFC 1738 §3.8)`) || strings.Contains(errs, "s3cret") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	code, _, errs = runCLI(t, "", "telnet", "--show-password", u)
	if code != 0 || !strings.Contains(errs, `the login name "guest" and the password "s3cret": advice only`) {
		t.Errorf("--show-password: exit %d, stderr:\n%s", code, errs)
	}
}

// TestTelnetStatus: usage, local policy, a URL of another kind, a
// refused connection, and the sessions that are not supported, each
// with its exit status and a message that says what to do.
func TestTelnetStatus(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener")
	}
	closed := l.Addr().(*net.TCPAddr).Port
	l.Close()
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"telnet"}, 2, "want one URL, got 0 arguments"},
		{[]string{"telnet", "--idle-timeout", "0", "telnet://h/"}, 2, "must be positive"},
		{[]string{"telnet", "telnet://127.0.0.1:25/"}, 4, "port 25 belongs to another service"},
		{[]string{"telnet", "--deny-host", "127.0.0.1", "telnet://127.0.0.1/"}, 4, "not allowed by local policy"},
		{[]string{"telnet", "telnet:///"}, 4, "names no host"},
		{[]string{"telnet", "http://127.0.0.1/"}, 4, "designate objects to retrieve, not interactive sessions (follow it with Get); use locator get"},
		{[]string{"telnet", "telnet://127.0.0.1:" + strconv.Itoa(closed) + "/"}, 3, "connection refused"},
		{[]string{"telnet", "rlogin://guest@127.0.0.1/"}, 4, "rlogin -l guest 127.0.0.1"},
		{[]string{"get", "rlogin://127.0.0.1/"}, 4, "rlogin sessions (RFC 1282) are not supported"},
		{[]string{"telnet", "tn3270://127.0.0.1:2023/"}, 4, "c3270 127.0.0.1:2023"},
	} {
		code, out, errs := runCLI(t, "", c.args...)
		if code != c.code || out != "" || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d (want %d), stdout %q, stderr %q (want %q)", c.args, code, c.code, out, errs, c.msg)
		}
	}
}
