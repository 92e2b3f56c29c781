package gopher

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
)

// countCloser counts its Close calls.
type countCloser struct{ n int }

func (c *countCloser) Close() error { c.n++; return nil }

// streamRequest is a request with small limits, for the stream fuzzers.
func streamRequest(maxEntries uint8) *access.Request {
	return &access.Request{Client: &access.Client{MaxLine: 128, MaxEntries: int(maxEntries%8) + 1, MaxSize: 4096}}
}

// FuzzMenuReader: a menu read as a stream (RFC 1436 §3.8) gives, entry
// by entry, what its lines parsed one by one give, up to the "." line or
// the end, at most MaxEntries entries (then a *access.TruncatedError),
// and otherwise ends with io.EOF, a *access.ProtocolError (a line too
// long or not a menu line) or access.ErrTooLarge (MaxSize); the
// connection is closed once.
func FuzzMenuReader(f *testing.F) {
	for _, s := range []string{
		"0a\t/a\th\t70\r\n1b\t/b\th\t70\r\n.\r\n", "iinfo\r\n+more\t/m\th2\t70\r\n", "0a\t/a\th\t70", "", ".\r\n0late\t/l\th\t1\r\n",
		"0a\t/a\th\t70\r\n0a\t/a\th\t70\r\n0a\t/a\th\t70\r\n0a\t/a\th\t70\r\n0a\t/a\th\t70\r\n0a\t/a\th\t70\r\n0a\t/a\th\t70\r\n0a\t/a\th\t70\r\n0a\t/a\th\t70\r\n",
		"0bad port\t/\th\tx\r\n", strings.Repeat("x", 200) + "\r\n",
	} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, menu []byte, max uint8) {
		req := streamRequest(max)
		x := &exchange{g: &URL{Type: "1"}}
		cc := &countCloser{}
		res := x.menu(bufio.NewReader(bounded(bytes.NewReader(menu), req, 0)), cc, req, "gopher://h/1")
		got, err := res.Listing.ReadAll()
		if cc.n != 1 {
			t.Fatalf("closed %d times", cc.n)
		}
		var te *access.TruncatedError
		var pe *access.ProtocolError
		switch {
		case err == nil, errors.As(err, &te), errors.As(err, &pe), errors.Is(err, access.ErrTooLarge):
		default:
			t.Fatalf("error %T %v", err, err)
		}
		if len(got) > req.MaxEntries() {
			t.Fatalf("%d entries past MaxEntries %d", len(got), req.MaxEntries())
		}
		if len(menu) > 4096 || bytes.Contains(menu, []byte("\r\r")) {
			return // MaxSize, or a line end the simple reading below does not model
		}
		// The same menu read line by line.
		var want []access.Entry
		prev := ""
		wantEnd := "eof"
		for i, l := range strings.SplitAfter(string(menu), "\n") {
			if l == "" {
				break
			}
			line := strings.TrimSuffix(l, "\n")
			if line != l {
				line = strings.TrimSuffix(line, "\r") // a last line without its LF keeps a CR (access.ReadLine)
			}
			if len(line) > 128 {
				wantEnd = "protocol"
				break
			}
			if line == "." {
				break
			}
			if i == req.MaxEntries() {
				wantEnd = "truncated"
				break
			}
			it, perr := ParseMenuLine(line)
			if perr != nil {
				wantEnd = "protocol"
				break
			}
			e := it.Entry()
			if it.Type == '+' && prev != "" {
				e.Type = prev
			}
			prev = e.Type
			want = append(want, e)
		}
		end := "eof"
		switch {
		case errors.As(err, &te):
			end = "truncated"
		case err != nil:
			end = "protocol"
		}
		if end != wantEnd || !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("%q: read %d entries, end %s (%v); line by line %d, end %s", menu, len(got), end, err, len(want), wantEnd)
		}
	})
}

// FuzzAttributeReader: an attribute reply read item by item (Gopher+
// §2.5, §2.7) gives the items ParseAttributes reads from the whole
// reply, or fails where it fails, and never more than MaxEntries items.
func FuzzAttributeReader(f *testing.F) {
	for _, s := range []string{
		"+INFO: 0a\t/a\th\t70\t+\r\n+VIEWS:\r\n text/plain: <2k>\r\n+ABSTRACT:\r\n one\r\n two\r\n+INFO: 1b\t/b\th\t70\t+\r\n.\r\n",
		"+ADMIN:\r\n Admin: x\r\n", " lone\r\n", "+INFO: 3err\r\n\r\n  \r\n+INFO: 0c\t/c\th\t70\r\n", "",
		"+INFO: 0a\t/a\th\t70\r\n+INFO: 0a\t/a\th\t70\r\n+INFO: 0a\t/a\th\t70\r\n+INFO: 0a\t/a\th\t70\r\n+INFO: 0a\t/a\th\t70\r\n+INFO: 0a\t/a\th\t70\r\n+INFO: 0a\t/a\th\t70\r\n+INFO: 0a\t/a\th\t70\r\n+INFO: 0a\t/a\th\t70\r\n",
	} {
		f.Add([]byte(s), uint8(7))
	}
	f.Fuzz(func(t *testing.T, reply []byte, max uint8) {
		req := streamRequest(max)
		req.Client.MaxEntries = 64 // lines of one item; items are counted by the listing below
		x := &exchange{g: &URL{Type: "1"}}
		cc := &countCloser{}
		res := x.attributeListing(bytes.NewReader(reply), cc, req, "gopher://h/1")
		got, err := res.Listing.ReadAll()
		if cc.n != 1 {
			t.Fatalf("closed %d times", cc.n)
		}
		var te *access.TruncatedError
		var pe *access.ProtocolError
		switch {
		case err == nil, errors.As(err, &te), errors.As(err, &pe), errors.Is(err, access.ErrTooLarge):
		default:
			t.Fatalf("error %T %v", err, err)
		}
		if len(got) > 64 {
			t.Fatalf("%d items past MaxEntries", len(got))
		}
		if len(reply) > 4096 || bytes.Contains(reply, []byte("\r\r")) || err != nil {
			return
		}
		var lines []string
		for _, l := range strings.SplitAfter(string(reply), "\n") {
			if l == "" {
				break
			}
			line := strings.TrimSuffix(l, "\n")
			if line != l {
				line = strings.TrimSuffix(line, "\r") // a last line without its LF keeps a CR (access.ReadLine)
			}
			if line == "." && strings.HasSuffix(l, "\n") {
				break
			}
			lines = append(lines, line)
		}
		attrs, aerr := ParseAttributes(lines, 0)
		if aerr != nil {
			t.Fatalf("%q: read item by item, the reply gives %d items; whole, %v", reply, len(got), aerr)
		}
		if len(attrs) != len(got) {
			t.Fatalf("%q: item by item %d items, whole %d", reply, len(got), len(attrs))
		}
		for i := range attrs {
			if e := attrs[i].Entry(); !reflect.DeepEqual(e, got[i]) {
				t.Fatalf("%q: item %d: %+v, whole %+v", reply, i, got[i], e)
			}
		}
	})
}

var _ io.Closer = (*countCloser)(nil)
