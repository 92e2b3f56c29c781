package other

import (
	"errors"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlbuild"
	"github.com/rfc1738/locator/mailto"
)

// Session ports of the drafts' interactive schemes.
const (
	rloginPort = 513 // RFC 1282
	tn3270Port = 23  // telnet's, as tn3270 runs over telnet
)

func init() {
	// The drafts give rlogin and tn3270 the telnet form; mid and cid hold
	// an addr-spec, in which "?" is an ordinary character.
	locator.RegisterSyntax("rlogin", locator.Syntax{DefaultPort: rloginPort, Internet: true})
	locator.RegisterSyntax("tn3270", locator.Syntax{DefaultPort: tn3270Port, Internet: true})
	locator.RegisterSyntax("mid", locator.Syntax{})
	locator.RegisterSyntax("cid", locator.Syntax{})
	locator.Register("rlogin", session{})
	locator.Register("tn3270", session{})
	locator.Register("mid", msgid{})
	locator.Register("cid", msgid{})
	for _, s := range []string{"afs", "nfs", "mailserver", "z39.50"} {
		locator.Register(s, reservedName{})
	}
}

// session is rlogin and tn3270: "telnet://" login [ "/" ] (§5 telneturl),
// the form draft 03 gives all three.
type session struct{}

// Check reports a path after the "/" (a session names no object).
func (session) Check(u *locator.URL, r locator.Report) locator.Report {
	if u.HasAuthority() && u.Path() != "" {
		r.Add(u.Offset(locator.PathComponent), locator.Violation, "telneturl",
			"an interactive-session URL ends after the host and an optional \"/\": telneturl = \"telnet://\" login [ \"/\" ] (RFC 1738 §5; draft 03 gives "+u.Scheme()+" the telnet form)")
	}
	return r
}

// Parts is {} like telnet's: the user and host are the URL's own keys.
func (session) Parts(u *locator.URL) any { return struct{}{} }

// Explain says which session is opened, as for telnet (§3.8).
func (session) Explain(u *locator.URL) string {
	d, _ := Describe(u.Scheme())
	hostport := ""
	if u.HasAuthority() { // a host is written only after "//"
		hostport = u.Hostport()
	}
	s := "An interactive " + u.Scheme() + " session with " + hostport + " (port " + strconv.Itoa(u.EffectivePort()) + ")"
	if u.HasUser() {
		s += ", logging in as " + strconv.Quote(locator.Decode(u.User()))
		if u.HasPassword() {
			s += " with the password the URL carries"
		}
	}
	return s + ". " + d
}

// msgid is mid and cid: an RFC 822 addr-spec (draft 03 midaddress,
// cidaddress), mid with RFC 2111's "/" content-id.
type msgid struct{}

// split returns the encoded message-id and content-id of a mid or cid URL
// (a mid's content-id follows the first "/" after the "@"; a cid has
// none), and where the content-id begins (-1 when none).
func split(u *locator.URL) (id, part string, partAt int) {
	p := u.Path()
	if u.Scheme() == "mid" {
		if at := strings.IndexByte(p, '@'); at >= 0 {
			if sl := strings.IndexByte(p[at:], '/'); sl >= 0 {
				return p[:at+sl], p[at+sl+1:], at + sl + 1
			}
		}
	}
	return p, "", -1
}

// Check judges the message-id (or content-id) as an addr-spec, the form
// draft 03 gives mid and cid, and reports RFC 2111's content-id part.
func (msgid) Check(u *locator.URL, r locator.Report) locator.Report {
	rule := u.Scheme() + "address"
	base := u.Offset(locator.PathComponent)
	if u.HasAuthority() {
		r.Add(u.Offset(locator.SchemeComponent)+len(u.Scheme())+1, locator.Violation, rule,
			u.Scheme()+" URLs have no \"//\": "+u.Scheme()+"address = \""+u.Scheme()+":\" addr-spec (draft 03)")
		return r
	}
	id, _, partAt := split(u)
	if _, _, err := mailto.SplitAddrSpec(locator.Decode(id)); err != nil {
		_, msg := addrSpecError(err)
		r.Add(base, locator.Violation, rule, "the "+u.Scheme()+" is an RFC 822 addr-spec without \"<\" \">\" (draft 03, RFC 1630): "+msg)
	}
	if partAt >= 0 {
		r.Add(base+partAt-1, locator.Violation, rule, "a \"/\" and Content-ID after the Message-ID is RFC 2111's mid form, beyond RFC 1738 and the drafts")
	}
	return r
}

type msgParts struct {
	MessageID *string `json:"message_id,omitempty"`
	ContentID *string `json:"content_id,omitempty"`
}

// Parts is {message_id, content_id} for mid (content_id when RFC 2111's
// part is there) and {content_id} for cid, decoded.
func (msgid) Parts(u *locator.URL) any {
	id, part, partAt := split(u)
	id, part = locator.Decode(id), locator.Decode(part)
	if u.Scheme() == "cid" {
		return msgParts{ContentID: &id}
	}
	pt := msgParts{MessageID: &id}
	if partAt >= 0 {
		pt.ContentID = &part
	}
	return pt
}

// Explain names the message or body part.
func (msgid) Explain(u *locator.URL) string {
	id, part, partAt := split(u)
	d, _ := Describe(u.Scheme())
	if u.Scheme() == "cid" {
		return "The MIME body part with Content-ID " + strconv.Quote("<"+locator.Decode(id)+">") + " in the same message. " + d
	}
	s := "The mail message with Message-ID " + strconv.Quote("<"+locator.Decode(id)+">")
	if partAt >= 0 {
		s += ", its body part with Content-ID " + strconv.Quote("<"+locator.Decode(part)+">")
	}
	return s + ", in mail already received. " + d
}

// reservedName is a name §4 reserves with no syntax of its own.
type reservedName struct{}

// Check has nothing to judge beyond the generic syntax.
func (reservedName) Check(u *locator.URL, r locator.Report) locator.Report { return r }

// Parts is {}; afs adds the 1993 draft's {cell, path}.
func (reservedName) Parts(u *locator.URL) any {
	if u.Scheme() == "afs" && u.HasAuthority() {
		return struct {
			Cell string `json:"cell"`
			Path string `json:"path"`
		}{u.Host(), "/" + locator.Decode(u.Path())}
	}
	return struct{}{}
}

// Explain says what the name is reserved for.
func (reservedName) Explain(u *locator.URL) string {
	d, _ := Describe(u.Scheme())
	if u.Scheme() == "afs" && u.HasAuthority() {
		return "The file " + strconv.Quote("/"+locator.Decode(u.Path())) + " in AFS cell " + strconv.Quote(u.Host()) + ". " + d
	}
	return d
}

// addrSpecError returns the offset and message of an error of
// mailto.SplitAddrSpec.
func addrSpecError(err error) (off int, msg string) {
	var se *locator.SchemeError
	if errors.As(err, &se) {
		return se.Offset, se.Message
	}
	return 0, err.Error()
}

// BuildSession writes an rlogin or tn3270 URL, scheme://[user@]host[:port]/,
// the user encoded (§3.1). It fails, with a *locator.SchemeError of the
// scheme asked for, for another scheme (field "url"), an empty or bad
// host or a bad port (field "host" or "port"); and with a
// *locator.BuildError when what it wrote does not conform (an IPv6 host,
// which RFC 1738's hostport cannot write, among them). A password is not
// taken: it would be visible to anyone who sees the URL (RFC 1738 §6).
func BuildSession(scheme, user, host, port string) (string, error) {
	if scheme != "rlogin" && scheme != "tn3270" {
		return "", &locator.SchemeError{Scheme: scheme, Field: "url", Rule: "scheme", Message: "BuildSession writes rlogin and tn3270 URLs, not " + strconv.Quote(scheme)}
	}
	if f, i := urlbuild.BadHostport(host, port); i >= 0 {
		return "", &locator.SchemeError{Scheme: scheme, Field: f, Offset: i, Rule: "hostport", Message: "the " + f + " holds a character RFC 1738 §3.1 does not allow there"}
	}
	if host == "" {
		return "", &locator.SchemeError{Scheme: scheme, Field: "host", Rule: "hostport", Message: "an interactive-session URL names a host (RFC 1738 §3.8, the telnet form)"}
	}
	var b strings.Builder
	b.WriteString(scheme + "://")
	if user != "" {
		b.WriteString(locator.Escape(user, locator.EncodeUser) + "@")
	}
	urlbuild.WriteHostport(&b, host, port)
	b.WriteByte('/')
	s := b.String()
	return s, conforming(scheme, s)
}

// BuildMID writes mid:message-id, and with a content-id RFC 2111's
// mid:message-id/content-id (beyond RFC 1738). The message-id, without
// "<" ">", must be an addr-spec (else a *locator.SchemeError of scheme
// "mid", field "message-id"); both are encoded.
func BuildMID(messageID, contentID string) (string, error) {
	messageID = strings.TrimSuffix(strings.TrimPrefix(messageID, "<"), ">")
	if _, _, err := mailto.SplitAddrSpec(messageID); err != nil {
		off, msg := addrSpecError(err)
		return "", &locator.SchemeError{Scheme: "mid", Field: "message-id", Offset: off, Rule: "midaddress", Message: msg}
	}
	s := "mid:" + locator.Escape(messageID, locator.EncodeHSegment)
	contentID = strings.TrimSuffix(strings.TrimPrefix(contentID, "<"), ">")
	if contentID != "" {
		s += "/" + locator.Escape(contentID, locator.EncodeHSegment)
	}
	return s, nil
}

// BuildCID writes cid:content-id; the content-id, without "<" ">", must
// be an addr-spec (else a *locator.SchemeError of scheme "cid", field
// "content-id"), and is encoded.
func BuildCID(contentID string) (string, error) {
	contentID = strings.TrimSuffix(strings.TrimPrefix(contentID, "<"), ">")
	if _, _, err := mailto.SplitAddrSpec(contentID); err != nil {
		off, msg := addrSpecError(err)
		return "", &locator.SchemeError{Scheme: "cid", Field: "content-id", Offset: off, Rule: "cidaddress", Message: msg}
	}
	return "cid:" + locator.Escape(contentID, locator.EncodeHSegment), nil
}

// conforming reads back s, a URL of scheme that BuildSession wrote, and
// fails with a *locator.BuildError at its first error or violation (the
// encoded user cannot cause one, so it is in the host or port). Unlike
// urlbuild.CheckBuilt it allows no IPv6 literal: every URL BuildSession
// writes conforms to RFC 1738.
func conforming(scheme, s string) error {
	u, err := locator.Parse(s)
	if err != nil {
		return &locator.BuildError{Scheme: scheme, URL: s, Problem: err.(*locator.ParseError).Problem}
	}
	for _, p := range u.Problems() {
		if p.Severity >= locator.Violation {
			return &locator.BuildError{Scheme: scheme, URL: s, Problem: p}
		}
	}
	return nil
}
