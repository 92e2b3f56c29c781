package newsreader

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
)

// FuzzParseReply: a status line (RFC 3977 §3.2) that parses is written
// back as it was read, its code is 100 to 599, and a 211's text either
// parses as "number low high group" or fails cleanly.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{"200 news.example.com ready", "205", "211 3 1 3 local.test", "430 ", "2x0", "", "600 x", "211 1 2", "211 99999999999999999999 1 2 g"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseReply(line)
		if err != nil {
			var re *ReplyError
			if !errors.As(err, &re) || re.Offset < 0 || re.Offset > len(line) {
				t.Fatalf("%q: %v", line, err)
			}
			return
		}
		if r.Code < 100 || r.Code > 599 {
			t.Fatalf("%q: code %d", line, r.Code)
		}
		if line != r.String() && line != r.String()+" " {
			t.Fatalf("%q written back as %q", line, r.String())
		}
		if g, err := ParseGroup(r.Text); err == nil && (g.Count < 0 || g.Low < 0 || g.High < 0 || g.Name == "") {
			t.Fatalf("%q: group %+v", line, g)
		}
	})
}

// dotModel is the data block reading of RFC 3977 §3.1.1 written plainly,
// line by line, for FuzzDotReader to compare with: the octets, whether
// the "." line ended it, and the error's kind ("", "long", "eof").
func dotModel(in []byte, max int) (out []byte, rest []byte, kind string) {
	for len(in) > 0 {
		i := bytes.IndexByte(in, '\n')
		if i < 0 {
			if len(in) > max+2 {
				return out, nil, "long"
			}
			return append(out, bytes.TrimPrefix(in, []byte("."))...), nil, "eof"
		}
		line := in[:i+1]
		if len(line) > max+2 {
			return out, nil, "long"
		}
		in = in[i+1:]
		if string(line) == ".\r\n" || string(line) == ".\n" {
			return out, in, ""
		}
		out = append(out, bytes.TrimPrefix(line, []byte("."))...)
	}
	return out, nil, "eof"
}

// FuzzDotReader: the DotReader delivers what the plain model does, on
// any input, and a data block dot-stuffed and terminated reads back as
// the data.
func FuzzDotReader(f *testing.F) {
	for _, s := range []string{"a\r\nb\r\n.\r\n205 bye\r\n", "..a\r\n...\r\n..\r\n.\r\n", ".\r\n", "bare\nlf\n.\n", "a\r\nb", ".", "", strings.Repeat("z", 40) + "\r\n.\r\n"} {
		f.Add([]byte(s))
	}
	const max = 32
	f.Fuzz(func(t *testing.T, in []byte) {
		br := bufio.NewReaderSize(bytes.NewReader(in), 16)
		d := NewDotReader(br, max)
		out, err := io.ReadAll(d)
		wantOut, wantRest, kind := dotModel(in, max)
		var pe *access.ProtocolError
		switch {
		case kind == "" && err != nil, kind != "" && !errors.As(err, &pe):
			t.Fatalf("%q: %v, model %q", in, err, kind)
		case kind == "eof" && !bytes.Equal(out, wantOut):
			t.Fatalf("%q: %q, model %q", in, out, wantOut)
		case kind == "long" && !bytes.Equal(out, wantOut):
			t.Fatalf("%q: %q, model %q", in, out, wantOut)
		case kind == "":
			rest, _ := io.ReadAll(br)
			if !bytes.Equal(out, wantOut) || !bytes.Equal(rest, wantRest) || !d.Done() {
				t.Fatalf("%q: %q rest %q, model %q rest %q", in, out, rest, wantOut, wantRest)
			}
		}

		// Round trip: the input as data, lines ended, stuffed.
		data := in
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(append([]byte{}, data...), '\r', '\n')
		}
		var wire []byte
		long := false
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			n := len(line)
			if n > 0 && line[0] == '.' {
				wire = append(wire, '.')
				n++
			}
			wire = append(wire, line...)
			long = long || n > max+2
		}
		wire = append(wire, ".\r\n"...)
		back, err := io.ReadAll(NewDotReader(bufio.NewReaderSize(bytes.NewReader(wire), 16), max))
		if long {
			if err == nil {
				t.Fatalf("%q: a line longer than %d read", wire, max)
			}
			return
		}
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("%q: read back %q, %v; want %q", wire, back, err, data)
		}
	})
}

// formatOverview writes o as an overview line (RFC 3977 §8.3.2).
func formatOverview(o Overview) string {
	num := func(n int64) string {
		if n < 0 {
			return ""
		}
		return strconv.FormatInt(n, 10)
	}
	f := append([]string{strconv.FormatInt(o.Number, 10), o.Subject, o.From, o.Date, o.MessageID, o.References, num(o.Bytes), num(o.Lines)}, o.Extra...)
	return strings.Join(f, "\t")
}

// FuzzParseOverview: a line that parses is written back to a line that
// parses to the same overview; no field holds a TAB; numbers are not
// negative (bar the -1 of an empty :bytes or :lines).
func FuzzParseOverview(f *testing.F) {
	for _, s := range []string{
		"1\thello nntp\tFeas <f@example.test>\tMon, 23 Nov 2026 04:05:53 -0000 (UTC)\t<a@b.test>\t\t534\t2\tXref: feas.test local.test:1",
		"7\ts\tf\td\t<m@h>\t<r@h>\t\t", "0\t\t\t\t\t\t0\t0", "x\ts\tf\td\t<m@h>\t\t1\t1", "1\ts\tf\td\t<m@h>\t\t 1 \t1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		o, err := ParseOverview(line)
		if err != nil {
			var oe *OverviewError
			if !errors.As(err, &oe) || oe.Field < 0 || oe.Field > strings.Count(line, "\t") {
				t.Fatalf("%q: %v", line, err)
			}
			return
		}
		if o.Number < 0 || o.Bytes < -1 || o.Lines < -1 {
			t.Fatalf("%q: %+v", line, o)
		}
		for _, s := range append([]string{o.Subject, o.From, o.Date, o.MessageID, o.References}, o.Extra...) {
			if strings.Contains(s, "\t") {
				t.Fatalf("%q: a field holds a TAB: %q", line, s)
			}
		}
		back, err := ParseOverview(formatOverview(o))
		if err != nil || !reflect.DeepEqual(back, o) {
			t.Fatalf("%q: written back as %q, read %+v (%v); want %+v", line, formatOverview(o), back, err, o)
		}
	})
}

// FuzzParseActive: a line that parses is written back to a line that
// parses the same; no field is empty or holds white space.
func FuzzParseActive(f *testing.F) {
	for _, s := range []string{"local.test 0000000003 0000000001 y", "alt.old 0 1 =alt.new", "a 1 2", "a x 2 y", "a\t1 2 n", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a, err := ParseActive(line)
		if err != nil {
			var ae *ActiveError
			if !errors.As(err, &ae) {
				t.Fatalf("%q: %v", line, err)
			}
			return
		}
		for _, s := range []string{a.Group, a.Status} {
			if s == "" || strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == ' ' || r == 0x7f }) >= 0 {
				t.Fatalf("%q: field %q", line, s)
			}
		}
		if a.High < 0 || a.Low < 0 {
			t.Fatalf("%q: %+v", line, a)
		}
		back, err := ParseActive(a.Group + " " + strconv.FormatInt(a.High, 10) + " " + strconv.FormatInt(a.Low, 10) + " " + a.Status)
		if err != nil || back != a {
			t.Fatalf("%q: read back %+v (%v), want %+v", line, back, err, a)
		}
	})
}
