package prospero_test

// Failure paths against a small hostile UDP peer written here (a server
// that stops answering, malformed and oversized replies, strangers):
// the real server never does these things.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

type hostile struct {
	conn *net.UDPConn
	mu   sync.Mutex
	got  [][]byte // every datagram received
	from *net.UDPAddr
	// handle answers the n-th datagram (0-based).
	handle func(h *hostile, n int, pkt []byte)
}

func startHostile(t *testing.T, handle func(h *hostile, n int, pkt []byte)) *hostile {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	h := &hostile{conn: c, handle: handle}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b := make([]byte, 65536)
		for n := 0; ; n++ {
			k, from, err := c.ReadFromUDP(b)
			if err != nil {
				return
			}
			pkt := append([]byte(nil), b[:k]...)
			h.mu.Lock()
			h.got = append(h.got, pkt)
			h.from = from
			h.mu.Unlock()
			if h.handle != nil {
				h.handle(h, n, pkt)
			}
		}
	}()
	t.Cleanup(func() { c.Close(); <-done })
	return h
}

func (h *hostile) url() string {
	return fmt.Sprintf("prospero://127.0.0.1:%d//dir", h.conn.LocalAddr().(*net.UDPAddr).Port)
}

func (h *hostile) send(b []byte) {
	h.mu.Lock()
	to := h.from
	h.mu.Unlock()
	h.conn.WriteToUDP(b, to)
}

func (h *hostile) received() [][]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([][]byte(nil), h.got...)
}

func cidOf(pkt []byte) uint16 { return binary.BigEndian.Uint16(pkt[1:]) }

// packet writes an ARDP packet with a 12-octet header (ARDP octets 0–11).
func packet(cid, seq, total uint16, flags byte, text string) []byte {
	b := []byte{12}
	b = binary.BigEndian.AppendUint16(b, cid)
	b = binary.BigEndian.AppendUint16(b, seq)
	b = binary.BigEndian.AppendUint16(b, total)
	b = append(b, 0, 1, 0, 0, flags)
	return append(b, text...)
}

const okReply = "VERSION 5 hostile\nLINK L FILE a INTERNET-D H(1) ASCII '/a' 0\n"

func quick() *access.Client { return &access.Client{IdleTimeout: 1500 * time.Millisecond} }

// patient is for the tests that count retransmissions: its waits (400 ms,
// 800 ms, 1.6 s, 3.2 s) leave a loaded machine time to send each one
// before the idle timeout ends the fetch.
func patient() *access.Client { return &access.Client{IdleTimeout: 6 * time.Second} }

// TestSilentServer: a server that never answers is sent the request four
// times, the waits doubling (ARDP: "client-specified backoff algorithm";
// the reference's 4 s, 8 s, 16 s, 32 s scaled to the idle timeout), and
// the fetch ends as a timeout, never a hang.
func TestSilentServer(t *testing.T) {
	h := startHostile(t, nil)
	g := fetch(t, h.url(), patient(), false)
	if g.err == nil || !access.Timeout(g.err) || access.Classify(g.err) != access.Failed {
		t.Fatalf("err %v (timeout %v)", g.err, access.Timeout(g.err))
	}
	got := h.received()
	if len(got) != 4 {
		t.Fatalf("%d datagrams, want 4 (one request, three retries)", len(got))
	}
	for i, p := range got {
		if string(p) != string(got[0]) {
			t.Errorf("transmission %d differs from the first", i+1)
		}
	}
	for _, l := range []string{
		"no reply within 400ms; sending the request again (transmission 2 of 4, next wait 800ms)",
		"no reply within 800ms; sending the request again (transmission 3 of 4, next wait 1.6s)",
		"no reply within 1.6s; sending the request again (transmission 4 of 4, next wait 3.2s)",
	} {
		if !strings.Contains(g.log, l) {
			t.Errorf("dialogue lacks %q:\n%s", l, g.log)
		}
	}
}

// TestStallAfterFirstPacket: once the server has shown it has the
// request, the client retries with acknowledgements of what arrived
// (ARDP: received-through in an unsequenced control packet), not the
// request, and gives up after the retries.
func TestStallAfterFirstPacket(t *testing.T) {
	h := startHostile(t, func(h *hostile, n int, pkt []byte) {
		if n == 0 {
			h.send(packet(cidOf(pkt), 1, 3, 0, "VERSION 5 x\n"))
		}
	})
	g := fetch(t, h.url(), patient(), false)
	if !access.Timeout(g.err) {
		t.Fatalf("err %v", g.err)
	}
	got := h.received()
	if len(got) != 4 {
		t.Fatalf("%d datagrams, want the request and three acknowledgements", len(got))
	}
	cid := cidOf(got[0])
	ack := []byte{9, byte(cid >> 8), byte(cid), 0, 0, 0, 0, 0, 1}
	for _, p := range got[1:] {
		if string(p) != string(ack) {
			t.Errorf("retry % x, want the ACK % x", p, ack)
		}
	}
}

// TestHostileReplies: malformed and oversized replies end the fetch as
// protocol errors (exit 3) naming what is wrong; strangers and stale
// connection ids are ignored.
func TestHostileReplies(t *testing.T) {
	cases := []struct {
		name  string
		reply func(cid uint16) [][]byte
		ac    *access.Client
		want  string // in the error; "" for success
	}{
		{"header longer than the datagram", func(cid uint16) [][]byte { return [][]byte{{40, 0, 1}} }, quick(), "a header of 40 octets in a datagram of 3"},
		{"ARDP version 1", func(cid uint16) [][]byte { return [][]byte{{0x43, byte(cid >> 8), byte(cid)}} }, quick(), "ARDP version 1"},
		{"split field", func(cid uint16) [][]byte { return [][]byte{{4, byte(cid >> 8), byte(cid), 0}} }, quick(), "splits a two-octet field"},
		{"oversized datagram", func(cid uint16) [][]byte { return [][]byte{packet(cid, 1, 1, 0, strings.Repeat("x", 2000))} }, quick(), "a datagram of more than 1533 octets"},
		{"packet beyond the total", func(cid uint16) [][]byte { return [][]byte{packet(cid, 3, 2, 0, "x")} }, quick(), "packet 3 of a message of 2"},
		{"total changes", func(cid uint16) [][]byte {
			return [][]byte{packet(cid, 2, 3, 0, "x"), packet(cid, 1, 2, 0, "y")}
		}, quick(), "says the message has 2 packets, an earlier one 3"},
		{"unquoted line", func(cid uint16) [][]byte { return [][]byte{packet(cid, 1, 1, 0, "LINK L FILE 'a\n")} }, quick(), "a quote that is not closed"},
		{"short LINK", func(cid uint16) [][]byte { return [][]byte{packet(cid, 1, 1, 0, "LINK L FILE a\n")} }, quick(), "reply line 1: Prospero message"},
		{"unknown reply", func(cid uint16) [][]byte { return [][]byte{packet(cid, 1, 1, 0, "HELLO there\n")} }, quick(), `an unknown reply "HELLO"`},
		{"line over MaxLine", func(cid uint16) [][]byte {
			return [][]byte{packet(cid, 1, 1, 0, "VERSION "+strings.Repeat("5", 200)+"\n")}
		},
			&access.Client{IdleTimeout: 1500 * time.Millisecond, MaxLine: 100}, "a Prospero reply line longer than 100 octets"},
		{"reply over MaxSize", func(cid uint16) [][]byte {
			return [][]byte{packet(cid, 1, 2, 0, okReply), packet(cid, 2, 2, 0, okReply)}
		}, &access.Client{IdleTimeout: 1500 * time.Millisecond, MaxSize: 100}, "larger than the size limit"},
		{"stale connection id, then the reply", func(cid uint16) [][]byte {
			return [][]byte{packet(cid+1, 1, 1, 0, "FAILURE NOT-FOUND\n"), packet(cid, 1, 1, 0, okReply)}
		}, quick(), ""},
		{"packets out of order", func(cid uint16) [][]byte {
			return [][]byte{packet(cid, 2, 2, 0, "INTERNET-D H(1) ASCII '/a' 0\n"), packet(cid, 1, 0, 0, "VERSION 5 x\nLINK L FILE a ")}
		}, quick(), ""},
		{"refused", func(cid uint16) [][]byte {
			return [][]byte{{13, byte(cid >> 8), byte(cid), 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}}
		}, quick(), "REFUSED"},
		{"server error", func(cid uint16) [][]byte { return [][]byte{packet(cid, 1, 1, 0, "VERSION 5 x\nERROR bad command\n")} }, quick(), "the server says ERROR: bad command"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := startHostile(t, func(h *hostile, n int, pkt []byte) {
				if n == 0 {
					for _, r := range c.reply(cidOf(pkt)) {
						h.send(r)
					}
				}
			})
			g := fetch(t, h.url(), c.ac, false)
			if c.want == "" {
				if g.err != nil {
					t.Fatalf("%v\n%s", g.err, g.log)
				}
				if n := len(entries(g.res.Listing)); n != 1 || entries(g.res.Listing)[0].URL != "prospero://H:1//a" {
					t.Fatalf("entries %+v", entries(g.res.Listing))
				}
				return
			}
			if g.err == nil || !strings.Contains(g.err.Error(), c.want) {
				t.Fatalf("err %v, want %q\n%s", g.err, c.want, g.log)
			}
			if c.name == "refused" {
				if access.Classify(g.err) != access.Absent {
					t.Errorf("classified %v", access.Classify(g.err))
				}
			} else if access.Classify(g.err) != access.Failed {
				t.Errorf("classified %v", access.Classify(g.err))
			}
		})
	}
}

// TestStranger: a datagram from another address, even with the right
// connection id, is dropped (the socket accepts only the address asked).
func TestStranger(t *testing.T) {
	stranger, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	h := startHostile(t, func(h *hostile, n int, pkt []byte) {
		if n == 0 {
			stranger.WriteToUDP(packet(cidOf(pkt), 1, 1, 0, "FAILURE NOT-FOUND\n"), h.from)
			time.Sleep(50 * time.Millisecond)
			h.send(packet(cidOf(pkt), 1, 1, 0, okReply))
		}
	})
	g := fetch(t, h.url(), quick(), false)
	if g.err != nil {
		t.Fatalf("%v\n%s", g.err, g.log)
	}
	if !strings.Contains(g.log, "* dropped a datagram of 30 octets from "+stranger.LocalAddr().String()+": not the address asked") {
		t.Errorf("dialogue:\n%s", g.log)
	}
}

// TestAckFloodNoAmplification: each packet asking for an acknowledgement
// gets one 9-octet ACK, to the server only: never more datagrams or
// octets than came.
func TestAckFloodNoAmplification(t *testing.T) {
	const flood = 50
	sent := 0
	h := startHostile(t, func(h *hostile, n int, pkt []byte) {
		if n == 0 {
			for i := 0; i < flood; i++ {
				p := packet(cidOf(pkt), 1, 2, 0x80, "VERSION 5 x\n")
				sent += len(p)
				h.send(p)
			}
			h.send(packet(cidOf(pkt), 2, 2, 0, "LINK L FILE a INTERNET-D H(1) ASCII '/a' 0\n"))
		}
	})
	g := fetch(t, h.url(), quick(), false)
	if g.err != nil {
		t.Fatalf("%v\n%s", g.err, g.log)
	}
	// The peer's reader was busy sending: let it drain its socket.
	got := h.received()
	for end := time.Now().Add(5 * time.Second); len(got) < 1+flood && time.Now().Before(end); got = h.received() {
		time.Sleep(10 * time.Millisecond)
	}
	if len(got) != 1+flood {
		t.Fatalf("%d datagrams, want the request and %d ACKs", len(got), flood)
	}
	octets := 0
	for _, p := range got[1:] {
		if len(p) != 9 || p[3] != 0 || p[4] != 0 {
			t.Fatalf("not an ACK: % x", p)
		}
		octets += len(p)
	}
	if octets >= sent {
		t.Errorf("%d octets of ACKs for %d octets received", octets, sent)
	}
}

// TestARDPRedirect: ARDP option 4 sends the request to another server;
// the client follows it as a URL (checked anew by policy).
func TestARDPRedirect(t *testing.T) {
	second := startHostile(t, func(h *hostile, n int, pkt []byte) {
		h.send(packet(cidOf(pkt), 1, 1, 0, okReply))
	})
	port := uint16(second.conn.LocalAddr().(*net.UDPAddr).Port)
	first := startHostile(t, func(h *hostile, n int, pkt []byte) {
		cid := cidOf(pkt)
		b := []byte{19, byte(cid >> 8), byte(cid), 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 127, 0, 0, 1}
		h.send(binary.BigEndian.AppendUint16(b, port))
	})
	g := fetch(t, first.url(), quick(), false)
	if g.err != nil {
		t.Fatalf("%v\n%s", g.err, g.log)
	}
	if want := fmt.Sprintf("* redirect 1 to prospero://127.0.0.1:%d//dir", port); !strings.Contains(g.log, want) {
		t.Errorf("dialogue lacks %q:\n%s", want, g.log)
	}
	// The redirection's address is checked by policy like any URL.
	g = fetch(t, strings.Replace(first.url(), "127.0.0.1", "localhost", 1), &access.Client{IdleTimeout: 1500 * time.Millisecond, Policy: access.Policy{Deny: loctest.Rules(t, "127.0.0.1")}}, false)
	var pe *access.PolicyError
	if !errors.As(g.err, &pe) {
		t.Errorf("a denied host: %v", g.err)
	}
}
