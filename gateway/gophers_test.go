package gateway_test

// The gateway serves gophers URLs (Gopher over TLS) as it serves every
// registered scheme, with no change of its own: gophernicus behind
// stunnel4, the test's certificate. The gateway's gophers client trusts
// the system's roots (its zero value), so the test runs again in a
// process of its own whose SSL_CERT_FILE names the test's certificate:
// Go reads the system roots once per process.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/peer"
)

func TestGophersGateway(t *testing.T) {
	if os.Getenv("LOCATOR_GOPHERS_CHILD") == "" {
		peer.Require(t, "/usr/sbin/gophernicus")
		dir := t.TempDir()
		cert, key, _ := peer.SelfSigned(t, dir)
		cmd := exec.Command(os.Args[0], "-test.run=^TestGophersGateway$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "LOCATOR_GOPHERS_CHILD="+key, "SSL_CERT_FILE="+cert, "SSL_CERT_DIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if s := string(out); strings.Contains(s, "--- SKIP: TestGophersGateway") {
			t.Skipf("in its own process: %s", s[max(strings.LastIndex(s, "peer:"), 0):])
		}
		if err != nil || !strings.Contains(string(out), "--- PASS: TestGophersGateway") {
			t.Fatalf("in its own process: %v\n%s", err, out)
		}
		return
	}
	key := os.Getenv("LOCATOR_GOPHERS_CHILD")
	cert := os.Getenv("SSL_CERT_FILE")
	root := filepath.Join(t.TempDir(), "gopher")
	write(t, filepath.Join(root, "hello.txt"), "Hello over TLS\n", 0o644)
	write(t, filepath.Join(root, "docs", "inner.txt"), "inner\n", 0o644)
	tlsd := peer.GophernicusTLS(t, root, cert, key, false)
	plain := peer.Gophernicus(t, root)
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, tlsd.Addr, plain.Addr)}})
	base, pbase := "gophers://"+tlsd.Addr+"/", "gopher://"+plain.Addr+"/"

	res, page := get(t, gw.URL+"/"+base)
	if res.StatusCode != 200 {
		t.Fatalf("menu: %d\n%s", res.StatusCode, page)
	}
	for _, want := range []string{"/" + base + "0/hello.txt", "/" + base + "1/docs/"} {
		if !contains(hrefs(page), want) {
			t.Errorf("menu has no link %q: %q", want, hrefs(page))
		}
	}
	res, body := get(t, gw.URL+"/"+base+"0/hello.txt")
	pres, pbody := get(t, gw.URL+"/"+pbase+"0/hello.txt")
	if res.StatusCode != 200 || pres.StatusCode != 200 || body != pbody || body != "Hello over TLS\r\n" { // gophernicus sends text with CR LF
		t.Errorf("text: %d %q over TLS, %d %q in the clear", res.StatusCode, body, pres.StatusCode, pbody)
	}
	// A gophers URL to the plain port: the gateway's failure page says
	// why, and nothing is fetched in the clear.
	res, page = get(t, gw.URL+"/gophers://"+plain.Addr+"/0/hello.txt")
	if res.StatusCode != 502 || !strings.Contains(page, "plain text") || strings.Contains(page, "Hello over TLS") {
		t.Errorf("plain port: %d\n%s", res.StatusCode, page)
	}
}
