package gemini_test

// Archiving (access.Client.Recorder and Archive) against molly-brown:
// the record of a Get is the request line as sent and the response
// header and body exactly as molly-brown serves them from disk, and a
// replay of the record gives the Resource or error the live Get gave.

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/archive"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/loctest"
)

// last returns the last record arc kept, and how many there are.
func last(arc *loctest.Archive) (loctest.Kept, int) {
	recs := arc.Records()
	if len(recs) == 0 {
		return loctest.Kept{}, 0
	}
	return recs[len(recs)-1], len(recs)
}

// replayer returns an access.Client that follows gemini URLs from arc
// only: its Dial fails the test.
func replayer(t *testing.T, arc access.Archive, g *gemini.Client) *access.Client {
	ac, _ := client(t, g)
	ac.Archive = arc
	ac.Dial = func(context.Context, string, string) (net.Conn, error) {
		t.Error("a replay connected")
		return nil, errors.New("no connection in a replay")
	}
	return ac
}

// TestRecordReplay gets files, a redirection and refusals from
// molly-brown with a Recorder: each record holds the request line as
// sent and the status line and the file exactly; a replay from the
// records gives the same Resource, body, redirection or error.
func TestRecordReplay(t *testing.T) {
	m := startMolly(t, "[TempRedirects]\n\"^/temp$\" = \"/hello.txt\"\n[CertificateZones]\n\"^/secret\" = [\"00\"]\n")
	// Larger than access.SpoolMemory: the record goes to a temporary
	// file.
	big := make([]byte, access.SpoolMemory+100<<10)
	rand.Read(big)
	if err := os.WriteFile(filepath.Join(m.root, "big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &loctest.Archive{}
	ac, log := client(t, nil)
	ac.Recorder = rec
	arc := replayer(t, rec, nil)
	for _, c := range []struct{ path, file, header string }{
		{"/hello.txt", "hello.txt", "20 text/plain; charset=utf-8\r\n"},
		{"/index.gmi", "index.gmi", "20 text/gemini\r\n"},
		{"/empty.txt", "empty.txt", "20 text/plain; charset=utf-8\r\n"},
		{"/data.bin", "data.bin", "20 application/octet-stream\r\n"},
		{"/big.bin", "big.bin", "20 application/octet-stream\r\n"},
		{"/cgi/nometa", "", "20\r\n"},
	} {
		u := m.url(c.path)
		res, body, err := get(t, ac, u)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.path, err, log)
		}
		want := []byte("=> /x")
		if c.file != "" {
			if want, err = os.ReadFile(filepath.Join(m.root, c.file)); err != nil {
				t.Fatal(err)
			}
		}
		k, _ := last(rec)
		if k.Record.Kind != access.RecordExchange || k.Record.Protocol != "gemini" || k.Record.URL.String() != u || k.Record.Addr != "127.0.0.1" || k.Record.Truncated != "" || k.Record.Date.IsZero() {
			t.Errorf("%s: record %+v", c.path, k.Record)
		}
		if string(k.Request) != u+"\r\n" {
			t.Errorf("%s: recorded request %q", c.path, k.Request)
		}
		if !bytes.Equal(k.Response, append([]byte(c.header), want...)) {
			t.Errorf("%s: recorded %d octets, want the header and the %d of the file", c.path, len(k.Response), len(want))
		}
		if k.Record.Dialogue != nil {
			t.Errorf("%s: an exchange's record has a dialogue %q (its request and response are the octets themselves)", c.path, k.Record.Dialogue)
		}

		rres, rbody, err := get(t, arc, u)
		if err != nil {
			t.Fatalf("%s: replay: %v", c.path, err)
		}
		if !bytes.Equal(rbody, body) || rres.MediaType != res.MediaType || rres.Size != res.Size || rres.URL.String() != res.URL.String() {
			t.Errorf("%s: replay %q %d %s (%d octets), live %q %d %s (%d octets)", c.path, rres.MediaType, rres.Size, rres.URL, len(rbody), res.MediaType, res.Size, res.URL, len(body))
		}
	}

	// A redirection: one record per hop; the replay follows it through
	// the archive.
	_, n := last(rec)
	res, body, err := get(t, ac, m.url("/temp"))
	if err != nil {
		t.Fatal(err)
	}
	k, n2 := last(rec)
	if n2 != n+2 || string(k.Request) != m.url("/hello.txt")+"\r\n" {
		t.Errorf("redirection: %d records, the last for %q", n2-n, k.Request)
	}
	first := rec.Records()[n]
	if string(first.Request) != m.url("/temp")+"\r\n" || string(first.Response) != "30 "+m.url("/hello.txt")+"\r\n" {
		t.Errorf("redirection's record: %q %q", first.Request, first.Response)
	}
	rres, rbody, err := get(t, arc, m.url("/temp"))
	if err != nil || rres.URL.String() != res.URL.String() || !bytes.Equal(rbody, body) {
		t.Errorf("replayed redirection: %v %s %q", err, rres.URL, rbody)
	}
	arc.MaxRedirects = -1
	var rd *access.ProtocolError
	if _, _, err := get(t, arc, m.url("/temp")); !errors.As(err, &rd) || !strings.Contains(err.Error(), "redirected (30)") {
		t.Errorf("replayed redirection, not followed: %v", err)
	}
	arc.MaxRedirects = 0

	// Refusals: each recorded, each replayed as the live one failed.
	for _, c := range []struct{ path, resp string }{
		{"/missing.txt", "51 Not found!\r\n"},
		{"/cgi/ask", "10 Your name?\r\n"},
		{"/cgi/slow", "44 slow down\r\n"},
		{"/secret/key.txt", "60 A pre-authorised certificate is required to access this resource\r\n"},
	} {
		u := m.url(c.path)
		_, _, lerr := get(t, ac, u)
		k, _ := last(rec)
		if string(k.Request) != u+"\r\n" || string(k.Response) != c.resp || k.Record.Truncated != "" {
			t.Errorf("%s: record %q %q %q", c.path, k.Request, k.Response, k.Record.Truncated)
		}
		_, _, rerr := get(t, arc, u)
		var ls, rs *access.ServerError
		if !errors.As(lerr, &ls) || !errors.As(rerr, &rs) || ls.Code != rs.Code || ls.Text != rs.Text || ls.Command != rs.Command || access.Classify(lerr) != access.Classify(rerr) {
			t.Errorf("%s: live %v, replay %v", c.path, lerr, rerr)
		}
		if ls != nil && ls.Code == "60" && !strings.Contains(rs.Rule, "the record does not say") {
			t.Errorf("%s: replayed rule %q", c.path, rs.Rule)
		}
	}

	// input answered (10): the record is both exchanges, the request
	// for the URL and the request with the answer, the prompt and the
	// answered response; a replay with the same answer gives the live
	// Resource, one without an answer or with another the refusal.
	known := ac.Schemes["gemini"].(*gemini.Client).KnownHosts
	knowing := func() *gemini.Client { return &gemini.Client{KnownHosts: known} }
	answering := func(v string) *access.Options { return &access.Options{Answers: map[string]string{"1": v}} }
	aac, _ := client(t, knowing())
	aac.Recorder = rec
	ask := m.url("/cgi/ask")
	lres, lbody, err := do(t, aac, ask, answering("Ada L"))
	if err != nil || string(lbody) != "hello Ada%20L" || lres.URL.String() != ask+"?Ada%20L" {
		t.Fatalf("answered: %q %v", lbody, err)
	}
	if k, _ := last(rec); string(k.Request) != ask+"\r\n"+ask+"?Ada%20L\r\n" || string(k.Response) != "10 Your name?\r\n20 text/plain\r\nhello Ada%20L" || k.Record.URL.String() != ask || k.Record.Truncated != "" {
		t.Errorf("answered: record of %s: %q %q", k.Record.URL, k.Request, k.Response)
	}
	rres, rbody, err = do(t, replayer(t, rec, knowing()), ask, answering("Ada L"))
	if err != nil || !bytes.Equal(rbody, lbody) || rres.URL.String() != lres.URL.String() || rres.MediaType != lres.MediaType || rres.Size != lres.Size {
		t.Errorf("answered, replayed with the same answer: %v %q, live %q", err, rbody, lbody)
	}
	// Through a WARC file: the Reader gives each response's request (the
	// record written after it), so an answered prompt replays from a
	// file as from memory.
	warc := filepath.Join(t.TempDir(), "ask.warc.gz")
	w, err := archive.Create(warc, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wac, _ := client(t, knowing())
	wac.Recorder = w
	if _, body, err := do(t, wac, ask, answering("Ada L")); err != nil || string(body) != "hello Ada%20L" {
		t.Fatalf("answered, recorded to a WARC file: %q %v", body, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wr, err := archive.Open(warc)
	if err != nil {
		t.Fatal(err)
	}
	defer wr.Close()
	rres, rbody, err = do(t, replayer(t, wr, knowing()), ask, answering("Ada L"))
	if err != nil || !bytes.Equal(rbody, lbody) || rres.URL.String() != lres.URL.String() {
		t.Errorf("answered, replayed from a WARC file: %v %q, live %q", err, rbody, lbody)
	}
	unanswered := func(what string, arc access.Archive, o *access.Options, u, code, why string) {
		t.Helper()
		var g *gemini.Client // nil: a client with a known-hosts file of its own
		if o != nil {
			g = knowing()
		}
		_, _, err := do(t, replayer(t, arc, g), u, o)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != code || !strings.Contains(se.Rule, why) || access.Classify(err) != access.Absent {
			t.Errorf("%s: %v, want the %s refusal saying %q", what, err, code, why)
		}
	}
	unanswered("answered, replayed without an answer", rec, nil, ask, "10", "§3.2.1")
	unanswered("answered, replayed with another answer", rec, answering("Bob"), ask, "10", "another request")
	unanswered("answered, replayed from an archive without requests", responsesOnly{rec}, answering("Ada L"), ask, "10", "gives no request")

	// Sensitive input (11): the answer is a secret, kept out of the
	// record, which is the prompt alone; a replay cannot answer it.
	pw := m.url("/cgi/password")
	pac, _ := client(t, knowing())
	pac.Recorder = rec
	if _, body, err := do(t, pac, pw, answering("hunter2")); err != nil || string(body) != "7 octets" {
		t.Fatalf("sensitive input: %q %v", body, err)
	}
	k, _ = last(rec)
	if string(k.Request) != pw+"\r\n" || string(k.Response) != "11 Password:\r\n" || strings.Contains(string(k.Record.Dialogue), "hunter2") {
		t.Errorf("sensitive input: record %q %q\n%s", k.Request, k.Response, k.Record.Dialogue)
	}
	unanswered("sensitive input, replayed", rec, answering("hunter2"), pw, "11", "a secret")

	// A body cut at MaxSize: the record says so.
	ac.MaxSize = 1000
	if _, _, err := get(t, ac, m.url("/data.bin")); !errors.Is(err, access.ErrTooLarge) {
		t.Errorf("MaxSize: %v", err)
	}
	if k, _ := last(rec); k.Record.Truncated != "length" || !bytes.HasPrefix(k.Response, []byte("20 application/octet-stream\r\n")) {
		t.Errorf("MaxSize: record truncated %q, %d octets", k.Record.Truncated, len(k.Response))
	}
	ac.MaxSize = 0

	// A probe records nothing.
	_, n = last(rec)
	if st := ac.Probe(context.Background(), loctest.MustParse(t, m.url("/hello.txt"))); st.State != access.StateOK {
		t.Errorf("probe: %+v", st)
	}
	if _, n2 := last(rec); n2 != n {
		t.Errorf("a probe made %d records", n2-n)
	}
	// A URL not recorded is not in the archive.
	var na *access.NotArchivedError
	if _, _, err := get(t, arc, m.url("/sub/b.txt")); !errors.As(err, &na) {
		t.Errorf("not recorded: %v", err)
	}
}

// TestReplay reads recorded responses back: what each status becomes,
// and a header that breaks Gemini §3.1.
func TestReplay(t *testing.T) {
	g := &gemini.Client{Insecure: true}
	ac, _ := client(t, g)
	ac.MaxSize = 10
	ctx := context.Background()
	u := loctest.MustParse(t, "gemini://h.example/a")
	replay := func(resp string) (*access.Resource, []byte, error) {
		req := &access.Request{Client: ac, URL: u}
		res, err := g.Replay(ctx, u, req, strings.NewReader(resp))
		if err != nil {
			return nil, nil, err
		}
		defer res.Close()
		b, err := io.ReadAll(res.Body)
		return res, b, err
	}
	if res, b, err := replay("20 text/plain\r\nhello"); err != nil || string(b) != "hello" || res.MediaType != "text/plain" || res.Size != -1 {
		t.Errorf("20: %v %q %+v", err, b, res)
	}
	if res, b, err := replay("20\r\n=> x"); err != nil || string(b) != "=> x" || res.MediaType != gemini.DefaultMediaType {
		t.Errorf("20 without META: %v %q %+v", err, b, res)
	}
	if _, b, err := replay("20 a/b\r\n0123456789x"); !errors.Is(err, access.ErrTooLarge) || string(b) != "0123456789" {
		t.Errorf("MaxSize: %v %q", err, b)
	}
	var rd *access.Redirect
	if _, _, err := replay("31 gemini://h.example/b\r\n"); !errors.As(err, &rd) || rd.Location != "gemini://h.example/b" || rd.Code != "31" {
		t.Errorf("31: %v", err)
	}
	for _, c := range []struct{ resp, code, text, rule string }{
		{"10 Name?\r\n", "10", "Name?", "§3.2.1"},
		{"11 Password\r\n", "11", "Password", "§3.2.1"},
		{"40 busy\r\n", "40", "busy", "§3.2.4"},
		{"51 gone\r\n", "51", "gone", "§3.2.5"},
		{"61 no\r\n", "61", "no", "61 CERTIFICATE NOT AUTHORISED"},
		{"62\r\n", "62", "", "62 CERTIFICATE NOT VALID"},
	} {
		_, _, err := replay(c.resp)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != c.code || se.Text != c.text || !strings.Contains(se.Rule, c.rule) || se.Command != "gemini://h.example/a" {
			t.Errorf("%q: %v", c.resp, err)
		}
	}
	for _, resp := range []string{"", "20 x\n", "70 x\r\n", "2", "30\r\n", "20 " + strings.Repeat("m", gemini.MaxMeta+1) + "\r\n"} {
		var pe *access.ProtocolError
		if _, _, err := replay(resp); !errors.As(err, &pe) {
			t.Errorf("%q: %v, want a protocol error", resp, err)
		}
	}
}

// responsesOnly is an Archive that gives back an exchange's response
// and not its request, as one that keeps responses only.
type responsesOnly struct{ access.Archive }

func (a responsesOnly) Lookup(ctx context.Context, u *locator.URL) (*access.Record, error) {
	r, err := a.Archive.Lookup(ctx, u)
	if err == nil && r.Request != nil {
		r.Request.Close()
		r.Request = nil
	}
	return r, err
}
