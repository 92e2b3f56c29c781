package http

import (
	"context"
	"errors"
	"fmt"
	"net"
	nethttp "net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

var _ access.Prober = client{}

// Probe says whether the object u names is there without transferring
// it: HEAD with the request target Fetch would send (RFC 9110 §9.3.2:
// "identical to GET except that the server MUST NOT send content"), and
// when the server refuses HEAD (405 Method Not Allowed, 501 Not
// Implemented) a GET of the first octet only, "Range: bytes=0-0" (RFC
// 9110 §14.1.2), whose connection is closed after the reply's head.
//
// A 2xx is Present, with Content-Length (or the length after the "/" of
// a 206's Content-Range) and Last-Modified; 416 to the ranged GET is an
// empty object, Present with size 0. 404 and 410 are Gone; every other
// 4xx and 5xx is Denied, Transient for 408, 429, 502, 503 and 504. A 3xx
// with a Location is an *access.Redirect, which access.Probe follows.
func (client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (*access.Status, error) {
	plan, err := NewRequest(u)
	if err != nil {
		return nil, err
	}
	head := *plan
	head.Method = nethttp.MethodHead
	st, err := probeOnce(ctx, u, req, &head, false)
	if err != nil || st == nil {
		return st, err
	}
	if st.Code == "405" || st.Code == "501" {
		req.Notef("HEAD refused (%s): the first octet by GET with Range: bytes=0-0 (RFC 9110 §14.1.2)", st.Code)
		return probeOnce(ctx, u, req, plan, true)
	}
	return st, nil
}

// probeOnce sends one request (plan's method; ranged asks for the first
// octet only) and reads the reply's head.
func probeOnce(ctx context.Context, u *locator.URL, req *access.Request, plan *Request, ranged bool) (*access.Status, error) {
	nreq, err := newNetRequest(ctx, u, plan)
	if err != nil {
		return nil, err
	}
	nreq.Method = plan.Method
	if ranged {
		nreq.Header.Set("Range", "bytes=0-0")
	}
	tr := &nethttp.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			p, err := strconv.Atoi(port)
			if err != nil {
				return nil, err
			}
			return req.Dial(ctx, host, p)
		},
		TLSClientConfig:        tlsConfig.Clone(),
		TLSHandshakeTimeout:    req.IdleTimeout(),
		ResponseHeaderTimeout:  req.IdleTimeout(),
		DisableCompression:     true,
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: int64(req.MaxLine()) * 16,
	}
	defer tr.CloseIdleConnections()
	c := &nethttp.Client{Transport: tr, CheckRedirect: func(*nethttp.Request, []*nethttp.Request) error { return nethttp.ErrUseLastResponse }}
	trace := &httptrace.ClientTrace{WroteHeaders: func() {
		req.Sent(plan.Method + " " + plan.Target + " HTTP/1.1")
		if ranged {
			req.Sent("Range: bytes=0-0")
		}
	}}
	resp, err := c.Do(nreq.WithContext(httptrace.WithClientTrace(ctx, trace)))
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
		st.State = access.Present
		st.Size = rangeTotal(resp.Header.Get("Content-Range"))
	case s >= 200 && s < 300:
		st.State = access.Present
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
		st.State, st.Size = access.Present, 0 // no first octet: an empty object
	case s == 404 || s == 410:
		st.State = access.Gone
	case s >= 400 && s < 600:
		st.State = access.Denied
		st.Transient = s == 408 || s == 429 || s == 502 || s == 503 || s == 504
	default:
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "reply status " + resp.Status + " is not one HTTP defines"}
	}
	if st.State != access.Present {
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
