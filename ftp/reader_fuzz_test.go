package ftp

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rfc1738/locator"
)

// TestCRLFReader: TYPE A's CRLF becomes LF, whatever the reads' sizes
// (a CR at the end of one read and its LF at the start of the next).
func TestCRLFReader(t *testing.T) {
	cases := map[string]string{
		"":                    "",
		"line1\r\nline2\r\n":  "line1\nline2\n",
		"a\rb\r\n":            "a\rb\n",
		"\r\r\n\n":            "\r\n\n",
		"end\r":               "end\r",
		"\r":                  "\r",
		"\r\n":                "\n",
		"no line ends":        "no line ends",
		"lf only\nstays\n":    "lf only\nstays\n",
		"\x00\xff\r\n\x1a\r.": "\x00\xff\n\x1a\r.",
	}
	for in, want := range cases {
		checkCRLF(t, in, want)
	}
}

func checkCRLF(t *testing.T, in, want string) {
	t.Helper()
	for name, wrap := range map[string]func(io.Reader) io.Reader{
		"whole": func(r io.Reader) io.Reader { return r },
		"one":   iotest.OneByteReader,
		"half":  iotest.HalfReader,
		"eof":   iotest.DataErrReader,
	} {
		got, err := io.ReadAll(newCRLFReader(wrap(strings.NewReader(in))))
		if err != nil || string(got) != want {
			t.Errorf("%s reads of %q: %q, %v; want %q", name, in, got, err, want)
		}
		// Reads of one octet into the caller's buffer.
		r := newCRLFReader(wrap(strings.NewReader(in)))
		var out bytes.Buffer
		one := make([]byte, 1)
		for {
			n, err := r.Read(one)
			out.Write(one[:n])
			if err != nil {
				break
			}
		}
		if out.String() != want {
			t.Errorf("%s reads of %q into 1 octet: %q; want %q", name, in, out.String(), want)
		}
	}
}

// FuzzCRLFReader: the TYPE A reader delivers exactly the input with each
// CR LF replaced by LF (RFC 959 §3.1.1.1), however it is read.
func FuzzCRLFReader(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", "\r", "\r\r\n", "x\r\n\r\n\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkCRLF(t, in, strings.ReplaceAll(in, "\r\n", "\n"))
	})
}

// TestMethodSteps: the commands each method (Client.Method)
// sends after the login, from RFC 1738 §3.2.2's plan; no server needed.
func TestMethodSteps(t *testing.T) {
	cases := []struct {
		url                     string
		singlecwd, nocwd, plain string
	}{
		{"ftp://h//etc/motd", "CWD /etc | TYPE I | RETR motd", "TYPE I | RETR /etc/motd", "CWD  | CWD etc | TYPE I | RETR motd"},
		{"ftp://h/%2Fetc/motd", "CWD /etc | TYPE I | RETR motd", "TYPE I | RETR /etc/motd", "CWD /etc | TYPE I | RETR motd"},
		{"ftp://h/etc/motd", "CWD etc | TYPE I | RETR motd", "TYPE I | RETR etc/motd", "CWD etc | TYPE I | RETR motd"},
		{"ftp://h/pub/sub//top.txt", "CWD pub/sub/ | TYPE I | RETR top.txt", "TYPE I | RETR pub/sub//top.txt", "CWD pub | CWD sub | CWD  | TYPE I | RETR top.txt"},
		{"ftp://h//motd", "CWD / | TYPE I | RETR motd", "TYPE I | RETR /motd", "CWD  | TYPE I | RETR motd"},
		{"ftp://h/top.txt", "TYPE I | RETR top.txt", "TYPE I | RETR top.txt", "TYPE I | RETR top.txt"},
		{"ftp://h/pub/sub/", "CWD pub/sub | NLST", "NLST pub/sub", "CWD pub | CWD sub | NLST"},
		{"ftp://h//", "CWD / | NLST", "NLST /", "CWD  | NLST"},
		{"ftp://h/", "NLST", "NLST", "NLST"},
		{"ftp://h/pub;type=d", "NLST pub", "NLST pub", "NLST pub"},
		{"ftp://h/a/b;type=d", "CWD a | NLST b", "NLST a/b", "CWD a | NLST b"},
	}
	str := func(cs []Command) string { p := Plan{Commands: cs}; return p.String() }
	for _, c := range cases {
		u, err := locator.Parse(c.url)
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewPlan(u, "")
		if err != nil {
			t.Fatal(err)
		}
		steps := p.Commands[2:]
		if got := str(singleCWD(steps)); got != c.singlecwd {
			t.Errorf("%s singlecwd: %q, want %q", c.url, got, c.singlecwd)
		}
		if got := str(noCWD(steps)); got != c.nocwd {
			t.Errorf("%s nocwd: %q, want %q", c.url, got, c.nocwd)
		}
		if got := str(steps); got != c.plain {
			t.Errorf("%s rfc1738: %q, want %q", c.url, got, c.plain)
		}
	}
}
