package http

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	nethttp "net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// seen records what a test server received.
type seen struct {
	mu   sync.Mutex
	reqs []*nethttp.Request
}

func (s *seen) add(r *nethttp.Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()
}

func (s *seen) last(t *testing.T) *nethttp.Request {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) == 0 {
		t.Fatal("the server received no request")
	}
	return s.reqs[len(s.reqs)-1]
}

var modified = time.Date(1994, time.December, 20, 12, 0, 0, 0, time.UTC)

// testServer answers by path: /status/N with status N, /redir/... with a
// redirection to the rest of the path, /untyped with no Content-Type,
// /big with a body of 1000 octets in chunks (no length), and anything
// else with "hello" as text/plain, length and Last-Modified given.
func testServer(t *testing.T, s *seen) *httptest.Server {
	srv := httptest.NewServer(handler(s))
	t.Cleanup(srv.Close)
	return srv
}

func handler(s *seen) nethttp.Handler {
	return nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		s.add(r)
		switch p := r.URL.Path; {
		case strings.HasPrefix(p, "/status/"):
			n, _ := strconv.Atoi(p[len("/status/"):])
			w.WriteHeader(n)
			fmt.Fprintln(w, "status page")
		case strings.HasPrefix(r.RequestURI, "/redir/"):
			w.Header().Set("Location", strings.TrimPrefix(r.RequestURI, "/redir/"))
			w.WriteHeader(nethttp.StatusFound)
		case p == "/untyped.txt":
			w.Header()["Content-Type"] = nil
			io.WriteString(w, "plain")
		case p == "/big":
			w.Header().Set("Content-Type", "application/octet-stream")
			for range 10 {
				w.Write([]byte(strings.Repeat("b", 100)))
				w.(nethttp.Flusher).Flush()
			}
		default:
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Header().Set("Content-Length", "5")
			w.Header().Set("Last-Modified", modified.Format(nethttp.TimeFormat))
			io.WriteString(w, "hello")
		}
	})
}

// get follows u with c (nil: a zero Client) and reads the body.
func get(t *testing.T, u string, c *access.Client) (*access.Resource, []byte, error) {
	t.Helper()
	if c == nil {
		c = &access.Client{}
	}
	res, err := c.Get(context.Background(), loctest.MustParse(t, u))
	if err != nil {
		return nil, nil, err
	}
	defer res.Close()
	b, err := io.ReadAll(res.Body)
	return res, b, err
}

func TestFetch(t *testing.T) {
	var s seen
	srv := testServer(t, &s)
	base := srv.URL // http://127.0.0.1:PORT
	res, b, err := get(t, base+"/a.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "hello" || res.Size != 5 || res.MediaType != "text/plain; charset=utf-8" || !res.Modified.Equal(modified) || res.Listing != nil {
		t.Errorf("got %q size %d type %q modified %v", b, res.Size, res.MediaType, res.Modified)
	}
	r := s.last(t)
	if r.Header.Get("Accept-Encoding") != "" || r.Header.Get("Authorization") != "" || r.UserAgent() != UserAgent {
		t.Errorf("headers sent: %v", r.Header)
	}

	// Without Content-Type the name's extension says it; without a
	// length the size is unknown.
	res, b, err = get(t, base+"/untyped.txt", nil)
	if err != nil || string(b) != "plain" || res.MediaType != "text/plain; charset=utf-8" {
		t.Errorf("untyped: %q %v %+v", b, err, res)
	}
	res, b, err = get(t, base+"/big", nil)
	if err != nil || len(b) != 1000 || res.Size != -1 {
		t.Errorf("big: %d octets, %v, size %d", len(b), err, res.Size)
	}
}

// The request target is what NewRequest plans, byte for byte: escapes
// as written, unsafe octets encoded, no fragment (1993 draft: "The
// fragmentid part is not sent with the request"), no user or password
// (RFC 1738 §3.3).
func TestRequestTarget(t *testing.T) {
	var s seen
	srv := testServer(t, &s)
	hostport := strings.TrimPrefix(srv.URL, "http://")
	tests := []struct{ url, target string }{
		{"http://" + hostport, "/"},
		{"http://" + hostport + "/", "/"},
		{"http://" + hostport + "/a/b.txt#frag", "/a/b.txt"},
		{"http://" + hostport + "/a%2Fb%2fc?x=%41&y=/#f", "/a%2Fb%2fc?x=%41&y=/"},
		{"http://" + hostport + "/?", "/?"},
		{"http://" + hostport + "/a b<c>~d", "/a%20b%3Cc%3E%7Ed"},
		{"http://" + hostport + "//double//slash", "//double//slash"},
		{"http://" + hostport + "/%0D%0Aevil", "/%0D%0Aevil"},
		{"http://user:secret@" + hostport + "/login", "/login"},
		{"http://" + hostport + "/;p=1;q?s", "/;p=1;q?s"},
	}
	for _, tt := range tests {
		if _, _, err := get(t, tt.url, nil); err != nil {
			t.Errorf("%s: %v", tt.url, err)
			continue
		}
		r := s.last(t)
		if r.RequestURI != tt.target || r.Host != hostport {
			t.Errorf("%s: sent %q Host %q, want %q", tt.url, r.RequestURI, r.Host, tt.target)
		}
		if _, _, ok := r.BasicAuth(); ok {
			t.Errorf("%s: credentials sent", tt.url)
		}
	}
}

// Every 4xx and 5xx reply is the server's answer: *access.ServerError,
// outcome Absent.
func TestServerErrors(t *testing.T) {
	var s seen
	srv := testServer(t, &s)
	for _, code := range []int{400, 403, 404, 410, 451, 500, 503} {
		_, _, err := get(t, srv.URL+"/status/"+strconv.Itoa(code), nil)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != strconv.Itoa(code) || access.Classify(err) != access.Absent {
			t.Errorf("%d: %v", code, err)
			continue
		}
		if se.Text != nethttp.StatusText(code) || se.Command != "GET /status/"+strconv.Itoa(code) {
			t.Errorf("%d: text %q command %q", code, se.Text, se.Command)
		}
	}
	// A status HTTP does not define, or a redirection without Location,
	// is a protocol failure.
	for _, code := range []int{399, 600} {
		_, _, err := get(t, srv.URL+"/status/"+strconv.Itoa(code), nil)
		var pe *access.ProtocolError
		if !errors.As(err, &pe) || access.Classify(err) != access.Failed {
			t.Errorf("%d: %v", code, err)
		}
	}
}

// Redirections come back to the access.Client, which checks each hop
// anew.
func TestRedirects(t *testing.T) {
	var s seen
	srv := testServer(t, &s)
	var log strings.Builder
	res, b, err := get(t, srv.URL+"/redir/"+srv.URL+"/redir//final.txt", &access.Client{Dialogue: &log})
	if err != nil || string(b) != "hello" || res.URL.String() != srv.URL+"/final.txt" {
		t.Fatalf("redirected: %q %v %v", b, err, res)
	}
	for _, want := range []string{
		"< HTTP/1.1 302 Found\n< Content-Length: 0\n",
		"< Location: " + srv.URL + "/redir//final.txt\n",
		"* redirect 1 to " + srv.URL + "/redir//final.txt\n",
		"* redirect 2 to " + srv.URL + "/final.txt\n",
		"> GET /final.txt HTTP/1.1\n",
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("dialogue lacks %q:\n%s", want, log.String())
		}
	}

	// To a port of another service: refused by policy (RFC 1738 §6).
	_, _, err = get(t, srv.URL+"/redir/http://127.0.0.1:25/", nil)
	var pe *access.PolicyError
	if !errors.As(err, &pe) || access.Classify(err) != access.Forbidden {
		t.Errorf("redirect to port 25: %v", err)
	}
	// To a denied host.
	_, _, err = get(t, srv.URL+"/redir/http://localhost/", &access.Client{Policy: access.Policy{Deny: loctest.Rules(t, "localhost")}})
	if !errors.As(err, &pe) {
		t.Errorf("redirect to a denied host: %v", err)
	}
	// A loop is cut.
	n := len(s.reqs)
	loop := srv.URL + "/redir/" + srv.URL + "/redir/" + srv.URL + "/redir/" + srv.URL + "/a"
	_, _, err = get(t, loop, &access.Client{MaxRedirects: 2})
	var pre *access.ProtocolError
	if !errors.As(err, &pre) || len(s.reqs)-n != 3 {
		t.Errorf("three redirections with at most 2: %v after %d requests", err, len(s.reqs)-n)
	}
}

// The dialogue shows the request line, the headers sent, the status
// line and the headers received.
func TestDialogue(t *testing.T) {
	var s seen
	srv := testServer(t, &s)
	hostport := strings.TrimPrefix(srv.URL, "http://")
	var log strings.Builder
	if _, _, err := get(t, "http://joe:secret@"+hostport+"/x.txt", &access.Client{Dialogue: &log}); err != nil {
		t.Fatal(err)
	}
	got := log.String()
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	want := []string{
		"* the URL's user and password are not sent (RFC 1738 §3.3: no user name or password is allowed)",
		"* connect " + hostport,
		"> GET /x.txt HTTP/1.1",
		"> Host: " + hostport,
		"> User-Agent: " + UserAgent,
		"< HTTP/1.1 200 OK",
		"< Content-Length: 5",
		"< Content-Type: text/plain; charset=utf-8",
	}
	if len(lines) < len(want)+2 {
		t.Fatalf("dialogue:\n%s", got)
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d: %q, want %q", i, lines[i], w)
		}
	}
	if !strings.HasPrefix(lines[len(want)], "< Date: ") || lines[len(want)+1] != "< Last-Modified: "+modified.Format(nethttp.TimeFormat) {
		t.Errorf("dialogue ends:\n%s", got)
	}
	if strings.Contains(got, "secret") {
		t.Errorf("the password shows:\n%s", got)
	}
}

// RFC 1738 §6: every read is bounded in size and in time.
func TestLimits(t *testing.T) {
	var s seen
	srv := testServer(t, &s)
	// A length over the limit fails before the body is read.
	_, _, err := get(t, srv.URL+"/a.txt", &access.Client{MaxSize: 4})
	if !errors.Is(err, access.ErrTooLarge) || !strings.Contains(err.Error(), "Content-Length 5, the limit is 4") {
		t.Errorf("declared length over the limit: %v", err)
	}
	if _, b, err := get(t, srv.URL+"/a.txt", &access.Client{MaxSize: 5}); err != nil || string(b) != "hello" {
		t.Errorf("at the limit: %q %v", b, err)
	}
	// A body without length is cut exactly past the limit.
	res, err := (&access.Client{MaxSize: 999}).Get(context.Background(), loctest.MustParse(t, srv.URL+"/big"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	res.Close()
	if !errors.Is(err, access.ErrTooLarge) || len(b) != 999 || access.Classify(err) != access.Failed {
		t.Errorf("chunked body over the limit: %d octets, %v", len(b), err)
	}
	if _, b, err := get(t, srv.URL+"/big", &access.Client{MaxSize: 1000}); err != nil || len(b) != 1000 {
		t.Errorf("chunked body at the limit: %d %v", len(b), err)
	}
}

// stallServer accepts connections, reads the request's head, sends send
// and then nothing more: a hostile peer. (Sending before the request is
// read would race net/http, which drops a reply that comes before its
// request as "unsolicited".)
func stallServer(t *testing.T, send string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				br := bufio.NewReader(c)
				for {
					line, err := br.ReadString('\n')
					if err != nil || line == "\r\n" {
						break
					}
				}
				io.WriteString(c, send)
				<-done
				c.Close()
			}()
		}
	}()
	return ln.Addr().String()
}

func TestStall(t *testing.T) {
	for _, tt := range []struct {
		send    string
		timeout bool // else a malformed reply: net/http reads the cut line
	}{
		{"", true},
		{"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhal", true}, // half a body
		{"HTTP/1.1 200 OK\r\nContent-Le", false},                   // half a header
	} {
		addr := stallServer(t, tt.send)
		res, err := (&access.Client{IdleTimeout: 100 * time.Millisecond}).Get(context.Background(), loctest.MustParse(t, "http://"+addr+"/"))
		if err == nil {
			_, err = io.ReadAll(res.Body)
			res.Close()
		}
		if (tt.timeout && !access.Timeout(err)) || access.Classify(err) != access.Failed {
			t.Errorf("server sending %q then stalling: %v", tt.send, err)
		}
	}
}

func TestMalformedReply(t *testing.T) {
	for _, send := range []string{
		"HELLO\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
		"HTTP/1.1 200 OK\r\nX: " + strings.Repeat("a", 2<<20) + "\r\n\r\n",
	} {
		addr := stallServer(t, send)
		_, err := (&access.Client{IdleTimeout: 5 * time.Second, MaxLine: 1024}).Get(context.Background(), loctest.MustParse(t, "http://"+addr+"/"))
		if err == nil || access.Classify(err) != access.Failed || access.Timeout(err) {
			t.Errorf("reply %.30q: %v", send, err)
		}
	}
}

// RFC 1738 §6: a URL naming another service's port is refused before
// any connection unless allowed; a URL with no host is refused too.
func TestPolicy(t *testing.T) {
	addr := stallServer(t, "")
	_, port, _ := net.SplitHostPort(addr)
	for _, tt := range []struct {
		url    string
		offset int
		rule   string
	}{
		{"http://127.0.0.1:25/", 17, "RFC 1738 §6"},
		{"https://127.0.0.1:110/", 18, "RFC 1738 §6"},
		{"http:///path", 7, "host"},
		{"http:path", 5, "host"},
	} {
		_, err := (&access.Client{}).Get(context.Background(), loctest.MustParse(t, tt.url))
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Offset != tt.offset || pe.Rule != tt.rule {
			t.Errorf("%s: %v", tt.url, err)
		}
	}
	// The client connects only through req.Dial: the access.Client's
	// dialer sees every connection, and a denied host is never dialled.
	var dialed []string
	c := &access.Client{IdleTimeout: 50 * time.Millisecond, Dial: func(ctx context.Context, network, a string) (net.Conn, error) {
		dialed = append(dialed, a)
		var d net.Dialer
		return d.DialContext(ctx, network, a)
	}}
	c.Get(context.Background(), loctest.MustParse(t, "http://127.0.0.1:"+port+"/"))
	if strings.Join(dialed, " ") != "127.0.0.1:"+port {
		t.Errorf("dialled %v", dialed)
	}
}

// The environment's proxy is not used: the URL's host is the server.
func TestNoProxyFromEnvironment(t *testing.T) {
	var s seen
	srv := testServer(t, &s)
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("http_proxy", "http://127.0.0.1:1")
	t.Setenv("NO_PROXY", "")
	if _, b, err := get(t, srv.URL+"/a", nil); err != nil || string(b) != "hello" {
		t.Errorf("%q %v", b, err)
	}
}

// https (RFC 2818, beyond RFC 1738): the same client over TLS.
func TestHTTPS(t *testing.T) {
	var s seen
	srv := httptest.NewUnstartedServer(handler(&s))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake below
	srv.StartTLS()
	defer srv.Close()
	trusting := &Client{TLSConfig: srv.Client().Transport.(*nethttp.Transport).TLSClientConfig}
	var dia strings.Builder
	res, b, err := get(t, srv.URL+"/secure.txt#f", &access.Client{Dialogue: &dia, Schemes: with(trusting)})
	if err != nil || string(b) != "hello" || res.MediaType != "text/plain; charset=utf-8" {
		t.Fatalf("%q %v", b, err)
	}
	if s.last(t).RequestURI != "/secure.txt" || s.last(t).TLS == nil {
		t.Errorf("sent %q", s.last(t).RequestURI)
	}
	if !strings.Contains(dia.String(), "* TLS 1.3 established\n") {
		t.Errorf("dialogue:\n%s", dia.String())
	}
	// Without trusting the test's certificate the handshake fails.
	if _, _, err := get(t, srv.URL+"/x", nil); err == nil || access.Classify(err) != access.Failed {
		t.Errorf("untrusted certificate: %v", err)
	}
}

// An IPv6 literal (RFC 2732): connected to without brackets, sent in
// Host with them.
func TestIPv6(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	var s seen
	srv := &httptest.Server{Listener: ln, Config: &nethttp.Server{Handler: handler(&s)}}
	srv.Start()
	defer srv.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	var dia strings.Builder
	u := "http://[::1]:" + strconv.Itoa(port) + "/six.txt"
	if _, b, err := get(t, u, &access.Client{Dialogue: &dia}); err != nil || string(b) != "hello" {
		t.Fatalf("%s: %q %v", u, b, err)
	}
	if r := s.last(t); r.Host != "[::1]:"+strconv.Itoa(port) || r.RequestURI != "/six.txt" {
		t.Errorf("Host %q target %q", r.Host, r.RequestURI)
	}
	if !strings.HasPrefix(dia.String(), "* connect [::1]:"+strconv.Itoa(port)+"\n") {
		t.Errorf("dialogue:\n%s", dia.String())
	}
}

// with returns the Schemes of an access.Client that follows http and
// https URLs with c.
func with(c *Client) map[string]access.Fetcher {
	return map[string]access.Fetcher{"http": c, "https": c}
}
