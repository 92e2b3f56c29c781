package wais

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
)

// freeWAIS ir/wmessage.h: the 25-octet header.
func TestParseHeader(t *testing.T) {
	cases := []struct {
		in     string
		length int64
		off    int // -1: no error
	}{
		{"0000000148z2wais        0", 148, -1},
		{"0000000148Z2DowQuest    x", 148, -1}, // case-insensitive, another server name, checksum ignored
		{"       148z2wais        0", 148, -1}, // atol skips leading spaces
		{"          z2wais        0", 0, 0},
		{"00000001x8z2wais        0", 0, 8},
		{"-000000148z2wais        0", 0, 0},
		{"0000000148a2wais        0", 0, 10},
		{"0000000148z1wais        0", 0, 11},
		{"0000000148z2wais      u 0", 0, 22},
		{"0000000148z2wais       h0", 0, 23},
		{"0000000148z2wais", 0, 16},
	}
	for _, tc := range cases {
		h, err := parseHeader([]byte(tc.in))
		if tc.off < 0 {
			if err != nil || h.Length != tc.length {
				t.Errorf("%q: %+v %v", tc.in, h, err)
			}
			continue
		}
		var he *HeaderError
		if !errors.As(err, &he) || he.Offset != tc.off {
			t.Errorf("%q: error %v, want one at offset %d", tc.in, err, tc.off)
		}
	}
	if got := string(appendHeader(nil, 148)); got != "0000000148z2wais        0" {
		t.Errorf("AppendHeader = %q", got)
	}
}

// Z39.50-1988 compressed integers (zutil.c writeCompressedInteger).
func TestCompressed(t *testing.T) {
	cases := []struct {
		n    int
		wire string
	}{
		{0, "\x00"}, {127, "\x7f"}, {128, "\x81\x00"}, {150, "\x81\x16"},
		{16383, "\xff\x7f"}, {16384, "\x81\x80\x00"}, {1<<28 - 1, "\xff\xff\xff\x7f"},
	}
	for _, tc := range cases {
		if got := string(appendCompressed(nil, tc.n)); got != tc.wire {
			t.Errorf("%d: wrote %q, want %q", tc.n, got, tc.wire)
		}
		d := &decoder{b: []byte(tc.wire)}
		if got, err := d.compressed("n"); err != nil || got != tc.n || !d.done() {
			t.Errorf("%q: read %d %v", tc.wire, got, err)
		}
	}
	for _, bad := range []string{"", "\x81", "\x81\x80\x80\x80\x00"} {
		d := &decoder{b: []byte(bad)}
		if _, err := d.compressed("n"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// wais-protspec.txt B.1 with the code's layout (zprot.c writeInitAPDU):
// the Header-Length-Indicator, PDU-Type 20, Protocol-Version and Options
// bitmaps, the two sizes, the implementation's name and version.
func TestInitEncode(t *testing.T) {
	got := (&initRequest{MessageSize: 1024, ImplementationName: "x", ImplementationVersion: "1"}).Encode()
	want := "\x00\x15" + "\x14" + "\x03\x01\x80" + "\x04\x01\x80" + "\x05\x02\x04\x00" + "\x06\x02\x04\x00" + "\x09\x01x" + "\x0a\x011"
	if string(got) != want {
		t.Errorf("Init:\n got %q\nwant %q", got, want)
	}
}

// The relevance-feedback search as freeWAIS's waissearch sends it (ui.c
// generate_search_apdu; wais-protspec.txt B.3.1 and Appendix A).
func TestSearchEncode(t *testing.T) {
	got := (&Search{Database: "demo", SeedWords: "gopher", MaxDocs: 40}).Encode()
	body := "\x16" + "\x00\x00\x1e" + "\x00\x13\x88" + "\x00\x00\x1e" + "\x01" + "\x11\x00" + "\x12\x04demo" + "\x14\x013"
	info := "\x6a\x06gopher" + "\x6f\x01\x01" + "\x72\x01\x28"
	want := "\x00" + string(rune(len(body))) + body + "\x63" + string(rune(len(info))) + info
	if string(got) != want {
		t.Errorf("Search:\n got %q\nwant %q", got, want)
	}
}

func TestParseInitResponse(t *testing.T) {
	r, err := parseInitResponse(initResponse(true, 100000))
	if err != nil || !r.Accepted || r.MaximumRecordSize != 100000 || r.ImplementationName != "hostile" {
		t.Errorf("%+v %v", r, err)
	}
	for _, bad := range [][]byte{nil, {0, 1}, {0, 5, pduInitResponse, 1}, {0, 1, pduInit}, {0, 3, pduInitResponse, 1, 0x05}} {
		if _, err := parseInitResponse(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// wprot.c writeWAISDocumentHeader and writeSearchResponseInfo: a header
// group with a type block, a text group and a diagnostic record, read
// back.
func TestParseSearchResponse(t *testing.T) {
	var h, types, elems encoder
	h.bytes(tagDocumentID, []byte("\x01\x02id"))
	h.num(tagVersionNumber, 0)
	h.num(tagScore, 999)
	h.num(tagDocumentLength, 70000)
	h.num(tagLines, 12)
	types.str(tagType, "TEXT")
	types.str(tagType, "HTML")
	h.bytes(tagTypeBlock, types.b)
	h.str(tagSource, "demo")
	h.str(tagDate, "19931001")
	h.str(tagHeadline, "\x1b(word\x1b) here\r\n")
	elems.str(tagSeedWordsUsed, "word")
	elems.bytes(tagDocumentHeaderGroup, h.b)
	elems.b = append(elems.b, textGroup([]byte("id2"), []byte("text"))...)
	elems.b = append(elems.b, diagRecord("SF", "Request out of range")...)
	r, err := parseSearchResponse(searchResponse(3, elems.b))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Headers) != 1 || len(r.Texts) != 1 || len(r.Diagnostics) != 1 || r.RecordsReturned != 3 || r.SeedWordsUsed != "word" {
		t.Fatalf("%+v", r)
	}
	d := r.Headers[0]
	if string(d.DocID) != "\x01\x02id" || d.Score != 999 || d.DocumentLength != 70000 || d.Lines != 12 || d.BestMatch != -1 ||
		strings.Join(d.Types, ",") != "TEXT,HTML" || d.Date != "19931001" || headline(d.Headline) != "word here" {
		t.Errorf("header %+v", d)
	}
	if string(r.Texts[0].Text) != "text" || r.Diagnostics[0] != (diagnostic{Code: "SF", AddInfo: "Request out of range", Surrogate: true}) {
		t.Errorf("text %+v diagnostic %+v", r.Texts[0], r.Diagnostics[0])
	}
	// Every octet cut off the end is an error, never a panic, but at the
	// end of the APDU's own fields, where a reply without user
	// information ends.
	full := searchResponse(3, elems.b)
	own := 2 + int(full[0])<<8 + int(full[1])
	for n := range len(full) {
		if _, err := parseSearchResponse(full[:n]); (err == nil) != (n == own) {
			t.Errorf("cut to %d of %d octets (own fields end at %d): error %v", n, len(full), own, err)
		}
	}
}

func TestParseDocPath(t *testing.T) {
	fields := []byte("\x01\x02vm\x03\x05a b;c")
	cases := []struct {
		path, form string
		id         []byte
		length     int64
		errOff     int // -1: none
	}{
		{"demo/TEXT/%01%02vm%03%05a%20b%3Bc", FormOpaque, fields, -1, -1},
		{"demo/TEXT/75/1=vm;3=a%20b%3Bc;", FormLength, fields, 75, -1},
		{"demo/TEXT/1=vm;3=a%20b%3Bc;", FormFields, fields, -1, -1},
		{"demo/TEXT/75/plain", FormOpaque, []byte("75/plain"), -1, -1},
		{"demo/TEXT/", "", nil, -1, 10},
		{"demo/TEXT", "", nil, -1, 9},
		{"demo//x", "", nil, -1, 5},
		{"demo", "", nil, -1, 4},
	}
	for _, tc := range cases {
		r, err := ParseDocPath(tc.path)
		if tc.errOff >= 0 {
			var we *locator.SchemeError
			if !errors.As(err, &we) || we.Scheme != "wais" || we.Field != "path" || we.Offset != tc.errOff {
				t.Errorf("%s: %v, want an error at %d", tc.path, err, tc.errOff)
			}
			continue
		}
		if err != nil || r.Form != tc.form || !bytes.Equal(r.DocID, tc.id) || r.Length != tc.length || r.Database != "demo" || r.Type != "TEXT" {
			t.Errorf("%s: %+v %v", tc.path, r, err)
		}
	}
	// Build writes the docid so that ParseDocPath reads it back.
	for _, id := range []string{"\x00\x01\xff/;=%", "0=a;", "12/3=x;"} {
		s, err := (&URL{Host: "h", Database: "d b", WType: "TEXT", WPath: id, HasDoc: true}).Build()
		if err != nil {
			t.Fatal(err)
		}
		r, err := ParseDocPath(strings.SplitN(s, "/", 4)[3])
		if err != nil || string(r.DocID) != id || r.Database != "d b" {
			t.Errorf("%q → %s → %+v %v", id, s, r, err)
		}
	}
	es, err := parseDocID(fields)
	if err != nil || len(es) != 2 || es[1].Tag != 3 || string(es[1].Value) != "a b;c" {
		t.Errorf("ParseDocID: %+v %v", es, err)
	}
}

func TestHelpers(t *testing.T) {
	for in, want := range map[string]string{
		"gopher.txt   /d/":        "gopher.txt   /d/",
		"\x1b(term\x1b) and more": "term and more",
		"\x1bp001Para\r\n":        "Para",
		"\x01\x02 x \x7f":         " x ",
	} {
		if got := headline(in); got != want {
			t.Errorf("Headline(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]time.Time{
		"19931001": time.Date(1993, 10, 1, 0, 0, 0, 0, time.UTC),
		"900601":   time.Date(1990, 6, 1, 0, 0, 0, 0, time.UTC),
		"0":        {},
		"19931341": {},
	} {
		if got := parseDate(in); !got.Equal(want) {
			t.Errorf("ParseDate(%q) = %v", in, got)
		}
	}
	for in, want := range map[string]string{"gopher+protocol": "gopher protocol", "a%2Bb": "a+b", "a%20b": "a b"} {
		if got := searchWords(in); got != want {
			t.Errorf("SearchWords(%q) = %q", in, got)
		}
	}
	if mediaType("TEXT") != "text/plain" || mediaType("WSRC") != "application/x-wais-source" {
		t.Error("MediaType")
	}
}
