package peer

// INN, the news server the tests of several packages start. There is one INN per machine: its
// spool, its active file and /run/news are shared, so every test that
// starts one takes the same lock file first.

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	// INNBin holds INN's programs.
	INNBin = "/usr/lib/news/bin/"
	// INNSpool is INN's tradspool article tree.
	INNSpool = "/var/spool/news/articles"
	innLock  = "/run/lock/locator-inn.lock"
)

// An INNServer is a running innd with a group of the test's own.
type INNServer struct {
	*Server
	Env   []string // INNCONF=the test's inn.conf
	Group string   // "locator.t" + Tag
	Tag   string   // random, in the group name (and the tests' message-ids)
}

// AsNews runs an INN program as user news with the test's inn.conf.
func (in *INNServer) AsNews(prog string, args ...string) error {
	cmd := exec.Command("setpriv", append([]string{"--reuid=news", "--regid=news", "--init-groups", INNBin + prog}, args...)...)
	cmd.Env = append(os.Environ(), in.Env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %v: %v\n%s", prog, args, err, out)
	}
	return nil
}

// innConf writes a copy of INN's inn.conf in a directory user news can
// read, with nnrpdloadlimit 0: nnrpd refuses readers ("400 load at
// 18.14, try later") when the load average passes the installed 16, as
// it does on a machine shared by parallel builds. INN's programs read
// the copy through INNCONF; /etc/news is not touched.
func innConf(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "locator-inn")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/etc/news/inn.conf")
	if err != nil {
		t.Skipf("inn: %v", err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "nnrpdloadlimit:") {
			line = "nnrpdloadlimit: 0"
		}
		out = append(out, line)
	}
	path := filepath.Join(dir, "inn.conf")
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// INN takes the machine's INN lock, starts innd (as user news, in the
// foreground) on a free port of 127.0.0.1 and creates a fresh group;
// all is undone when t ends (the group removed, innd shut down with
// ctlinnd, then stopped by its process id, the lock released). It skips
// t unless the test runs as root with INN installed, or when an innd it
// did not start runs already.
func INN(t testing.TB) *INNServer {
	t.Helper()
	RequireRoot(t, "innd (run as user news, started by root)")
	Require(t, INNBin+"innd", INNBin+"ctlinnd", "setpriv")
	if err := os.MkdirAll(filepath.Dir(innLock), 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(innLock, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() }) // closing releases the lock
	if b, err := os.ReadFile("/run/news/innd.pid"); err == nil {
		var pid int
		if _, err := fmt.Sscan(string(b), &pid); err == nil && syscall.Kill(pid, 0) == nil {
			t.Skipf("inn: an innd (pid %d) not started by this test runs already", pid)
		}
	}
	in := &INNServer{Env: []string{"INNCONF=" + innConf(t)}}
	in.Server = Start(t, Spec{
		Name:    "innd",
		Program: "setpriv",
		Env:     in.Env,
		Args: func(port int) ([]string, error) {
			return []string{"--reuid=news", "--regid=news", "--init-groups", INNBin + "innd", "-f", "-4", Host, "-P", fmt.Sprint(port)}, nil
		},
		Ready: ReadyLine("200 "),
	})
	// Cleanups run last first: shut INN down before Start's stops it by pid.
	t.Cleanup(func() {
		if err := in.AsNews("ctlinnd", "shutdown", "locator test done"); err != nil {
			t.Log(err)
		}
	})
	var r [4]byte
	rand.Read(r[:])
	in.Tag = hex.EncodeToString(r[:])
	in.Group = "locator.t" + in.Tag
	if err := in.AsNews("ctlinnd", "newgroup", in.Group, "y", "locator"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := in.AsNews("ctlinnd", "rmgroup", in.Group); err != nil {
			t.Log(err)
		}
		os.RemoveAll(filepath.Join(INNSpool, strings.ReplaceAll(in.Group, ".", "/")))
		os.Remove(filepath.Join(INNSpool, "locator")) // only when empty
	})
	return in
}

// Post sends one article (CR LF lines) with POST after MODE READER
// (RFC 3977 §6.3.1), dot-stuffing it here, and fails t unless INN
// answers 240.
func (in *INNServer) Post(t testing.TB, article string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", in.Addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReader(c)
	expect := func(code string) string {
		t.Helper()
		line, err := br.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, code) {
			t.Fatalf("post: want %s, got %q (%v)", code, line, err)
		}
		return line
	}
	send := func(s string) {
		if _, err := io.WriteString(c, s); err != nil {
			t.Fatal(err)
		}
	}
	expect("200 ")
	send("MODE READER\r\n")
	expect("200 ")
	send("POST\r\n")
	expect("340 ")
	var b strings.Builder
	for _, line := range strings.SplitAfter(article, "\r\n") {
		if strings.HasPrefix(line, ".") {
			b.WriteByte('.')
		}
		b.WriteString(line)
	}
	send(b.String() + ".\r\n")
	expect("240 ")
	send("QUIT\r\n")
}
