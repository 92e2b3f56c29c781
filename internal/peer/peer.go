// Package peer starts real servers on loopback for the protocol tests
// (docs/design.md, "Test peers"): it finds free ports on 127.0.0.1, starts a
// server process, waits until the server answers on its port, and stops
// it by its process id and waits for it when the test ends. A test whose
// server is not installed is skipped with a one-line reason, so that
// `go test ./...` passes on a machine without the Debian packages that
// ./test.sh installs, while ./test.sh runs it.
//
// The harness knows no protocol: what "answers" means is the caller's
// Ready function (an FTP greeting, a Gopher menu, an HTTP status line);
// without one, an accepted TCP connection is enough.
package peer

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Host is the loopback address every peer listens on.
const Host = "127.0.0.1"

// FreePort returns a TCP port of 127.0.0.1 that nothing listens on at
// the time of the call (the kernel's choice for port 0). Another process
// could take it before the server binds it; Start retries with a fresh
// port when the server exits before it answers.
func FreePort(t testing.TB) int {
	t.Helper()
	return freePortOn(t, Host)
}

// freePortOn is FreePort on host; the test is skipped when host is an
// IPv6 loopback the machine does not have.
func freePortOn(t testing.TB, host string) int {
	t.Helper()
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		if host != Host {
			t.Skipf("peer: no loopback %s on this machine: %v", host, err)
		}
		t.Fatalf("peer: no free port on %s: %v", host, err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// rangeMu keeps two FreeRange calls of one test binary from handing out
// overlapping ranges; taken remembers the ranges handed out.
var (
	rangeMu sync.Mutex
	taken   [][2]int
)

// FreeRange returns the first and last port of n consecutive ports of
// 127.0.0.1, each free at the time of the call, chosen at random in
// 20000–59999 and not overlapping a range this process handed out
// before: a passive-mode FTP server's data ports, picked at run time so
// that tests (and other packages' tests running at the same time) do not
// share a hard-coded range.
func FreeRange(t testing.TB, n int) (first, last int) {
	t.Helper()
	rangeMu.Lock()
	defer rangeMu.Unlock()
	for try := 0; try < 200; try++ {
		first = 20000 + rand.IntN(40000-n)
		last = first + n - 1
		if overlaps(first, last) || !allFree(first, last) {
			continue
		}
		taken = append(taken, [2]int{first, last})
		return first, last
	}
	t.Fatalf("peer: no %d consecutive free ports found on %s", n, Host)
	return 0, 0
}

func overlaps(first, last int) bool {
	for _, r := range taken {
		if first <= r[1] && r[0] <= last {
			return true
		}
	}
	return false
}

func allFree(first, last int) bool {
	for p := first; p <= last; p++ {
		l, err := net.Listen("tcp", net.JoinHostPort(Host, strconv.Itoa(p)))
		if err != nil {
			return false
		}
		l.Close()
	}
	return true
}

// Require skips t with a one-line reason unless every program is
// installed (a name looked up on PATH, or a path), and returns their
// paths in order.
func Require(t testing.TB, programs ...string) []string {
	t.Helper()
	paths := make([]string, len(programs))
	for i, p := range programs {
		path, err := exec.LookPath(p)
		if err != nil {
			t.Skipf("peer: %s is not installed (./test.sh installs it)", p)
		}
		paths[i] = path
	}
	return paths
}

// RequirePython skips t with a one-line reason unless python can import
// every module (Debian's /usr/bin/python3 for its python3-* packages:
// the python3 on PATH may be another that cannot see them).
func RequirePython(t testing.TB, python string, modules ...string) {
	t.Helper()
	Require(t, python)
	for _, m := range modules {
		if err := exec.Command(python, "-c", "import "+m).Run(); err != nil {
			t.Skipf("peer: %s cannot import %s (apt-get install python3-%s)", python, m, m)
		}
	}
}

// RequireRoot skips t with a one-line reason unless the test runs as
// root (vsftpd runs only as root).
func RequireRoot(t testing.TB, why string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skipf("peer: not root, which %s needs", why)
	}
}

// A Spec says how to start one server.
type Spec struct {
	// Name names the server in messages and its log file.
	Name string
	// Host is the loopback address the server listens on: Host
	// (127.0.0.1) when empty, or "::1" (the test is skipped on a
	// machine without IPv6 loopback).
	Host string
	// Program is the executable, a name looked up on PATH or a path; the
	// test is skipped when it is not installed.
	Program string
	// Args returns the arguments for a server listening on port (it may
	// write a configuration file naming the port first). It is called
	// again with a new port when the server exits before it answers.
	Args func(port int) ([]string, error)
	// Dir is the working directory; "" is the test's.
	Dir string
	// Env is added to the test's environment.
	Env []string
	// Ready, when not nil, says whether the server answers on a fresh
	// connection to it (reads a greeting, sends a request); nil means an
	// accepted connection is enough.
	Ready func(c net.Conn) error
	// Wait bounds the wait for the server to answer (default 20 s: the
	// machine's 2 cores are shared).
	Wait time.Duration
	// Stop is the signal that asks the server to end (default SIGTERM;
	// nginx: SIGQUIT). After 5 s the process is killed.
	Stop syscall.Signal
}

// A Server is a running server process.
type Server struct {
	Name string
	Host string // the loopback address: 127.0.0.1 or ::1
	Port int
	Addr string // "127.0.0.1:port" or "[::1]:port"
	// Output is the file that holds the process's standard output and
	// error.
	Output string
	cmd    *exec.Cmd
	done   chan struct{}
	err    error // cmd.Wait's, set before done is closed
}

// Pid returns the server's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Start starts the server spec describes on a free port of 127.0.0.1,
// waits until it answers there, and arranges for it to be stopped (by
// its process id, then waited for) when t ends. It skips t when the
// program is not installed, and fails t when the server does not answer,
// with the end of its output.
func Start(t testing.TB, spec Spec) *Server {
	t.Helper()
	host := spec.Host
	if host == "" {
		host = Host
	}
	return launch(t, spec, host, func() int { return freePortOn(t, host) }, (*Server).await)
}

// launch starts spec's program on a port from freePort (on host), waits
// with await until it answers there, and arranges for it to be stopped
// when t ends: the part Start and StartUDP share. When the server exits
// before it answers (a port taken meanwhile, a bad configuration), it
// tries again on another port, three times in all.
func launch(t testing.TB, spec Spec, host string, freePort func() int, await func(*Server, time.Duration, func(net.Conn) error) error) *Server {
	t.Helper()
	prog := Require(t, spec.Program)[0]
	wait := spec.Wait
	if wait <= 0 {
		wait = 20 * time.Second
	}
	dir := t.TempDir()
	var last error
	for attempt := 1; attempt <= 3; attempt++ {
		port := freePort()
		args, err := spec.Args(port)
		if err != nil {
			t.Fatalf("peer %s: %v", spec.Name, err)
		}
		s := &Server{Name: spec.Name, Host: host, Port: port, Addr: net.JoinHostPort(host, strconv.Itoa(port)),
			Output: filepath.Join(dir, fmt.Sprintf("%s-%d.out", safeName(spec.Name), attempt)), done: make(chan struct{})}
		out, err := os.Create(s.Output)
		if err != nil {
			t.Fatalf("peer %s: %v", spec.Name, err)
		}
		s.cmd = exec.Command(prog, args...)
		s.cmd.Dir = spec.Dir
		s.cmd.Stdout, s.cmd.Stderr = out, out
		// Its own process group, so that stop reaches the children it
		// forks per connection (waisserver, gopherd, socat) before the
		// test's temporary folder is removed under them.
		s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if len(spec.Env) > 0 {
			s.cmd.Env = append(os.Environ(), spec.Env...)
		}
		if err := s.cmd.Start(); err != nil {
			out.Close()
			t.Fatalf("peer %s: start %s: %v", spec.Name, prog, err)
		}
		go func() {
			s.err = s.cmd.Wait()
			out.Close()
			close(s.done)
		}()
		stop := spec.Stop
		if stop == 0 {
			stop = syscall.SIGTERM
		}
		t.Cleanup(func() { s.stop(t, stop) })
		last = await(s, wait, spec.Ready)
		if last == nil {
			return s
		}
		select {
		case <-s.done:
			// It exited: try once more on another port.
			continue
		default:
			t.Fatalf("peer %s: %v\n%s", spec.Name, last, s.tail())
		}
	}
	t.Fatalf("peer %s: %v", spec.Name, last)
	return nil
}

// await polls s's port until it accepts a connection and ready (if any)
// succeeds on it, the process exits, or wait passes.
func (s *Server) await(wait time.Duration, ready func(net.Conn) error) error {
	deadline := time.Now().Add(wait)
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("exited before answering on %s (%v)\n%s", s.Addr, s.err, s.tail())
		default:
		}
		c, err := net.DialTimeout("tcp", s.Addr, time.Second)
		if err == nil {
			if ready == nil {
				c.Close()
				return nil
			}
			c.SetDeadline(time.Now().Add(5 * time.Second))
			err = ready(c)
			c.Close()
			if err == nil {
				return nil
			}
		}
		last = err
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("did not answer on %s within %v (last: %v)", s.Addr, wait, last)
}

// stop signals the process by its id, waits for it, and kills it when it
// does not end within 5 s.
func (s *Server) stop(t testing.TB, sig syscall.Signal) {
	pgid := -s.Pid() // the server's process group (Start sets Setpgid)
	select {
	case <-s.done:
		syscall.Kill(pgid, syscall.SIGKILL) // children it left behind
		return
	default:
	}
	if err := syscall.Kill(pgid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Logf("peer %s: signal process group %d: %v", s.Name, s.Pid(), err)
	}
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		t.Logf("peer %s: pid %d did not end on %v; killing it", s.Name, s.Pid(), sig)
		s.cmd.Process.Kill()
		<-s.done
	}
	syscall.Kill(pgid, syscall.SIGKILL) // children that outlived it
}

// tail returns the last 2 kB of the server's output, for a failure
// message.
func (s *Server) tail() string {
	b, _ := os.ReadFile(s.Output)
	if len(b) > 2048 {
		b = b[len(b)-2048:]
	}
	return string(bytes.TrimSpace(b))
}

// ReadyLine returns a Ready function that reads the server's first line
// and accepts it when it begins with prefix (an FTP server's "220 ").
func ReadyLine(prefix string) func(net.Conn) error {
	return func(c net.Conn) error {
		var b [512]byte
		n := 0
		for n < len(b) {
			m, err := c.Read(b[n:])
			n += m
			if i := bytes.IndexByte(b[:n], '\n'); i >= 0 {
				if line := strings.TrimSuffix(string(b[:i]), "\r"); !strings.HasPrefix(line, prefix) {
					return fmt.Errorf("first line %q, want %q…", line, prefix)
				}
				return nil
			}
			if err != nil {
				return err
			}
		}
		return fmt.Errorf("no line in the first %d octets", n)
	}
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' || r == os.PathSeparator {
			return '_'
		}
		return r
	}, s)
}

// Parallel runs start(tb, i) for i from 0 to n-1, each on a goroutine of
// its own, and returns when all have returned: servers that each take a
// while to answer (pygopherd's interpreter, on a busy machine) started
// at once rather than one after another. tb is t for each of them, but
// a Fatal or Skip ends only that goroutine (testing.T's would have to
// run on the test's); once all have ended, the first failure fails t,
// or else the first skip skips it. The servers started are stopped when
// t ends, as Start's are.
func Parallel(t testing.TB, n int, start func(tb testing.TB, i int)) {
	t.Helper()
	g := &goTB{TB: t}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start(g, i)
		}()
	}
	wg.Wait()
	if g.failed != "" {
		t.Fatalf("%s", g.failed)
	}
	if g.skipped != "" {
		t.Skipf("%s", g.skipped)
	}
}

// goTB is the testing.TB of Parallel's goroutines: Fatal and Skip record
// their message and end the goroutine.
type goTB struct {
	testing.TB
	mu              sync.Mutex
	failed, skipped string
}

func (g *goTB) end(skip bool, msg string) {
	g.mu.Lock()
	if skip && g.skipped == "" {
		g.skipped = msg
	} else if !skip && g.failed == "" {
		g.failed = msg
	}
	g.mu.Unlock()
	runtime.Goexit()
}

func (g *goTB) Fatal(args ...any)                 { g.end(false, fmt.Sprint(args...)) }
func (g *goTB) Fatalf(format string, args ...any) { g.end(false, fmt.Sprintf(format, args...)) }
func (g *goTB) FailNow()                          { g.end(false, "FailNow") }
func (g *goTB) Skip(args ...any)                  { g.end(true, fmt.Sprint(args...)) }
func (g *goTB) Skipf(format string, args ...any)  { g.end(true, fmt.Sprintf(format, args...)) }
func (g *goTB) SkipNow()                          { g.end(true, "SkipNow") }
