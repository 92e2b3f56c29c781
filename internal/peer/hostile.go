package peer

import (
	"net"
	"sync"
	"testing"
)

// Hostile starts a listener on a free port of 127.0.0.1 that runs serve
// for each connection and closes the connection after; the listener
// closes, and every serve returns, when t ends. It returns the
// listener's address. It is for faults no real server makes on purpose
// (an endless menu, a trickled reply, a reason phrase with controls):
// protocol behaviour is tested against the real servers of this package.
func Hostile(t testing.TB, serve func(c net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				serve(c)
			}()
		}
	}()
	return ln.Addr().String()
}
