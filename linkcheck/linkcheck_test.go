package linkcheck

// The Checker against real servers on loopback (package internal/peer):
// nginx, pyftpdlib and pygopherd, each started on a free port and
// stopped by its process id; a test whose servers are not installed is
// skipped with a one-line reason. A peer.Hostile listener stands in only
// for what no real server does on demand: a connection held open for a
// count, a connection reset.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/news"
	_ "github.com/rfc1738/locator/schemes"
)

// urls yields each of texts parsed, as the command gives them.
func urls(t *testing.T, texts []string) iter.Seq[Input] {
	return func(yield func(Input) bool) {
		for _, s := range texts {
			u, err := locator.Parse(s)
			if err != nil {
				t.Errorf("%s: %v", s, err)
				return
			}
			if !yield(Input{Text: s, URL: u}) {
				return
			}
		}
	}
}

// check runs c over texts and returns the results in the order emitted.
func check(t *testing.T, c *Checker, texts []string) []Result {
	t.Helper()
	var rs []Result
	if err := c.Check(context.Background(), urls(t, texts), func(r Result) error {
		rs = append(rs, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if c.Client != nil {
		c.Client.CloseIdle()
	}
	return rs
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	peer.OpenTree(t, root)
}

// TestOrderAndOnce: URLs on nginx, pyftpdlib and pygopherd, present and
// missing, each given several times, near and far apart. Every input
// gets one result, in input order, although the servers answer in
// another: ftp and gopher URLs name localhost, one destination served
// one at a time (PerDest 1), where pygopherd takes a good part of a
// second a probe, while nginx's URLs, of 127.0.0.1, go by beside them.
// The answer of a repeat is its first probe's, and nginx's access log
// has one request per distinct http URL.
func TestOrderAndOnce(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	const n = 30
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("d/f%02d.txt", i)] = strings.Repeat("x", i+1)
	}
	writeTree(t, root, files)
	logDir := t.TempDir()
	httpAddr := peer.Nginx(t, root, peer.NginxConfig{Dir: logDir, Connections: 64}).Addr
	local := func(addr string) string { return strings.Replace(addr, "127.0.0.1", "localhost", 1) }
	ftpAddr := local(peer.Pyftpdlib(t, root, peer.PyftpdOptions{}).Addr)
	gopherAddr := local(peer.Pygopherd(t, root).Addr)

	want := map[string]access.State{}
	var distinct []string
	add := func(u string, st access.State) {
		want[u] = st
		distinct = append(distinct, u)
	}
	for i := 0; i < n; i++ {
		if i%3 == 0 {
			add(fmt.Sprintf("ftp://%s/d/f%02d.txt", ftpAddr, i), access.StateOK)
		}
		add(fmt.Sprintf("http://%s/d/f%02d.txt", httpAddr, i), access.StateOK)
		add(fmt.Sprintf("http://%s/d/none%02d.txt", httpAddr, i), access.StateGone)
		if i%10 == 0 {
			add(fmt.Sprintf("gopher://%s/0/d/f%02d.txt", gopherAddr, i), access.StateOK)
		}
	}
	// Each URL once, then every third again at once, then all again
	// in reverse order.
	var texts []string
	for i, u := range distinct {
		texts = append(texts, u)
		if i%3 == 0 {
			texts = append(texts, u)
		}
	}
	for i := len(distinct) - 1; i >= 0; i-- {
		texts = append(texts, distinct[i])
	}

	c := &Checker{Client: &access.Client{}, Jobs: 8, PerDest: 1}
	rs := check(t, c, texts)
	if len(rs) != len(texts) {
		t.Fatalf("%d results for %d inputs", len(rs), len(texts))
	}
	first := map[string]Result{}
	repeats := 0
	for i, r := range rs {
		if r.Text != texts[i] {
			t.Fatalf("result %d is for %s, want %s: not in input order", i, r.Text, texts[i])
		}
		if r.Status == nil || r.Status.State != want[r.Text] {
			t.Errorf("%s: %+v, want %s", r.Text, r.Status, want[r.Text])
			continue
		}
		f, seen := first[r.Text]
		if r.Repeat != seen {
			t.Errorf("%s (input %d): Repeat %v, seen before %v", r.Text, i, r.Repeat, seen)
		}
		if !seen {
			first[r.Text] = r
			if r.Tries != 1 {
				t.Errorf("%s: %d tries, want 1", r.Text, r.Tries)
			}
			continue
		}
		repeats++
		if r.Status != f.Status || r.Tries != f.Tries {
			t.Errorf("%s: a repeat's answer is not its first probe's", r.Text)
		}
	}
	if repeats != len(texts)-len(distinct) {
		t.Errorf("%d repeats, want %d", repeats, len(texts)-len(distinct))
	}

	// nginx logged one request for each distinct http URL: HEAD, once.
	// It writes a request's line once its answer is sent: the last may
	// come a moment after the Checker has read the answer.
	httpURLs := 0
	for _, u := range distinct {
		if strings.HasPrefix(u, "http:") {
			httpURLs++
		}
	}
	var asked map[string]int
	for wait := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		asked = nginxRequests(t, filepath.Join(logDir, "access.log"))
		total := 0
		for _, n := range asked {
			total += n
		}
		if total >= httpURLs || time.Now().After(wait) {
			break
		}
	}
	for _, u := range distinct {
		if !strings.HasPrefix(u, "http:") {
			continue
		}
		path := strings.TrimPrefix(u, "http://"+httpAddr)
		if asked["HEAD "+path] != 1 {
			t.Errorf("nginx was asked HEAD %s %d times, want once", path, asked["HEAD "+path])
		}
	}
	if len(asked) != httpURLs {
		t.Errorf("nginx was asked %d distinct requests, want %d: %v", len(asked), httpURLs, asked)
	}
}

// nginxRequests counts the requests of nginx's access log by method
// and path, but the peer's readiness check ("/").
func nginxRequests(t *testing.T, log string) map[string]int {
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	asked := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		// 127.0.0.1 - - [date] "HEAD /d/f00.txt HTTP/1.1" 200 0 "-" "..."
		if _, req, ok := strings.Cut(line, `"`); ok {
			f := strings.Fields(req)
			if len(f) >= 2 && f[1] != "/" {
				asked[f[0]+" "+f[1]]++
			}
		}
	}
	return asked
}

// holding is a listener that answers every HTTP request 200 after
// holding its connection for hold, counting the connections open at
// once: a server whose connections stay open long enough to be counted.
type holding struct {
	open, most atomic.Int32
	accepted   atomic.Int32
	all        *holding // counts every listener's connections too, when not nil
}

func (h *holding) serve(hold time.Duration) func(net.Conn) {
	return func(c net.Conn) {
		h.opened()
		if h.all != nil {
			h.all.opened()
		}
		_, err := readHead(c)
		if err == nil {
			time.Sleep(hold)
		}
		// Counted closed before the answer: the client's next
		// connection, which may follow the answer at once, is never
		// counted beside it.
		h.open.Add(-1)
		if h.all != nil {
			h.all.open.Add(-1)
		}
		if err == nil {
			io.WriteString(c, "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")
		}
	}
}

func (h *holding) opened() {
	h.accepted.Add(1)
	o := h.open.Add(1)
	for {
		m := h.most.Load()
		if o <= m || h.most.CompareAndSwap(m, o) {
			return
		}
	}
}

// readHead reads an HTTP request head.
func readHead(c net.Conn) (string, error) {
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	var head strings.Builder
	for {
		line, err := br.ReadString('\n')
		head.WriteString(line)
		if err != nil {
			return head.String(), err
		}
		if line == "\r\n" || line == "\n" {
			return head.String(), nil
		}
	}
}

// TestPerDest: URLs of one host on two ports share the host's PerDest
// (a destination is a server by name, any port): the listeners of
// 127.0.0.1 never see more than PerDest connections at once, and see
// that many while Jobs would allow more. Another name (localhost,
// however its case is written) is another destination, served beside
// it.
func TestPerDest(t *testing.T) {
	var all holding
	h, other := holding{all: &all}, holding{all: &all}
	a := peer.Hostile(t, h.serve(100*time.Millisecond))
	b := peer.Hostile(t, h.serve(100*time.Millisecond))
	_, port, _ := net.SplitHostPort(peer.Hostile(t, other.serve(100*time.Millisecond)))
	var texts []string
	for i := 0; i < 8; i++ {
		texts = append(texts, fmt.Sprintf("http://%s/a%d", a, i), fmt.Sprintf("http://%s/b%d", b, i),
			fmt.Sprintf("http://localhost:%s/o%d", port, i), fmt.Sprintf("http://LocalHost:%s/p%d", port, i))
	}
	c := &Checker{Client: &access.Client{}, Jobs: 16, PerDest: 2}
	rs := check(t, c, texts)
	for _, r := range rs {
		if r.Status.State != access.StateOK {
			t.Errorf("%s: %s %v", r.Text, r.Status.State, r.Status.Err)
		}
	}
	if got := h.most.Load(); got != 2 {
		t.Errorf("127.0.0.1 had %d connections at once, want 2 (PerDest)", got)
	}
	if got := other.most.Load(); got != 2 {
		t.Errorf("localhost had %d connections at once, want 2 (PerDest)", got)
	}
	if got := h.accepted.Load() + other.accepted.Load(); got != int32(len(texts)) {
		t.Errorf("%d connections for %d URLs", got, len(texts))
	}
	// Each name's URLs, two at a time for 8 holds of 100 ms, run beside
	// the other's, not after.
	if got := all.most.Load(); got != 4 {
		t.Errorf("%d connections at once to both names, want 4: one waited for the other", got)
	}
}

// TestRetries: a connection reset is transient and tried again after
// Backoff: a listener that resets the first connection and answers the
// second gives ok in two tries; with Retries 0, an error in one. A
// refused connection is never tried again.
func TestRetries(t *testing.T) {
	var n atomic.Int32
	addr := peer.Hostile(t, func(c net.Conn) {
		if _, err := readHead(c); err != nil {
			return
		}
		if n.Add(1)%2 == 1 {
			c.(*net.TCPConn).SetLinger(0) // the close sends RST
			return
		}
		io.WriteString(c, "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")
	})
	closed := fmt.Sprintf("http://127.0.0.1:%d/x", peer.FreePort(t))
	u := "http://" + addr + "/x"

	c := &Checker{Client: &access.Client{}, Retries: 2, Backoff: 20 * time.Millisecond}
	rs := check(t, c, []string{u, closed})
	if r := rs[0]; r.Status.State != access.StateOK || r.Tries != 2 || r.Elapsed < 20*time.Millisecond {
		t.Errorf("reset, then 200: %s in %d tries, %v (%v)", r.Status.State, r.Tries, r.Elapsed, r.Status.Err)
	}
	if r := rs[1]; r.Status.State != access.StateError || r.Tries != 1 || r.Status.Transient {
		t.Errorf("refused connection: %s in %d tries, transient %v", r.Status.State, r.Tries, r.Status.Transient)
	}
	if got := n.Load(); got != 2 {
		t.Errorf("%d requests, want 2", got)
	}

	c.Retries = 0
	rs = check(t, c, []string{u})
	if r := rs[0]; r.Status.State != access.StateError || r.Tries != 1 || !r.Status.Transient {
		t.Errorf("reset, no retries: %s in %d tries, transient %v (%v)", r.Status.State, r.Tries, r.Status.Transient, r.Status.Err)
	}
}

// TestMaxTime: a server that never answers is given up after MaxTime,
// retries included, and the error says so.
func TestMaxTime(t *testing.T) {
	addr := peer.Hostile(t, func(c net.Conn) {
		readHead(c)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		io.Copy(io.Discard, c) // silent until the client gives up
	})
	c := &Checker{Client: &access.Client{}, Retries: 5, MaxTime: 300 * time.Millisecond}
	rs := check(t, c, []string{"http://" + addr + "/slow"})
	var mt *MaxTimeError
	r := rs[0]
	if r.Status.State != access.StateError || !errors.As(r.Status.Err, &mt) || mt.Max != c.MaxTime {
		t.Fatalf("%s %v, want a MaxTimeError", r.Status.State, r.Status.Err)
	}
	if r.Elapsed > 2*time.Second {
		t.Errorf("took %v for a MaxTime of %v", r.Elapsed, c.MaxTime)
	}
}

// TestSyntaxOnly: a mailto URL, which the mailto client refuses to
// follow (an action, not an object), is judged by its syntax: ok or
// gone with code "syntax", no try made.
func TestSyntaxOnly(t *testing.T) {
	rs := check(t, &Checker{}, []string{"mailto:joe@example.com", "mailto:joe"})
	if r := rs[0]; r.Status.State != access.StateOK || r.Status.Code != "syntax" || r.Tries != 0 {
		t.Errorf("mailto:joe@example.com: %s %s, %d tries", r.Status.State, r.Status.Code, r.Tries)
	}
	if r := rs[1]; r.Status.State != access.StateGone || r.Status.Code != "syntax" || r.Status.Err == nil {
		t.Errorf("mailto:joe: %s %s %v", r.Status.State, r.Status.Code, r.Status.Err)
	}
}

// TestDestination: the key a URL's probe is counted against.
func TestDestination(t *testing.T) {
	c := &Checker{Client: &access.Client{Schemes: map[string]access.Fetcher{"news": &news.Client{Server: "News.Example.:1119"}}}}
	for in, want := range map[string]string{
		"http://Example.ORG:8080/x":  "example.org",
		"ftp://%65xample.org/x":      "example.org",
		"gopher://example.org./1/":   "example.org",
		"news:comp.lang.go":          "news.example",
		"news://other.example/group": "other.example",
		"nntp://other.example/g/1":   "other.example",
		"file:///etc/hosts":          "",
		"mailto:joe@example.com":     "",
	} {
		u, err := locator.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Destination(u); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
	var none Checker
	u, _ := locator.Parse("news:comp.lang.go")
	if got := none.Destination(u); got != "" {
		t.Errorf("news without a server: %q, want none", got)
	}
}
