package http

// Client.Proxy against squid, a real HTTP proxy, in front of nginx: an
// http URL asked of the proxy in absolute form (RFC 1945 §5.1.2), an
// https URL through a CONNECT tunnel (RFC 9110 §9.3.6) to nginx's TLS
// listener, the proxy's refusals, and local policy on the proxy itself.

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// forbidden is the host squid is told to deny (peer.Squid: squid answers
// 403 without resolving it).
const forbidden = "forbidden.example"

// TestProxySquid follows http and https URLs to nginx through squid.
func TestProxySquid(t *testing.T) {
	proxy, squidLog := peer.Squid(t, forbidden)
	peer.Require(t, "/usr/sbin/nginx")
	dir := t.TempDir()
	cert, key, roots := peer.SelfSigned(t, dir)
	tlsPort := peer.FreePort(t)
	addr := startNginxIn(t, dir, fmt.Sprintf("    listen 127.0.0.1:%d ssl; ssl_certificate %s; ssl_certificate_key %s;\n", tlsPort, cert, key))
	tlsAddr := "127.0.0.1:" + strconv.Itoa(tlsPort)
	via := &Client{TLSConfig: &tls.Config{RootCAs: roots}}
	// client is an access.Client that goes through squid, its dialogue
	// in dia.
	client := func(dia *strings.Builder) *access.Client {
		return &access.Client{Dialogue: dia, IdleTimeout: 20 * time.Second, Proxy: proxyTo(proxy), Schemes: with(via)}
	}
	// squid and nginx write their log lines when the transaction ends,
	// which may come after the client has its answer: logged waits up
	// to 2 s for want in the log at path, and returns the log.
	logged := func(path, want string) (string, bool) {
		var b []byte
		for range 200 {
			if b, _ = os.ReadFile(path); strings.Contains(string(b), want) {
				return string(b), true
			}
			time.Sleep(10 * time.Millisecond)
		}
		return string(b), false
	}
	squidLogs := func(want string) bool {
		_, ok := logged(squidLog, want)
		return ok
	}

	t.Run("http: the whole URL to the proxy", func(t *testing.T) {
		var dia strings.Builder
		res, b, err := get(t, "http://joe:secret@"+addr+"/pct%252Fin.txt#frag", client(&dia))
		if err != nil || string(b) != "percent\n" || res.Size != 8 {
			t.Fatalf("%q %v\n%s", b, err, dia.String())
		}
		target := "http://" + addr + "/pct%252Fin.txt"
		for _, want := range []string{
			"* proxy " + proxy + ": the whole URL as the request target (RFC 1945 §5.1.2)\n",
			"* connect " + proxy + "\n",
			"> GET " + target + " HTTP/1.1\n",
			"> Host: " + addr + "\n",
			"< HTTP/1.1 200 OK\n",
		} {
			if !strings.Contains(dia.String(), want) {
				t.Errorf("dialogue lacks %q:\n%s", want, dia.String())
			}
		}
		// Only the proxy is connected to; no login, no fragment.
		if strings.Count(dia.String(), "* connect ") != 1 || strings.Contains(dia.String(), "secret") {
			t.Errorf("dialogue:\n%s", dia.String())
		}
		if !squidLogs(" GET " + target + " ") {
			t.Errorf("squid's log has no GET %s", target)
		}
		if l, ok := logged(filepath.Join(dir, "access.log"), `"GET /pct%252Fin.txt HTTP/1.1"`); !ok || strings.Contains(l, "frag") {
			t.Errorf("nginx's log:\n%s", l)
		}
	})

	t.Run("http: the server's refusal comes back through the proxy", func(t *testing.T) {
		_, _, err := get(t, "http://"+addr+"/missing", client(new(strings.Builder)))
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != "404" || se.Command != "GET http://"+addr+"/missing" || access.Classify(err) != access.Absent {
			t.Errorf("%v, want nginx's 404 to GET http://%s/missing", err, addr)
		}
	})

	t.Run("http: the proxy's own refusal", func(t *testing.T) {
		_, _, err := get(t, "http://"+forbidden+"/x", client(new(strings.Builder)))
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != "403" || access.Classify(err) != access.Absent || !strings.Contains(se.Rule, "the proxy "+proxy) {
			t.Errorf("%v, want squid's 403 naming it", err)
		}
	})

	t.Run("https: a CONNECT tunnel, TLS to the server inside", func(t *testing.T) {
		var dia strings.Builder
		ac := client(&dia)
		res, b, err := get(t, "https://"+tlsAddr+"/a.txt", ac)
		if err != nil || string(b) != "alpha\n" || res.MediaType != "text/plain" {
			t.Fatalf("%q %v\n%s", b, err, dia.String())
		}
		ac.CloseIdle() // the tunnel kept for another request ends: squid logs it
		for _, want := range []string{
			"* proxy " + proxy + ": a tunnel to " + tlsAddr + " (RFC 9110 §9.3.6)\n* connect " + proxy + "\n",
			"> CONNECT " + tlsAddr + " HTTP/1.1\n> Host: " + tlsAddr + "\n> User-Agent: " + UserAgent + "\n< HTTP/1.1 200 Connection established\n",
			"< HTTP/1.1 200 Connection established\n* TLS 1.",
			" established\n> GET /a.txt HTTP/1.1\n",
		} {
			if !strings.Contains(dia.String(), want) {
				t.Errorf("dialogue lacks %q:\n%s", want, dia.String())
			}
		}
		if strings.Count(dia.String(), "* connect ") != 1 {
			t.Errorf("dialogue:\n%s", dia.String())
		}
		if !squidLogs(" CONNECT " + tlsAddr + " ") {
			t.Errorf("squid's log has no CONNECT %s", tlsAddr)
		}
	})

	t.Run("https: the proxy refuses the tunnel", func(t *testing.T) {
		closed := "127.0.0.1:" + strconv.Itoa(peer.FreePort(t))
		for _, c := range []struct{ host, code string }{
			{forbidden, "403"}, // squid's policy
			{closed, "503"},    // nothing listens there
		} {
			var dia strings.Builder
			_, _, err := get(t, "https://"+c.host+"/x", client(&dia))
			target := c.host
			if !strings.Contains(target, ":") {
				target += ":443"
			}
			var se *access.ServerError
			if !errors.As(err, &se) || se.Code != c.code || se.Command != "CONNECT "+target || access.Classify(err) != access.Absent {
				t.Errorf("%s: %v, want squid's %s to CONNECT %s\n%s", c.host, err, c.code, target, dia.String())
			}
			if strings.Contains(dia.String(), "TLS") || strings.Contains(dia.String(), "> GET") {
				t.Errorf("%s: a request after the refusal:\n%s", c.host, dia.String())
			}
		}
	})

	t.Run("probe: HEAD through the proxy", func(t *testing.T) {
		var dia strings.Builder
		for _, u := range []string{"http://" + addr + "/a.txt", "https://" + tlsAddr + "/a.txt"} {
			st := client(&dia).Probe(context.Background(), loctest.MustParse(t, u))
			if st.State != access.StateOK || st.Size != 6 || !st.Modified.Equal(modified) {
				t.Errorf("%s: %s size %d modified %v (%v)\n%s", u, st.State, st.Size, st.Modified, st.Err, dia.String())
			}
		}
		if !strings.Contains(dia.String(), "> HEAD http://"+addr+"/a.txt HTTP/1.1\n") || !strings.Contains(dia.String(), "> HEAD /a.txt HTTP/1.1\n") {
			t.Errorf("dialogue:\n%s", dia.String())
		}
	})

	t.Run("the proxy is under local policy", func(t *testing.T) {
		var dia strings.Builder
		c := &access.Client{Dialogue: &dia, Proxy: proxyTo(proxy), Schemes: with(via), Policy: access.Policy{Deny: loctest.Rules(t, "127.0.0.1")}}
		_, err := c.Get(context.Background(), loctest.MustParse(t, "http://localhost:"+strings.TrimPrefix(addr, "127.0.0.1:")+"/a.txt"))
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Rule != "host" || strings.Contains(dia.String(), "* connect") {
			t.Errorf("a denied proxy host: %v\n%s", err, dia.String())
		}
	})
}

// proxyTo is an access.Client's Proxy that sends every URL with a host
// to the http proxy at addr (host:port).
func proxyTo(addr string) func(*locator.URL) (*locator.URL, error) {
	return access.ProxyConfig{Proxies: map[string]string{"*": "http://" + addr}}.ProxyFunc()
}

// TestProxyNotHostport: a proxy that is not an http URL with a host and
// a port is refused before any connection.
func TestProxyNotHostport(t *testing.T) {
	for _, p := range []string{"http://127.0.0.1:0", "http://:3128", "https://127.0.0.1:3128", "http:///x"} {
		var dia strings.Builder
		c := &access.Client{Dialogue: &dia, Schemes: with(&Client{}), Proxy: func(*locator.URL) (*locator.URL, error) { return locator.Parse(p) }}
		_, err := c.Get(context.Background(), loctest.MustParse(t, "http://127.0.0.1/"))
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Rule != "proxy" || strings.Contains(dia.String(), "* connect") {
			t.Errorf("proxy %q: %v, want a PolicyError of rule proxy\n%s", p, err, dia.String())
		}
	}
}
