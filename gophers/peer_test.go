package gophers_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gophers"
	"github.com/rfc1738/locator/internal/peer"
)

// tree writes the gopherspace both servers serve: a text file, a binary
// file, a directory, and a gophermap that links to other servers and,
// by another name and as a URL: link, to the TLS server itself.
func tree(t *testing.T) string {
	t.Helper()
	root := t.TempDir() // OpenTree opens it and its parent to the servers, which run as nobody
	bin := make([]byte, 70000)
	for i := range bin {
		bin[i] = byte(i*7 + i/251)
	}
	files := map[string][]byte{
		"hello.txt":     []byte("Hello over TLS.\r\n.. a dot line\r\nlast line\r\n"),
		"data.bin":      bin,
		"sub/inner.txt": []byte("inner\n"),
		// @PORT@: the TLS port, written once the server listens.
		"links/gophermap": []byte("iLinks\t\t\t\r\n0Here\t/hello.txt\r\n1Elsewhere\t/\texample.org\t70\r\n0Other port\t/hello.txt\t127.0.0.1\t7070\r\n" +
			"0By another name\t/hello.txt\tLOCALHOST\t@PORT@\r\nhA link written gopher\tURL:gopher://127.0.0.1:@PORT@/0/hello.txt\t127.0.0.1\t@PORT@\r\n"),
	}
	for name, b := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func get(t *testing.T, c *access.Client, raw string) (*access.Resource, error) {
	t.Helper()
	u, err := locator.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return c.Get(context.Background(), u)
}

// servers starts gophernicus on the same tree twice: plain, and behind
// the TLS terminator (stunnel4, or socat when socat is true) with the
// test's certificate; it returns both and a Client that trusts the
// certificate, logging the dialogue to dlg.
func servers(t *testing.T, socat bool, dlg io.Writer) (plain, tlsd *peer.Server, c *access.Client) {
	t.Helper()
	root := tree(t)
	cert, key, roots := peer.SelfSigned(t, t.TempDir())
	tlsd = peer.GophernicusTLS(t, root, cert, key, socat)
	plain = peer.Gophernicus(t, root)
	m := filepath.Join(root, "links", "gophermap")
	b, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(m, bytes.ReplaceAll(b, []byte("@PORT@"), []byte(strconv.Itoa(tlsd.Port))), 0o644); err != nil {
		t.Fatal(err)
	}
	c = &access.Client{Dialogue: dlg, Schemes: map[string]access.Fetcher{
		"gophers": &gophers.Client{TLSConfig: &tls.Config{RootCAs: roots}},
	}}
	return plain, tlsd, c
}

func body(t *testing.T, c *access.Client, raw string) []byte {
	t.Helper()
	res, err := get(t, c, raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	defer res.Close()
	if res.Body == nil {
		t.Fatalf("%s: a listing, not a body", raw)
	}
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return b
}

func entries(t *testing.T, c *access.Client, raw string) []access.Entry {
	t.Helper()
	res, err := get(t, c, raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	if res.Listing == nil {
		t.Fatalf("%s: not a listing", raw)
	}
	es, err := res.Listing.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return es
}

// TestGophersGophernicus follows gophers URLs to gophernicus behind
// stunnel4 and behind socat's OPENSSL-LISTEN: every item's octets are
// those of a plain gopher fetch of the same selector from gophernicus
// serving the same tree, and a menu's entries are the plain menu's, the
// items of the same server written as gophers URLs and the others left
// gopher URLs.
func TestGophersGophernicus(t *testing.T) {
	for _, tt := range []struct {
		name  string
		socat bool
	}{{"stunnel4", false}, {"socat", true}} {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.socat {
				peer.Require(t, "/usr/bin/stunnel4")
			}
			var dlg bytes.Buffer
			plain, tlsd, c := servers(t, tt.socat, &dlg)
			p, s := "gopher://"+plain.Addr, "gophers://"+tlsd.Addr
			for _, sel := range []string{"/0/hello.txt", "/9/data.bin", "/0/sub/inner.txt", "/9/hello.txt"} {
				// Not a missing item: gophernicus writes its error and
				// exits without reading the rest of the request, and
				// both terminators then lose the reply now and then
				// (curl's gophers too), a fault of the pair, not of TLS.
				want, got := body(t, c, p+sel), body(t, c, s+sel)
				if !bytes.Equal(got, want) || len(want) == 0 {
					t.Errorf("%s: %d octets over TLS, %d in the clear (%q, %q)", sel, len(got), len(want), got[:min(len(got), 40)], want[:min(len(want), 40)])
				}
			}
			if got := body(t, c, s+"/0/hello.txt"); string(got) != "Hello over TLS.\r\n.. a dot line\r\nlast line\r\n" {
				t.Errorf("hello.txt over TLS: %q", got)
			}
			for _, sel := range []string{"/", "/1/sub/"} {
				want, got := entries(t, c, p+sel), entries(t, c, s+sel)
				if len(got) != len(want) || len(got) == 0 {
					t.Fatalf("%s: %d entries over TLS, %d in the clear", sel, len(got), len(want))
				}
				for i := range got {
					w := want[i]
					w.URL = strings.Replace(w.URL, p+"/", s+"/", 1)
					w.Parts["port"] = strconv.Itoa(tlsd.Port)
					if got[i].URL != w.URL || got[i].Name != w.Name || got[i].Type != w.Type || !reflect.DeepEqual(got[i].Parts, w.Parts) {
						t.Errorf("%s entry %d: %+v over TLS, %+v in the clear", sel, i, got[i], w)
					}
				}
			}
			links := entries(t, c, s+"/1/links")
			var urls []string
			for _, e := range links {
				urls = append(urls, e.URL)
			}
			tp := strconv.Itoa(tlsd.Port)
			want := []string{"", s + "/0/hello.txt", "gopher://example.org/1/", "gopher://127.0.0.1:7070/0/hello.txt",
				"gopher://LOCALHOST:" + tp + "/0/hello.txt", "gopher://127.0.0.1:" + tp + "/0/hello.txt"}
			if !reflect.DeepEqual(urls, want) {
				t.Errorf("links: %q, want %q", urls, want)
			}
			// The item of the same server is followed over TLS.
			u, _ := locator.Parse(links[1].URL)
			if st, err := c.Stat(context.Background(), u); err != nil || st.State != access.StateOK {
				t.Errorf("stat %s: %+v %v", u, st, err)
			}
			if n := strings.Count(dlg.String(), "* TLS TLS 1.3, "); n < 10 {
				t.Errorf("%d TLS connections noted:\n%s", n, dlg.String())
			}
		})
	}
}

// TestGophersPlainServer: a gophers URL naming a port where gophernicus
// speaks plain Gopher fails with a *NotTLSError that quotes what the
// server sent, after one connection and without the request sent in the
// clear.
func TestGophersPlainServer(t *testing.T) {
	var dlg bytes.Buffer
	plain, _, c := servers(t, true, &dlg)
	u, _ := locator.Parse("gophers://" + plain.Addr + "/0/hello.txt")
	_, err := c.Get(context.Background(), u)
	var nt *gophers.NotTLSError
	if !errors.As(err, &nt) {
		t.Fatalf("err %T %v, want a *gophers.NotTLSError", err, err)
	}
	if nt.URL != u.String() || nt.Addr != plain.Addr || !strings.HasPrefix(nt.Reply, "Error: ") || !strings.HasSuffix(nt.Reply, "\r\n") {
		t.Errorf("%+v", nt)
	}
	var pe *access.ProtocolError
	if !errors.As(err, &pe) || access.Classify(err) != access.Failed {
		t.Errorf("%v: a protocol failure (%v)", err, access.Classify(err))
	}
	if strings.Count(dlg.String(), "* connect ") != 1 || strings.Contains(dlg.String(), "\n> ") || strings.HasPrefix(dlg.String(), "> ") {
		t.Errorf("dialogue:\n%s", dlg.String())
	}
	if st := c.Probe(context.Background(), u); st.State != access.StateError || !errors.As(st.Err, &nt) {
		t.Errorf("probe: %+v", st)
	}
}

// TestGophersCertificate: a certificate the client does not trust, or
// one not valid for the name asked, fails the handshake with a
// *TLSError around crypto/tls's verification error, before any request.
func TestGophersCertificate(t *testing.T) {
	var dlg bytes.Buffer
	_, tlsd, trusting := servers(t, true, &dlg)
	roots := trusting.Schemes["gophers"].(*gophers.Client).TLSConfig.RootCAs
	_, _, other := peer.SelfSigned(t, t.TempDir()) // another certificate, trusted instead of the server's
	for name, cfg := range map[string]*tls.Config{
		"untrusted":  {RootCAs: other},
		"wrong name": {RootCAs: roots, ServerName: "example.org"},
	} {
		dlg.Reset()
		c := &access.Client{Dialogue: &dlg, Schemes: map[string]access.Fetcher{"gophers": &gophers.Client{TLSConfig: cfg}}}
		u, _ := locator.Parse("gophers://" + tlsd.Addr + "/0/hello.txt")
		_, err := c.Get(context.Background(), u)
		var te *gophers.TLSError
		var ve *tls.CertificateVerificationError
		if !errors.As(err, &te) || !errors.As(err, &ve) || te.URL != u.String() || te.Addr != tlsd.Addr {
			t.Errorf("%s: %T %v", name, err, err)
		}
		var ua x509.UnknownAuthorityError
		var he x509.HostnameError
		if name == "untrusted" && !errors.As(err, &ua) || name == "wrong name" && (!errors.As(err, &he) || he.Host != "example.org") {
			t.Errorf("%s: %v", name, err)
		}
		if strings.Contains(dlg.String(), "\n> ") {
			t.Errorf("%s: a request was sent:\n%s", name, dlg.String())
		}
	}
}

// TestGophersPygopherd: Gopher+ over TLS, pygopherd behind stunnel4
// passing it each connection: the probe reads the top menu's Gopher+
// marks over TLS and asks the item's attributes, the views are the
// item's +VIEWS, and a Gopher+ fetch is the plain one's octets.
func TestGophersPygopherd(t *testing.T) {
	root := tree(t)
	plain := peer.Pygopherd(t, root)
	cert, key, roots := peer.SelfSigned(t, t.TempDir())
	tlsd := peer.Stunnel(t, peer.TLSSpec{Name: "pygopherd", Cert: cert, Key: key, Connect: plain.Addr, Ready: peer.ReadyMenu})
	var dlg bytes.Buffer
	c := &access.Client{Dialogue: &dlg, Schemes: map[string]access.Fetcher{"gophers": &gophers.Client{TLSConfig: &tls.Config{RootCAs: roots}}}}
	u, _ := locator.Parse("gophers://" + tlsd.Addr + "/0/hello.txt")
	st, err := c.Stat(context.Background(), u)
	if err != nil || st.State != access.StateOK || st.Code != "+" || !st.SizeApprox {
		t.Fatalf("stat: %+v %v\n%s", st, err, dlg.String())
	}
	if !strings.Contains(dlg.String(), "> /hello.txt\\x09!") { // the dialogue writes the TAB escaped
		t.Errorf("no attribute request:\n%s", dlg.String())
	}
	views, err := c.Views(context.Background(), u)
	if err != nil || len(views) == 0 || views[0].Type != "text/plain" {
		t.Errorf("views: %+v %v", views, err)
	}
	want := body(t, c, "gopher://"+plain.Addr+"/0/hello.txt%09%09+")
	if got := body(t, c, "gophers://"+tlsd.Addr+"/0/hello.txt%09%09+"); !bytes.Equal(got, want) || len(want) == 0 {
		t.Errorf("Gopher+ text: %q over TLS, %q in the clear", got, want)
	}
	gone, _ := locator.Parse("gophers://" + tlsd.Addr + "/0/missing.txt")
	if st := c.Probe(context.Background(), gone); st.State != access.StateGone || st.Err == nil || !strings.HasPrefix(st.Err.Error(), gone.String()+": ") {
		t.Errorf("probe of a missing item: %+v", st)
	}
}
