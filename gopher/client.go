package gopher

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net"
	"path"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

func init() {
	access.Register("gopher", access.Info{DefaultPort: DefaultPort}, func() access.Fetcher { return new(Client) })
}

// Client follows gopher URLs for package access (RFC 1738 §3.4, RFC 1436,
// Gopher+): it connects through access.Request.Dial (or Connect), sends
// the request line the URL stands for, and reads the reply by the item
// type and, for Gopher+, by the reply's header, every line bounded by
// the access.Client's MaxLine, every listing by MaxEntries and every
// body by MaxSize.
//
// A Client remembers, per server, whether its top menu says it speaks
// Gopher+ (see Probe). Its zero value is ready; it is safe for
// concurrent use, and its fields must not be changed once it is in use.
//
// A Client holds only configuration and what it keeps between requests:
// what belongs to one request travels with it (access.Options, read
// through the Request): the Gopher+ view to ask for (Request.View, RFC
// 1738 §3.4.8, as access.View's Name writes it: "text/plain En_US"),
// the search words of a type 7 item whose URL gives none
// (Request.Search, §3.4.2), the answers of an ASK form (Request.Answers,
// §3.4.5, by a field's prompt or its number from 1, see FillForm), and
// who to ask for the others (Request.Ask).
type Client struct {
	// Connect, when not nil, opens every connection of the client in
	// place of req.Dial, to the host and port the URL names: a scheme
	// that carries Gopher over another layer (gophers, Gopher over TLS)
	// sets it, and reuses the plan, the request and the reading of the
	// reply unchanged. It must open its connections through req.Dial,
	// so that policy, deadlines and the dialogue log apply. Nil: req.Dial.
	Connect func(ctx context.Context, req *access.Request, host string, port int) (net.Conn, error)

	plus plusServers
}

// params are the per-request values of one request (access.Options).
type params struct {
	view, search string
	answers      map[string]string
	ask          func(access.Question) (string, error)
}

func (c *Client) params(req *access.Request) params {
	if req == nil {
		return params{}
	}
	return params{view: req.View(), search: req.Search(), answers: req.Answers(), ask: req.Ask()}
}

// dial opens a connection as c.Connect says.
func (c *Client) dial(ctx context.Context, req *access.Request, host string, port int) (net.Conn, error) {
	if c != nil && c.Connect != nil {
		return c.Connect(ctx, req, host, port)
	}
	return req.Dial(ctx, host, port)
}

var (
	_ access.Describer = (*Client)(nil)
	_ access.Prober    = (*Client)(nil)
)

// Check refuses, before any connection, a gopher URL whose selector or
// search holds a decoded CR, LF, NUL or (in the search) TAB: sent, it
// would end the request line early or add a field (RFC 1738 §3.4.1,
// §6); a Gopher+ string that is none of §3.4.4–3.4.9's forms; a URL with
// no host; a type 7 search with no search words (neither in the URL nor
// the request's search words); a CSO (type 2) item, a session this client cannot hold; and
// a view or search words given that hold such octets, or a view other than the
// one the URL names.
func (c *Client) Check(u *locator.URL, req *access.Request) error {
	pr := c.params(req)
	g, err := From(u)
	if err != nil {
		return &access.PolicyError{URL: access.Masked(u), Rule: "gopherurl", Reason: err.Error()}
	}
	refuse := func(off int, rule, reason string) error {
		return &access.PolicyError{URL: access.Masked(u), Offset: off, Rule: rule, Reason: reason}
	}
	if u.Host() == "" {
		return refuse(u.Offset(locator.HostComponent), "RFC 1738 §3.4.1", "a gopher URL names the server's host")
	}
	p, base := u.Path(), u.Offset(locator.PathComponent)
	sp := split(p)
	ctl := func(from, to int, what string) error {
		for i := from; i < to; {
			c, n := octet(p, i)
			switch c {
			case '\r', '\n', 0, '\t':
				return refuse(base+i, "RFC 1738 §6", "a decoded "+ctlName(c)+" in the "+what+" would reach the server as a protocol delimiter and change the request (RFC 1738 §3.4.1: no TAB, CR or LF)")
			}
			i += n
		}
		return nil
	}
	if sp.typeEnd > 0 {
		switch sp.typeOctet {
		case '\r', '\n', 0, '\t':
			return refuse(base, "RFC 1738 §6", "the gophertype cannot be "+ctlName(sp.typeOctet))
		}
	}
	if err := ctl(sp.typeEnd, sp.selEnd, "selector"); err != nil {
		return err
	}
	if sp.searchAt >= 0 {
		if err := ctl(sp.searchAt, sp.searchEnd, "search"); err != nil {
			return err
		}
	}
	if sp.plusAt >= 0 {
		var pl Plus
		if e := parsePlus(p[sp.plusAt:], true, &pl, nil); e != nil {
			return refuse(base+sp.plusAt+e.Offset, e.Rule, e.Message)
		}
		if i := strings.IndexByte(g.Plus, 0); i >= 0 {
			return refuse(base+sp.plusAt, "RFC 1738 §6", "a decoded NUL in the Gopher+ string")
		}
	}
	if _, err := g.Plan(); err != nil {
		var ge *locator.SchemeError
		if errors.As(err, &ge) {
			return refuse(base, ge.Rule, ge.Message)
		}
		return refuse(base, "gopherurl", err.Error())
	}
	if i := strings.IndexAny(pr.search, "\t\r\n\x00"); i >= 0 {
		return refuse(0, "RFC 1738 §6", "the search words given hold a "+ctlName(pr.search[i])+" at offset "+strconv.Itoa(i)+", which would change the request line")
	}
	if i := strings.IndexAny(pr.view, "\t\r\n\x00"); i >= 0 {
		return refuse(0, "RFC 1738 §6", "the view given holds a "+ctlName(pr.view[i])+" at offset "+strconv.Itoa(i)+", which would change the request line")
	}
	if g.Type == "2" {
		return refuse(base, "RFC 1436 §3.8", "a type 2 item is a CSO phone-book server, a session this client cannot hold")
	}
	if g.Type == "7" && g.Search == "" && pr.search == "" && !(g.HasPlus && g.Plus != "" && g.Plus[0] != '+') {
		return refuse(base, "RFC 1738 §3.4.2", "a type 7 item is a search: give the words in the URL (…%09words) or as the search option")
	}
	if pr.view != "" && g.HasPlus {
		pl, _ := ParsePlus(g.Plus)
		if pl.Command != '+' {
			return refuse(base+sp.plusAt, "RFC 1738 §3.4.8", "a view is asked for, and the URL's Gopher+ string "+strconv.Quote(g.Plus)+" asks for no data")
		}
		if pl.View != "" && !strings.EqualFold(viewName(pl.View, pl.Language), pr.view) {
			return refuse(base+sp.plusAt, "RFC 1738 §3.4.8", "the URL names the view "+strconv.Quote(viewName(pl.View, pl.Language))+" and the view option asks "+strconv.Quote(pr.view))
		}
	}
	return nil
}

func viewName(v, lang string) string {
	if lang != "" {
		return v + " " + lang
	}
	return v
}

// exchange is one request of a fetch: the URL's structure, the search
// words and the Gopher+ string in force.
type exchange struct {
	g      *URL
	search string
	plus   *Plus // nil: a Gopher0 request
	host   string
	port   int
	c      *Client // whose dial makes the connection
}

func (c *Client) newExchange(u *locator.URL, req *access.Request) (*exchange, error) {
	pr := c.params(req)
	g, err := From(u)
	if err != nil {
		return nil, err
	}
	pl, err := g.Plan()
	if err != nil {
		return nil, err
	}
	x := &exchange{g: g, search: g.Search, host: pl.Host, port: pl.Port, c: c}
	if x.search == "" && pr.search != "" {
		x.search = pr.search
	}
	if g.HasPlus {
		if x.plus, err = ParsePlus(g.Plus); err != nil {
			return nil, err
		}
	}
	if v := pr.view; v != "" {
		if x.plus == nil {
			x.plus = &Plus{Command: '+'}
		}
		if x.plus.View == "" {
			x.plus.View, x.plus.Language, _ = strings.Cut(v, " ")
		}
	}
	return x, nil
}

// line returns the request line for the Gopher+ string s (or none when
// s is ""), CR LF included unless s ends the request itself (an ASK data
// block):
//
//	selector [TAB search] [TAB gopher+] CR LF
//
// The search field is sent for a search item (type 7) and whenever it
// holds words; an empty one is left out otherwise, as Gopher+ §2.4 and
// RFC 1738 §3.4.9's example write the request ("a_gopher_selector<tab>+"):
// Gopher+ servers read the field after the selector as the Gopher+
// command, and UMN gopherd answers "Malformed command" to an empty one.
func (x *exchange) line(s string) []byte {
	b := []byte(x.g.Selector)
	if x.search != "" || x.g.Type == "7" {
		b = append(b, '\t')
		b = append(b, x.search...)
	}
	if s != "" {
		b = append(b, '\t')
		b = append(b, s...)
	}
	if !strings.HasSuffix(s, "\r\n") {
		b = append(b, '\r', '\n')
	}
	return b
}

// send dials the server and writes the request, logging each line;
// secret lines (an AskP answer) are logged masked.
//
// When record is set and the access.Client records, the exchange is
// the request's record (access.RecordExchange, protocol "gopher", or
// the one a Connect that carries Gopher over another layer named
// first): the request as sent, each secret line's text replaced by
// "****" as in the dialogue, and every octet of the reply as read from
// the connection Connect returns (above TLS), "." line and Gopher+
// header included.
func (x *exchange) send(ctx context.Context, req *access.Request, request []byte, secret map[int]bool, record bool) (net.Conn, *bufio.Reader, error) {
	conn, err := x.c.dial(ctx, req, x.host, x.port)
	if err != nil {
		return nil, nil, err
	}
	var kept []byte // the request as recorded
	lines := strings.SplitAfter(string(request), "\n")
	for i, l := range lines {
		if l == "" {
			continue
		}
		if secret[i] {
			req.Sent("****")
			kept = append(kept, "****"...)
			kept = append(kept, l[len(strings.TrimRight(l, "\r\n")):]...)
			continue
		}
		req.Sent(strings.TrimRight(l, "\r\n"))
		kept = append(kept, l...)
	}
	// The request is written past the tap and handed to the record
	// masked (a secret never reaches an archive); the reply is read
	// through it.
	if _, err := conn.Write(request); err != nil {
		conn.Close()
		return nil, nil, err
	}
	if record {
		cap := req.Capture(access.RecordExchange, "gopher")
		cap.Sent(kept)
		conn = cap.Conn(conn)
	}
	return conn, bufio.NewReaderSize(conn, 16<<10), nil
}

// Fetch retrieves the object u names. A type 8 or T item is a telnet
// or tn3270 session, and an "h" item whose selector is "URL:" a link:
// both are handed back to the access.Client as an *access.Redirect.
// Otherwise
// the request is sent and the reply read:
//
//   - a Gopher0 reply (RFC 1436): a menu (types 1 and 7) is a listing,
//     read up to the "." line or the connection's close (pygopherd sends
//     no "."); a text item (type 0) is delivered as sent, up to the
//     close, a "." line right before the close removed (see textReader);
//     any other item is streamed as sent. A reply that is one type 3
//     menu line, with its four TAB-separated fields (or UMN gopherd's
//     line to "error.host"), is an *access.ServerError; a reply without
//     those TABs is the item (the text "3.0 (native)" is a text).
//   - a Gopher+ reply (Gopher+ §2.3) begins "+N" (N octets follow),
//     "+-1" (data up to a "." line and the close), "+-2" (data up to
//     the close), or
//     "-N"/"--1"/"--2" (an error: its code, the administrator and the
//     message become an *access.ServerError; code 3, "item has moved",
//     followed by a menu line, an *access.Redirect to it). A reply
//     without a header is read as Gopher0 (the server ignored the
//     Gopher+ string).
//   - "!" and "$" (attributes, §2.5, §2.7) give a listing of one entry
//     per item, the typed attributes under parts.
//   - "?" (an ASK form, RFC 1738 §3.4.5) fetches the item's +ASK block,
//     fills it from the request's answers and Ask (FillForm), sends it
//     as "selector TAB +[view] TAB 1" and a "+-1" data block (§3.4.9),
//     and returns the reply, with Resource.URL set to the gopher URL
//     that holds the filled form.
//
// When the access.Client records, the record is the exchange
// (access.RecordExchange, protocol "gopher"; "gophers" over TLS): the
// request line as sent and the reply's octets as received, read back by
// Replay. Of an ASK item it is the filled form's exchange, an AskP
// answer's line kept as "****".
func (c *Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	x, err := c.newExchange(u, req)
	if err != nil {
		return nil, err
	}
	masked := access.Masked(u)
	if err := x.elsewhere(masked); err != nil {
		return nil, err
	}
	if x.plus != nil && x.plus.Command == '?' {
		return c.fillForm(ctx, u, x, req)
	}
	if x.g.HasSearch && x.g.Search == "" && x.search == "" && x.g.Type != "7" {
		req.Notef("the URL's empty search field is not sent (Gopher+ §2.4; UMN gopherd reads it as the Gopher+ command)")
	}
	var secret map[int]bool
	return x.fetch(ctx, req, masked, x.line(x.plusString()), secret, true)
}

// elsewhere returns the *access.Redirect of an item that is not
// retrieved from its server (a telnet or tn3270 session, an "h" item's
// "URL:" link), nil for any other.
func (x *exchange) elsewhere(masked string) error {
	switch x.g.Type {
	case "8", "T":
		it := Item{Type: x.g.Type[0], Selector: x.g.Selector, Host: x.host, Port: strconv.Itoa(x.port)}
		to, err := it.URL()
		if err != nil {
			return &access.ProtocolError{URL: masked, Msg: "the session item cannot be written as a URL: " + err.Error()}
		}
		return &access.Redirect{Location: to, Code: "type " + x.g.Type}
	case "h":
		if rest, ok := strings.CutPrefix(x.g.Selector, "URL:"); ok {
			return &access.Redirect{Location: rest, Code: "URL:"}
		}
	}
	return nil
}

// plusString returns the Gopher+ string of the request line, "" for a
// Gopher0 request.
func (x *exchange) plusString() string {
	if x.plus == nil {
		return ""
	}
	gp := x.plus.wire()
	if !x.plus.HasForm {
		gp = strings.TrimSuffix(gp, "\r\n")
	}
	return gp
}

var _ access.Replayer = (*Client)(nil)

// Replay reads response, the recorded reply to the request u stands for
// (the octets Fetch read from the connection, see access.Replayer), as
// Fetch reads a live one, without any connection: a menu is a listing
// of every item, a text item is the octets recorded, a "." line at
// their end removed (see textReader), a Gopher+ reply is read by its header (an attribute reply, "!"
// or "$", is a listing of its items), and an error item, a Gopher+
// error or an item that is not retrieved (a session, a "URL:" link) is
// the error or *access.Redirect Fetch returns. A reply that breaks the
// protocol is an *access.ProtocolError, as it is live.
//
// The reply to an ASK item ("?") is that of the filled form, which
// Fetch records rather than the form's fetching: it is read as a
// Gopher+ data reply, and Resource.URL is left to u (the answers are
// not part of the reply).
func (c *Client) Replay(ctx context.Context, u *locator.URL, req *access.Request, response io.Reader) (*access.Resource, error) {
	x, err := c.newExchange(u, req)
	if err != nil {
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: err.Error()}
	}
	masked := access.Masked(u)
	if err := x.elsewhere(masked); err != nil {
		return nil, err
	}
	if x.plus != nil && x.plus.Command == '?' {
		v := x.plus.View
		if pv := c.params(req).view; pv != "" {
			v = pv
		}
		x.plus = &Plus{Command: '+'}
		x.plus.View, x.plus.Language, _ = strings.Cut(v, " ")
	}
	return x.read(io.NopCloser(nil), bufio.NewReaderSize(response, 16<<10), req, masked, string(x.line(x.plusString())))
}

// fetch sends request and reads the reply as x's item; record says
// whether the exchange is the request's record (see send).
func (x *exchange) fetch(ctx context.Context, req *access.Request, masked string, request []byte, secret map[int]bool, record bool) (*access.Resource, error) {
	conn, br, err := x.send(ctx, req, request, secret, record)
	if err != nil {
		return nil, err
	}
	res, err := x.read(conn, br, req, masked, string(request))
	if err != nil {
		conn.Close()
		return nil, err
	}
	if res.Body == nil && res.Listing == nil {
		conn.Close()
	}
	return res, nil
}

// read reads the reply on conn (through br) to x's request.
func (x *exchange) read(conn io.Closer, br *bufio.Reader, req *access.Request, masked, request string) (*access.Resource, error) {
	command := strings.TrimRight(strings.SplitN(request, "\n", 2)[0], "\r")
	if x.plus != nil {
		hdr, ok, err := peekLine(br, 64)
		if err != nil && len(hdr) == 0 {
			return nil, x.replyErr(err, masked, "no reply")
		}
		if h, herr := parseReplyHeader(strings.TrimRight(string(hdr), "\r\n")); ok && herr == nil {
			br.Discard(len(hdr))
			req.Received(strings.TrimRight(string(hdr), "\r\n"))
			return x.readPlus(conn, br, req, masked, command, h)
		}
		if x.plus.Command != '+' {
			if it, isErr := errorReply(br, req.MaxLine()); isErr {
				return nil, &access.ServerError{URL: masked, Command: command, Code: "3", Text: it.Display}
			}
			return nil, &access.ProtocolError{URL: masked, Msg: "the reply to a Gopher+ attribute request (" + string(x.plus.Command) + ") has no Gopher+ header (+N, +-1, +-2): the server does not speak Gopher+"}
		}
		req.Notef("the reply has no Gopher+ header: read as Gopher0 (RFC 1436)")
	}
	if it, isErr := errorReply(br, req.MaxLine()); isErr {
		req.Received(menuText(it))
		return nil, &access.ServerError{URL: masked, Command: command, Code: "3", Text: it.Display}
	}
	switch x.g.Type {
	case "1", "7":
		return x.menu(bufio.NewReader(bounded(br, req, 0)), conn, req, masked), nil
	case "0":
		return &access.Resource{Body: req.Limit(&closer{newTextReader(br), conn}), MediaType: "text/plain", Size: -1}, nil
	}
	return &access.Resource{Body: req.Limit(&closer{br, conn}), MediaType: x.mediaType(""), Size: -1}, nil
}

// readPlus reads a Gopher+ reply whose header is h.
func (x *exchange) readPlus(conn io.Closer, br *bufio.Reader, req *access.Request, masked, command string, h replyHeader) (*access.Resource, error) {
	body := dataReader(br, h)
	if !h.OK {
		return nil, x.plusError(body, req, masked, command)
	}
	switch x.plus.Command {
	case '!', '$':
		return x.attributeListing(body, conn, req, masked), nil
	}
	view := strings.ToLower(x.plus.View)
	if (x.g.Type == "1" || x.g.Type == "7") && (view == "" || view == "application/gopher-menu" || view == "application/gopher+-menu") {
		if view == "application/gopher+-menu" {
			return x.attributeListing(body, conn, req, masked), nil
		}
		return x.menu(bufio.NewReader(bounded(body, req, 0)), conn, req, masked), nil
	}
	res := &access.Resource{Body: req.Limit(&closer{body, conn}), MediaType: x.mediaType(x.plus.View), Size: -1}
	if h.Length >= 0 {
		res.Size = h.Length
	}
	return res, nil
}

// plusError reads a Gopher+ error reply's data (§2.3): the first line's
// first token is the error code, the administrator's address follows;
// the lines after it are the message.
func (x *exchange) plusError(body io.Reader, req *access.Request, masked, command string) error {
	br := bufio.NewReader(io.LimitReader(body, int64(req.MaxLine())*16))
	var lines []string
	for len(lines) < 16 {
		l, err := access.ReadLine(br, req.MaxLine())
		if err == nil || errors.Is(err, io.ErrUnexpectedEOF) {
			req.Received(l)
			lines = append(lines, l)
		}
		if err != nil {
			break
		}
	}
	se := &access.ServerError{URL: masked, Command: command, Code: "-"}
	if len(lines) == 0 {
		se.Text = "(an error reply with no text)"
		return se
	}
	code, admin, _ := strings.Cut(strings.TrimSpace(lines[0]), " ")
	se.Code = code
	msg := strings.TrimSpace(strings.Join(lines[1:], " "))
	if code == "3" {
		if it, err := ParseMenuLine(admin); err == nil {
			if to, err := it.URL(); err == nil && to != "" {
				return &access.Redirect{Location: to, Code: "Gopher+ error 3 (item has moved)"}
			}
		}
	}
	switch {
	case msg != "" && admin != "":
		se.Text = msg + " (administrator: " + strings.TrimSpace(admin) + ")"
	case msg != "":
		se.Text = msg
	default:
		se.Text = strings.TrimSpace(admin)
	}
	return se
}

// maxAttributes bounds the octets of an attribute reply when the
// access.Client's MaxSize does not: attributes are a compact list
// (Gopher+ §2.5), and every line of them is held in memory.
const maxAttributes = 16 << 20

// bounded returns r limited to req.MaxSize() octets, or to def when
// MaxSize is 0 and def is not; past it a read fails with
// access.ErrTooLarge.
func bounded(r io.Reader, req *access.Request, def int64) io.Reader {
	if req.MaxSize() <= 0 && def > 0 {
		return (&access.Request{Client: &access.Client{MaxSize: def}}).Limit(io.NopCloser(r))
	}
	return req.Limit(io.NopCloser(r))
}

// menu returns the listing of the menu br reads, read line by line as
// the caller asks (RFC 1436 §3.8): up to a "." line or the close, at
// most MaxEntries entries (more: an *access.TruncatedError, noted in the
// dialogue), each line at most MaxLine octets, the whole at most
// MaxSize. Only the line being read is held: closing the listing closes
// conn.
func (x *exchange) menu(br *bufio.Reader, conn io.Closer, req *access.Request, masked string) *access.Resource {
	m := &menuReader{br: br, req: req, masked: masked, x: x}
	l := access.NewListing(req.MaxEntries(), m.next, conn.Close)
	return &access.Resource{Listing: l, Size: -1}
}

// A menuReader reads a menu's entries one line at a time.
type menuReader struct {
	br     *bufio.Reader
	req    *access.Request
	masked string
	x      *exchange
	n      int    // lines read
	prev   string // the type of the entry before, for a "+" item
	done   bool   // the reply ended
}

func (m *menuReader) next() (access.Entry, error) {
	if m.done {
		return access.Entry{}, io.EOF
	}
	m.n++
	line, err := access.ReadLine(m.br, m.req.MaxLine())
	if errors.Is(err, io.EOF) {
		m.done = true
		return access.Entry{}, io.EOF
	}
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return access.Entry{}, m.x.replyErr(err, m.masked, "menu line "+strconv.Itoa(m.n))
	}
	if line == "." {
		m.done = true
		return access.Entry{}, io.EOF
	}
	if err != nil {
		m.done = true // the last line, without its line end
	}
	if m.n > m.req.MaxEntries() {
		m.req.Notef("menu truncated at %d entries (MaxEntries)", m.req.MaxEntries())
		return access.Entry{}, &access.TruncatedError{Max: m.req.MaxEntries()}
	}
	it, perr := ParseMenuLine(line)
	if perr != nil {
		me := perr.(*MenuError)
		me.Line = m.n
		return access.Entry{}, &access.ProtocolError{URL: m.masked, Msg: me.Error()}
	}
	e := it.Entry()
	if it.Type == '+' && m.prev != "" {
		e.Type = m.prev // "+": a redundant server of the item before
	}
	m.prev = e.Type
	return e, nil
}

// attributeListing returns the listing of the attribute reply body (the
// reply to "!" or "$", Gopher+ §2.5, §2.7, or a directory's
// "application/gopher+-menu" view): one entry per item, read item by
// item as the caller asks. One item's lines are held at a time, at most
// maxAttributes octets and MaxEntries lines; the whole reply at most
// MaxSize (maxAttributes when MaxSize is 0). Closing the listing closes
// conn.
func (x *exchange) attributeListing(body io.Reader, conn io.Closer, req *access.Request, masked string) *access.Resource {
	a := &attrReader{br: bufio.NewReader(bounded(body, req, maxAttributes)), req: req, masked: masked}
	l := access.NewListing(req.MaxEntries(), a.next, conn.Close)
	return &access.Resource{Listing: l, Size: -1}
}

// An attrReader reads an attribute reply one item at a time: an item's
// attributes end where the next "+INFO" block begins (§2.7).
type attrReader struct {
	br     *bufio.Reader
	req    *access.Request
	masked string
	lines  []string // the current item's lines
	octets int      // their length
	first  int      // the reply's line number of lines[0], from 1
	n      int      // lines read
	done   bool
}

// isInfo reports whether line begins a +INFO block.
func isInfo(line string) bool {
	rest, ok := strings.CutPrefix(line, "+INFO")
	return ok && (rest == "" || rest[0] == ':')
}

func (a *attrReader) next() (access.Entry, error) {
	for !a.done {
		line, err := access.ReadLine(a.br, a.req.MaxLine())
		if errors.Is(err, io.EOF) {
			a.done = true
			break
		}
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			var pe *access.ProtocolError
			if errors.As(err, &pe) {
				pe.URL = a.masked
				pe.Msg = "attribute line " + strconv.Itoa(a.n+1) + ": " + pe.Msg
			}
			return access.Entry{}, err
		}
		if line == "." && err == nil {
			a.done = true
			break
		}
		a.n++
		if err != nil {
			a.done = true
		}
		if isInfo(line) && len(a.lines) > 0 {
			e, perr := a.item()
			a.lines, a.octets, a.first = append(a.lines[:0], line), len(line), a.n
			return e, perr
		}
		if len(a.lines) == 0 {
			if strings.TrimLeft(line, " ") == "" {
				continue // blank lines between items (ParseAttributes passes over them)
			}
			a.first = a.n
		}
		if len(a.lines) == a.req.MaxEntries() || a.octets+len(line) > maxAttributes {
			return access.Entry{}, &access.ProtocolError{URL: a.masked, Msg: "the attributes of the item at line " + strconv.Itoa(a.first) + " have more than " + strconv.Itoa(a.req.MaxEntries()) + " lines (MaxEntries) or " + strconv.Itoa(maxAttributes) + " octets (maxAttributes); cut off"}
		}
		a.lines = append(a.lines, line)
		a.octets += len(line)
	}
	if len(a.lines) == 0 {
		return access.Entry{}, io.EOF
	}
	e, err := a.item()
	a.lines = nil
	return e, err
}

// item reads the held lines as one item's attributes.
func (a *attrReader) item() (access.Entry, error) {
	attrs, err := ParseAttributes(a.lines, 0)
	if err != nil {
		var ae *AttrError
		if errors.As(err, &ae) {
			ae.Line += a.first - 1
		}
		return access.Entry{}, &access.ProtocolError{URL: a.masked, Msg: err.Error()}
	}
	if len(attrs) != 1 {
		return access.Entry{}, &access.ProtocolError{URL: a.masked, Msg: "the attribute lines from line " + strconv.Itoa(a.first) + " describe " + strconv.Itoa(len(attrs)) + " items, not one"}
	}
	return attrs[0].Entry(), nil
}

// readAttributes reads the attribute blocks in body: at most
// MaxEntries lines, each at most MaxLine octets, the whole at most
// MaxSize (maxAttributes when MaxSize is 0).
func readAttributes(body io.Reader, req *access.Request, masked string) ([]Attributes, error) {
	br := bufio.NewReader(bounded(body, req, maxAttributes))
	var lines []string
	for {
		line, err := access.ReadLine(br, req.MaxLine())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			var pe *access.ProtocolError
			if errors.As(err, &pe) {
				pe.URL = masked
				pe.Msg = "attribute line " + strconv.Itoa(len(lines)+1) + ": " + pe.Msg
			}
			return nil, err
		}
		if line == "." && err == nil {
			break
		}
		if len(lines) == req.MaxEntries() {
			return nil, &access.ProtocolError{URL: masked, Msg: "the attribute reply has more than " + strconv.Itoa(req.MaxEntries()) + " lines (MaxEntries); cut off"}
		}
		lines = append(lines, line)
		if err != nil {
			break
		}
	}
	attrs, err := ParseAttributes(lines, 0)
	if err != nil {
		return nil, &access.ProtocolError{URL: masked, Msg: err.Error()}
	}
	return attrs, nil
}

// Entry returns a's item as a listing entry, with its size (the first
// view's, an estimate: SizeApprox is set, as Gopher+ §2.5 says a view's
// size "might NOT be the exact size that the server will wind up
// delivering", whatever its unit, "<123>" included) and modification
// date, and the typed attributes under parts: "views" (each view's
// name, its estimated size in octets and the size as written, such as
// "<2k>"), "admin", "abstract", "ask", and "blocks" (every block's text
// by name).
func (a *Attributes) Entry() access.Entry {
	e := a.Info.Entry()
	if a.Admin != nil {
		e.Modified = a.Admin.ModDate
		ad := map[string]any{"admin": a.Admin.Admin, "email": a.Admin.Email, "mod_date": a.Admin.ModDateText}
		e.Parts["admin"] = ad
	}
	if len(a.Views) > 0 {
		e.Size = a.Views[0].Size
		e.SizeApprox = e.Size >= 0
		var vs []map[string]any
		for _, v := range a.Views {
			m := map[string]any{"name": v.Name(), "size": v.Size}
			if v.SizeText != "" {
				m["size_text"] = v.SizeText
			}
			vs = append(vs, m)
		}
		e.Parts["views"] = vs
	}
	if a.Abstract != "" {
		e.Parts["abstract"] = a.Abstract
	}
	if a.Ask != nil {
		var fs []map[string]any
		for _, f := range a.Ask {
			m := map[string]any{"kind": f.Kind, "prompt": f.Prompt}
			if f.Default != "" {
				m["default"] = f.Default
			}
			if f.Choices != nil {
				m["choices"] = f.Choices
			}
			fs = append(fs, m)
		}
		e.Parts["ask"] = fs
	}
	blocks := map[string]any{}
	for _, b := range a.Blocks {
		t := b.Value
		if len(b.Lines) > 0 {
			if t != "" {
				t += "\n"
			}
			t += b.Text()
		}
		blocks[b.Name] = t
	}
	e.Parts["blocks"] = blocks
	return e
}

// fillForm carries out an ASK form (RFC 1738 §3.4.5, Gopher+ §2.8).
func (c *Client) fillForm(ctx context.Context, u *locator.URL, x *exchange, req *access.Request) (*access.Resource, error) {
	masked := access.Masked(u)
	attrs, err := x.attributes(ctx, req, masked, "!+ASK")
	if err != nil {
		return nil, err
	}
	var fields []Field
	for _, a := range attrs {
		if a.Ask != nil {
			fields = a.Ask
			break
		}
	}
	if fields == nil {
		return nil, &access.ProtocolError{URL: masked, Msg: "the item is an ASK item (\"?\") but its attributes hold no +ASK block"}
	}
	pr := c.params(req)
	answers, err := FillForm(fields, pr.answers, pr.ask)
	if err != nil {
		// An answer that cannot be sent is refused here, before the
		// form is submitted (exit 4), as a URL's CR or LF is.
		var pe *access.PolicyError
		var ae *AskError
		switch {
		case errors.As(err, &pe):
			pe.URL = masked
		case errors.As(err, &ae):
			return nil, &access.PolicyError{URL: masked, Rule: ae.Rule, Reason: ae.Message}
		}
		return nil, err
	}
	form := &Plus{Command: '+', HasForm: true, Form: answers}
	if v := pr.view; v != "" {
		form.View, form.Language, _ = strings.Cut(v, " ")
	}
	// Which lines of the request are secret (AskP answers): the request
	// line is 0, "+-1" 1, the answers from 2.
	secret := map[int]bool{}
	i := 2
	for _, f := range fields {
		switch f.Kind {
		case "Note":
			continue
		case "AskP":
			secret[i] = true
		case "AskL":
			n, _ := strconv.Atoi(answers[i-2])
			i += n
		}
		i++
	}
	x.plus = form
	filled := *x.g
	filled.HasSearch, filled.HasPlus, filled.Plus = true, true, form.String()
	if filled.Search == "" && x.search != "" {
		filled.Search = x.search
	}
	res, err := x.fetch(ctx, req, masked, x.line(form.String()), secret, true)
	if err != nil {
		return nil, err
	}
	if s, berr := filled.Build(); berr == nil {
		if fu, perr := locator.Parse(s); perr == nil {
			res.URL = fu
		}
	}
	return res, nil
}

// attributes sends "selector TAB cmd" and reads the attribute reply.
func (x *exchange) attributes(ctx context.Context, req *access.Request, masked, cmd string) ([]Attributes, error) {
	conn, br, err := x.send(ctx, req, x.line(cmd), nil, false)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	hdr, ok, err := peekLine(br, 64)
	if err != nil && len(hdr) == 0 {
		return nil, x.replyErr(err, masked, "no reply")
	}
	h, herr := parseReplyHeader(strings.TrimRight(string(hdr), "\r\n"))
	if !ok || herr != nil {
		if it, isErr := errorReply(br, req.MaxLine()); isErr {
			return nil, &access.ServerError{URL: masked, Command: strings.TrimRight(string(x.line(cmd)), "\r\n"), Code: "3", Text: it.Display}
		}
		return nil, &access.ProtocolError{URL: masked, Msg: "the reply to the attribute request has no Gopher+ header (+N, +-1, +-2): the server does not speak Gopher+"}
	}
	br.Discard(len(hdr))
	req.Received(strings.TrimRight(string(hdr), "\r\n"))
	body := dataReader(br, h)
	if !h.OK {
		return nil, x.plusError(body, req, masked, strings.TrimRight(string(x.line(cmd)), "\r\n"))
	}
	return readAttributes(body, req, masked)
}

// Views returns the views the server offers of the item u names, from
// its +VIEWS attribute (Gopher+ §2.6): the request "selector TAB !".
func (c *Client) Views(ctx context.Context, u *locator.URL, req *access.Request) ([]access.View, error) {
	x, err := c.newExchange(u, req)
	if err != nil {
		return nil, err
	}
	attrs, err := x.attributes(ctx, req, access.Masked(u), "!")
	if err != nil {
		return nil, err
	}
	if len(attrs) == 0 {
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "the attribute reply describes no item (no +INFO block)"}
	}
	views := []access.View{}
	for _, v := range attrs[0].Views {
		views = append(views, access.View{Name: v.Name(), Type: v.Type, Language: v.Language, Size: v.Size})
	}
	return views, nil
}

// replyErr names where a reply ended or failed.
func (x *exchange) replyErr(err error, masked, where string) error {
	var pe *access.ProtocolError
	if errors.As(err, &pe) {
		pe.URL = masked
		pe.Msg = where + ": " + pe.Msg
		return pe
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &access.ProtocolError{URL: masked, Msg: where + ": the server closed the connection"}
	}
	return err
}

// mediaType guesses the media type of the item: the Gopher+ view asked
// for, else the item type's, else the selector's extension.
func (x *exchange) mediaType(view string) string {
	if view != "" {
		return strings.ToLower(view)
	}
	switch x.g.Type {
	case "0":
		return "text/plain"
	case "h":
		return "text/html"
	case "g":
		return "image/gif"
	case "4":
		return "application/mac-binhex40"
	case "6":
		return "text/x-uuencode"
	}
	if t := mime.TypeByExtension(path.Ext(x.g.Selector)); t != "" {
		return t
	}
	if x.g.Type == "9" || x.g.Type == "5" {
		return "application/octet-stream"
	}
	return ""
}

// menuText writes it back as a menu line, for the dialogue.
func menuText(it Item) string {
	s := string(it.Type) + it.Display + "\t" + it.Selector + "\t" + it.Host + "\t" + it.Port
	if it.HasPlus {
		s += "\t" + it.Plus
	}
	return s
}

// peekLine returns the first line waiting in br, its line end included,
// without consuming it; ok is false when no LF comes within max octets
// (or before the stream ends, when the line returned is what there was).
func peekLine(br *bufio.Reader, max int) (line []byte, ok bool, err error) {
	for n := 1; ; n++ {
		b, err := br.Peek(n)
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			return b[:i+1], true, nil
		}
		if err != nil {
			return b, false, err
		}
		if n >= max {
			return b, false, nil
		}
		if nb := br.Buffered(); nb > n {
			n = min(nb, max) - 1
		}
	}
}

// errorReply reports whether the reply waiting in br is one error line
// and nothing else (a "." line at most): an item of type 3 (RFC 1436
// §3.8), or UMN gopherd's Gopher0 error, a line whose host is
// "error.host" (as UMN gopherd 3.0.5 writes it). It consumes the reply
// when it is one.
//
// An error reply is a menu line, as lynx reads one: the type, then the
// display string, selector, host and port, TAB-separated
// ("3Error: File or directory not found!\tTITLE\tnull.host\t1" from
// gophernicus, "3'/x' does not exist\t\terror.host\t1" from pygopherd).
// A reply without those TABs is the item itself: a text file whose
// first octet is "3" ("3.0 (native)", a Debian source/format file) is
// no error.
func errorReply(br *bufio.Reader, max int) (Item, bool) {
	first, ok, _ := peekLine(br, min(max+2, br.Size()))
	if len(first) == 0 {
		return Item{}, false
	}
	line := strings.TrimRight(string(first), "\r\n")
	if strings.Count(line, "\t") < 3 {
		return Item{}, false
	}
	it, err := ParseMenuLine(line)
	if err != nil || !(it.Type == '3' || it.Host == "error.host") {
		return Item{}, false
	}
	if !ok {
		// The whole reply is this one line, without its line end.
		br.Discard(len(first))
		return it, true
	}
	rest, _ := br.Peek(min(len(first)+8, br.Size()))
	tail := string(rest[len(first):])
	switch {
	case tail == "", tail == ".\r\n", tail == ".\n", tail == ".":
		br.Discard(len(rest))
		return it, true
	}
	return Item{}, false
}

// closer gives a reader the connection's Close.
type closer struct {
	io.Reader
	c io.Closer
}

func (c *closer) Close() error { return c.c.Close() }
