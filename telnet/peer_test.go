//go:build linux

package telnet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// The sessions run against real Telnet servers on loopback (package
// peer starts them): busybox telnetd, which sends
// DO ECHO, DO NAWS, WILL ECHO, WILL SGA and never asks for the terminal
// type, and inetutils telnetd through socat, which negotiates
// AUTHENTICATION, ENCRYPT, TERMINAL-TYPE, TSPEED, XDISPLOC, NEW-ENVIRON,
// OLD-ENVIRON, NAWS, LINEMODE, STATUS, LFLOW, TIMING-MARK and BINARY.
// Neither runs a shell or login: each runs remoteProg, which prints what
// the session gave it and echoes lines.
const remoteProg = `#!/bin/sh
echo "TERM=$TERM"
echo "SIZE=$(stty size)"
while IFS= read -r line; do
  case "$line" in
    size) echo "SIZE=$(stty size)";;
    quit) echo "bye"; exit 0;;
    *) echo "GOT=$line";;
  esac
done
`

func writeProg(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "remote.sh")
	if err := os.WriteFile(p, []byte(remoteProg), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func busybox(t *testing.T) *peer.Server {
	prog := writeProg(t)
	return peer.Start(t, peer.Spec{Name: "busybox-telnetd", Program: "busybox", Args: func(port int) ([]string, error) {
		return []string{"telnetd", "-F", "-p", strconv.Itoa(port), "-b", peer.Host, "-l", prog}, nil
	}})
}

func inetutils(t *testing.T) *peer.Server {
	prog := writeProg(t)
	telnetd := peer.Require(t, "/usr/sbin/telnetd")[0]
	return peer.Start(t, peer.Spec{Name: "inetutils-telnetd", Program: "socat", Args: func(port int) ([]string, error) {
		return []string{fmt.Sprintf("TCP-LISTEN:%d,bind=%s,reuseaddr,fork", port, peer.Host),
			"EXEC:\"" + telnetd + " -h -E " + prog + "\",nofork"}, nil
	}})
}

// TestPTYChild is the session process of the pseudo-terminal tests: the
// test binary re-executed on a pseudo-terminal, running Client.Interact
// on its standard input and output as locator telnet does. It does
// nothing in a normal run.
func TestPTYChild(t *testing.T) {
	raw := os.Getenv("TELNETC_CHILD_URL")
	if raw == "" {
		t.Skip("the session process of the pseudo-terminal tests")
	}
	if os.Getenv("TELNETC_CHILD_PANIC") != "" {
		keyHook = func(c byte) {
			if c == '!' {
				panic("test: a panic on the input path")
			}
		}
	}
	u, err := locator.Parse(raw)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	err = (&access.Client{Dialogue: os.Stderr}).Interact(context.Background(), u,
		access.Terminal{In: os.Stdin, Out: os.Stdout, Msg: os.Stderr})
	code := 0
	var se *SignalError
	switch {
	case errors.As(err, &se):
		code = 128 + int(se.Signal.(syscall.Signal))
	case err != nil:
		code = 3
	}
	fmt.Fprintf(os.Stderr, "child: %v, exit %d\n", err, code)
	os.Exit(code)
}

// A child is a session process on a pseudo-terminal.
type child struct {
	t      *testing.T
	cmd    *exec.Cmd
	master *os.File
	slave  *os.File
	before *unix.Termios
	mu     sync.Mutex
	out    bytes.Buffer
	exited chan struct{}
	code   int
}

// startChild runs the session for url on a new pseudo-terminal of 100×30
// with TERM=term, and records the terminal's settings before.
func startChild(t *testing.T, url, term string, env ...string) *child {
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	c := &child{t: t, master: master, slave: slave, exited: make(chan struct{})}
	c.before, err = unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	c.cmd = exec.Command(os.Args[0], "-test.run=^TestPTYChild$")
	c.cmd.Env = append(os.Environ(), "TELNETC_CHILD_URL="+url, "TERM="+term)
	c.cmd.Env = append(c.cmd.Env, env...)
	c.cmd.Stdin, c.cmd.Stdout, c.cmd.Stderr = slave, slave, slave
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			c.mu.Lock()
			c.out.Write(buf[:n])
			c.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() {
		c.cmd.Wait()
		c.code = c.cmd.ProcessState.ExitCode()
		close(c.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-c.exited:
		default:
			c.cmd.Process.Kill()
			<-c.exited
		}
		master.Close()
		slave.Close()
	})
	return c
}

func (c *child) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.String()
}

// waitFor waits until the terminal shows s (the machine is loaded: the
// bound only keeps a broken session from hanging the test).
func (c *child) waitFor(s string) {
	c.t.Helper()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(c.output(), s) {
			return
		}
	}
	c.t.Fatalf("the terminal never showed %q:\n%s", s, c.output())
}

func (c *child) typeKeys(s string) {
	c.t.Helper()
	if _, err := c.master.Write([]byte(s)); err != nil {
		c.t.Fatal(err)
	}
}

// end waits for the session process to end and checks its exit status
// and that the terminal's settings are those it found (termios, as
// stty -g shows them).
func (c *child) end(code int) {
	c.t.Helper()
	select {
	case <-c.exited:
	case <-time.After(60 * time.Second):
		c.t.Fatalf("the session did not end:\n%s", c.output())
	}
	if c.code != code {
		c.t.Errorf("exit status %d, want %d:\n%s", c.code, code, c.output())
	} else if code != 2 {
		// Its last line read from the terminal: all its output is in.
		c.waitFor(fmt.Sprintf(", exit %d\r\n", code))
	}
	after, err := unix.IoctlGetTermios(int(c.slave.Fd()), unix.TCGETS)
	if err != nil {
		c.t.Fatal(err)
	}
	if *after != *c.before {
		c.t.Errorf("the terminal was not restored:\nbefore %+v\nafter  %+v", *c.before, *after)
	}
}

// raw checks that the terminal is in raw mode while the session runs.
func (c *child) raw() {
	c.t.Helper()
	tio, err := unix.IoctlGetTermios(int(c.slave.Fd()), unix.TCGETS)
	if err != nil {
		c.t.Fatal(err)
	}
	if tio.Lflag&(unix.ICANON|unix.ECHO|unix.ISIG) != 0 || tio.Iflag&unix.ICRNL != 0 || tio.Oflag&unix.OPOST != 0 {
		c.t.Errorf("the terminal is not in raw mode during the session: lflag %#x iflag %#x oflag %#x", tio.Lflag, tio.Iflag, tio.Oflag)
	}
	if *tio == *c.before {
		c.t.Errorf("the terminal's settings did not change for the session")
	}
}

// TestPTYInetutils: the full negotiation with inetutils telnetd, every
// request answered once (RFC 854: no loops), TERMINAL-TYPE from $TERM
// (RFC 1091) and the window size (RFC 1073) reaching the remote program,
// a window change (SIGWINCH) sent as NAWS, raw mode during the session,
// and the terminal restored when the remote program ends.
func TestPTYInetutils(t *testing.T) {
	srv := inetutils(t)
	c := startChild(t, "telnet://"+srv.Addr+"/", "xterm-256color")
	c.waitFor("TERM=xterm-256color")
	// The program may start before telnetd has set the window size it
	// received (its first SIZE line then says "0 0"): ask again.
	c.typeKeys("size\r")
	c.waitFor("SIZE=30 100")
	c.raw()
	c.typeKeys("hello\r")
	c.waitFor("GOT=hello")
	if err := pty.Setsize(c.master, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	c.waitFor("> IAC SB NAWS 0 120 0 40 IAC SE")
	c.typeKeys("size\r")
	c.waitFor("SIZE=40 120")
	// The program ends (its "bye" may be lost: telnetd closes the
	// connection when the program exits), and so does the session.
	c.typeKeys("quit\r")
	c.end(0)
	out := c.output()
	for _, want := range []string{
		"< IAC DO TERMINAL-TYPE",
		"< IAC SB TERMINAL-TYPE SEND IAC SE",
		`> IAC SB TERMINAL-TYPE IS "XTERM-256COLOR" IAC SE`,
		"< IAC DO NAWS", "> IAC SB NAWS 0 100 0 30 IAC SE",
		"< IAC DO LINEMODE", "> IAC WONT LINEMODE",
		"< IAC DO NEW-ENVIRON", "> IAC WONT NEW-ENVIRON",
		"< IAC WILL AUTHENTICATION", "> IAC DONT AUTHENTICATION",
		"< IAC WILL ECHO", "> IAC DO ECHO",
		"< IAC DO BINARY", "> IAC WILL BINARY",
		"Connection closed.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the session lacks %q", want)
		}
	}
	checkNoRepeats(t, out)
	checkCRLF(t, out)
}

// checkCRLF: the dialogue lines (the request's Dialogue, wrapped by the
// session) reach the terminal in raw mode, where output processing is
// off, ending in CR LF, so that each begins at the left margin.
func checkCRLF(t *testing.T, out string) {
	t.Helper()
	n := 0
	for _, m := range regexp.MustCompile(`(?m)^[<>] IAC [^\r\n]*(\r?)\n`).FindAllStringSubmatch(out, -1) {
		n++
		if m[1] != "\r" {
			t.Errorf("dialogue line %q ends in a bare LF", m[0])
		}
	}
	if n == 0 {
		t.Errorf("no dialogue line on the terminal")
	}
}

// checkNoRepeats: no command was sent twice (a window size may be sent
// again only with a new size): the negotiation did not loop.
func checkNoRepeats(t *testing.T, out string) {
	t.Helper()
	seen := map[string]int{}
	for _, l := range regexp.MustCompile(`(?m)^> IAC [^\r\n]*`).FindAllString(out, -1) {
		seen[l]++
	}
	if len(seen) == 0 {
		t.Errorf("no command sent")
	}
	for l, n := range seen {
		if n != 1 {
			t.Errorf("%q sent %d times", l, n)
		}
	}
}

// TestPTYBusyboxEscape: with busybox telnetd, which never asks for the
// terminal type, the window size still reaches the program; ^] opens
// the escape prompt, p shows the suggested password (RFC 1738 §3.8:
// advice, shown only when asked for, never logged), and ^] q quits with
// the terminal restored.
func TestPTYBusyboxEscape(t *testing.T) {
	srv := busybox(t)
	c := startChild(t, "telnet://guest:s3cret-pw@"+srv.Addr+"/", "vt100")
	// busybox starts the program before it reads the window size: ask
	// for it once the program runs.
	c.waitFor("TERM=")
	c.typeKeys("size\r")
	c.waitFor("SIZE=30 100")
	c.raw()
	c.waitFor(`The URL suggests the login name "guest" and a password (^] then p shows it): advice only (RFC 1738 §3.8)`)
	if strings.Contains(c.output(), "s3cret-pw") {
		t.Errorf("the password was shown unasked")
	}
	c.typeKeys("\x1d")
	c.waitFor(promptText)
	c.typeKeys("p")
	c.waitFor(`the URL suggests the password "s3cret-pw"`)
	c.typeKeys("echo\r")
	c.waitFor("GOT=echo")
	c.typeKeys("\x1dq")
	c.waitFor("Connection closed.")
	c.end(0)
	out := c.output()
	if n := strings.Count(out, "s3cret-pw"); n != 1 {
		t.Errorf("the password appears %d times, want once (the answer to p)", n)
	}
	for _, want := range []string{"< IAC DO ECHO", "> IAC WONT ECHO", "< IAC DO NAWS", "> IAC SB NAWS 0 100 0 30 IAC SE", "< IAC WILL ECHO", "> IAC DO ECHO", "< IAC WILL SUPPRESS-GO-AHEAD"} {
		if !strings.Contains(out, want) {
			t.Errorf("the session lacks %q", want)
		}
	}
	checkNoRepeats(t, out)
}

// TestPTYSignals: SIGINT, SIGTERM and SIGHUP end the session with the
// terminal restored and exit status 128+N.
func TestPTYSignals(t *testing.T) {
	srv := busybox(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			c := startChild(t, "telnet://"+srv.Addr+"/", "vt100")
			c.waitFor("TERM=")
			c.raw()
			if err := c.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			c.waitFor("session ended by signal " + sig.String())
			c.end(128 + int(sig))
		})
	}
}

// TestPTYPanic: a panic on the session's input path leaves the terminal
// restored (the program still fails with the panic).
func TestPTYPanic(t *testing.T) {
	srv := busybox(t)
	c := startChild(t, "telnet://"+srv.Addr+"/", "vt100", "TELNETC_CHILD_PANIC=1")
	c.waitFor("TERM=")
	c.raw()
	c.typeKeys("!")
	c.waitFor("test: a panic on the input path")
	c.end(2)
}

// TestRelay: without a terminal the session relays its input and output
// (a script drives it): LF is sent as CR LF and the service's CR LF
// written as LF; TERMINAL-TYPE and NAWS are refused (there is no
// terminal to describe); the session lasts until the service ends it.
func TestRelay(t *testing.T) {
	for name, start := range map[string]func(*testing.T) *peer.Server{"busybox": busybox, "inetutils": inetutils} {
		t.Run(name, func(t *testing.T) {
			srv := start(t)
			u, err := locator.Parse("telnet://" + srv.Addr)
			if err != nil {
				t.Fatal(err)
			}
			var out, msg bytes.Buffer
			err = (&access.Client{Dialogue: &msg}).Interact(context.Background(), u,
				access.Terminal{In: strings.NewReader("hello\nsize\nquit\n"), Out: &out, Msg: &msg})
			if err != nil {
				t.Fatalf("%v\n%s", err, msg.String())
			}
			o := out.String()
			for _, want := range []string{"\nGOT=hello\n", "\nSIZE="} {
				if !strings.Contains(o, want) {
					t.Errorf("the output lacks %q:\n%q", want, o)
				}
			}
			// From the program's first line on (before it, busybox's
			// own "\r\r\n" holds a bare CR, written as it came).
			if i := strings.Index(o, "TERM="); i < 0 || strings.Contains(o[i:], "\r") || strings.Contains(o, "\xff") {
				t.Errorf("NVT line ends or commands in the output: %q", o)
			}
			m := msg.String()
			if !strings.Contains(m, "< IAC DO NAWS\n> IAC WONT NAWS\n") || strings.Contains(m, "> IAC WILL TERMINAL-TYPE") {
				t.Errorf("the relay offered a terminal:\n%s", m)
			}
			checkNoRepeats(t, m)
		})
	}
}

// TestPTYEchoServer: a service that is no Telnet server but sends back
// whatever it receives (socat and cat), the classic trap for a
// negotiation loop: each of our requests comes back as the peer's, is
// answered once, and the answer coming back is the end of it (RFC 854,
// RFC 1143). The service never offers to ECHO, so the client echoes keys
// itself (RFC 857: the default is no remote echo).
func TestPTYEchoServer(t *testing.T) {
	cat := peer.Require(t, "cat")[0]
	srv := peer.Start(t, peer.Spec{Name: "socat-cat", Program: "socat", Args: func(port int) ([]string, error) {
		return []string{fmt.Sprintf("TCP-LISTEN:%d,bind=%s,reuseaddr,fork", port, peer.Host), "EXEC:" + cat}, nil
	}})
	c := startChild(t, "telnet://"+srv.Addr+"/", "vt100")
	c.waitFor("< IAC WILL SUPPRESS-GO-AHEAD")
	c.raw()
	c.typeKeys("abc\r")
	c.waitFor("abc\r\nabc")
	c.typeKeys("\x1dq")
	c.end(0)
	var sent, received []string
	for _, l := range regexp.MustCompile(`(?m)^[<>] IAC [^\r\n]*`).FindAllString(c.output(), -1) {
		if l[0] == '>' {
			sent = append(sent, l)
		} else {
			received = append(received, l)
		}
	}
	if got := strings.Join(sent, "; "); got != "> IAC WILL TERMINAL-TYPE; > IAC WILL NAWS; > IAC DO SUPPRESS-GO-AHEAD; > IAC DONT TERMINAL-TYPE; > IAC DONT NAWS; > IAC WILL SUPPRESS-GO-AHEAD" {
		t.Errorf("sent: %s", got)
	}
	if got := strings.Join(received, "; "); got != "< IAC WILL TERMINAL-TYPE; < IAC WILL NAWS; < IAC DO SUPPRESS-GO-AHEAD; < IAC DONT TERMINAL-TYPE; < IAC DONT NAWS; < IAC WILL SUPPRESS-GO-AHEAD" {
		t.Errorf("received: %s", got)
	}
}

// TestRelaySubWithoutSE: a service that begins a subnegotiation and
// never ends it (RFC 855's IAC SE) ends the session with a *SubError
// once DefaultMaxSub octets have come, the data before it delivered,
// instead of holding the rest of the stream as parameters. (The service
// then keeps the connection open until the client closes it.)
func TestRelaySubWithoutSE(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "hostile.sh")
	script := "#!/bin/sh\nprintf 'before\\r\\n\\377\\372\\030'\nhead -c 10000 /dev/zero | tr '\\0' x\nexec cat >/dev/null\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := peer.Start(t, peer.Spec{Name: "socat-hostile", Program: "socat", Args: func(port int) ([]string, error) {
		return []string{fmt.Sprintf("TCP-LISTEN:%d,bind=%s,reuseaddr,fork", port, peer.Host), "EXEC:" + prog}, nil
	}})
	u, err := locator.Parse("telnet://" + srv.Addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	var out, msg bytes.Buffer
	err = (&access.Client{Dialogue: &msg}).Interact(context.Background(), u, access.Terminal{In: strings.NewReader(""), Out: &out, Msg: &msg})
	var se *SubError
	if !errors.As(err, &se) || se.Opt != OptTType || se.Max != DefaultMaxSub || out.String() != "before\n" {
		t.Errorf("err %v, output %q", err, out.String())
	}
}
