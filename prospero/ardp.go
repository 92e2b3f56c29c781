package prospero

// ARDP, the Asynchronous Reliable Delivery Protocol that carries
// Prospero's messages over UDP (prospero-protocol.tex, chapter
// "Asynchronous Reliable Delivery Protocol", cited below as "ARDP").

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/rfc1738/locator/access"
)

// ARDP header flags (octet 11) and options (octet 12).
const (
	flagAddress  = 0x01 // bit 0: additional address information follows
	flagPriority = 0x02 // bit 1: priority follows (2 octets)
	flagProtocol = 0x04 // bit 2: a higher-level protocol id follows (2 octets)
	flagControl  = 0x40 // bit 6: a sequenced control packet only
	flagAck      = 0x80 // bit 7: please acknowledge this packet

	optRefused        = 1   // server to client: connection refused
	optResetRcvd      = 2   // reset the peer's received-through count
	optRedirect       = 4   // redirect (6 octets: IPv4 address, port)
	optRedirectNotify = 5   // redirect and notify (same)
	optQueueStatus    = 254 // response to 253: flags, queue position, time
)

// Limits of the reference implementation (include/ardp.h of the
// Prospero server the tests run), which the protocol text leaves open.
const (
	// maxPacket bounds one datagram: the reference reads into a buffer
	// of ARDP_PTXT_LEN_R (1405) data octets and twice the 64-octet
	// maximum header (ARDP: "the maximum header length ... is limited
	// to 64 octets"). A longer datagram is not an ARDP packet.
	maxPacket = 1405 + 2*64
	// maxRequestText is the data one request packet carries
	// (ARDP_PTXT_LEN): this client sends every request as one packet,
	// so it never has more than one packet unacknowledged.
	maxRequestText = 1250
	// maxAhead bounds the packets held beyond the received-through
	// count, waiting for a gap to be filled: ARDP_MAX_WINDOW_SZ, the
	// largest window a server uses.
	maxAhead = 256
	// initialTimeout, retries and backoff are the reference client's
	// ARDP_DEFAULT_TIMEOUT (4 s), ARDP_DEFAULT_RETRY (3) and
	// ARDP_BACKOFF(x) = 2x: four transmissions in 4+8+16+32 = 60 s,
	// the access layer's default idle timeout.
	initialTimeout = 4 * time.Second
	retries        = 3
)

// A Header is an ARDP packet header, decoded (ARDP, "The ARDP header
// contains the following fields"). Fields the header leaves out take
// their defaults: the header "may be truncated at any point, after which
// all remaining fields take on their default values".
type Header struct {
	Len      int    // octet 0, low six bits: header length including octet 0
	Version  int    // octet 0, high two bits: ARDP version mod 4 (0)
	CID      uint16 // octets 1–2: connection id (default 0)
	Seq      uint16 // octets 3–4: packet number (default 1; 0 an unsequenced control packet)
	Total    uint16 // octets 5–6: packets in the message (0 not known; 1 when Seq is absent)
	RcvdThru uint16 // octets 7–8: received through
	HasRcvd  bool
	Wait     uint16 // octets 9–10: expected time till response, seconds
	HasWait  bool
	Flags    byte // octet 11
	Option   byte // octet 12

	Redirect   netip.AddrPort // options 4 and 5
	QueuePos   int            // option 254, -1 when not given
	SystemTime int64          // option 254, -1 when not given
}

// A HeaderError says why octets are not an ARDP header: the offset in
// the packet and the rule of the ARDP chapter they break.
type HeaderError struct {
	Offset int
	Rule   string
	Msg    string
}

func (e *HeaderError) Error() string {
	return "ARDP header: offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + ": " + e.Msg
}

// ParseHeader reads the ARDP header at the start of pkt and returns it
// with the data that follows it. It accepts every length the text allows
// (1, 3, 5, 7, 9, 11 and 12 octets and more, with the fields of octet
// 11's flags and octet 12's option after octet 12) and refuses a header
// longer than the packet, a length that splits a field, an ARDP version
// other than 0, and option fields that run past the header.
func ParseHeader(pkt []byte) (Header, []byte, error) {
	h := Header{Seq: 1, QueuePos: -1, SystemTime: -1}
	if len(pkt) == 0 {
		return h, nil, &HeaderError{0, "ARDP octet 0", "an empty datagram"}
	}
	h.Version = int(pkt[0] >> 6)
	h.Len = int(pkt[0] & 0x3f)
	if h.Version != 0 {
		return h, nil, &HeaderError{0, "ARDP octet 0", fmt.Sprintf("ARDP version %d; this is version 0 (octet 0 is 0x%02x)", h.Version, pkt[0])}
	}
	switch {
	case h.Len == 0:
		return h, nil, &HeaderError{0, "ARDP octet 0", "a header length of 0 (the length includes octet 0)"}
	case h.Len > len(pkt):
		return h, nil, &HeaderError{0, "ARDP octet 0", fmt.Sprintf("a header of %d octets in a datagram of %d", h.Len, len(pkt))}
	case h.Len < 11 && h.Len%2 == 0:
		return h, nil, &HeaderError{h.Len - 1, "ARDP octets 1–10", fmt.Sprintf("a header length of %d splits a two-octet field", h.Len)}
	}
	u16 := func(at int) uint16 { return binary.BigEndian.Uint16(pkt[at:]) }
	if h.Len >= 3 {
		h.CID = u16(1)
	}
	if h.Len >= 5 {
		h.Seq = u16(3)
	} else {
		h.Total = 1 // "If the packet number was also not specified, then it defaults to 1."
	}
	if h.Len >= 7 {
		h.Total = u16(5)
	}
	if h.Len >= 9 {
		h.RcvdThru, h.HasRcvd = u16(7), true
	}
	if h.Len >= 11 {
		h.Wait, h.HasWait = u16(9), true
	}
	if h.Len >= 12 {
		h.Flags = pkt[11]
	}
	if h.Len >= 13 {
		h.Option = pkt[12]
	}
	at := 13
	need := func(n int, what string) error {
		if at+n > h.Len {
			return &HeaderError{min(at, h.Len), "ARDP octets 13 and above", fmt.Sprintf("%s needs %d octets at %d, past the header's %d", what, n, at, h.Len)}
		}
		return nil
	}
	if h.Flags&flagAddress != 0 {
		if err := need(2, "the additional address information"); err != nil {
			return h, nil, err
		}
		n := int(pkt[at+1])
		at += 2
		if err := need(n, "the additional address information"); err != nil {
			return h, nil, err
		}
		at += n
	}
	if h.Flags&flagPriority != 0 {
		if err := need(2, "the priority"); err != nil {
			return h, nil, err
		}
		at += 2
	}
	if h.Flags&flagProtocol != 0 {
		if err := need(2, "the protocol id"); err != nil {
			return h, nil, err
		}
		at += 2
	}
	switch h.Option {
	case optRedirect, optRedirectNotify:
		if err := need(6, "the redirect option"); err != nil {
			return h, nil, err
		}
		ip := netip.AddrFrom4([4]byte(pkt[at : at+4]))
		h.Redirect = netip.AddrPortFrom(ip, u16(at+4))
	case optQueueStatus:
		if err := need(1, "the queue status option"); err != nil {
			return h, nil, err
		}
		f := pkt[at]
		at++
		if f&1 != 0 {
			if err := need(2, "the queue position"); err != nil {
				return h, nil, err
			}
			h.QueuePos = int(u16(at))
			at += 2
		}
		if f&2 != 0 {
			if err := need(4, "the expected system time"); err != nil {
				return h, nil, err
			}
			h.SystemTime = int64(binary.BigEndian.Uint32(pkt[at:]))
		}
	}
	return h, pkt[h.Len:], nil
}

// appendRequestHeader appends the 9-octet header of packet seq of total
// carrying received-through rcvd (ARDP octets 0–8).
func appendHeader9(b []byte, cid, seq, total, rcvd uint16) []byte {
	b = append(b, 9)
	b = binary.BigEndian.AppendUint16(b, cid)
	b = binary.BigEndian.AppendUint16(b, seq)
	b = binary.BigEndian.AppendUint16(b, total)
	return binary.BigEndian.AppendUint16(b, rcvd)
}

// A timeoutError is a reply that did not come: access.Timeout says true.
type timeoutError struct{ msg string }

func (e *timeoutError) Error() string   { return e.msg }
func (e *timeoutError) Timeout() bool   { return true }
func (e *timeoutError) Temporary() bool { return false }

var _ net.Error = (*timeoutError)(nil)

// errRedirect carries an ARDP redirect (options 4 and 5) to the client.
type errRedirect struct{ to netip.AddrPort }

func (e *errRedirect) Error() string { return "ARDP redirect to " + e.to.String() }

// An exchange is one ARDP request and its reply message, read as a
// stream of the reply's data in packet order (io.Reader). It sends the
// request as one packet, acknowledges what the server asks it to (the
// ACK flag, which the server sets on the last packet of each window and
// then waits), retransmits when nothing new arrives (the request until
// the server shows it has it, then an acknowledgement of what arrived,
// which makes the server resend the rest), backs off, and gives up after
// the retries. It accepts packets only with its connection id (ARDP:
// "The sender must use the connection ID to match up sent messages and
// received replies"); the socket accepts them only from the server.
type exchange struct {
	conn net.Conn
	req  *access.Request
	cid  uint16

	request []byte // the request packet
	timeout time.Duration
	tries   int // transmissions so far
	idle    time.Duration
	maxSize int64

	rcvdThru  uint16
	total     uint16
	pending   map[uint16][]byte
	ready     []byte
	delivered int64
	peerHas   bool // the server has the request
	next      time.Time
	progress  time.Time
	packets   int // data packets accepted
	acks      int
	buf       []byte
}

func newExchange(conn net.Conn, req *access.Request, cid uint16, text []byte) *exchange {
	idle := req.IdleTimeout()
	t := initialTimeout
	// Four transmissions, with doubling waits, span the idle timeout.
	if w := idle / 15; w < t {
		t = w
	}
	if t <= 0 {
		t = time.Millisecond
	}
	x := &exchange{conn: conn, req: req, cid: cid, timeout: t, idle: idle, maxSize: req.MaxSize(),
		pending: map[uint16][]byte{}, buf: make([]byte, maxPacket+1)}
	x.request = appendHeader9(make([]byte, 0, 9+len(text)), cid, 1, 1, 0)
	x.request = append(x.request, text...)
	return x
}

// start sends the request for the first time.
func (x *exchange) start() error {
	x.progress = time.Now()
	return x.send(x.request)
}

func (x *exchange) send(p []byte) error {
	if p[3] != 0 || p[4] != 0 { // a request packet (sequence 1), not an ACK
		x.tries++
		x.next = time.Now().Add(x.timeout)
	}
	_, err := x.conn.Write(p)
	return err
}

func (x *exchange) complete() bool { return x.total != 0 && x.rcvdThru == x.total }

// Read returns the reply's data in packet order; io.EOF after the last
// packet.
func (x *exchange) Read(p []byte) (int, error) {
	for len(x.ready) == 0 {
		if x.complete() {
			return 0, io.EOF
		}
		if err := x.receive(); err != nil {
			return 0, err
		}
	}
	n := copy(p, x.ready)
	x.ready = x.ready[n:]
	return n, nil
}

// receive waits for one datagram and takes it in, or retransmits when
// the timer runs out.
func (x *exchange) receive() error {
	deadline := x.next
	if d := x.progress.Add(x.idle); d.Before(deadline) {
		deadline = d
	}
	x.conn.SetReadDeadline(deadline)
	n, err := x.conn.Read(x.buf)
	if err != nil {
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			return err
		}
		now := time.Now()
		if !now.Before(x.progress.Add(x.idle)) {
			return &timeoutError{fmt.Sprintf("no reply from the Prospero server for %v (%d transmissions, %d packets received; IdleTimeout)", x.idle, x.tries, x.packets)}
		}
		if now.Before(x.next) {
			return nil // the read ended early (a dropped datagram's note)
		}
		if x.tries > retries {
			return &timeoutError{fmt.Sprintf("no reply from the Prospero server after %d transmissions (ARDP: retry count exceeded)", x.tries)}
		}
		wait := x.timeout
		x.timeout *= 2 // ARDP_BACKOFF
		if x.peerHas {
			x.req.Notef("ARDP: nothing new within %v; acknowledging through %d so that the server resends the rest (retry %d of %d)", wait, x.rcvdThru, x.tries, retries)
			x.tries++
			x.next = now.Add(x.timeout)
			return x.ack()
		}
		x.req.Notef("ARDP: no reply within %v; sending the request again (transmission %d of %d, next wait %v)", wait, x.tries+1, retries+1, x.timeout)
		return x.send(x.request)
	}
	if n > maxPacket {
		return &access.ProtocolError{Msg: fmt.Sprintf("a datagram of more than %d octets (ARDP: the maximum is %d: 1405 data octets and headers)", maxPacket, maxPacket)}
	}
	h, data, err := ParseHeader(x.buf[:n])
	if err != nil {
		return &access.ProtocolError{Msg: err.Error()}
	}
	if h.CID != x.cid {
		x.req.Notef("ARDP: ignored a packet for connection id %d (ours is %d)", h.CID, x.cid)
		return nil
	}
	return x.take(h, data)
}

// take applies one packet of our connection.
func (x *exchange) take(h Header, data []byte) error {
	switch h.Option {
	case optRefused:
		return &access.ServerError{Code: "REFUSED", Text: "the server refused the connection (ARDP option 1)"}
	case optRedirect, optRedirectNotify:
		return &errRedirect{h.Redirect}
	case optResetRcvd:
		if h.RcvdThru == 0 {
			x.peerHas = false
		}
	case optQueueStatus:
		x.req.Notef("ARDP: queue position %d, expected time %d s", h.QueuePos, h.SystemTime)
	}
	if h.HasRcvd && h.RcvdThru >= 1 {
		x.peerHas = true
	}
	if h.HasWait && h.Wait > 0 {
		// The server asks us not to retry before Wait seconds: the
		// timer moves, the idle bound (no progress) stays.
		w := time.Duration(h.Wait) * time.Second
		x.req.Notef("ARDP: the server asks to wait %v before retrying", w)
		if t := time.Now().Add(w); t.After(x.next) {
			x.next = t
		}
	}
	if h.Seq == 0 {
		return nil // an unsequenced control packet
	}
	x.peerHas = true
	if h.Total != 0 {
		if x.total != 0 && x.total != h.Total {
			return &access.ProtocolError{Msg: fmt.Sprintf("ARDP: packet %d says the message has %d packets, an earlier one %d", h.Seq, h.Total, x.total)}
		}
		x.total = h.Total
	}
	if x.total != 0 && h.Seq > x.total {
		return &access.ProtocolError{Msg: fmt.Sprintf("ARDP: packet %d of a message of %d", h.Seq, x.total)}
	}
	if x.total != 0 && x.rcvdThru > x.total {
		return &access.ProtocolError{Msg: fmt.Sprintf("ARDP: the message has %d packets and %d arrived", x.total, x.rcvdThru)}
	}
	switch {
	case h.Seq <= x.rcvdThru:
		// A duplicate: our acknowledgement may have been lost.
	case int(h.Seq) > int(x.rcvdThru)+maxAhead:
		x.req.Notef("ARDP: dropped packet %d, more than %d beyond %d", h.Seq, maxAhead, x.rcvdThru)
		return nil
	default:
		if _, dup := x.pending[h.Seq]; !dup {
			if h.Flags&flagControl != 0 {
				data = nil // a sequenced control packet carries nothing for us
			}
			x.pending[h.Seq] = append([]byte(nil), data...)
		}
		for {
			d, ok := x.pending[x.rcvdThru+1]
			if !ok {
				break
			}
			delete(x.pending, x.rcvdThru+1)
			x.rcvdThru++
			x.packets++
			x.delivered += int64(len(d))
			if x.maxSize > 0 && x.delivered > x.maxSize {
				return access.ErrTooLarge
			}
			x.ready = append(x.ready, d...)
			// Progress: the timer and the retries start again.
			x.progress = time.Now()
			x.timeout = x.firstTimeout()
			x.tries = 1
			x.next = x.progress.Add(x.timeout)
		}
	}
	if h.Flags&flagAck != 0 {
		return x.ack()
	}
	return nil
}

func (x *exchange) firstTimeout() time.Duration {
	t := initialTimeout
	if w := x.idle / 15; w < t {
		t = w
	}
	if t <= 0 {
		t = time.Millisecond
	}
	return t
}

// ack sends an unsequenced control packet that says which packets
// arrived (ARDP: packet number 0, received through), as the reference
// client's 9-octet ACK. It is sent only when the server asks for one or
// the timer runs out: never more often than packets arrive or timers
// pass, and never longer than what came.
func (x *exchange) ack() error {
	x.acks++
	x.req.Notef("ARDP: acknowledging packets through %d", x.rcvdThru)
	_, err := x.conn.Write(appendHeader9(nil, x.cid, 0, 0, x.rcvdThru))
	return err
}
