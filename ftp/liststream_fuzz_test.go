package ftp

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// nullConn is a connection that accepts every write and has nothing to
// read: the control and data connections of the listing fuzzer.
type nullConn struct{}

func (nullConn) Read([]byte) (int, error)         { return 0, net.ErrClosed }
func (nullConn) Write(p []byte) (int, error)      { return len(p), nil }
func (nullConn) Close() error                     { return nil }
func (nullConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (nullConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (nullConn) SetDeadline(time.Time) error      { return nil }
func (nullConn) SetReadDeadline(time.Time) error  { return nil }
func (nullConn) SetWriteDeadline(time.Time) error { return nil }

// FuzzListingStream: NLST's data (RFC 959 §4.1.3, one name a line) read
// as a stream gives one entry per distinct name other than "." and "..",
// in order, each with the URL Build writes for it in the listed
// directory (RFC 1738 §3.2.2); more than MaxEntries lines end it with an
// *access.TruncatedError after the entries of the first MaxEntries; a
// line longer than MaxLine is an *access.ProtocolError, more than
// MaxSize octets access.ErrTooLarge; nothing else.
func FuzzListingStream(f *testing.F) {
	for _, s := range []string{
		"a\r\nb\r\n", "a\nb\n.\n..\na\n", "", "\r\n\r\n", "dir one\r\nx;type=d\r\n%41\r\n", "last", strings.Repeat("n", 100) + "\r\n",
		"1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\n",
	} {
		f.Add([]byte(s), uint8(4))
	}
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		req := &access.Request{Client: &access.Client{MaxLine: 64, MaxEntries: int(max%8) + 1, MaxSize: 4096}}
		u, err := locator.Parse("ftp://h/d/")
		if err != nil {
			t.Fatal(err)
		}
		req.URL = u
		s := &session{req: req, u: u, masked: "ftp://h/d/", conn: nullConn{}, br: bufio.NewReader(strings.NewReader("226 done\r\n"))}
		tr := &transfer{s: s, line: "NLST", data: nullConn{}, br: bufio.NewReaderSize(&sizeLimit{r: bytes.NewReader(data), left: 4096}, 16<<10)}
		ls := &lister{s: s, u: u, masked: "ftp://h/d/", req: req, t: tr, max: req.MaxEntries(), seen: map[string]bool{}, dirs: []string{"d"}}
		got, err := access.NewListing(req.MaxEntries(), ls.next, ls.close).ReadAll()
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
		if len(data) > 4096 {
			return
		}
		var want []string
		end, lines, seen := "eof", 0, map[string]bool{}
		for _, l := range strings.SplitAfter(string(data), "\n") {
			name := strings.TrimSuffix(l, "\n")
			if name != l {
				name = strings.TrimSuffix(name, "\r") // a last line without its LF keeps a CR (access.ReadLine)
			}
			if len(name) > 64 {
				end = "error"
				break
			}
			if name == "" {
				continue
			}
			if lines++; lines > req.MaxEntries() {
				end = "truncated"
				break
			}
			if name == "." || name == ".." || seen[name] {
				continue
			}
			seen[name] = true
			u, berr := (&URL{Host: "h", Path: Path{Cwd: []string{"d"}, Name: name, HasName: true}}).Build()
			if berr != nil {
				end = "error"
				break
			}
			want = append(want, name+" "+u)
		}
		gotEnd := "eof"
		switch {
		case errors.As(err, &te):
			gotEnd = "truncated"
		case err != nil:
			gotEnd = "error"
		}
		var have []string
		for _, e := range got {
			if e.Type != access.TypeFile || e.Size != -1 {
				t.Fatalf("undescribed entry %+v", e)
			}
			have = append(have, e.Name+" "+e.URL)
		}
		if gotEnd != end || strings.Join(have, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%q: %q, end %s (%v); want %q, end %s", data, have, gotEnd, err, want, end)
		}
	})
}
