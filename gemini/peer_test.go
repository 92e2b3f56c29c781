package gemini_test

// Integration tests against Debian's molly-brown on 127.0.0.1, started by
// the tests (internal/peer) with a certificate they make: what it serves
// is checked byte for byte against the files it serves from, and every
// status class it sends is followed. Statuses it sends only when a CGI
// program says so (10, a META over 1024 octets, a status outside the
// table) come from small CGI programs it runs.

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// molly is a molly-brown server of a test, its tree and its certificate's
// fingerprint.
type molly struct {
	srv  *peer.Server
	root string
	fp   string
}

func (m *molly) url(path string) string { return peer.GeminiURL(m.srv, path) }

// startMolly serves a tree of files and CGI programs with molly-brown;
// conf is added to its configuration ({root} stands for the tree).
func startMolly(t *testing.T, conf string) *molly {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	bin := make([]byte, 200<<10)
	rand.Read(bin)
	files := map[string]string{
		"index.gmi":      "# Index\n\n=> hello.txt Hello\n=> sub/ A folder\n```\n=> pre.txt not a link\n```\n=> gemini://example.org/ Elsewhere\n",
		"hello.txt":      "hello, gemini\r\nline two\n",
		"data.bin":       string(bin),
		"empty.txt":      "",
		"sub/b.txt":      "b\n",
		"sub/a file.txt": "a\n",
		"cgi/ask":        "#!/bin/sh\nif [ -z \"$QUERY_STRING\" ]; then printf '10 Your name?\\r\\n'; else printf '20 text/plain\\r\\nhello %s' \"$QUERY_STRING\"; fi\n",
		"cgi/fail":       "#!/bin/sh\nexit 3\n",
		"cgi/password":   "#!/bin/sh\nif [ -z \"$QUERY_STRING\" ]; then printf '11 Password:\\r\\n'; else printf '20 text/plain\\r\\n%s octets' ${#QUERY_STRING}; fi\n",
		"cgi/always":     "#!/bin/sh\nprintf '10 Again?\\r\\n'\n",
		"cgi/longmeta":   "#!/bin/sh\nprintf '20 '; i=0; while [ $i -lt 1100 ]; do printf a; i=$((i+1)); done; printf '\\r\\n'\n",
		"cgi/maxmeta":    "#!/bin/sh\nprintf '20 text/plain; x='; i=0; while [ $i -lt 1010 ]; do printf a; i=$((i+1)); done; printf '\\r\\nok'\n",
		"cgi/status70":   "#!/bin/sh\nprintf '70 not a status of the table\\r\\n'\n",
		"cgi/slow":       "#!/bin/sh\nprintf '44 slow down\\r\\n'\n",
		"secret/key.txt": "secret\n",
		"cgi/nocrlfmeta": "#!/bin/sh\nprintf '20 text/plain\\nbody'\n",
		"cgi/nometa":     "#!/bin/sh\nprintf '20\\r\\n=> /x'\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(name, "cgi/") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	cert, key, _ := peer.SelfSigned(t, dir)
	base := "CGIPaths = [" + `"` + filepath.Join(root, "cgi") + `"]` + "\n"
	srv := peer.MollyBrown(t, root, peer.MollyConfig{Cert: cert, Key: key, Conf: base + strings.ReplaceAll(conf, "{root}", root)})
	return &molly{srv: srv, root: root, fp: fingerprintOf(t, cert)}
}

func fingerprintOf(t *testing.T, certFile string) string {
	t.Helper()
	b, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	blk, _ := pem.Decode(b)
	c, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return gemini.Fingerprint(c)
}

// client returns an access.Client following gemini URLs with g (nil: a
// Client with a known-hosts file of its own), and its dialogue.
func client(t *testing.T, g *gemini.Client) (*access.Client, *bytes.Buffer) {
	t.Helper()
	if g == nil {
		g = &gemini.Client{KnownHosts: filepath.Join(t.TempDir(), "known_hosts")}
	}
	var log bytes.Buffer
	return &access.Client{Dialogue: &log, IdleTimeout: 20 * time.Second, Schemes: map[string]access.Fetcher{"gemini": g}}, &log
}

// get follows s with ac and reads the body whole.
func get(t *testing.T, ac *access.Client, s string) (*access.Resource, []byte, error) {
	t.Helper()
	return do(t, ac, s, nil)
}

// do is get with the request's own values o (access.Client.Do).
func do(t *testing.T, ac *access.Client, s string, o *access.Options) (*access.Resource, []byte, error) {
	t.Helper()
	res, err := ac.Do(context.Background(), loctest.MustParse(t, s), o)
	if err != nil {
		return nil, nil, err
	}
	defer res.Close()
	body, err := io.ReadAll(res.Body)
	return res, body, err
}

// TestMollyBrownServes retrieves files, a folder's index and a generated
// listing, and compares each with what molly-brown serves it from.
func TestMollyBrownServes(t *testing.T) {
	m := startMolly(t, "")
	ac, log := client(t, nil)
	for _, c := range []struct{ path, file, media string }{
		{"/hello.txt", "hello.txt", "text/plain; charset=utf-8"},
		{"/data.bin", "data.bin", "application/octet-stream"},
		{"/empty.txt", "empty.txt", "text/plain; charset=utf-8"},
		{"/index.gmi", "index.gmi", "text/gemini"},
		{"/", "index.gmi", "text/gemini"},
		{"/sub/a%20file.txt", "sub/a file.txt", "text/plain; charset=utf-8"},
	} {
		res, body, err := get(t, ac, m.url(c.path))
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.path, err, log)
		}
		want, err := os.ReadFile(filepath.Join(m.root, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(body, want) {
			t.Errorf("%s: %d octets differ from the file's %d", c.path, len(body), len(want))
		}
		if res.MediaType != c.media || res.Size != -1 {
			t.Errorf("%s: media type %q size %d, want %q -1", c.path, res.MediaType, res.Size, c.media)
		}
	}
	if !strings.Contains(log.String(), "> "+m.url("/hello.txt")+"\n< 20 text/plain; charset=utf-8\n") {
		t.Errorf("dialogue lacks the request and header:\n%s", log)
	}

	// A folder without its "/" is redirected (31) to the folder, whose
	// listing molly-brown writes: its links, read with Links, are
	// resolved against the URL it came from.
	res, body, err := get(t, ac, m.url("/sub"))
	if err != nil {
		t.Fatal(err)
	}
	if res.URL.String() != m.url("/sub/") || res.MediaType != "text/gemini" {
		t.Fatalf("folder: URL %s media %q", res.URL, res.MediaType)
	}
	var links []string
	if err := gemini.Links(bytes.NewReader(body), res.URL, func(l gemini.Link) error {
		links = append(links, l.URL.String())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{m.url("/"), m.url("/sub/a%20file.txt"), m.url("/sub/b.txt")}
	if strings.Join(links, " ") != strings.Join(want, " ") {
		t.Errorf("listing's links %q, want %q\n%s", links, want, body)
	}
}

// TestMollyBrownStatuses follows each class of status molly-brown sends.
func TestMollyBrownStatuses(t *testing.T) {
	m := startMolly(t, `
[TempRedirects]
"^/temp$" = "/hello.txt"
[PermRedirects]
"^/old$" = "/temp"
"^/loop$" = "/loop"
[CertificateZones]
"^/secret" = ["0000"]
`)
	ac, log := client(t, nil)
	ctx := context.Background()

	// 3x: two redirections, each counted.
	res, body, err := get(t, ac, m.url("/old"))
	if err != nil || string(body) != "hello, gemini\r\nline two\n" || res.URL.String() != m.url("/hello.txt") {
		t.Fatalf("/old: %v %q %v\n%s", err, body, res, log)
	}
	for _, c := range []struct {
		path  string
		max   int
		class access.Outcome
		code  string
		msg   string
	}{
		{"/old", 1, access.Failed, "", "more than 1 redirections"},
		{"/loop", 3, access.Failed, "", "more than 3 redirections"},
		{"/old", -1, access.Failed, "", "following redirections is off"},
		{"/missing.txt", 0, access.Absent, "51", "Not found!"},
		{"/secret/key.txt", 0, access.Absent, "60", "Gemini §3.2.6"},
		{"/cgi/ask", 0, access.Absent, "10", "Your name?"},
		{"/cgi/fail", 0, access.Absent, "42", "CGI error!"},
		{"/cgi/slow", 0, access.Absent, "44", "slow down"},
		{"/cgi/longmeta", 0, access.Failed, "", "META is over Gemini's 1024 octets"},
		{"/cgi/status70", 0, access.Failed, "", "status 70 is outside Gemini's table"},
		{"/cgi/nocrlfmeta", 0, access.Failed, "", "ends in LF without CR"},
	} {
		ac, _ := client(t, nil)
		ac.MaxRedirects = c.max
		_, _, err := get(t, ac, m.url(c.path))
		if err == nil {
			t.Errorf("%s: no error", c.path)
			continue
		}
		var se *access.ServerError
		if access.Classify(err) != c.class || !strings.Contains(err.Error(), c.msg) || c.code != "" && (!errors.As(err, &se) || se.Code != c.code) {
			t.Errorf("%s: %v (%v), want %v %s %q", c.path, err, access.Classify(err), c.class, c.code, c.msg)
		}
	}

	// 10 asks for input, given as the search part.
	_, body, err = get(t, ac, m.url("/cgi/ask?Ada%20L"))
	if err != nil || string(body) != "hello Ada%20L" {
		t.Errorf("input: %q %v", body, err)
	}
	// META of 1024 octets exactly is read.
	res, body, err = get(t, ac, m.url("/cgi/maxmeta"))
	if err != nil || len(res.MediaType) != 1024 || string(body) != "ok" {
		t.Errorf("META of 1024 octets: %v %d %q", err, len(res.MediaType), body)
	}

	// An empty META is text/gemini in UTF-8.
	res, body, err = get(t, ac, m.url("/cgi/nometa"))
	if err != nil || res.MediaType != "text/gemini; charset=utf-8" || string(body) != "=> /x" {
		t.Errorf("empty META: %v %q %q", err, res.MediaType, body)
	}

	// Probe: the header alone.
	for _, c := range []struct {
		path      string
		state     access.State
		code      string
		transient bool
	}{
		{"/hello.txt", access.StateOK, "20", false},
		{"/old", access.StateOK, "20", false},
		{"/missing.txt", access.StateGone, "51", false},
		{"/cgi/ask", access.StateRefused, "10", false},
		{"/cgi/slow", access.StateRefused, "44", true},
		{"/secret/key.txt", access.StateRefused, "60", false},
	} {
		st := ac.Probe(ctx, loctest.MustParse(t, m.url(c.path)))
		if st.State != c.state || st.Code != c.code || st.Transient != c.transient {
			t.Errorf("probe %s: %+v, want %s %s transient %v", c.path, st, c.state, c.code, c.transient)
		}
	}
}

// TestTrustOnFirstUse keeps molly-brown's certificate in the known-hosts
// file on first use, trusts it after, refuses another certificate for
// the same server while the known one is valid, and takes a new one once
// it has expired.
func TestTrustOnFirstUse(t *testing.T) {
	m := startMolly(t, "")
	kh := filepath.Join(t.TempDir(), "cfg", "known_hosts")
	g := &gemini.Client{KnownHosts: kh}
	ac, log := client(t, g)
	for i := 0; i < 2; i++ {
		if _, _, err := get(t, ac, m.url("/hello.txt")); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(kh)
	if err != nil {
		t.Fatal(err)
	}
	server := m.srv.Addr
	if f := strings.Fields(string(b)); len(f) != 3 || f[0] != server || f[1] != m.fp {
		t.Fatalf("known hosts %q, want %s %s", b, server, m.fp)
	}
	for _, note := range []string{"certificate " + m.fp + ": first use: trusted and remembered", "certificate " + m.fp + ": known since first use"} {
		if !strings.Contains(log.String(), note) {
			t.Errorf("dialogue lacks %q:\n%s", note, log)
		}
	}

	// Another certificate known for the server, valid for a year.
	other := "SHA256:" + strings.Repeat("ab", 32)
	until := time.Now().Add(365 * 24 * time.Hour).UTC().Format(time.RFC3339)
	if err := os.WriteFile(kh, []byte("# kept\nother.example:1965 "+m.fp+" "+until+"\n"+server+" "+other+" "+until+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ac, _ = client(t, &gemini.Client{KnownHosts: kh})
	_, _, err = get(t, ac, m.url("/hello.txt"))
	var ce *gemini.CertificateError
	if !errors.As(err, &ce) || ce.Known != other || ce.Got != m.fp || ce.Line != 3 || ce.File != kh {
		t.Fatalf("changed certificate: %v", err)
	}
	for _, s := range []string{other, m.fp, "has changed", "remove line 3 of " + kh} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("message %q lacks %q", err, s)
		}
	}
	if st := ac.Probe(context.Background(), loctest.MustParse(t, m.url("/hello.txt"))); st.State != access.StateError || !errors.As(st.Err, &ce) {
		t.Errorf("probe with a changed certificate: %+v", st)
	}
	// --insecure (tests only) neither checks nor remembers.
	ac, _ = client(t, &gemini.Client{KnownHosts: kh, Insecure: true})
	if _, _, err := get(t, ac, m.url("/hello.txt")); err != nil {
		t.Errorf("insecure: %v", err)
	}

	// The known certificate has expired: the new one replaces it.
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	if err := os.WriteFile(kh, []byte(server+" "+other+" "+past+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ac, log = client(t, &gemini.Client{KnownHosts: kh})
	if _, _, err := get(t, ac, m.url("/hello.txt")); err != nil {
		t.Fatalf("after expiry: %v", err)
	}
	if b, _ := os.ReadFile(kh); !strings.HasPrefix(string(b), server+" "+m.fp+" ") || !strings.Contains(log.String(), "has expired") {
		t.Errorf("after expiry: known hosts %q\n%s", b, log)
	}

	// A file that is not a known-hosts file is not overwritten.
	if err := os.WriteFile(kh, []byte("not a known hosts line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = get(t, ac, m.url("/hello.txt"))
	var ke *gemini.KnownHostsError
	if !errors.As(err, &ke) || ke.Line != 1 {
		t.Errorf("bad known hosts: %v", err)
	}
}

// TestTrustConcurrent has several clients, each with its own Client
// and so its own lock, trust one server at once through one file: it
// ends with one line.
func TestTrustConcurrent(t *testing.T) {
	m := startMolly(t, "")
	kh := filepath.Join(t.TempDir(), "known_hosts")
	errs := make(chan error, 8)
	for i := 0; i < cap(errs); i++ {
		go func() {
			ac, _ := client(t, &gemini.Client{KnownHosts: kh})
			_, _, err := get(t, ac, m.url("/hello.txt"))
			errs <- err
		}()
	}
	for i := 0; i < cap(errs); i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if b, _ := os.ReadFile(kh); strings.Count(string(b), "\n") != 1 {
		t.Errorf("known hosts after concurrent first uses:\n%s", b)
	}
}

// TestRequestLimit refuses, before connecting, a URL whose request is
// longer than 1024 octets, at the offset where it passes the limit, and
// sends one of exactly 1024.
//
// molly-brown reads the request with a bufio.Reader of 1024 octets that
// must hold the CR LF too: it answers "59 Request too long!" to a URL of
// 1023 or 1024 octets, which Gemini §2 allows, and reads one of 1022.
func TestRequestLimit(t *testing.T) {
	m := startMolly(t, "")
	prefix := m.url("/")
	// Short segments: a long file name is another error (40).
	at := func(n int) string { return prefix + strings.Repeat("x/", n)[:n-len(prefix)] }
	ac, _ := client(t, nil)
	for _, c := range []struct {
		n    int
		code string
	}{{1022, "51"}, {1023, "59"}, {1024, "59"}} {
		_, _, err := get(t, ac, at(c.n))
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != c.code {
			t.Fatalf("a request of %d octets: %v, want molly-brown's %s", c.n, err, c.code)
		}
	}
	at1024 := at(1024)
	dialed := false
	ac, _ = client(t, nil)
	ac.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialed = true
		return nil, errors.New("no connection expected")
	}
	in := "<URL:" + at1024 + "y#fragment-not-sent>"
	_, _, err := get(t, ac, in)
	var pe *access.PolicyError
	if !errors.As(err, &pe) || pe.Offset != 5+1024 || in[pe.Offset] != 'y' || pe.Rule != "Gemini §2" || dialed {
		t.Fatalf("a request of 1025 octets: %v (dialed %v)", err, dialed)
	}
	if !strings.Contains(err.Error(), "1025 octets") {
		t.Errorf("message %q", err)
	}
	// The fragment is not sent, so it does not count.
	if _, _, err := get(t, ac, at1024+"#"+strings.Repeat("f", 100)); err == nil || errors.As(err, &pe) {
		t.Errorf("fragment counted: %v", err)
	}
}

// TestInput answers status 10 and 11 (Gemini §3.2.1) from Answers, by
// number and by prompt, and from Ask: the URL is asked for again with
// the input, percent-encoded, as its search part; the answer to 11 is
// kept out of the dialogue and of the Resource's URL; input asked for a
// second time is not answered again.
func TestInput(t *testing.T) {
	m := startMolly(t, "")
	kh := filepath.Join(t.TempDir(), "known_hosts")
	for _, answers := range []map[string]string{{"1": "Ada L & co?"}, {"YOUR NAME": "Ada L & co?"}, {"Your name?": "Ada L & co?"}} {
		ac, log := client(t, &gemini.Client{KnownHosts: kh})
		res, body, err := do(t, ac, m.url("/cgi/ask"), &access.Options{Answers: answers})
		if err != nil || string(body) != "hello Ada%20L%20%26%20co%3F" {
			t.Fatalf("%v: %q %v\n%s", answers, body, err, log)
		}
		if res.URL.String() != m.url("/cgi/ask?Ada%20L%20%26%20co%3F") {
			t.Errorf("%v: URL %s", answers, res.URL)
		}
		if want := "> " + m.url("/cgi/ask") + "\n< 10 Your name?\n"; !strings.Contains(log.String(), want) || !strings.Contains(log.String(), "> "+m.url("/cgi/ask?Ada%20L%20%26%20co%3F")+"\n< 20 text/plain\n") {
			t.Errorf("%v: dialogue:\n%s", answers, log)
		}
	}

	var asked []access.Question
	ask := func(q access.Question) (string, error) {
		asked = append(asked, q)
		return "s3cr\u00e9t", nil
	}
	ac, log := client(t, &gemini.Client{KnownHosts: kh})
	asking := &access.Options{Ask: ask}
	res, body, err := do(t, ac, m.url("/cgi/ask"), asking)
	if err != nil || string(body) != "hello s3cr%C3%A9t" || len(asked) != 1 || asked[0].Kind != "Ask" || asked[0].Prompt != "Your name?" || asked[0].Secret {
		t.Fatalf("ask: %q %v %+v\n%s", body, err, asked, log)
	}
	if res.URL.String() != m.url("/cgi/ask?s3cr%C3%A9t") {
		t.Errorf("ask: URL %s", res.URL)
	}
	asked = nil
	log.Reset()
	res, body, err = do(t, ac, m.url("/cgi/password"), asking)
	if err != nil || string(body) != "11 octets" || len(asked) != 1 || asked[0].Kind != "AskP" || asked[0].Prompt != "Password:" || !asked[0].Secret {
		t.Fatalf("secret: %q %v %+v\n%s", body, err, asked, log)
	}
	if res.URL.String() != m.url("/cgi/password") || strings.Contains(log.String(), "s3cr") || !strings.Contains(log.String(), "> "+m.url("/cgi/password")+"?****\n< 20") {
		t.Errorf("secret: URL %s, dialogue:\n%s", res.URL, log)
	}

	// Asked again: one answer per Fetch, then the server's status.
	asked = nil
	_, _, err = do(t, ac, m.url("/cgi/always"), asking)
	var se *access.ServerError
	if !errors.As(err, &se) || se.Code != "10" || se.Text != "Again?" || len(asked) != 1 {
		t.Errorf("asked again: %v, asked %d times", err, len(asked))
	}
	// Ask's error ends the Fetch, with no second request.
	stop := errors.New("nobody answers")
	ac, log = client(t, &gemini.Client{KnownHosts: kh})
	if _, _, err := do(t, ac, m.url("/cgi/ask"), &access.Options{Ask: func(access.Question) (string, error) { return "", stop }}); !errors.Is(err, stop) || strings.Count(log.String(), "> ") != 1 {
		t.Errorf("ask fails: %v\n%s", err, log)
	}
}
