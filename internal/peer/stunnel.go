package peer

// A TLS terminator in front of a plain server, for the schemes that are
// an older protocol carried over TLS (gophers: Gopher over TLS, with no
// server of its own): Debian's stunnel4, or socat's OPENSSL-LISTEN where
// stunnel4 is not installed. The certificate is the test's (SelfSigned).

import (
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TLSSpec says what a TLS terminator serves.
type TLSSpec struct {
	// Name names the server in messages.
	Name string
	// Cert and Key are the PEM files of the server's certificate and key
	// (SelfSigned's).
	Cert, Key string
	// Exec returns the command line (the program first, a path) of the
	// plain server started for each connection, inetd-style, on the
	// decrypted stream, given the port the terminator listens on (a
	// Gopher server writes it into its menus).
	Exec func(port int) []string
	// Connect, when Exec is nil, is the address of a plain server
	// already listening, to which each decrypted connection is passed.
	Connect string
	// Ready, when not nil, says whether the plain server answers, on a
	// TLS connection made over a fresh one (the certificate is not
	// verified: the check is of the server, not of the chain).
	Ready func(c net.Conn) error
	// Socat, when true, uses socat's OPENSSL-LISTEN even where stunnel4
	// is installed.
	Socat bool
}

// Stunnel starts Debian's stunnel4 (/usr/bin/stunnel4) in the foreground
// on a free port of 127.0.0.1, TLS on every connection from its first
// octet, running spec.Exec's server for each connection (stunnel's exec
// and execArgs) as nobody when the test runs as root, or passing it to
// spec.Connect; where stunnel4 is not installed, or spec.Socat asks for
// it, socat's OPENSSL-LISTEN with EXEC or TCP does the same. It skips t
// when neither is installed.
func Stunnel(t testing.TB, spec TLSSpec) *Server {
	t.Helper()
	ready := func(c net.Conn) error {
		tc := tls.Client(c, &tls.Config{InsecureSkipVerify: true})
		if err := tc.Handshake(); err != nil {
			return err
		}
		if spec.Ready == nil {
			return nil
		}
		return spec.Ready(tc)
	}
	if _, err := exec.LookPath("/usr/bin/stunnel4"); err == nil && !spec.Socat {
		dir := t.TempDir()
		return Start(t, Spec{
			Name:    spec.Name + " (stunnel4)",
			Program: "/usr/bin/stunnel4",
			Args: func(port int) ([]string, error) {
				var b strings.Builder
				// In the foreground stunnel logs to its standard error,
				// which Start keeps.
				b.WriteString("foreground = yes\npid =\n")
				if os.Geteuid() == 0 {
					// Dropped after the certificate is read and the
					// port bound; the server stunnel runs is nobody's.
					b.WriteString("setuid = nobody\nsetgid = nogroup\n")
				}
				fmt.Fprintf(&b, "[%s]\naccept = %s:%d\ncert = %s\nkey = %s\n", safeName(spec.Name), Host, port, spec.Cert, spec.Key)
				if spec.Exec != nil {
					argv := spec.Exec(port)
					fmt.Fprintf(&b, "exec = %s\nexecArgs = %s\n", argv[0], strings.Join(argv, " "))
				} else {
					fmt.Fprintf(&b, "connect = %s\n", spec.Connect)
				}
				f := filepath.Join(dir, "stunnel.conf")
				return []string{f}, os.WriteFile(f, []byte(b.String()), 0o644)
			},
			Ready: ready,
		})
	}
	paths := Require(t, "socat")
	return Start(t, Spec{
		Name:    spec.Name + " (socat OPENSSL-LISTEN)",
		Program: paths[0],
		Args: func(port int) ([]string, error) {
			exe := "TCP:" + spec.Connect
			if spec.Exec != nil {
				// No nofork: socat keeps the TLS layer and copies the
				// decrypted stream to the server it runs.
				exe = `EXEC:"` + strings.Join(spec.Exec(port), " ") + `"`
				if os.Geteuid() == 0 {
					exe += ",su=nobody"
				}
			}
			// -t: after the server's end, how long socat waits for the
			// client's (0.5 s by default, a wait on every request).
			return []string{"-t", "0.1", "OPENSSL-LISTEN:" + strconv.Itoa(port) + ",bind=" + Host + ",reuseaddr,fork,verify=0,cert=" + spec.Cert + ",key=" + spec.Key, exe}, nil
		},
		Ready: ready,
	})
}

// GophernicusTLS serves root with Debian's gophernicus behind a TLS
// terminator (Stunnel), the certificate and key the test's: Gopher over
// TLS as curl's gophers speaks it, TLS from the first octet. gophernicus
// names the terminator's port in its menus, as a server behind one
// would be configured; headers and footers are off, as for Gophernicus.
// root is made readable by every user.
func GophernicusTLS(t testing.TB, root, cert, key string, socat bool) *Server {
	t.Helper()
	Require(t, "/usr/sbin/gophernicus")
	OpenTree(t, root)
	logDir := t.TempDir()
	OpenTree(t, logDir)
	return Stunnel(t, TLSSpec{
		Name: "gophernicus", Cert: cert, Key: key, Socat: socat,
		Exec: func(port int) []string {
			return []string{"/usr/sbin/gophernicus", "-h", Host, "-p", strconv.Itoa(port), "-r", root, "-ns", "-nh", "-nf", "-l", filepath.Join(logDir, "access.log")}
		},
		Ready: ReadyMenu,
	})
}
