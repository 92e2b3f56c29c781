package http

import (
	"context"
	nethttp "net/http"
	"net/http/httptrace"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

var _ access.Prober = (*Client)(nil)

// Probe says whether the object u names is there without transferring
// it: HEAD with the request target Fetch would send (RFC 9110 §9.3.2:
// "identical to GET except that the server MUST NOT send content"), and
// when the server refuses HEAD (405 Method Not Allowed, 501 Not
// Implemented) a GET of the first octet only, "Range: bytes=0-0" (RFC
// 9110 §14.1.2), whose connection is closed after the reply's head.
//
// A 2xx is StateOK, with Content-Length (or the length after the "/" of
// a 206's Content-Range) and Last-Modified; 416 to the ranged GET is an
// empty object, StateOK with size 0. 404 and 410 are StateGone; every
// other 4xx and 5xx is StateRefused, Transient for 408, 429, 502, 503 and
// 504. A 3xx with a Location is an *access.Redirect, which the
// access.Client follows. Through a proxy (access.Request.Proxy) the
// requests go as Fetch's do, for a URL of any scheme.
func (c *Client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (*access.Status, error) {
	plan, tunnel, proxy, err := c.plan(u, req)
	if err != nil {
		return nil, err
	}
	head := *plan
	head.Method = nethttp.MethodHead
	st, err := c.probeOnce(ctx, u, req, &head, tunnel, proxy, false)
	if err != nil || st == nil {
		return st, err
	}
	if st.Code == "405" || st.Code == "501" {
		req.Notef("HEAD refused (%s): the first octet by GET with Range: bytes=0-0 (RFC 9110 §14.1.2)", st.Code)
		return c.probeOnce(ctx, u, req, plan, tunnel, proxy, true)
	}
	return st, nil
}

// probeOnce sends one request (plan's method; ranged asks for the first
// octet only) and reads the reply's head.
func (c *Client) probeOnce(ctx context.Context, u *locator.URL, req *access.Request, plan, tunnel *Request, proxy string, ranged bool) (*access.Status, error) {
	nreq, err := c.newNetRequest(ctx, u, req, plan, true)
	if err != nil {
		return nil, err
	}
	nreq.Method = plan.Method
	if ranged {
		nreq.Header.Set("Range", "bytes=0-0")
	}
	if err := allow(req, plan, proxy); err != nil {
		return nil, err
	}
	tr := c.transport(req, proxy, true)
	hc := &nethttp.Client{Transport: tr, CheckRedirect: func(*nethttp.Request, []*nethttp.Request) error { return nethttp.ErrUseLastResponse }}
	target := shownTarget(u, plan)
	var tap *headTap
	trace := &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if info.Reused {
				req.Notef("the connection of an earlier request is reused (RFC 9112 §9.3)")
			}
			if t, _ := tapOf(info.Conn); t != nil && c.OnReply != nil {
				t.begin()
				tap = t
			}
		},
		WroteHeaders: func() {
			req.Sent(plan.Method + " " + target + " HTTP/1.1")
			if ranged {
				req.Sent("Range: bytes=0-0")
			}
		},
	}
	d := &dialInfo{req: req, u: u, tunnel: tunnel, proxy: proxy}
	resp, err := hc.Do(nreq.WithContext(context.WithValue(httptrace.WithClientTrace(ctx, trace), dialKey{}, d)))
	var raw []byte
	if tap != nil {
		raw = tap.take()
	}
	if err != nil {
		who := ""
		if tunnel == nil {
			who = proxy
		}
		return nil, replyError(u, who, err)
	}
	// HEAD has no body, and its connection is kept; the ranged GET's
	// octet is not wanted, and its connection is closed.
	resp.Body.Close()
	if !c.kept(tr) {
		tr.CloseIdleConnections()
	}
	c.report(u, resp, raw)
	req.Received(resp.Proto + " " + resp.Status)
	code := strconv.Itoa(resp.StatusCode)
	st := &access.Status{Code: code, Text: strings.TrimSpace(strings.TrimPrefix(resp.Status, code)), Command: plan.Method + " " + target, Size: -1}
	if lm := resp.Header.Get("Last-Modified"); lm != "" {
		if t, err := nethttp.ParseTime(lm); err == nil {
			st.Modified = t
		}
	}
	switch s := resp.StatusCode; {
	case s == 206:
		st.State = access.StateOK
		st.Size = rangeTotal(resp.Header.Get("Content-Range"))
	case s >= 200 && s < 300:
		st.State = access.StateOK
		if !ranged {
			st.Size = resp.ContentLength
		}
	case s >= 300 && s < 400:
		loc := resp.Header.Get("Location")
		if loc == "" {
			return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "reply " + resp.Status + " without a Location"}
		}
		return nil, &access.Redirect{Location: loc, Code: code}
	case s == 416 && ranged:
		st.State, st.Size = access.StateOK, 0 // no first octet: an empty object
	case s == 404 || s == 410:
		st.State = access.StateGone
	case s >= 400 && s < 600:
		st.State = access.StateRefused
		st.Transient = s == 408 || s == 429 || s == 502 || s == 503 || s == 504
	default:
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "reply status " + resp.Status + " is not one HTTP defines"}
	}
	if st.State != access.StateOK {
		st.Err = &access.ServerError{URL: access.Masked(u), Command: st.Command, Code: code, Text: st.Text}
	}
	return st, nil
}

// rangeTotal reads the complete length of a Content-Range "bytes
// 0-0/1234" (RFC 9110 §14.4), or -1 when it is "*" or malformed.
func rangeTotal(v string) int64 {
	_, _, complete, ok := contentRange(v)
	if !ok {
		return -1
	}
	return complete
}

// contentRange reads a Content-Range field value of the unit bytes (RFC
// 9110 §14.4):
//
//	Content-Range     = range-unit SP ( range-resp / unsatisfied-range )
//	range-resp        = incl-range "/" ( complete-length / "*" )
//	incl-range        = first-pos "-" last-pos
//	unsatisfied-range = "*/" complete-length
//
// It returns the first and last octet positions (first -1 for an
// unsatisfied-range) and the complete length (-1 for "*"). ok is false
// for anything else: another unit, a missing or extra part, a number
// that is not 1*DIGIT or overflows, last before first, or a last at or
// past a known complete length (§14.4: "an invalid ... range-resp").
// The unit is matched without regard to case (§14.1).
func contentRange(v string) (first, last, complete int64, ok bool) {
	unit, rest, found := strings.Cut(v, " ")
	if !found || !strings.EqualFold(unit, "bytes") {
		return 0, 0, 0, false
	}
	rng, length, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, 0, false
	}
	if rng == "*" {
		complete, ok = digits(length)
		return -1, -1, complete, ok
	}
	f, l, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, 0, false
	}
	if first, ok = digits(f); !ok {
		return 0, 0, 0, false
	}
	if last, ok = digits(l); !ok || last < first {
		return 0, 0, 0, false
	}
	if length == "*" {
		return first, last, -1, true
	}
	if complete, ok = digits(length); !ok || last >= complete {
		return 0, 0, 0, false
	}
	return first, last, complete, true
}

// digits reads 1*DIGIT as a non-negative int64; ok is false for
// anything else, a sign or space included, and on overflow.
func digits(s string) (int64, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
