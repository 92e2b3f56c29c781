package other

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// rlogin and tn3270, the drafts' other interactive sessions, are
// sessions to access (locator telnet and locator get hand them over)
// that this build does not open: refused before any connection, saying
// why and what a person can run instead, with the URL's login name as
// advice (RFC 1738 §3.8).
func TestSessionUnsupported(t *testing.T) {
	noDial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("a connection to %s", addr)
		return nil, errors.New("no")
	}
	for _, c := range []struct{ url, want string }{
		{"rlogin://guest:pw@host.example/", "rlogin://guest:****@host.example/: rlogin sessions (RFC 1282) are not supported: rlogin sends the login name unasked and has the server trust the client's privileged source port (below 1024, which only root may bind), in clear text; most hosts no longer offer it. What you can do: run an rlogin client yourself: rlogin -l guest host.example, or ssh if the host offers it; the URL suggests the login name \"guest\" (advice only, RFC 1738 §3.8)"},
		{"rlogin://[::1]:1513", "rlogin://[::1]:1513: rlogin sessions (RFC 1282) are not supported: rlogin sends the login name unasked and has the server trust the client's privileged source port (below 1024, which only root may bind), in clear text; most hosts no longer offer it. What you can do: run an rlogin client yourself: rlogin [::1] (port 1513, for a client that can name one), or ssh if the host offers it"},
		{"tn3270://mvs.example:2023/", "tn3270://mvs.example:2023/: tn3270 sessions are not supported: a 3270 is a block-mode terminal (the host sends whole formatted screens of protected and input fields in EBCDIC, and the terminal returns the changed fields when Enter, a PF or a PA key is pressed; tn3270 negotiates TERMINAL-TYPE IBM-3278-2, BINARY and END-OF-RECORD over Telnet, RFC 1576), which takes a 3270 emulator, not a character terminal. What you can do: use a 3270 emulator: c3270 mvs.example:2023 (Debian package c3270; x3270 under X)"},
		{"tn3270://ibmuser@mvs.example", "c3270 mvs.example (Debian package c3270; x3270 under X); the URL suggests the login name \"ibmuser\" (advice only, RFC 1738 §3.8)"},
	} {
		u, err := locator.Parse(c.url)
		if err != nil {
			t.Fatal(err)
		}
		if !access.IsSession(u.Scheme()) {
			t.Errorf("%s: not a session", u.Scheme())
		}
		ac := &access.Client{Dial: noDial}
		for _, err := range []error{ac.Interact(context.Background(), u, access.Terminal{}), func() error {
			_, err := ac.Get(context.Background(), u)
			return err
		}()} {
			var se *SessionUnsupportedError
			if !errors.As(err, &se) || access.Classify(err) != access.Forbidden {
				t.Errorf("%s: %v", c.url, err)
				continue
			}
			if got := err.Error(); got != c.want && !(len(got) > len(c.want) && got[len(got)-len(c.want):] == c.want) {
				t.Errorf("%s:\n got %s\nwant %s", c.url, got, c.want)
			}
		}
	}
}
