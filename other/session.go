package other

import (
	"context"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

func init() {
	access.Register("rlogin", access.Info{DefaultPort: rloginPort}, func() access.Fetcher { return Client{} })
	access.Register("tn3270", access.Info{DefaultPort: tn3270Port}, func() access.Fetcher { return Client{} })
}

// Client is the access client of rlogin and tn3270 URLs, the
// interactive sessions the drafts name beside telnet ("TELNET, RLOGIN,
// TN3270", the 1993 draft: "information within the service cannot be
// addressed individually or, in general, automatically retrieved"). It
// is an access.Sessioner, so that locator telnet and locator get treat
// these URLs as sessions, and it opens none: Check refuses every such
// URL, before any connection, with a *SessionUnsupportedError that says
// why and what a person can run instead. It has no settings.
type Client struct{}

var _ access.Sessioner = Client{}

// A SessionUnsupportedError says this build opens no session of the
// scheme, why, and what a person can do instead. access.Classify reads
// it as Forbidden (it wraps an *access.UnsupportedError).
type SessionUnsupportedError struct {
	URL     string // masked
	Scheme  string
	Why     string
	Instead string
}

func (e *SessionUnsupportedError) Error() string {
	return e.URL + ": " + e.Why + ". What you can do: " + e.Instead
}

func (e *SessionUnsupportedError) Unwrap() error { return &access.UnsupportedError{Scheme: e.Scheme} }

// Check refuses the URL with a *SessionUnsupportedError.
func (Client) Check(u *locator.URL, req *access.Request) error {
	return unsupported(u)
}

// Fetch refuses as Check does: a session is not an object.
func (Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	return nil, unsupported(u)
}

// Session refuses as Check does (access.Client.Interact calls Check
// first).
func (Client) Session(ctx context.Context, u *locator.URL, req *access.Request, t access.Terminal) error {
	return unsupported(u)
}

func unsupported(u *locator.URL) error {
	e := &SessionUnsupportedError{URL: access.Masked(u), Scheme: u.Scheme()}
	host := u.Host()
	if strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]"
	}
	if host == "" {
		host = "HOST"
	}
	user := ""
	if u.HasUser() {
		user = locator.Decode(u.User())
	}
	port := u.EffectivePort()
	switch u.Scheme() {
	case "rlogin":
		e.Why = "rlogin sessions (RFC 1282) are not supported: rlogin sends the login name unasked and has the server trust the " +
			"client's privileged source port (below 1024, which only root may bind), in clear text; most hosts no longer offer it"
		cmd := "rlogin "
		if user != "" {
			cmd += "-l " + user + " "
		}
		cmd += host
		e.Instead = "run an rlogin client yourself: " + cmd
		if port != rloginPort {
			e.Instead += " (port " + strconv.Itoa(port) + ", for a client that can name one)"
		}
		e.Instead += ", or ssh if the host offers it"
	default: // tn3270
		e.Why = "tn3270 sessions are not supported: a 3270 is a block-mode terminal (the host sends whole formatted screens of " +
			"protected and input fields in EBCDIC, and the terminal returns the changed fields when Enter, a PF or a PA key is " +
			"pressed; tn3270 negotiates TERMINAL-TYPE IBM-3278-2, BINARY and END-OF-RECORD over Telnet, RFC 1576), which takes " +
			"a 3270 emulator, not a character terminal"
		target := host
		if port != tn3270Port {
			target += ":" + strconv.Itoa(port)
		}
		e.Instead = "use a 3270 emulator: c3270 " + target + " (Debian package c3270; x3270 under X)"
	}
	if user != "" {
		e.Instead += "; the URL suggests the login name " + strconv.Quote(user) + " (advice only, RFC 1738 §3.8)"
	}
	return e
}
