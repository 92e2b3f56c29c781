package access

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDialPacket: datagrams go to the address dialled, and only its
// datagrams (from its port or a reply port named) come back; strangers
// are dropped with a note; policy applies as to Dial (RFC 1738 §6).
func TestDialPacket(t *testing.T) {
	server, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	stranger, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	port := server.LocalAddr().(*net.UDPAddr).Port

	var log bytes.Buffer
	u := mustParse(t, "tsu://127.0.0.1:"+strconv.Itoa(port)+"/x")
	req := &Request{Client: &Client{Dialogue: &log, IdleTimeout: 5 * time.Second}, URL: u, info: Info{DefaultPort: 70}}
	c, err := req.DialPacket(context.Background(), "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 64)
	server.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, from, err := server.ReadFromUDP(b)
	if err != nil || string(b[:n]) != "ping" {
		t.Fatalf("server read %q, %v", b[:n], err)
	}
	stranger.WriteToUDP([]byte("stranger"), from)
	time.Sleep(20 * time.Millisecond)
	server.WriteToUDP([]byte("pong"), from)
	n, err = c.Read(b)
	if err != nil || string(b[:n]) != "pong" {
		t.Fatalf("client read %q, %v", b[:n], err)
	}
	if want := "* dropped a datagram of 8 octets from " + stranger.LocalAddr().String() + ": not the address asked"; !strings.Contains(log.String(), want) {
		t.Errorf("dialogue lacks %q:\n%s", want, log.String())
	}
	if !strings.HasPrefix(log.String(), "* datagrams to 127.0.0.1:"+strconv.Itoa(port)+"\n") {
		t.Errorf("dialogue:\n%s", log.String())
	}

	// The caller's deadline ends a Read.
	c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	if _, err := c.Read(b); !Timeout(err) {
		t.Errorf("read past the deadline: %v", err)
	}

	// Policy: a denied host, a port of another service.
	req.Client.Policy = Policy{Deny: mustRules(t, "127.0.0.1")}
	var pe *PolicyError
	if _, err := req.DialPacket(context.Background(), "127.0.0.1", port); !errors.As(err, &pe) || pe.Rule != "host" {
		t.Errorf("denied host: %v", err)
	}
	req.Client.Policy = Policy{}
	if _, err := req.DialPacket(context.Background(), "127.0.0.1", 25); !errors.As(err, &pe) || pe.Rule != "RFC 1738 §6" {
		t.Errorf("port 25: %v", err)
	}
}

// TestDialPacketContext: the caller's context ending ends a Read under
// way.
func TestDialPacketContext(t *testing.T) {
	server, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	port := server.LocalAddr().(*net.UDPAddr).Port
	u := mustParse(t, "tsu://127.0.0.1:"+strconv.Itoa(port)+"/x")
	req := &Request{Client: &Client{IdleTimeout: time.Minute}, URL: u, info: Info{DefaultPort: 70}}
	ctx, cancel := context.WithCancel(context.Background())
	c, err := req.DialPacket(ctx, "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if _, err := c.Read(make([]byte, 8)); err == nil {
		t.Fatal("read returned without error after the context ended")
	}
}
