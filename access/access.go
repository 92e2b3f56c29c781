// Package access follows URLs: a Client dispatches a URL by its scheme to
// that scheme's client and returns the object the URL names (RFC 1738 §2:
// "the algorithms that turn such a name into the object").
//
// The package knows no protocol. A Client holds what every scheme
// shares: local Policy (RFC 1738 §6: ports, hosts, decoded delimiters),
// deadlines and size limits on every connection, the redirect rule, the
// dialogue log, and one client per scheme. The outcome of an attempt is
// a typed error (ServerError, PolicyError, ProtocolError) that Classify
// turns into an Outcome.
//
// The split follows net/http's Client and Transport: policy and dispatch
// here, each protocol behind the small Fetcher interface. Each scheme
// package (ftp, http, file, gopher, ...) has a Client type that
// implements Fetcher and holds that protocol's own settings and
// connections; it registers a constructor from its init function, and a
// program links them all in with
// import _ "github.com/rfc1738/locator/schemes".
package access

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rfc1738/locator"
)

// A Fetcher retrieves the objects of one scheme.
type Fetcher interface {
	// Check reports, before any connection is made, why u cannot be
	// followed: a *PolicyError when a decoded CR, LF or NUL would reach
	// the protocol as a delimiter (RFC 1738 §6), or when the URL names
	// nothing this client can fetch (no host, a typecode it cannot
	// carry out). It must not touch the network.
	Check(u *locator.URL, req *Request) error

	// Fetch retrieves the object u names. It opens connections only
	// through req.Dial (so that policy, deadlines and the dialogue log
	// apply), bounds every read (req.MaxSize for the body, req.MaxLine
	// for a reply line, req.MaxEntries for a listing), and returns a
	// Resource, or an error: a *ServerError when the server says the
	// object does not exist or refuses it, a *ProtocolError for a
	// malformed or oversized reply, a *Redirect to have Get follow
	// another URL, or the network error.
	Fetch(ctx context.Context, u *locator.URL, req *Request) (*Resource, error)
}

// Info is what a scheme package says of its client when it registers it.
type Info struct {
	// DefaultPort is the scheme's port when the URL gives none; 0 for a
	// scheme that makes no connection (file).
	DefaultPort int
	// Methods lists the retrieval methods the client offers, the first
	// the default (the scheme client's Method field picks one, checked by
	// Request.Method); nil when there is one way.
	Methods []string
	// Resume is true when the client can begin an object at an offset
	// (Request.Offset; Client.GetFrom).
	Resume bool
	// Local is true when the scheme's URLs name objects of the machine
	// that follows them (file: RFC 1738 §3.10): a URL a server sent may
	// not be of such a scheme (Sent).
	Local bool
}

// A Resource is the object a URL names, as retrieved.
type Resource struct {
	// URL is the URL the object was retrieved from: the one given to Get,
	// or the last one followed through redirects.
	URL *locator.URL
	// Body streams the object's octets, exactly as the server sent them
	// once the protocol's own framing is undone (FTP ASCII line ends,
	// Gopher and NNTP dot-stuffing); nil for a listing. It is bounded by
	// Client.MaxSize and every read by Client.IdleTimeout. The caller
	// must Close it; Close ends the transfer (and tells the server).
	Body io.ReadCloser
	// MediaType is the object's media type, from the protocol when it
	// says one, else guessed from the name; "" when unknown.
	MediaType string
	// Size is the object's size in octets when the server says it, or
	// -1.
	Size int64
	// Modified is the object's modification time when the server says
	// it, or the zero time.
	Modified time.Time
	// Listing is set when the object is a collection (a directory, a
	// menu, a group, search results); Body is then nil.
	Listing *Listing
	// Offset is the octet of the object Body begins at: Request.Offset
	// when the server began there, 0 when it sent the whole object.
	Offset int64
}

// Close closes r's Body or Listing, if any.
func (r *Resource) Close() error {
	if r != nil && r.Listing != nil {
		return r.Listing.Close()
	}
	if r == nil || r.Body == nil {
		return nil
	}
	return r.Body.Close()
}

// A Redirect, returned by a Fetcher, asks the Client to follow Location
// instead (an HTTP 3xx, a Gopher "h" item with a URL: selector).
type Redirect struct {
	Location string // an absolute URL, or a reference resolved against the URL fetched
	Code     string // the protocol's own code ("301")
}

func (r *Redirect) Error() string { return "redirected (" + r.Code + ") to " + r.Location }

// An UnsupportedError says no client is registered for a scheme.
type UnsupportedError struct{ Scheme string }

func (e *UnsupportedError) Error() string {
	return "access: no client for scheme " + quote(e.Scheme) + " (clients: " + strings.Join(Schemes(), ", ") + ")"
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// A Question is one field of a form a server asks the person to fill
// (a Gopher+ ASK block; a Gemini request for input, status 10 or 11),
// handed to the function a scheme client asks the person with
// (Options.Ask, read through Request.Ask).
type Question struct {
	// Kind is the field's kind in the protocol's own words ("Ask",
	// "AskP", "AskL", "Choose", "Select", "Note").
	Kind    string
	Prompt  string
	Default string   // the default answer, or ""
	Choices []string // the answers to choose from, or nil
	Secret  bool     // the answer must not be echoed (a password)
	Lines   bool     // the answer may have several lines
}
