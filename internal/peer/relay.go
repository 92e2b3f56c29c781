package peer

import (
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Relay forwards each connection to a port of its own on 127.0.0.1 to
// the address target holds when the connection arrives ("host:port"):
// one port served by one real server, then by another (a server whose
// certificate changed, as a client sees it). It returns the port. Each
// relayed connection ends after 60 s at most.
func Relay(t testing.TB, target *atomic.Value) int {
	t.Helper()
	addr := Hostile(t, func(c net.Conn) {
		s, err := net.DialTimeout("tcp", target.Load().(string), 10*time.Second)
		if err != nil {
			return
		}
		defer s.Close()
		deadline := time.Now().Add(60 * time.Second)
		c.SetDeadline(deadline)
		s.SetDeadline(deadline)
		go func() { io.Copy(s, c); s.Close() }()
		io.Copy(c, s)
	})
	_, p, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(p)
	return port
}

// LogLine waits (3 s at most) for a line of the access log file log
// that begins with prefix, and returns it: nginx writes a request's line
// once its reply is sent, which may be after the client read it.
func LogLine(t testing.TB, log, prefix string) string {
	t.Helper()
	for range 300 {
		b, _ := os.ReadFile(log)
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s: nothing logged for %s", log, prefix)
	return ""
}
