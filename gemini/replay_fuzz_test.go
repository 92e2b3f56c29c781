package gemini

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// FuzzReplay reads arbitrary recorded responses back: Replay never
// panics, and gives what the header says (wantHeader, ReadHeader's rule
// written plainly): a 2x Resource whose Body is exactly the octets after
// the header, cut at MaxSize; a 3x *access.Redirect to META (a
// *access.ProtocolError without one); a *access.ServerError with the
// status and META for the others; a *access.ProtocolError for a header
// that is not Gemini's.
func FuzzReplay(f *testing.F) {
	for _, s := range []string{
		"20 text/gemini\r\n# hi\n=> /x\n", "20\r\n", "20 a/b\r\n" + strings.Repeat("x", 100), "31 gemini://h/b\r\n", "30\r\n",
		"10 Name?\r\n", "11 Pass\r\n", "44 slow\r\n", "51 Not found!\r\n", "60 cert\r\n", "61\r\n", "65 expired\r\n",
		"", "2", "70 x\r\n", "20 x\n", "20 " + strings.Repeat("m", maxMeta+1) + "\r\n",
	} {
		f.Add([]byte(s))
	}
	u, err := locator.Parse("gemini://example.org/doc")
	if err != nil {
		f.Fatal(err)
	}
	const maxSize = 64
	ac := &access.Client{MaxSize: maxSize}
	c := &Client{Insecure: true}
	f.Fuzz(func(t *testing.T, b []byte) {
		req := &access.Request{Client: ac, URL: u}
		res, err := c.Replay(context.Background(), u, req, bytes.NewReader(b))
		h, ok := wantHeader(b)
		var pe *access.ProtocolError
		if !ok {
			if !errors.As(err, &pe) || res != nil {
				t.Fatalf("%q: %v %v, want a protocol error", b, res, err)
			}
			return
		}
		rest := b[bytes.IndexByte(b, '\n')+1:]
		switch h.Class() {
		case success:
			if err != nil || res == nil || res.Body == nil || res.Size != -1 || res.MediaType == "" || h.Meta != "" && res.MediaType != h.Meta {
				t.Fatalf("%q: %+v %v", b, res, err)
			}
			body, err := io.ReadAll(res.Body)
			res.Close()
			want := rest[:min(len(rest), maxSize)]
			if !bytes.Equal(body, want) || (len(rest) > maxSize) != errors.Is(err, access.ErrTooLarge) {
				t.Fatalf("%q: body %q %v, want %q", b, body, err, want)
			}
		case redirectClass:
			var rd *access.Redirect
			switch {
			case h.Meta == "" && !errors.As(err, &pe):
				t.Fatalf("%q: %v, want a protocol error", b, err)
			case h.Meta != "" && (!errors.As(err, &rd) || rd.Location != h.Meta || rd.Code != strconv.Itoa(h.Status)):
				t.Fatalf("%q: %v, want a redirect to %q", b, err, h.Meta)
			}
		default:
			var se *access.ServerError
			if res != nil || !errors.As(err, &se) || se.Code != strconv.Itoa(h.Status) || se.Text != h.Meta || se.Rule == "" {
				t.Fatalf("%q: %+v %v", b, res, err)
			}
		}
	})
}

// FuzzPlan makes the request of arbitrary gemini URLs: NewPlan never
// panics; what it sends is at most MaxRequest octets and CR LF, holds no
// other CR, LF or NUL, and has its host in ASCII when the URL's is an
// internationalised name; when the request is too long, the offset is
// inside the input.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{
		"gemini://bücher.example/a?b#c", "gemini://b%C3%BCcher.example:1966/a", "<URL:gemini://例え.jp/x>",
		"gemini://ex%61mple.org", "gemini://[::1]/", "gemini://a%2Fb/", "gemini://%FF/", "gemini://h/" + strings.Repeat("a", 1020),
		"gemini://" + strings.Repeat("ü", 600) + "/", "gemini://u@h/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := locator.Parse(s)
		if err != nil || u.Scheme() != "gemini" {
			return
		}
		pl, err := NewPlan(u)
		var re *RequestError
		if errors.As(err, &re) {
			if re.Length <= maxRequest || re.Offset < 0 || re.Offset >= len(u.Input()) {
				t.Fatalf("%q: %+v", s, re)
			}
			return
		}
		if err != nil {
			return
		}
		line := pl.Request[:len(pl.Request)-2]
		if len(line) > maxRequest || !bytes.HasSuffix(pl.Request, []byte("\r\n")) || bytes.ContainsAny(line, "\r\n\x00") {
			t.Fatalf("%q: request %q", s, pl.Request)
		}
		if international(u.Host()) {
			for i := 0; i < len(pl.Host); i++ {
				if pl.Host[i] >= utf8.RuneSelf || pl.Host[i] == '%' {
					t.Fatalf("%q: host %q is not ASCII", s, pl.Host)
				}
			}
			if !bytes.Contains(line, []byte("://"+pl.Host)) {
				t.Fatalf("%q: request %q does not name %q", s, line, pl.Host)
			}
		} else if pl.Host != u.Host() {
			t.Fatalf("%q: host %q, the URL's %q", s, pl.Host, u.Host())
		}
	})
}

// FuzzReplayRecord reads arbitrary records back with an answer at hand
// (ReplayRecord, Answers "1"): no panic; a record whose response is not
// a 10 prompt, or whose requests are not u's and then u's with the
// answer, gives what Replay gives of the response (a 10 its refusal);
// one that is gives what Replay gives of the response after the prompt,
// the Resource's URL the URL with the answer.
func FuzzReplayRecord(f *testing.F) {
	const answered = "gemini://example.org/q?Ada%20L\r\n"
	for _, c := range [][2]string{
		{"gemini://example.org/q\r\n" + answered, "10 Name?\r\n20 text/plain\r\nhello"},
		{"gemini://example.org/q\r\n" + answered, "10 Name?\r\n10 Again?\r\n"},
		{"gemini://example.org/q\r\n" + answered, "10 Name?\r\n31 gemini://example.org/b\r\n"},
		{"gemini://example.org/q\r\n" + answered, "10 Name?\r\n"},
		{"gemini://example.org/q\r\ngemini://example.org/q?Bob\r\n", "10 Name?\r\n20 text/plain\r\nhello"},
		{"gemini://example.org/q\r\n", "10 Name?\r\n"},
		{"gemini://example.org/q\r\n", "11 Password\r\n20 text/plain\r\nx"},
		{"gemini://example.org/q\r\n", "20 text/gemini\r\n# hi\n"},
		{"", "51 gone\r\n"},
	} {
		f.Add([]byte(c[0]), []byte(c[1]))
	}
	u, err := locator.Parse("gemini://example.org/q")
	if err != nil {
		f.Fatal(err)
	}
	const maxSize = 64
	ac := &access.Client{MaxSize: maxSize}
	c := &Client{Insecure: true}
	answers := &access.Options{Answers: map[string]string{"1": "Ada L"}}
	type outcome struct {
		url, media string
		body       []byte
		err        string
	}
	read := func(res *access.Resource, err error) outcome {
		if err != nil {
			return outcome{err: reflectType(err) + " " + err.Error()}
		}
		o := outcome{media: res.MediaType}
		if res.URL != nil {
			o.url = res.URL.String()
		}
		o.body, err = io.ReadAll(res.Body)
		res.Close()
		if err != nil {
			o.err = reflectType(err) + " " + err.Error()
		}
		return o
	}
	f.Fuzz(func(t *testing.T, request, response []byte) {
		rec := &access.Record{Kind: access.RecordExchange, URL: u, Protocol: "gemini", Request: access.NewSpool(), Response: access.NewSpool()}
		rec.Request.Write(request)
		rec.Response.Write(response)
		defer rec.Close()
		got := read(c.ReplayRecord(context.Background(), u, (&access.Request{Client: ac, URL: u}).WithOptions(answers), rec))
		var want outcome
		h, ok := wantHeader(response)
		switch {
		case ok && h.Class() == input && h.Status != 11 && string(request) == "gemini://example.org/q\r\n"+answered:
			// Any 1x but SENSITIVE INPUT is answered (Gemini §3.2.1: a
			// status the client does not know is read by its first digit).
			rest := response[bytes.IndexByte(response, '\n')+1:]
			want = read(c.Replay(context.Background(), u, (&access.Request{Client: ac, URL: u}).WithOptions(answers), bytes.NewReader(rest)))
			if want.err == "" {
				want.url = "gemini://example.org/q?Ada%20L"
			}
		default:
			want = read(c.Replay(context.Background(), u, (&access.Request{Client: ac, URL: u}).WithOptions(answers), bytes.NewReader(response)))
			if ok && h.Class() == input {
				// The refusal's Rule says why the record gave no answer.
				got.err, _, _ = strings.Cut(got.err, "; the archive does not give")
			}
		}
		if got.url != want.url || got.media != want.media || !bytes.Equal(got.body, want.body) || got.err != want.err {
			t.Fatalf("request %q response %q:\ngot  %+v\nwant %+v", request, response, got, want)
		}
	})
}

func reflectType(err error) string { return fmt.Sprintf("%T", err) }
