package http

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

func TestParts(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://host", `{}`},
		{"http://host/", `{"path":""}`},
		{"http://host/?", `{"path":"","search":""}`},
		{"http://host/a%20b/c?q%3Dx&y=1", `{"path":"a b/c","search":"q=x&y=1"}`},
		{"http://host/path;param?query#frag", `{"path":"path;param","search":"query"}`},
		{"https://host:8443/x", `{"path":"x"}`},
		{"http://host?q", `{"search":"q"}`},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(locator.Lookup(u.Scheme()).Parts(u)); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(b.String(), "\n"); got != tt.want {
			t.Errorf("Parts(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestSegments(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"http://host", nil},
		{"http://host/", []string{""}},
		{"http://host/a%2Fb/c/", []string{"a/b", "c", ""}},
	}
	for _, tt := range tests {
		if got := Segments(loctest.MustParse(t, tt.in)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Segments(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		want []string // "offset rule"
	}{
		{"http://host/a;b:c@d&e=f?g;h:i@j&k=l", nil},
		{"http://host", nil},
		{"https://host/", nil},
		{"http://user@host/", []string{"7 httpurl"}},
		{"http://user:pw@host/", []string{"7 httpurl"}},
		{"https://:@host/", []string{"8 httpurl"}},
		{"http://host?q", []string{"11 httpurl"}},
		{"http://a/b/c/g?y/./x", []string{"16 search", "18 search"}},
		{"http://a/?x?y/z", []string{"11 search", "13 search"}},
		{"<URL:http://a/?/>", []string{"15 search"}},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		var got []string
		for _, p := range (Rules{}).Check(u, locator.Report{}).Problems() {
			if p.Severity != locator.Violation {
				t.Errorf("%q: severity %v", tt.in, p.Severity)
			}
			got = append(got, strconv.Itoa(p.Offset)+" "+p.Rule)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Check(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if u.Conforms() != (len(tt.want) == 0) {
			t.Errorf("Parse(%q).Conforms() = %v", tt.in, u.Conforms())
		}
	}
}

func TestRequest(t *testing.T) {
	tests := []struct {
		in, line, host, addr, proxy string
	}{
		{"http://host", "GET / HTTP/1.0", "host", "host:80", "GET http://host HTTP/1.0"},
		{"http://host/", "GET / HTTP/1.0", "host", "host:80", "GET http://host/ HTTP/1.0"},
		{"http://ds.internic.net/instructions/overview.html#WARNING", "GET /instructions/overview.html HTTP/1.0",
			"ds.internic.net", "ds.internic.net:80", "GET http://ds.internic.net/instructions/overview.html HTTP/1.0"},
		{"http://a/b/c/d;p?q#f", "GET /b/c/d;p?q HTTP/1.0", "a", "a:80", "GET http://a/b/c/d;p?q HTTP/1.0"},
		{"HTTP://Host:8080/%7Euser/?", "GET /%7Euser/? HTTP/1.0", "Host:8080", "Host:8080", "GET http://Host:8080/%7Euser/? HTTP/1.0"},
		// https through a proxy: CONNECT to open a tunnel (RFC 9110 §9.3.6).
		{"https://[::1]/x", "GET /x HTTP/1.0", "[::1]", "[::1]:443", "CONNECT [::1]:443 HTTP/1.1"},
		// A host name with non-ASCII characters goes on the wire as its
		// A-label (RFC 5890 §2.3.2.1); an ASCII host stays as written.
		{"http://BÜCHER.example:8080/a", "GET /a HTTP/1.0", "xn--bcher-kva.example:8080", "xn--bcher-kva.example:8080", "GET http://xn--bcher-kva.example:8080/a HTTP/1.0"},
		{"http://u:p@h/x", "GET /x HTTP/1.0", "h", "h:80", "GET http://h/x HTTP/1.0"},
		// Spaces and other unsafe octets are encoded for the request line;
		// %0D%0A stays encoded: it is never decoded by the client.
		{"http://h/a b?c\"d", "GET /a%20b?c%22d HTTP/1.0", "h", "h:80", "GET http://h/a%20b?c%22d HTTP/1.0"},
		{"http://h/%0D%0A", "GET /%0D%0A HTTP/1.0", "h", "h:80", "GET http://h/%0D%0A HTTP/1.0"},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		r, err := NewRequest(u)
		if err != nil {
			t.Errorf("NewRequest(%q): %v", tt.in, err)
			continue
		}
		if r.Line() != tt.line || r.Host != tt.host || r.Addr != tt.addr || r.TLS != (u.Scheme() == "https") {
			t.Errorf("NewRequest(%q) = %q %q %q %v, want %q %q %q", tt.in, r.Line(), r.Host, r.Addr, r.TLS, tt.line, tt.host, tt.addr)
		}
		p, err := NewProxyRequest(u)
		if err != nil || p.Line() != tt.proxy {
			t.Errorf("NewProxyRequest(%q) = %v %v, want %q", tt.in, p, err, tt.proxy)
		}
	}
	// A proxy takes URLs of every scheme.
	for in, want := range map[string]string{
		"ftp://u:p@host/pub/x;type=i#f": "GET ftp://u:p@host/pub/x;type=i HTTP/1.0",
		"news:comp.infosystems.www":     "GET news:comp.infosystems.www HTTP/1.0",
		"gopher://h/1a%09b":             "GET gopher://h/1a%09b HTTP/1.0",
	} {
		p, err := NewProxyRequest(loctest.MustParse(t, in))
		if err != nil || p.Line() != want {
			t.Errorf("NewProxyRequest(%q) = %v %v, want %q", in, p, err, want)
		}
	}
	for _, in := range []string{"ftp://host/x", "http:///x", "http:x"} {
		_, err := NewRequest(loctest.MustParse(t, in))
		if _, ok := err.(*RequestError); !ok {
			t.Errorf("NewRequest(%q) error = %v, want *RequestError", in, err)
		}
	}
	if _, err := NewProxyRequest(loctest.MustParse(t, "http:///x")); err == nil {
		t.Error("NewProxyRequest(http:///x) did not fail")
	}
}

// TestProxyConnect: an https URL through a proxy is a CONNECT request in
// authority form, the port always written, Host the same authority, and
// the origin-form request inside the tunnel (RFC 9110 §9.3.6, RFC 7231
// §4.3.6). http and other schemes keep the absolute form.
func TestProxyConnect(t *testing.T) {
	tests := []struct {
		in, line, host, tunnelLine, tunnelHost string
	}{
		{"https://h/x?q#f", "CONNECT h:443 HTTP/1.1", "h:443", "GET /x?q HTTP/1.0", "h"},
		{"https://u:p@H.example:8443/a%20b", "CONNECT H.example:8443 HTTP/1.1", "H.example:8443", "GET /a%20b HTTP/1.0", "H.example:8443"},
		{"https://[2001:db8::1]", "CONNECT [2001:db8::1]:443 HTTP/1.1", "[2001:db8::1]:443", "GET / HTTP/1.0", "[2001:db8::1]"},
		{"https://BÜCHER.example/", "CONNECT xn--bcher-kva.example:443 HTTP/1.1", "xn--bcher-kva.example:443", "GET / HTTP/1.0", "xn--bcher-kva.example"},
	}
	for _, tt := range tests {
		p, err := NewProxyRequest(loctest.MustParse(t, tt.in))
		if err != nil {
			t.Errorf("NewProxyRequest(%q): %v", tt.in, err)
			continue
		}
		if p.Line() != tt.line || p.Host != tt.host || p.Method != "CONNECT" || p.Tunnel == nil {
			t.Errorf("NewProxyRequest(%q) = %q Host %q tunnel %v, want %q Host %q", tt.in, p.Line(), p.Host, p.Tunnel, tt.line, tt.host)
			continue
		}
		if p.Tunnel.Line() != tt.tunnelLine || p.Tunnel.Host != tt.tunnelHost || !p.Tunnel.TLS {
			t.Errorf("NewProxyRequest(%q).Tunnel = %q Host %q TLS %v, want %q Host %q", tt.in, p.Tunnel.Line(), p.Tunnel.Host, p.Tunnel.TLS, tt.tunnelLine, tt.tunnelHost)
		}
	}
	for _, in := range []string{"http://h/x", "ftp://h/x"} {
		p, err := NewProxyRequest(loctest.MustParse(t, in))
		if err != nil || p.Method != "GET" || p.Tunnel != nil || !strings.HasPrefix(p.Line(), "GET "+in+" ") {
			t.Errorf("NewProxyRequest(%q) = %+v %v, want GET in absolute form", in, p, err)
		}
	}
	// explain says CONNECT, then the request in the tunnel.
	ex := Rules{}.Explain(loctest.MustParse(t, "https://h/x"))
	for _, want := range []string{"Through a proxy: CONNECT h:443 HTTP/1.1\n  Host: h:443\n", "through the tunnel, and in it\n  GET /x HTTP/1.0\n  Host: h\n"} {
		if !strings.Contains(ex, want) {
			t.Errorf("Explain(https://h/x) lacks %q:\n%s", want, ex)
		}
	}
	if strings.Contains(ex, "GET https://") {
		t.Errorf("Explain(https://h/x) sends GET to a proxy:\n%s", ex)
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		r    URL
		want string
	}{
		{URL{Host: "host"}, "http://host"},
		{URL{Host: "host", Segments: []string{""}}, "http://host/"},
		{URL{Scheme: "https", Host: "h", Port: "8443", Segments: []string{"a b", "c/d", "e;f?"}},
			"https://h:8443/a%20b/c%2Fd/e;f%3F"},
		{URL{Host: "h", Search: "q=a b&r=/x?", HasSearch: true}, "http://h/?q=a%20b&r=%2Fx%3F"},
		{URL{Host: "::1", Segments: []string{"x"}}, "http://[::1]/x"},
	}
	for _, tt := range tests {
		got, err := tt.r.Build()
		if err != nil || got != tt.want {
			t.Errorf("Build(%+v) = %q %v, want %q", tt.r, got, err, tt.want)
		}
	}
	for _, r := range []URL{{Host: ""}, {Host: "a_b c"}, {Host: "h", Port: "80x"}, {Scheme: "ftp", Host: "h"}, {Host: "a#b"}, {Host: "h", Port: "1/"}, {Host: "a?b"}} {
		if s, err := r.Build(); err == nil {
			t.Errorf("Build(%+v) = %q, want an error", r, s)
		} else if _, ok := err.(*locator.BuildError); !ok {
			t.Errorf("Build(%+v) error %T", r, err)
		}
	}
}

// TestFrom: From reads http and https URLs, and refuses a URL of another
// scheme with a *locator.SchemeError of field "url"; Parse is
// locator.Parse then From.
func TestFrom(t *testing.T) {
	h, err := Parse("https://h:8443/a%20b/c%2Fd?q=x%20y#f")
	want := URL{Scheme: "https", Host: "h", Port: "8443", Segments: []string{"a b", "c/d"}, Search: "q=x y", HasSearch: true}
	if err != nil || !reflect.DeepEqual(*h, want) {
		t.Errorf("Parse = %+v %v, want %+v", h, err, want)
	}
	if f, err := Parse("http://h:99999/x"); err == nil {
		t.Errorf("Parse(http://h:99999/x) = %+v, want a *locator.ParseError", f)
	} else if _, ok := err.(*locator.ParseError); !ok {
		t.Errorf("Parse(http://h:99999/x) error %T, want *locator.ParseError", err)
	}
	for _, s := range []string{"ftp://h/x", "gopher://h/1"} {
		h, err := From(loctest.MustParse(t, s))
		se, ok := err.(*locator.SchemeError)
		if h != nil || !ok || se.Scheme != "http" || se.Field != "url" {
			t.Errorf("From(%s) = %+v %v, want a *locator.SchemeError of field url", s, h, err)
		}
	}
}

func readTSV(t *testing.T, rel string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "shared", "conformance", rel))
	if os.IsNotExist(err) {
		t.Skip("conformance data not present: " + rel)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	return rows
}

// TestTextExamples reads every http URL the texts (RFC 1738, draft 03,
// RFC 1808) write in wrappers: each parses, stands for a request that
// leaves out the fragment, and conforms unless its search holds a "/" or
// "?" (RFC 1808's own "g?y/./x" does, against RFC 1738 §5 search) or it
// is one of RFC 1808's relative forms that keep the scheme ("http:g").
func TestTextExamples(t *testing.T) {
	n := 0
	for _, row := range readTSV(t, "rfc/in-text-wrapped-urls.tsv") {
		in := row[3]
		if !strings.HasPrefix(in, "http:") {
			continue
		}
		n++
		u := loctest.MustParse(t, in)
		r, err := NewRequest(u)
		if !u.HasAuthority() {
			// RFC 1808's "http:g" and "http:" are relative forms that keep
			// the scheme; as absolute URLs they name no host.
			if _, ok := err.(*RequestError); !ok || u.Conforms() {
				t.Errorf("%s: %v, conforms %v; want a RequestError and a violation", in, err, u.Conforms())
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if strings.Contains(r.Target, "#") || !strings.HasPrefix(r.Target, "/") {
			t.Errorf("%s: target %q", in, r.Target)
		}
		want := !strings.ContainsAny(u.Search(), "/?")
		if u.Conforms() != want {
			t.Errorf("%s: conforms %v, want %v: %v", in, u.Conforms(), want, u.Problems())
		}
	}
	if n < 20 {
		t.Errorf("only %d http examples", n)
	}
}

// TestPerlURI checks the http rows of perl-uri/extracted/
// scheme_components_handwritten.tsv that concern this package.
func TestPerlURI(t *testing.T) {
	n := 0
	for _, row := range readTSV(t, "perl-uri/extracted/scheme_components_handwritten.tsv") {
		in, want := row[1], row[3]
		switch {
		case strings.HasPrefix(in, "<http://www.example.com/path?q=f"):
			// URI encodes the raw octet 0xF4; so do the request line and
			// Build from the decoded components.
			n++
			u := loctest.MustParse(t, strings.ReplaceAll(in, `\xf4`, "\xf4"))
			r, _ := NewRequest(u)
			if "http://"+r.Host+r.Target != want {
				t.Errorf("%s: request %s%s, want %s", in, r.Host, r.Target, want)
			}
			if s, err := mustFrom(t, u).Build(); err != nil || s != want {
				t.Errorf("%s: From(u).Build() = %q %v, want %s", in, s, err, want)
			}
		case strings.HasPrefix(in, "http://%65%78"):
			// URI's canonical form decodes the host and path. The host's
			// escapes are a violation here (RFC 1738 §3.1 hostname); the
			// path is rebuilt with only the escapes hsegment needs.
			n++
			u := loctest.MustParse(t, in)
			if u.Conforms() {
				t.Errorf("%s: an encoded host must be a violation", in)
			}
			r := mustFrom(t, u)
			r.Host = locator.Decode(r.Host)
			if s, err := r.Build(); err != nil || s != want {
				t.Errorf("%s: Build = %q %v, want %s", in, s, err, want)
			}
		case in == "http://host/path;param?query#frag":
			// URI separates ";param"; for RFC 1738 it is part of the hsegment.
			n++
			b, _ := json.Marshal(Rules{}.Parts(loctest.MustParse(t, in)))
			if string(b) != `{"path":"path;param","search":"query"}` || !strings.Contains(want, "*/path*param*query*frag") {
				t.Errorf("%s: parts %s (URI: %s)", in, b, want)
			}
		}
	}
	if n != 3 {
		t.Errorf("%d http rows, want 3", n)
	}
}

var (
	_ locator.Rules     = Rules{}
	_ locator.Explainer = Rules{}
)

// mustFrom returns From(u), failing the test when From fails.
func mustFrom(t *testing.T, u *locator.URL) *URL {
	t.Helper()
	h, err := From(u)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestSlashOrQuery holds the eight-at-a-time search to the plain one: any
// octet at any place of the first and second word and of the tail, alone
// and before a second octet that a borrow could mark.
func TestSlashOrQuery(t *testing.T) {
	plain := func(s string) int { return strings.IndexAny(s, "/?") }
	var seconds = []byte{'/', '?', '>', '.', 0x1F, 0x3E, 0x40, 0x00, 0xFF, 'a'}
	for n := 0; n <= 19; n++ {
		for i := 0; i < n; i++ {
			for c := 0; c < 256; c++ {
				b := []byte(strings.Repeat("a", n))
				b[i] = byte(c)
				if got, want := slashOrQuery(string(b)), plain(string(b)); got != want {
					t.Fatalf("slashOrQuery(%q) = %d, want %d", b, got, want)
				}
				for j := i + 1; j < n; j++ {
					for _, d := range seconds {
						b[j] = d
						if got, want := slashOrQuery(string(b)), plain(string(b)); got != want {
							t.Fatalf("slashOrQuery(%q) = %d, want %d", b, got, want)
						}
						b[j] = 'a'
					}
				}
			}
		}
	}
}
