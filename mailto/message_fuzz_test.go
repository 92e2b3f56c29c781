package mailto

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// composed are the header fields Bytes writes, each at most once: no
// other can appear, whatever a URL asks for (RFC 6068 §3-4).
var composed = map[string]bool{
	"date": true, "from": true, "to": true, "cc": true, "subject": true, "keywords": true, "in-reply-to": true,
	"message-id": true, "mime-version": true, "content-type": true, "content-transfer-encoding": true,
}

// checkMessage asserts what every message Bytes writes must be: CR and
// LF only as CRLF (RFC 5322 §2.3), lines of at most 998 octets (§2.1.1),
// a header of the composed fields only, each once, no line of white
// space alone in a folded field (§3.2.2), the Subject and Keywords as
// they were once unfolded (§2.2.3) and their encoded-words decoded (RFC
// 2047), and the body as it was once its transfer encoding is undone.
func checkMessage(t *testing.T, b []byte, cte string, m *Message) {
	t.Helper()
	for i := 0; i < len(b); i++ {
		if b[i] == '\r' && (i+1 == len(b) || b[i+1] != '\n') || b[i] == '\n' && (i == 0 || b[i-1] != '\r') {
			t.Fatalf("a bare CR or LF at %d in %q", i, b)
		}
	}
	if !bytes.HasSuffix(b, []byte("\r\n")) {
		t.Fatalf("the message does not end with CRLF: %q", b)
	}
	head, _, ok := strings.Cut(string(b), "\r\n\r\n")
	if !ok {
		t.Fatalf("no end of header in %q", b)
	}
	body := strings.TrimPrefix(string(b), head+"\r\n\r\n")
	for _, l := range strings.Split(string(b), "\r\n") {
		if len(l) > maxLine {
			t.Fatalf("a line of %d octets", len(l))
		}
	}
	fields := map[string]string{}
	var name string
	for _, l := range strings.Split(head, "\r\n") {
		if l[0] == ' ' || l[0] == '\t' {
			if name == "" || strings.Trim(l, " \t") == "" {
				t.Fatalf("continuation line %q in %q", l, head)
			}
			fields[name] += "\r\n" + l
			continue
		}
		n, v, ok := strings.Cut(l, ":")
		name = strings.ToLower(n)
		if !ok || !composed[name] {
			t.Fatalf("header line %q is not a field Bytes composes", l)
		}
		if _, dup := fields[name]; dup {
			t.Fatalf("two %s fields in %q", n, head)
		}
		fields[name] = v
	}
	if fields["content-transfer-encoding"] != " "+cte {
		t.Fatalf("Content-Transfer-Encoding %q, Bytes says %s", fields["content-transfer-encoding"], cte)
	}
	var dec mime.WordDecoder
	for _, f := range []struct{ name, want string }{{"subject", m.Subject}, {"keywords", m.Keywords}} {
		v, ok := fields[f.name]
		if !ok {
			if f.want != "" {
				t.Fatalf("%s %q is missing", f.name, f.want)
			}
			continue
		}
		if strings.Contains(f.want, "=?") {
			continue // the URL's own encoded-words (RFC 6068 §2), decoded by the reader
		}
		got, err := dec.DecodeHeader(strings.TrimPrefix(strings.ReplaceAll(v, "\r\n", ""), " "))
		if err != nil || got != f.want {
			t.Fatalf("%s %q reads back as %q (%v)", f.name, f.want, got, err)
		}
	}
	if cte == QuotedPrintable {
		d, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(body)))
		if err != nil {
			t.Fatalf("quoted-printable body %q: %v", body, err)
		}
		body = string(d)
	}
	ls := lines(m.Body)
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	want := ""
	if len(ls) > 0 {
		want = strings.Join(ls, "\r\n") + "\r\n"
	}
	if body != want {
		t.Fatalf("body %q reads back as %q (%s), want %q", m.Body, body, cte, want)
	}
}

// FuzzCompose: whatever the URL, Compose returns a message or a typed
// error with an offset in the input; a message composes (Bytes) into
// one checkMessage accepts, and a header field the URL names either is
// in it or is reported dropped: never smuggled, never lost silently.
func FuzzCompose(f *testing.F) {
	for _, s := range []string{
		"mailto:chris@example.com",
		"mailto:joe@example.com?cc=bob@example.com&body=hello",
		"mailto:a@b?subject=x%0D%0ABcc:c@d",
		"mailto:?to=a@b,c@d&cc=e@f&subject=caf%C3%A9&keywords=k&in-reply-to=%3Cx@y%3E",
		"mailto:a@b?bcc=c@d&from=x@y&content-type=text/html&x=y&noeq&=v",
		"mailto:%22not%40me%22@example.org?body=a%0Db%0Ac%0D%0A.d",
		"mailto:user@%E7%B4%8D%E8%B1%86.example.org?subject=Test",
		"mailto:a@b?subject=" + strings.Repeat("w", 1200),
		"mailto:a@b?body=%00%FF",
		"mailto:a@b?subject=%3D%3Futf-8%3FQ%3Fcaf%3DC3%3DA9%3F%3D",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := locator.Parse(s)
		if err != nil {
			return
		}
		m, dropped, err := Compose(u)
		if err != nil {
			var pe *access.PolicyError
			var e *locator.SchemeError
			switch {
			case errors.As(err, &pe):
				if pe.Offset < 0 || pe.Offset >= len(u.Input()) || access.DelimiterAt(u.Input()[pe.Offset:]) != 0 {
					t.Fatalf("Compose(%q): %v: the offset is not at a CR, LF or NUL", s, err)
				}
			case errors.As(err, &e):
				if e.Offset < 0 || e.Offset > len(u.Input()) {
					t.Fatalf("Compose(%q): %v: offset out of the input", s, err)
				}
			default:
				t.Fatalf("Compose(%q): untyped error %v", s, err)
			}
			return
		}
		// Every field the URL names is honoured or reported.
		honoured := map[string]bool{"to": true, "cc": true, "subject": true, "keywords": true, "in-reply-to": true, "body": true}
		reported := map[int]bool{}
		for _, d := range dropped {
			reported[d.Offset] = true
		}
		if u.HasSearch() {
			base := u.Offset(locator.SearchComponent)
			eachHeader(u.Search(), func(name, value string, nameAt, _ int, eq bool) {
				if !eq && name == "" {
					return
				}
				if !eq || !honoured[strings.ToLower(locator.Decode(name))] {
					if !reported[base+nameAt] {
						t.Fatalf("Compose(%q): the field %q at %d is neither honoured nor reported", s, name, base+nameAt)
					}
				}
			})
		}
		m.From, m.Date, m.MessageID = "me@example.net", time.Unix(0, 0).UTC(), "<1@example.net>"
		for _, eight := range []bool{false, true} {
			b, cte, err := m.Bytes(eight)
			if err != nil {
				t.Fatalf("Compose(%q): Bytes: %v", s, err)
			}
			checkMessage(t, b, cte, m)
		}
	})
}

// FuzzBytes: any Subject, Keywords and Body a caller sets either make
// a message checkMessage accepts or a *locator.SchemeError (a CR, LF or NUL in a
// header field, text that is not UTF-8).
func FuzzBytes(f *testing.F) {
	f.Add("café", "k1, k2", "line\n.dot\r\nend", false)
	f.Add(strings.Repeat("x", 1000), "", strings.Repeat("é", 600), true)
	f.Add("a\r\nBcc: x@y", "", "", true)
	f.Add("  two  spaces  ", "\t", "\r\r\n\n", false)
	f.Add("=?utf-8?q?x?=", "a\x07b", "a\x00b", true)
	f.Fuzz(func(t *testing.T, subject, keywords, body string, eight bool) {
		m := &Message{From: "me@example.net", To: []string{"joe@example.com"}, Subject: subject, Keywords: keywords, Body: body,
			Date: time.Unix(0, 0).UTC(), MessageID: "<1@example.net>"}
		b, cte, err := m.Bytes(eight)
		if err != nil {
			var e *locator.SchemeError
			if !errors.As(err, &e) {
				t.Fatalf("Bytes: untyped error %v", err)
			}
			if !strings.ContainsAny(subject+keywords, "\r\n\x00") && invalidUTF8(subject) < 0 && invalidUTF8(keywords) < 0 && invalidUTF8(body) < 0 {
				t.Fatalf("Bytes refused %q, %q, %q: %v", subject, keywords, body, err)
			}
			return
		}
		checkMessage(t, b, cte, m)
	})
}

// FuzzParseAddrSpec: an address is accepted as itself in wire form,
// which is accepted again unchanged, and holds no white space or
// control octet outside a quoted-string; a refusal has an offset in s.
func FuzzParseAddrSpec(f *testing.F) {
	for _, s := range []string{"joe@example.com", `"a b"@c`, "user@納豆.example.org", "a@[1.2.3.4]", "a..b@c", `"\\\"x"@y`, "a@b\r\nc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAddrSpec(s)
		if err != nil {
			var e *locator.SchemeError
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(s) {
				t.Fatalf("ParseAddrSpec(%q): %v", s, err)
			}
			return
		}
		again, err := ParseAddrSpec(a)
		if err != nil || again != a {
			t.Fatalf("ParseAddrSpec(%q) = %q, which reads back as %q, %v", s, a, again, err)
		}
		if !isASCII(a) || strings.ContainsAny(a, "\r\n\x00") || len(a) > 64+1+255 {
			t.Fatalf("ParseAddrSpec(%q) = %q", s, a)
		}
		if !strings.HasPrefix(a, `"`) && strings.ContainsAny(a, " \t") {
			t.Fatalf("ParseAddrSpec(%q) = %q: white space outside a quoted-string", s, a)
		}
	})
}

// discardConn is a connection whose writes go nowhere: reply and hello
// read from the fuzzer's octets.
type discardConn struct{ net.Conn }

func (discardConn) Write(p []byte) (int, error) { return len(p), nil }

// FuzzReply: whatever a server sends, the reply reader returns a reply
// whose code is 2xx-5xx with at least one line, or a typed error; EHLO's
// extension list is read from any reply without a panic.
func FuzzReply(f *testing.F) {
	f.Add([]byte("220 localhost ESMTP\r\n"))
	f.Add([]byte("250-localhost\r\n250-8BITMIME\r\n250-SIZE 1000\r\n250 AUTH PLAIN LOGIN\r\n"))
	f.Add([]byte("250-a\r\n251 b\r\n"))
	f.Add([]byte("25"))
	f.Add([]byte("550\n"))
	f.Add([]byte("500 x\r\n250 y\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		req := &access.Request{Client: &access.Client{MaxLine: 256}}
		c := &smtpConn{req: req, conn: discardConn{}, br: bufio.NewReader(bytes.NewReader(data)), server: "fuzz"}
		for range 8 {
			r, err := c.reply("X", 250)
			if r != nil && (r.code < 200 || r.code > 599 || len(r.lines) == 0) {
				t.Fatalf("reply %+v from %q", r, data)
			}
			if err != nil {
				var se *access.ServerError
				var pe *access.ProtocolError
				if !errors.As(err, &se) && !errors.As(err, &pe) {
					t.Fatalf("reply: untyped error %v from %q", err, data)
				}
				if se != nil && r == nil {
					t.Fatalf("a ServerError without its reply")
				}
				if pe != nil {
					break
				}
			}
		}
		c = &smtpConn{req: req, conn: discardConn{}, br: bufio.NewReader(bytes.NewReader(data)), server: "fuzz"}
		ext, err := c.hello("client.example")
		if err == nil && ext == nil {
			t.Fatalf("hello: no extensions and no error")
		}
	})
}
