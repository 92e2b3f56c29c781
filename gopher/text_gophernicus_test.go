package gopher_test

// Issue 46, items 1 and 2, against the server that showed them: a text
// whose first octet is "3" is a text, not an error reply, and a text
// holding a lone "." line (a Perl format, a Markdown file) is delivered
// whole, live and replayed from an archive.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// perlWithFormats returns a Perl script of about 260 KB whose format
// declarations end, as Perl's formats do, with a lone "." line: the
// first of them at offset dotAt, well inside the file. Some lines begin
// with "." or "..", which no server stuffs.
func perlWithFormats() (script string, dotAt int) {
	var b strings.Builder
	b.WriteString("#!/usr/bin/perl\nuse strict;\nuse warnings;\n\n")
	dotAt = -1
	for i := 0; b.Len() < 261_000; i++ {
		fmt.Fprintf(&b, "# Section %d: totals for the report, one line per name.\n", i)
		fmt.Fprintf(&b, "my @names_%d = map { \"name$_\" } 1 .. %d;\n", i, i%40+1)
		fmt.Fprintf(&b, "my $sum_%d = 0; $sum_%d += length for @names_%d;\n", i, i, i)
		if i%97 == 0 {
			b.WriteString("..the range above is inclusive\n. a line that begins with a dot\n")
		}
		if b.Len() > 151_000 && dotAt < 0 || dotAt > 0 && i%701 == 700 {
			fmt.Fprintf(&b, "format REPORT_%d =\n@<<<<<<<<<<<<<<< @>>>>>>\n$name, $value\n", i)
			if dotAt < 0 {
				dotAt = b.Len()
			}
			b.WriteString(".\n\n")
		}
	}
	b.WriteString("write;\n__END__\n")
	return b.String(), dotAt
}

// raw returns what the server at addr sends for selector, read to the
// close, as curl prints it.
func raw(t *testing.T, addr, selector string) []byte {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(c, selector+"\r\n"); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(io.LimitReader(c, 4<<20))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGophernicusTextAsSent: RFC 1436 §3.8 as gophernicus follows it
// (CR LF line ends, no dot-stuffing, no "." line): a text is every
// octet the server sent, through Get and through an archive's replay.
func TestGophernicusTextAsSent(t *testing.T) {
	script, dotAt := perlWithFormats()
	notes := "# Notes\n\nA list of what is left:\n\n- the first item\n.\n- the item after a lone dot\n\n..and a line with two\n"
	root := t.TempDir()
	write(t, filepath.Join(root, "debian", "source", "format"), "3.0 (native)\n", 0o644)
	write(t, filepath.Join(root, "report.pl"), script, 0o644)
	write(t, filepath.Join(root, "NOTES.md"), notes, 0o644)
	s := peer.Gophernicus(t, root)
	base := "gopher://" + s.Addr + "/"

	for _, c := range []struct{ sel, file string }{
		{"/debian/source/format", "3.0 (native)\n"},
		{"/report.pl", script},
		{"/NOTES.md", notes},
	} {
		want := raw(t, s.Addr, c.sel)
		// What gophernicus sends is the file with CR LF line ends, and
		// nothing more: no "." line, no doubled periods.
		if crlf := strings.ReplaceAll(c.file, "\n", "\r\n"); string(want) != crlf {
			t.Fatalf("%s: gophernicus sent %d octets, the file with CR LF is %d", c.sel, len(want), len(crlf))
		}
		u := base + "0" + c.sel
		_, body, log := mustGet(t, u, nil)
		if !bytes.Equal(body, want) {
			t.Errorf("%s: %d octets delivered of %d sent (first difference at %d)\n%s", u, len(body), len(want), firstDiff(body, want), tail(log))
		}
		o, rec := recordReplay(t, u, nil, c.sel+"\r\n", want)
		if o.Err != nil || !bytes.Equal(o.Body, want) || !bytes.Equal(rec, want) {
			t.Errorf("%s recorded: %d octets, %v (record %d octets)", u, len(o.Body), o.Err, len(rec))
		}
	}
	// The lone "." line is where the text used to be cut (issue 46: 151,737 of 261,973 octets).
	if len(script) < 260_000 || dotAt < 151_000 || script[dotAt:dotAt+3] != ".\n\n" {
		t.Fatalf("the script is %d octets, its first \".\" line at %d", len(script), dotAt)
	}

	// Probe says the text is there.
	st := (&access.Client{IdleTimeout: 20 * time.Second, Schemes: map[string]access.Fetcher{"gopher": &gopher.Client{}}}).Probe(context.Background(), loctest.MustParse(t, base+"0/debian/source/format"))
	if st.State != access.StateOK {
		t.Errorf("probe of the format file: %+v", st)
	}
}

// TestGophernicusErrorReply: what gophernicus sends for a directory it
// does not have is a type-3 menu line (RFC 1436 §3.8) and a "." line,
// an error live and replayed; a selector that names no file gets a line
// of text, which is no menu line and is delivered as it is.
func TestGophernicusErrorReply(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a.txt"), "a\n", 0o644)
	s := peer.Gophernicus(t, root)
	base := "gopher://" + s.Addr + "/"
	want := "3Error: File or directory not found! (null)\tTITLE\tnull.host\t1\r\n.\r\n"
	if got := raw(t, s.Addr, "/nodir/"); string(got) != want {
		t.Fatalf("gophernicus's error reply: %q, want %q", got, want)
	}
	var se *access.ServerError
	for _, u := range []string{base + "1/nodir/", base + "0/nodir/"} {
		o, _ := recordReplay(t, u, nil, "/nodir/\r\n", []byte(want))
		if !errors.As(o.Err, &se) || se.Code != "3" || se.Text != "Error: File or directory not found! (null)" || access.Classify(o.Err) != access.Absent {
			t.Errorf("%s: %v (%q)", u, o.Err, o.Body)
		}
	}
	text := "Error: File or directory not found! (null)\r\n"
	o, _ := recordReplay(t, base+"0/nofile.txt", nil, "/nofile.txt\r\n", []byte(text))
	if o.Err != nil || string(o.Body) != text {
		t.Errorf("missing file: %q, %v", o.Body, o.Err)
	}
}

// TestErrorReplyShape (RFC 1436 §3.8): an error reply is a menu line,
// type 3 and four TAB-separated fields, and nothing after it but a "."
// line; any other reply to a text item is the text.
func TestErrorReplyShape(t *testing.T) {
	for _, c := range []struct {
		reply string
		err   string // the error's text, "" when the reply is the text
	}{
		{"3.0 (native)\n", ""},
		{"3.0 (native)\r\n", ""},
		{"3.0 (native)", ""},
		{"3.0 (quilt)\r\n.\r\n", ""},
		{"3 no tabs\r\n.\r\n", ""},
		{"3two\tfields\r\n.\r\n", ""},
		{"3three\tfields\there\r\n.\r\n", ""},
		{"3Error: File or directory not found! (null)\tTITLE\tnull.host\t1\r\n.\r\n", "Error: File or directory not found! (null)"},
		{"3'/nonexist' does not exist (no handler found)\t\terror.host\t1", "'/nonexist' does not exist (no handler found)"},
		{"0'/nonexistent' does not exist!!\t\terror.host\t1\r\n.\r\n", "'/nonexistent' does not exist!!"},
		{"3an error line\t\terror.host\t1\r\nand then text\r\n", ""},
	} {
		u := loctest.MustParse(t, "gopher://h/0/x")
		req := &access.Request{Client: &access.Client{}, URL: u}
		res, err := new(gopher.Client).Replay(context.Background(), u, req, strings.NewReader(c.reply))
		var se *access.ServerError
		if c.err != "" {
			if !errors.As(err, &se) || se.Code != "3" || se.Text != c.err {
				t.Errorf("%q: %v, want the error %q", c.reply, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v, want the text", c.reply, err)
			continue
		}
		body, err := io.ReadAll(res.Body)
		res.Close()
		if want := strings.TrimSuffix(c.reply, ".\r\n"); err != nil || string(body) != want {
			t.Errorf("%q: %q, %v; want %q", c.reply, body, err, want)
		}
	}
}

// TestTextReaderEndsOnError: a "." line the connection fails after
// (a deadline, a reset) is not known to be the end; the error is
// reported, the text before it delivered.
func TestTextReaderEndsOnError(t *testing.T) {
	for _, in := range []string{"a\r\n.\r\n", "a\n.\n", "a\n"} {
		got, err := io.ReadAll(gopher.NewTextReader(iotest.TimeoutReader(strings.NewReader(in))))
		if !errors.Is(err, iotest.ErrTimeout) || string(got) != strings.TrimSuffix(strings.TrimSuffix(in, ".\r\n"), ".\n") {
			t.Errorf("%q: %q, %v", in, got, err)
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
