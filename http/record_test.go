package http

// Recording (access.Client.Recorder) and replay (Client.Replay) of
// http and https exchanges against nginx, directly and through squid:
// the octets recorded are those that crossed the connection above TLS,
// one request's on a kept connection, and the replay gives what the
// live request gave.

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// addReply keeps resp as u's recorded reply.
func addReply(arc *loctest.Archive, u, resp string) {
	pu, err := locator.Parse(u)
	if err != nil {
		panic(err)
	}
	arc.Add(loctest.Kept{Record: access.Record{Kind: access.RecordExchange, URL: pu, Protocol: "http/1.1"}, Response: []byte(resp)})
}

// checkRecord checks the one record of u: the request octets exactly
// wantReq, the reply an HTTP/1.1 one of status code whose body (after
// the head) is wantBody, when not nil.
func checkRecord(t *testing.T, arc *loctest.Archive, u, wantReq, code string, wantBody []byte) {
	t.Helper()
	recs := arc.Of(u)
	if len(recs) != 1 {
		t.Errorf("%s: %d records", u, len(recs))
		return
	}
	k := recs[0]
	if k.Record.Kind != access.RecordExchange || k.Record.Protocol != "http/1.1" || k.Record.Addr != "127.0.0.1" || k.Record.Truncated != "" {
		t.Errorf("%s: record %v %q %q truncated %q", u, k.Record.Kind, k.Record.Protocol, k.Record.Addr, k.Record.Truncated)
	}
	// The nginx servers here speak TLS 1.3 only (ssl_protocols); a plain
	// exchange names none.
	if wantTLS := map[bool]string{true: "tls/1.3"}[strings.HasPrefix(u, "https:")]; k.Record.TLS != wantTLS {
		t.Errorf("%s: TLS %q, want %q", u, k.Record.TLS, wantTLS)
	}
	if string(k.Request) != wantReq {
		t.Errorf("%s: request octets\n%q, want\n%q", u, k.Request, wantReq)
	}
	head, body, ok := bytes.Cut(k.Response, []byte("\r\n\r\n"))
	if !ok || !bytes.HasPrefix(head, []byte("HTTP/1.1 "+code+" ")) || bytes.Count(k.Response, []byte("HTTP/1.1 ")) != 1 {
		t.Errorf("%s: reply octets %.300q", u, k.Response)
		return
	}
	if wantBody != nil && !bytes.Equal(body, wantBody) {
		t.Errorf("%s: the recorded body (%d octets) is not the file (%d octets): %.100q", u, len(body), len(wantBody), body)
	}
	if cl := header(head, "Content-Length"); cl != "" && cl != strconv.Itoa(len(body)) {
		t.Errorf("%s: Content-Length %s, %d octets recorded after the head", u, cl, len(body))
	}
}

// header returns the field name's value in an HTTP head.
func header(head []byte, name string) string {
	for _, l := range strings.Split(string(head), "\r\n")[1:] {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func request(line, host string) string {
	return line + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: " + UserAgent + "\r\n\r\n"
}

// noDial is a Client.Dial for a replay, which must connect to nothing.
func noDial(t *testing.T) access.DialFunc {
	return func(_ context.Context, _, addr string) (net.Conn, error) {
		t.Errorf("a replay connected to %s", addr)
		return nil, errors.New("no connection in a replay")
	}
}

// replayMatches follows u from arc and checks it gives what live gave.
func replayMatches(t *testing.T, rc *access.Client, u string, live *access.Resource, liveBody []byte) {
	t.Helper()
	res, b, err := get(t, u, rc)
	if err != nil {
		t.Errorf("replay %s: %v", u, err)
		return
	}
	if !bytes.Equal(b, liveBody) || res.MediaType != live.MediaType || res.Size != live.Size || !res.Modified.Equal(live.Modified) || res.URL.String() != live.URL.String() {
		t.Errorf("replay %s: %d octets %q size %d %v at %s; live %d octets %q size %d %v at %s", u, len(b), res.MediaType, res.Size, res.Modified, res.URL, len(liveBody), live.MediaType, live.Size, live.Modified, live.URL)
	}
}

// TestRecordNginx records http and https exchanges with nginx, several
// on each kept connection, a redirection and a refusal, and replays
// them.
func TestRecordNginx(t *testing.T) {
	peer.Require(t, "/usr/sbin/nginx")
	dir := t.TempDir()
	cert, key, roots := peer.SelfSigned(t, dir)
	tlsPort := peer.FreePort(t)
	addr := startNginxIn(t, dir, fmt.Sprintf("    listen 127.0.0.1:%d ssl; ssl_protocols TLSv1.3; ssl_certificate %s; ssl_certificate_key %s;\n", tlsPort, cert, key))
	tlsAddr := "127.0.0.1:" + strconv.Itoa(tlsPort)
	www := filepath.Join(dir, "www")
	file := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(www, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	hc := &Client{TLSConfig: &tls.Config{RootCAs: roots}}
	arc := &loctest.Archive{}
	var dia strings.Builder
	ac := &access.Client{Recorder: arc, Dialogue: &dia, Schemes: with(hc)}
	type live struct {
		res  *access.Resource
		body []byte
	}
	lives := map[string]live{}
	// A probe first: it is not recorded, and the connection it leaves
	// is not one the next Get's octets would escape the record on.
	if st := ac.Probe(context.Background(), loctest.MustParse(t, "http://"+addr+"/a.txt")); st.State != access.StateOK {
		t.Fatalf("probe: %+v", st)
	}
	for _, u := range []string{
		"http://" + addr + "/a.txt", "http://" + addr + "/dir/b.bin", "http://" + addr + "/redir",
		"https://" + tlsAddr + "/a.txt", "https://" + tlsAddr + "/dir/b.bin",
	} {
		res, b, err := get(t, u, ac)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		lives[u] = live{res, b}
	}
	_, _, err := get(t, "http://"+addr+"/missing", ac)
	var se *access.ServerError
	if !errors.As(err, &se) || se.Code != "404" {
		t.Fatalf("/missing: %v", err)
	}
	// One connection to each of nginx's ports, kept while recording,
	// and the probe's.
	if n := strings.Count(dia.String(), "* connect "); n != 3 {
		t.Errorf("%d connections for a probe and seven requests to two ports:\n%s", n, dia.String())
	}

	checkRecord(t, arc, "http://"+addr+"/a.txt", request("GET /a.txt", addr), "200", file("a.txt"))
	checkRecord(t, arc, "http://"+addr+"/dir/b.bin", request("GET /dir/b.bin", addr), "200", file("dir/b.bin"))
	checkRecord(t, arc, "http://"+addr+"/redir", request("GET /redir", addr), "301", nil)
	checkRecord(t, arc, "http://"+addr+"/index.html", request("GET /index.html", addr), "200", file("index.html"))
	checkRecord(t, arc, "http://"+addr+"/missing", request("GET /missing", addr), "404", nil)
	checkRecord(t, arc, "https://"+tlsAddr+"/a.txt", request("GET /a.txt", tlsAddr), "200", file("a.txt"))
	checkRecord(t, arc, "https://"+tlsAddr+"/dir/b.bin", request("GET /dir/b.bin", tlsAddr), "200", file("dir/b.bin"))
	if k := arc.Of("http://" + addr + "/redir"); len(k) == 1 && !bytes.Contains(k[0].Response, []byte("\r\nLocation: http://"+addr+"/index.html\r\n")) {
		t.Errorf("the 301's record: %q", k[0].Response)
	}

	// The replay connects to nothing and gives what the live requests
	// gave: the 301 a redirection followed in the archive, the 404 the
	// server's refusal.
	var rdia strings.Builder
	rc := &access.Client{Archive: arc, Dialogue: &rdia, Dial: noDial(t), Schemes: with(&Client{})}
	for u, l := range lives {
		replayMatches(t, rc, u, l.res, l.body)
	}
	for _, want := range []string{"< HTTP/1.1 301 Moved Permanently\n", "* redirect 1 to http://" + addr + "/index.html\n", "< Content-Type: text/plain\n"} {
		if !strings.Contains(rdia.String(), want) {
			t.Errorf("the replay's dialogue lacks %q:\n%s", want, rdia.String())
		}
	}
	_, _, err = get(t, "http://"+addr+"/missing", rc)
	if !errors.As(err, &se) || se.Code != "404" || se.Command != "GET /missing" || access.Classify(err) != access.Absent {
		t.Errorf("replay of the 404: %v", err)
	}
	var na *access.NotArchivedError
	if _, _, err := get(t, "http://"+addr+"/gone", rc); !errors.As(err, &na) {
		t.Errorf("a URL not recorded: %v", err)
	}
}

// TestRecordSquid records exchanges through squid: an http URL's are
// the request to the proxy and its reply; an https URL's are those
// inside the tunnel, above TLS, without the CONNECT.
func TestRecordSquid(t *testing.T) {
	proxy, _ := peer.Squid(t, forbidden)
	peer.Require(t, "/usr/sbin/nginx")
	dir := t.TempDir()
	cert, key, roots := peer.SelfSigned(t, dir)
	tlsPort := peer.FreePort(t)
	addr := startNginxIn(t, dir, fmt.Sprintf("    listen 127.0.0.1:%d ssl; ssl_protocols TLSv1.3; ssl_certificate %s; ssl_certificate_key %s;\n", tlsPort, cert, key))
	tlsAddr := "127.0.0.1:" + strconv.Itoa(tlsPort)
	a, err := os.ReadFile(filepath.Join(dir, "www", "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	hc := &Client{TLSConfig: &tls.Config{RootCAs: roots}}
	arc := &loctest.Archive{}
	ac := &access.Client{Recorder: arc, Proxy: proxyTo(proxy), Schemes: with(hc)}
	lives := map[string][]byte{}
	for _, u := range []string{"http://" + addr + "/a.txt", "https://" + tlsAddr + "/a.txt", "http://" + addr + "/index.html"} {
		_, b, err := get(t, u, ac)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		lives[u] = b
	}
	checkRecord(t, arc, "http://"+addr+"/a.txt", request("GET http://"+addr+"/a.txt", addr), "200", a)
	checkRecord(t, arc, "https://"+tlsAddr+"/a.txt", request("GET /a.txt", tlsAddr), "200", a)
	for _, k := range arc.Records() {
		if bytes.Contains(k.Request, []byte("CONNECT")) || bytes.Contains(k.Response, []byte("Connection established")) {
			t.Errorf("%s: the tunnel's CONNECT is recorded: %q %q", k.Record.URL, k.Request, k.Response)
		}
	}
	rc := &access.Client{Archive: arc, Proxy: proxyTo(proxy), Dial: noDial(t), Schemes: with(&Client{})}
	for u, want := range lives {
		res, b, err := get(t, u, rc)
		if err != nil || !bytes.Equal(b, want) || res.MediaType != "text/plain" && res.MediaType != "text/html" {
			t.Errorf("replay %s: %q %v", u, b, err)
		}
	}
}

// TestRecordChunkedGzip: nginx sends a gzip body in chunks (its gzip
// filter); the recording holds the chunks and the coded octets, and
// the replay decodes both as the live request did.
func TestRecordChunkedGzip(t *testing.T) {
	peer.Require(t, "/usr/sbin/nginx")
	dir := t.TempDir()
	addr := startNginxIn(t, dir, "    gzip on; gzip_min_length 1; gzip_types application/octet-stream;\n")
	arc := &loctest.Archive{}
	ac := &access.Client{Recorder: arc, Schemes: with(&Client{Compressed: true})}
	u := "http://" + addr + "/dir/b.bin"
	live, b, err := get(t, u, ac)
	if err != nil || string(b) != strings.Repeat("b", 3000) {
		t.Fatalf("%d octets %v", len(b), err)
	}
	recs := arc.Of(u)
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	head, body, _ := bytes.Cut(recs[0].Response, []byte("\r\n\r\n"))
	if header(head, "Transfer-Encoding") != "chunked" || header(head, "Content-Encoding") != "gzip" || !bytes.HasSuffix(body, []byte("\r\n0\r\n\r\n")) || len(body) > 200 {
		t.Errorf("the recorded reply: %q", recs[0].Response)
	}
	rc := &access.Client{Archive: arc, Dial: noDial(t), Schemes: with(&Client{Compressed: true})}
	replayMatches(t, rc, u, live, b)
	// Without Compressed, the replay gives the coded octets, as a live
	// request would have had them had it asked for gzip.
	res, coded, err := get(t, u, &access.Client{Archive: arc, Dial: noDial(t)})
	if err != nil || !bytes.HasPrefix(coded, []byte{0x1f, 0x8b}) || len(coded) >= 3000 || res.Size != -1 {
		t.Errorf("replay without Compressed: %d octets %.10q size %d %v", len(coded), coded, res.Size, err)
	}
}

// TestReplayBroken: a recording that is not a whole HTTP reply is an
// *access.ProtocolError, when Get returns or when Body reaches the cut.
func TestReplayBroken(t *testing.T) {
	const u = "http://127.0.0.1/x"
	for _, rec := range []string{
		"",
		"garbage",
		"HTTP/1.1 200 OK\r\nContent-Le",
		"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
		"HTTP/1.1 2000 OK\r\n\r\n",
		"HTTP/1.1 200 OK\r\n" + strings.Repeat("X-A: b\r\n", 300) + "\r\n",
		"HTTP/1.1 301 Moved\r\n\r\n",
		"HTTP/1.1 100 Continue\r\n\r\n",
	} {
		arc := &loctest.Archive{}
		addReply(arc, u, rec)
		c := &access.Client{Archive: arc, Dial: noDial(t), MaxLine: 100}
		res, err := c.Get(context.Background(), loctest.MustParse(t, u))
		if err == nil {
			_, err = io.ReadAll(res.Body)
			res.Close()
		}
		var pe *access.ProtocolError
		if !errors.As(err, &pe) || access.Classify(err) != access.Failed {
			t.Errorf("%.40q: %v, want a protocol error", rec, err)
		}
	}
	// A whole reply after an interim one is delivered.
	arc := &loctest.Archive{}
	addReply(arc, u, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	_, b, err := get(t, u, &access.Client{Archive: arc, Dial: noDial(t)})
	if err != nil || string(b) != "ok" {
		t.Errorf("after 100: %q %v", b, err)
	}
}
