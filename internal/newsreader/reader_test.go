package newsreader

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
)

// RFC 3977 §3.2: a status line is a three-digit code, then a space and
// text, or nothing (RFC 977 §2.4.2).
func TestParseReply(t *testing.T) {
	tests := []struct {
		in   string
		want string // "code|text" or "error at N"
	}{
		{"200 news.example.com ready", "200|news.example.com ready"},
		{"205", "205|"},
		{"211 3 1 3 local.test", "211|3 1 3 local.test"},
		{"430 ", "430|"},
		{"101 Capability list:", "101|Capability list:"},
		{"", "error at 0"},
		{"20", "error at 2"},
		{"600 x", "error at 0"},
		{"099 x", "error at 0"},
		{"2x0 x", "error at 1"},
		{"20x x", "error at 2"},
		{"200-more", "error at 3"},
		{"200\tx", "error at 3"},
	}
	for _, tt := range tests {
		r, err := ParseReply(tt.in)
		got := fmt.Sprintf("%d|%s", r.Code, r.Text)
		var re *ReplyError
		if errors.As(err, &re) {
			got = fmt.Sprintf("error at %d", re.Offset)
		}
		if got != tt.want {
			t.Errorf("ParseReply(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// RFC 3977 §3.1.1: the data block's lines, dot-stuffing undone, up to
// the "." line, which is required.
func TestDotReader(t *testing.T) {
	tests := []struct {
		in, out string
		err     string // "" or a substring of the error
		rest    string // what is left for the next reply
	}{
		{"a\r\nb\r\n.\r\n205 bye\r\n", "a\r\nb\r\n", "", "205 bye\r\n"},
		{"..a\r\n...\r\n..\r\n.\r\n", ".a\r\n..\r\n.\r\n", "", ""},
		{".\r\n", "", "", ""},
		{"bare\nlf\n.\n", "bare\nlf\n", "", ""},
		{"x\r\n\r\n.\r\n", "x\r\n\r\n", "", ""},
		{".x\r\n.\r\n", "x\r\n", "", ""},
		{"a\r\nb", "a\r\nb", "without its terminating", ""},
		{"a\r\n..b", "a\r\n.b", "without its terminating", ""},
		{"a\r\n", "a\r\n", "without its terminating", ""},
		{"", "", "without its terminating", ""},
		{".", "", "without its terminating", ""},
		{"a\r\n. \r\n.\r\n", "a\r\n \r\n", "", ""},
		{strings.Repeat("z", 17) + "\r\n.\r\n", "", "longer than 16 octets", ""},
		{strings.Repeat("z", 16) + "\r\n.\r\n", strings.Repeat("z", 16) + "\r\n", "", ""},
	}
	for _, tt := range tests {
		br := bufio.NewReaderSize(strings.NewReader(tt.in), 16)
		d := NewDotReader(br, 16)
		out, err := io.ReadAll(d)
		if string(out) != tt.out || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: %q, %v; want %q, %q", tt.in, out, err, tt.out, tt.err)
		}
		if err == nil {
			rest, _ := io.ReadAll(br)
			if string(rest) != tt.rest || !d.Done() {
				t.Errorf("%q: rest %q done %v, want %q", tt.in, rest, d.Done(), tt.rest)
			}
		} else {
			var pe *access.ProtocolError
			if !errors.As(err, &pe) {
				t.Errorf("%q: %T, want *access.ProtocolError", tt.in, err)
			}
		}
	}
}

// RFC 3977 §8.3.2: number, then Subject, From, Date, Message-ID,
// References, :bytes and :lines, TAB-separated (§8.4.2 order).
func TestParseOverview(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"1\thello nntp\tFeas <f@example.test>\tMon, 23 Nov 2026 04:05:53 -0000 (UTC)\t<a@b.test>\t\t534\t2\tXref: feas.test local.test:1",
			"1|hello nntp|Feas <f@example.test>|Mon, 23 Nov 2026 04:05:53 -0000 (UTC)|<a@b.test>||534|2|[Xref: feas.test local.test:1]"},
		{"7\ts\tf\td\t<m@h>\t<r@h>\t\t", "7|s|f|d|<m@h>|<r@h>|-1|-1|[]"},
		{"0\t\t\t\t\t\t0\t0", "0||||||0|0|[]"},
		{"7\ts\tf\td\t<m@h>\t<r@h>\t12", "error field 6"},
		{"x\ts\tf\td\t<m@h>\t\t1\t1", "error field 0"},
		{"\ts\tf\td\t<m@h>\t\t1\t1", "error field 0"},
		{"1\ts\tf\td\t<m@h>\t\t1x\t1", "error field 6"},
		{"1\ts\tf\td\t<m@h>\t\t1\t-1", "error field 7"},
		{"1234567890123456789\ts\tf\td\t<m@h>\t\t1\t1", "error field 0"},
		{"", "error field 0"},
	}
	for _, tt := range tests {
		o, err := ParseOverview(tt.in)
		got := fmt.Sprintf("%d|%s|%s|%s|%s|%s|%d|%d|%v", o.Number, o.Subject, o.From, o.Date, o.MessageID, o.References, o.Bytes, o.Lines, o.Extra)
		var oe *OverviewError
		if errors.As(err, &oe) {
			got = fmt.Sprintf("error field %d", oe.Field)
		}
		if got != tt.want {
			t.Errorf("ParseOverview(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// RFC 3977 §7.6.3: "group high low status".
func TestParseActive(t *testing.T) {
	tests := []struct{ in, want string }{
		{"local.test 0000000003 0000000001 y", "local.test|3|1|y"},
		{"misc.test 3000234 3002322 m", "misc.test|3000234|3002322|m"},
		{"alt.old 0 1 =alt.new", "alt.old|0|1|=alt.new"},
		{"a  1\t2   n", "a|1|2|n"},
		{"a 1 2", "error"},
		{"a 1 2 y extra", "error"},
		{"a x 2 y", "error"},
		{"a 1 -2 y", "error"},
		{"a\x01b 1 2 y", "error"},
		{"a 1 2 \x7f", "error"},
		{"a\u00a0b 1 2 y", "a\u00a0b|1|2|y"},
		{"", "error"},
	}
	for _, tt := range tests {
		a, err := ParseActive(tt.in)
		got := fmt.Sprintf("%s|%d|%d|%s", a.Group, a.High, a.Low, a.Status)
		var ae *ActiveError
		if errors.As(err, &ae) {
			got = "error"
		}
		if got != tt.want {
			t.Errorf("ParseActive(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// RFC 3977 §6.1.1.2: "211 number low high group".
func TestParseGroup(t *testing.T) {
	for in, want := range map[string]string{
		"3 1 3 local.test":            "local.test 3 1 3",
		"0 4 3 empty.group":           "empty.group 0 4 3",
		"3 1 3 local.test extra text": "local.test 3 1 3",
		"3 1 local.test":              "error",
		"3 one 3 local.test":          "error",
	} {
		g, err := ParseGroup(in)
		got := fmt.Sprintf("%s %d %d %d", g.Name, g.Count, g.Low, g.High)
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("ParseGroup(%q) = %s, want %s", in, got, want)
		}
	}
}

// RFC 5322 §2.2.3: folded header lines are unfolded; names match
// without regard to case.
func TestHeader(t *testing.T) {
	head := []string{"Path: a!b", "subject: one", "\ttwo", " three", "From: x <x@y>", "X-Empty:", "Subject: second"}
	for name, want := range map[string]string{"Subject": "one\ttwo three", "FROM": "x <x@y>", "x-empty": "", "Path": "a!b", "Date": "absent"} {
		v, ok := Header(head, name)
		if !ok {
			v = "absent"
		}
		if v != want {
			t.Errorf("Header(%s) = %q, want %q", name, v, want)
		}
	}
}

// The octets that would break a command line (RFC 1738 §6, RFC 3977
// §3.1), found through escapes, with the offset of the escape.
func TestArgOffset(t *testing.T) {
	tests := []struct {
		enc, extra string
		want       int
	}{
		{"comp.lang.go", "", -1},
		{"a%0Db", "", 1},
		{"a%0ab", "", 1},
		{"ab%00", "", 2},
		{"a%20b", "", 1},
		{"a%09b", "", 1},
		{"a b", "", 1},
		{"a%2", "", -1},
		{"%41%0D", "", 3},
		{"x%3Ey", "<>", 1},
		{"x>y", "<>", 1},
		{"x%3Ey", "", -1},
	}
	for _, tt := range tests {
		if got := ArgOffset(tt.enc, tt.extra); got != tt.want {
			t.Errorf("ArgOffset(%q, %q) = %d, want %d", tt.enc, tt.extra, got, tt.want)
		}
	}
}
