package nntp

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

var (
	_ access.Prober     = client{}
	_ access.IdleCloser = client{}
)

// Probe says whether the group or article u names is there without
// transferring it: MODE READER, GROUP (RFC 3977 §6.1.1), and for an
// article STAT n (§6.2.4: "223 n message-id" when it exists), then QUIT.
// 211 and 223 are Present (a group as a listing); 411 (no such group),
// 423 (no article with that number) and 430 (no article with that
// message-id) are Gone; other 4xx and 5xx answers (480 authentication
// required, 502 not permitted) Denied, 400 (service temporarily
// unavailable) Transient. The connection is reused by the next probe of
// the same server (ProbeSession).
func (client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (st *access.Status, err error) {
	a := Split(u)
	c, release, err := ProbeSession(ctx, req, u.Host(), u.EffectivePort())
	if err != nil {
		return ServerStatus(err)
	}
	defer func() { release(err) }()
	g, err := c.Group(a.Group)
	if err != nil {
		return ServerStatus(err)
	}
	if !a.HasNumber {
		return &access.Status{State: access.Present, Code: "211", Text: strconv.FormatInt(g.Count, 10) + " " + strconv.FormatInt(g.Low, 10) + " " + strconv.FormatInt(g.High, 10) + " " + g.Name, Command: "GROUP " + a.Group, Size: -1, Listing: true}, nil
	}
	return ProbeStat(c, a.Number)
}

// ProbeStat sends STAT arg (an article number in the selected group, or
// a message-id in "<" ">"; RFC 3977 §6.2.4) on c and says what the
// answer means for a probe: 223 Present, 423 and 430 Gone, other 4xx and
// 5xx as ServerStatus says.
func ProbeStat(c *Conn, arg string) (*access.Status, error) {
	r, err := c.Cmd("STAT", arg)
	if err != nil {
		return nil, err
	}
	if r.Code == 223 {
		return &access.Status{State: access.Present, Code: "223", Text: r.Text, Command: "STAT " + arg, Size: -1}, nil
	}
	return ServerStatus(c.answer("STAT "+arg, r))
}

// ServerStatus turns a news server's refusal (an *access.ServerError)
// into a probe's Status: 411, 423 and 430 Gone; 400 Denied and
// Transient; any other Denied. Other errors are returned as they are.
func ServerStatus(err error) (*access.Status, error) {
	var se *access.ServerError
	if !errors.As(err, &se) {
		return nil, err
	}
	st := &access.Status{State: access.Denied, Code: se.Code, Text: se.Text, Command: se.Command, Size: -1, Err: err}
	switch se.Code {
	case "411", "423", "430":
		st.State = access.Gone
	case "400":
		st.Transient = true
	}
	return st, nil
}

// CloseIdle ends the idle probe sessions (CloseIdleProbes).
func (client) CloseIdle() { CloseIdleProbes() }

// ProbeIdle is how long a probe session waits, unused, for another probe
// of the same server before it is ended with QUIT.
const ProbeIdle = 5 * time.Second

// ProbeSession returns a connection to host:port in reader mode for a
// probe (news and nntp URLs share them): an idle one an earlier probe of
// the same server (and credentials, WithAuth) left, or a new one (Dial,
// MODE READER). NNTP keeps no state a probe depends on beyond the group
// it selects itself, so one connection serves any number of probes.
// release(err) gives the connection back when err is nil or the
// server's answer (an *access.ServerError: the connection is still in
// step), and closes it otherwise; a connection left idle ProbeIdle is
// ended with QUIT. A probe whose ctx ends closes its connection.
func ProbeSession(ctx context.Context, req *access.Request, host string, port int) (c *Conn, release func(error), err error) {
	key := net.JoinHostPort(host, strconv.Itoa(port))
	if a, ok := AuthFrom(ctx); ok {
		key += "\x00" + a.User + "\x00" + a.Password
	}
	sessions.mu.Lock()
	for c == nil && len(sessions.idle[key]) > 0 {
		l := sessions.idle[key]
		p := l[len(l)-1]
		sessions.idle[key] = l[:len(l)-1]
		if p.timer.Stop() {
			c = p.c
		}
	}
	sessions.mu.Unlock()
	if c != nil {
		c.req, c.url, c.read = req, access.Masked(req.URL), 0
		req.Notef("the connection of an earlier probe is reused")
	} else {
		// The connection may outlive this probe's context.
		if c, err = Dial(context.WithoutCancel(ctx), req, host, port); err != nil {
			return nil, nil, err
		}
		if err := c.ModeReader(); err != nil {
			c.Quit()
			return nil, nil, err
		}
	}
	stop := context.AfterFunc(ctx, func() { c.nc.Close() })
	return c, func(err error) {
		var se *access.ServerError
		if !stop() || err != nil && !errors.As(err, &se) || c.closed {
			c.Close()
			return
		}
		sessions.put(key, c)
	}, nil
}

type idleConn struct {
	c     *Conn
	timer *time.Timer
}

var sessions = &pool{idle: map[string][]*idleConn{}}

type pool struct {
	mu   sync.Mutex
	idle map[string][]*idleConn
}

func (p *pool) put(key string, c *Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
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

// CloseIdleProbes ends every idle probe session with QUIT.
func CloseIdleProbes() {
	sessions.mu.Lock()
	var all []*Conn
	for k, l := range sessions.idle {
		for _, ic := range l {
			if ic.timer.Stop() {
				all = append(all, ic.c)
			}
		}
		delete(sessions.idle, k)
	}
	sessions.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range all {
		wg.Add(1)
		go func() { defer wg.Done(); c.Quit() }()
	}
	wg.Wait()
}
