package gateway_test

// One access.Client serves every request of the gateway (issue 43): what
// a protocol keeps between requests serves the next one. Measured on
// the servers: pyftpdlib's log of every command, and the connections a
// countRelay to INN accepts.

import (
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/news"
)

// TestFTPLoginsReused: 50 sequential requests through the gateway for
// small files on one pyftpdlib server log in (USER, RFC 959 §4.1.1) as
// often as the FTP client's pool, 4 idle sessions per server, needs:
// once for requests one after another, not once per request.
func TestFTPLoginsReused(t *testing.T) {
	files := map[string]string{}
	for i := range 5 {
		files[fmt.Sprintf("pub/f%d.txt", i)] = fmt.Sprintf("small file %d\n", i)
	}
	s := startPyftpd(t, files, nil)
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}})
	for i := range 50 {
		res, body := get(t, gw.URL+fmt.Sprintf("/ftp://%s/pub/f%d.txt", s.Addr, i%5))
		if res.StatusCode != 200 || body != fmt.Sprintf("small file %d\n", i%5) {
			t.Fatalf("request %d: %d %q", i, res.StatusCode, body)
		}
	}
	logins := strings.Count(s.commands(t), "<- USER ")
	t.Logf("%d logins for 50 requests", logins)
	if logins < 1 || logins > 4 {
		t.Errorf("50 requests logged in %d times, want 1 to 4 (the pool's bound per server)", logins)
	}
}

// TestFTPAskedPasswordNotShared: a session logged in with the password
// one request's HTTP client gave (Authorization, RFC 1738 §3.2.1: the
// password the URL does not give is asked for) never serves a request
// that gives another: it is asked for (401) as on a new login.
func TestFTPAskedPasswordNotShared(t *testing.T) {
	s := startPyftpd(t, nil, map[string]string{"secret.txt": "for ftpuser only\n"})
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}})
	u := gw.URL + "/ftp://ftpuser@" + s.Addr + "/secret.txt"
	auth := func(pass string) []string {
		return []string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte("ftpuser:"+pass))}
	}
	res, body := get(t, u, auth("ftppass")...)
	if res.StatusCode != 200 || body != "for ftpuser only\n" {
		t.Fatalf("with the password: %d %q", res.StatusCode, body)
	}
	for _, h := range [][]string{nil, auth("wrong")} {
		res, body = get(t, u, h...)
		if res.StatusCode != 401 || strings.Contains(body, "for ftpuser only") {
			t.Errorf("then %v: %d %q, want 401", h, res.StatusCode, body)
		}
	}
}

// countRelay forwards each connection it accepts to addr and counts them.
type countRelay struct {
	l net.Listener
	n atomic.Int32
}

func newCountRelay(t *testing.T, addr string) *countRelay {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &countRelay{l: l}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			r.n.Add(1)
			s, err := net.Dial("tcp", addr)
			if err != nil {
				c.Close()
				continue
			}
			wg.Add(2)
			go func() { defer wg.Done(); io.Copy(s, c); s.Close() }()
			go func() { defer wg.Done(); io.Copy(c, s); c.Close() }()
		}
	}()
	return r
}

// TestNewsSessionReused: 20 sequential requests for news articles
// through a gateway whose NewsServer is INN (RFC 1738 §3.6: news URLs
// name no server; RFC 3977 §5.3: one reader session serves any number
// of commands) open one connection, not one per request.
func TestNewsSessionReused(t *testing.T) {
	in := peer.INN(t)
	var ids []string
	for i := range 4 {
		id := fmt.Sprintf("<reuse%d.%s@locator.test>", i, in.Tag)
		ids = append(ids, id)
		in.Post(t, "From: tester@locator.test\r\nNewsgroups: "+in.Group+"\r\nSubject: Reuse "+fmt.Sprint(i)+"\r\nMessage-ID: "+id+"\r\n\r\nArticle "+fmt.Sprint(i)+".\r\n")
	}
	r := newCountRelay(t, in.Addr)
	ra := r.l.Addr().String()
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}, Schemes: map[string]access.Fetcher{"news": &news.Client{Server: ra}}})
	for i := range 20 {
		id := ids[i%4]
		res, body := get(t, gw.URL+"/news:"+strings.Trim(id, "<>"))
		if res.StatusCode != 200 || !strings.Contains(body, fmt.Sprintf("Article %d.", i%4)) {
			t.Fatalf("request %d: %d\n%s", i, res.StatusCode, body)
		}
	}
	n := r.n.Load()
	t.Logf("%d connections for 20 articles", n)
	if n != 1 {
		t.Errorf("20 articles opened %d connections to the news server, want 1", n)
	}
}
