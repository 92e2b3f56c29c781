package http

import (
	"context"
	"errors"
	"fmt"
	nethttp "net/http"
	"net/http/httptrace"
	"net/url"
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
// access.Client follows. Through a Proxy the requests go as Fetch's do.
func (c *Client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (*access.Status, error) {
	plan, tunnel, err := c.plan(u)
	if err != nil {
		return nil, err
	}
	head := *plan
	head.Method = nethttp.MethodHead
	st, err := c.probeOnce(ctx, u, req, &head, tunnel, false)
	if err != nil || st == nil {
		return st, err
	}
	if st.Code == "405" || st.Code == "501" {
		req.Notef("HEAD refused (%s): the first octet by GET with Range: bytes=0-0 (RFC 9110 §14.1.2)", st.Code)
		return c.probeOnce(ctx, u, req, plan, tunnel, true)
	}
	return st, nil
}

// probeOnce sends one request (plan's method; ranged asks for the first
// octet only) and reads the reply's head.
func (c *Client) probeOnce(ctx context.Context, u *locator.URL, req *access.Request, plan, tunnel *Request, ranged bool) (*access.Status, error) {
	nreq, err := c.newNetRequest(ctx, u, plan)
	if err != nil {
		return nil, err
	}
	nreq.Method = plan.Method
	if ranged {
		nreq.Header.Set("Range", "bytes=0-0")
	}
	tr := c.transport(u, req, tunnel)
	defer tr.CloseIdleConnections()
	hc := &nethttp.Client{Transport: tr, CheckRedirect: func(*nethttp.Request, []*nethttp.Request) error { return nethttp.ErrUseLastResponse }}
	trace := &httptrace.ClientTrace{WroteHeaders: func() {
		req.Sent(plan.Method + " " + plan.Target + " HTTP/1.1")
		if ranged {
			req.Sent("Range: bytes=0-0")
		}
	}}
	resp, err := hc.Do(nreq.WithContext(httptrace.WithClientTrace(ctx, trace)))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("%s: %w", access.Masked(u), err)
	}
	resp.Body.Close() // HEAD has none; the ranged GET's octet is not wanted
	req.Received(resp.Proto + " " + resp.Status)
	code := strconv.Itoa(resp.StatusCode)
	st := &access.Status{Code: code, Text: strings.TrimSpace(strings.TrimPrefix(resp.Status, code)), Command: plan.Method + " " + plan.Target, Size: -1}
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
	_, total, ok := strings.Cut(v, "/")
	if !ok {
		return -1
	}
	n, err := strconv.ParseInt(strings.TrimSpace(total), 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}
