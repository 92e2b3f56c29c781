package peer

// pyftpdlib, the FTP server the tests of several packages start.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Python is Debian's python3, which sees the python3-* packages
// ./test.sh installs; the python3 on PATH may be another.
const Python = "/usr/bin/python3"

// pyftpdScript is the FTP server: anonymous users read-only in
// ROOT; when HOME is not "-", the virtual user ftpuser/ftppass jailed in
// HOME (and no delay after a failed login); passive ports FIRST–LAST;
// every command line and reply logged at DEBUG to LOG. The flags after
// them: "noepsv" (no EPSV command), "host=ADDR" (listen on ADDR).
const pyftpdScript = `import logging, sys
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer
port, root, home, log, first, last = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
logging.basicConfig(filename=log, level=logging.DEBUG, format='%(message)s')
a = DummyAuthorizer()
a.add_anonymous(root)
h = FTPHandler; h.authorizer = a; h.passive_ports = range(first, last + 1)
if home != '-':
    a.add_user('ftpuser', 'ftppass', home, perm='elr')
    h.auth_failed_timeout = 0
host = '127.0.0.1'
for flag in sys.argv[7:]:
    if flag == 'noepsv':
        h.proto_cmds = {k: v for k, v in h.proto_cmds.items() if k != 'EPSV'}
    elif flag.startswith('host='):
        host = flag[5:]
FTPServer((host, port), h).serve_forever()
`

// PyftpdOptions are the choices of a Pyftpdlib server.
type PyftpdOptions struct {
	// Home, when not "", is the home of the user ftpuser (password
	// ftppass, permissions elr).
	Home string
	// Ports is how many passive-mode data ports it has (FreeRange);
	// 0 means 10.
	Ports int
	// Flags are the script's flags: "noepsv", "host=::1".
	Flags []string
}

// A Pyftpd is a running pyftpdlib server.
type Pyftpd struct {
	*Server
	// Log is the file the server logs every command line and reply to.
	Log string
}

// Pyftpdlib serves root (anonymous, read-only) with pyftpdlib under
// Debian's python3 on a free port, as opts says, and skips t when
// python3-pyftpdlib is not installed.
func Pyftpdlib(t testing.TB, root string, opts PyftpdOptions) *Pyftpd {
	t.Helper()
	RequirePython(t, Python, "pyftpdlib")
	dir := t.TempDir()
	script := filepath.Join(dir, "server.py")
	if err := os.WriteFile(script, []byte(pyftpdScript), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &Pyftpd{Log: filepath.Join(dir, "pyftpd.log")}
	home := opts.Home
	if home == "" {
		home = "-"
	}
	n := opts.Ports
	if n <= 0 {
		n = 10
	}
	first, last := FreeRange(t, n)
	host := ""
	for _, f := range opts.Flags {
		if h, ok := strings.CutPrefix(f, "host="); ok {
			host = h
		}
	}
	p.Server = Start(t, Spec{
		Name:    "pyftpdlib",
		Host:    host,
		Program: Python,
		Args: func(port int) ([]string, error) {
			return append([]string{script, strconv.Itoa(port), root, home, p.Log, strconv.Itoa(first), strconv.Itoa(last)}, opts.Flags...), nil
		},
		Ready: ReadyLine("220"),
	})
	return p
}
