package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestGatewayUsage: a rule that cannot be read, or an argument, is a
// usage error (exit 2) naming it.
func TestGatewayUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"gateway", "--allow", "2130706433"}, `rule "2130706433": write an IPv4 address in dotted decimal`},
		{[]string{"gateway", "--deny", "h:99999"}, `rule "h:99999": the port is a number from 1 to 65535`},
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
