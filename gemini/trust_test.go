package gemini_test

// The trust store is keyed by the server, not by how its host is
// spelled (Gemini §4.2; RFC 1738 §3.1: host names are case-insensitive;
// §2.2: an escape is the octet), is bounded, and when full still trusts
// the servers it holds. The server is molly-brown on 127.0.0.1, reached
// through a relay of our own that forwards one port to one molly-brown
// and then to another with another certificate, as a server that
// changes its certificate (or a machine in between) would.

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

func TestServerKey(t *testing.T) {
	for _, c := range []struct {
		host string
		port int
		want string
	}{
		{"127.0.0.1", 1965, "127.0.0.1:1965"},
		{"::ffff:127.0.0.1", 1965, "127.0.0.1:1965"},           // IPv4-mapped: the IPv4 address
		{"[::FFFF:7f00:1]", 1965, "127.0.0.1:1965"},            // brackets, hex, case
		{"0:0:0:0:0:ffff:127.0.0.1", 19651, "127.0.0.1:19651"}, // RFC 5952's canonical form
		{"%31%32%37.0.0.1", 1965, "127.0.0.1:1965"},            // RFC 1738 §2.2: an escape is its octet
		{"LOCALHOST", 1965, "localhost:1965"},                  // §3.1: case-insensitive
		{"localhost.", 1965, "localhost:1965"},                 // an absolute name
		{"%4Cocalhost", 1965, "localhost:1965"},
		{"ⓛocalhost", 1965, "localhost:1965"},                 // IDNA (UTS #46) mapping
		{"Räksmörgås.SE", 1965, "xn--rksmrgs-5wao1o.se:1965"}, // A-labels
		{"xn--rksmrgs-5wao1o.se", 1965, "xn--rksmrgs-5wao1o.se:1965"},
		{"0:0::1", 1965, "[::1]:1965"},
		{"::1", 70, "[::1]:70"},
	} {
		if got := gemini.ServerKey(c.host, c.port); got != c.want {
			t.Errorf("ServerKey(%q, %d) = %q, want %q", c.host, c.port, got, c.want)
		}
	}
}

// spellings are URLs of one server on 127.0.0.1 at port, and of the
// name localhost, each spelled in other ways.
func spellings(port int) (addr, name []string) {
	p := ":" + strconv.Itoa(port)
	addr = []string{"127.0.0.1" + p, "[::ffff:127.0.0.1]" + p, "[::FFFF:7F00:1]" + p, "[0:0:0:0:0:ffff:127.0.0.1]" + p, "%31%32%37.0.0.1" + p, "127.0.0.1:0" + strconv.Itoa(port)}
	name = []string{"localhost" + p, "LOCALHOST" + p, "LocalHost" + p, "%4Cocalhost" + p}
	return addr, name
}

// trusted follows gemini://s/hello.txt and says whether the certificate
// was trusted: molly-brown answers the file (its own host, 127.0.0.1) or
// 53 (another spelling, which it does not take for its own name) once
// the handshake has passed. Any other error is returned.
func trusted(t *testing.T, ac *access.Client, s string) error {
	t.Helper()
	_, body, err := get(t, ac, "gemini://"+s+"/hello.txt")
	var se *access.ServerError
	switch {
	case err == nil && string(body) == "hello, gemini\r\nline two\n":
		return nil
	case errors.As(err, &se) && se.Code == "53":
		return nil
	case err == nil:
		t.Fatalf("%s: body %q", s, body)
	}
	return err
}

// TestTrustHostSpellings: every spelling of 127.0.0.1 (an IPv4-mapped
// IPv6 address, escapes, a port with a leading 0) is one line of the
// known-hosts file, and so are the spellings of localhost (a name is
// its own server); when the port then serves another certificate, every
// spelling is refused, with the fingerprint kept first. The same with a
// TrustStore in memory.
func TestTrustHostSpellings(t *testing.T) {
	a := startMolly(t, "")
	b := startMolly(t, "")
	var target atomic.Value
	target.Store(a.srv.Addr)
	port := peer.Relay(t, &target)
	addrs, names := spellings(port)
	kh := filepath.Join(t.TempDir(), "known_hosts")
	store := &gemini.TrustStore{}
	for _, g := range []*gemini.Client{{KnownHosts: kh}, {Trust: store}} {
		target.Store(a.srv.Addr)
		ac, log := client(t, g)
		for _, s := range append(addrs, names...) {
			if err := trusted(t, ac, s); err != nil {
				t.Fatalf("%s with the first certificate: %v\n%s", s, err, log)
			}
		}
		if n := strings.Count(log.String(), "first use: trusted and remembered"); n != 2 {
			t.Errorf("%d first uses, want 2 (127.0.0.1 and localhost):\n%s", n, log)
		}
		target.Store(b.srv.Addr)
		for _, s := range append(addrs, names...) {
			err := trusted(t, ac, s)
			var ce *gemini.CertificateError
			if !errors.As(err, &ce) || ce.Known != a.fp || ce.Got != b.fp {
				t.Errorf("%s with another certificate: %v, want a *CertificateError from %s to %s", s, err, a.fp, b.fp)
			}
		}
	}
	f, _ := os.ReadFile(kh)
	p := strconv.Itoa(port)
	if lines := strings.Split(strings.TrimSuffix(string(f), "\n"), "\n"); len(lines) != 2 ||
		!strings.HasPrefix(lines[0], "127.0.0.1:"+p+" "+a.fp+" ") || !strings.HasPrefix(lines[1], "localhost:"+p+" "+a.fp+" ") {
		t.Errorf("known hosts:\n%s", f)
	}
	if store.Len() != 2 {
		t.Errorf("the store holds %d servers, want 2", store.Len())
	}
}

// TestTrustOldSpellings: a file an earlier version wrote, its lines
// under the host as the URL spelled it, is read by ServerKey: the
// server's certificate is known under any spelling, another is refused,
// and a renewal after expiry replaces every line of the server with one.
func TestTrustOldSpellings(t *testing.T) {
	m := startMolly(t, "")
	p := strconv.Itoa(m.srv.Port)
	kh := filepath.Join(t.TempDir(), "known_hosts")
	until := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	other := "SHA256:" + strings.Repeat("cd", 32)
	write := func(s string) { write(t, kh, s) }
	ac, log := client(t, &gemini.Client{KnownHosts: kh})
	write("[::FFFF:127.0.0.1]:" + p + " " + m.fp + " " + until + "\n")
	if err := trusted(t, ac, "127.0.0.1:"+p); err != nil || !strings.Contains(log.String(), "known since first use") {
		t.Errorf("known under an old spelling: %v\n%s", err, log)
	}
	write("127.0.0.1:" + p + " " + m.fp + " " + until + "\n[::ffff:127.0.0.1]:" + p + " " + other + " " + until + "\n")
	err := trusted(t, ac, "127.0.0.1:"+p)
	var ce *gemini.CertificateError
	if !errors.As(err, &ce) || ce.Line != 2 || ce.Known != other {
		t.Errorf("two certificates for one server, one not presented: %v", err)
	}
	write("%31%32%37.0.0.1:" + p + " " + other + " " + past + "\n# kept\n[::ffff:127.0.0.1]:" + p + " " + other + " " + past + "\n")
	if err := trusted(t, ac, "127.0.0.1:"+p); err != nil {
		t.Fatal(err)
	}
	if f, _ := os.ReadFile(kh); !strings.HasPrefix(string(f), "127.0.0.1:"+p+" "+m.fp+" ") || strings.Count(string(f), "\n") != 2 || !strings.HasSuffix(string(f), "Z\n# kept\n") {
		t.Errorf("after renewal:\n%s", f)
	}
}

// TestKnownHostsFull: a file at MaxKnownHosts refuses a new server,
// saying it is full, and still trusts the servers it holds, wherever
// their line is, even in a file larger than the bound (written by hand).
func TestKnownHostsFull(t *testing.T) {
	m := startMolly(t, "")
	p := strconv.Itoa(m.srv.Port)
	kh := filepath.Join(t.TempDir(), "known_hosts")
	until := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	line := func(i int) string {
		return "h" + strconv.Itoa(i) + ".example:1965 SHA256:" + strings.Repeat("ef", 32) + " " + until + "\n"
	}
	for _, size := range []int{gemini.MaxKnownHosts - 40, 3 * gemini.MaxKnownHosts} {
		var sb strings.Builder
		for i := 0; sb.Len() < size-len(line(0)); i++ {
			sb.WriteString(line(i))
		}
		sb.WriteString("127.0.0.1:" + p + " " + m.fp + " " + until + "\n")
		write(t, kh, sb.String())
		before, _ := os.ReadFile(kh)
		ac, log := client(t, &gemini.Client{KnownHosts: kh})
		for _, s := range []string{"127.0.0.1:" + p, "[::ffff:127.0.0.1]:" + p} {
			if err := trusted(t, ac, s); err != nil {
				t.Errorf("%d octets: %s, held: %v\n%s", len(before), s, err, log)
			}
		}
		err := trusted(t, ac, "localhost:"+p)
		var ke *gemini.KnownHostsError
		if !errors.As(err, &ke) || !strings.Contains(err.Error(), "full") || !strings.Contains(err.Error(), "the servers it holds are still trusted") {
			t.Errorf("%d octets: a new server: %v", len(before), err)
		}
		if after, _ := os.ReadFile(kh); string(after) != string(before) {
			t.Errorf("%d octets: the file changed", len(before))
		}
	}
}

func write(t *testing.T, name, s string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestTrustStoreFull: a TrustStore holding Max servers refuses a new
// one and trusts those it holds; none is forgotten to make room.
func TestTrustStoreFull(t *testing.T) {
	m := startMolly(t, "")
	p := strconv.Itoa(m.srv.Port)
	store := &gemini.TrustStore{Max: 1}
	ac, log := client(t, &gemini.Client{Trust: store})
	if err := trusted(t, ac, "127.0.0.1:"+p); err != nil {
		t.Fatal(err)
	}
	err := trusted(t, ac, "localhost:"+p)
	var ke *gemini.KnownHostsError
	if !errors.As(err, &ke) || ke.File != "" || !strings.Contains(err.Error(), "known hosts (in memory): full: it holds 1 servers") {
		t.Errorf("a new server: %v", err)
	}
	for _, s := range []string{"127.0.0.1:" + p, "[::ffff:127.0.0.1]:" + p} {
		if err := trusted(t, ac, s); err != nil {
			t.Errorf("%s, held: %v\n%s", s, err, log)
		}
	}
	if store.Len() != 1 {
		t.Errorf("the store holds %d", store.Len())
	}
}

// TestNumericHost: an IPv4 address in a form other than dotted decimal
// (inet_aton's "2130706433", "0x7f.1", "127.1") is refused before any
// connection (RFC 1738 §3.1 hostnumber): resolvers read such forms
// differently, and a certificate trusted for one would be trusted apart
// from the address's.
func TestNumericHost(t *testing.T) {
	ac, _ := client(t, nil)
	ac.Dial = func(context.Context, string, string) (net.Conn, error) {
		return nil, errors.New("no connection expected")
	}
	for _, h := range []string{"2130706433", "0x7f.1", "127.1", "0177.0.0.1"} {
		_, err := ac.Get(context.Background(), loctest.MustParse(t, "gemini://"+h+":1965/"))
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Rule != "RFC 1738 §3.1" || pe.Offset != len("gemini://") {
			t.Errorf("%s: %v", h, err)
		}
	}
}
