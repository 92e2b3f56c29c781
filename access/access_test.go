package access

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator"
)

// The dispatch tests register two small in-test clients, for the schemes
// "tst" (default port 80) and "tsu" (default port 70), whose replies a
// test sets per URL. They stand for no protocol: protocol behaviour is
// tested in each scheme's package against real servers.

type route func(req *Request) (*Resource, error)

type fakeFetcher struct {
	mu      sync.Mutex
	routes  map[string]route // by URL as String writes it
	checkFn func(u *locator.URL) error
	fetched []string // URLs fetched, in order
}

func (f *fakeFetcher) Check(u *locator.URL, req *Request) error {
	if f.checkFn != nil {
		return f.checkFn(u)
	}
	return nil
}

func (f *fakeFetcher) Fetch(ctx context.Context, u *locator.URL, req *Request) (*Resource, error) {
	f.mu.Lock()
	f.fetched = append(f.fetched, u.String())
	r := f.routes[u.String()]
	f.mu.Unlock()
	if r == nil {
		return nil, &ServerError{URL: Masked(u), Code: "404", Text: "no route"}
	}
	return r(req)
}

func (f *fakeFetcher) reset(routes map[string]route) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.routes, f.fetched, f.checkFn = routes, nil, nil
}

var (
	tst = &fakeFetcher{}
	tsu = &fakeFetcher{}
	tsl = &fakeFetcher{} // a scheme that makes no connection, as file
)

func init() {
	Register("tst", Info{DefaultPort: 80, Methods: []string{"first", "second"}}, func() Fetcher { return tst })
	Register("tsu", Info{DefaultPort: 70}, func() Fetcher { return tsu })
	Register("tsl", Info{}, func() Fetcher { return tsl })
}

func mustParse(t testing.TB, s string) *locator.URL {
	t.Helper()
	u, err := locator.Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return u
}

func body(s string) route {
	return func(req *Request) (*Resource, error) {
		return &Resource{Body: io.NopCloser(strings.NewReader(s)), Size: int64(len(s))}, nil
	}
}

func redirect(loc string) route {
	return func(req *Request) (*Resource, error) { return nil, &Redirect{Location: loc, Code: "301"} }
}

func TestRegistry(t *testing.T) {
	info, ok := Lookup("tst")
	if !ok || info.DefaultPort != 80 {
		t.Fatalf("Lookup(tst) = %v %v", info, ok)
	}
	if f, _, err := new(Client).fetcher("tst"); err != nil || f != Fetcher(tst) {
		t.Fatalf("a Client's tst client = %v %v", f, err)
	}
	if _, ok := Lookup("nope"); ok {
		t.Fatal("Lookup(nope) found a client")
	}
	// The external tests of this package link every scheme's client in
	// beside the test clients.
	got := Schemes()
	if !slices.IsSorted(got) || !slices.Contains(got, "tsl") || !slices.Contains(got, "tst") || !slices.Contains(got, "tsu") {
		t.Errorf("Schemes() = %q, want a sorted list with tsl, tst and tsu", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second Register for tst did not panic")
		}
	}()
	Register("tst", Info{}, func() Fetcher { return tst })
}

// RFC 1738 §6: a port of another service is refused unless allowed; a
// scheme's own default port is always fine.
func TestPolicyPorts(t *testing.T) {
	tests := []struct {
		url    string
		allow  []int
		refuse bool
		offset int
	}{
		{"tst://127.0.0.1:25/", nil, true, 16},
		{"tst://127.0.0.1:25/", []int{25}, false, 0},
		{"tst://127.0.0.1:25/", []int{119, 24}, true, 16},
		{"tst://h:80/", nil, false, 0}, // the default
		{"tsu://h:70/", nil, false, 0}, // the default
		{"tsu://h:80/", nil, false, 0}, // not a bad port
		{"tst://h:8080/", nil, false, 0},
		{"tst://h:6667/", nil, true, 8}, // irc
		{"tst://h:21/", nil, true, 8},
		{"tst://h/", nil, false, 0},
		{"tst://h:/", nil, false, 0}, // empty port: the default
		{"<URL:tst://h:110/>", nil, true, 13},
	}
	for _, tt := range tests {
		tst.reset(map[string]route{})
		tsu.reset(map[string]route{})
		u := mustParse(t, tt.url)
		_, err := (&Client{Policy: Policy{AllowPorts: tt.allow}}).Get(context.Background(), u)
		var pe *PolicyError
		if got := errors.As(err, &pe); got != tt.refuse {
			t.Errorf("%s allow %v: err %v, refused %v, want %v", tt.url, tt.allow, err, got, tt.refuse)
			continue
		}
		if tt.refuse {
			if pe.Offset != tt.offset || pe.Rule != "RFC 1738 §6" || Classify(err) != Forbidden {
				t.Errorf("%s: offset %d rule %q outcome %d, want offset %d", tt.url, pe.Offset, pe.Rule, Classify(err), tt.offset)
			}
			if len(tst.fetched)+len(tsu.fetched) != 0 {
				t.Errorf("%s: refused but fetched %v %v", tt.url, tst.fetched, tsu.fetched)
			}
		} else if Classify(err) != Absent { // the fake's 404: it was fetched
			t.Errorf("%s: %v", tt.url, err)
		}
	}
}

func TestPolicyHosts(t *testing.T) {
	tests := []struct {
		host        string
		allow, deny []string
		ok          bool
	}{
		{"example.com", nil, nil, true},
		{"example.com", []string{"example.com"}, nil, true},
		{"EXAMPLE.com.", []string{"example.COM"}, nil, true},
		{"www.example.com", []string{"example.com"}, nil, false},
		{"www.example.com", []string{".example.com"}, nil, true},
		{"example.com", []string{".example.com"}, nil, true},
		{"badexample.com", []string{".example.com"}, nil, false},
		{"other.org", []string{".example.com"}, nil, false},
		{"example.com", nil, []string{"example.com"}, false},
		{"a.example.com", nil, []string{".example.com"}, false},
		{"a.example.org", nil, []string{".example.com"}, true},
		{"a.example.com", []string{".example.com"}, []string{"a.example.com"}, false}, // deny wins
		{"127.0.0.1", []string{"127.0.0.1"}, nil, true},
		{"::1", nil, []string{"::1"}, false},
	}
	for _, tt := range tests {
		p := Policy{Allow: mustRules(t, tt.allow...), Deny: mustRules(t, tt.deny...)}
		if got := p.allowsHost(tt.host, 0); got != tt.ok {
			t.Errorf("host %q allow %v deny %v: %v, want %v", tt.host, tt.allow, tt.deny, got, tt.ok)
		}
	}
	// Through Get: the offset is the host's.
	tst.reset(nil)
	_, err := (&Client{Policy: Policy{Deny: mustRules(t, ".example")}}).Get(context.Background(), mustParse(t, "tst://u@bad.example/x"))
	var pe *PolicyError
	if !errors.As(err, &pe) || pe.Offset != 8 || pe.Rule != "host" || len(tst.fetched) != 0 {
		t.Fatalf("denied host: %v %+v fetched %v", err, pe, tst.fetched)
	}
}

// RFC 1738 §6: a decoded CR, LF or NUL in the user or password would end
// a login command early; refused with its offset, the password masked in
// the message.
func TestPolicyDelimiters(t *testing.T) {
	tests := []struct {
		url    string
		offset int // -1: allowed
	}{
		{"tst://us%0Der:pw@h/", 8},
		{"tst://user:p%0aw@h/", 12},
		{"tst://user:secret%00@h/", 17},
		{"tst://user:%0@h/", -1}, // not a whole escape
		{"tst://user:%20x@h/", -1},
		{"tst://h/a%0Db", -1}, // the path is the client's Check's to judge
	}
	for _, tt := range tests {
		tst.reset(nil)
		_, err := (&Client{}).Get(context.Background(), mustParse(t, tt.url))
		var pe *PolicyError
		refused := errors.As(err, &pe)
		if refused != (tt.offset >= 0) {
			t.Errorf("%s: %v", tt.url, err)
			continue
		}
		if !refused {
			continue
		}
		if pe.Offset != tt.offset {
			t.Errorf("%s: offset %d, want %d", tt.url, pe.Offset, tt.offset)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: the message shows the password: %v", tt.url, err)
		}
	}
}

func TestDelimiterAt(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", -1}, {"abc", -1}, {"a\rb", 1}, {"\n", 0}, {"ab\x00", 2},
		{"%0d", 0}, {"x%0A", 1}, {"xx%00", 2}, {"%0", -1}, {"%0b", -1},
		{"%09", -1}, {"%20%0D", 3}, {"%%0a", 1},
	}
	for _, tt := range tests {
		if got := DelimiterAt(tt.s); got != tt.want {
			t.Errorf("DelimiterAt(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestMasked(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ftp://user:secret@h/x", "ftp://user:****@h/x"},
		{"<URL:ftp://user:secret@h:21/x;type=a>", "ftp://user:****@h:21/x;type=a"},
		{"ftp://user:@h/", "ftp://user:****@h/"},
		{"ftp://user@h/", "ftp://user@h/"},
		{"http://h/a?b#c", "http://h/a?b#c"},
	}
	for _, tt := range tests {
		u := mustParse(t, tt.in)
		got := Masked(u)
		if got != tt.want {
			t.Errorf("Masked(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if u.HasPassword() && u.Password() != "" && strings.Contains(got, u.Password()) {
			t.Errorf("Masked(%q) shows the password", tt.in)
		}
	}
	if Masked(nil) != "" {
		t.Error("Masked(nil) not empty")
	}
	// Masked does not change u.
	u := mustParse(t, "ftp://a:b@h/")
	Masked(u)
	if u.Password() != "b" || u.String() != "ftp://a:b@h/" {
		t.Errorf("Masked changed its argument: %q", u.String())
	}
}

// TestDialogue: secrets are masked by field (PASS's argument), never by
// searching the line for the password's text, which garbled a line that
// contains it ("local ****olicy" for the password "p") and told where its
// letters are; every line passes the one printable rule (C0, DEL and C1
// controls escaped).
func TestDialogue(t *testing.T) {
	var log strings.Builder
	u := mustParse(t, "tst://joe:p@h/")
	req := &Request{Client: &Client{Dialogue: &log}, URL: u}
	req.Sent("USER joe")
	req.SentSecret("PASS")
	req.Received("530 local policy\r\x1b[31m\u009b2J")
	req.Notef("connect %s", "127.0.0.1:80")
	want := "> USER joe\n> PASS ****\n< 530 local policy\\x0d\\x1b[31m\\u009b2J\n* connect 127.0.0.1:80\n"
	if log.String() != want {
		t.Errorf("dialogue:\n%q\nwant\n%q", log.String(), want)
	}
	// No writer: nothing happens.
	(&Request{Client: &Client{}, URL: u}).Sent("x")
}

func TestLimit(t *testing.T) {
	for _, tt := range []struct {
		max     int64
		n       int
		tooBig  bool
		deliver int
	}{
		{10, 9, false, 9},
		{10, 10, false, 10},
		{10, 11, true, 10},
		{10, 1000, true, 10},
		{1, 0, false, 0},
		{0, 5000, false, 5000}, // no limit
	} {
		req := &Request{Client: &Client{MaxSize: tt.max}}
		src := io.NopCloser(strings.NewReader(strings.Repeat("x", tt.n)))
		got, err := io.ReadAll(req.Limit(src))
		if errors.Is(err, ErrTooLarge) != tt.tooBig || (!tt.tooBig && err != nil) || len(got) != tt.deliver {
			t.Errorf("max %d, %d octets: read %d, err %v; want %d, too large %v", tt.max, tt.n, len(got), err, tt.deliver, tt.tooBig)
		}
		if tt.tooBig && Classify(err) != Failed {
			t.Errorf("ErrTooLarge is outcome %d", Classify(err))
		}
	}
}

func TestReadLine(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want []string // lines, then "EOF", "UEOF" or "LONG"
	}{
		{"abc\r\ndef\n", 5, []string{"abc", "def", "EOF"}},
		{"12345\r\n", 5, []string{"12345", "EOF"}},
		{"12345\n", 5, []string{"12345", "EOF"}},
		{"123456\n", 5, []string{"LONG"}},
		{"123456\r\n", 5, []string{"LONG"}},
		{"", 5, []string{"EOF"}},
		{"abc", 5, []string{"abc", "UEOF"}},
		{"abcdefg", 5, []string{"LONG"}},
		{"a\r\r\n", 5, []string{"a\r", "EOF"}},
		{"\n\n", 0, []string{"", "", "EOF"}},
		// Longer than bufio's smallest buffer (16): the ErrBufferFull path.
		{strings.Repeat("a", 40) + "\r\n" + "b\n", 40, []string{strings.Repeat("a", 40), "b", "EOF"}},
		{strings.Repeat("a", 41) + "\r\n", 40, []string{"LONG"}},
		{strings.Repeat("a", 40) + "\r", 40, []string{"LONG"}}, // at EOF the CR is content
		{strings.Repeat("a", 100000), 40, []string{"LONG"}},
	}
	for _, tt := range tests {
		for _, size := range []int{16, 4096} {
			br := newReaderSize(tt.in, size)
			var got []string
			for {
				line, err := ReadLine(br, tt.max)
				var pe *ProtocolError
				switch {
				case err == nil:
					got = append(got, line)
					continue
				case err == io.EOF:
					got = append(got, "EOF")
				case err == io.ErrUnexpectedEOF:
					got = append(got, line, "UEOF")
				case errors.As(err, &pe):
					got = append(got, "LONG")
				default:
					got = append(got, err.Error())
				}
				break
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("ReadLine(%.20q, %d) buffer %d = %q, want %q", tt.in, tt.max, size, got, tt.want)
			}
		}
	}
	// A flood is cut after max+2 octets at most past the buffer's start:
	// the reader does not run to the end of it.
	cr := &countingReader{r: strings.NewReader(strings.Repeat("z", 1<<20))}
	if _, err := ReadLine(newReaderFrom(cr, 16), 40); err == nil {
		t.Fatal("flood accepted")
	}
	if cr.n > 64 {
		t.Errorf("read %d octets of a flood with max 40", cr.n)
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		err  error
		want Outcome
	}{
		{nil, Delivered},
		{&ServerError{Code: "404"}, Absent},
		{fmt.Errorf("wrapped: %w", &ServerError{Code: "550"}), Absent},
		{&PolicyError{Rule: "port"}, Forbidden},
		{&UnsupportedError{Scheme: "x"}, Forbidden},
		{ErrNoPassword, Forbidden},
		{ErrTooLarge, Failed},
		{fmt.Errorf("reading: %w", ErrTooLarge), Failed},
		{&ProtocolError{Msg: "bad"}, Failed},
		{context.DeadlineExceeded, Failed},
		{&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, Failed},
		{io.ErrUnexpectedEOF, Failed},
		{&Redirect{Location: "x"}, Failed},
	}
	for _, tt := range tests {
		if got := Classify(tt.err); got != tt.want {
			t.Errorf("Classify(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&ServerError{URL: "ftp://h/x", Command: "RETR x", Code: "550", Text: "No such file"}, `ftp://h/x: the server says 550 No such file (to "RETR x")`},
		{&ServerError{Code: "404"}, `the server says 404`},
		{&ServerError{URL: "ftp://h//f", Command: "CWD ", Code: "550", Text: "Failed to change directory.", Rule: "RFC 1738 §3.2.2: an empty <cwd>"},
			`ftp://h//f: the server says 550 Failed to change directory. (to "CWD "): RFC 1738 §3.2.2: an empty <cwd>`},
		{&ServerError{Code: "530", Rule: "login refused"}, `the server says 530: login refused`},
		{&PolicyError{URL: "http://h:25/", Offset: 9, Rule: "RFC 1738 §6", Reason: "port"}, `http://h:25/: refused by local policy (RFC 1738 §6, at 9): port`},
		{&ProtocolError{Msg: "a reply line longer than 5 octets"}, `protocol error: a reply line longer than 5 octets`},
		{&ProtocolError{URL: "gopher://h/", Msg: "x"}, `gopher://h/: protocol error: x`},
		{&Redirect{Location: "http://a/", Code: "302"}, `redirected (302) to http://a/`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	ue := &UnsupportedError{Scheme: "zz"}
	if !strings.Contains(ue.Error(), `"zz"`) || !strings.Contains(ue.Error(), "tst, tsu") {
		t.Errorf("UnsupportedError: %v", ue)
	}
}

func TestGet(t *testing.T) {
	tst.reset(map[string]route{"tst://h/a": body("hello")})
	res, err := (&Client{}).Get(context.Background(), mustParse(t, "<URL:tst://h/a>"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	b, _ := io.ReadAll(res.Body)
	if string(b) != "hello" || res.URL.String() != "tst://h/a" || res.Size != 5 {
		t.Errorf("got %q from %s size %d", b, res.URL, res.Size)
	}
	if _, err := (&Client{}).Get(context.Background(), nil); Classify(err) != Forbidden {
		t.Errorf("Get(nil): %v", err)
	}
	_, err = (&Client{}).Get(context.Background(), mustParse(t, "zz://h/"))
	var ue *UnsupportedError
	if !errors.As(err, &ue) || Classify(err) != Forbidden {
		t.Errorf("unsupported scheme: %v", err)
	}
	// The client's Check runs before Fetch and its refusal stops Get.
	tst.reset(map[string]route{"tst://h/a": body("x")})
	tst.checkFn = func(u *locator.URL) error { return &PolicyError{Rule: "test", Reason: "no"} }
	if _, err := (&Client{}).Get(context.Background(), mustParse(t, "tst://h/a")); Classify(err) != Forbidden || len(tst.fetched) != 0 {
		t.Errorf("Check refusal: %v, fetched %v", err, tst.fetched)
	}
}

// A Redirect to another scheme is followed, checked anew by policy, and
// noted in the dialogue.
func TestGetRedirect(t *testing.T) {
	tst.reset(map[string]route{
		"tst://a/start": redirect("tsu://b/x"),
		"tst://a/rel":   redirect("../c/d?q"),
		"tst://a/c/d?q": body("relative"),
		"tst://a/bad":   redirect("tsu://127.0.0.1:25/"),
		"tst://a/junk":  redirect("//h:99999/"),
	})
	tsu.reset(map[string]route{"tsu://b/x": body("there")})
	var log strings.Builder
	res, err := (&Client{Dialogue: &log, RedirectSchemes: []string{"tsu"}}).Get(context.Background(), mustParse(t, "tst://a/start"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if string(b) != "there" || res.URL.String() != "tsu://b/x" {
		t.Errorf("got %q from %s", b, res.URL)
	}
	if log.String() != "* redirect 1 to tsu://b/x\n" {
		t.Errorf("dialogue %q", log.String())
	}

	res, err = (&Client{}).Get(context.Background(), mustParse(t, "tst://a/rel"))
	if err != nil || res.URL.String() != "tst://a/c/d?q" {
		t.Errorf("relative redirect: %v %v", res, err)
	}

	tsu.reset(map[string]route{})
	_, err = (&Client{RedirectSchemes: []string{"tsu"}}).Get(context.Background(), mustParse(t, "tst://a/bad"))
	var pe *PolicyError
	if !errors.As(err, &pe) || len(tsu.fetched) != 0 {
		t.Errorf("redirect to a bad port: %v, fetched %v", err, tsu.fetched)
	}
	if _, err = (&Client{Policy: Policy{AllowPorts: []int{25}}, RedirectSchemes: []string{"tsu"}}).Get(context.Background(), mustParse(t, "tst://a/bad")); Classify(err) != Absent || len(tsu.fetched) != 1 {
		t.Errorf("redirect to an allowed port: %v, fetched %v", err, tsu.fetched)
	}

	_, err = (&Client{}).Get(context.Background(), mustParse(t, "tst://a/junk"))
	var pre *ProtocolError
	if !errors.As(err, &pre) {
		t.Errorf("redirect to junk: %v", err)
	}
}

func TestGetRedirectLoop(t *testing.T) {
	for _, tt := range []struct {
		max, fetches int
	}{
		{0, DefaultMaxRedirects + 1},
		{3, 4},
		{1, 2},
		{-1, 1},
	} {
		tst.reset(map[string]route{"tst://a/loop": redirect("tst://a/loop")})
		_, err := (&Client{MaxRedirects: tt.max}).Get(context.Background(), mustParse(t, "tst://a/loop"))
		var pe *ProtocolError
		if !errors.As(err, &pe) || len(tst.fetched) != tt.fetches {
			t.Errorf("MaxRedirects %d: %v after %d fetches, want a protocol error after %d", tt.max, err, len(tst.fetched), tt.fetches)
		}
	}
}

func TestMethod(t *testing.T) {
	info, _ := Lookup("tst")
	for _, tt := range []struct {
		method, want string
		bad          bool
	}{
		{"", "first", false},
		{"second", "second", false},
		{"third", "", true},
	} {
		req := &Request{Client: &Client{}, URL: mustParse(t, "tst://h/"), info: info}
		got, err := req.Method(tt.method)
		var pe *PolicyError
		if got != tt.want || errors.As(err, &pe) != tt.bad {
			t.Errorf("Method %q: %q %v", tt.method, got, err)
		}
		if tt.bad && !strings.Contains(err.Error(), "first, second") {
			t.Errorf("the error does not list the methods: %v", err)
		}
	}
	req := &Request{Client: &Client{}, URL: mustParse(t, "tsu://h/")}
	if m, err := req.Method(""); m != "" || err != nil {
		t.Errorf("no methods: %q %v", m, err)
	}
}

func TestClientDefaults(t *testing.T) {
	var c Client
	if c.connectTimeout() != DefaultConnectTimeout || c.idleTimeout() != DefaultIdleTimeout ||
		c.maxLine() != DefaultMaxLine || c.maxEntries() != DefaultMaxEntries || c.maxRedirects() != DefaultMaxRedirects {
		t.Error("a zero Client does not take the defaults")
	}
	o := &Client{MaxLine: 7, MaxEntries: 8, MaxRedirects: -1, MaxSize: 9}
	req := &Request{Client: o}
	if req.MaxLine() != 7 || req.MaxEntries() != 8 || o.maxRedirects() != 0 || req.IdleTimeout() != DefaultIdleTimeout || req.MaxSize() != 9 {
		t.Error("a Client's settings not kept")
	}
	if _, err := req.Password("p: "); err != ErrNoPassword {
		t.Errorf("Password without a function: %v, want ErrNoPassword", err)
	}
}

// Request.Dial applies host and port policy to every connection (a
// data address a server names, a redirection's host), notes it, and cuts
// off a peer that sends nothing after the idle timeout.
func TestDial(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// A hostile peer: accepts and sends nothing.
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { <-done; c.Close() }()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	var log strings.Builder
	u := mustParse(t, "tst://127.0.0.1/")
	info, _ := Lookup("tst")
	req := &Request{Client: &Client{IdleTimeout: 50e6, Dialogue: &log}, URL: u, info: info}

	c, err := req.Dial(context.Background(), "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Read(make([]byte, 10))
	if !Timeout(err) || Classify(err) != Failed {
		t.Errorf("read from a silent peer: %v", err)
	}
	if log.String() != fmt.Sprintf("* connect 127.0.0.1:%d\n", port) {
		t.Errorf("dialogue %q", log.String())
	}

	// A cancelled context ends reads at once.
	ctx, cancel := context.WithCancel(context.Background())
	c2, err := req.Dial(ctx, "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	cancel()
	if _, err := c2.Read(make([]byte, 1)); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v", err)
	}

	// ... and one under way.
	ctx3, cancel3 := context.WithCancel(context.Background())
	slow := &Request{Client: &Client{IdleTimeout: time.Hour}, URL: u, info: info}
	c3, err := slow.Dial(ctx3, "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c3.Close()
	go cancel3()
	if _, err := c3.Read(make([]byte, 1)); err == nil {
		t.Error("a read under way was not interrupted by the context's end")
	}

	for _, tt := range []struct {
		host string
		port int
		pol  Policy
	}{
		{"127.0.0.1", 25, Policy{}},
		{"127.0.0.1", 21, Policy{AllowPorts: []int{25}}},
		{"127.0.0.1", port, Policy{Deny: mustRules(t, "127.0.0.1")}},
		{"127.0.0.1", port, Policy{Allow: mustRules(t, "localhost")}},
	} {
		r := &Request{Client: &Client{Policy: tt.pol}, URL: u, info: info}
		var pe *PolicyError
		if _, err := r.Dial(context.Background(), tt.host, tt.port); !errors.As(err, &pe) {
			t.Errorf("Dial %s:%d with %+v: %v, want a policy refusal", tt.host, tt.port, tt.pol, err)
		}
	}
	// The scheme's default port is fine even when it is in BadPorts, and
	// an allowed port too; the options' Dial is used.
	var dialed []string
	r := &Request{Client: &Client{Policy: Policy{AllowPorts: []int{25}}, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialed = append(dialed, addr)
		return nil, errors.New("test dialer")
	}}, URL: mustParse(t, "tsu://[::1]/"), info: Info{DefaultPort: 21}}
	r.Dial(context.Background(), "::1", 21)
	r.Dial(context.Background(), "::1", 25)
	if strings.Join(dialed, " ") != "[::1]:21 [::1]:25" {
		t.Errorf("dialed %v", dialed)
	}
}

// readSizes records the length of every buffer a Read is given.
type readSizes struct {
	r     io.Reader
	sizes []int
}

func (s *readSizes) Read(p []byte) (int, error) {
	s.sizes = append(s.sizes, len(p))
	return s.r.Read(p)
}

func (s *readSizes) Close() error { return nil }

// Request.Limit's WriteTo (what io.Copy calls) keeps the limit exact, as
// Read does, and copies through copyBuffer octets, not io.Copy's 32 KiB.
func TestLimitWriteTo(t *testing.T) {
	const big = 600 << 10
	for _, tt := range []struct {
		max     int64
		n       int
		tooBig  bool
		deliver int64
		sizes   []int // the buffers the body's reads were given
	}{
		{10, 9, false, 9, []int{10, 1}},
		{10, 10, false, 10, []int{10, 1}},
		{10, 11, true, 10, []int{10, 1}},
		{big, big, false, big, []int{copyBuffer, copyBuffer, big - 2*copyBuffer, 1}},
		{big, big + 1, true, big, []int{copyBuffer, copyBuffer, big - 2*copyBuffer, 1}},
		{big - 1, big, true, big - 1, []int{copyBuffer, copyBuffer, big - 1 - 2*copyBuffer, 1}},
	} {
		req := &Request{Client: &Client{MaxSize: tt.max}}
		src := &readSizes{r: strings.NewReader(strings.Repeat("x", tt.n))}
		var out bytes.Buffer
		n, err := io.Copy(&out, req.Limit(src))
		if errors.Is(err, ErrTooLarge) != tt.tooBig || (!tt.tooBig && err != nil) || n != tt.deliver || int64(out.Len()) != tt.deliver {
			t.Errorf("max %d, %d octets: copied %d (%d written), err %v; want %d, too large %v", tt.max, tt.n, n, out.Len(), err, tt.deliver, tt.tooBig)
		}
		if !reflect.DeepEqual(src.sizes, tt.sizes) {
			t.Errorf("max %d, %d octets: reads of %v, want %v", tt.max, tt.n, src.sizes, tt.sizes)
		}
	}
}

// DialSame connects to the peer of a connection the request's Dial
// opened, without the host policy (an allow list of names admits the
// control connection by its name and would refuse its address), with the
// port policy; a connection the request did not open is refused.
func TestDialSame(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	var log strings.Builder
	u := mustParse(t, "tst://localhost/")
	info, _ := Lookup("tst")
	// A name-only allow list, as --allow-host localhost gives. The
	// test's dialer sends "localhost" to 127.0.0.1 whatever the
	// resolver's order.
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		_, p, _ := net.SplitHostPort(addr)
		var d net.Dialer
		return d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", p))
	}
	req := &Request{Client: &Client{Dialogue: &log, Dial: dial, Policy: Policy{Allow: mustRules(t, "localhost")}}, URL: u, info: info}
	ctrl, err := req.Dial(context.Background(), "localhost", port)
	if err != nil {
		t.Fatal(err)
	}
	defer ctrl.Close()
	var pe *PolicyError
	if _, err := req.Dial(context.Background(), "127.0.0.1", port); !errors.As(err, &pe) || pe.Rule != "host" {
		t.Errorf("Dial of the address with a name-only allow list: %v, want a host refusal", err)
	}
	data, err := req.DialSame(context.Background(), ctrl, port)
	if err != nil {
		t.Fatalf("DialSame: %v", err)
	}
	data.Close()
	// The name is looked up once and the address it led to noted.
	if first, second := fmt.Sprintf("* connect localhost:%d (", port), fmt.Sprintf(")\n* connect 127.0.0.1:%d\n", port); !strings.HasPrefix(log.String(), first) || !strings.HasSuffix(log.String(), second) {
		t.Errorf("dialogue %q, want %q ADDRESS %q", log.String(), first, second)
	}
	// The port policy still applies.
	if _, err := req.DialSame(context.Background(), ctrl, 25); !errors.As(err, &pe) || pe.Rule != "RFC 1738 §6" {
		t.Errorf("DialSame to port 25: %v, want the port rule", err)
	}
	// A connection this request did not open: another request's, or one
	// of the caller's own.
	other := &Request{Client: &Client{Dial: dial}, URL: u, info: info}
	if _, err := other.DialSame(context.Background(), ctrl, port); !errors.As(err, &pe) || pe.Rule != "host" {
		t.Errorf("DialSame on another request's connection: %v, want a host refusal", err)
	}
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := req.DialSame(context.Background(), raw, port); !errors.As(err, &pe) || pe.Rule != "host" {
		t.Errorf("DialSame on a connection of the caller's: %v, want a host refusal", err)
	}
}

// TestRedirectLocal: a redirect leads into a scheme that makes no
// connection (DefaultPort 0, as file) only when the URL given to Get was
// of such a scheme (RFC 1738 §3.10: it names something of this machine,
// which a server may not choose).
func TestRedirectLocal(t *testing.T) {
	for _, tt := range []struct {
		first   string
		routes  map[string]route
		refused bool
	}{
		{"tsl:///a", map[string]route{"tsl:///a": redirect("tsl:///b"), "tsl:///b": body("b")}, false},
		{"tst://h/a", map[string]route{"tst://h/a": redirect("tsl:///b"), "tsl:///b": body("b")}, true},
		{"tsl:///a", map[string]route{"tsl:///a": redirect("tst://h/b"), "tst://h/b": redirect("tsl:///c"), "tsl:///c": body("c")}, false},
		{"tst://h/a", map[string]route{"tst://h/a": redirect("tsu://h/b"), "tsu://h/b": redirect("tsl:///c"), "tsl:///c": body("c")}, true},
	} {
		routes := map[string]route{}
		for k, v := range tt.routes {
			routes[k] = v
		}
		tst.reset(routes)
		tsu.reset(routes)
		tsl.reset(routes)
		res, err := (&Client{RedirectSchemes: []string{"tst", "tsu", "tsl"}}).Get(context.Background(), mustParse(t, tt.first))
		var pe *PolicyError
		if refused := errors.As(err, &pe) && pe.Rule == "redirect"; refused != tt.refused {
			t.Errorf("%s: %v, refused %v, want %v", tt.first, err, refused, tt.refused)
		}
		if err == nil {
			res.Close()
		}
		if tt.refused && len(tsl.fetched) != 0 {
			t.Errorf("%s: the local scheme was asked for %v", tt.first, tsl.fetched)
		}
	}
}

// mustRules reads each of ss as a Rule.
func mustRules(t *testing.T, ss ...string) []Rule {
	t.Helper()
	rs, err := ParseRules(ss)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
