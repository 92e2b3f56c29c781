package gopher

import (
	"bufio"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// What the layers above access (a crawl) ask of a gopher client without
// naming Gopher: where a URL's object is, a refusal written as a text
// item, and the views of a Gopher+ menu's items.
var (
	_ access.Pather      = (*Client)(nil)
	_ access.BodyChecker = (*Client)(nil)
	_ access.ViewLister  = (*Client)(nil)
)

// ObjectPath returns the selector of the gopher URL u (RFC 1738 §3.4:
// the gophertype precedes it in the path, so "/1/dir/" and
// "/0/dir/file" are of one directory), or ok false when u is not a
// gopher URL.
func (c *Client) ObjectPath(u *locator.URL) (string, bool) {
	g, err := From(u)
	if err != nil {
		return "", false
	}
	return g.Selector, true
}

// CheckBody returns the error a Gopher server sent in place of a text
// item (type 0, RFC 1436 §3.8) that does not exist, or nil. A type-3
// error line Fetch says itself; Gophernicus answers a selector that
// names no file with one line of text, "Error: File or directory not
// found!", and nothing after it: a reply that is that one line is read
// as the refusal it is.
func (c *Client) CheckBody(u *locator.URL, br *bufio.Reader) error {
	if g, err := From(u); err != nil || g.Type != "0" {
		return nil
	}
	head, err := br.Peek(br.Size())
	if err == nil {
		return nil // more than one short line
	}
	line := strings.TrimRight(string(head), "\r\n")
	if strings.ContainsAny(line, "\r\n") || !strings.HasPrefix(line, "Error: ") {
		return nil
	}
	return &access.ServerError{URL: access.Masked(u), Code: "3", Text: line,
		Rule: "the whole reply to a text item's selector is one line \"Error: ...\" (Gophernicus's answer for a selector that names no file)"}
}

// ViewsURL returns, for a Gopher menu (type 1) asked for without a
// Gopher+ string, the URL that asks for the attributes of all its items
// at once (the Gopher+ string "$", RFC 1738 §3.4.6; Gopher+ §2.7);
// nil for any other URL.
func (c *Client) ViewsURL(u *locator.URL) *locator.URL {
	g, err := From(u)
	if err != nil || g.Type != "1" || g.HasPlus {
		return nil
	}
	g.HasSearch, g.HasPlus, g.Plus = true, true, "$"
	s, err := g.Build()
	if err != nil {
		return nil
	}
	au, err := locator.Parse(s)
	if err != nil {
		return nil
	}
	return au
}

// ViewURL returns the URL that asks for the view named view (the media
// type and, after a space, the language) of the item item: its Gopher+
// string "+view" (RFC 1738 §3.4.8).
func (c *Client) ViewURL(item *locator.URL, view string) (string, error) {
	g, err := From(item)
	if err != nil {
		return "", err
	}
	g.HasSearch, g.HasPlus, g.Plus = true, true, "+"+view
	return g.Build()
}
