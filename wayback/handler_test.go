package wayback

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHandlerPaths: each path of the layout reaches its answer (the
// replay is the gateway's, here a stand-in that says what it was asked;
// gateway's TestWaybackTwoCrawls replays real captures).
func TestHandlerPaths(t *testing.T) {
	ix := openTest(t)
	h := &Handler{Index: ix, Collection: "web", Replay: func(w http.ResponseWriter, r *http.Request, target string, at time.Time) {
		io.WriteString(w, "replay "+target+" "+at.UTC().Format("20060102150405"))
	}}
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		method, path string
		code         int
		header, want string // a header's value that must be there ("Name: value"), a body's part
	}{
		{"GET", "/web/", 200, "", "11 captures"},
		{"GET", "/web/cdx?url=example.com&output=json&fl=timestamp", 200, "Content-Type: text/x-ndjson; charset=utf-8", `{"timestamp": "20160101000000"}`},
		{"GET", "/web/cdx?url=example.com&limit=x", 400, "", "limit"},
		{"GET", "/web/cdx", 400, "", "url"},
		{"HEAD", "/web/cdx?url=example.com", 200, "Content-Type: text/x-cdxj; charset=utf-8", ""},
		{"POST", "/web/cdx?url=example.com", 405, "Allow: GET, HEAD", ""},
		{"GET", "/web/20150601000000/http://example.com/", 200, "Memento-Datetime: Mon, 01 Jun 2015 00:00:00 GMT", "replay http://example.com/ 20150601000000"},
		{"GET", "/web/20150601000000/example.com/", 200, "", "replay http://example.com/ 20150601000000"},
		{"GET", "/web/2015/http://example.com/", 302, "Location: http://HOST/web/20150601000000/http://example.com/", ""},
		{"GET", "/web/2014/http://example.com/", 302, "Location: http://HOST/web/20140101000000/http://example.com/", ""},
		{"GET", "/web/2016/http://example.com/", 302, "Location: http://HOST/web/20160101000000/http://example.com/", ""},
		{"GET", "/web/20150601000000/http://example.org/", 404, "", "no capture"},
		{"GET", "/web/http://example.com/", 302, "Location: http://HOST/web/20160101000000/http://example.com/", ""},
		{"GET", "/web/gopher://gopher.example.com/0/ReadMe", 302, "Location: http://HOST/web/20150101000000/gopher://gopher.example.com/0/ReadMe", ""},
		{"GET", "/web/gopher://gopher.example.com/0/README", 404, "", ""},
		{"GET", "/web/timemap/link/example.com/", 200, "Content-Type: application/link-format", `rel="last memento"; datetime="Fri, 01 Jan 2016 00:00:00 GMT"`},
		{"GET", "/web/timemap/json/example.com/", 200, "", `"digest": "sha1:C"`},
		{"GET", "/web/timemap/xml/example.com/", 404, "", "timemap/link"},
		{"GET", "/web/*/example.com/", 200, "Content-Type: text/html; charset=utf-8", `href="/web/20160101000000/https://www.example.com/"`},
		{"GET", "/web/2015*/example.com/", 200, "", "1 capture "},
		{"GET", "/web/*/example.org/", 404, "", "0 captures"},
		{"GET", "/web/http://[bad/", 400, "", "Not a URL"},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		host := strings.TrimPrefix(srv.URL, "http://")
		if res.StatusCode != c.code || !strings.Contains(string(b), c.want) {
			t.Errorf("%s %s: %d %q", c.method, c.path, res.StatusCode, b)
		}
		if name, val, ok := strings.Cut(c.header, ": "); ok && res.Header.Get(name) != strings.ReplaceAll(val, "HOST", host) {
			t.Errorf("%s %s: %s: %q", c.method, c.path, name, res.Header.Get(name))
		}
	}
}

func TestValidCollection(t *testing.T) {
	for name, ok := range map[string]bool{"web": true, "my-coll_2": true, "": false, "-": false, "a b": false, "a/b": false, "é": false, strings.Repeat("a", 65): false} {
		if ValidCollection(name) != ok {
			t.Errorf("%q: %v", name, !ok)
		}
	}
}
