package ftp

import (
	"context"
	"errors"
	"io"
	"mime"
	"net"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// The retrieval methods the client offers (Client.Method), the first
// the default.
const (
	// MethodRFC1738 carries out RFC 1738 §3.2.2 exactly: one CWD per
	// <cwd> segment (an empty one as "CWD " with an empty argument), then
	// TYPE and RETR <name>, or NLST.
	MethodRFC1738 = "rfc1738"
	// MethodDirect is the note of the URL draft 03 (March 1994, section
	// "Path", as the diff Tim Berners-Lee sent the URI working group on
	// 24 March 1994 quotes it): "attempt first a direct retrieval
	// guessing unix syntax, and, if that fails, ... the official
	// sequence": RETR (or NLST) of the whole decoded path, its segments
	// joined by "/", then on a refusal the rfc1738 sequence on the same
	// connection.
	MethodDirect = "direct"
	// MethodSingleCWD sends one CWD with the whole directory path (its
	// segments joined by "/"), as curl's --ftp-method singlecwd, then
	// TYPE and RETR <name> or NLST.
	MethodSingleCWD = "singlecwd"
	// MethodNoCWD sends no CWD: RETR or NLST with the whole path, as
	// curl's --ftp-method nocwd.
	MethodNoCWD = "nocwd"
	// MethodMetadata is the rfc1738 sequence with the commands that ask
	// about a file before retrieving it, for a caller that wants its size
	// and date (a probe): FEAT (RFC 2389) after the login, and before
	// RETR, when FEAT lists them, SIZE (TYPE I only: in TYPE A it counts
	// the CRLF form, RFC 3659 §4) and MDTM (RFC 3659 §3). A size above
	// access.Client.MaxSize then fails before RETR. RFC 1738 §3.2.2
	// sends none of these, so it is not the default.
	MethodMetadata = "metadata"
)

// neutralAddress is the anonymous FTP password sent when the caller
// gives no end-user address (Client.UserAddress). RFC 1738 §3.2.1 asks
// for "the end user's email address"; without one the client sends this
// address in the reserved example.com domain (RFC 2606), as curl does,
// rather than invent or guess a real one.
const neutralAddress = "ftp@example.com"

// copyBuffer is the size of the buffer a Body's WriteTo copies through:
// large reads keep the per-read cost (a deadline set on each) small
// against the transfer.
const copyBuffer = 256 << 10

func init() {
	access.Register("ftp", access.Info{DefaultPort: 21, Methods: []string{MethodRFC1738, MethodDirect, MethodSingleCWD, MethodNoCWD, MethodMetadata}, Resume: true}, func() access.Fetcher { return new(Client) })
}

// Client follows ftp URLs (RFC 1738 §3.2) by FTP (RFC 959), in passive
// mode (RFC 2428 EPSV, else PASV). It implements access.Fetcher and is
// registered for the scheme "ftp".
//
// The session is: connect; the greeting (220); USER and, when the server
// asks (331), PASS (§3.2.1: the URL's user and password; "anonymous" and
// the end user's address when the URL names no user; a password asked of
// the person when the URL names a user without one; see Login below);
// then the method's commands (see the Method constants): for the
// default, RFC 1738 §3.2.2's own, one CWD per <cwd> segment, TYPE, and
// RETR <name> or NLST, each transfer preceded by EPSV (or PASV: passive
// mode needs one, RFC 2428, RFC 959 §4.1.1); QUIT, or the session is
// kept for the next URL (see Sessions below). Nothing else is sent for a
// file, unless the request resumes it (see Resume below), but PWD before
// a session's first CWD (see Sessions).
//
// In TYPE I, Resource.Size is the count the RETR's preliminary reply
// states ("150 ... (N bytes)", TransferSize; SIZE's when resumed), when
// it states one: vsftpd
// does; pyftpdlib states none, and Size is -1. A stated count above
// access.Client.MaxSize aborts the transfer at once. In TYPE A Size is
// -1: vsftpd's count is of the file as stored, which the Body delivers
// only when no CR LF is stored (vsftpd sends each stored LF as CR LF, a
// stored CR LF as is, and the Body turns each CR LF into LF:
// "a\r\nb\n", 5 stored, is delivered as "a\nb\n"). Modified is known
// only with MethodMetadata (MDTM).
//
// TYPE is the URL's typecode (";type=a" TYPE A, ";type=i" TYPE I, RFC
// 1738 §3.2.2); without one it is TYPE I, which delivers the file's
// exact octets, as curl and wget do (§3.2.3 leaves the choice to the
// client), or TYPE A when Client.ASCII is set.
//
// In TYPE A the data are NVT-ASCII with CRLF line ends (RFC 959
// §3.1.1.1); the Body undoes that: each CR LF pair becomes LF, a CR not
// followed by LF is delivered as is, and nothing else changes (no
// character set is converted). In TYPE I every octet is delivered as
// sent.
//
// A directory (";type=d", or an empty name) is listed with NLST, whose
// lines are the entries' names (RFC 959 §4.1.3), as §3.2.2 says. Here
// the client goes beyond §3.2.2: NLST gives names only, and a listing
// should say which entries are directories (so that their URLs end in
// "/") and their sizes and dates. When NLST named any entry the client
// asks FEAT (RFC 2389), and when it lists MLST lists the same directory
// with MLSD (RFC 3659 §7), else, as a last resort, with LIST, read in
// the common Unix "ls -l" form. An entry that neither describes is
// reported as a file. Each entry's URL is written by URL.Build from the
// listed URL's user (not its password), host, port and directory: a
// directory's URL ends in "/" (an empty name), which lists it.
//
// Login: when the URL names a user without a password, the password
// access.Client.Login (a .netrc) knows for that user and host is sent, and
// only when it knows none is the person asked (access.Client.Password).
// When the URL names no user, the login Client.Login gives for the host
// is used instead of anonymous FTP, as curl --netrc does; anonymous FTP
// when it gives none. A password from either source is masked in the
// dialogue ("> PASS ****") as the URL's own is.
//
// Resume (access.Client.GetFrom, a Request's Offset above 0; RFC 959
// §4.1.3 REST, in stream mode RFC 3659 §5): after TYPE I, "SIZE <name>"
// (RFC 3659 §4) for the whole file's size (Resource.Size, when the
// server answers 213), then after EPSV "REST <offset>", which must be
// answered 350, then RETR; Resource.Offset is the offset. An offset equal
// to the size gives an empty Body without RETR (curl does the same); one
// past it an *OffsetError; a server that refuses REST a
// *access.ServerError naming it. Check refuses resuming a directory
// (a listing has no octets to count) and a TYPE A transfer (";type=a", or
// Client.ASCII): the octets of its Body are not the file's (line ends
// converted), so an offset counted in them names no octet of the file.
// It refuses any resume on an access.Client that records (an archive):
// the octets from an offset on are not the file (see Fetch).
//
// Sessions: a Client keeps logged-in sessions for the next request
// (Fetch or Probe) of the same access.Client to the same server (host,
// port) under the same login (user and password sent), as curl keeps its
// control connection. A retrieval's session goes back to the Client when
// its Body was read to its end and the server's final reply (226 or 250)
// read, or its listing's transfers completed (NLST read to its end, as
// it is at once for a directory of at most maxDescribed entries), and
// the Body or listing is closed; a probe's when the server answered it.
// A retrieval's session is never reused after a Body closed early
// (ABOR), a failed transfer, a refusal that ends the request (4yz, 5yz), a
// broken connection or a deadline: it ends with QUIT, or is closed, as
// before. A session in use is no other request's: concurrent requests
// log in on sessions of their own. At most 4 idle sessions are kept per
// server and login, 16 in all (the oldest idle one is ended first), each
// for ProbeIdle; CloseIdle (access.Client.CloseIdle) ends them with QUIT.
//
// RFC 1738 §3.2.2 executes a URL's first CWD "relative to the default
// directory" of the user logged in, so a reused session must begin
// there, in its login directory: before a session's first CWD the
// client asks PWD (RFC 959 §4.1.3) and keeps the directory its 257 reply
// names, and a reused session that has left it returns with "CWD
// <directory>" before the next URL's commands. A session whose PWD was
// not answered 257 with a directory is not reused once it has left it;
// one whose CWD back fails is ended (QUIT) and the request logs in anew.
// TYPE is sent for each transfer as the URL says; a listing without a
// typecode on a session a TYPE I transfer left is preceded by TYPE A, the
// type a login begins with (RFC 959 §3.1.1.1). When the server has ended
// the idle session (a 421 reply, RFC 959 §4.2.1, or the connection closed,
// at the first command sent on it), the request begins again, once, on a
// new login: nothing of it was done.
//
// Each access.Client, which makes its own ftp Client or is given one,
// has its own sessions. Its zero value is ready; it is safe for
// concurrent use, and its fields must not be changed once it is in use.
type Client struct {
	// Method is the retrieval method, one of the Method constants; ""
	// is MethodRFC1738.
	Method string
	// UserAddress is the end user's e-mail address, the password of an
	// anonymous login (RFC 1738 §3.2.1); "" sends neutralAddress.
	UserAddress string
	// ASCII transfers a file whose URL has no typecode in TYPE A, with
	// the line ends converted, as RFC 959 §3.1.1.1 describes; false
	// transfers it in TYPE I, the file's exact octets (RFC 1738 §3.2.3
	// leaves the choice to the client). A URL's ";type=a" or ";type=i"
	// is followed either way.
	ASCII bool

	sessions pool // idle logged-in sessions
}

// Check refuses, before any connection, an ftp URL that stands for no
// FTP commands (ftp.NewPlan's errors: no host, a typecode other than a,
// i, d) and one whose decoded user, password or path holds a CR, LF or
// NUL, which would end a command early and begin another (RFC 1738 §6):
// a *access.PolicyError with the offset in the URL and the rule. It also
// refuses a method the client does not offer, and, for a request that
// resumes at an offset (access.Request.Offset), a directory, a TYPE A
// transfer, and any transfer when the access.Client records (rule
// "resume"; see Client and Fetch).
func (c *Client) Check(u *locator.URL, req *access.Request) error {
	for _, p := range []struct {
		comp locator.Component
		s    string
	}{{locator.UserComponent, u.User()}, {locator.PasswordComponent, u.Password()}, {locator.PathComponent, u.Path()}} {
		if i := access.DelimiterAt(p.s); i >= 0 {
			return &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(p.comp) + i, Rule: "RFC 1738 §6",
				Reason: "a decoded CR, LF or NUL here would end the FTP command early and begin another"}
		}
	}
	if _, err := NewPlan(u, ""); err != nil {
		var pe *PlanError
		if errors.As(err, &pe) {
			return &access.PolicyError{URL: access.Masked(u), Offset: pe.Problem.Offset, Rule: pe.Problem.Rule, Reason: pe.Problem.Message}
		}
		return err
	}
	if _, err := req.Method(c.Method); err != nil {
		return err
	}
	if req.Offset() > 0 {
		if err := c.checkResume(u); err != nil {
			return err
		}
		if req.Client != nil && req.Client.Recorder != nil {
			// An archive's record of u is the object u names; the octets
			// from an offset on are not it, and a record of them would
			// replay as if they were (WARC has no field that says where
			// a resource's block begins in the object).
			return &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.PathComponent), Rule: "resume",
				Reason: "the Client records (an archive), and a resumed retrieval's octets are not the file: only a whole retrieval is recorded; fetch it whole from octet 0"}
		}
	}
	return nil
}

// checkResume refuses to resume what FTP cannot begin at an offset of the
// file's own octets: a listing, and a TYPE A transfer.
func (c *Client) checkResume(u *locator.URL) error {
	plan, err := c.plan(u)
	if err != nil {
		return err
	}
	for _, cmd := range plan.Commands {
		switch {
		case cmd.Verb == "NLST":
			return &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.PathComponent), Rule: "resume",
				Reason: "the URL names a directory, whose listing cannot be resumed at an offset"}
		case cmd.Verb == "TYPE" && cmd.Arg == "A":
			off := u.Offset(locator.PathComponent)
			why := "the URL's typecode"
			if at, _, _, _ := typePart(u.Path()); at >= 0 {
				off += at
			}
			if cmd.Guessed {
				why = "the client's ASCII setting"
			}
			return &access.PolicyError{URL: access.Masked(u), Offset: off, Rule: "resume",
				Reason: "the transfer is in TYPE A (" + why + "), whose octets are not the file's: the line ends are converted (RFC 959 §3.1.1.1), so an offset counted in what was received names no octet of the file for REST (RFC 3659 §5.1); resume in TYPE I (;type=i)"}
		}
	}
	return nil
}

// Fetch retrieves the file or lists the directory u names, on an idle
// session of the same server and login when c has one. See Client.
//
// When the access.Client records, the record is a resource
// (access.RecordResource, protocol "ftp") with the control connection's
// dialogue (the password masked, "> PASS ****"): a file's octets as the
// Body delivers them; for a directory, the octets of its listing's
// transfers as the server sent them, NLST's and MLSD's or LIST's, the
// parts of a multipart body (see ReplayRecord), from which a Client that
// follows the archive makes the same Listing. A resumed retrieval (an
// Offset above 0) is refused by Check when the Client records: its
// octets are not the file, and a record of them would replay as the
// whole file.
func (c *Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	var cap *access.Capture
	if req.Offset() == 0 {
		cap = req.Capture(access.RecordResource, "ftp") // before the dialogue, which it keeps
	}
	method, err := req.Method(c.Method)
	if err != nil {
		return nil, err
	}
	plan, err := c.plan(u)
	if err != nil {
		return nil, err
	}
	if err := credentials(u, plan, req); err != nil {
		return nil, err
	}
	key := poolKey(plan, req)
	for fresh := false; ; fresh = true {
		s, err := c.sessions.get(ctx, key, u, plan, req, fresh)
		if err != nil {
			return nil, err
		}
		cap.SetAddr(s.conn.RemoteAddr())
		res, err := s.run(ctx, plan, method)
		if err == nil {
			return res, nil // a Body's or a Listing's Close releases the session
		}
		if !fresh && idleEnded(err) {
			retried(req, err)
			s.close()
			continue
		}
		s.quitAfterError(err)
		return nil, err
	}
}

// plan returns NewPlan's commands for u with c's settings: the
// anonymous password c.UserAddress, and TYPE A for the TYPE the URL does
// not give when c.ASCII.
func (c *Client) plan(u *locator.URL) (*Plan, error) {
	p, err := NewPlan(u, c.UserAddress)
	if err != nil {
		return nil, err
	}
	if c.ASCII {
		for i := range p.Commands {
			if p.Commands[i].Verb == "TYPE" && p.Commands[i].Guessed {
				p.Commands[i].Arg = "A"
			}
		}
	}
	return p, nil
}

// credentials applies to plan's USER and PASS the login
// access.Client.Login gives (a .netrc; access.Request.Login) for a URL
// that gives no password: for a URL with a user, the password Login
// knows for it, so that the person is asked (RFC 1738 §3.2.1) only when
// it knows none; for a URL with no user, Login's login instead of
// anonymous FTP, as curl --netrc does. A URL that gives a password is
// left as it is, and so is the plan when Login knows nothing. A login
// or password holding a CR, LF or NUL, which would end the USER or PASS
// command early, is refused (RFC 1738 §6).
func credentials(u *locator.URL, plan *Plan, req *access.Request) error {
	if u.HasUser() && u.HasPassword() {
		return nil
	}
	user, pass := &plan.Commands[0], &plan.Commands[1]
	asked := ""
	if u.HasUser() {
		asked = user.Arg
	}
	login, password, ok := req.Login(asked)
	if !ok {
		return nil
	}
	if login == "" {
		if asked == "" {
			return nil // no login to use: anonymous FTP
		}
		login = asked
	}
	if strings.ContainsAny(login, "\r\n\x00") || strings.ContainsAny(password, "\r\n\x00") {
		return &access.PolicyError{URL: access.Masked(u), Rule: "RFC 1738 §6", Reason: "the login access.Client.Login gives holds a CR, LF or NUL, which would end the USER or PASS command"}
	}
	user.Arg = login
	pass.Arg, pass.AskUser = password, password == ""
	if password == "" {
		req.Notef("login %s from access.Client.Login, without a password", login)
	} else {
		req.Notef("login %s and its password from access.Client.Login", login)
	}
	return nil
}

// quitAfterError ends the session after a failure: politely when the
// control connection is still in step (the server refused a command),
// else by closing it.
func (s *session) quitAfterError(err error) {
	var se *access.ServerError
	var oe *OffsetError
	if errors.As(err, &se) || errors.As(err, &oe) || errors.Is(err, access.ErrNoPassword) || errors.Is(err, access.ErrTooLarge) {
		s.quit()
		return
	}
	s.close()
}

// run carries out the method's commands on a logged-in session in its
// login directory.
func (s *session) run(ctx context.Context, plan *Plan, method string) (*access.Resource, error) {
	if method == MethodMetadata {
		s.meta = true
		if s.feat == nil {
			if err := s.features(); err != nil {
				return nil, err
			}
		}
	}
	steps := plan.Commands[2:] // after USER and PASS
	switch method {
	case MethodSingleCWD:
		return s.do(ctx, singleCWD(steps))
	case MethodNoCWD:
		return s.do(ctx, noCWD(steps))
	case MethodDirect:
		res, err := s.do(ctx, noCWD(steps))
		var se *access.ServerError
		if !errors.As(err, &se) || !hasCWD(steps) {
			return res, err
		}
		s.req.Notef("direct retrieval refused (%s %s); the official sequence (RFC 1738 §3.2.2) follows", se.Code, se.Text)
		return s.do(ctx, steps)
	}
	return s.do(ctx, steps)
}

func hasCWD(steps []Command) bool {
	return len(steps) > 0 && steps[0].Verb == "CWD"
}

// splitSteps returns the CWD arguments of steps and the rest.
func splitSteps(steps []Command) (dirs []string, rest []Command) {
	i := 0
	for ; i < len(steps) && steps[i].Verb == "CWD"; i++ {
		dirs = append(dirs, steps[i].Arg)
	}
	return dirs, steps[i:]
}

// joinPath joins directory segments and a name with "/" as they are
// written in the URL (decoded), the Unix syntax draft 03 guesses ("the
// filename will in fact look the same as the URI path"): ["", "etc"]
// and "motd" give "/etc/motd", ["pub", ""] and "f" give "pub//f". With
// no name the directory's path is returned without the "/" that ends it,
// except the root: [""] gives "/".
func joinPath(dirs []string, name string) string {
	if len(dirs) == 0 {
		return name
	}
	p := strings.Join(dirs, "/") + "/" + name
	if name == "" && len(p) > 1 {
		p = p[:len(p)-1]
	}
	return p
}

// singleCWD rewrites steps for MethodSingleCWD: one CWD with the joined
// directories.
func singleCWD(steps []Command) []Command {
	dirs, rest := splitSteps(steps)
	if len(dirs) == 0 {
		return rest
	}
	return append([]Command{{Verb: "CWD", Arg: joinPath(dirs, ""), HasArg: true}}, rest...)
}

// noCWD rewrites steps for MethodNoCWD: no CWD, RETR or NLST with the
// whole path.
func noCWD(steps []Command) []Command {
	dirs, rest := splitSteps(steps)
	out := make([]Command, len(rest))
	copy(out, rest)
	for i, c := range out {
		switch c.Verb {
		case "RETR", "NLST":
			p := joinPath(dirs, c.Arg)
			out[i].Arg, out[i].HasArg = p, p != ""
		}
	}
	return out
}

// greeting reads the server's greeting: 220, after a 120 ("ready in nnn
// minutes") if one comes (RFC 959 §5.4, connection establishment).
func (s *session) greeting() error {
	for i := 0; i < 2; i++ {
		r, err := s.reply()
		if err != nil {
			return err
		}
		switch {
		case r.Code == 220:
			return nil
		case r.Code == 120:
			continue
		case r.Class() == 4 || r.Class() == 5:
			return s.refused("", r, "the server refuses the connection")
		default:
			return s.unexpected("(connect)", r)
		}
	}
	return &access.ProtocolError{URL: s.masked, Msg: "no 220 greeting after 120"}
}

// login sends USER and, when the server asks (331), PASS (RFC 959 §5.4;
// RFC 1738 §3.2.1).
func (s *session) login(plan *Plan) error {
	user, pass := plan.Commands[0], plan.Commands[1]
	r, err := s.cmd(user.String())
	if err != nil {
		return err
	}
	switch {
	case r.Code == 230 || r.Code == 232:
		return nil // logged in without a password
	case r.Code == 331:
	case r.Code == 332:
		return s.refused(user.String(), r, "the server asks for an account (ACCT), which an ftp URL cannot give")
	case r.Class() == 4 || r.Class() == 5:
		return s.refused(user.String(), r, "login refused")
	default:
		return s.unexpected(user.String(), r)
	}
	word := pass.Arg
	if pass.AskUser {
		if user.Arg == anonymous {
			word = neutralAddress
			s.req.Notef("anonymous login: the password is the neutral address %s (no end-user address configured; RFC 1738 §3.2.1)", neutralAddress)
		} else {
			w, err := s.req.Password("Password for " + user.Arg + " at " + plan.Host + ": ")
			if err != nil {
				return err
			}
			if access.DelimiterAt(w) >= 0 || strings.ContainsAny(w, "\r\n\x00") {
				return &access.PolicyError{URL: s.masked, Rule: "RFC 1738 §6", Reason: "the password given holds a CR, LF or NUL, which would end the PASS command"}
			}
			word = w
			// A password asked for is this request's (a gateway's
			// HTTP client gave it): the session is kept only for a
			// request that names it, never for the next one that
			// asks, whoever answers (sessionKey).
			s.key.pass = word
		}
	}
	r, err = s.cmdSecret("PASS "+word, true)
	if err != nil {
		return err
	}
	switch {
	case r.Code == 230 || r.Code == 202:
		return nil
	case r.Code == 332:
		return s.refused("PASS ****", r, "the server asks for an account (ACCT), which an ftp URL cannot give")
	case r.Class() == 4 || r.Class() == 5:
		return s.refused("PASS ****", r, "login refused")
	}
	return s.unexpected("PASS ****", r)
}

// features asks FEAT (RFC 2389 §3) which extensions the server offers;
// a server that refuses FEAT offers none. Each feature line " NAME
// params" is kept by its upper-case name. A broken or malformed reply is
// an error: the control connection is out of step.
func (s *session) features() error {
	s.feat = map[string]string{}
	r, err := s.cmd("FEAT")
	if err != nil {
		return err
	}
	if r.Code != 211 {
		return nil
	}
	for _, l := range r.Lines[1:] {
		if !strings.HasPrefix(l, " ") {
			continue
		}
		name, params, _ := strings.Cut(strings.TrimSpace(l), " ")
		s.feat[strings.ToUpper(name)] = params
	}
	return nil
}

func (s *session) has(feature string) bool {
	_, ok := s.feat[feature]
	return ok
}

// do carries out steps on the logged-in session: CWD and TYPE, then the
// RETR or NLST that ends them.
func (s *session) do(ctx context.Context, steps []Command) (*access.Resource, error) {
	typ := ""
	for _, c := range steps {
		line := c.String()
		switch c.Verb {
		case "CWD":
			r, err := s.cwd(line)
			if err != nil {
				return nil, err
			}
			if r.Class() != 2 {
				note := "RFC 1738 §3.2.2: this CWD of the URL's directory sequence failed"
				if c.Arg == "" {
					note = "RFC 1738 §3.2.2: an empty <cwd> is sent as \"CWD \" with an empty argument, which this server refuses"
				}
				note += "; methods singlecwd, nocwd and direct send other commands"
				return nil, s.refused(line, r, note)
			}
		case "TYPE":
			r, err := s.cmd(line)
			if err != nil {
				return nil, err
			}
			if r.Class() != 2 {
				return nil, s.refused(line, r, "")
			}
			typ = c.Arg
			s.typ = typ
		case "RETR":
			return s.retrieve(ctx, c.Arg, typ)
		case "NLST":
			if typ == "" && s.typ != "" && s.typ != "A" {
				// A listing without a typecode is sent in the type a
				// login begins with, ASCII (RFC 959 §3.1.1.1): a reused
				// session may have left it.
				r, err := s.cmd("TYPE A")
				if err != nil {
					return nil, err
				}
				if r.Class() != 2 {
					return nil, s.refused("TYPE A", r, "")
				}
				s.typ = "A"
			}
			return s.list(ctx, c)
		default:
			return nil, &access.ProtocolError{URL: s.masked, Msg: "no step for command " + c.Verb}
		}
	}
	return nil, &access.ProtocolError{URL: s.masked, Msg: "the plan ends without RETR or NLST"}
}

// retrieve sends RETR name (after SIZE and MDTM with MethodMetadata,
// where FEAT offers them; after SIZE and REST when the request resumes at
// an offset) and returns the file with a Body streaming it.
func (s *session) retrieve(ctx context.Context, name, typ string) (*access.Resource, error) {
	res := &access.Resource{Size: -1, MediaType: mediaType(name, typ)}
	max := s.req.MaxSize()
	sized := false
	if s.meta {
		if err := s.metadata(res, name, typ); err != nil {
			return nil, err
		}
		sized = typ == "I" && s.has("SIZE")
	}
	off := s.req.Offset()
	if off > 0 {
		if typ != "I" {
			// Check refuses it first (see Client).
			return nil, &access.PolicyError{URL: s.masked, Rule: "resume", Reason: "a TYPE " + typ + " transfer cannot be resumed at an offset of the file's octets"}
		}
		if !sized {
			if err := s.size(res, name); err != nil {
				return nil, err
			}
		}
		switch {
		case res.Size >= 0 && off == res.Size:
			s.req.Notef("the offset %d is the file's size: nothing is left to retrieve", off)
			res.Offset = off
			res.Body = &body{s: s, line: "RETR " + name, done: true}
			return res, nil
		case res.Size >= 0 && off > res.Size:
			return nil, &OffsetError{URL: s.masked, Offset: off, Size: res.Size}
		case res.Size >= 0 && max > 0 && res.Size-off > max:
			return nil, access.ErrTooLarge
		}
	}
	line := "RETR " + name
	data, first, done, err := s.startTransfer(ctx, line, off)
	if err != nil {
		return nil, err
	}
	res.Offset = off
	if n, ok := TransferSize(first.Text); ok && !done && typ == "I" && off == 0 {
		// With REST the count is not read: whether it is the file's
		// or what is left of it, RFC 959 does not say (the text is the
		// server's own), and SIZE was asked.
		if res.Size < 0 {
			res.Size = n
		}
		if max > 0 && n > max {
			if err := s.abort(data); err != nil {
				return nil, err
			}
			return nil, access.ErrTooLarge
		}
	}
	b := &body{s: s, line: line, data: data, src: data, done: done}
	if typ == "A" && data != nil {
		b.src = newCRLFReader(data)
	}
	if done {
		s.req.Notef("the server completed RETR before sending data: an empty file")
	}
	res.Body = s.req.Limit(b)
	return res, nil
}

// metadata sends, for MethodMetadata, SIZE (TYPE I only: in TYPE A it
// counts the CRLF form, not what the Body delivers; RFC 3659 §4) and
// MDTM (RFC 3659 §3) when FEAT lists them, and sets res's Size and
// Modified from their 213 replies. A size above access.Client.MaxSize
// fails with access.ErrTooLarge at once, before MDTM.
func (s *session) metadata(res *access.Resource, name, typ string) error {
	if typ == "I" && s.has("SIZE") {
		if err := s.size(res, name); err != nil {
			return err
		}
		// Resumed, only what is left of the file is retrieved.
		if max := s.req.MaxSize(); max > 0 && res.Size-s.req.Offset() > max {
			return access.ErrTooLarge
		}
	}
	if s.has("MDTM") {
		if r, err := s.cmd("MDTM " + name); err != nil {
			return err
		} else if r.Code == 213 {
			if t, ok := parseTimeVal(strings.TrimSpace(r.Text)); ok {
				res.Modified = t
			}
		}
	}
	return nil
}

// size sends "SIZE name" (RFC 3659 §4; the transfer type must be I for
// the count to be the file's octets) and sets res.Size from a 213 reply.
// A refusal leaves the size unknown: SIZE is an extension, and the
// retrieval that follows says whether the file is there.
func (s *session) size(res *access.Resource, name string) error {
	r, err := s.cmd("SIZE " + name)
	if err != nil {
		return err
	}
	if r.Code == 213 {
		if n, err := strconv.ParseInt(strings.TrimSpace(r.Text), 10, 64); err == nil && n >= 0 {
			res.Size = n
		}
	}
	return nil
}

// An OffsetError says that the offset a retrieval was to resume at
// (access.Client.GetFrom) lies past the end of the file as SIZE counts it
// (RFC 3659 §4): there is nothing to resume, and the octets already kept
// are not the beginning of this file (curl's "Offset past end", exit
// 36). access.Classify counts it a failure.
type OffsetError struct {
	URL          string // the URL, password masked
	Offset, Size int64
}

func (e *OffsetError) Error() string {
	return e.URL + ": cannot resume at octet " + strconv.FormatInt(e.Offset, 10) + ": the file has " + strconv.FormatInt(e.Size, 10) + " octets (SIZE): the offset is past its end"
}

func mediaType(name, typ string) string {
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	if typ == "A" {
		return "text/plain"
	}
	return ""
}

// sizeLimit fails with access.ErrTooLarge past left octets.
type sizeLimit struct {
	r    io.Reader
	left int64
}

func (l *sizeLimit) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, access.ErrTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// describe lists the directory again for what NLST does not say, at
// most max lines of it: with
// MLSD (RFC 3659 §7) when FEAT (sent now, if it was not) lists MLST, else
// with LIST read in the Unix form. A refusal or a line it cannot read
// leaves those entries undescribed; a broken connection ends the
// description. rec, when not nil, keeps the transfer's octets.
func (s *session) describe(ctx context.Context, arg string, max int, rec *listingRecord) map[string]Fact {
	if s.feat == nil {
		if err := s.features(); err != nil {
			s.req.Notef("FEAT failed: %v", err)
			s.spoilt = true
			return map[string]Fact{}
		}
	}
	verb := "LIST"
	if s.has("MLST") {
		verb = "MLSD"
	}
	line := verb
	if arg != "" {
		line += " " + arg
	}
	lines, truncated, err := s.readListing(ctx, line, verb, max, rec)
	if truncated || err != nil && !isAnswer(err) {
		// Aborted, or out of step: the session ends with this request.
		s.spoilt = true
	}
	if err != nil {
		s.req.Notef("%s gave no description of the entries: %v", verb, err)
		return map[string]Fact{}
	}
	return parseFacts(verb, lines, time.Now())
}

// parseFacts reads the lines of an MLSD or LIST transfer (verb), LIST's
// dates without a year as of now, into the facts of each entry by its
// name; the directory itself and its parent (MLSD's cdir and pdir) are
// none.
func parseFacts(verb string, lines []string, now time.Time) map[string]Fact {
	facts := map[string]Fact{}
	for _, l := range lines {
		var f Fact
		var ok bool
		if verb == "MLSD" {
			f, ok = parseMLSD(l)
		} else {
			f, ok = parseUnixList(l, now)
		}
		if ok && f.Type != "cdir" && f.Type != "pdir" {
			if i := strings.LastIndexByte(strings.TrimSuffix(f.Name, "/"), '/'); i >= 0 {
				f.Name = f.Name[i+1:]
			}
			facts[f.Name] = f
		}
	}
	return facts
}

// body streams a file's data connection and ends the transfer when it is
// read to its end (the reply 226) or closed early (ABOR).
type body struct {
	s    *session
	line string
	data net.Conn
	src  io.Reader // data, or a crlfReader over it for TYPE A
	done bool      // the transfer is over: final reply read (or none due)
	err  error
}

func (b *body) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.done {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	n, err := b.src.Read(p)
	if err == io.EOF {
		err = b.end()
	} else if err != nil {
		b.err = err
	}
	return n, err
}

// A crlfReader reads NVT-ASCII (RFC 959 §3.1.1.1, TYPE A) and delivers
// it with local line ends: each CR LF pair becomes LF; a CR not followed
// by LF is delivered as is, and every other octet too. A CR at the end
// of what has arrived is held until the next octet (or the end) says
// whether an LF follows it.
type crlfReader struct {
	r    io.Reader
	buf  []byte
	i, n int   // buf[i:n] is read and not yet delivered
	err  error // the error that ended r
}

func newCRLFReader(r io.Reader) *crlfReader {
	return &crlfReader{r: r, buf: make([]byte, 32<<10)}
}

func (c *crlfReader) Read(p []byte) (int, error) {
	w, empty := 0, 0
	for w < len(p) {
		if c.i == c.n || c.i == c.n-1 && c.buf[c.i] == '\r' && c.err == nil {
			if w > 0 {
				break
			}
			if c.err != nil {
				return 0, c.err
			}
			c.n = copy(c.buf, c.buf[c.i:c.n]) // keep a CR held
			c.i = 0
			k, err := c.r.Read(c.buf[c.n:])
			c.n += k
			c.err = err
			if k == 0 && err == nil {
				if empty++; empty == 100 {
					return 0, io.ErrNoProgress
				}
			}
			continue
		}
		ch := c.buf[c.i]
		c.i++
		if ch == '\r' && c.i < c.n && c.buf[c.i] == '\n' {
			continue // CR LF → LF: the LF is delivered next
		}
		p[w] = ch
		w++
	}
	return w, nil
}

// end closes the data connection at its end and reads the reply that
// ends the transfer: io.EOF when it is a completion, else the error.
func (b *body) end() error {
	b.data.Close()
	b.data = nil
	b.done = true
	if err := b.s.finish(b.line); err != nil {
		b.err = err
		return err
	}
	return io.EOF
}

// WriteTo copies the file to w through a large buffer (io.Copy uses it).
func (b *body) WriteTo(w io.Writer) (int64, error) {
	buf := make([]byte, copyBuffer)
	var total int64
	for {
		n, err := b.Read(buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// Close ends the transfer: when the data were not read to their end it
// aborts it (ABOR), then QUIT; read to their end and completed (226 or
// 250), the session goes back to its Client for the next request of the
// same server and login (see Client). It returns the error that ended
// the transfer, if Read did not return it already.
func (b *body) Close() error {
	if b.s == nil {
		return nil
	}
	s := b.s
	b.s = nil
	switch {
	case b.done && b.err == nil:
		// The transfer's last reply was read: the session is in step.
		s.release()
		return nil
	case b.done:
		// The server reported a failure at the end: in step, but the
		// session is not reused after it.
	case b.err != nil:
		// The data connection failed: the control connection may be out
		// of step, or the server stalled; it is closed, not asked.
		b.data.Close()
		s.close()
		return nil
	default:
		// Closed before the end: ABOR (RFC 959 §4.1.3).
		err := s.abort(b.data)
		b.data = nil
		if err != nil {
			s.close()
			return err
		}
	}
	s.quit()
	return nil
}
