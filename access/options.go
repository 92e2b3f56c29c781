package access

import (
	"context"

	"github.com/rfc1738/locator"
)

// Options are the values of one request, as net/http's Request carries
// what belongs to one exchange while its Client is made once and shared:
// a Client and its scheme clients hold only configuration and the
// connections they keep (an FTP login, an NNTP session, HTTP
// keep-alive), and every request gives its own search words, view, form
// answers and password through Options. A nil *Options is the zero
// value: every field unset.
type Options struct {
	// Offset is the octet the object is to begin at (GetFrom); 0 for the
	// whole object.
	Offset int64
	// Search holds the search words for a search service whose URL
	// gives none: a Gopher type 7 item (RFC 1738 §3.4.2), a WAIS
	// database (RFC 1738 §3.9).
	Search string
	// View names the representation to ask for (RFC 1738 §3.4.8 for
	// Gopher+; a WAIS document's type, RFC 1738 §3.9), as View.Name
	// writes it.
	View string
	// Answers fills a form the server asks to be filled (a Gopher+ ASK
	// block, RFC 1738 §3.4.5; a Gemini request for input, Gemini §3.2.1),
	// by a question's prompt or its number from 1.
	Answers map[string]string
	// Ask, when not nil, asks the person for an answer Answers does not
	// give; nil means there is nobody to ask.
	Ask func(Question) (string, error)
	// Password, when not nil, asks for a password the URL does not give
	// (RFC 1738 §3.2.1) in place of Client.Password, for this request.
	Password func(prompt string) (string, error)
}

// Do follows u as GetFrom does, with the request's own values opts
// (nil: none), which the scheme clients read through the Request
// (Request.Search, View, Answers, Ask, Password).
func (c *Client) Do(ctx context.Context, u *locator.URL, opts *Options) (*Resource, error) {
	if opts == nil {
		opts = &Options{}
	}
	return c.get(ctx, u, opts)
}

// StatWith is Stat with the request's own values opts (nil: none).
func (c *Client) StatWith(ctx context.Context, u *locator.URL, opts *Options) (*Status, error) {
	st, err := c.stat(ctx, u, opts)
	if err == nil && st.State != StateOK {
		return st, &ServerError{URL: Masked(st.URL), Command: st.Command, Code: st.Code, Text: st.Text}
	}
	return st, err
}

// ProbeWith is Probe with the request's own values opts (nil: none).
func (c *Client) ProbeWith(ctx context.Context, u *locator.URL, opts *Options) *Status {
	st, _ := c.stat(ctx, u, opts)
	return st
}

// Search returns the search words the request gives for a search
// service whose URL gives none (Options.Search), "" for none.
func (r *Request) Search() string { return r.options().Search }

// View returns the representation the request asks for (Options.View),
// "" for the default.
func (r *Request) View() string { return r.options().View }

// Answers returns the request's answers to a form (Options.Answers),
// nil for none. The map is the caller's: a scheme client reads it only.
func (r *Request) Answers() map[string]string { return r.options().Answers }

// Ask returns the function that asks the person a question for this
// request (Options.Ask), nil when there is nobody to ask.
func (r *Request) Ask() func(Question) (string, error) { return r.options().Ask }

// WithOptions returns a new Request that is r with the request's own
// values opts (nil: none), its Offset among them, as net/http's
// Request.WithContext: for a program that hands a scheme client a
// Request it made itself (a test of the client, a replay of one record).
func (r *Request) WithOptions(opts *Options) *Request {
	n := &Request{Client: r.Client, URL: r.URL, Dialogue: r.Dialogue, Proxy: r.Proxy, info: r.info, hop: r.hop, opts: opts, fromServer: r.fromServer}
	if opts != nil {
		n.offset = opts.Offset
	}
	return n
}

// options returns the request's Options: a Request made by hand, not by
// a Client, has none.
func (r *Request) options() *Options {
	if r.opts == nil {
		return &Options{}
	}
	return r.opts
}
