package http

import (
	"bytes"
	"context"
	nethttp "net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

func probe(t *testing.T, u string) (*access.Status, string) {
	t.Helper()
	var log bytes.Buffer
	st := (&access.Client{Dialogue: &log}).Probe(context.Background(), loctest.MustParse(t, u))
	return st, log.String()
}

// TestProbeNginx: HEAD to nginx (RFC 9110 §9.3.2), the status of each
// answer, the size and date of a file, a redirection followed.
func TestProbeNginx(t *testing.T) {
	addr, _ := startNginx(t)
	base := "http://" + addr
	for _, c := range []struct {
		path, state, code string
		size              int64
	}{
		{"/a.txt", "ok", "200", 6},
		{"/dir/b.bin", "ok", "200", 3000},
		{"/redir", "ok", "200", 15}, // /index.html
		{"/missing", "gone", "404", -1},
		{"/gone", "gone", "410", -1},
		{"/secret", "refused", "403", -1},
		{"/boom", "refused", "500", -1},
	} {
		st, log := probe(t, base+c.path)
		if string(st.State) != c.state || st.Code != c.code || st.Size != c.size {
			t.Errorf("%s: %s %s size %d, want %s %s %d\n%s", c.path, st.State, st.Code, st.Size, c.state, c.code, c.size, log)
		}
		if !strings.Contains(log, "> HEAD ") || strings.Contains(log, "> GET ") {
			t.Errorf("%s: not HEAD alone:\n%s", c.path, log)
		}
	}
	st, _ := probe(t, base+"/a.txt")
	if !st.Modified.Equal(modified) {
		t.Errorf("modified %v, want %v", st.Modified, modified)
	}
	st, _ = probe(t, base+"/bad-port")
	if st.State != access.StatePolicy {
		t.Errorf("a redirection to port 25: %s, want policy (RFC 1738 §6)", st.State)
	}
}

// TestProbeRangedGet: a server that refuses HEAD (405, 501) is asked
// for the first octet, "Range: bytes=0-0" (RFC 9110 §14.1.2); the size
// is the 206's Content-Range total.
func TestProbeRangedGet(t *testing.T) {
	var ranges []string
	srv := httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		if r.Method == nethttp.MethodHead {
			if r.URL.Path == "/501" {
				w.WriteHeader(501)
				return
			}
			w.WriteHeader(405)
			return
		}
		ranges = append(ranges, r.Header.Get("Range"))
		switch r.URL.Path {
		case "/missing":
			nethttp.NotFound(w, r)
		case "/empty":
			nethttp.ServeContent(w, r, "empty.txt", time.Time{}, strings.NewReader(""))
		default:
			nethttp.ServeContent(w, r, "x.txt", modified, strings.NewReader("0123456789"))
		}
	}))
	defer srv.Close()
	for _, c := range []struct {
		path, state, code string
		size              int64
	}{
		{"/x", "ok", "206", 10},
		{"/501", "ok", "206", 10},
		{"/missing", "gone", "404", -1},
		{"/empty", "ok", "200", -1},
	} {
		st, log := probe(t, srv.URL+c.path)
		if string(st.State) != c.state || st.Code != c.code || st.Size != c.size {
			t.Errorf("%s: %s %s size %d, want %s %s %d\n%s", c.path, st.State, st.Code, st.Size, c.state, c.code, c.size, log)
		}
	}
	if strings.Join(ranges, ",") != "bytes=0-0,bytes=0-0,bytes=0-0,bytes=0-0" {
		t.Errorf("ranges sent %q", ranges)
	}
}
