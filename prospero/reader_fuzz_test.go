package prospero

import (
	"encoding/binary"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// FuzzParseHeader: arbitrary octets as an ARDP packet: no panic; an
// accepted header lies inside the packet, is version 0, and gives the
// defaults of the ARDP chapter to the fields it leaves out.
func FuzzParseHeader(f *testing.F) {
	for _, s := range [][]byte{{1}, {3, 0, 1, 'x'}, {7, 0, 1, 0, 2, 0, 0}, {9, 0, 1, 0, 0, 0, 0, 0, 16},
		{11, 0, 1, 0, 0, 0, 0, 0, 0, 0, 9}, {12, 0, 1, 0, 16, 0, 19, 0, 1, 0, 0, 0x80},
		{19, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 127, 0, 0, 1, 5, 245}, {20, 0, 7, 0, 0, 0, 0, 0, 0, 0, 5, 0, 254, 3, 0, 4, 0, 0, 0, 9},
		{17, 0, 7, 0, 1, 0, 1, 0, 0, 0, 0, 0x07, 0, 0, 1, 0, 2}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pkt []byte) {
		h, data, err := ParseHeader(pkt)
		if err != nil {
			var he *HeaderError
			if !errors.As(err, &he) || he.Offset < 0 || he.Offset > len(pkt) {
				t.Fatalf("error %v", err)
			}
			return
		}
		if h.Version != 0 || h.Len < 1 || h.Len > len(pkt) || len(data) != len(pkt)-h.Len {
			t.Fatalf("header %+v of a %d-octet packet, %d data octets", h, len(pkt), len(data))
		}
		if h.Len < 5 && (h.Seq != 1 || h.Total != 1) {
			t.Fatalf("no packet number: seq %d total %d, want 1 and 1", h.Seq, h.Total)
		}
		if h.Len >= 3 && h.CID != binary.BigEndian.Uint16(pkt[1:]) {
			t.Fatalf("cid %d", h.CID)
		}
	})
}

// FuzzTokens: a line's tokens, quoted again and joined, read back the
// same (Prospero §2.1); no panic on anything.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{"LINK  L FILE a INTERNET-D H(1) ASCII '/a' 0", "SIZE SEQUENCE 6' bytes'", "'it''s'", "'open", "a\tb\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		toks, err := tokens(line)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(line) {
				t.Fatalf("error %v", err)
			}
			return
		}
		q := make([]string, len(toks))
		for i, s := range toks {
			q[i] = quote(s)
		}
		again, err := tokens(strings.Join(q, " "))
		if err != nil || len(again) != len(toks) {
			t.Fatalf("%q: tokens %q, quoted again %q (%v)", line, toks, again, err)
		}
		for i := range toks {
			if again[i] != toks[i] {
				t.Fatalf("token %d: %q, then %q", i, toks[i], again[i])
			}
		}
	})
}

// FuzzLinkAttribute: LINK and ATTRIBUTE lines and their access methods:
// no panic; an access method's URL, when there is one, is a URL that
// parses with its own scheme's rules.
func FuzzLinkAttribute(f *testing.F) {
	for _, s := range []string{
		"LINK  L EXTERNAL README-ftp INTERNET-D ftp.example.org ASCII '/pub/README' 0",
		"LINK L FILE a INTERNET-D H(1) ASCII '/a' 0 DEST-EXP x ID REMOTE 7",
		"ATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP '' '' '' '' ASCII",
		"ATTRIBUTE FIELD FIELD ACCESS-METHOD GOPHER INTERNET-D MERMAID(150) ASCII '1/Fun Stuff' 1",
		"ATTRIBUTE FIELD FIELD ACCESS-METHOD FTP INTERNET-D H ASCII /ftp/pub/x BINARY",
		"ATTRIBUTE>> OBJECT INTRINSIC ACCESS-METHOD SEQUENCE LOCAL '' '' ASCII /x",
	} {
		f.Add(s)
	}
	link := &link{HostType: "INTERNET-D", Host: "h(21)", HSONameType: "ASCII", HSOName: "/pub/x"}
	f.Fuzz(func(t *testing.T, line string) {
		if l, err := parseLink(line); err == nil {
			if _, err := objectURL(l); err == nil {
				p := &plan{pr: &URL{Host: "h", HSOName: "/d"}}
				e, err := p.entry(nil, l)
				if err == nil {
					if _, perr := locator.Parse(e.URL); perr != nil {
						t.Fatalf("entry URL %q: %v", e.URL, perr)
					}
				}
			}
		}
		a, err := ParseAttribute(line)
		if err != nil {
			return
		}
		ms, err := accessMethods([]Attribute{*a}, link)
		if err != nil {
			return
		}
		for _, m := range ms {
			s, err := m.URL()
			if err != nil || s == "" {
				continue
			}
			u, perr := locator.Parse(s)
			if perr != nil {
				t.Fatalf("%q: access URL %q: %v", line, s, perr)
			}
			for _, pb := range u.Problems() {
				if pb.Severity >= locator.Violation && pb.Rule != "host" {
					t.Fatalf("%q: access URL %q: %v", line, s, pb)
				}
			}
		}
	})
}

// FuzzReply: arbitrary text as a LIST reply: no panic; at most maxLinks
// links; every entry's URL parses.
func FuzzReply(f *testing.F) {
	for _, s := range []string{
		"VERSION 5 P53.17May94b\nLINK  L EXTERNAL README-ftp INTERNET-D ftp.example.org ASCII '/pub/README' 0\nATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP '' '' '' '' ASCII\n",
		"VERSION 5 x\nFAILURE NOT-FOUND\n", "NONE-FOUND\n", "FORWARDED INTERNET-D h(1) ASCII /x 0\n", "WARNING MESSAGE hi\nLINK NULL NULL a NULL NULL NULL NULL NULL\n",
		"VERSION 5 'a\nb'\nLINK L FILE 'x\ny' INTERNET-D H ASCII '/x' 0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rep, err := readReply(strings.NewReader(text), 256, 8, nil)
		if rep == nil {
			t.Fatal("nil reply")
		}
		if len(rep.Links) > 8 {
			t.Fatalf("%d links", len(rep.Links))
		}
		if err != nil {
			return
		}
		p := &plan{pr: &URL{Host: "h", HSOName: "/d"}}
		u, _ := locator.Parse("prospero://h//d")
		res, err := p.listing(u, nil, rep)
		if err != nil {
			return
		}
		for _, e := range entries(res.Listing) {
			if _, perr := locator.Parse(e.URL); perr != nil {
				t.Fatalf("entry URL %q: %v", e.URL, perr)
			}
		}
	})
}

// fuzzConn hands the exchange the fuzz input's datagrams, then fails.
type fuzzConn struct {
	net.Conn
	in     [][]byte
	writes int
	octets int
}

func (c *fuzzConn) Read(b []byte) (int, error) {
	if len(c.in) == 0 {
		return 0, errors.New("end of the fuzz input")
	}
	p := c.in[0]
	c.in = c.in[1:]
	return copy(b, p), nil
}

func (c *fuzzConn) Write(b []byte) (int, error)        { c.writes++; c.octets += len(b); return len(b), nil }
func (c *fuzzConn) SetReadDeadline(time.Time) error    { return nil }
func (c *fuzzConn) SetDeadline(time.Time) error        { return nil }
func (c *fuzzConn) SetWriteDeadline(t time.Time) error { return nil }

// FuzzExchange: arbitrary datagrams (each a 2-octet length and its
// octets) as the server's packets: no panic; the client never sends
// more datagrams than it received plus the request, nor more octets
// than came (no amplification); the data delivered never exceeds the
// data received.
func FuzzExchange(f *testing.F) {
	seed := func(pkts ...[]byte) []byte {
		var b []byte
		for _, p := range pkts {
			b = binary.BigEndian.AppendUint16(b, uint16(len(p)))
			b = append(b, p...)
		}
		return b
	}
	f.Add(seed([]byte("\x03\x00\x01VERSION 5 x\n")))
	f.Add(seed([]byte("\x07\x00\x01\x00\x02\x00\x00b\n"), []byte("\x0c\x00\x01\x00\x01\x00\x02\x00\x01\x00\x00\x80a")))
	f.Add(seed([]byte("\x0d\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01")))
	f.Fuzz(func(t *testing.T, in []byte) {
		c := &fuzzConn{}
		received := 0
		for len(in) >= 2 {
			n := int(binary.BigEndian.Uint16(in))
			in = in[2:]
			if n > len(in) {
				n = len(in)
			}
			c.in = append(c.in, in[:n])
			received += n
			in = in[n:]
		}
		count := len(c.in)
		req := &access.Request{Client: &access.Client{IdleTimeout: time.Minute, MaxSize: 1 << 16}}
		x := newExchange(c, req, 1, []byte("VERSION\n"))
		if err := x.start(); err != nil {
			t.Fatal(err)
		}
		delivered := 0
		buf := make([]byte, 512)
		for {
			n, err := x.Read(buf)
			delivered += n
			if err != nil {
				break
			}
		}
		if c.writes > 1+count {
			t.Fatalf("%d datagrams sent for %d received", c.writes, count)
		}
		if c.octets-len(x.request) > received {
			t.Fatalf("%d octets sent after the request for %d received", c.octets-len(x.request), received)
		}
		if delivered > received {
			t.Fatalf("%d octets delivered of %d received", delivered, received)
		}
	})
}
