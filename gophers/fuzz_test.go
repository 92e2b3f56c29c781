package gophers_test

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/gophers"
)

// FuzzPlainReply: whatever a server that is not TLS sends, PlainReply
// keeps at most MaxReply octets, a prefix of what was sent, ending at
// the first LF when there is one within the bound, and reads no more
// than it keeps.
func FuzzPlainReply(f *testing.F) {
	for _, s := range []string{"", "Error", "Error: File or directory not found!\r\n", "3Not found\terror.host\t1\r\n.\r\n",
		"\x80\x01\x02", strings.Repeat("i", 600), "a\nb\nc", "\x16\x03\x01\x00"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, sent string, head int) {
		if head < 0 || head > len(sent) {
			head = len(sent) % 6
		}
		if head > len(sent) {
			head = len(sent)
		}
		r := strings.NewReader(sent[head:])
		got := gophers.PlainReply([]byte(sent[:head]), iotest.OneByteReader(r))
		if len(got) > gophers.MaxReply {
			t.Fatalf("%d octets kept, more than MaxReply", len(got))
		}
		if !strings.HasPrefix(sent, got) {
			t.Fatalf("%q is not a prefix of %q", got, sent)
		}
		if i := strings.IndexByte(got, '\n'); i >= 0 && i != len(got)-1 {
			t.Fatalf("%q goes past its first LF", got)
		}
		want := sent[:min(len(sent), gophers.MaxReply)]
		if i := strings.IndexByte(want, '\n'); i >= 0 {
			want = want[:i+1]
		}
		if got != want {
			t.Fatalf("PlainReply = %q, want %q", got, want)
		}
		if read := len(sent) - head - r.Len(); head+read > max(len(got), head) {
			t.Fatalf("read %d octets past the %d given, kept %d", read, head, len(got))
		}
	})
}

// FuzzSameServer: a menu line read over gophers becomes an entry whose
// URL is the gopher one, or the same text with the prefix "gophers"
// exactly when it names the menu's host and port; that URL is a gophers
// URL of the same structure.
func FuzzSameServer(f *testing.F) {
	for _, s := range []string{"0Here\t/hello.txt\t127.0.0.1\t7070", "1Elsewhere\t/\texample.org\t70", "1Top\t\tEXAMPLE.org\t70",
		"0x\t/a%09b\texample.org\t0070", "8Session\tuser\texample.org\t23", "hWeb\tURL:gopher://example.org/\texample.org\t70",
		"1Menu\tsel\t[::1]\t70", "0sp ace\t\x7f\texample.org\t70\t+", "iinfo\t\t\t"} {
		f.Add(s, "example.org", 70)
	}
	f.Fuzz(func(t *testing.T, line, host string, port int) {
		it, err := gopher.ParseMenuLine(line)
		if err != nil {
			return
		}
		e := it.Entry()
		if e.Type == access.TypeLink {
			return // a "URL:" link keeps its author's scheme; the listing passes it by
		}
		host = strings.ToLower(host)
		got := gophers.SameServer(e.URL, host, port)
		if got == e.URL {
			if strings.HasPrefix(e.URL, "gopher://") {
				if u, err := locator.Parse(e.URL); err == nil && strings.ToLower(u.Host()) == host && u.EffectivePort() == port {
					t.Fatalf("%q names the menu's server %s:%d and stayed gopher", e.URL, host, port)
				}
			}
			return
		}
		if got != "gophers"+strings.TrimPrefix(e.URL, "gopher") {
			t.Fatalf("SameServer(%q) = %q", e.URL, got)
		}
		g, err := gophers.Parse(got)
		if err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		want, err := gopher.Parse(e.URL)
		if err != nil {
			t.Fatalf("%q: %v", e.URL, err)
		}
		if g.URL != *want || strings.ToLower(g.Host) != host {
			t.Fatalf("%q reads %+v, the gopher URL %+v", got, g.URL, *want)
		}
		if !bytes.Equal([]byte(it.Selector), []byte(g.Selector)) {
			t.Fatalf("selector %q became %q", it.Selector, g.Selector)
		}
	})
}
