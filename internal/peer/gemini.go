package peer

// molly-brown, the Gemini server the tests start.

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// MollyConfig is what differs between the molly-brown servers of the
// tests.
type MollyConfig struct {
	// Cert and Key are the server's certificate and key, PEM files
	// (SelfSigned writes them); both "" make a new pair.
	Cert, Key string
	// Conf is TOML added to the configuration after the keys the
	// recipe sets: TempRedirects, PermRedirects, CGIPaths,
	// CertificateZones, ...
	Conf string
}

// MollyBrown serves root with Debian's molly-brown, the Gemini server, on
// a free port, its host name 127.0.0.1 (it answers "53" to a request for
// another), its logs in a temporary folder. root is made readable by
// every user: molly-brown serves only files whose mode lets every user
// read them. It skips t when molly-brown is not installed.
//
// Debian's molly-brown (0.0~git20210124) has no setting for the
// address it listens on: it listens on the port of every address of the
// machine, for as long as the test runs. It reads a request with a
// buffer of 1024 octets that must hold the CR LF too, so it refuses
// ("59") a URL of 1023 or 1024 octets, which Gemini allows.
func MollyBrown(t testing.TB, root string, c MollyConfig) *Server {
	t.Helper()
	Require(t, "/usr/bin/molly-brown")
	dir := t.TempDir()
	if c.Cert == "" {
		c.Cert, c.Key, _ = SelfSigned(t, dir)
	}
	OpenTree(t, root)
	var port int
	return Start(t, Spec{
		Name:    "molly-brown",
		Program: "/usr/bin/molly-brown",
		Args: func(p int) ([]string, error) {
			port = p
			conf := fmt.Sprintf("Port = %d\nHostname = %q\nCertPath = %q\nKeyPath = %q\nDocBase = %q\nAccessLog = %q\nErrorLog = %q\n%s\n",
				p, Host, c.Cert, c.Key, root, filepath.Join(dir, "access.log"), filepath.Join(dir, "error.log"), c.Conf)
			name := filepath.Join(dir, "molly.conf")
			return []string{"-c", name}, os.WriteFile(name, []byte(conf), 0o644)
		},
		// A request for the root answers with a status line.
		Ready: func(conn net.Conn) error {
			tc := tls.Client(conn, &tls.Config{InsecureSkipVerify: true})
			if _, err := fmt.Fprintf(tc, "gemini://%s:%d/\r\n", Host, port); err != nil {
				return err
			}
			line, err := bufio.NewReader(tc).ReadString('\n')
			if len(line) < 3 || line[0] < '1' || line[0] > '6' || !strings.HasSuffix(line, "\r\n") {
				return fmt.Errorf("reply %q, %v", line, err)
			}
			return nil
		},
	})
}

// GeminiURL returns the gemini URL of path (beginning "/") on s.
func GeminiURL(s *Server, path string) string {
	return "gemini://" + s.Host + ":" + strconv.Itoa(s.Port) + path
}
