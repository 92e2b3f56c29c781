package peer

// squid, the HTTP proxy the proxy tests of several packages start.

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Squid starts squid in the foreground on a free port of 127.0.0.1 and
// returns its address and the path of its access log (one line per
// request, written when the transaction ends: "CONNECT host:port",
// "GET http://...", "GET ftp://..."). It caches nothing, adds no Via or
// X-Forwarded-For, and allows every request from localhost to any port
// (http, ftp and CONNECT tunnels alike: the configuration has no
// Safe_ports or SSL_ports rule, so the free ports of other peers are
// reachable) except those for the hosts deny names, which it answers
// with 403 without resolving them. ftp:// URLs are carried out by squid
// itself, in passive mode, as anonymous unless the URL gives a login.
// It skips t when squid is not installed.
//
// Run as root, squid drops to its user "proxy", which must be able to
// write the log: its directory is then made outside the test's 0700
// temporary directory and given to that user.
func Squid(t testing.TB, deny ...string) (addr, log string) {
	t.Helper()
	Require(t, "/usr/sbin/squid")
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		u, err := user.Lookup("proxy")
		if err != nil {
			t.Fatalf("peer squid: squid runs as the user proxy: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if dir, err = os.MkdirTemp("", "squid-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	var rules strings.Builder
	if len(deny) > 0 {
		fmt.Fprintf(&rules, "acl denied dstdomain %s\nhttp_access deny denied\n", strings.Join(deny, " "))
	}
	log = filepath.Join(dir, "access.log")
	srv := Start(t, Spec{
		Name:    "squid",
		Program: "/usr/sbin/squid",
		Args: func(port int) ([]string, error) {
			conf := fmt.Sprintf(`http_port 127.0.0.1:%[1]d
pid_filename none
cache deny all
cache_mem 8 MB
access_log stdio:%[2]s/access.log squid
cache_log %[2]s/cache.log
cache_store_log none
coredump_dir %[2]s
logfile_rotate 0
pinger_enable off
shutdown_lifetime 0 seconds
via off
forwarded_for delete
ftp_passive on
%[3]shttp_access allow localhost
http_access deny all
`, port, dir, rules.String())
			p := filepath.Join(dir, "squid.conf")
			return []string{"-N", "-f", p}, os.WriteFile(p, []byte(conf), 0o644)
		},
		// A request in origin form is no request for a proxy: squid
		// answers it at once with an error page, contacting nobody.
		Ready: func(c net.Conn) error {
			fmt.Fprint(c, "GET / HTTP/1.0\r\n\r\n")
			line, err := bufio.NewReader(c).ReadString('\n')
			if !strings.HasPrefix(line, "HTTP/1.1 ") {
				return fmt.Errorf("reply %q, %v", line, err)
			}
			return nil
		},
	})
	return srv.Addr, log
}
