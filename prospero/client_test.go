package prospero

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// TestParseHeader: every header length the ARDP chapter allows, as the
// reference server sends them (3, 7, 9 and 12 octets; 1 and 11 octets
// from its code), and the refusals.
func TestParseHeader(t *testing.T) {
	cases := []struct {
		name string
		pkt  []byte
		want string // fmt of the fields, or the error
		data string
	}{
		{"1 octet", []byte{1, 'x'}, "len 1 cid 0 seq 1 total 1 rcvd -1 wait -1 flags 00 opt 0", "x"},
		{"3 octets (one-packet reply)", []byte{3, 0x12, 0x34, 'x'}, "len 3 cid 4660 seq 1 total 1 rcvd -1 wait -1 flags 00 opt 0", "x"},
		{"5 octets", []byte{5, 0, 7, 0, 2}, "len 5 cid 7 seq 2 total 0 rcvd -1 wait -1 flags 00 opt 0", ""},
		{"7 octets (total not known)", []byte{7, 0, 7, 0, 3, 0, 0, 'y'}, "len 7 cid 7 seq 3 total 0 rcvd -1 wait -1 flags 00 opt 0", "y"},
		{"9 octets (ACK)", []byte{9, 0, 7, 0, 0, 0, 0, 0, 16}, "len 9 cid 7 seq 0 total 0 rcvd 16 wait -1 flags 00 opt 0", ""},
		{"11 octets (wait)", []byte{11, 0, 7, 0, 0, 0, 0, 0, 0, 0, 30}, "len 11 cid 7 seq 0 total 0 rcvd 0 wait 30 flags 00 opt 0", ""},
		{"12 octets (please ACK)", []byte{12, 0, 7, 0, 16, 0, 19, 0, 1, 0, 0, 0x80, 'z'}, "len 12 cid 7 seq 16 total 19 rcvd 1 wait 0 flags 80 opt 0", "z"},
		{"13 octets (refused)", []byte{13, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, "len 13 cid 7 seq 0 total 0 rcvd 0 wait 0 flags 00 opt 1", ""},
		{"priority and protocol id", []byte{17, 0, 7, 0, 1, 0, 1, 0, 0, 0, 0, 0x06, 0, 0, 1, 0, 2, 'd'}, "len 17 cid 7 seq 1 total 1 rcvd 0 wait 0 flags 06 opt 0", "d"},
		{"address information", []byte{16, 0, 7, 0, 1, 0, 1, 0, 0, 0, 0, 0x01, 0, 9, 1, 0xaa}, "len 16 cid 7 seq 1 total 1 rcvd 0 wait 0 flags 01 opt 0", ""},
		{"redirect", []byte{19, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 10, 0, 0, 1, 0x05, 0xf5}, "len 19 cid 7 seq 0 total 0 rcvd 0 wait 0 flags 00 opt 4 to 10.0.0.1:1525", ""},
		{"queue status", []byte{20, 0, 7, 0, 0, 0, 0, 0, 0, 0, 5, 0, 254, 3, 0, 4, 0, 0, 0, 9}, "len 20 cid 7 seq 0 total 0 rcvd 0 wait 5 flags 00 opt 254 queue 4 time 9", ""},
		{"empty", []byte{}, "ARDP header: offset 0: ARDP octet 0: an empty datagram", ""},
		{"length 0", []byte{0, 1}, "ARDP header: offset 0: ARDP octet 0: a header length of 0 (the length includes octet 0)", ""},
		{"version 2", []byte{0x83, 0, 1}, "ARDP header: offset 0: ARDP octet 0: ARDP version 2; this is version 0 (octet 0 is 0x83)", ""},
		{"longer than the datagram", []byte{9, 0, 1}, "ARDP header: offset 0: ARDP octet 0: a header of 9 octets in a datagram of 3", ""},
		{"split field", []byte{6, 0, 1, 0, 1, 0}, "ARDP header: offset 5: ARDP octets 1–10: a header length of 6 splits a two-octet field", ""},
		{"redirect cut short", []byte{15, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 10, 0}, "ARDP header: offset 13: ARDP octets 13 and above: the redirect option needs 6 octets at 13, past the header's 15", ""},
		{"priority cut short", []byte{13, 0, 7, 0, 1, 0, 1, 0, 0, 0, 0, 0x02, 0}, "ARDP header: offset 13: ARDP octets 13 and above: the priority needs 2 octets at 13, past the header's 13", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, data, err := ParseHeader(c.pkt)
			if err != nil {
				var he *HeaderError
				if !errors.As(err, &he) || err.Error() != c.want {
					t.Fatalf("error %v, want %s", err, c.want)
				}
				return
			}
			if got := describe(h); got != c.want || string(data) != c.data {
				t.Fatalf("got %s data %q, want %s data %q", got, data, c.want, c.data)
			}
		})
	}
}

func describe(h Header) string {
	r, w := -1, -1
	if h.HasRcvd {
		r = int(h.RcvdThru)
	}
	if h.HasWait {
		w = int(h.Wait)
	}
	s := fmt.Sprintf("len %d cid %d seq %d total %d rcvd %d wait %d flags %02x opt %d", h.Len, h.CID, h.Seq, h.Total, r, w, h.Flags, h.Option)
	if h.Redirect.IsValid() {
		s += " to " + h.Redirect.String()
	}
	if h.QueuePos >= 0 {
		s += fmt.Sprintf(" queue %d time %d", h.QueuePos, h.SystemTime)
	}
	return s
}

// TestTokens: Prospero §"Spaces, quoting, and line-feeds".
func TestTokens(t *testing.T) {
	cases := []struct{ in, want string }{
		{"LINK  L FILE", "[LINK L FILE]"},
		{"a\tb ", "[a b]"},
		{"'' x", "[ x]"},
		{"SIZE SEQUENCE 6' bytes'", "[SIZE SEQUENCE 6 bytes]"},
		{"'it''s' 'a b'", "[it's a b]"},
		{"'line\nfeed'", "[line\nfeed]"},
		{"'open", "Prospero message: offset 0: Prospero §2.1 quoting: a quote that is not closed"},
		{"a\x00b", "Prospero message: offset 1: Prospero §2.1 quoting: a NUL, the one character that cannot be quoted"},
	}
	for _, c := range cases {
		got, err := tokens(c.in)
		s := "[" + strings.Join(got, " ") + "]"
		if err != nil {
			s = err.Error()
		}
		if s != c.want {
			t.Errorf("Tokens(%q) = %s, want %s", c.in, s, c.want)
		}
	}
}

// TestReadLine: a quoted LF does not end a line (Prospero §2.1), the
// bound applies.
func TestReadLine(t *testing.T) {
	rep, err := readReply(strings.NewReader("VERSION 5 'a\nb'\nLINK L FILE 'x\ny' INTERNET-D H ASCII '/x' 0\n"), 100, 10, nil)
	if err != nil || rep.Version != "5 a\nb" || len(rep.Links) != 1 || rep.Links[0].Name != "x\ny" {
		t.Fatalf("%+v %v", rep, err)
	}
	_, err = readReply(strings.NewReader("VERSION "+strings.Repeat("5", 200)), 100, 10, nil)
	var pe *access.ProtocolError
	if !errors.As(err, &pe) {
		t.Fatalf("long line: %v", err)
	}
	rep, err = readReply(strings.NewReader("LINK L FILE a INTERNET-D H ASCII '/a' 0\nLINK L FILE b INTERNET-D H ASCII '/b' 0\n"), 100, 1, nil)
	if err != nil || !rep.Truncated || len(rep.Links) != 1 {
		t.Fatalf("MaxEntries: %+v %v", rep, err)
	}
}

// TestLinesAndAttributes: LINK and ATTRIBUTE lines (Prospero §"Links",
// §"Link Attributes"), as dirsrv sends them and as the text writes them.
func TestLinesAndAttributes(t *testing.T) {
	l, err := parseLink("LINK  L EXTERNAL README-ftp INTERNET-D ftp.example.org ASCII '/pub/README' 0 DEST-EXP 19940101000000Z ID REMOTE 7")
	if err != nil || l.Target != "EXTERNAL" || l.Name != "README-ftp" || l.HSOName != "/pub/README" || l.DestExp != "19940101000000Z" || len(l.IDs) != 1 {
		t.Fatalf("%+v %v", l, err)
	}
	if l, err := parseLink("LINK NULL NULL secret NULL NULL NULL NULL NULL"); err != nil || !l.NoReadAccess {
		t.Fatalf("NULL link: %+v %v", l, err)
	}
	for _, bad := range []string{"LINK L FILE a", "LINK L FILE a b c d e f EXTRA", "LINK L FILE a b c d e f DEST-EXP", "ATTRIBUTE"} {
		if _, err := parseLink(bad); err == nil {
			t.Errorf("ParseLink(%q) accepted", bad)
		}
	}
	cases := []struct{ in, want string }{
		{"ATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP '' '' '' '' ASCII", "0 CACHED FIELD ACCESS-METHOD  [AFTP     ASCII]"},
		{"ATTRIBUTE CACHED FIELD ACCESS-METHOD SEQUENCE AFTP '' '' '' '' ASCII", "0 CACHED FIELD ACCESS-METHOD SEQUENCE [AFTP     ASCII]"},
		{"ATTRIBUTE OBJECT INTRINSIC SIZE SEQUENCE 6' bytes'", "0 OBJECT INTRINSIC SIZE SEQUENCE [6 bytes]"},
		{"ATTRIBUTE>> LINK APPLICATION X LINK L FILE", "2 LINK APPLICATION X LINK [L FILE]"},
		{"ATTRIBUTE LINK OTHER X", "Prospero message: offset 15: Prospero §Link Attributes: the attribute kind is FIELD, APPLICATION or INTRINSIC, not \"OTHER\""},
		{"ATTRIBUTE LINK INTRINSIC X", "Prospero message: offset 26: Prospero §Link Attributes: an INTRINSIC attribute names its value type"},
		{"ATTRIBUTEX LINK FIELD X", "Prospero message: offset 9: Prospero §Link Attributes: ATTRIBUTE is followed by \">\" signs only"},
	}
	for _, c := range cases {
		a, err := ParseAttribute(c.in)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = fmt.Sprintf("%d %s %s %s %s [%s]", a.Depth, a.AppliesTo, a.Kind, a.Name, a.ValueType, strings.Join(a.Values, " "))
		}
		if got != c.want {
			t.Errorf("ParseAttribute(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestAccessMethodURL: the access methods of Prospero §"Attributes"
// (its own examples) as URLs (RFC 1738 §3.11).
func TestAccessMethodURL(t *testing.T) {
	link := &link{HostType: "INTERNET-D", Host: "FTP.X.ORG(2121)", HSONameType: "ASCII", HSOName: "/pub/a b;c"}
	cases := []struct{ line, want string }{
		{"ATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP '' '' '' '' ASCII", "ftp://FTP.X.ORG:2121/pub/a%20b%3Bc;type=a"},
		{"ATTRIBUTE FIELD FIELD ACCESS-METHOD AFTP INTERNET-D PROSPERO.ISI.EDU ASCII /pub/prospero/README-prospero-documents TEXT", "ftp://PROSPERO.ISI.EDU/pub/prospero/README-prospero-documents;type=a"},
		{"ATTRIBUTE FIELD FIELD ACCESS-METHOD FTP INTERNET-D PROSPERO.ISI.EDU ASCII /ftp/pub/README BINARY", "ftp://PROSPERO.ISI.EDU/%2Fftp/pub/README;type=i"},
		{"ATTRIBUTE FIELD FIELD ACCESS-METHOD GOPHER INTERNET-D MERMAID.MICRO.UMN.EDU(150) ASCII '1/Fun Stuff/Pyrotechnics/PyroGuide 1'", "gopher://MERMAID.MICRO.UMN.EDU:150/11/Fun%20Stuff/Pyrotechnics/PyroGuide%201"},
		{"ATTRIBUTE FIELD FIELD ACCESS-METHOD GOPHER INTERNET-D H(70) ASCII 'sel' 0", "gopher://H:70/0sel"},
		{"ATTRIBUTE FIELD FIELD ACCESS-METHOD LOCAL '' '' ASCII /auto/gum/gum/ftp/README", "file:///auto/gum/gum/ftp/README"},
		{"ATTRIBUTE FIELD FIELD ACCESS-METHOD AFS DUMMY DUMMY ASCII /grand.central.org/doc", ""},
		{"ATTRIBUTE FIELD FIELD ACCESS-METHOD NFS INTERNET-D PROSPERO.ISI.EDU ASCII ftp/pub/README /auto/gum/gum", ""},
		{"ATTRIBUTE FIELD FIELD ACCESS-METHOD AFTP INTERNET-D 'h(x)' ASCII /a", "Prospero message: offset 2: Prospero host(port): the port is a number from 1 to 65535"},
		{"ATTRIBUTE FIELD FIELD ACCESS-METHOD AFTP INTERNET-D h", "Prospero message: offset 0: Prospero §access-method: an access method is a tuple of at least 5 elements; this one has 3"},
	}
	for _, c := range cases {
		a, err := ParseAttribute(c.line)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		ms, err := accessMethods([]Attribute{*a}, link)
		if err == nil {
			got, err = ms[0].URL()
		}
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.line, got, c.want)
		}
	}
}

// TestPlan: what a URL asks of the server: fields honoured (RFC 1738
// §3.11 OBJECT-VERSION, NAME-COMPONENT), the 1993 draft's %00 version
// and attributes, and the refusals before any connection.
func TestPlan(t *testing.T) {
	cases := []struct{ url, want string }{
		{"prospero://h//pros/name", "DIRECTORY ASCII '/pros/name'|LIST ATTRIBUTES+LEXPAND COMPONENTS"},
		{"prospero://h/it's", "DIRECTORY ASCII 'it''s'|LIST ATTRIBUTES+LEXPAND COMPONENTS"},
		{"prospero://h//d;OBJECT-VERSION=3", "DIRECTORY ASCII '/d' 3|LIST ATTRIBUTES+LEXPAND COMPONENTS"},
		{"prospero://h//d;NAME-COMPONENT=a%20b", "DIRECTORY ASCII '/d'|LIST ATTRIBUTES+LEXPAND COMPONENTS 'a b'"},
		{"prospero://h//d%002", "DIRECTORY ASCII '/d' 2|LIST ATTRIBUTES+LEXPAND COMPONENTS"},
		{"prospero://h//d%00%00SIZE%00OWNER", "DIRECTORY ASCII '/d'|LIST ATTRIBUTES(ACCESS-METHOD+SIZE+OWNER)+LEXPAND COMPONENTS"},
		{"prospero://h//d;COLOUR=red", `refused by local policy (RFC 1738 §3.11, at 16): the field "COLOUR" is not one this client can honour (OBJECT-VERSION, NAME-COMPONENT): it would not identify the target`},
		{"prospero://h//d;OBJECT-VERSION=x", `refused by local policy (RFC 1738 §3.11, at 16): OBJECT-VERSION is a version number (digits), not "x"`},
		{"prospero://h//d;NAME-COMPONENT=a%00b", "refused by local policy (RFC 1738 §3.11, at 16): a decoded NUL is the one octet a Prospero token cannot quote (Prospero §2.1)"},
		{"prospero://h//d%00%00a-b", `refused by local policy (RFC 1738 §3.11, at 21): the 1993 draft's attribute is letters and digits, not "a-b"`},
		{"prospero://h/" + strings.Repeat("x", 1200), "refused by local policy (ARDP, at 13): the request would be " + strconv.Itoa(1307+len(userName())) + " octets; this client sends one-packet requests of at most 1250"},
	}
	for _, c := range cases {
		u, err := locator.Parse(c.url)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := (&Client{}).Check(u, &access.Request{Client: &access.Client{}, URL: u}); err != nil {
			got = strings.TrimPrefix(err.Error(), access.Masked(u)+": ")
		} else {
			p, _ := planOf(u)
			r := p.listRequest()
			got = strings.Join(r[3:], "|")
		}
		if got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.url, got, c.want)
		}
	}
}

// TestExchangeNeedsNoMoreThanOnePacket: the request is one packet with a
// 9-octet header: 09 cid 0001 0001 0000, as the reference client sends
// it.
func TestRequestPacket(t *testing.T) {
	x := newExchange(nil, &access.Request{Client: &access.Client{}}, 0x1234, []byte("VERSION\n"))
	if want := append([]byte{9, 0x12, 0x34, 0, 1, 0, 1, 0, 0}, "VERSION\n"...); !bytes.Equal(x.request, want) {
		t.Fatalf("% x", x.request)
	}
}
