package access

import (
	"testing"

	"github.com/rfc1738/locator/internal/printable"
)

// The threat: a server's text in an error (an FTP 550 echoing a name, an
// HTTP reason phrase, a Gopher error line, a reply quoted by a protocol
// error) reached a terminal or a log with ESC, BEL or C1 controls. The
// message of each typed error is made printable.
func TestErrorMessagesPrintable(t *testing.T) {
	const evil = "\x1b]0;owned\x07\u009b2J\xff"
	const shown = `\x1b]0;owned\x07\u009b2J\xff`
	for _, c := range []struct {
		err  error
		want string
	}{
		{&ServerError{URL: "ftp://h/x", Command: "RETR x", Code: "550", Text: "x" + evil + ": no such file"},
			`ftp://h/x: the server says 550 x` + shown + `: no such file (to "RETR x")`},
		{&ProtocolError{URL: "gopher://h/", Msg: "a menu line " + evil},
			`gopher://h/: protocol error: a menu line ` + shown},
		{&PolicyError{URL: "file:///x", Rule: "file", Reason: "/x" + evil + " is not a regular file"},
			`file:///x: refused by local policy (file, at 0): /x` + shown + ` is not a regular file`},
	} {
		got := c.err.Error()
		if got != c.want || !printable.Clean(got) {
			t.Errorf("%T: %q\nwant %q", c.err, got, c.want)
		}
	}
}
