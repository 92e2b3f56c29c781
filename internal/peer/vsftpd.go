package peer

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// vsftpdConf is vsftpd's configuration for the tests: anonymous,
// read-only FTP on 127.0.0.1, passive ports in a range of its own,
// every command and reply logged.
const vsftpdConf = `listen=YES
listen_ipv6=NO
listen_address=%s
listen_port=%d
background=NO
anonymous_enable=YES
anon_root=%s
local_enable=NO
write_enable=NO
pasv_enable=YES
pasv_min_port=%d
pasv_max_port=%d
pasv_address=%s
secure_chroot_dir=%s
use_localtime=NO
xferlog_enable=YES
dual_log_enable=YES
xferlog_file=%s
vsftpd_log_file=%s
log_ftp_protocol=YES
ftpd_banner=locator test vsftpd
`

// A VsftpdServer is vsftpd started by Vsftpd.
type VsftpdServer struct {
	*Server
	Root string // the anonymous root
	// Log is vsftpd's own log (log_ftp_protocol): a line for each
	// connection, command and reply, "Mon Dec  7 21:36:06 2026 [pid N]
	// ...", stamped to the second (UTC), appended by every session's
	// process to one file.
	Log string
	// Xferlog is the wu-ftpd style transfer log (one line a completed
	// transfer, to the second).
	Xferlog string
}

// Vsftpd starts vsftpd (Debian's) on a free port of 127.0.0.1, serving
// the tree fill writes under root anonymously, with the lines of extra
// added to its configuration (vsftpdConf). vsftpd runs as root with a
// root-owned configuration, and refuses a writable chroot: the root is
// made read-only once fill has written it. It skips when vsftpd is not
// installed or the test does not run as root.
func Vsftpd(t testing.TB, extra string, fill func(root string)) *VsftpdServer {
	t.Helper()
	return VsftpdOn(t, Host, extra, fill)
}

// VsftpdOn is Vsftpd listening on host, a loopback address (127.0.0.1,
// or another of 127/8, which is all this machine on Linux), with its
// passive-mode address host too: several instances on several
// addresses are several hosts to a client.
func VsftpdOn(t testing.TB, host, extra string, fill func(root string)) *VsftpdServer {
	t.Helper()
	Require(t, "vsftpd")
	RequireRoot(t, "vsftpd")
	dir := t.TempDir()
	v := &VsftpdServer{Root: filepath.Join(dir, "ftproot"), Log: filepath.Join(dir, "vsftpd.log"), Xferlog: filepath.Join(dir, "xferlog")}
	if err := os.MkdirAll(v.Root, 0o755); err != nil {
		t.Fatal(err)
	}
	if fill != nil {
		fill(v.Root)
	}
	if err := os.Chmod(v.Root, 0o555); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "vsftpd.conf")
	first, last := FreeRange(t, 20)
	v.Server = Start(t, Spec{
		Name:    "vsftpd",
		Program: "vsftpd",
		Host:    host,
		Args: func(port int) ([]string, error) {
			c := fmt.Sprintf(vsftpdConf, host, port, v.Root, first, last, host, empty, v.Xferlog, v.Log) + extra
			return []string{conf}, os.WriteFile(conf, []byte(c), 0o600)
		},
		Ready: ReadyLine("220"),
	})
	return v
}

// WriteFiles writes files (path, with "/" between its parts → content)
// under root, making the directories they need.
func WriteFiles(t testing.TB, root string, files map[string][]byte) {
	t.Helper()
	for p, c := range files {
		f := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, c, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
