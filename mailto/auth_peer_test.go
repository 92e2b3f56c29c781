package mailto

import (
	"errors"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

const (
	authUser     = "sender"
	authPassword = "s3cret pass"
)

// startAiosmtpdAuth starts aiosmtpd requiring AUTH with the login
// authUser:authPassword, and returns it and its maildir.
func startAiosmtpdAuth(t *testing.T) (*peer.Server, string) {
	return peer.AiosmtpdAuth(t, authUser, authPassword)
}

// TestSendLogin: with no User, the login SendOptions.Login (a .netrc)
// knows for the server is what AUTH sends (RFC 4954), asked only when
// the server offers AUTH, with the host and no user; with a User, it is
// asked before Password. A server that requires AUTH (aiosmtpd,
// auth_required) refuses MAIL without it.
func TestSendLogin(t *testing.T) {
	srv, dir := startAiosmtpdAuth(t)
	m := composeT(t, "mailto:joe@example.com", "hello\n")
	type ask struct{ host, user string }
	var asked []ask
	netrc := func(login, password string) func(h, u string) (string, string, bool) {
		return func(h, u string) (string, string, bool) {
			asked = append(asked, ask{h, u})
			if h != peer.Host {
				return "", "", false
			}
			return login, password, true
		}
	}
	send := func(o SendOptions) (*Receipt, string, error) {
		var d strings.Builder
		o.Server, o.Hello, o.Dialogue = srv.Addr, "client.example", &d
		rc, err := Send(t.Context(), m, o)
		return rc, d.String(), err
	}

	// Nothing to log in with: the server's 530 to MAIL.
	_, d, err := send(SendOptions{})
	var se *access.ServerError
	if !errors.As(err, &se) || se.Code != "530" || !strings.Contains(d, "< 250-AUTH ") {
		t.Errorf("without a login: %v, want the server's 530\n%s", err, d)
	}

	// The login file's login.
	asked = nil
	rc, d, err := send(SendOptions{Login: netrc(authUser, authPassword)})
	if err != nil {
		t.Fatalf("with the login file: %v\n%s", err, d)
	}
	if rc.Auth != "PLAIN" || len(asked) != 1 || asked[0] != (ask{peer.Host, ""}) ||
		!strings.Contains(d, "> AUTH PLAIN ****\n< 235 ") || strings.Contains(d, authPassword) {
		t.Errorf("with the login file: receipt %+v, Login asked %+v\n%s", rc, asked, d)
	}
	if got := maildirMessages(t, dir); len(got) != 1 || !strings.Contains(got[0], m.MessageID) {
		t.Errorf("%d messages delivered, want this one", len(got))
	}

	// A wrong password from it: the server's 535, nothing delivered.
	_, d, err = send(SendOptions{Login: netrc(authUser, authPassword+"x")})
	if !errors.As(err, &se) || se.Code != "535" || se.Command != "AUTH PLAIN ****" {
		t.Errorf("a wrong password: %v, want the server's 535 to AUTH PLAIN\n%s", err, d)
	}

	// A login file that knows no login for the server: no AUTH, 530.
	_, d, err = send(SendOptions{Login: func(h, u string) (string, string, bool) { return "", "", false }})
	if !errors.As(err, &se) || se.Code != "530" || strings.Contains(d, "> AUTH") {
		t.Errorf("a login file without the server: %v, want the server's 530\n%s", err, d)
	}

	// A User given: Login is asked for that user before Password, which
	// is not asked.
	asked = nil
	pwAsked := false
	rc, d, err = send(SendOptions{User: authUser, Password: func() (string, error) { pwAsked = true; return "", errors.New("not asked") }, Login: netrc(authUser, authPassword)})
	if err != nil || rc.Auth != "PLAIN" || pwAsked || len(asked) != 1 || asked[0] != (ask{peer.Host, authUser}) {
		t.Errorf("User and Login: %v, receipt %+v, Password asked %v, Login asked %+v\n%s", err, rc, pwAsked, asked, d)
	}
	if got := maildirMessages(t, dir); len(got) != 2 {
		t.Errorf("%d messages delivered, want 2", len(got))
	}

	// A server that does not offer AUTH (aiosmtpd without it): Login is
	// not asked, the message goes without AUTH.
	plain, pdir := startAiosmtpd(t)
	asked = nil
	var pd strings.Builder
	rc, err = Send(t.Context(), m, SendOptions{Server: plain.Addr, Dialogue: &pd, Login: netrc(authUser, authPassword)})
	if err != nil || rc.Auth != "" || len(asked) != 0 || len(maildirMessages(t, pdir)) != 1 {
		t.Errorf("no AUTH offered: %v, receipt %+v, Login asked %+v\n%s", err, rc, asked, pd.String())
	}
}
