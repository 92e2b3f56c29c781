package ftp

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

var (
	_ access.Prober     = (*Client)(nil)
	_ access.IdleCloser = (*Client)(nil)
)

// ProbeIdle is how long a logged-in session waits, unused, for another
// request (a probe or a retrieval) of the same server and login before
// it is ended with QUIT: long enough to outlast the requests of other
// servers in between on a busy machine, well inside the idle limits
// servers set (vsftpd's and pyftpdlib's 300 s).
const ProbeIdle = 15 * time.Second

// Probe says whether the file or directory u names is there without a
// data connection: the login and the CWD sequence RFC 1738 §3.2.2 plans
// (or the one Client.Method picks: singlecwd, nocwd), then for a file
// SIZE and MDTM (RFC 3659 §3–4; TYPE I first, so that SIZE counts the
// octets as stored), for a directory named by ";type=d" a CWD into it;
// a directory whose URL ends in "/" is there when its CWDs succeed.
//
// A 213 to SIZE or MDTM is StateOK with the size and the time; a 5yz to
// a CWD, SIZE or MDTM is StateGone, unless CWD into the name then
// succeeds (the name is a directory: StateOK, Listing); a 4yz anywhere
// (RFC 959 §4.2, "transient negative completion", 421 too many
// connections) is StateRefused and Transient; a refused login (530) is
// StateRefused. A server that offers neither SIZE nor MDTM (FEAT) is
// probed the way Fetch retrieves, its transfer ended after the first
// octets.
//
// Sessions are reused (see Client): after a probe the logged-in control
// connection waits ProbeIdle for another request by c, for the same
// access.Client, of the same host, port, user and password, which begins
// with a CWD back to the login directory (PWD before the first CWD, RFC
// 959 §4.1.3) when the probe left it. FEAT is sent once per session.
// CloseIdle (access.Client.CloseIdle) ends the idle ones with QUIT.
func (c *Client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (*access.Status, error) {
	method, err := req.Method(c.Method)
	if err != nil {
		return nil, err
	}
	plan, err := c.plan(u)
	if err != nil {
		return nil, err
	}
	if err := credentials(u, plan, req); err != nil {
		return nil, err
	}
	key := poolKey(plan, req)
	for fresh := false; ; fresh = true {
		s, err := c.sessions.get(ctx, key, u, plan, req, fresh)
		if err != nil {
			return statusOf(err)
		}
		st, err := s.probe(plan, method)
		switch {
		case !fresh && idleEnded(err):
			retried(req, err)
			s.close()
			continue
		case err != nil && !isAnswer(err):
			s.close()
		case errors.Is(err, errFallback):
			s.release()
			return probeByFetch(ctx, c, u, req)
		default:
			s.release()
		}
		if err != nil {
			return statusOf(err)
		}
		return st, nil
	}
}

// CloseIdle ends every idle session of c (a probe's, a retrieval's) with
// QUIT.
func (c *Client) CloseIdle() { c.sessions.closeAll() }

// errFallback says the server offers neither SIZE nor MDTM.
var errFallback = errors.New("ftp: neither SIZE nor MDTM is offered")

// probeByFetch probes through Fetch, reading at most a few octets.
func probeByFetch(ctx context.Context, c *Client, u *locator.URL, req *access.Request) (*access.Status, error) {
	req.Notef("the server offers neither SIZE nor MDTM: the object is retrieved and the transfer ended after its first octets")
	res, err := c.Fetch(ctx, u, req)
	if err != nil {
		return statusOf(err)
	}
	st := &access.Status{State: access.StateOK, Size: res.Size, Modified: res.Modified, Listing: res.Listing != nil}
	if res.Body != nil {
		var b [16]byte
		res.Body.Read(b[:])
	}
	res.Close() // a listing's Close ends its session (ABOR, QUIT)
	return st, nil
}

// isAnswer says the session is still in step after err: the server
// answered a command.
func isAnswer(err error) bool {
	var se *access.ServerError
	return errors.Is(err, errFallback) || errors.As(err, &se)
}

// statusOf turns a server's answer into a Status; other errors are
// returned as they are, for access.Client.Probe to classify.
func statusOf(err error) (*access.Status, error) {
	var se *access.ServerError
	if !errors.As(err, &se) {
		return nil, err
	}
	st := &access.Status{Code: se.Code, Text: se.Text, Command: se.Command, Size: -1, Err: err}
	switch {
	case strings.HasPrefix(se.Code, "4"):
		st.State, st.Transient = access.StateRefused, true
	case se.Command == "" || strings.HasPrefix(se.Command, "USER") || strings.HasPrefix(se.Command, "PASS"):
		st.State = access.StateRefused // the greeting or the login refused
	default:
		st.State = access.StateGone
	}
	return st, nil
}

// quotedPath reads the directory of a 257 reply, `"/pub" is the
// current directory`, with RFC 959 Appendix II's doubled quotes.
func quotedPath(text string) (string, bool) {
	i := strings.IndexByte(text, '"')
	if i < 0 {
		return "", false
	}
	var b strings.Builder
	for j := i + 1; j < len(text); j++ {
		if text[j] == '"' {
			if j+1 < len(text) && text[j+1] == '"' {
				b.WriteByte('"')
				j++
				continue
			}
			return b.String(), b.Len() > 0
		}
		b.WriteByte(text[j])
	}
	return "", false
}

// probe carries out the probe's commands on a logged-in session in its
// login directory: FEAT first, when the session has not asked it.
func (s *session) probe(plan *Plan, method string) (*access.Status, error) {
	if s.feat == nil {
		if err := s.features(); err != nil {
			return nil, err
		}
	}
	steps := plan.Commands[2:]
	switch method {
	case MethodSingleCWD:
		steps = singleCWD(steps)
	case MethodNoCWD:
		steps = noCWD(steps)
	}
	for _, c := range steps {
		line := c.String()
		switch c.Verb {
		case "CWD":
			r, err := s.cwd(line)
			if err != nil {
				return nil, err
			}
			if r.Class() != 2 {
				return nil, s.refused(line, r, "RFC 1738 §3.2.2: this CWD of the URL's directory sequence failed")
			}
		case "TYPE":
			// SIZE is asked in TYPE I below, whatever the typecode.
		case "NLST":
			st := &access.Status{State: access.StateOK, Size: -1, Listing: true, Code: "250", Command: "CWD"}
			if c.HasArg && c.Arg != "" {
				line := "CWD " + c.Arg
				r, err := s.cwd(line)
				if err != nil {
					return nil, err
				}
				if r.Class() != 2 {
					return nil, s.refused(line, r, "the directory ;type=d names")
				}
				st.Code, st.Text, st.Command = strconv.Itoa(r.Code), r.Text, line
			}
			return st, nil
		case "RETR":
			return s.file(c.Arg)
		}
	}
	return nil, &access.ProtocolError{URL: s.masked, Msg: "the plan ends without RETR or NLST"}
}

// file asks SIZE and MDTM of name.
func (s *session) file(name string) (*access.Status, error) {
	if !s.has("SIZE") && !s.has("MDTM") {
		return nil, errFallback
	}
	st := &access.Status{State: access.StateOK, Size: -1}
	var refusal error
	if s.has("SIZE") {
		if r, err := s.cmd("TYPE I"); err != nil {
			return nil, err
		} else if r.Class() != 2 {
			return nil, s.refused("TYPE I", r, "")
		}
		s.typ = "I"
		line := "SIZE " + name
		r, err := s.cmd(line)
		if err != nil {
			return nil, err
		}
		if r.Code == 213 {
			if n, err := strconv.ParseInt(strings.TrimSpace(r.Text), 10, 64); err == nil && n >= 0 {
				st.Size = n
			}
			st.Code, st.Text, st.Command = "213", r.Text, line
		} else {
			refusal = s.refused(line, r, "")
		}
	}
	if refusal == nil && s.has("MDTM") {
		line := "MDTM " + name
		r, err := s.cmd(line)
		if err != nil {
			return nil, err
		}
		if r.Code == 213 {
			if t, ok := parseTimeVal(strings.TrimSpace(r.Text)); ok {
				st.Modified = t
			}
			if st.Code == "" {
				st.Code, st.Text, st.Command = "213", r.Text, line
			}
		} else if st.Code == "" {
			refusal = s.refused(line, r, "")
		}
	}
	if refusal == nil {
		return st, nil
	}
	var se *access.ServerError
	if errors.As(refusal, &se) && strings.HasPrefix(se.Code, "5") {
		// SIZE and MDTM are for files: a directory of that name is
		// there all the same (RETR would fail on it; a listing of it
		// would not).
		line := "CWD " + name
		r, err := s.cwd(line)
		if err != nil {
			return nil, err
		}
		if r.Class() == 2 {
			return &access.Status{State: access.StateOK, Size: -1, Listing: true, Code: strconv.Itoa(r.Code), Text: r.Text, Command: line}, nil
		}
	}
	return nil, refusal
}
