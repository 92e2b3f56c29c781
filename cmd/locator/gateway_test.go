package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/news"
)

// TestGatewayUsage: a rule that cannot be read, or an argument, is a
// usage error (exit 2) naming it.
func TestGatewayUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"gateway", "--allow-host", "2130706433"}, `rule "2130706433": write an IPv4 address in dotted decimal`},
		{[]string{"gateway", "--deny-host", "h:99999"}, `rule "h:99999": the port is a number from 1 to 65535`},
		{[]string{"gateway", "extra"}, "takes no arguments, got 1"},
		{[]string{"gateway", "--listen", "not an address"}, "locator gateway: listen tcp"},
	} {
		code, _, errOut := runCLI(t, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestGatewayServes: the command serves its start page and refuses a
// loopback destination it was not told to allow, logging both, then
// ends cleanly when asked.
func TestGatewayServes(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var out, log bytes.Buffer
	o := &gatewayOptions{}
	fs := newGatewayFlagSet(o)
	if err := fs.Parse([]string{"--log", "-"}); err != nil {
		t.Fatal(err)
	}
	o.cfg.Log = &syncWriter{w: &log}
	stop := make(chan struct{})
	done := make(chan int)
	go func() { done <- serveGateway(&env{stdout: &out, stderr: io.Discard}, l, o, stop) }()
	base := "http://" + l.Addr().String()
	res, err := http.Get(base + "/")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("start page: %v %v", res, err)
	}
	res.Body.Close()
	res, err = http.Get(base + "/gopher://127.0.0.1:7/")
	if err != nil || res.StatusCode != 403 {
		t.Errorf("loopback destination: %v %v", res, err)
	}
	res.Body.Close()
	close(stop)
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
	if !strings.Contains(out.String(), "serving on "+base+"/") {
		t.Errorf("stdout %q", out.String())
	}
	if !strings.Contains(log.String(), " GET gopher://127.0.0.1:7/ 403 ") {
		t.Errorf("log %q", log.String())
	}
}

// TestGatewayMaxPerClient: --max-per-client bounds the connections
// one client address holds open (a slowloris client sends nothing):
// one more is closed at once, and another address is still served.
func TestGatewayMaxPerClient(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &gatewayOptions{}
	if err := newGatewayFlagSet(o).Parse([]string{"--max-per-client", "2", "--log", "none"}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan int)
	go func() { done <- serveGateway(&env{stdout: io.Discard, stderr: io.Discard}, l, o, stop) }()
	addr := l.Addr().String()
	var silent []net.Conn
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		silent = append(silent, c)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A bound against a hang: the gateway closes this one at once.
	c.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("a third connection from 127.0.0.1: %v, want it closed (EOF)", err)
	}
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: time.Minute}
	res, err := client.Get("http://" + addr + "/")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("a request from 127.0.0.2: %v %v", res, err)
	}
	res.Body.Close()
	for _, c := range silent {
		c.Close()
	}
	close(stop)
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}

// syncWriter serialises writes (tests read the log the server writes).
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// TestGatewayConfig: the shared flags reach the gateway's Config, a
// bound of 0 meaning none as in every command (the Config's own 0 is its
// default), and the old names set the same fields.
func TestGatewayConfig(t *testing.T) {
	o := &gatewayOptions{}
	if err := newGatewayFlagSet(o).Parse([]string{"--max-time", "0", "--max-filesize", "0", "--connect-timeout", "3s", "--idle-timeout", "4s",
		"--max-entries", "7", "--allow-port", "25", "--user-address", "me@example.org", "--nntp-server", "news.example.org:119"}); err != nil {
		t.Fatal(err)
	}
	cfg := o.config()
	if cfg.Timeout < 100*365*24*time.Hour || cfg.MaxSize < 1<<60 || cfg.ConnectTimeout != 3*time.Second || cfg.IdleTimeout != 4*time.Second ||
		cfg.MaxEntries != 7 || len(cfg.AllowPorts) != 1 || cfg.AllowPorts[0] != 25 || cfg.Schemes["ftp"].(*ftp.Client).UserAddress != "me@example.org" || cfg.Schemes["news"].(*news.Client).Server != "news.example.org:119" {
		t.Errorf("config %+v", cfg)
	}
	o = &gatewayOptions{}
	if err := newGatewayFlagSet(o).Parse([]string{"--timeout", "9s", "--max-size", "2K", "--allow", "127.0.0.1:70", "--deny", ".example.org"}); err != nil {
		t.Fatal(err)
	}
	cfg = o.config()
	if cfg.Timeout != 9*time.Second || cfg.MaxSize != 2048 || len(o.allow) != 1 || o.allow[0].String() != "127.0.0.1:70" || len(o.deny) != 1 {
		t.Errorf("old names: config %+v, allow %q, deny %q", cfg, o.allow.String(), o.deny.String())
	}
	o = &gatewayOptions{}
	if err := newGatewayFlagSet(o).Parse(nil); err != nil {
		t.Fatal(err)
	}
	if cfg = o.config(); cfg.Timeout != gateway.DefaultTimeout || cfg.MaxSize != gateway.DefaultMaxSize || cfg.MaxEntries != gateway.DefaultMaxEntries {
		t.Errorf("defaults: config %+v", cfg)
	}
}
