package archive

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
)

// TestMaskCredentials: the credentials of an HTTP request's header are
// masked field by field (RFC 9110 §11.4's auth-scheme kept, RFC 6265
// §4.2.1's cookie names kept), the request line's absolute-form target
// (RFC 9112 §3.2.2) without its password, and nothing else changed:
// not the content, not a field that carries no credential, not a
// request that has none.
func TestMaskCredentials(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"GET / HTTP/1.1\r\nHost: h\r\nAuthorization: Basic dTpzZWtyaXQ=\r\n\r\n",
			"GET / HTTP/1.1\r\nHost: h\r\nAuthorization: Basic ****\r\n\r\n"},
		{"GET / HTTP/1.1\r\nauthorization:Bearer  abc.def.ghi\r\n\r\n",
			"GET / HTTP/1.1\r\nauthorization:Bearer ****\r\n\r\n"},
		{"GET / HTTP/1.1\r\nAuthorization: sekrit\r\n\r\n",
			"GET / HTTP/1.1\r\nAuthorization: ****\r\n\r\n"},
		{"GET http://u:sekrit@h/p HTTP/1.1\r\nProxy-Authorization: Basic cDpx\r\n\r\n",
			"GET http://u:****@h/p HTTP/1.1\r\nProxy-Authorization: Basic ****\r\n\r\n"},
		{"GET / HTTP/1.1\r\nCookie: sid=s3cr3t; theme=dark;lang\r\nAccept: */*\r\n\r\n",
			"GET / HTTP/1.1\r\nCookie: sid=****; theme=****;****\r\nAccept: */*\r\n\r\n"},
		{"GET / HTTP/1.1\nX-Auth-Token: t0k3n\nX-API-Key: k3y\nX-Session-Id: 42\nUser-Agent: locator\n\n",
			"GET / HTTP/1.1\nX-Auth-Token: ****\nX-API-Key: ****\nX-Session-Id: ****\nUser-Agent: locator\n\n"},
		{"POST /f HTTP/1.1\r\nCookie: a=b\r\nContent-Length: 20\r\n\r\nCookie: body=stays\r\n",
			"POST /f HTTP/1.1\r\nCookie: a=****\r\nContent-Length: 20\r\n\r\nCookie: body=stays\r\n"},
		{"GET / HTTP/1.1\r\nHost: h\r\nAccept: text/html\r\n\r\n", ""},
		{"GET http://h/a:b@c HTTP/1.1\r\n\r\n", ""},
		{"GET / HTTP/1.1\r\nAuthorization:\r\n\r\n", ""},
	} {
		in := bytesBlock(c.in)
		out, err := maskCredentials(in)
		if err != nil {
			t.Fatal(err)
		}
		want := c.want
		if want == "" {
			want = c.in
			if _, same := out.(bytesBlock); !same || out.Size() != in.Size() {
				t.Errorf("%q: a request with nothing to mask was copied", c.in)
			}
		}
		got, _ := io.ReadAll(io.NewSectionReader(out, 0, out.Size()))
		if string(got) != want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, want)
		}
	}
	// A request kept in a temporary file (a large POST): the head is
	// masked, the content read from the file as it is.
	body := strings.Repeat("x", 300<<10)
	sp := spool(t, []byte("POST / HTTP/1.1\r\nCookie: a=b\r\n\r\n"+body))
	defer sp.Close()
	out, err := maskCredentials(sp)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(io.NewSectionReader(out, 0, out.Size()))
	if string(got) != "POST / HTTP/1.1\r\nCookie: a=****\r\n\r\n"+body {
		t.Errorf("a large request: %d octets, %q...", len(got), got[:min(len(got), 60)])
	}
}

// TestWriterMasksCredentials: a Writer masks an HTTP request record's
// credentials by default and keeps them with KeepCredentials; the
// request record's WARC-Block-Digest is of the octets written (WARC
// 1.1 §5.9), so that the record still reads back, here and in warcio.
func TestWriterMasksCredentials(t *testing.T) {
	req := "GET /a HTTP/1.1\r\nHost: h\r\nAuthorization: Basic dTpzZWtyaXQ=\r\nCookie: sid=s3cr3t\r\n\r\n"
	for _, keep := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "m.warc.gz")
		writeAll(t, path, Options{KeepCredentials: keep}, []*access.Record{exchange(t, "http://h/a", "http/1.1", req, httpResp)})
		checkWarcio(t, path) // the masked request's digest is of its octets
		r, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := r.Lookup(context.Background(), mustParse(t, "http://h/a"))
		if err != nil || rec.Request == nil {
			t.Fatalf("keep %v: %v %v", keep, err, r.Problems())
		}
		got := readAll(t, rec.Request)
		want := "GET /a HTTP/1.1\r\nHost: h\r\nAuthorization: Basic ****\r\nCookie: sid=****\r\n\r\n"
		if keep {
			want = req
		}
		if got != want {
			t.Errorf("keep %v: the request record holds %q, want %q", keep, got, want)
		}
		rec.Close()
		r.Close()
	}
}

// FuzzMaskHead: whatever a request's header holds, masking it again
// changes nothing (no credential is left), a line is masked only where
// a credential's field or a target's password is, every line keeps its
// name and end, and a line that is not a field (no colon) is kept.
func FuzzMaskHead(f *testing.F) {
	f.Add([]byte("GET / HTTP/1.1\r\nAuthorization: Basic dTpzZWtyaXQ=\r\nCookie: a=b; c\r\n"))
	f.Add([]byte("GET http://u:p@h/ HTTP/1.1\nX-Token: t\n"))
	f.Add([]byte("GET / HTTP/1.1\r\nHost: h\r\n"))
	f.Fuzz(func(t *testing.T, head []byte) {
		out, changed := maskHead(head)
		if !changed && !bytes.Equal(out, head) {
			t.Fatalf("unchanged, yet %q became %q", head, out)
		}
		again, _ := maskHead(out)
		if !bytes.Equal(again, out) {
			t.Fatalf("%q masked is %q, masked again %q", head, out, again)
		}
		in, got := bytes.SplitAfter(head, []byte("\n")), bytes.SplitAfter(out, []byte("\n"))
		if len(in) != len(got) {
			t.Fatalf("%d lines became %d: %q -> %q", len(in), len(got), head, out)
		}
		for i := 1; i < len(in); i++ {
			a, b := in[i], got[i]
			name, _, ok := bytes.Cut(a, []byte(":"))
			if !ok {
				if !bytes.Equal(a, b) {
					t.Fatalf("line %q, not a field, became %q", a, b)
				}
				continue
			}
			if !bytes.HasPrefix(b, append(name, ':')) {
				t.Fatalf("line %q lost its name: %q", a, b)
			}
			end := func(l []byte) []byte { return l[len(bytes.TrimRight(l, "\r\n")):] }
			if !bytes.Equal(end(a), end(b)) && len(bytes.TrimRight(a, "\r\n")) > len(name)+1 {
				t.Fatalf("line %q lost its end: %q", a, b)
			}
			if !bytes.Equal(a, b) && !sensitiveField(bytes.TrimSpace(name)) && !equalLower(bytes.TrimSpace(name), "authorization") &&
				!equalLower(bytes.TrimSpace(name), "proxy-authorization") && !equalLower(bytes.TrimSpace(name), "cookie") {
				t.Fatalf("line %q of no credential became %q", a, b)
			}
		}
	})
}
