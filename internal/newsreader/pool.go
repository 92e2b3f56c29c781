package newsreader

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/rfc1738/locator/access"
)

// ProbeStat sends STAT arg (an article number in the selected group, or
// a message-id in "<" ">"; RFC 3977 §6.2.4) on c and says what the
// answer means for a probe: 223 StateOK, 423 and 430 StateGone, other
// 4xx and 5xx as ServerStatus says.
func ProbeStat(c *Conn, arg string) (*access.Status, error) {
	r, err := c.Cmd("STAT", arg)
	if err != nil {
		return nil, err
	}
	if r.Code == 223 {
		return &access.Status{State: access.StateOK, Code: "223", Text: r.Text, Command: "STAT " + arg, Size: -1}, nil
	}
	return ServerStatus(c.answer("STAT "+arg, r))
}

// ServerStatus turns a news server's refusal (an *access.ServerError)
// into a probe's Status: 411 (no such group), 423 (no article with that
// number) and 430 (no article with that message-id) StateGone; 400
// (service temporarily unavailable) StateRefused and Transient; any
// other (480 authentication required, 502 not permitted) StateRefused
// (RFC 3977 §3.2.1). Other errors are returned as they are.
func ServerStatus(err error) (*access.Status, error) {
	var se *access.ServerError
	if !errors.As(err, &se) {
		return nil, err
	}
	st := &access.Status{State: access.StateRefused, Code: se.Code, Text: se.Text, Command: se.Command, Size: -1, Err: err}
	switch se.Code {
	case "411", "423", "430":
		st.State = access.StateGone
	case "400":
		st.Transient = true
	}
	return st, nil
}

// ProbeIdle is how long a probe session waits, unused, for another probe
// of the same server before it is ended with QUIT.
const ProbeIdle = 15 * time.Second

// A Pool keeps the connections of probes and fetches, in reader mode, for the next
// request of the same access.Client to the same server with the same credentials: NNTP keeps no
// state a probe depends on beyond the group it selects itself, so one
// connection serves any number of probes. The zero Pool is empty and
// ready; it is safe for concurrent use.
type Pool struct {
	mu   sync.Mutex
	idle map[string][]*idleConn
}

type idleConn struct {
	c     *Conn
	timer *time.Timer
}

// Session returns a connection to host:port in reader mode for a probe:
// an idle one an earlier probe left in p, or a new one (Dial, MODE
// READER). release(err) gives the connection back to p when err is nil
// or the server's answer (an *access.ServerError: the connection is
// still in step), and closes it otherwise; a connection left idle
// ProbeIdle is ended with QUIT. A probe whose ctx ends closes its
// connection.
func (p *Pool) Session(ctx context.Context, req *access.Request, host string, port int, auth Auth) (c *Conn, release func(error), err error) {
	// One access.Client's connections only: its policy, deadlines and
	// dialer admitted them.
	key := fmt.Sprintf("%p\x00", req.Client) + net.JoinHostPort(host, strconv.Itoa(port))
	if auth.User != "" {
		key += "\x00" + auth.User + "\x00" + auth.Password
	}
	p.mu.Lock()
	for c == nil && len(p.idle[key]) > 0 {
		l := p.idle[key]
		ic := l[len(l)-1]
		p.idle[key] = l[:len(l)-1]
		if ic.timer.Stop() {
			c = ic.c
		}
	}
	p.mu.Unlock()
	if c != nil {
		c.req, c.url, c.read = req, access.Masked(req.URL), 0
		c.Tap(req)
		req.Notef("the connection of an earlier probe is reused")
	} else {
		// The connection may outlive this probe's context.
		if c, err = Dial(context.WithoutCancel(ctx), req, host, port, auth); err != nil {
			return nil, nil, err
		}
		if err := c.ModeReader(); err != nil {
			c.Quit()
			return nil, nil, err
		}
	}
	stop := context.AfterFunc(ctx, func() { c.raw.Close() })
	return c, func(err error) {
		var se *access.ServerError
		if !stop() || err != nil && !errors.As(err, &se) || c.closed {
			c.Close()
			return
		}
		p.put(key, c)
	}, nil
}

// Lease returns a connection as Session does, for a request whose
// reply may outlive the call (an article's body): the connection goes
// back to p when it is ended in step (Quit, as a body read to its "."
// line ends it), and is closed otherwise (Close).
func (p *Pool) Lease(ctx context.Context, req *access.Request, host string, port int, auth Auth) (*Conn, error) {
	c, release, err := p.Session(ctx, req, host, port, auth)
	if err != nil {
		return nil, err
	}
	c.keep = release
	return c, nil
}

// errClosed is the release of a leased connection closed out of step.
var errClosed = errors.New("newsreader: the connection was closed")

// MaxIdlePerServer bounds the idle connections a Pool keeps for one
// server and login: one more ends the oldest with QUIT.
const MaxIdlePerServer = 4

func (p *Pool) put(key string, c *Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.idle == nil {
		p.idle = map[string][]*idleConn{}
	}
	for len(p.idle[key]) >= MaxIdlePerServer {
		old := p.idle[key][0]
		p.idle[key] = p.idle[key][1:]
		if old.timer.Stop() {
			go old.c.Quit()
		}
	}
	ic := &idleConn{c: c}
	ic.timer = time.AfterFunc(ProbeIdle, func() {
		p.mu.Lock()
		l := p.idle[key]
		for i, x := range l {
			if x == ic {
				p.idle[key] = append(l[:i:i], l[i+1:]...)
				break
			}
		}
		p.mu.Unlock()
		c.Quit()
	})
	p.idle[key] = append(p.idle[key], ic)
}

// CloseIdle ends every idle connection of p with QUIT.
func (p *Pool) CloseIdle() {
	p.mu.Lock()
	var all []*Conn
	for k, l := range p.idle {
		for _, ic := range l {
			if ic.timer.Stop() {
				all = append(all, ic.c)
			}
		}
		delete(p.idle, k)
	}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range all {
		wg.Add(1)
		go func() { defer wg.Done(); c.Quit() }()
	}
	wg.Wait()
}
