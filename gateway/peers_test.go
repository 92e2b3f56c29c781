package gateway_test

// Servers for the gateway's tests, started on loopback with
// internal/peer (DESIGN.md "Test peers", shared/peers/debian.md): pygopherd
// (Gopher+), gophernicus (plain Gopher with a type 7 search script),
// pyftpdlib (FTP with a user and password), UMN gopherd (Gopher+ ASK
// forms, built from shared/peers/umn-gopherd). Each is skipped with a
// one-line reason when it is not installed.

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
	"github.com/rfc1738/locator/internal/peer"
)

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// openTree makes dir, its parent and everything under it readable by
// every user: the servers run as nobody (t.TempDir is 0700).
func openTree(t *testing.T, dir string) {
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

func readyMenu(c net.Conn) error {
	if _, err := c.Write([]byte("\r\n")); err != nil {
		return err
	}
	_, err := bufio.NewReader(c).ReadString('\n')
	return err
}

// startPygopherd serves root with pygopherd, configured as debian.md §3
// says.
func startPygopherd(t *testing.T, root string) *peer.Server {
	peer.Require(t, "/usr/sbin/pygopherd")
	conf, err := os.ReadFile("/etc/pygopherd/pygopherd.conf")
	if err != nil {
		t.Skipf("peer: pygopherd's configuration is missing: %v", err)
	}
	dir := t.TempDir()
	openTree(t, root)
	return peer.Start(t, peer.Spec{
		Name:    "pygopherd",
		Program: "/usr/sbin/pygopherd",
		Args: func(port int) ([]string, error) {
			c := string(conf)
			for _, r := range [][2]string{
				{"\nport = 70\n", "\nport = " + strconv.Itoa(port) + "\n"},
				{"\nusechroot = yes\n", "\nusechroot = no\n"},
				{"\nroot = /var/gopher\n", "\nroot = " + root + "\n"},
				{"\npidfile = /var/run/pygopherd/pygopherd.pid\n", "\npidfile = " + filepath.Join(dir, "pygopherd.pid") + "\n"},
				{"\nlogmethod = syslog\n", "\nlogmethod = file\n"},
				{"\n# servername = gopher.example.com\n", "\nservername = 127.0.0.1\n"},
				{"\n# interface = gopher.example.com\n", "\ninterface = 127.0.0.1\n"},
				{"\n#setuid = gopher\n", "\nsetuid = nobody\n"},
				{"\n#setgid = gopher\n", "\nsetgid = nogroup\n"},
			} {
				if !strings.Contains(c, r[0]) {
					return nil, fmt.Errorf("pygopherd.conf has no line %q", strings.TrimSpace(r[0]))
				}
				c = strings.Replace(c, r[0], r[1], 1)
			}
			if os.Geteuid() != 0 {
				c = strings.Replace(c, "\nsetuid = nobody\n", "\n", 1)
				c = strings.Replace(c, "\nsetgid = nogroup\n", "\n", 1)
			}
			f := filepath.Join(dir, "pygopherd.conf")
			return []string{f}, os.WriteFile(f, []byte(c), 0o644)
		},
		Ready: readyMenu,
	})
}

// startGophernicus serves root with gophernicus under socat
// (debian.md §3), headers and footers off.
func startGophernicus(t *testing.T, root string) *peer.Server {
	paths := peer.Require(t, "socat", "/usr/sbin/gophernicus")
	openTree(t, root)
	logDir := t.TempDir()
	openTree(t, logDir)
	return peer.Start(t, peer.Spec{
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
		Ready: readyMenu,
	})
}

const python = "/usr/bin/python3" // Debian's, which sees python3-pyftpdlib (debian.md §0)

// pyftpdScript: anonymous (read-only, in ROOT) and ftpuser/ftppass in
// HOME, passive ports FIRST–LAST, every command logged at DEBUG.
const pyftpdScript = `import logging, sys
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer
port, root, home, log, first, last = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
logging.basicConfig(filename=log, level=logging.DEBUG, format='%(message)s')
a = DummyAuthorizer()
a.add_anonymous(root)
a.add_user('ftpuser', 'ftppass', home, perm='elr')
h = FTPHandler; h.authorizer = a; h.passive_ports = range(first, last + 1); h.auth_failed_timeout = 0
FTPServer(('127.0.0.1', port), h).serve_forever()
`

type ftpServer struct {
	*peer.Server
	log string
}

func (s ftpServer) commands(t *testing.T) string {
	b, err := os.ReadFile(s.log)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// startPyftpd serves anon and home (path → content) with pyftpdlib.
func startPyftpd(t *testing.T, anon, home map[string]string) ftpServer {
	peer.RequirePython(t, python, "pyftpdlib")
	dir := t.TempDir()
	root, h := filepath.Join(dir, "root"), filepath.Join(dir, "home")
	for d, files := range map[string]map[string]string{root: anon, h: home} {
		os.MkdirAll(d, 0o755)
		for p, c := range files {
			write(t, filepath.Join(d, filepath.FromSlash(p)), c, 0o644)
		}
	}
	script := filepath.Join(dir, "server.py")
	write(t, script, pyftpdScript, 0o644)
	log := filepath.Join(dir, "ftp.log")
	first, last := peer.FreeRange(t, 8)
	s := peer.Start(t, peer.Spec{
		Name:    "pyftpdlib",
		Program: python,
		Args: func(port int) ([]string, error) {
			return []string{script, strconv.Itoa(port), root, h, log, strconv.Itoa(first), strconv.Itoa(last)}, nil
		},
		Ready: func(c net.Conn) error {
			l, err := bufio.NewReader(c).ReadString('\n')
			if err == nil && !strings.HasPrefix(l, "220") {
				err = errors.New("greeting " + l)
			}
			return err
		},
	})
	return ftpServer{s, log}
}

// buildUMN builds UMN gopherd with shared/peers/umn-gopherd/build.sh
// into the user's cache, or skips the test when its prerequisites are
// missing (exit 2).
func buildUMN(t *testing.T) string {
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

// askForm is a Gopher+ ASK block of every kind a browser can fill.
const askForm = "Note: Please fill in this test form\nAsk: Your name:\tGopher User\nAskP: Secret word:\nSelect: Subscribe?:1\nChoose: Colour:\tred\tgreen\tblue\nAskL: Comments:\n"

// startUMN serves a tree with an ASK form whose script echoes the lines
// it is sent.
func startUMN(t *testing.T) *peer.Server {
	dir := buildUMN(t)
	data := t.TempDir()
	write(t, filepath.Join(data, "hello.txt"), "Hello from UMN gopherd.\n", 0o644)
	write(t, filepath.Join(data, "form.ask"), askForm, 0o644)
	write(t, filepath.Join(data, "form"), "#!/bin/sh\necho \"ASK script output\"\nn=0\nwhile IFS= read -r line; do n=$((n+1)); echo \"line $n: [$line]\"; done\necho \"total lines: $n\"\n", 0o755)
	openTree(t, data)
	return peer.Start(t, peer.Spec{
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
		Ready: readyMenu,
	})
}

func readFile(name string) (string, error) {
	b, err := os.ReadFile(name)
	return string(b), err
}
