package peer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The test binary is its own server: run with PEER_TEST_SERVE=PORT it
// listens on 127.0.0.1:PORT and greets each connection with "220 ready"
// (unless PEER_TEST_SILENT is set), the way os/exec's tests re-execute
// themselves. A real process is started, answered, signalled and waited
// for, with nothing installed.
func TestMain(m *testing.M) {
	if os.Getenv("PEER_TEST_SERVE") != "" && len(os.Args) == 2 {
		serve(os.Args[1])
		return
	}
	os.Exit(m.Run())
}

func serve(port string) {
	if os.Getenv("PEER_TEST_EXIT") != "" {
		fmt.Println("bad configuration")
		os.Exit(2)
	}
	l, err := net.Listen("tcp", net.JoinHostPort(Host, port))
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	for {
		c, err := l.Accept()
		if err != nil {
			os.Exit(1)
		}
		if os.Getenv("PEER_TEST_SILENT") == "" {
			fmt.Fprint(c, "220 ready\r\n")
		} else {
			fmt.Fprint(c, "500 not yet\r\n")
		}
		c.Close()
	}
}

func self(t *testing.T, env ...string) Spec {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{
		Name:    "self",
		Program: exe,
		Args:    func(port int) ([]string, error) { return []string{strconv.Itoa(port)}, nil },
		Env:     append([]string{"PEER_TEST_SERVE=1"}, env...),
		Ready:   ReadyLine("220 "),
	}
}

func TestStartAnswersAndStops(t *testing.T) {
	var s *Server
	t.Run("run", func(t *testing.T) {
		s = Start(t, self(t))
		c, err := net.Dial("tcp", s.Addr)
		if err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if err != nil || line != "220 ready\r\n" {
			t.Fatalf("greeting %q, %v", line, err)
		}
		if err := syscall.Kill(s.Pid(), 0); err != nil {
			t.Fatalf("process %d not running: %v", s.Pid(), err)
		}
	})
	// The subtest's cleanup stopped the server and waited for it.
	select {
	case <-s.done:
	default:
		t.Fatalf("server pid %d still running after its test ended", s.Pid())
	}
	if c, err := net.Dial("tcp", s.Addr); err == nil {
		c.Close()
		t.Fatalf("%s still answers after stop", s.Addr)
	}
}

func TestRequireSkipsMissing(t *testing.T) {
	var skipped bool
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Require(t, "locator-no-such-server-program")
	})
	if !skipped {
		t.Fatal("Require did not skip for a program that is not installed")
	}
}

func TestFreeRangeDisjoint(t *testing.T) {
	a1, a2 := FreeRange(t, 20)
	b1, b2 := FreeRange(t, 20)
	if a2-a1 != 19 || b2-b1 != 19 {
		t.Fatalf("ranges %d-%d, %d-%d are not 20 ports", a1, a2, b1, b2)
	}
	if a1 <= b2 && b1 <= a2 {
		t.Fatalf("ranges %d-%d and %d-%d overlap", a1, a2, b1, b2)
	}
}

// fatalTB records the message of a Fatalf and ends the goroutine, as
// testing.T does, so that Start's failures can be asserted.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func startFails(t *testing.T, spec Spec) string {
	f := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Start(f, spec)
		f.msg = "(Start returned)"
	}()
	<-done
	return f.msg
}

func TestStartFailures(t *testing.T) {
	// A server that exits at once (a bad configuration) is tried on three
	// ports, then reported with its output.
	spec := self(t, "PEER_TEST_EXIT=1")
	if msg := startFails(t, spec); !strings.Contains(msg, "exited before answering") || !strings.Contains(msg, "bad configuration") {
		t.Errorf("exiting server: %q", msg)
	}
	// A server that answers with the wrong greeting is reported when the
	// wait ends.
	spec = self(t, "PEER_TEST_SILENT=1")
	spec.Wait = 300 * time.Millisecond
	if msg := startFails(t, spec); !strings.Contains(msg, `first line "500 not yet", want "220 "`) {
		t.Errorf("wrong greeting: %q", msg)
	}
}

// TestParallel: servers started at once all answer and are stopped when
// the test ends; one that fails to start fails the test, after the
// others have started.
func TestParallel(t *testing.T) {
	var servers []*Server
	t.Run("run", func(t *testing.T) {
		var mu sync.Mutex
		Parallel(t, 4, func(tb testing.TB, i int) {
			s := Start(tb, self(t))
			mu.Lock()
			servers = append(servers, s)
			mu.Unlock()
		})
		if len(servers) != 4 {
			t.Fatalf("%d servers started, want 4", len(servers))
		}
		for _, s := range servers {
			c, err := net.Dial("tcp", s.Addr)
			if err != nil {
				t.Fatal(err)
			}
			c.Close()
		}
	})
	for _, s := range servers {
		select {
		case <-s.done:
		default:
			t.Errorf("server pid %d still runs after its test ended", s.Pid())
		}
	}

	f := &fatalTB{TB: t}
	started := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		var mu sync.Mutex
		Parallel(f, 3, func(tb testing.TB, i int) {
			spec := self(t)
			if i == 1 {
				spec = self(t, "PEER_TEST_EXIT=1")
			}
			Start(tb, spec)
			mu.Lock()
			started++
			mu.Unlock()
		})
		f.msg = "(Parallel returned)"
	}()
	<-done
	if started != 2 || !strings.Contains(f.msg, "exited before answering") {
		t.Errorf("%d started, message %q; want 2 and the failing server's", started, f.msg)
	}
}

// TestServersOnOtherLoopback: vsftpd and pygopherd started on 127.0.0.3
// (all this machine, another host to a client) answer there, vsftpd's
// passive reply names that address (RFC 959 §4.1.2, PASV), and each
// log records the request.
func TestServersOnOtherLoopback(t *testing.T) {
	const host = "127.0.0.3"
	root := t.TempDir()
	WriteFiles(t, root, map[string][]byte{"hello.txt": []byte("hello\n")})
	var v *VsftpdServer
	var g *Server
	Parallel(t, 2, func(tb testing.TB, i int) {
		if i == 0 {
			v = VsftpdOn(tb, host, "", nil)
		} else {
			g = PygopherdWith(tb, root, PygopherdOptions{Host: host, Threads: true})
		}
	})
	if v.Host != host || g.Host != host {
		t.Fatalf("hosts %s, %s; want %s", v.Host, g.Host, host)
	}
	c, err := net.Dial("tcp", v.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	var pasv string
	for _, cmd := range []string{"", "USER anonymous", "PASS x@", "PASV", "QUIT"} {
		if cmd != "" {
			fmt.Fprintf(c, "%s\r\n", cmd)
		}
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if cmd == "PASV" {
			pasv = line
		}
	}
	if !strings.Contains(pasv, "(127,0,0,3,") {
		t.Errorf("PASV reply %q does not name %s", pasv, host)
	}

	gc, err := net.Dial("tcp", g.Addr)
	if err != nil {
		t.Fatal(err)
	}
	gc.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprint(gc, "/hello.txt\r\n")
	b, _ := io.ReadAll(gc)
	gc.Close()
	if string(b) != "hello\n" {
		t.Errorf("pygopherd sent %q for /hello.txt", b)
	}
	// Each log is written by the server after it answered: wait for the
	// lines, a few seconds at most.
	var vlog, glog []byte
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		vlog, _ = os.ReadFile(v.Log)
		glog, _ = os.ReadFile(g.Output)
		if bytes.Contains(vlog, []byte(`"221 Goodbye."`)) && bytes.Contains(glog, []byte("]: /hello.txt")) {
			return
		}
	}
	t.Errorf("vsftpd's log:\n%s\npygopherd's log:\n%s", vlog, glog)
}
