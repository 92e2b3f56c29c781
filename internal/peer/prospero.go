package peer

// dirsrv, the Prospero server of shared/peers/prospero, which the tests
// of several packages start.

import (
	"bytes"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"testing"
)

// Dirsrv starts dirsrv (built with BuildShared(t, "prospero")) on a free
// UDP port of 127.0.0.1 serving the tree r laid out as the peer's README
// says (info-tree, shadow, security, pfsdat; the log in r/pfs.log),
// ready when it answers an ARDP request "VERSION". It returns the server
// and the build's directory.
func Dirsrv(t testing.TB, r string) (*Server, string) {
	t.Helper()
	dir := BuildShared(t, "prospero")
	s := StartUDP(t, Spec{
		Name:    "dirsrv",
		Program: filepath.Join(dir, "bin", "dirsrv"),
		Dir:     r,
		Env:     []string{"ARDP_BIND_ADDR=127.0.0.1"},
		Args: func(port int) ([]string, error) {
			return []string{"-m", "-p", "#" + strconv.Itoa(port), "-h", "localhost", "-L", filepath.Join(r, "pfs.log"),
				"-r", filepath.Join(r, "info-tree"), "-S", filepath.Join(r, "shadow"), "-s", filepath.Join(r, "security"), "-T", filepath.Join(r, "pfsdat")}, nil
		},
		Ready: func(c net.Conn) error {
			// ARDP: a 9-octet header (connection id 1, packet 1 of 1),
			// then the text.
			req := append([]byte{9, 0, 1, 0, 1, 0, 1, 0, 0}, "VERSION\n"...)
			if _, err := c.Write(req); err != nil {
				return err
			}
			b := make([]byte, 2048)
			n, err := c.Read(b)
			if err != nil {
				return err
			}
			if !bytes.Contains(b[:n], []byte("VERSION 5")) {
				return fmt.Errorf("reply %q", b[:n])
			}
			return nil
		},
	})
	return s, dir
}
