package gemini_test

// Internationalised host names: sent in their ASCII form (A-labels) on
// the request line and in the handshake's server_name, the 1024-octet
// limit counted on what is sent.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

func TestPlanInternationalHost(t *testing.T) {
	pad := strings.Repeat("a", 993) + "y"
	for _, c := range []struct {
		in, host, request string
		port              int
	}{
		{"gemini://bücher.example/a?b#c", "xn--bcher-kva.example", "gemini://xn--bcher-kva.example/a?b", 1965},
		{"gemini://b%C3%BCcher.example:1966/a", "xn--bcher-kva.example", "gemini://xn--bcher-kva.example:1966/a", 1966},
		{"gemini://BÜCHER.Example/", "xn--bcher-kva.example", "gemini://xn--bcher-kva.example/", 1965},
		{"<URL:gemini://例え.jp/x>", "xn--r8jz45g.jp", "gemini://xn--r8jz45g.jp/x", 1965},
		{"gemini://ex%61mple.org", "example.org", "gemini://example.org", 1965},
		// Already ASCII: sent as written, case and all.
		{"gemini://xn--bcher-kva.example/", "xn--bcher-kva.example", "gemini://xn--bcher-kva.example/", 1965},
		{"gemini://Example.ORG/%C3%BC", "Example.ORG", "gemini://Example.ORG/%C3%BC", 1965},
		{"gemini://[::1]:1966/", "::1", "gemini://[::1]:1966/", 1966},
		{"gemini://127.0.0.1/", "127.0.0.1", "gemini://127.0.0.1/", 1965},
		// The path is sent as written, the host alone is rewritten.
		{"gemini://bücher.example/bücher", "xn--bcher-kva.example", "gemini://xn--bcher-kva.example/bücher", 1965},
	} {
		pl, err := gemini.NewPlan(loctest.MustParse(t, c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if pl.Host != c.host || pl.Port != c.port || string(pl.Request) != c.request+"\r\n" {
			t.Errorf("%s: %s %d %q, want %s %d %q", c.in, pl.Host, pl.Port, pl.Request, c.host, c.port, c.request+"\r\n")
		}
	}

	// A host with no ASCII form is refused before any connection.
	g := &gemini.Client{Insecure: true}
	for _, in := range []string{"gemini://a%2Fb.example/", "gemini://a%00b/", "gemini://%FF.example/", "gemini://ü_ü.example/", "gemini://-ü.example/"} {
		u := loctest.MustParse(t, in)
		_, err := gemini.NewPlan(u)
		var se *locator.SchemeError
		if !errors.As(err, &se) || se.Field != "host" || !strings.Contains(se.Message, "IDNA") {
			t.Errorf("%s: NewPlan %v, want a host error", in, err)
		}
		err = g.Check(u, nil)
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Offset != 9 || pe.Rule != "host" {
			t.Errorf("%s: Check %v, want a refusal at the host", in, err)
		}
	}

	// The limit is on the request as sent: a URL of 1019 octets whose
	// host is 6 octets longer in ASCII passes it, at the input's 'y'; a
	// URL of 1030 octets whose percent-encoded host is 7 octets shorter
	// in ASCII does not.
	in := "gemini://bücher.example/" + pad
	u := loctest.MustParse(t, in)
	_, err := gemini.NewPlan(u)
	var re *gemini.RequestError
	if len(in) != 1019 || !errors.As(err, &re) || re.Length != 1025 || in[re.Offset] != 'y' {
		t.Errorf("%d octets, 1025 sent: %v", len(in), err)
	}
	var pe *access.PolicyError
	if err := g.Check(u, nil); !errors.As(err, &pe) || pe.Offset != re.Offset || pe.Rule != "Gemini §2" {
		t.Errorf("Check: %v", err)
	}
	if p := u.Problems(); !hasRule(p, "request", re.Offset) {
		t.Errorf("rules: %v", p)
	}
	in = "gemini://%E4%BE%8B%E3%81%88.jp/" + strings.Repeat("a", 1030-len("gemini://%E4%BE%8B%E3%81%88.jp/"))
	u = loctest.MustParse(t, in)
	if pl, err := gemini.NewPlan(u); err != nil || len(pl.Request) != 1023+2 || hasRule(u.Problems(), "request", -1) {
		t.Errorf("1030 octets, 1023 sent: %v %v", err, u.Problems())
	}
	// Past the limit inside the host: the offset is the host's.
	in = "gemini://" + strings.Repeat("ü", 1100) + ".example/"
	u = loctest.MustParse(t, in)
	if _, err := gemini.NewPlan(u); !errors.As(err, &re) || re.Offset != 9 {
		t.Errorf("a host past the limit: %v", err)
	}
}

// hasRule reports whether ps has a problem of rule at off (any offset
// when off is -1).
func hasRule(ps []locator.Problem, rule string, off int) bool {
	for _, p := range ps {
		if p.Rule == rule && (off < 0 || p.Offset == off) {
			return true
		}
	}
	return false
}

// TestMollyBrownInternationalHost asks molly-brown, whose own name is an
// A-label, for a file by the name's Unicode and percent-encoded forms:
// it answers only a request that names it in ASCII (53 to any other
// host), and the name in the ClientHello's server_name is the A-label
// too. The connection goes to 127.0.0.1 whatever the name.
func TestMollyBrownInternationalHost(t *testing.T) {
	const name = "xn--bcher-kva.example"
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello, IDN\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cert, key, _ := peer.SelfSigned(t, dir)
	peer.OpenTree(t, root)
	var port int
	srv := peer.Start(t, peer.Spec{
		Name:    "molly-brown",
		Program: "/usr/bin/molly-brown",
		Args: func(p int) ([]string, error) {
			port = p
			conf := fmt.Sprintf("Port = %d\nHostname = %q\nCertPath = %q\nKeyPath = %q\nDocBase = %q\nAccessLog = %q\nErrorLog = %q\n",
				p, name, cert, key, root, filepath.Join(dir, "access.log"), filepath.Join(dir, "error.log"))
			f := filepath.Join(dir, "molly.conf")
			return []string{"-c", f}, os.WriteFile(f, []byte(conf), 0o644)
		},
		Ready: func(conn net.Conn) error {
			tc := tls.Client(conn, &tls.Config{InsecureSkipVerify: true})
			if _, err := fmt.Fprintf(tc, "gemini://%s:%d/\r\n", name, port); err != nil {
				return err
			}
			line, err := bufio.NewReader(tc).ReadString('\n')
			if !strings.HasPrefix(line, "20 ") {
				return fmt.Errorf("reply %q, %v", line, err)
			}
			return nil
		},
	})
	var mu sync.Mutex
	var hellos [][]byte
	ac, log := client(t, nil)
	dns := &loctest.FakeDNS{}
	ac.Resolver = dns
	ac.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if h, _, _ := net.SplitHostPort(dns.Name(addr)); h != name {
			return nil, fmt.Errorf("dialed %s, want %s", addr, name)
		}
		c, err := new(net.Dialer).DialContext(ctx, network, srv.Addr)
		if err != nil {
			return nil, err
		}
		return &firstWrite{Conn: c, keep: func(p []byte) { mu.Lock(); hellos = append(hellos, bytes.Clone(p)); mu.Unlock() }}, nil
	}
	for _, host := range []string{"bücher.example", "BÜCHER.example", "b%C3%BCcher.example", name} {
		s := fmt.Sprintf("gemini://%s:%d/hello.txt", host, port)
		res, body, err := get(t, ac, s)
		if err != nil || string(body) != "hello, IDN\n" {
			t.Fatalf("%s: %q %v\n%s", s, body, err, log)
		}
		if res.URL.String() != s {
			t.Errorf("%s: the Resource's URL is %s", s, res.URL)
		}
		if want := fmt.Sprintf("> gemini://%s:%d/hello.txt\n< 20 text/plain", name, port); !strings.Contains(log.String(), want) {
			t.Errorf("%s: the dialogue lacks %q:\n%s", s, want, log)
		}
	}
	if len(hellos) != 4 {
		t.Fatalf("%d connections", len(hellos))
	}
	for i, h := range hellos {
		if !bytes.Contains(h, []byte(name)) || bytes.Contains(h, []byte("bücher")) || bytes.Contains(h, []byte("BÜCHER")) {
			t.Errorf("ClientHello %d lacks the A-label in server_name", i)
		}
	}
	// The server's own view: a request naming it in Unicode is another
	// host's (53), which is why the client sends the A-label.
	conn, err := tls.Dial("tcp", srv.Addr, &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "gemini://bücher.example:%d/hello.txt\r\n", port)
	if line, _ := bufio.NewReader(conn).ReadString('\n'); !strings.HasPrefix(line, "53 ") {
		t.Errorf("molly-brown answers %q to the Unicode name", line)
	}
	// One known-hosts line, under the A-label.
	kh := ac.Schemes["gemini"].(*gemini.Client).KnownHosts
	if b, err := os.ReadFile(kh); err != nil || strings.Count(string(b), "\n") != 1 || !strings.HasPrefix(string(b), fmt.Sprintf("%s:%d SHA256:", name, port)) {
		t.Errorf("known hosts: %q %v", b, err)
	}
}

// firstWrite hands the first write on a connection (a TLS ClientHello)
// to keep.
type firstWrite struct {
	net.Conn
	once sync.Once
	keep func([]byte)
}

func (c *firstWrite) Write(p []byte) (int, error) {
	c.once.Do(func() { c.keep(p) })
	return c.Conn.Write(p)
}
