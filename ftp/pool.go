package ftp

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// Bounds on the logged-in sessions a Client keeps idle: per server and
// login (sessionKey), and in all. A session returned past a bound ends
// the oldest idle one of its key, or of all, with QUIT.
const (
	maxIdlePerServer = 4
	maxIdle          = 16
)

// A sessionKey says which requests may share a session: those of one
// access.Client (its policy, deadlines, dialer and dialogue log applied
// when the session was opened) to one server under one login. A
// configured Client given to several access.Clients keeps their sessions
// apart. The login is the one sent, after access.Client.Login has
// replaced anonymous FTP or supplied a password (credentials): a URL
// with no user that logs in as a .netrc's user never shares a session
// with anonymous FTP. A password asked for at login (access.Request.Password)
// becomes the key's once it is sent: a request that asks again never
// takes that session, so that one person's answer never logs in
// another's request.
type sessionKey struct {
	client     *access.Client
	host       string
	port       int
	user, pass string
}

func poolKey(plan *Plan, req *access.Request) sessionKey {
	return sessionKey{client: req.Client, host: strings.ToLower(plan.Host), port: plan.Port, user: plan.Commands[0].Arg, pass: plan.Commands[1].Arg}
}

// A pool holds a Client's idle logged-in sessions, the oldest first.
// Its zero value is empty. A session is in it only while no request uses
// it: get takes it out, so that two requests never share one.
type pool struct {
	mu   sync.Mutex
	idle []*session
}

// get returns a logged-in session for key bound to req and ctx, in its
// login directory: an idle one, unless fresh, after a CWD back to the
// login directory when it left it; else a new login. A reused session
// the server has ended (421, a closed connection), or that cannot return
// to its login directory, is ended and the next one tried, then a new
// login. A reused session's first reply may still be an *idleEndError
// (see session.reply).
func (p *pool) get(ctx context.Context, key sessionKey, u *locator.URL, plan *Plan, req *access.Request, fresh bool) (*session, error) {
	for !fresh {
		if err := ctx.Err(); err != nil {
			return nil, err // no idle session is spent on a request already over
		}
		s := p.take(key)
		if s == nil {
			break
		}
		s.bind(ctx, req, u)
		s.retry = true
		req.Notef("the logged-in session of an earlier request is reused")
		if !s.moved {
			return s, nil
		}
		if err := s.returnHome(); err != nil {
			var ie *idleEndError
			if errors.As(err, &ie) {
				req.Notef("%v: another session follows", err)
				s.close()
			} else {
				req.Notef("the session cannot return to its login directory (%v): another session follows", err)
				s.quitAfterError(err)
			}
			continue
		}
		return s, nil
	}
	// The session may outlive this request's context: its connection is
	// opened under one that ctx's end cancels only while it connects
	// (bind closes the connection when the request's own context ends).
	dctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	conn, err := req.Dial(dctx, plan.Host, plan.Port)
	if !stop() && err == nil {
		conn.Close()
		err = ctx.Err()
	}
	if err != nil {
		cancel()
		return nil, err
	}
	s := newSession(ctx, req, u, conn)
	s.pool, s.key, s.cancel = p, key, cancel
	if s.peer == nil {
		s.close()
		return nil, &access.ProtocolError{URL: s.masked, Msg: "the control connection has no IP address for the data connections"}
	}
	if err := s.greeting(); err != nil {
		s.quitAfterError(err)
		return nil, err
	}
	if err := s.login(plan); err != nil {
		s.quitAfterError(err)
		return nil, err
	}
	return s, nil
}

// take removes and returns the newest idle session of key, or nil.
func (p *pool) take(key sessionKey) *session {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.idle) - 1; i >= 0; i-- {
		s := p.idle[i]
		if s.key != key {
			continue
		}
		p.idle = append(p.idle[:i:i], p.idle[i+1:]...)
		if s.timer.Stop() {
			return s
		}
		// Its idle time is up: the timer's function ends it.
	}
	return nil
}

// returnHome returns a reused session to its login directory (CWD with
// the directory PWD named, RFC 959 §4.1.1), so that the next URL's CWD
// sequence begins where RFC 1738 §3.2.2 begins it: after the login, its
// first CWD "executed relative to the default directory" of the user.
func (s *session) returnHome() error {
	line := "CWD " + s.home
	r, err := s.cmd(line)
	if err != nil {
		return err
	}
	if r.Class() != 2 {
		return s.refused(line, r, "the session cannot return to its login directory")
	}
	s.moved = false
	return nil
}

// cwd sends a CWD of a URL's directory sequence (or one a probe asks):
// before the session's first, "PWD" (RFC 959 §4.1.3) for the login
// directory, to which a reused session returns. A PWD not answered 257
// with a directory leaves it unknown, and the session is not reused once
// it has left it.
func (s *session) cwd(line string) (reply, error) {
	if !s.moved && !s.asked {
		s.asked = true
		r, err := s.cmd("PWD")
		if err != nil {
			return r, err
		}
		if r.Code == 257 {
			s.home, _ = quotedPath(r.Text)
		}
		if s.home == "" {
			s.req.Notef("PWD named no login directory: the session ends with this request")
		}
	}
	s.moved = true
	return s.cmd(line)
}

// release ends the request's use of the session: back in the pool when
// it is in step, in a known state and can return to its login directory,
// else ended (QUIT).
func (s *session) release() {
	p := s.pool
	if p == nil || s.conn == nil || s.spoilt || !s.unbind() || s.moved && s.home == "" {
		s.quit()
		return
	}
	s.retry = false
	// The session outlives the request: its QUIT, when it waits too long,
	// is under no request's context.
	s.rw.ctx = context.Background()
	var ended []*session
	p.mu.Lock()
	n := 0
	for _, x := range p.idle {
		if x.key == s.key {
			n++
		}
	}
	for i := 0; i < len(p.idle) && (n >= maxIdlePerServer || len(p.idle) >= maxIdle); {
		x := p.idle[i]
		if n >= maxIdlePerServer && x.key != s.key {
			i++
			continue
		}
		p.idle = append(p.idle[:i:i], p.idle[i+1:]...)
		if x.key == s.key {
			n--
		}
		if x.timer.Stop() {
			ended = append(ended, x)
		}
	}
	s.timer = time.AfterFunc(ProbeIdle, func() {
		p.mu.Lock()
		for i, x := range p.idle {
			if x == s {
				p.idle = append(p.idle[:i:i], p.idle[i+1:]...)
				break
			}
		}
		p.mu.Unlock()
		s.quit()
	})
	p.idle = append(p.idle, s)
	p.mu.Unlock()
	for _, x := range ended {
		x.quit()
	}
}

// closeAll ends every idle session with QUIT.
func (p *pool) closeAll() {
	p.mu.Lock()
	var all []*session
	for _, s := range p.idle {
		if s.timer.Stop() {
			all = append(all, s)
		}
	}
	p.idle = nil
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Add(1)
		go func() { defer wg.Done(); s.quit() }()
	}
	wg.Wait()
}

// idleEnded says err is a reused session's end (*idleEndError): the
// request begins again on a new login.
func idleEnded(err error) bool {
	var ie *idleEndError
	return errors.As(err, &ie)
}

// retried notes that the request begins again on a new login.
func retried(req *access.Request, err error) {
	req.Notef("%v: the request begins again on a new login", err)
}
