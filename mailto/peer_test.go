package mailto

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/peer"
)

// Real SMTP servers on loopback, started with package peer: aiosmtpd
// with its Mailbox handler, and exim4 with a configuration of the test's
// own.

const debianPython = "/usr/bin/python3" // the system's, where aiosmtpd is installed: not a pyenv python3 on PATH

// startAiosmtpd starts aiosmtpd delivering into a maildir and returns
// the server and the maildir. As root it runs with -n (without it, it
// switches to nobody and cannot write the maildir).
func startAiosmtpd(t *testing.T) (*peer.Server, string) {
	t.Helper()
	peer.RequirePython(t, debianPython, "aiosmtpd")
	dir := filepath.Join(t.TempDir(), "maildir")
	s := peer.Start(t, peer.Spec{
		Name:    "aiosmtpd",
		Program: debianPython,
		Args: func(port int) ([]string, error) {
			return []string{"-m", "aiosmtpd", "-n", "-l", fmt.Sprintf("%s:%d", peer.Host, port), "-c", "aiosmtpd.handlers.Mailbox", dir}, nil
		},
		Ready: peer.ReadyLine("220 "),
	})
	return s, dir
}

// maildirMessages returns the messages delivered into a maildir.
func maildirMessages(t *testing.T, dir string) []string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "new", "*"))
	var out []string
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// lf is a message as a mailbox stores it: LF line ends.
func lf(b []byte) string { return strings.ReplaceAll(string(b), "\r\n", "\n") }

func composeT(t *testing.T, url, body string) *Message {
	t.Helper()
	m, _, err := Compose(mustParse(t, url))
	if err != nil {
		t.Fatal(err)
	}
	m.From, m.Body = "me@example.net", body
	m.Date, m.MessageID = testDate, NewMessageID("me@example.net")
	return m
}

// TestSendAiosmtpd submits messages to aiosmtpd and compares what it
// delivered with what was sent, byte for byte but for the three header
// fields its Mailbox handler appends to the header (X-Peer, X-MailFrom,
// X-RcptTo) and the LF line ends of a maildir file.
func TestSendAiosmtpd(t *testing.T) {
	srv, dir := startAiosmtpd(t)
	tests := []struct {
		name, url, body, cte string
	}{
		// aiosmtpd offers 8BITMIME: UTF-8 goes as it is (RFC 6152).
		{"8bit", "mailto:joe@example.com?cc=bob@example.com&subject=caf%C3%A9%20%E2%80%94%20RFC%206068%20%C2%A76.3&bcc=eve@example.com",
			"café\n.leading dot, stuffed on the wire (RFC 5321 §4.5.2)\nFrom the start of a line\n..two dots\n.\n", EightBit},
		// A line over 998 octets: quoted-printable even so (RFC 5322 §2.1.1).
		{"long line", "mailto:?to=joe@example.com&body=ignored", strings.Repeat("long ", 300) + "\nend\n", QuotedPrintable},
		// ASCII: 7bit.
		{"7bit", "mailto:joe@example.com?body=subscribe%20bamboo-l", "", SevenBit},
	}
	for i, tt := range tests {
		m := composeT(t, tt.url, tt.body)
		if tt.body == "" {
			m.Body = "subscribe bamboo-l"
		}
		var dialogue strings.Builder
		rc, err := Send(t.Context(), m, SendOptions{Server: srv.Addr, Hello: "client.example", Dialogue: &dialogue})
		if err != nil {
			t.Fatalf("%s: Send: %v\n%s", tt.name, err, dialogue.String())
		}
		if rc.Encoding != tt.cte || rc.TLS || rc.Auth != "" || rc.Reply != "250 OK" || !strings.HasPrefix(rc.Greeting, "220 ") {
			t.Errorf("%s: receipt %+v", tt.name, rc)
		}
		got := maildirMessages(t, dir)
		if len(got) != i+1 {
			t.Fatalf("%s: %d messages in the maildir, want %d", tt.name, len(got), i+1)
		}
		var delivered string
		for _, g := range got {
			if strings.Contains(g, m.MessageID) {
				delivered = g
			}
		}
		head, body, ok := strings.Cut(delivered, "\n\n")
		if !ok {
			t.Fatalf("%s: no header/body separator in %q", tt.name, delivered)
		}
		// The handler's own fields, appended after ours.
		rcpts := strings.Join(append(append([]string(nil), m.To...), m.Cc...), ", ")
		added := []string{"X-Peer: ('127.0.0.1', ", "X-MailFrom: me@example.net", "X-RcptTo: " + rcpts}
		lines := strings.Split(head, "\n")
		if len(lines) < 3 {
			t.Fatalf("%s: header %q", tt.name, head)
		}
		tail := lines[len(lines)-3:]
		for j, a := range added {
			if !strings.HasPrefix(tail[j], a) || j > 0 && tail[j] != a {
				t.Errorf("%s: aiosmtpd's field %d is %q, want %q", tt.name, j, tail[j], a)
			}
		}
		if want, got := lf(rc.Message), strings.Join(lines[:len(lines)-3], "\n")+"\n\n"+body; got != want {
			t.Errorf("%s: delivered\n%q\nwant\n%q", tt.name, got, want)
		}
		for _, l := range []string{"> EHLO client.example", "< 250-8BITMIME", "> MAIL FROM:<me@example.net>", "> DATA", "> .", "< 250 OK", "> QUIT"} {
			if !strings.Contains(dialogue.String(), l+"\n") && !strings.Contains(dialogue.String(), l+" ") {
				t.Errorf("%s: the dialogue lacks %q:\n%s", tt.name, l, dialogue.String())
			}
		}
		if strings.Contains(delivered, "eve@example.com") {
			t.Errorf("%s: the dropped Bcc reached the server", tt.name)
		}
	}
}

// TestSendRefusals: what Send refuses before the message goes, against
// aiosmtpd (no STARTTLS, no AUTH): nothing is delivered.
func TestSendRefusals(t *testing.T) {
	srv, dir := startAiosmtpd(t)
	m := composeT(t, "mailto:joe@example.com", "hi\n")
	tests := []struct {
		name string
		o    SendOptions
		want string
	}{
		{"require TLS", SendOptions{RequireTLS: true}, "does not offer STARTTLS, and TLS is required"},
		{"AUTH not offered", SendOptions{User: "u", Password: func() (string, error) { return "p", nil }}, "does not offer AUTH"},
	}
	for _, tt := range tests {
		tt.o.Server = srv.Addr
		_, err := Send(t.Context(), m, tt.o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Send = %v, want %q", tt.name, err, tt.want)
		}
	}
	for _, bad := range []struct{ server, want string }{
		{"127.0.0.1", "is not host:port"},
		{"127.0.0.1:0", "not a number from 1 to 65535"},
		{"127.0.0.1:smtp", "not a number from 1 to 65535"},
	} {
		_, err := Send(t.Context(), m, SendOptions{Server: bad.server})
		if _, ok := err.(*locator.SchemeError); !ok || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Send to %q = %v, want a *locator.SchemeError %q", bad.server, err, bad.want)
		}
	}
	if got := maildirMessages(t, dir); len(got) != 0 {
		t.Errorf("%d messages delivered, want none", len(got))
	}
}

// exim is an exim4 daemon with the test's configuration: STARTTLS with
// a certificate made here, AUTH with the mechanisms given (user
// "locuser", password "s3cret"), RCPT refused for "refused@…", every
// message appended to one mbox file.
type exim struct {
	*peer.Server
	mbox string
	tls  *tls.Config // trusts the server's certificate
}

const eximUser, eximPassword = "locuser", "s3cret"

func startExim(t *testing.T, mechs ...string) *exim {
	t.Helper()
	peer.Require(t, "exim4")
	peer.RequireRoot(t, "exim4 with a configuration given by -C (Debian's exim4 trusts -C only for root) and delivery as nobody")
	// Not t.TempDir: its 0700 parents would keep the delivery process,
	// which runs as nobody, out.
	dir, err := os.MkdirTemp("", "locator-exim-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, d := range []struct {
		name string
		mode os.FileMode
	}{{"", 0o755}, {"spool", 0o750}, {"log", 0o750}, {"mail", 0o777}} {
		os.MkdirAll(filepath.Join(dir, d.name), d.mode)
		os.Chmod(filepath.Join(dir, d.name), d.mode)
	}
	certPEM, keyPEM := selfSigned(t)
	os.WriteFile(filepath.Join(dir, "cert.pem"), certPEM, 0o644)
	os.WriteFile(filepath.Join(dir, "key.pem"), keyPEM, 0o600)
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(certPEM)
	auth := map[string]string{
		"PLAIN": "plain:\n  driver = plaintext\n  public_name = PLAIN\n  server_prompts = :\n" +
			"  server_condition = ${if and {{eq{$auth2}{" + eximUser + "}}{eq{$auth3}{" + eximPassword + "}}}}\n  server_set_id = $auth2\n",
		"LOGIN": "login:\n  driver = plaintext\n  public_name = LOGIN\n  server_prompts = Username:: : Password::\n" +
			"  server_condition = ${if and {{eq{$auth1}{" + eximUser + "}}{eq{$auth2}{" + eximPassword + "}}}}\n  server_set_id = $auth1\n",
	}
	var authenticators string
	for _, m := range mechs {
		authenticators += auth[m]
	}
	conf := filepath.Join(dir, "exim.conf")
	e := &exim{mbox: filepath.Join(dir, "mail", "mbox"), tls: &tls.Config{RootCAs: roots, ServerName: peer.Host}}
	e.Server = peer.Start(t, peer.Spec{
		Name:    "exim4",
		Program: "exim4",
		Dir:     dir,
		Args: func(port int) ([]string, error) {
			c := strings.NewReplacer("$D", dir, "$AUTH", authenticators).Replace(eximConf)
			if err := os.WriteFile(conf, []byte(c), 0o644); err != nil {
				return nil, err
			}
			return []string{"-C", conf, "-bdf", "-oX", fmt.Sprint(port)}, nil
		},
		Ready: peer.ReadyLine("220 "),
	})
	return e
}

const eximConf = `primary_hostname = locator.test
qualify_domain = locator.test
local_interfaces = 127.0.0.1
keep_environment =
spool_directory = $D/spool
log_file_path = $D/log/%slog
pid_file_path = $D/exim.pid
exim_user = root
exim_group = root
never_users =
tls_certificate = $D/cert.pem
tls_privatekey = $D/key.pem
acl_smtp_rcpt = acl_rcpt
begin acl
acl_rcpt:
  deny local_parts = refused
       message = no such user here
  accept
begin routers
all:
  driver = accept
  transport = mbox
begin transports
mbox:
  driver = appendfile
  file = $D/mail/mbox
  user = nobody
  group = nogroup
  mode = 0644
begin retry
*  *  F,1m,1m
begin authenticators
$AUTH`

// selfSigned makes a certificate for 127.0.0.1 and its key, in PEM.
func selfSigned(t *testing.T) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "locator.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP(peer.Host)}, DNSNames: []string{"locator.test"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

// delivered waits for exim's delivery process, which runs after the
// 250 to DATA, to append the message with msgID to the mbox, and
// returns its copies there.
func (e *exim) delivered(t *testing.T, msgID string, want int) []string {
	t.Helper()
	var copies []string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(e.mbox)
		copies = nil
		entries := strings.Split(string(b), "\nFrom ")
		for i, m := range entries {
			if i < len(entries)-1 {
				m += "\n" // the split took the line end of the empty line that ends each entry
			}
			if strings.Contains(m, msgID) {
				copies = append(copies, m)
			}
		}
		if len(copies) >= want {
			break
		}
	}
	if len(copies) != want {
		t.Fatalf("%d copies of %s delivered, want %d", len(copies), msgID, want)
	}
	return copies
}

// eximBody strips what exim adds to a message in an mbox: the "From "
// separator line, its Received field (folded over TAB-led lines) and
// the empty line that ends each message.
func eximBody(t *testing.T, m string) string {
	t.Helper()
	lines := strings.Split(m, "\n")
	if !strings.HasPrefix(lines[0], "From ") && !strings.HasPrefix(lines[0], "me@") {
		t.Fatalf("mbox entry begins %q", lines[0])
	}
	i := 1
	if !strings.HasPrefix(lines[i], "Received: from ") {
		t.Fatalf("exim's Received field missing: %q", lines[i])
	}
	for i++; i < len(lines) && strings.HasPrefix(lines[i], "\t"); i++ {
	}
	return strings.TrimSuffix(strings.Join(lines[i:], "\n"), "\n")
}

// TestSendExim: STARTTLS (RFC 3207) with the EHLO repeated, AUTH PLAIN
// (RFC 4954, RFC 4616) with the password masked in the dialogue, and the
// message delivered byte for byte but for exim's "From " line and
// Received field.
func TestSendExim(t *testing.T) {
	e := startExim(t, "PLAIN", "LOGIN")
	m := composeT(t, "mailto:joe@example.com?cc=bob@example.com&subject=caf%C3%A9&In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
		"Hi exim,\n.dot\ncafé\n")
	var dialogue strings.Builder
	rc, err := Send(t.Context(), m, SendOptions{Server: e.Addr, TLSConfig: e.tls, User: eximUser,
		Password: func() (string, error) { return eximPassword, nil }, Dialogue: &dialogue})
	if err != nil {
		t.Fatalf("Send: %v\n%s", err, dialogue.String())
	}
	d := dialogue.String()
	if !rc.TLS || rc.Auth != "PLAIN" || rc.Encoding != EightBit || !strings.HasPrefix(rc.Reply, "250 OK id=") {
		t.Errorf("receipt %+v", rc)
	}
	if strings.Count(d, "> EHLO ") != 2 || !strings.Contains(d, "< 250-STARTTLS") || !strings.Contains(d, "> AUTH PLAIN ****\n< 235 ") ||
		!strings.Contains(d, "* STARTTLS: TLS 1.3") || !strings.Contains(d, "> MAIL FROM:<me@example.net> BODY=8BITMIME SIZE=") {
		t.Errorf("dialogue:\n%s", d)
	}
	if strings.Contains(d, eximPassword) || strings.Contains(d, "czNjcmV0") || strings.Contains(d, "AGxvY3VzZXIAczNjcmV0") {
		t.Errorf("the password reached the dialogue:\n%s", d)
	}
	for _, c := range e.delivered(t, m.MessageID, 2) {
		if got, want := eximBody(t, c), lf(rc.Message); got != want {
			t.Errorf("delivered\n%q\nwant\n%q", got, want)
		}
	}

	// A wrong password: 535, nothing sent.
	m2 := composeT(t, "mailto:joe@example.com", "x\n")
	_, err = Send(t.Context(), m2, SendOptions{Server: e.Addr, TLSConfig: e.tls, User: eximUser, Password: func() (string, error) { return "wrong", nil }})
	if err == nil || !strings.Contains(err.Error(), "the server says 535") || !strings.Contains(err.Error(), `(to "AUTH PLAIN ****")`) {
		t.Errorf("wrong password: %v", err)
	}
	// A refused recipient ends the session before DATA: no copy for
	// anyone.
	m3 := composeT(t, "mailto:joe@example.com,refused@example.com", "x\n")
	_, err = Send(t.Context(), m3, SendOptions{Server: e.Addr, TLSConfig: e.tls})
	if err == nil || !strings.Contains(err.Error(), "the server says 550 no such user here") || !strings.Contains(err.Error(), "RCPT TO:<refused@example.com>") {
		t.Errorf("refused recipient: %v", err)
	}
	// Without our CA the server's certificate is not trusted: the
	// message is not sent in clear instead.
	_, err = Send(t.Context(), m3, SendOptions{Server: e.Addr})
	if err == nil || !strings.Contains(err.Error(), "STARTTLS with "+e.Addr+": tls: ") {
		t.Errorf("untrusted certificate: %v", err)
	}
	b, _ := os.ReadFile(e.mbox)
	for _, id := range []string{m2.MessageID, m3.MessageID} {
		if strings.Contains(string(b), id) {
			t.Errorf("%s was delivered", id)
		}
	}
}

// TestSendEximLogin: a server that offers AUTH LOGIN only (RFC 4954's
// predecessor practice): the user name and password go base64 after the
// server's 334 prompts, the password masked.
func TestSendEximLogin(t *testing.T) {
	e := startExim(t, "LOGIN")
	m := composeT(t, "mailto:joe@example.com?subject=login", "via LOGIN\n")
	var dialogue strings.Builder
	rc, err := Send(t.Context(), m, SendOptions{Server: e.Addr, TLSConfig: e.tls, User: eximUser,
		Password: func() (string, error) { return eximPassword, nil }, Dialogue: &dialogue})
	if err != nil {
		t.Fatalf("Send: %v\n%s", err, dialogue.String())
	}
	d := dialogue.String()
	if rc.Auth != "LOGIN" || !strings.Contains(d, "> AUTH LOGIN\n< 334 VXNlcm5hbWU6\n> bG9jdXNlcg==\n< 334 UGFzc3dvcmQ6\n> ****\n< 235 ") {
		t.Errorf("receipt %+v, dialogue:\n%s", rc, d)
	}
	if strings.Contains(d, eximPassword) || strings.Contains(d, "czNjcmV0") {
		t.Errorf("the password reached the dialogue:\n%s", d)
	}
	if got, want := eximBody(t, e.delivered(t, m.MessageID, 1)[0]), lf(rc.Message); got != want {
		t.Errorf("delivered\n%q\nwant\n%q", got, want)
	}
}
