package peer

// Gopher servers the tests of several packages start (docs/design.md,
// "Test peers"): pygopherd, gophernicus under socat, and UMN gopherd
// built from its source beside the repository. Each is
// one recipe here, so that every package starts the same server the
// same way.

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/loctest"
)

// OpenTree makes dir, its parent and everything under it readable by
// every user (directories and executables searchable too): the servers
// run as nobody when the test runs as root, and t.TempDir is 0700.
func OpenTree(t testing.TB, dir string) {
	t.Helper()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			mode := fi.Mode().Perm() | 0o444
			if fi.IsDir() || fi.Mode().Perm()&0o100 != 0 {
				mode |= 0o111
			}
			os.Chmod(p, mode)
		}
		return nil
	})
}

// ReadyMenu is a Ready function that accepts a Gopher server answering
// the empty selector (RFC 1436 §2) with a line.
func ReadyMenu(c net.Conn) error {
	if _, err := c.Write([]byte("\r\n")); err != nil {
		return err
	}
	_, err := bufio.NewReader(c).ReadString('\n')
	return err
}

// Pygopherd serves root with Debian's pygopherd, its packaged
// configuration changed for a test (port, no
// chroot, root, pid file, log to a file, 127.0.0.1, and setuid nobody
// when the test runs as root). root is made readable by every user.
func Pygopherd(t testing.TB, root string) *Server {
	t.Helper()
	return PygopherdWith(t, root, PygopherdOptions{})
}

// PygopherdOptions change how Pygopherd's variant PygopherdWith runs.
type PygopherdOptions struct {
	// Host is the loopback address it listens on and names in its
	// menus: 127.0.0.1 when empty, or another of 127/8 (all this
	// machine on Linux, another host to a client).
	Host string
	// Threads serves each connection on a thread (servertype =
	// ThreadingTCPServer) instead of a forked process, the packaged
	// default: a request then costs ~2 ms on this machine rather than
	// ~100 ms, which thousands of requests feel.
	Threads bool
}

// PygopherdWith is Pygopherd changed by o. The log (logmethod = file)
// is the process's standard output, the Server's Output: a line a
// request, "client [Protocol/Handler]: selector", or "client
// [Protocol/None] EXCEPTION FileNotFound: 'selector' does not exist",
// written once the request is read, with neither a time nor the address
// the client reached (so one instance an address when that matters).
func PygopherdWith(t testing.TB, root string, o PygopherdOptions) *Server {
	t.Helper()
	host := o.Host
	if host == "" {
		host = Host
	}
	Require(t, "/usr/sbin/pygopherd")
	conf, err := os.ReadFile("/etc/pygopherd/pygopherd.conf")
	if err != nil {
		t.Skipf("peer: pygopherd's configuration is missing: %v", err)
	}
	dir := t.TempDir()
	OpenTree(t, root)
	return Start(t, Spec{
		Name:    "pygopherd",
		Program: "/usr/sbin/pygopherd",
		Host:    host,
		Args: func(port int) ([]string, error) {
			c := string(conf)
			for _, r := range [][2]string{
				{"\nport = 70\n", "\nport = " + strconv.Itoa(port) + "\n"},
				{"\nusechroot = yes\n", "\nusechroot = no\n"},
				{"\nroot = /var/gopher\n", "\nroot = " + root + "\n"},
				{"\npidfile = /var/run/pygopherd/pygopherd.pid\n", "\npidfile = " + filepath.Join(dir, "pygopherd.pid") + "\n"},
				{"\nlogmethod = syslog\n", "\nlogmethod = file\n"},
				{"\n# servername = gopher.example.com\n", "\nservername = " + host + "\n"},
				{"\n# interface = gopher.example.com\n", "\ninterface = " + host + "\n"},
				{"\n#setuid = gopher\n", "\nsetuid = nobody\n"},
				{"\n#setgid = gopher\n", "\nsetgid = nogroup\n"},
			} {
				if !strings.Contains(c, r[0]) {
					return nil, fmt.Errorf("pygopherd.conf has no line %q", strings.TrimSpace(r[0]))
				}
				c = strings.Replace(c, r[0], r[1], 1)
			}
			if o.Threads {
				const forking = "\nservertype = ForkingTCPServer\n"
				if !strings.Contains(c, forking) {
					return nil, fmt.Errorf("pygopherd.conf has no line %q", strings.TrimSpace(forking))
				}
				c = strings.Replace(c, forking, "\nservertype = ThreadingTCPServer\n", 1)
			}
			if os.Geteuid() != 0 {
				c = strings.Replace(c, "\nsetuid = nobody\n", "\n", 1)
				c = strings.Replace(c, "\nsetgid = nogroup\n", "\n", 1)
			}
			f := filepath.Join(dir, "pygopherd.conf")
			return []string{f}, os.WriteFile(f, []byte(c), 0o644)
		},
		Ready: ReadyMenu,
	})
}

// Gophernicus serves root with Debian's gophernicus under socat,
// headers and footers off, as nobody when
// the test runs as root. root is made readable by every user.
func Gophernicus(t testing.TB, root string) *Server {
	t.Helper()
	paths := Require(t, "socat", "/usr/sbin/gophernicus")
	OpenTree(t, root)
	logDir := t.TempDir()
	OpenTree(t, logDir)
	return Start(t, Spec{
		Name:    "gophernicus",
		Program: paths[0],
		Args: func(port int) ([]string, error) {
			exe := "/usr/sbin/gophernicus -h 127.0.0.1 -p " + strconv.Itoa(port) + " -r " + root + " -ns -nh -nf -l " + filepath.Join(logDir, "access.log")
			if os.Geteuid() == 0 {
				exe = `EXEC:"` + exe + `",su=nobody,nofork`
			} else {
				exe = `EXEC:"` + exe + `",nofork`
			}
			return []string{"TCP-LISTEN:" + strconv.Itoa(port) + ",bind=127.0.0.1,reuseaddr,fork", exe}, nil
		},
		Ready: ReadyMenu,
	})
}

// BuildUMN builds UMN gopherd with shared/peers/umn-gopherd/build.sh
// into the user's cache (a directory named by a hash of the recipe, so
// every package's tests share one build), or skips t when its
// prerequisites are missing (exit 2). It returns the install directory.
func BuildUMN(t testing.TB) string {
	t.Helper()
	src := loctest.SharedPath(t, "peers", "umn-gopherd")
	h := sha256.New()
	files, _ := filepath.Glob(filepath.Join(src, "patches", "*"))
	sort.Strings(files)
	for _, f := range append([]string{filepath.Join(src, "build.sh"), filepath.Join(src, "src.tar.gz")}, files...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("umn-gopherd recipe: %v", err)
		}
		h.Write(b)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("peer: no user cache directory to build UMN gopherd in: %v", err)
	}
	dir := filepath.Join(cache, "locator-peers", "umn-gopherd-"+hex.EncodeToString(h.Sum(nil))[:12])
	out, err := exec.Command("sh", filepath.Join(src, "build.sh"), dir).CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 2 {
		t.Skipf("peer: %s", strings.TrimSpace(string(out)))
	}
	if err != nil {
		t.Fatalf("build UMN gopherd: %v\n%s", err, out)
	}
	return dir
}

// UMNGopherd serves data with UMN gopherd (BuildUMN) in standalone mode
// on 127.0.0.1 (patch 01's GOPHERD_BIND_ADDR), with its installed
// gopherd.conf, as nobody when the test runs as root. data is made
// readable by every user.
func UMNGopherd(t testing.TB, data string) *Server {
	t.Helper()
	dir := BuildUMN(t)
	OpenTree(t, data)
	return Start(t, Spec{
		Name:    "umn-gopherd",
		Program: filepath.Join(dir, "bin", "gopherd"),
		Env:     []string{"GOPHERD_BIND_ADDR=127.0.0.1"},
		Args: func(port int) ([]string, error) {
			args := []string{"-D", "-c", "-C", "-o", filepath.Join(dir, "etc", "gopherd", "gopherd.conf")}
			if os.Geteuid() == 0 {
				args = append(args, "-u", "nobody")
			}
			return append(args, data, strconv.Itoa(port)), nil
		},
		Ready: ReadyMenu,
	})
}
