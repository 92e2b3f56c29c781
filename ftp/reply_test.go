package ftp_test

import (
	"bufio"
	"errors"
	"net"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
)

// TestReadReply covers RFC 959 §4.2's reply forms: one line, a
// multi-line reply ended by the same code and a space (lines between may
// begin with digits), and what is not a reply.
func TestReadReply(t *testing.T) {
	cases := []struct {
		in    string
		code  int
		text  string
		lines int
		err   string
	}{
		{"220 ready\r\n", 220, "ready", 1, ""},
		{"220\r\n", 220, "", 1, ""},
		{"200 ok\n", 200, "ok", 1, ""},
		{"211-Features:\r\n MLST size*;\r\n SIZE\r\n211 End\r\n", 211, "Features:", 4, ""},
		{"123-First line\r\nSecond line\r\n  234 A line beginning with numbers\r\n123 The last line\r\n", 123, "First line", 4, ""},
		{"230-a\r\n230-b\r\n231 not the end\r\n230 end\r\n", 230, "a", 4, ""},
		{"230-a\r\n230\r\n", 230, "a", 2, ""},
		{"2200 x\r\n", 0, "", 0, "not an FTP reply"},
		{"600 x\r\n", 0, "", 0, "not an FTP reply"},
		{"22 x\r\n", 0, "", 0, "not an FTP reply"},
		{"", 0, "", 0, "closed the control connection where a reply was due"},
		{"220 no end", 0, "", 0, "closed the control connection inside a reply line"},
		{"220-a\r\nb\r\n", 0, "", 0, "closed the control connection where a reply was due"},
		{"220 " + strings.Repeat("x", 100) + "\r\n", 0, "", 0, "a reply line longer than 64 octets"},
	}
	for _, c := range cases {
		r, err := ftp.ReadReply(bufio.NewReader(strings.NewReader(c.in)), 64, nil)
		if c.err != "" {
			var pe *access.ProtocolError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want a ProtocolError %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || r.Code != c.code || r.Text != c.text || len(r.Lines) != c.lines {
			t.Errorf("%q: %+v %v, want %d %q %d lines", c.in, r, err, c.code, c.text, c.lines)
		}
	}
	// The bound on lines.
	in := "220-x\r\n" + strings.Repeat("more\r\n", ftp.MaxReplyLines) + "220 end\r\n"
	if _, err := ftp.ReadReply(bufio.NewReader(strings.NewReader(in)), 64, nil); err == nil || !strings.Contains(err.Error(), "more than 1000 lines") {
		t.Errorf("a reply of %d lines: %v", ftp.MaxReplyLines+2, err)
	}
	in = "220-x\r\n" + strings.Repeat("more\r\n", ftp.MaxReplyLines-2) + "220 end\r\n"
	if r, err := ftp.ReadReply(bufio.NewReader(strings.NewReader(in)), 64, nil); err != nil || len(r.Lines) != ftp.MaxReplyLines {
		t.Errorf("a reply of exactly %d lines: %d, %v", ftp.MaxReplyLines, len(r.Lines), err)
	}
}

// TestParseEPSV: RFC 2428 §3's form and its delimiter rule.
func TestParseEPSV(t *testing.T) {
	cases := []struct {
		text string
		port int
	}{
		{"Entering Extended Passive Mode (|||6446|)", 6446},
		{"Entering extended passive mode (!!!1!)", 1},
		{"(|||65535|).", 65535},
		{"Entering Extended Passive Mode (|||0|)", 0},
		{"Entering Extended Passive Mode (|||65536|)", 0},
		{"Entering Extended Passive Mode (||6446|)", 0},
		{"Entering Extended Passive Mode (|||6446)", 0},
		{"Entering Extended Passive Mode (   6446 )", 0},
		{"Entering Extended Passive Mode (|||64x6|)", 0},
		{"Entering Extended Passive Mode", 0},
		{"(", 0},
	}
	for _, c := range cases {
		p, err := ftp.ParseEPSV(c.text)
		if c.port == 0 && err == nil || c.port != 0 && (err != nil || p != c.port) {
			t.Errorf("ParseEPSV(%q) = %d, %v; want %d", c.text, p, err, c.port)
		}
	}
}

// TestParsePASV: RFC 959's h1,h2,h3,h4,p1,p2, found anywhere in the text
// (RFC 1123 §4.1.2.6).
func TestParsePASV(t *testing.T) {
	cases := []struct {
		text string
		addr string // "" for an error
	}{
		{"Entering Passive Mode (127,0,0,1,118,23).", "127.0.0.1:30231"},
		{"Entering Passive Mode 10,1,2,3,0,21", "10.1.2.3:21"},
		{"=127,0,0,1,4,1", "127.0.0.1:1025"},
		{"Passive 2021 ok (192,168,0,1,255,255)", "192.168.0.1:65535"},
		{"(256,0,0,1,1,1)", ""},
		{"(127,0,0,1,1)", ""},
		{"(127,0,0,1,0,0)", ""},
		{"(127,0,0,1,1,1000)", ""},
		{"(127,,0,1,1,1)", ""},
		{"no numbers", ""},
	}
	for _, c := range cases {
		ip, port, err := ftp.ParsePASV(c.text)
		got := ""
		if err == nil {
			got = net.JoinHostPort(ip.String(), strconv.Itoa(port))
		}
		if got != c.addr {
			t.Errorf("ParsePASV(%q) = %q, %v; want %q", c.text, got, err, c.addr)
		}
	}
}

// TestParseMLSD: RFC 3659 §7's facts and name.
func TestParseMLSD(t *testing.T) {
	cases := []struct {
		line string
		want ftp.Fact
		ok   bool
	}{
		{"type=file;size=1234;modify=20210305120000; hello.txt",
			ftp.Fact{Name: "hello.txt", Type: "file", Size: 1234, Modified: time.Date(2021, 3, 5, 12, 0, 0, 0, time.UTC),
				Facts: map[string]string{"type": "file", "size": "1234", "modify": "20210305120000"}}, true},
		{"Type=DIR;Modify=20210305120000.5;UNIX.mode=0755; a dir; with ;semis",
			ftp.Fact{Name: "a dir; with ;semis", Type: "dir", Size: -1, Modified: time.Date(2021, 3, 5, 12, 0, 0, 500000000, time.UTC),
				Facts: map[string]string{"type": "DIR", "modify": "20210305120000.5", "unix.mode": "0755"}}, true},
		{"type=cdir; /pub", ftp.Fact{Name: "/pub", Type: "cdir", Size: -1, Facts: map[string]string{"type": "cdir"}}, true},
		{"type=OS.unix=slink:/x; l", ftp.Fact{Name: "l", Type: "link", Size: -1, Facts: map[string]string{"type": "OS.unix=slink:/x"}}, true},
		{"size=x;modify=2021; f", ftp.Fact{Name: "f", Size: -1, Facts: map[string]string{"size": "x", "modify": "2021"}}, true},
		{" name-without-facts", ftp.Fact{Name: "name-without-facts", Size: -1, Facts: map[string]string{}}, true},
		{"type=file;", ftp.Fact{}, false},
		{"type=file; ", ftp.Fact{}, false},
		{"typefile; f", ftp.Fact{}, false},
	}
	for _, c := range cases {
		f, ok := ftp.ParseMLSD(c.line)
		if ok != c.ok || !reflect.DeepEqual(f, c.want) {
			t.Errorf("ParseMLSD(%q) = %+v, %v; want %+v", c.line, f, ok, c.want)
		}
	}
}

// TestParseTimeVal: RFC 3659 §2.3.
func TestParseTimeVal(t *testing.T) {
	cases := []struct {
		s    string
		want time.Time
	}{
		{"19980615100045", time.Date(1998, 6, 15, 10, 0, 45, 0, time.UTC)},
		{"19980615100045.014", time.Date(1998, 6, 15, 10, 0, 45, 14000000, time.UTC)},
		{"20240229000000", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"20230229000000", time.Time{}},
		{"19981315100045", time.Time{}},
		{"1998061510004", time.Time{}},
		{"19980615100045.", time.Time{}},
		{"19980615100045x", time.Time{}},
		{"1998-06-15 10:00", time.Time{}},
	}
	for _, c := range cases {
		got, ok := ftp.ParseTimeVal(c.s)
		if ok != !c.want.IsZero() || !got.Equal(c.want) {
			t.Errorf("ParseTimeVal(%q) = %v, %v; want %v", c.s, got, ok, c.want)
		}
	}
}

// TestParseUnixList: the common "ls -l" lines LIST gives.
func TestParseUnixList(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		line                string
		name, typ, modified string
		size                int64
	}{
		{"drwxr-xr-x    2 0        0            4096 Nov 23 05:40 sub", "sub", "dir", "2025-11-23T05:40:00Z", 4096},
		{"-rw-r--r--    1 0        0              12 Mar  5 12:00 hello.txt", "hello.txt", "file", "2026-03-05T12:00:00Z", 12},
		{"-rw-r--r--    1 0        0              12 Mar 11 12:00 tomorrow", "tomorrow", "file", "2026-03-11T12:00:00Z", 12},
		{"-rw-r--r--   1 owner group  12345 Mar  5  2021 name with  spaces", "name with  spaces", "file", "2021-03-05T00:00:00Z", 12345},
		{"lrwxrwxrwx   1 owner group      7 Jan  1 00:00 link -> target", "link", "link", "2026-01-01T00:00:00Z", 7},
		{"-rw-r--r--   1 owner     512 Feb 28  1999 nogroup", "nogroup", "file", "1999-02-28T00:00:00Z", 512},
		{"crw-rw-rw-   1 root root 1, 3 Jan  1  2020 null", "", "", "", 0},
		{"total 12", "", "", "", 0},
		{"10-05-21  09:15AM       <DIR>          dos", "", "", "", 0},
		{"-rw-r--r--   1 o g 1 Foo  5 12:00 x", "", "", "", 0},
		{"-rw-r--r--   1 o g 1 Mar 32 12:00 x", "", "", "", 0},
		{"-rw-r--r--   1 o g 1 Mar  5 25:00 x", "", "", "", 0},
		{"-rw-r--r--   1 o g 1 Mar  5 12:00", "", "", "", 0},
	}
	for _, c := range cases {
		f, ok := ftp.ParseUnixList(c.line, now)
		if c.name == "" {
			if ok {
				t.Errorf("ParseUnixList(%q) = %+v, want no entry", c.line, f)
			}
			continue
		}
		if !ok || f.Name != c.name || f.Type != c.typ || f.Size != c.size || f.Modified.Format(time.RFC3339) != c.modified {
			t.Errorf("ParseUnixList(%q) = %+v, %v; want %s %s %d %s", c.line, f, ok, c.name, c.typ, c.size, c.modified)
		}
	}
}
