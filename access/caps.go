package access

import (
	"bufio"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/dest"
)

// The capabilities below are what the layers above access (a crawl, a
// link checker, a gateway) ask of a scheme's client without naming its
// protocol, as database/sql asks a driver for the optional interfaces
// of package driver: Client.Fetcher returns the client, and a type
// assertion says whether it can.

// Fetcher returns the scheme client c follows scheme's URLs with (in
// lower case): the one Schemes configures, or the one c made with the
// constructor the scheme's package registered. A scheme with no client
// is an *UnsupportedError.
func (c *Client) Fetcher(scheme string) (Fetcher, error) {
	f, _, err := c.fetcher(scheme)
	return f, err
}

// Check applies to u, with the request's own values opts (nil: none),
// what Get applies before any connection: the Policy and the scheme
// client's Check. It touches no network: a program asks it whether a
// URL can be followed as it stands (a search service whose URL gives no
// words is refused without Options.Search, accepted with it).
func (c *Client) Check(u *locator.URL, opts *Options) error {
	_, _, err := c.start(u, 0, opts)
	return err
}

// A Destinationer is a scheme client whose URLs may be followed at a
// server other than the one they name: a news URL that names none is
// asked of the configured news server (RFC 1738 §3.6). Destination
// returns the host the client would connect to for u, "" when it knows
// none (u is then refused before any connection), or ok false when u
// names its server itself.
type Destinationer interface {
	Destination(u *locator.URL) (host string, ok bool)
}

// Destination returns the server a request for u is made to, its host
// decoded and in lower case (any port, however the name is written), as
// a bound on requests per server counts it: the host u names, or the one
// its scheme's client says (Destinationer); "" for a URL whose scheme
// names objects of the machine that follows it (file, RFC 1738 §3.10)
// and for one whose client knows no server.
func (c *Client) Destination(u *locator.URL) string {
	f, info, err := c.fetcher(u.Scheme())
	if err == nil && info.Local {
		return ""
	}
	if d, ok := f.(Destinationer); ok && err == nil {
		if h, ok := d.Destination(u); ok {
			if h == "" {
				return ""
			}
			return dest.Name(h)
		}
	}
	return dest.Name(u.Host())
}

// A Pather is a scheme client whose URLs name their object by a string
// other than the URL's path: a Gopher selector, which the gophertype
// precedes in the path (RFC 1738 §3.4: "/1/dir/" and "/0/dir/file" are
// of one directory). ObjectPath returns it, what a crawl's scope
// prefixes and robots.txt rules (RFC 9309 §2.2.2) are matched against,
// or ok false when u cannot be read.
type Pather interface {
	ObjectPath(u *locator.URL) (path string, ok bool)
}

// A BodyChecker is a scheme client whose servers may send, in place of
// an object they do not have, a body that says so in words rather than
// by the protocol (a Gopher server's one line "Error: ..." for a text
// item, RFC 1436 §3.8). CheckBody is given br, a reader of u's body
// that has read nothing yet: it may Peek at up to br.Size() octets but
// not read, and it returns the *ServerError the body stands for, or nil.
type BodyChecker interface {
	CheckBody(u *locator.URL, br *bufio.Reader) error
}

// A ViewLister is a scheme client whose listings can be asked, with one
// more request, for the views (representations) each of their items
// offers: a Gopher+ menu's attributes (RFC 1738 §3.4.6; Gopher+ §2.7,
// the Gopher+ string "$"), each item's +VIEWS in its Entry's Parts
// ("views", a list of maps whose "name" is the view's Name).
type ViewLister interface {
	// ViewsURL returns the URL of that request for the listing u, or
	// nil when u is not a listing that offers it.
	ViewsURL(u *locator.URL) *locator.URL
	// ViewURL returns the URL that asks for view (a View's Name) of the
	// object item names (RFC 1738 §3.4.8: "+view%20language").
	ViewURL(item *locator.URL, view string) (string, error)
}

// An AgentNamer is a scheme client whose requests can name the program
// that makes them (HTTP's User-Agent, RFC 9110 §10.1.5). WithAgent
// returns a new client configured as this one whose requests name
// agent, unless this one's configuration names one already.
type AgentNamer interface {
	WithAgent(agent string) Fetcher
}

// A Confiner is a scheme client that, unless told otherwise, keeps what
// it learns of servers in the person's own files: the certificates a
// Gemini client trusts on first use (Gemini §4.2). Confined returns a
// client configured as this one that keeps them in memory instead when
// its configuration names no place for them, or this one when it does.
// A program that follows URLs on behalf of others (a gateway) asks it,
// so that their requests neither fill nor decide its operator's files.
type Confiner interface {
	Confined() Fetcher
}
