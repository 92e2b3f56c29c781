package gemini

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/dest"
)

func init() {
	access.Register("gemini", access.Info{DefaultPort: defaultPort}, func() access.Fetcher { return new(Client) })
}

// defaultMediaType is the media type of a 2x response whose META is
// empty (Gemini §3.2.2).
const defaultMediaType = "text/gemini; charset=utf-8"

// Client follows gemini URLs for package access: it connects through
// access.Request.Dial, completes a TLS handshake over that connection
// (the host name in SNI, in ASCII), trusts the server's certificate on
// first use (Gemini §4.2), presents a client certificate when the server
// asks for one and Certificate gives it (Gemini §4.3), sends the request
// line (Gemini §2) and reads the response header (readResponseHeader) and, for
// status 2x, the body, bounded by the access.Client's MaxSize.
//
// It records each Get's exchange when the access.Client has a Recorder
// (protocol "gemini", an access.RecordExchange: the request line as
// sent and the response header and body as received, above TLS; for
// input answered both exchanges, see Fetch), and reads a record back
// (ReplayRecord, Replay).
//
// Its zero value is ready, and keeps the certificates it trusts in
// DefaultKnownHosts. It holds only configuration: the answers to a
// server's request for input belong to one request and travel with it
// (access.Options.Answers, Ask). It is safe for concurrent use, and its
// fields must not be changed once it is in use.
type Client struct {
	// KnownHosts is the file of certificates trusted on first use;
	// "" is DefaultKnownHosts(). Each is kept under its server's
	// serverKey: the host's spellings (case, escapes, IDNA, a final ".",
	// an IPv4-mapped IPv6 address) are one server.
	KnownHosts string
	// Trust, when not nil, keeps the certificates trusted on first use
	// in memory instead of KnownHosts (a gateway's, see TrustStore).
	Trust *TrustStore
	// Insecure accepts every certificate and remembers none: for tests
	// only, since anybody between the client and the server can then
	// read and change what is exchanged.
	Insecure bool
	// Certificate, when not nil, gives the client certificate to present
	// to the server of u when the server asks for one in the TLS
	// handshake (Gemini §4.3; a server that requires one for u answers
	// 60 without it, 61 or 62 when it refuses the one presented, §3.2.6),
	// or nil to present none. A certificate names its holder to every
	// server it is presented to: the function chooses by u's host, port
	// and path. Its error fails the request.
	Certificate func(u *locator.URL) (*tls.Certificate, error)

	known knownHosts
	once  sync.Once
	file  string
}

var (
	_ access.Prober   = (*Client)(nil)
	_ access.Replayer = (*Client)(nil)
	_ access.Confiner = (*Client)(nil)
)

// Confined returns c when it names where its trusted certificates are
// kept (KnownHosts or Trust), else a Client configured as c whose
// certificates are kept in a TrustStore of its own: never in the
// person's DefaultKnownHosts, which requests a gateway follows for
// others would fill and decide (Gemini §4.2).
func (c *Client) Confined() access.Fetcher {
	if c.KnownHosts != "" || c.Trust != nil {
		return c
	}
	return &Client{Trust: new(TrustStore), Insecure: c.Insecure, Certificate: c.Certificate}
}

// Check refuses, before any connection, a URL that is not a gemini URL
// with a host and a valid port, one with a user or password (Gemini
// §1.2: the server would receive it on the request line), and one whose
// request would be longer than maxRequest octets (Gemini §2), at the
// offset of its input where it passes the limit.
func (c *Client) Check(u *locator.URL, req *access.Request) error {
	refuse := func(off int, rule, reason string) error {
		return &access.PolicyError{URL: access.Masked(u), Offset: off, Rule: rule, Reason: reason}
	}
	if u.HasUser() {
		return refuse(u.Offset(locator.UserComponent), "Gemini §1.2", "a gemini URL has no user or password; sent on the request line, it would reach the server")
	}
	if _, err := NewPlan(u); err != nil {
		var re *RequestError
		var se *locator.SchemeError
		switch {
		case errors.As(err, &re):
			return refuse(re.Offset, "Gemini §2", re.Error())
		case errors.As(err, &se):
			return refuse(u.Offset(locator.HostComponent), se.Rule, se.Message)
		}
		return refuse(0, "geminiurl", err.Error())
	}
	if h := dest.Name(u.Host()); dest.Numeric(h) && !isAddr(h) {
		return refuse(u.Offset(locator.HostComponent), "RFC 1738 §3.1", "the host "+strconv.Quote(h)+" is an IPv4 address in a form other than dotted decimal (hostnumber); resolvers read such forms differently, so the certificate trusted for it could not be told from its address's")
	}
	if c.KnownHosts == "" && c.Trust == nil && !c.Insecure && DefaultKnownHosts() == "" {
		return refuse(0, "Gemini §4.2", "there is no known-hosts file to trust certificates on first use (no configuration folder): name one")
	}
	return nil
}

// isAddr reports whether h is an IP address as netip reads it (an IPv4
// address in dotted decimal).
func isAddr(h string) bool {
	_, err := netip.ParseAddr(h)
	return err == nil
}

// knownFile returns the known-hosts file in use.
func (c *Client) knownFile() string {
	c.once.Do(func() {
		c.file = c.KnownHosts
		if c.file == "" {
			c.file = DefaultKnownHosts()
		}
	})
	return c.file
}

// reply is a response header read from a server, the rest of the
// connection positioned at the body, and the client certificate the
// request presented.
type reply struct {
	header
	br   *bufio.Reader
	conn net.Conn
	cert string // the fingerprint of the client certificate presented, "" for none
}

// exchange connects, sends u's request and reads the response header.
// On success the connection is open, positioned at the body, and closed
// when ctx ends before its Close. cp, when not nil, keeps the octets of
// the request and the response (above TLS).
// A secret request (the answer to status 11) is logged with its search
// part masked.
func (c *Client) exchange(ctx context.Context, u *locator.URL, req *access.Request, secret bool, cp *access.Capture) (*reply, error) {
	pl, err := NewPlan(u)
	if err != nil {
		return nil, err
	}
	raw, err := req.Dial(ctx, pl.Host, pl.Port)
	if err != nil {
		return nil, err
	}
	// The caller's context ends the exchange at any point, the
	// handshake, the header or the body.
	dialed := raw
	raw = &ctxConn{Conn: dialed, stop: context.AfterFunc(ctx, func() { dialed.Close() })}
	server := net.JoinHostPort(pl.Host, strconv.Itoa(pl.Port))
	var note, presented string
	cfg := &tls.Config{
		// SNI: Go leaves an IP address out of server_name (RFC 6066
		// §3 allows only a name there).
		ServerName: pl.Host,
		MinVersion: tls.VersionTLS12, // Gemini §4.1
		// The chain is not verified against roots: servers present
		// self-signed certificates, trusted on first use instead.
		InsecureSkipVerify: true,
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("the server presented no certificate")
			}
			cert := cs.PeerCertificates[0]
			fp := fingerprint(cert)
			if c.Insecure {
				note = "certificate " + fp + " not checked (insecure)"
				return nil
			}
			var v verdict
			var err error
			if key := serverKey(pl.Host, pl.Port); c.Trust != nil {
				v, err = c.Trust.check(key, cert, time.Now())
			} else {
				v, err = c.known.check(c.knownFile(), key, cert, time.Now())
			}
			if err != nil {
				return err
			}
			note = "certificate " + fp + ": " + string(v)
			return nil
		},
		// Called only when the server asks for a certificate; an empty
		// one presents none.
		GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
			if c.Certificate == nil {
				return &tls.Certificate{}, nil
			}
			cert, err := c.Certificate(u)
			if err != nil {
				return nil, &CertificateChoiceError{URL: access.Masked(u), Err: err}
			}
			if cert == nil || len(cert.Certificate) == 0 {
				return &tls.Certificate{}, nil
			}
			presented = fingerprintDER(cert.Certificate[0])
			return cert, nil
		},
	}
	tc := tls.Client(raw, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		raw.Close()
		// The trust decision's own error, not the handshake's
		// wrapping of it: it says what to do.
		var ce *CertificateError
		if errors.As(err, &ce) {
			return nil, ce
		}
		var ke *KnownHostsError
		if errors.As(err, &ke) {
			return nil, ke
		}
		var cce *CertificateChoiceError
		if errors.As(err, &cce) {
			return nil, cce
		}
		return nil, err
	}
	st := tc.ConnectionState()
	if presented != "" {
		note += "; client certificate " + presented + " presented"
	}
	req.Notef("%s established with %s; %s", tls.VersionName(st.Version), server, note)
	conn := cp.Conn(tc)
	line := string(pl.Request[:len(pl.Request)-2])
	if secret {
		line = line[:strings.IndexByte(line, '?')] + "?****"
	}
	req.Sent(line)
	if _, err := conn.Write(pl.Request); err != nil {
		conn.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(conn, 4096)
	h, err := readHeader(u, req, br)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return &reply{header: h, br: br, conn: conn, cert: presented}, nil
}

// readHeader reads a response header from br (readResponseHeader) and logs it; a
// header that breaks Gemini §3.1 is an *access.ProtocolError.
func readHeader(u *locator.URL, req *access.Request, br *bufio.Reader) (header, error) {
	h, err := readResponseHeader(br)
	if err != nil {
		var he *HeaderError
		if errors.As(err, &he) || errors.Is(err, ErrNoHeader) {
			return header{}, &access.ProtocolError{URL: access.Masked(u), Msg: err.Error()}
		}
		return header{}, err
	}
	if h.Meta == "" {
		req.Received(strconv.Itoa(h.Status))
	} else {
		req.Received(strconv.Itoa(h.Status) + " " + h.Meta)
	}
	return h, nil
}

// fingerprintDER is fingerprint of a certificate's DER encoding.
func fingerprintDER(der []byte) string {
	d := sha256.Sum256(der)
	return "SHA256:" + hex.EncodeToString(d[:])
}

// A CertificateChoiceError says that Client.Certificate failed to give
// the client certificate for a URL (a key that does not match its
// certificate, a file that cannot be read).
type CertificateChoiceError struct {
	URL string // masked
	Err error
}

func (e *CertificateChoiceError) Error() string {
	return "gemini: the client certificate for " + e.URL + ": " + e.Err.Error()
}

func (e *CertificateChoiceError) Unwrap() error { return e.Err }

// refusal returns the error of a response other than 2x and 3x: a
// *access.ServerError with the status, META and the client's note. cert
// is the fingerprint of the client certificate the request presented,
// "" for none; replayed says the response is a recorded one, of which
// that is not known.
func refusal(u *locator.URL, command string, h header, cert string, replayed bool) error {
	var rule string
	switch h.Class() {
	case input:
		rule = "Gemini §3.2.1: the server asks for input, META its prompt; send it as the URL's search part (" + requestURL(u) + "?...)"
	case tempFailure:
		rule = "Gemini §3.2.4: a temporary failure; the same request may succeed later"
	case permFailure:
		rule = "Gemini §3.2.5: a permanent failure"
	case certRequired:
		rule = certRule(h.Status, cert, replayed)
	}
	return &access.ServerError{URL: access.Masked(u), Command: command, Code: strconv.Itoa(h.Status), Text: h.Meta, Rule: rule}
}

// certRule is the client's note on a 6x response (Gemini §3.2.6 and
// Appendix 1): 60 a certificate is required, 61 the one presented is not
// authorised, 62 it is not valid. The 63 to 65 of earlier versions of
// the specification (63 rejected, 64 not yet valid, 65 expired, which
// molly-brown still sends) are told as 62 is.
func certRule(status int, cert string, replayed bool) string {
	which := "the certificate presented (" + cert + ")"
	if cert == "" {
		which = "no certificate was presented"
	}
	if replayed {
		which = "the record does not say which certificate was presented"
	}
	switch status {
	case 60:
		if cert == "" && !replayed {
			return "Gemini §3.2.6: the server requires a client certificate for this resource (60 CLIENT CERTIFICATE REQUIRED), and this client presented none"
		}
		return "Gemini §3.2.6: the server requires a client certificate for this resource (60 CLIENT CERTIFICATE REQUIRED); " + which
	case 61:
		return "Gemini §3.2.6: the server does not authorise the client certificate for this resource (61 CERTIFICATE NOT AUTHORISED); " + which
	}
	return "Gemini §3.2.6: the server does not take the client certificate as valid (62 CERTIFICATE NOT VALID, or an earlier 6x: expired, not yet valid); " + which
}

// redirect returns the *access.Redirect a 3x response asks for, or a
// *access.ProtocolError when META names no URL.
func redirect(u *locator.URL, h header) error {
	if h.Meta == "" {
		return &access.ProtocolError{URL: access.Masked(u), Msg: "status " + strconv.Itoa(h.Status) + " (redirect) without a URL in META (Gemini §3.2.3)"}
	}
	return &access.Redirect{Location: h.Meta, Code: strconv.Itoa(h.Status)}
}

// Fetch retrieves the object u names. Status 2x is the object: its Body
// the octets after the header until the server closes the connection,
// bounded by MaxSize, its MediaType META (defaultMediaType when empty),
// its Size unknown (-1). 1x asks for input (Gemini §3.2.1): when Answers
// or Ask gives it, the same URL is asked for once more, in the same
// Fetch (not a redirection), its search part replaced by the input
// percent-encoded; the Resource's URL is then that URL, except for the
// answer to 11 (SENSITIVE INPUT), which is kept out of it and logged
// masked. Input asked for again is not answered twice. 3x is an
// *access.Redirect to META, which the access.Client follows within
// MaxRedirects. Every other status is an *access.ServerError with the
// status as Code, META as Text, and for 6x a Rule that says whether a
// client certificate was presented and which. A header that breaks
// Gemini §3.1 is an *access.ProtocolError; a certificate other than the
// one trusted is a *CertificateError; a known-hosts file that cannot be
// used a *KnownHostsError; Certificate's failure a
// *CertificateChoiceError.
//
// The record of a Get (access.Client.Recorder) is one exchange under
// u: the request line and the response. For input answered (status 10)
// it is both exchanges, in the order they crossed: the request for u
// and then the request with the answer, and the 1x response and then
// the answered response (header and body), so that a Client that
// follows the archive with the same answer gives the same Resource
// (ReplayRecord). The answer to 11 (SENSITIVE INPUT) is a secret, which
// an archive must not keep: that record is the request for u and the
// prompt alone.
func (c *Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	cp := req.Capture(access.RecordExchange, "gemini")
	r, err := c.exchange(ctx, u, req, false, cp)
	if err != nil {
		return nil, err
	}
	var shown *locator.URL // the URL answered, when it may be shown
	if r.Class() == input {
		r.conn.Close()
		v, ok, err := c.answer(req, r.header)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, refusal(u, requestURL(u), r.header, r.cert, false)
		}
		secret := r.Status == 11
		au, err := withInput(u, v)
		if err != nil {
			return nil, err
		}
		if _, err := NewPlan(au); err != nil {
			msg := err.Error()
			if secret {
				msg = "the request with the input would be longer than 1024 octets"
			}
			return nil, &access.PolicyError{URL: access.Masked(u), Rule: "Gemini §2", Reason: msg}
		}
		if !secret {
			shown = au
		} else {
			cp = nil // the answer is a secret: not recorded
		}
		r, err = c.exchange(ctx, au, req, secret, cp)
		if err != nil {
			return nil, err
		}
	}
	return respond(u, req, r.header, r.br, r.conn, shown, r.cert, false)
}

// respond is what Fetch and Replay make of a response header h other
// than an input answered: for 2x the Resource whose Body is the rest of
// br (closing rest when closed), for 3x an *access.Redirect, else the
// refusal. shown is the Resource's URL when it is not u.
func respond(u *locator.URL, req *access.Request, h header, br *bufio.Reader, rest io.Closer, shown *locator.URL, cert string, replayed bool) (*access.Resource, error) {
	switch h.Class() {
	case success:
		mt := h.Meta
		if mt == "" {
			mt = defaultMediaType
		}
		return &access.Resource{Body: req.Limit(&body{Reader: br, rest: rest}), MediaType: mt, Size: -1, URL: shown}, nil
	case redirectClass:
		rest.Close()
		return nil, redirect(u, h)
	}
	rest.Close()
	return nil, refusal(u, requestURL(u), h, cert, replayed)
}

// Replay reads response, a response to u kept by a Recorder (the header
// and what followed it, as Fetch received them), back as Fetch reads a
// live one, without any connection: 2x is the Resource, its Body the
// octets after the header, bounded by MaxSize; 3x an *access.Redirect;
// 1x the *access.ServerError Fetch returns when no answer is given (the
// response alone does not say which answer a recorded answered response
// is to: an access.Client with an Archive calls ReplayRecord, which
// reads the record's requests too); 4x, 5x and 6x *access.ServerError;
// a header that breaks Gemini §3.1 an *access.ProtocolError.
func (c *Client) Replay(ctx context.Context, u *locator.URL, req *access.Request, response io.Reader) (*access.Resource, error) {
	if _, err := NewPlan(u); err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(response, 4096)
	h, err := readHeader(u, req, br)
	if err != nil {
		return nil, err
	}
	return respond(u, req, h, br, noClose{}, nil, "", true)
}

var _ access.RecordReplayer = (*Client)(nil)

// ReplayRecord reads a recorded exchange back (access.RecordReplayer)
// as Replay does, and follows a recorded answer to input: when the
// response is 10 (INPUT) and Answers or Ask gives an answer, the
// record's requests must be u's and then u's with that answer (the
// record of an answered Get, see Fetch), and its second response is then read as
// Fetch reads the answered one, the Resource's URL the URL with the
// answer. Without an answer, or when the record holds no answered
// request (the answer to 11 is never kept), no request at all (an
// archive that gives back responses only), or another answer's, it is
// the *access.ServerError of the 1x, as a live Get that cannot answer,
// its Rule saying why.
func (c *Client) ReplayRecord(ctx context.Context, u *locator.URL, req *access.Request, rec *access.Record) (*access.Resource, error) {
	if rec.Kind != access.RecordExchange {
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "a gemini record is an exchange, not a resource"}
	}
	first, err := NewPlan(u)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(access.RecordReader(rec), 4096)
	h, err := readHeader(u, req, br)
	if err != nil {
		return nil, err
	}
	if h.Class() != input {
		return respond(u, req, h, br, noClose{}, nil, "", true)
	}
	v, ok, err := c.answer(req, h)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, refusal(u, requestURL(u), h, "", true)
	}
	unanswered := func(why string) error {
		err := refusal(u, requestURL(u), h, "", true)
		var se *access.ServerError
		if errors.As(err, &se) {
			se.Rule += "; the archive does not give the answered response: " + why
		}
		return err
	}
	if h.Status == 11 {
		return nil, unanswered("the answer to SENSITIVE INPUT is a secret, which is not recorded")
	}
	au, err := withInput(u, v)
	if err != nil {
		return nil, err
	}
	pl, err := NewPlan(au)
	if err != nil {
		return nil, &access.PolicyError{URL: access.Masked(u), Rule: "Gemini §2", Reason: err.Error()}
	}
	if rec.Request == nil {
		return nil, unanswered("the record gives no request, so which answer it holds is unknown")
	}
	sent, err := io.ReadAll(io.LimitReader(rec.Request.Reader(), 2*(maxRequest+2)+1))
	if err != nil {
		return nil, err
	}
	switch {
	case string(sent) == string(first.Request):
		return nil, unanswered("the record holds the prompt alone")
	case string(sent) != string(first.Request)+string(pl.Request):
		return nil, unanswered("it holds the response to another request than this answer's")
	}
	h, err = readHeader(u, req, br)
	if err != nil {
		return nil, err
	}
	return respond(u, req, h, br, noClose{}, au, "", true)
}

// answer returns the input a 1x response asks for (Gemini §3.2.1): from
// the request's answers (access.Options.Answers) by the prompt (META,
// compared as promptKey does: in any case, with or without a final ":"
// or "?") or by its number, "1" (a gemini request asks one question),
// else from the request's Ask (access.Question Kind "Ask", or "AskP"
// and Secret for status 11, SENSITIVE INPUT). ok is false when none
// gives it.
func (c *Client) answer(req *access.Request, h header) (v string, ok bool, err error) {
	var answers map[string]string
	var ask func(access.Question) (string, error)
	if req != nil {
		answers, ask = req.Answers(), req.Ask()
	}
	for k, v := range answers {
		if promptKey(k) == promptKey(h.Meta) {
			return v, true, nil
		}
	}
	if v, ok := answers["1"]; ok {
		return v, true, nil
	}
	if ask == nil {
		return "", false, nil
	}
	q := access.Question{Kind: "Ask", Prompt: h.Meta}
	if h.Status == 11 {
		q.Kind, q.Secret = "AskP", true
	}
	v, err = ask(q)
	if err != nil {
		return "", false, err
	}
	return v, true, nil
}

// promptKey is the form of a prompt an answer is found by: without the
// spaces around it and its final ":" or "?", in lower case.
func promptKey(s string) string {
	return strings.ToLower(strings.TrimRight(strings.TrimSpace(s), ":? "))
}

// withInput returns u with its search part replaced by the input v,
// percent-encoded (Gemini §3.2.1): every octet but the unreserved ones
// of RFC 3986 §2.3, so that a space is %20 and "?", "#", "&" or "+"
// reach the server as the person's text.
func withInput(u *locator.URL, v string) (*locator.URL, error) {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch ch := v[i]; {
		case 'a' <= ch && ch <= 'z', 'A' <= ch && ch <= 'Z', '0' <= ch && ch <= '9', ch == '-', ch == '.', ch == '_', ch == '~':
			b.WriteByte(ch)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[ch>>4])
			b.WriteByte(hex[ch&15])
		}
	}
	p := u.Parts()
	p.HasSearch, p.Search = true, b.String()
	p.HasFragment, p.Fragment = false, ""
	if !p.HasPath {
		// gemini://host?x is not a URL of RFC 1738's form: the path
		// "/" it means is written (Gemini §1.2).
		p.HasPath, p.Path = true, ""
	}
	return p.URL()
}

// body is a 2x response's body: the rest of the connection (or of a
// recorded response), which Close closes.
type body struct {
	io.Reader
	rest io.Closer
}

func (b *body) Close() error { return b.rest.Close() }

// noClose is the rest of a recorded response: the access.Client closes
// the record itself.
type noClose struct{}

func (noClose) Close() error { return nil }

// ctxConn is a connection that its context closes: stop undoes that on
// Close.
type ctxConn struct {
	net.Conn
	stop func() bool
}

func (c *ctxConn) Close() error {
	c.stop()
	return c.Conn.Close()
}

// Probe says whether the object u names is there. Gemini has no request
// for a header alone: the request is sent, the header read, and the
// connection closed before the body. 2x is access.StateOK; 51 (NOT
// FOUND) and 52 (GONE) access.StateGone; other statuses
// access.StateRefused, 4x Transient; 3x an *access.Redirect for the
// Client to follow.
func (c *Client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (*access.Status, error) {
	r, err := c.exchange(ctx, u, req, false, nil)
	if err != nil {
		return nil, err
	}
	r.conn.Close()
	h := r.header
	st := &access.Status{Code: strconv.Itoa(h.Status), Text: h.Meta, Command: requestURL(u), Size: -1, URL: u}
	switch h.Class() {
	case success:
		st.State = access.StateOK
		return st, nil
	case redirectClass:
		return nil, redirect(u, h)
	}
	st.Err = refusal(u, st.Command, h, r.cert, false)
	switch {
	case h.Status == 51 || h.Status == 52:
		st.State = access.StateGone
	default:
		st.State = access.StateRefused
		st.Transient = h.Class() == tempFailure
	}
	return st, nil
}
