package main

// get's proxies: the environment's (http_proxy, ftp_proxy,
// gopher_proxy, no_proxy, ...), -x/--proxy and --noproxy, through
// locator get, against squid (http, https and ftp URLs), locator
// gateway (gopher URLs) and a proxy that answers what is not HTTP.

import (
	"bytes"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// clearProxyEnv empties every proxy variable of the environment for
// the test, so that only those it sets apply.
func clearProxyEnv(t *testing.T) {
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(strings.ToLower(name), "_proxy") {
			t.Setenv(name, "")
		}
	}
}

// squidLogged waits until squid's access log, written as each
// transaction ends, holds want, and reports whether it came.
func squidLogged(log, want string) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(log); bytes.Contains(b, []byte(want)) {
			return true
		}
	}
	return false
}

// TestGetProxySquid: an http URL through http_proxy and -x, an https
// URL through a CONNECT tunnel, an ftp URL through ftp_proxy and -x,
// which squid follows itself; -x "" and --noproxy go direct.
func TestGetProxySquid(t *testing.T) {
	clearProxyEnv(t)
	squid, log := peer.Squid(t)
	proxy := "http://" + squid
	addr, tlsAddr, cert := httpNginx(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "pub"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Binary octets: squid transfers a file whose name says text (.txt)
	// in TYPE A.
	bin := make([]byte, 256*4)
	for i := range bin {
		bin[i] = byte(i)
	}
	if err := os.WriteFile(filepath.Join(root, "pub", "all.bin"), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	ftpd := peer.Pyftpdlib(t, root, peer.PyftpdOptions{})

	httpURL := "http://" + addr + "/a.txt"
	t.Run("http_proxy", func(t *testing.T) {
		t.Setenv("http_proxy", proxy)
		code, out, errs := runCLI(t, "", "get", "-v", httpURL)
		if code != 0 || out != "alpha\n" {
			t.Fatalf("exit %d, out %q, err %q", code, out, errs)
		}
		if !strings.Contains(errs, "> GET "+httpURL+" HTTP/1.1\n") {
			t.Errorf("the request line is not the whole URL:\n%s", errs)
		}
		if !squidLogged(log, "GET "+httpURL) {
			t.Errorf("squid did not log GET %s", httpURL)
		}
	})
	t.Run("-x", func(t *testing.T) {
		u := "http://" + addr + "/echo"
		code, out, errs := runCLI(t, "", "get", "-x", squid, "-H", "X-Test: via", u) // HOST:PORT is an http proxy
		if code != 0 || !strings.HasPrefix(out, "via|") {
			t.Fatalf("exit %d, out %q, err %q", code, out, errs)
		}
		if !squidLogged(log, "GET "+u) {
			t.Errorf("squid did not log GET %s", u)
		}
	})
	t.Run("https", func(t *testing.T) {
		u := "https://" + tlsAddr + "/a.txt"
		code, out, errs := runCLI(t, "", "get", "--proxy", proxy, "--cacert", cert, u)
		if code != 0 || out != "alpha\n" {
			t.Fatalf("exit %d, out %q, err %q", code, out, errs)
		}
		if !squidLogged(log, "CONNECT "+tlsAddr) {
			t.Errorf("squid did not log CONNECT %s", tlsAddr)
		}
	})
	ftpURL := "ftp://" + ftpd.Addr + "/pub/all.bin"
	t.Run("ftp", func(t *testing.T) {
		_, direct, _ := runCLI(t, "", "get", ftpURL)
		if direct != string(bin) {
			t.Fatalf("direct: %d octets", len(direct))
		}
		t.Setenv("ftp_proxy", proxy)
		code, out, errs := runCLI(t, "", "get", ftpURL)
		if code != 0 || out != direct {
			t.Fatalf("ftp_proxy: exit %d, %d octets, err %q", code, len(out), errs)
		}
		if !squidLogged(log, "GET "+ftpURL) {
			t.Errorf("squid did not log GET %s", ftpURL)
		}
		t.Setenv("ftp_proxy", "")
		code, out, errs = runCLI(t, "", "get", "--proxy", proxy, "ftp://"+ftpd.Addr+"/pub/")
		if code != 0 || !strings.Contains(out, "all.bin") {
			t.Errorf("-x, a directory: exit %d, out %q, err %q", code, out, errs)
		}
	})
	t.Run("direct", func(t *testing.T) {
		t.Setenv("http_proxy", proxy)
		var direct []string
		for _, flags := range [][]string{{"-x", ""}, {"--noproxy", "127.0.0.1"}, {"--noproxy", "*"}, {"--noproxy", "127.0.0.0/8"}} {
			// squid's log leaves out the query: one path each.
			u := "http://" + addr + "/echo/direct-" + strconv.Itoa(len(direct))
			direct = append(direct, u)
			code, out, errs := runCLI(t, "", append(append([]string{"get"}, flags...), u)...)
			if code != 0 || out != "|locator (RFC 1738)|127.0.0.1\n" {
				t.Errorf("%q: exit %d, out %q, err %q", flags, code, out, errs)
			}
		}
		// squid logs a transaction when it ends: once a request made
		// after them is logged, any of those would have been.
		marker := "http://" + addr + "/echo/marker"
		if code, _, errs := runCLI(t, "", "get", marker); code != 0 || !squidLogged(log, "GET "+marker) {
			t.Fatalf("marker: exit %d, err %q", code, errs)
		}
		b, _ := os.ReadFile(log)
		for _, u := range direct {
			if bytes.Contains(b, []byte(u+" ")) {
				t.Errorf("squid logged %s", u)
			}
		}
	})
}

// TestGetProxyGateway: a gopher URL through gopher_proxy naming locator
// gateway, which follows it: the same octets as get fetches directly.
func TestGetProxyGateway(t *testing.T) {
	clearProxyEnv(t)
	root := t.TempDir()
	bin := make([]byte, 256*4)
	for i := range bin {
		bin[i] = byte(i)
	}
	for name, body := range map[string][]byte{"text.txt": []byte("a text\nof two lines\n"), "all.bin": bin} {
		if err := os.WriteFile(filepath.Join(root, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gs := peer.Gophernicus(t, root)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &gatewayOptions{}
	if err := newGatewayFlagSet(o).Parse([]string{"--log", "none"}); err != nil {
		t.Fatal(err)
	}
	// --allow-host's rule, as runGateway reads it: loopback is refused
	// unless a rule names it.
	rule, err := access.ParseRule(gs.Addr)
	if err != nil {
		t.Fatal(err)
	}
	o.cfg.Policy.Allow = []access.Rule{rule}
	var gwOut bytes.Buffer
	stop := make(chan struct{})
	done := make(chan int)
	go func() { done <- serveGateway(&env{stdout: &gwOut, stderr: io.Discard}, l, o, stop) }()
	defer func() {
		close(stop)
		if code := <-done; code != 0 {
			t.Errorf("gateway: exit %d", code)
		}
	}()

	for _, path := range []string{"/0/text.txt", "/9/all.bin"} {
		u := "gopher://" + gs.Addr + path
		code, direct, errs := runCLI(t, "", "get", u)
		if code != 0 || direct == "" {
			t.Fatalf("%s direct: exit %d, err %q", u, code, errs)
		}
		t.Setenv("gopher_proxy", "http://"+l.Addr().String()+"/")
		code, out, errs := runCLI(t, "", "get", "-v", u)
		t.Setenv("gopher_proxy", "")
		if code != 0 || out != direct {
			t.Errorf("%s via the gateway: exit %d, %d octets (direct %d), err %q", u, code, len(out), len(direct), errs)
		}
		if !strings.Contains(errs, "> GET "+u+" HTTP/1.1\n") {
			t.Errorf("%s: the request to the gateway is not the whole URL:\n%s", u, errs)
		}
	}
	// all_proxy names the gateway for every scheme (HOST:PORT: http).
	t.Setenv("all_proxy", l.Addr().String())
	code, out, errs := runCLI(t, "", "get", "gopher://"+gs.Addr+"/9/all.bin")
	if code != 0 || out != string(bin) {
		t.Errorf("all_proxy: exit %d, %d octets, err %q", code, len(out), errs)
	}
}

// TestGetProxyHostile: a proxy that answers what is not HTTP is exit 3,
// the message naming the proxy; no_proxy and --noproxy reach the server
// directly.
func TestGetProxyHostile(t *testing.T) {
	clearProxyEnv(t)
	hostile := peer.Hostile(t, func(c net.Conn) {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		c.Read(make([]byte, 4096))
		io.WriteString(c, "SSH-2.0-OpenSSH_9.6\r\nthis is no HTTP\r\n")
	})
	srv := getServer(t)
	u := srv.URL + "/hello.txt"
	gopherURL := "gopher://127.0.0.1:7070/0/x"
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"-x", nil, []string{"-x", "http://" + hostile + "/", u}},
		{"http_proxy", map[string]string{"http_proxy": hostile}, []string{u}},
		{"no_proxy for another host", map[string]string{"http_proxy": hostile, "no_proxy": "example.org,10.0.0.0/8"}, []string{u}},
		{"gopher_proxy", map[string]string{"gopher_proxy": "http://" + hostile}, []string{gopherURL}},
		{"all_proxy", map[string]string{"all_proxy": "http://" + hostile}, []string{gopherURL}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			code, out, errs := runCLI(t, "", append([]string{"get"}, tc.args...)...)
			if code != 3 || out != "" || !strings.Contains(errs, "proxy") || !strings.Contains(errs, hostile) {
				t.Errorf("exit %d, out %q, err %q; want 3 and a message naming the proxy %s", code, out, errs, hostile)
			}
		})
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"no_proxy", map[string]string{"http_proxy": hostile, "no_proxy": "localhost, 127.0.0.1"}, []string{u}},
		{"NO_PROXY", map[string]string{"http_proxy": hostile, "NO_PROXY": "127.0.0.0/8"}, []string{u}},
		{"no_proxy *", map[string]string{"all_proxy": hostile, "no_proxy": "*"}, []string{u}},
		{"--noproxy", nil, []string{"-x", hostile, "--noproxy", "example.org,127.0.0.1", u}},
		{"HTTP_PROXY is not http's", map[string]string{"HTTP_PROXY": hostile}, []string{u}},
		{"-x \"\" over http_proxy", map[string]string{"http_proxy": hostile}, []string{"-x", "", u}},
		{"a file URL never", map[string]string{"all_proxy": hostile}, []string{"file://localhost" + writeTemp(t, "local\n")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			code, out, errs := runCLI(t, "", append([]string{"get"}, tc.args...)...)
			if code != 0 || (out != "hello\n" && out != "local\n") {
				t.Errorf("exit %d, out %q, err %q", code, out, errs)
			}
		})
	}
}

// TestGetProxyUsage: a proxy that is not a URL with a host is a usage
// error of -x, and, from the environment, a refusal before any
// connection (exit 4).
func TestGetProxyUsage(t *testing.T) {
	clearProxyEnv(t)
	code, _, errs := runCLI(t, "", "get", "-x", "http://", "http://127.0.0.1/")
	if code != 2 || !strings.Contains(errs, `not a proxy URL with a host: "http://"`) {
		t.Errorf("-x http://: exit %d, err %q", code, errs)
	}
	t.Setenv("gopher_proxy", "http://")
	code, _, errs = runCLI(t, "", "get", "gopher://127.0.0.1/")
	if code != 4 || !strings.Contains(errs, "proxy") {
		t.Errorf("gopher_proxy http://: exit %d, err %q", code, errs)
	}
}

// writeTemp writes text to a new file and returns its path.
func writeTemp(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
