package main

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestGetServerTextPrintable: a server's text reaches the terminal only
// made printable, for every URL of a run. A Gopher type-3 error item
// whose display string holds ESC and BEL (a title-setting sequence and
// a screen clear; no real server sends these on purpose, hence a
// hostile listener) is written escaped on standard error.
func TestGetServerTextPrintable(t *testing.T) {
	const display = "\x1b]0;pwned\x07\x1b[2Jgone"
	addr := peer.Hostile(t, func(c net.Conn) {
		if _, err := bufio.NewReader(c).ReadString('\n'); err != nil {
			return
		}
		io.WriteString(c, "3"+display+"\t\terror.host\t1\r\n.\r\n")
	})
	code, out, errs := runCLI(t, "", "get", "-o", "-", "gopher://"+addr+"/0/a", "-O", "--output-dir", t.TempDir(), "gopher://"+addr+"/0/[1-2]")
	if code != 1 || out != "" || strings.ContainsAny(errs, "\x1b\x07") || strings.Count(errs, `\x1b]0;pwned\x07\x1b[2Jgone`) != 3 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
