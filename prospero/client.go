package prospero

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os/user"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// privilegedPort is Prospero's privileged port: a server that can bind
// it answers from it even to a request sent to 1525
// (prospero-udp-ports.txt: "it should not reject a response simply
// because the server port changed").
const privilegedPort = 191

// nameComponentField is the field of a Prospero URL that names a link
// within the directory its hsoname names: the link's name-component
// (Prospero §"Link Attributes"), one of the "fields and values
// associated with a Prospero link" that "serve to identify the target of
// the URL" (RFC 1738 §3.11). Listings write it for links that are not
// Prospero objects of their own (EXTERNAL and SYMBOLIC links).
const nameComponentField = "NAME-COMPONENT"

// versionField is RFC 1738 §3.11's example field: "the OBJECT-VERSION
// field can be specified to identify a specific version of an object";
// it is sent as the object-version of DIRECTORY and GET-OBJECT-INFO.
const versionField = "OBJECT-VERSION"

func init() {
	access.Register("prospero", access.Info{DefaultPort: defaultPort}, func() access.Fetcher { return new(Client) })
}

// Client follows Prospero URLs for package access (RFC 1738 §3.11),
// speaking the Prospero Directory Service protocol over ARDP datagrams
// (access.Request.DialPacket); see Fetch. Its zero value is ready; it
// keeps no connection between requests.
type Client struct {
	// Follow has an object's access methods followed instead of listed:
	// Fetch redirects to the first whose scheme has a client and that
	// is not a file of this machine (RFC 1738 §3.11: an access method
	// says how the object is retrieved).
	Follow bool
}

// plan is what a Prospero URL asks of the server.
type plan struct {
	pr        *URL
	version   string   // object-version, "" for the current
	component string   // the link's name-component within the directory, or ""
	attrs     []string // the 1993 draft's attributes, asked for too
	follow    bool     // Client.Follow
}

func planOf(u *locator.URL) (*plan, error) {
	pr, err := From(u)
	if err != nil {
		return nil, err
	}
	p := &plan{pr: pr}
	at := u.Offset(locator.PathComponent)
	refuse := func(off int, reason string) error {
		return &access.PolicyError{URL: access.Masked(u), Offset: off, Rule: "RFC 1738 §3.11", Reason: reason}
	}
	if pr.HasVersion {
		p.version = pr.Version
		p.attrs = pr.Attributes
	}
	sp := splitPath(u.Path())
	for i, f := range pr.Fields {
		off := at + sp.fields[i][0] // the field's name
		switch strings.ToUpper(f.Name) {
		case versionField:
			if f.Value == "" || notDigit(f.Value) >= 0 {
				return nil, refuse(off, "OBJECT-VERSION is a version number (digits), not "+strconv.Quote(f.Value))
			}
			p.version = f.Value
		case nameComponentField:
			if f.Value == "" {
				return nil, refuse(off, "NAME-COMPONENT names a link: it is not empty")
			}
			if strings.IndexByte(f.Value, 0) >= 0 {
				return nil, refuse(off, "a decoded NUL is the one octet a Prospero token cannot quote (Prospero §2.1)")
			}
			p.component = f.Value
		default:
			return nil, refuse(off, "the field "+strconv.Quote(f.Name)+" is not one this client can honour (OBJECT-VERSION, NAME-COMPONENT): it would not identify the target")
		}
	}
	if p.version != "" && notDigit(p.version) >= 0 {
		return nil, refuse(at+sp.nuls[0]+3, "the 1993 draft's version is digits")
	}
	for k, a := range p.attrs {
		if a == "" || notAlphanum(a) >= 0 {
			return nil, refuse(at+sp.nuls[k+1]+3, "the 1993 draft's attribute is letters and digits, not "+strconv.Quote(a))
		}
	}
	return p, nil
}

// userName is the principal of AUTHENTICATE UNAUTHENTICATED: "the
// username of the user running the client" (Prospero §AUTHENTICATE).
func userName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "nobody"
}

// head is the start of every request: the protocol version asked of the
// server and spoken (Prospero §VERSION: VERSION without an argument
// returns the server's version; VERSION 5 says which we speak) and the
// principal, unauthenticated (Prospero §AUTHENTICATE: options ”, type
// UNAUTHENTICATED, the user's name).
func head() []string {
	return []string{"VERSION", "VERSION 5", "AUTHENTICATE '' UNAUTHENTICATED " + quote(userName())}
}

// listRequest is DIRECTORY and LIST (Prospero §DIRECTORY, §LIST): the
// ATTRIBUTES option (ACCESS-METHOD is always implied for EXTERNAL links)
// and the draft's attributes, LEXPAND to expand local union links, and
// the component when the URL names one link.
func (p *plan) listRequest() []string {
	dir := "DIRECTORY ASCII " + quote(p.pr.HSOName)
	if p.version != "" {
		dir += " " + p.version
	}
	opt := "ATTRIBUTES"
	if len(p.attrs) > 0 {
		opt += "(ACCESS-METHOD+" + strings.Join(p.attrs, "+") + ")"
	}
	list := "LIST " + opt + "+LEXPAND COMPONENTS"
	if p.component != "" {
		list += " " + quote(p.component)
	}
	return append(head(), dir, list)
}

// objectRequest is GET-OBJECT-INFO of every attribute (#ALL; the
// reference server answers a request for ACCESS-METHOD alone with
// NOT-FOUND, as its access methods are INTRINSIC).
func (p *plan) objectRequest() []string {
	v := p.version
	if v == "" {
		v = "0"
	}
	return append(head(), "GET-OBJECT-INFO #ALL ASCII "+quote(p.pr.HSOName)+" "+v)
}

// Check refuses, before any connection, a URL whose request cannot be
// written: a field this client cannot honour, a NUL, a request longer
// than one ARDP packet.
func (c *Client) Check(u *locator.URL, req *access.Request) error {
	p, err := planOf(u)
	if err != nil {
		return err
	}
	if u.Host() == "" {
		return &access.PolicyError{URL: access.Masked(u), Rule: "RFC 1738 §3.11", Reason: "a Prospero URL names the directory server's host"}
	}
	for _, r := range [][]string{p.listRequest(), p.objectRequest()} {
		if n := len(strings.Join(r, "\n")) + 1; n > maxRequestText {
			return &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.PathComponent), Rule: "ARDP",
				Reason: fmt.Sprintf("the request would be %d octets; this client sends one-packet requests of at most %d", n, maxRequestText)}
		}
	}
	return nil
}

// Fetch asks the Prospero server for the object u names (RFC 1738
// §3.11). A directory is a listing of its links. An object that is not
// a directory, or a link named with NAME-COMPONENT that is not an object
// of its own, is a listing of its access methods as URLs, or, with
// c.Follow, a *access.Redirect to the first of them whose scheme has a
// client and that is not a file of this machine. A link to a Prospero
// object redirects to that object's URL.
func (c *Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	p, err := planOf(u)
	if err != nil {
		return nil, err
	}
	p.follow = c.Follow
	conn, err := req.DialPacket(ctx, u.Host(), u.EffectivePort(), privilegedPort)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	cap := req.Capture(access.RecordExchange, "prospero")
	cap.SetAddr(conn.RemoteAddr())
	return p.fetch(u, req, func(lines []string) (*reply, error) { return roundTrip(conn, req, lines, cap) })
}

var _ access.Replayer = (*Client)(nil)

// Replay reads response, the recorded exchange of u's Fetch (the
// Prospero messages above ARDP, see roundTrip), as Fetch reads the
// server's replies: the same requests (LIST, then GET-OBJECT-INFO for
// an object that is not a directory) each take the next recorded reply,
// so that a directory is the same listing of its links, an object the
// listing of its access methods (or, with c.Follow, the redirect), and
// a FAILURE the *access.ServerError it was. A record that is not a
// Prospero reply is an *access.ProtocolError.
func (c *Client) Replay(ctx context.Context, u *locator.URL, req *access.Request, response io.Reader) (*access.Resource, error) {
	p, err := planOf(u)
	if err != nil {
		return nil, err
	}
	p.follow = c.Follow
	// One reader for the replies in turn: readReply reads through it
	// (bufio.NewReaderSize returns it as it is), and a reply that ends
	// at its FAILURE line leaves the next one in it.
	br := bufio.NewReaderSize(response, 4096)
	return p.fetch(u, req, func(lines []string) (*reply, error) {
		for _, l := range lines {
			req.Sent(l)
		}
		return readReply(br, req.MaxLine(), req.MaxEntries(), req.Received)
	})
}

// fetch carries out p with roundTrip, which sends a request's lines and
// reads its reply (from the server, or from a record).
func (p *plan) fetch(u *locator.URL, req *access.Request, roundTrip func(lines []string) (*reply, error)) (*access.Resource, error) {
	rep, err := roundTrip(p.listRequest())
	var se *access.ServerError
	if err == nil && p.component != "" {
		return p.link(u, req, rep)
	}
	if errors.As(err, &se) && se.Code == "NOT-A-DIRECTORY" && p.component == "" {
		req.Notef("not a directory: asking for the object's attributes")
		rep, err = roundTrip(p.objectRequest())
		if err != nil {
			return nil, p.wrap(u, err)
		}
		if rep.NoneFound {
			return nil, &access.ServerError{URL: access.Masked(u), Code: "NONE-FOUND", Text: "the object has no attributes", Command: "GET-OBJECT-INFO"}
		}
		// Empty host and hsoname of an access method are the object's.
		self := &link{HostType: "INTERNET-D", Host: u.Host(), HSONameType: "ASCII", HSOName: p.pr.HSOName}
		if u.Port() != "" {
			self.Host += "(" + u.Port() + ")"
		}
		return p.methods(u, req, self, rep.Attributes)
	}
	if err != nil {
		return nil, p.wrap(u, err)
	}
	return p.listing(u, req, rep)
}

// wrap turns what the exchange says into the access layer's outcomes.
func (p *plan) wrap(u *locator.URL, err error) error {
	var se *access.ServerError
	var pe *access.ProtocolError
	var fw *forwarded
	var rd *errRedirect
	switch {
	case errors.As(err, &se):
		se.URL = access.Masked(u)
		if se.Command == "" {
			se.Command = "LIST"
		}
	case errors.As(err, &pe):
		pe.URL = access.Masked(u)
	case errors.As(err, &fw):
		// Prospero §FORWARDED: "The client can retry ... using the
		// corrected information."
		host, port, herr := splitHost(fw.host)
		if herr != nil || fw.hostType != "INTERNET-D" {
			return &access.ProtocolError{URL: access.Masked(u), Msg: "FORWARDED to a host that is not an Internet name: " + fw.host}
		}
		to := *p.pr
		to.Host, to.Port, to.HSOName = host, port, fw.hsoname
		s, berr := to.Build()
		if berr != nil {
			return &access.ProtocolError{URL: access.Masked(u), Msg: "FORWARDED to a place no URL can name: " + berr.Error()}
		}
		return &access.Redirect{Location: s, Code: "FORWARDED"}
	case errors.As(err, &rd):
		// ARDP option 4: "the client will resend the entire request to
		// a new server" — as a URL, so that policy checks it.
		to := *p.pr
		to.Host, to.Port = rd.to.Addr().String(), strconv.Itoa(int(rd.to.Port()))
		s, berr := to.Build()
		if berr != nil {
			return &access.ProtocolError{URL: access.Masked(u), Msg: "an ARDP redirect no URL can name: " + berr.Error()}
		}
		return &access.Redirect{Location: s, Code: "ARDP redirect"}
	case errors.Is(err, access.ErrTooLarge):
		return err
	}
	return fmt.Errorf("%s: %w", access.Masked(u), err)
}

// roundTrip sends one request and reads its whole reply.
//
// The request's record (cap, when the access.Client records) holds the
// Prospero messages above ARDP: each request message as sent and each
// reply message's octets as ARDP delivers them, in sequence, without
// the packets' headers. ARDP is Prospero's transport (sequencing,
// acknowledgement, retransmission), as TCP is the others': its
// datagrams, retransmissions and acknowledgements included, a record
// would depend on the network's losses, and the datagrams' bounds,
// which ARDP's header does not carry, would be lost in a stream of
// octets.
func roundTrip(conn net.Conn, req *access.Request, lines []string, cap *access.Capture) (*reply, error) {
	cid := uint16(rand.IntN(0xffff) + 1)
	for _, l := range lines {
		req.Sent(l)
	}
	x := newExchange(conn, req, cid, []byte(strings.Join(lines, "\n")+"\n"))
	req.Notef("ARDP: request of %d octets as connection id %d", len(x.request)-9, cid)
	if err := x.start(); err != nil {
		return nil, err
	}
	cap.Sent([]byte(strings.Join(lines, "\n") + "\n"))
	var r io.Reader = x
	if cap != nil {
		r = io.TeeReader(x, received{cap})
	}
	rep, err := readReply(r, req.MaxLine(), req.MaxEntries(), req.Received)
	if err != nil {
		return rep, err
	}
	plural := func(n int, s string) string {
		if n == 1 {
			return "1 " + s
		}
		return strconv.Itoa(n) + " " + s + "s"
	}
	req.Notef("ARDP: reply of %s (%d octets), %s sent", plural(x.packets, "packet"), x.delivered, plural(x.acks, "acknowledgement"))
	for _, w := range rep.Warnings {
		req.Notef("the server warns: %s", w)
	}
	return rep, nil
}

// listing turns a LIST reply into a Listing.
func (p *plan) listing(u *locator.URL, req *access.Request, rep *reply) (*access.Resource, error) {
	// The reply is one ARDP message, already read whole: at most 65,535
	// packets (the 16-bit packet count) of at most maxPacket octets,
	// and at most MaxEntries links and MaxSize octets; its entries are
	// handed out from memory.
	entries := []access.Entry{}
	for _, k := range rep.Links {
		e, err := p.entry(u, k)
		if err != nil {
			return nil, &access.ProtocolError{URL: access.Masked(u), Msg: fmt.Sprintf("link %q: %v", k.Name, err)}
		}
		entries = append(entries, e)
	}
	max := 0 // readReply kept at most MaxEntries links
	if req != nil {
		max = req.MaxEntries()
	}
	return &access.Resource{Listing: access.ListingOf(entries, rep.Truncated, max), Size: -1}, nil
}

// objectURL returns the URL of the Prospero object a link points to, or
// "" when the link is not to a Prospero object an Internet host serves.
func objectURL(k *link) (string, error) {
	if k.NoReadAccess || k.HostType != "INTERNET-D" || k.HSONameType != "ASCII" {
		return "", nil
	}
	switch k.Target {
	case "EXTERNAL", "SYMBOLIC", "NULL":
		return "", nil
	}
	host, port, err := splitHost(k.Host)
	if err != nil {
		return "", err
	}
	o := &URL{Host: host, Port: port, HSOName: k.HSOName}
	if k.Version != "" && k.Version != "0" {
		o.Fields = []Field{{versionField, k.Version}}
	}
	return o.Build()
}

// entry writes one link as a listing entry: its URL is the object's own
// Prospero URL, or for an EXTERNAL or SYMBOLIC link the directory's URL
// with the link's NAME-COMPONENT; parts keep the link's fields, its
// access methods as URLs ("access") and its attributes.
func (p *plan) entry(u *locator.URL, k *link) (access.Entry, error) {
	e := access.Entry{Name: k.Name, Size: -1}
	s, err := objectURL(k)
	if err != nil {
		return e, err
	}
	if s == "" {
		in := *p.pr
		in.Fields = []Field{{nameComponentField, k.Name}}
		if in.HasVersion || in.Version != "" || len(in.Attributes) > 0 {
			// The draft's form does not take fields: RFC 1738's does.
			if in.Version != "" && in.Version != "0" {
				in.Fields = append([]Field{{versionField, in.Version}}, in.Fields...)
			}
			in.HasVersion, in.Version, in.Attributes = false, "", nil
		}
		if s, err = in.Build(); err != nil {
			return e, err
		}
	}
	e.URL = s
	switch {
	case k.Type == "U", strings.Contains(k.Target, "DIRECTORY"):
		e.Type = access.TypeDirectory
	case k.Target == "FILE", k.Target == "OBJECT":
		e.Type = access.TypeFile
	default:
		e.Type = access.TypeLink
	}
	e.Size, e.Modified = sizeAndTime(k.Attributes)
	parts := map[string]any{"link": k.Type, "target": k.Target, "host-type": k.HostType, "host": k.Host,
		"hsoname-type": k.HSONameType, "hsoname": k.HSOName, "version": k.Version}
	if k.DestExp != "" {
		parts["dest-exp"] = k.DestExp
	}
	ms, err := accessMethods(k.Attributes, k)
	if err != nil {
		return e, err
	}
	if len(ms) > 0 {
		var urls []string
		for _, m := range ms {
			if s, err := m.URL(); err == nil && s != "" {
				urls = append(urls, s)
			}
		}
		if len(urls) > 0 {
			parts["access"] = urls
		}
	}
	if len(k.Attributes) > 0 {
		parts["attributes"] = attributeParts(k.Attributes)
	}
	e.Parts = parts
	return e, nil
}

func attributeParts(as []Attribute) []map[string]any {
	out := make([]map[string]any, 0, len(as))
	for _, a := range as {
		m := map[string]any{"applies-to": a.AppliesTo, "kind": a.Kind, "name": a.Name, "values": a.Values}
		if a.ValueType != "" {
			m["value-type"] = a.ValueType
		}
		if a.Depth > 0 {
			m["depth"] = a.Depth
		}
		out = append(out, m)
	}
	return out
}

// link handles a URL that names one link with NAME-COMPONENT.
func (p *plan) link(u *locator.URL, req *access.Request, rep *reply) (*access.Resource, error) {
	var k *link
	for _, l := range rep.Links {
		if l.Name == p.component { // LIST's wildcards may match more
			k = l
			break
		}
	}
	if k == nil {
		return nil, &access.ServerError{URL: access.Masked(u), Code: "NONE-FOUND", Text: "no link named " + strconv.Quote(p.component), Command: "LIST"}
	}
	s, err := objectURL(k)
	if err != nil {
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: err.Error()}
	}
	if s != "" {
		return nil, &access.Redirect{Location: s, Code: "LINK " + k.Target}
	}
	return p.methods(u, req, k, k.Attributes)
}

// methods is the object's access methods as a listing of their URLs, or
// with p.follow a redirect to the first that can be followed.
func (p *plan) methods(u *locator.URL, req *access.Request, k *link, attrs []Attribute) (*access.Resource, error) {
	ms, err := accessMethods(attrs, k)
	if err != nil {
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: err.Error()}
	}
	name := k.Name
	if name == "" {
		name = p.pr.HSOName
	}
	// An object's access methods are a few attribute lines of one
	// reply message (at most maxAttributesPerLink): held in memory.
	entries := []access.Entry{}
	var names []string
	for _, m := range ms {
		s, err := m.URL()
		if err != nil {
			return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "access method " + m.Method + ": " + err.Error()}
		}
		if p.follow {
			t, perr := locator.Parse(s)
			ok := false
			if perr == nil {
				_, ok = access.Lookup(t.Scheme())
			}
			switch {
			case s == "" || perr != nil:
				names = append(names, m.Method+" (no URL)")
			case t.Scheme() == "file":
				names = append(names, m.Method+" (a file of this machine, never followed when a server names it)")
			case !ok:
				names = append(names, m.Method+" (no "+t.Scheme()+" client in this program)")
			default:
				req.Notef("following the access method %s: %s", m.Method, s)
				return nil, &access.Redirect{Location: s, Code: "ACCESS-METHOD " + m.Method}
			}
		}
		parts := map[string]any{"access-method": m.Method, "host-type": m.HostType, "host": m.Host,
			"hsoname-type": m.HSONameType, "hsoname": m.HSOName}
		if len(m.Args) > 0 {
			parts["args"] = m.Args
		}
		e := access.Entry{URL: s, Name: name + " (" + m.Method + ")", Type: access.TypeLink, Parts: parts}
		e.Size, e.Modified = sizeAndTime(attrs)
		entries = append(entries, e)
	}
	if p.follow {
		why := "it has none"
		if len(names) > 0 {
			why = "it has " + strings.Join(names, ", ")
		}
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "no access method of the object can be followed (" + why + ")"}
	}
	return &access.Resource{Listing: access.ListingOf(entries, false, req.MaxEntries()), Size: -1}, nil
}

var _ io.Reader = (*exchange)(nil)

// received is an io.Writer of the octets a Capture receives.
type received struct{ c *access.Capture }

func (r received) Write(p []byte) (int, error) {
	r.c.Received(p)
	return len(p), nil
}

// sizeAndTime reads the INTRINSIC attributes SIZE ("6 bytes") and
// LAST-MODIFIED (ASN-TIME, Prospero §"Link Attributes": dest-exp's
// format, YYYYMMDDHHMMSSZ) when the server sends them: -1 and the zero
// time otherwise.
func sizeAndTime(as []Attribute) (int64, time.Time) {
	size, mod := int64(-1), time.Time{}
	for _, a := range as {
		if a.Depth != 0 || len(a.Values) != 1 {
			continue
		}
		switch strings.ToUpper(a.Name) {
		case "SIZE":
			if n, ok := strings.CutSuffix(a.Values[0], " bytes"); ok {
				if v, err := strconv.ParseInt(n, 10, 64); err == nil && v >= 0 {
					size = v
				}
			}
		case "LAST-MODIFIED":
			if t, err := time.Parse("20060102150405Z", a.Values[0]); err == nil {
				mod = t
			}
		}
	}
	return size, mod
}
