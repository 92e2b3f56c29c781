package peer

// nginx, the HTTP server the tests of several packages start.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// NginxConfig is what differs between the nginx servers of the tests.
type NginxConfig struct {
	// Dir holds nginx.conf, the pid file, the logs and the temporary
	// files; "" means a t.TempDir.
	Dir string
	// Connections is worker_connections.
	Connections int
	// HTTP is added to the http block (a types block).
	HTTP string
	// Server is added to the server block after listen and root (the
	// locations).
	Server string
}

// Nginx serves root with nginx in the foreground (one worker, a master
// that SIGQUIT stops) on a free port of 127.0.0.1, configured as c says;
// when the test runs as root the worker runs as root, since the tree is
// in a 0700 directory of root's (nginx drops to nobody otherwise). It
// skips t when nginx is not installed.
func Nginx(t testing.TB, root string, c NginxConfig) *Server {
	t.Helper()
	Require(t, "/usr/sbin/nginx")
	dir := c.Dir
	if dir == "" {
		dir = t.TempDir()
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root root;"
	}
	return Start(t, Spec{
		Name:    "nginx",
		Program: "/usr/sbin/nginx",
		Stop:    syscall.SIGQUIT,
		Args: func(port int) ([]string, error) {
			conf := fmt.Sprintf(`daemon off; master_process on; worker_processes 1; %[4]s
pid %[1]s/nginx.pid; error_log %[1]s/error.log info;
events { worker_connections %[5]d; }
http { access_log %[1]s/access.log;
  %[6]s
  client_body_temp_path %[1]s/body; proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi; uwsgi_temp_path %[1]s/uwsgi; scgi_temp_path %[1]s/scgi;
  server { listen 127.0.0.1:%[2]d; root %[3]s;
%[7]s
  }
}
`, dir, port, root, user, c.Connections, c.HTTP, c.Server)
			p := filepath.Join(dir, "nginx.conf")
			return []string{"-e", "stderr", "-p", dir, "-c", p}, os.WriteFile(p, []byte(conf), 0o644)
		},
		Ready: func(c net.Conn) error {
			io.WriteString(c, "HEAD / HTTP/1.0\r\n\r\n")
			line, err := bufio.NewReader(c).ReadString('\n')
			if !strings.HasPrefix(line, "HTTP/1.1 ") {
				return fmt.Errorf("reply %q, %v", line, err)
			}
			return nil
		},
	})
}
