package nntp

import (
	"context"
	"errors"
	"strconv"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

var _ access.Prober = client{}

// Probe says whether the group or article u names is there without
// transferring it: MODE READER, GROUP (RFC 3977 §6.1.1), and for an
// article STAT n (§6.2.4: "223 n message-id" when it exists), then QUIT.
// 211 and 223 are Present (a group as a listing); 411 (no such group),
// 423 (no article with that number) and 430 (no article with that
// message-id) are Gone; other 4xx and 5xx answers (480 authentication
// required, 502 not permitted) Denied, 400 (service temporarily
// unavailable) Transient. One connection per probe: see ProbeStat.
func (client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (*access.Status, error) {
	a := Split(u)
	c, err := Dial(ctx, req, u.Host, u.EffectivePort())
	if err != nil {
		return ServerStatus(err)
	}
	defer c.Quit()
	if err := c.ModeReader(); err != nil {
		return ServerStatus(err)
	}
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
