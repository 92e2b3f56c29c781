package http

import (
	"bytes"
	"net"
	nethttp "net/http"
	"strings"
	"sync"

	"github.com/rfc1738/locator"
)

// A Reply is the head of one reply to a request of the Client, as the
// server (or the proxy) sent it: what curl's -i and -I show and its
// %{http_code} reports.
type Reply struct {
	// URL is the URL the request was for.
	URL *locator.URL
	// Code is the reply's status code (RFC 9110 §15).
	Code int
	// Head is the status line and the header section, octet for octet
	// as they came (the fields' order and the case of their names
	// kept), the empty line that ends them included (RFC 9112 §2.1).
	// It is nil when the octets were not all kept: a head longer than
	// maxTapped, which net/http refuses anyway past its own bound.
	Head []byte
}

// maxTapped bounds the octets a headTap keeps of one reply: the
// Transport's bound on a head (MaxResponseHeaderBytes, the dialogue's
// MaxLine × 16) is below it for every MaxLine up to 16 KiB, and the
// octets net/http reads ahead into its buffer (4 KiB) fit besides.
const maxTapped = 272 << 10

// A headTap keeps the octets read from a connection from the moment a
// request begins (begin) until its reply has been read (take): net/http
// parses the reply's head into a map, which loses the order of the
// fields and the case of their names, and curl shows them as sent.
type headTap struct {
	net.Conn
	mu   sync.Mutex
	on   bool
	over bool // more than maxTapped octets came
	buf  []byte
}

func (t *headTap) Read(p []byte) (int, error) {
	n, err := t.Conn.Read(p)
	if n > 0 {
		t.mu.Lock()
		if t.on && !t.over {
			if len(t.buf)+n > maxTapped {
				t.over, t.buf = true, nil
			} else {
				t.buf = append(t.buf, p[:n]...)
			}
		}
		t.mu.Unlock()
	}
	return n, err
}

// begin starts keeping what is read, for the request about to be sent.
func (t *headTap) begin() {
	t.mu.Lock()
	t.on, t.over, t.buf = true, false, nil
	t.mu.Unlock()
}

// take stops keeping and returns the final head among what was read
// (lastHead), or nil.
func (t *headTap) take() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	t.on, t.buf = false, nil
	if t.over {
		return nil
	}
	return lastHead(b)
}

// tapOf returns the headTap of a connection net/http hands the trace,
// or nil, and the connection beneath it, which a recording retargets
// (access.Capture.Conn).
func tapOf(c net.Conn) (*headTap, net.Conn) {
	if t, ok := c.(*headTap); ok {
		return t, t.Conn
	}
	return nil, c
}

// lastHead returns the head of the final reply at the beginning of b,
// the octets read since a request was sent: the interim replies' heads
// before it (1xx but 101, RFC 9110 §15.2) are skipped, the body after
// it left out. A line may end in LF alone, as net/http reads it (RFC
// 9112 §2.2). It returns nil when b holds no complete head.
func lastHead(b []byte) []byte {
	for {
		end := headEnd(b)
		if end < 0 {
			return nil
		}
		if !interim(b[:end]) {
			return b[:end:end]
		}
		b = b[end:]
	}
}

// headEnd returns the length of the head at the beginning of b, up to
// and including the empty line that ends it, or -1.
func headEnd(b []byte) int {
	seen := false // a status line
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return -1
		}
		line := b[i : i+j]
		i += j + 1
		if len(line) == 0 || len(line) == 1 && line[0] == '\r' {
			if !seen {
				return -1 // no status line before the empty one
			}
			return i
		}
		seen = true
	}
	return -1
}

// interim reports whether head is an interim reply's: its status code
// 1xx, and not 101 (Switching Protocols), after which no HTTP follows.
func interim(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	_, rest, ok := strings.Cut(string(line), " ")
	return ok && len(rest) >= 3 && rest[0] == '1' && rest[:3] != "101"
}

// report hands resp's head to OnReply.
func (c *Client) report(u *locator.URL, resp *nethttp.Response, head []byte) {
	if c.OnReply != nil {
		c.OnReply(Reply{URL: u, Code: resp.StatusCode, Head: head})
	}
}
