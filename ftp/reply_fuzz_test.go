package ftp_test

import (
	"bufio"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
)

// FuzzReadReply: any octets from a server give a reply within the
// bounds (RFC 959 §4.2 code 100–599, at most MaxReplyLines lines of at
// most maxLine octets) or an error; never a panic.
func FuzzReadReply(f *testing.F) {
	for _, s := range []string{"220 ready\r\n", "211-Features:\r\n MLST\r\n211 End\r\n", "123-a\r\n123-b\r\n123 c\r\n", "220", "999 x\r\n", "220-\n220\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		const maxLine = 128
		r, err := ftp.ReadReply(bufio.NewReaderSize(strings.NewReader(in), 16), maxLine, nil)
		if err != nil {
			var pe *access.ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("%q: error %T %v, want a ProtocolError", in, err, err)
			}
			return
		}
		if r.Code < 100 || r.Code > 599 || len(r.Lines) < 1 || len(r.Lines) > ftp.MaxReplyLines {
			t.Fatalf("%q: reply %+v out of bounds", in, r)
		}
		for _, l := range r.Lines {
			if len(l) > maxLine {
				t.Fatalf("%q: line of %d octets", in, len(l))
			}
		}
		if !strings.HasPrefix(r.Lines[0], r.String()[:3]) {
			t.Fatalf("%q: code %d is not the first line's", in, r.Code)
		}
	})
}

// FuzzParseMLSD: an entry's name is the line's end, after the facts.
func FuzzParseMLSD(f *testing.F) {
	for _, s := range []string{"type=file;size=1;modify=20210305120000; a", "type=dir; b c", " x", "a=b;c; d", "modify=20210305120000.123456789123; f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		e, ok := ftp.ParseMLSD(line)
		if !ok {
			return
		}
		if e.Name == "" || !strings.HasSuffix(line, " "+e.Name) || e.Size < -1 {
			t.Fatalf("%q: %+v", line, e)
		}
	})
}

// FuzzParseUnixList: an entry's name is in the line, its size is not
// negative unless unknown.
func FuzzParseUnixList(f *testing.F) {
	for _, s := range []string{
		"drwxr-xr-x    2 0        0            4096 Nov 23 05:40 sub",
		"-rw-r--r--   1 owner     512 Feb 28  1999 nogroup",
		"lrwxrwxrwx   1 owner group      7 Jan  1 00:00 link -> target",
		"total 0",
	} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, line string) {
		e, ok := ftp.ParseUnixList(line, now)
		if !ok {
			return
		}
		if e.Name == "" || !strings.Contains(line, e.Name) || e.Size < -1 || e.Modified.IsZero() {
			t.Fatalf("%q: %+v", line, e)
		}
	})
}

// FuzzParsePASV and FuzzParseEPSV: a port is in 1–65535, an address is
// IPv4.
func FuzzParsePASV(f *testing.F) {
	for _, s := range []string{"Entering Passive Mode (127,0,0,1,118,23).", "=1,2,3,4,5,6", "(256,1,1,1,1,1)", "1,2,3,4,5,6,7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ip, port, err := ftp.ParsePASV(text)
		if err != nil {
			return
		}
		if ip.To4() == nil || port < 1 || port > 65535 {
			t.Fatalf("%q: %v %d", text, ip, port)
		}
	})
}

func FuzzParseEPSV(f *testing.F) {
	for _, s := range []string{"Entering Extended Passive Mode (|||6446|)", "(!!!1!)", "(|||65536|)", "((((1()"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		port, err := ftp.ParseEPSV(text)
		if err == nil && (port < 1 || port > 65535) {
			t.Fatalf("%q: port %d", text, port)
		}
	})
}

// FuzzParseTimeVal: a time-val read is the time it writes (RFC 3659
// §2.3).
func FuzzParseTimeVal(f *testing.F) {
	for _, s := range []string{"19980615100045", "19980615100045.014", "20230229000000", "00000101000000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, ok := ftp.ParseTimeVal(s)
		if !ok {
			return
		}
		if got := tm.Format("20060102150405"); got != s[:14] && tm.Second() != 0 {
			t.Fatalf("%q: %v", s, tm)
		}
	})
}
