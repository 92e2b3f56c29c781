package nntp

import (
	"context"
	"fmt"
	"io"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// The client follows nntp URLs for package access (RFC 1738 §3.7):
// nntp://host:port/group/n is GROUP then ARTICLE n (RFC 977 §3.2.1,
// §3.1.1) and delivers the article; nntp://host:port/group is GROUP and
// the group's overview, a listing whose entries are the articles' nntp
// URLs. MODE READER is sent first (RFC 3977 §5.3). Options.Method picks
// how the overview is read (Methods).
func init() {
	access.Register("nntp", access.Info{DefaultPort: 119, Methods: Methods}, client{})
}

type client struct{}

// ArgOffset returns the offset in the encoded text enc of the first
// octet that, once %XX escapes are decoded, CheckArg refuses (CR, LF,
// NUL, space, TAB) or extra holds; -1 when there is none.
func ArgOffset(enc, extra string) int {
	for i := 0; i < len(enc); i++ {
		c, w := enc[i], 1
		if c == '%' && i+2 < len(enc) && locator.IsHex(enc[i+1]) && locator.IsHex(enc[i+2]) {
			c, w = unhex(enc[i+1])<<4|unhex(enc[i+2]), 3
		}
		if CheckArg(string(c)) >= 0 || strings.IndexByte(extra, c) >= 0 {
			return i
		}
		i += w - 1
	}
	return -1
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// ArgPolicyError is the refusal of an octet at offset (in the URL's
// input) that would break an NNTP command line: CR, LF and NUL under
// RFC 1738 §6, a space or TAB under RFC 3977 §3.1 (it would split the
// argument in two).
func ArgPolicyError(u *locator.URL, offset int, c byte) *access.PolicyError {
	rule, what := "RFC 3977 §3.1", "would split the NNTP command's argument in two"
	if c == '\r' || c == '\n' || c == 0 {
		rule, what = "RFC 1738 §6", "would end the NNTP command line and begin another"
	}
	return &access.PolicyError{URL: access.Masked(u), Offset: offset, Rule: rule,
		Reason: fmt.Sprintf("decoded octet %%%02X %s", c, what)}
}

// decodedAt returns the octet of enc at i, decoded when it begins an
// escape.
func decodedAt(enc string, i int) byte {
	if enc[i] == '%' && i+2 < len(enc) && locator.IsHex(enc[i+1]) && locator.IsHex(enc[i+2]) {
		return unhex(enc[i+1])<<4 | unhex(enc[i+2])
	}
	return enc[i]
}

// Check refuses, before any connection, an nntp URL with no host (§3.7:
// nntp URLs name their server), no group, an article number that is not
// digits or anything after it, and a group that, decoded, holds CR, LF,
// NUL (§6), a space or a TAB (RFC 3977 §3.1): it would break the GROUP
// command line.
func (client) Check(u *locator.URL, req *access.Request) error {
	if !u.HasAuthority() || u.Host() == "" {
		return &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.HostComponent), Rule: "RFC 1738 §3.7", Reason: "an nntp URL names the server to connect to: nntp://<host>:<port>/<group>/<article>"}
	}
	base := u.Offset(locator.PathComponent)
	g, rest, found := strings.Cut(u.Path(), "/")
	if g == "" {
		return &access.PolicyError{URL: access.Masked(u), Offset: base, Rule: "nntpurl", Reason: "an nntp URL names a newsgroup after the host (RFC 1738 §3.7)"}
	}
	if i := ArgOffset(g, ""); i >= 0 {
		return ArgPolicyError(u, base+i, decodedAt(g, i))
	}
	if found {
		num, _, more := strings.Cut(rest, "/")
		if !isDigits(num) || more {
			return &access.PolicyError{URL: access.Masked(u), Offset: base + len(g) + 1, Rule: "nntpurl", Reason: "an article is named by its number alone: nntp://<host>:<port>/<group>/<article-number> (RFC 1738 §5 nntpurl); found " + strconv.Quote(rest)}
		}
	}
	return nil
}

// Fetch connects, sends MODE READER and GROUP, then ARTICLE n (the
// article's octets, dot-stuffing undone) or reads the group's overview
// (a listing of nntp URLs, read line by line as the caller asks). 411, 423 and other refusals are
// *access.ServerError.
func (client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	method, err := req.Method()
	if err != nil {
		return nil, err
	}
	a := Split(u)
	c, err := Dial(ctx, req, u.Host(), u.EffectivePort())
	if err != nil {
		return nil, err
	}
	res, err := fetch(c, u, req, a, method)
	if err != nil {
		c.Close()
	}
	return res, err
}

func fetch(c *Conn, u *locator.URL, req *access.Request, a Article, method string) (*access.Resource, error) {
	if err := c.ModeReader(); err != nil {
		return nil, err
	}
	g, err := c.Group(a.Group)
	if err != nil {
		return nil, err
	}
	if a.HasNumber {
		d, err := c.Article(a.Number)
		if err != nil {
			return nil, err
		}
		return &access.Resource{Body: req.Limit(c.Body(d)), Size: -1}, nil
	}
	next, err := c.OverviewStream(g, g.Low, g.High, method)
	if err != nil {
		return nil, err
	}
	l := c.Listing(func() (access.Entry, error) {
		o, err := next()
		if err != nil {
			return access.Entry{}, err
		}
		e := Entry(o)
		e.URL, _ = Build(Ref{Host: u.Host(), Port: u.Port(), Article: Article{Group: a.Group, Number: strconv.FormatInt(o.Number, 10), HasNumber: true}})
		return e, nil
	})
	return &access.Resource{Listing: l, Size: -1}, nil
}

// Entry returns the listing entry of an article's overview, without its
// URL (the scheme's builder writes it): Name is the subject, Size the
// ":bytes", Modified the Date header when it reads as a date (RFC 5322
// §3.3), and Parts the number, from, date, message-id and lines.
func Entry(o Overview) access.Entry {
	e := access.Entry{Name: o.Subject, Type: access.TypeArticle, Size: o.Bytes, Modified: ParseDate(o.Date),
		Parts: map[string]any{"number": o.Number, "from": o.From, "date": o.Date, "message-id": o.MessageID}}
	if o.Lines >= 0 {
		e.Parts["lines"] = o.Lines
	}
	return e
}

// ParseDate reads a Date header (RFC 5322 §3.3, RFC 5536 §3.1.1), or
// returns the zero time.
func ParseDate(s string) time.Time {
	t, err := mail.ParseDate(s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// Body returns d as the body of a Resource: closing it sends QUIT when
// the article was read to its end, and closes the connection.
func (c *Conn) Body(d *DotReader) io.ReadCloser { return &body{d: d, c: c} }

type body struct {
	d *DotReader
	c *Conn
}

func (b *body) Read(p []byte) (int, error) { return b.d.Read(p) }

func (b *body) Close() error {
	if b.d.Done() {
		return b.c.Quit()
	}
	return b.c.Close()
}
