package mailto

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"mime"
	"mime/quotedprintable"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// A Message is the mail message a mailto URL prepares (RFC 6068 §3: "the
// client creates a message to the designated address with the various
// header fields set as default"), before it is written out by Bytes.
// Addresses are addr-specs as ParseAddrSpec returns them; text fields are
// decoded UTF-8 and hold no CR, LF or NUL.
type Message struct {
	From      string   // the originator's addr-spec (RFC 5322 §3.6.2)
	To, Cc    []string // recipients' addr-specs, each once
	Subject   string   // unstructured (RFC 5322 §3.6.5); "" for none
	Keywords  string   // a phrase list (RFC 5322 §3.6.5); "" for none
	InReplyTo string   // msg-ids (RFC 5322 §3.6.4); "" for none
	Body      string   // UTF-8 text; CR LF, LF or CR end a line
	Date      time.Time
	MessageID string // "<id-left@id-right>"; see NewMessageID
}

// A Dropped header field is one the URL names that the message leaves
// out, with the reason, so that nothing the URL asks for is dropped
// silently (RFC 6068 §7: the user is to be shown "all header fields that
// were specified by the 'mailto' URI").
type Dropped struct {
	Name, Value string // decoded
	Offset      int    // of the hfield in the URL's input
	Reason      string
}

// Header fields a mailto URI may not set: RFC 6068 §3, "Originator
// fields like From and Date, fields related to routing (Apparently-To,
// Resent-*, etc.), trace fields, and MIME header fields (MIME-Version,
// Content-*), when present in the URI, MUST be ignored."
var mustIgnore = map[string]bool{
	"from": true, "sender": true, "reply-to": true, "date": true, "message-id": true,
	"return-path": true, "received": true, "apparently-to": true, "mime-version": true,
}

// Compose prepares the message u (a mailto URL) asks for, to be
// completed with From, Body, Date and MessageID by the caller.
//
// Recipients are the URL's addresses and those of its "to" header
// fields, merged into one To (RFC 6068 §2: "Implementations MUST NOT
// produce two To: header fields"), and "cc"'s; a repeated address is
// kept once (§3: "Mail client software MAY eliminate duplicate
// addresses"). Each is checked by ParseAddrSpec. Subject, Keywords and
// Body (§4: "believed to be both safe and useful in the general case"),
// and In-Reply-To (§6.1's threading example) are honoured. Every other
// field is returned in dropped with the reason: originator, routing,
// trace and MIME fields, which §3 says "MUST be ignored", Bcc (a
// recipient the reader of the URL does not see, §7), and any field not
// named here (§3: "Unrecognized header fields ... SHOULD be treated as
// especially suspect").
//
// A CR, LF or NUL, written or percent-encoded, in the address or in any
// header field but "body" would end the header field and begin another
// that the URL smuggles in (RFC 6068 §5: "Line breaks in other <hfield>s
// SHOULD NOT be used"; RFC 1738 §6): Compose refuses the URL with an
// *access.PolicyError whose Offset is that octet's in u.Input. An address
// that is not an addr-spec is a *locator.SchemeError with its offset in
// u.Input.
func Compose(u *locator.URL) (m *Message, dropped []Dropped, err error) {
	if u.Scheme() != "mailto" {
		return nil, nil, &locator.SchemeError{Scheme: "mailto", Field: "url", Rule: "mailtoURI", Message: "scheme is " + strconv.Quote(u.Scheme()) + ", not mailto"}
	}
	refuse := func(off int, what string) error {
		return &access.PolicyError{URL: access.Masked(u), Offset: off, Rule: "RFC 6068 §5",
			Reason: "a CR, LF or NUL in " + what + " would end the header field and begin another (header injection)"}
	}
	addr, addrAt := addressText(u)
	if i := access.DelimiterAt(addr); i >= 0 {
		return nil, nil, refuse(addrAt+i, "the address")
	}
	type hf struct {
		name, value   string // encoded
		at, valueAt   int    // in u.Input
		eq            bool
		dname, dvalue string // decoded
		lname         string // decoded, lower case
	}
	var fields []hf
	if u.HasSearch() {
		base := u.Offset(locator.SearchComponent)
		var ierr error
		eachHeader(u.Search(), func(name, value string, nameAt, valueAt int, eq bool) {
			if ierr != nil || !eq && name == "" {
				return // an empty hfield ("?&", a trailing "&") says nothing
			}
			f := hf{name: name, value: value, at: base + nameAt, valueAt: base + valueAt, eq: eq,
				dname: locator.Decode(name), dvalue: locator.Decode(value)}
			f.lname = strings.ToLower(f.dname)
			if i := access.DelimiterAt(name); i >= 0 {
				ierr = refuse(f.at+i, "a header field name")
			} else if i := access.DelimiterAt(value); i >= 0 && f.lname != "body" {
				ierr = refuse(f.valueAt+i, "the "+strconv.Quote(f.dname)+" header field")
			}
			fields = append(fields, f)
		})
		if ierr != nil {
			return nil, nil, ierr
		}
	}

	m = &Message{}
	seen := map[string]bool{}
	// addresses adds the ","-separated addresses of the encoded s (at
	// offset base in u.Input) to *list.
	addresses := func(s string, base int, list *[]string) error {
		var aerr error
		eachAddress(s, 0, len(s), true, func(from, to int) {
			if aerr != nil {
				return
			}
			from, to = trimSpace(s, from, to)
			if from == to {
				return // "a@b," or ",": an empty list element (RFC 5322 §4.4 obs-addr-list)
			}
			a, err := ParseAddrSpec(locator.Decode(s[from:to]))
			if err != nil {
				e := err.(*locator.SchemeError)
				e.Offset = base + from + encodedOffset(s[from:to], e.Offset)
				aerr = e
				return
			}
			if k := addrKey(a); !seen[k] {
				seen[k] = true
				*list = append(*list, a)
			}
		})
		return aerr
	}
	if err := addresses(addr, addrAt, &m.To); err != nil {
		return nil, nil, err
	}
	drop := func(f hf, reason string) {
		dropped = append(dropped, Dropped{Name: f.dname, Value: f.dvalue, Offset: f.at, Reason: reason})
	}
	var body []string
	hasSubject, hasInReplyTo := false, false
	// To first, then Cc, so that an address in both stays in To.
	for _, f := range fields {
		if f.eq && f.lname == "to" {
			if err := addresses(f.value, f.valueAt, &m.To); err != nil {
				return nil, nil, err
			}
		}
	}
	for _, f := range fields {
		if i := invalidUTF8(f.dvalue); i >= 0 && f.eq && (f.lname == "subject" || f.lname == "keywords" || f.lname == "body") {
			return nil, nil, &locator.SchemeError{Scheme: "mailto", Field: "header", Offset: f.valueAt + encodedOffset(f.value, i), Rule: "hfvalue",
				Message: "the " + strconv.Quote(f.dname) + " value is not UTF-8: non-ASCII text is UTF-8, percent-encoded (RFC 6068 §2)"}
		}
		switch {
		case !f.eq:
			drop(f, "not hfname \"=\" hfvalue (RFC 6068 §2)")
		case f.dname == "":
			drop(f, "the header field name is empty (RFC 6068 §2)")
		case f.lname == "to":
		case f.lname == "cc":
			if err := addresses(f.value, f.valueAt, &m.Cc); err != nil {
				return nil, nil, err
			}
		case f.lname == "body":
			body = append(body, f.dvalue)
		case f.lname == "subject":
			if hasSubject {
				drop(f, "a second Subject: a message has at most one (RFC 5322 §3.6; RFC 6068 §2)")
				break
			}
			hasSubject, m.Subject = true, f.dvalue
		case f.lname == "keywords":
			if m.Keywords != "" && f.dvalue != "" {
				m.Keywords += ", "
			}
			m.Keywords += f.dvalue
		case f.lname == "in-reply-to":
			switch {
			case hasInReplyTo:
				drop(f, "a second In-Reply-To: a message has at most one (RFC 5322 §3.6)")
			case !isMsgIDList(f.dvalue):
				drop(f, "not a list of msg-ids \"<id-left@id-right>\" (RFC 5322 §3.6.4)")
			default:
				hasInReplyTo, m.InReplyTo = true, f.dvalue
			}
		case f.lname == "bcc":
			drop(f, "a blind copy the URL's reader would not see is unsafe (RFC 6068 §4 and §7, RFC 2368 §4); not sent")
		case mustIgnore[f.lname] || strings.HasPrefix(f.lname, "resent-") || strings.HasPrefix(f.lname, "content-"):
			drop(f, "originator, routing, trace and MIME fields in a mailto URI \"MUST be ignored\" (RFC 6068 §3)")
		default:
			drop(f, "only Subject, Keywords and Body are \"believed to be both safe and useful in the general case\" (RFC 6068 §4; To, Cc and In-Reply-To are honoured too); an unrecognized field is \"especially suspect\" (§3)")
		}
	}
	if len(m.To)+len(m.Cc) == 0 {
		return nil, nil, &locator.SchemeError{Scheme: "mailto", Field: "address", Offset: addrAt, Rule: "to", Message: "the URL names no recipient: no address and no \"to\" or \"cc\" header field (RFC 6068 §2)"}
	}
	m.Body = strings.Join(body, "\r\n")
	return m, dropped, nil
}

// addrKey is an address compared for duplicates: the domain is not case
// sensitive (RFC 5321 §2.4), the local-part is.
func addrKey(a string) string {
	i := strings.LastIndexByte(a, '@')
	return a[:i] + "@" + strings.ToLower(a[i+1:])
}

// encodedOffset maps an offset in the decoded form of the encoded s to
// the offset in s of the octet (or escape) it came from.
func encodedOffset(s string, dec int) int {
	i := 0
	for n := 0; n < dec && i < len(s); n++ {
		if s[i] == '%' && i+2 < len(s) && locator.IsHex(s[i+1]) && locator.IsHex(s[i+2]) {
			i += 3
		} else {
			i++
		}
	}
	return i
}

// isMsgIDList reports whether s is 1*msg-id with white space between
// (RFC 5322 §3.6.4), each "<" id-left "@" id-right ">" of printable
// ASCII other than "<", ">" and white space.
func isMsgIDList(s string) bool {
	n := 0
	for _, w := range strings.Fields(s) {
		if len(w) < 5 || w[0] != '<' || w[len(w)-1] != '>' {
			return false
		}
		id := w[1 : len(w)-1]
		at := strings.LastIndexByte(id, '@')
		if at <= 0 || at == len(id)-1 {
			return false
		}
		for i := 0; i < len(id); i++ {
			if c := id[i]; c < 0x21 || c > 0x7e || c == '<' || c == '>' {
				return false
			}
		}
		n++
	}
	return n > 0
}

// NewMessageID returns a new "<random@domain>" msg-id (RFC 5322
// §3.6.4: "the generator of the message identifier MUST guarantee that
// the msg-id is unique"): 128 random bits in hex, and the domain of
// from (an addr-spec), whose owner vouches for it.
func NewMessageID(from string) string {
	var r [16]byte
	rand.Read(r[:])
	domain := "localhost"
	if i := strings.LastIndexByte(from, '@'); i >= 0 && i+1 < len(from) {
		domain = from[i+1:]
	}
	return "<" + hex.EncodeToString(r[:]) + "@" + domain + ">"
}

// Transfer encodings Bytes chooses from (RFC 2045 §6).
const (
	SevenBit        = "7bit"
	EightBit        = "8bit"
	QuotedPrintable = "quoted-printable"
)

// maxLine is RFC 5322 §2.1.1's bound on a line without its CRLF: "Each
// line of characters MUST be no more than 998 characters"; foldAt is the
// length lines SHOULD keep to ("no more than 78 characters").
const (
	maxLine = 998
	foldAt  = 78
)

// Bytes writes m as an RFC 5322 message with CRLF line ends and no line
// longer than 998 octets: the header fields Date, From, To, Cc, Subject,
// Keywords, In-Reply-To, Message-ID, MIME-Version, Content-Type
// (text/plain; charset=utf-8) and Content-Transfer-Encoding, then the
// body. Header text outside printable ASCII is written as RFC 2047
// encoded-words (mime.QEncoding), and long fields are folded at white
// space (RFC 5322 §2.2.3). The body's line ends become CRLF (a lone CR
// or LF would be a "bare" one, RFC 5322 §2.3) and its transfer encoding
// is the first that fits (RFC 2045 §2.7–2.8, RFC 6152): 7bit for ASCII
// lines of at most 998 octets; 8bit when eightBit says the server takes
// it (8BITMIME) and the text has no NUL and no overlong line; else
// quoted-printable. It returns the encoding chosen.
//
// The error is a *locator.SchemeError: an address that ParseAddrSpec
// refuses, a CR, LF or NUL in a header field, a Message-ID that is not a
// msg-id, or a body that is not UTF-8 (Offset in the body).
func (m *Message) Bytes(eightBit bool) ([]byte, string, error) {
	hdrErr := func(field, msg string) error {
		return &locator.SchemeError{Scheme: "mailto", Field: "header", Rule: field, Message: msg}
	}
	from, err := ParseAddrSpec(m.From)
	if err != nil {
		return nil, "", hdrErr("From", "the sender: "+err.Error())
	}
	var to, cc []string
	for _, l := range []struct {
		in  []string
		out *[]string
	}{{m.To, &to}, {m.Cc, &cc}} {
		for _, a := range l.in {
			p, err := ParseAddrSpec(a)
			if err != nil {
				return nil, "", hdrErr("To", "a recipient: "+err.Error())
			}
			*l.out = append(*l.out, p)
		}
	}
	if len(to)+len(cc) == 0 {
		return nil, "", hdrErr("To", "no recipient")
	}
	for _, t := range []struct{ name, v string }{{"Subject", m.Subject}, {"Keywords", m.Keywords}, {"In-Reply-To", m.InReplyTo}, {"Message-ID", m.MessageID}} {
		if i := strings.IndexAny(t.v, "\r\n\x00"); i >= 0 {
			return nil, "", &locator.SchemeError{Scheme: "mailto", Field: "header", Offset: i, Rule: t.name, Message: describe(t.v[i]) + " in a header field would end it (RFC 5322 §2.2)"}
		}
	}
	if m.InReplyTo != "" && !isMsgIDList(m.InReplyTo) {
		return nil, "", hdrErr("In-Reply-To", "not a list of msg-ids (RFC 5322 §3.6.4)")
	}
	if m.MessageID != "" && (!isMsgIDList(m.MessageID) || len(strings.Fields(m.MessageID)) != 1) {
		return nil, "", hdrErr("Message-ID", "not one msg-id \"<id-left@id-right>\" (RFC 5322 §3.6.4)")
	}
	for _, t := range []struct{ name, v string }{{"Subject", m.Subject}, {"Keywords", m.Keywords}} {
		if i := invalidUTF8(t.v); i >= 0 {
			return nil, "", &locator.SchemeError{Scheme: "mailto", Field: "header", Offset: i, Rule: t.name, Message: "not UTF-8, the charset of its encoded-words"}
		}
	}
	if i := invalidUTF8(m.Body); i >= 0 {
		return nil, "", &locator.SchemeError{Scheme: "mailto", Field: "body", Offset: i, Rule: "charset", Message: "the body is not UTF-8, the charset the message declares (RFC 6068 §2)"}
	}

	var b bytes.Buffer
	field := func(name, value string) {
		b.WriteString(name)
		b.WriteString(":")
		b.WriteString(value)
		b.WriteString("\r\n")
	}
	date := m.Date
	if date.IsZero() {
		date = time.Now()
	}
	field("Date", " "+date.Format(time.RFC1123Z))
	field("From", " "+from)
	if len(to) > 0 {
		field("To", foldList("To", to))
	}
	if len(cc) > 0 {
		field("Cc", foldList("Cc", cc))
	}
	if m.Subject != "" {
		field("Subject", foldText("Subject", m.Subject))
	}
	if m.Keywords != "" {
		field("Keywords", foldText("Keywords", m.Keywords))
	}
	if m.InReplyTo != "" {
		field("In-Reply-To", foldText("In-Reply-To", strings.Join(strings.Fields(m.InReplyTo), " ")))
	}
	if m.MessageID != "" {
		field("Message-ID", " "+m.MessageID)
	}
	field("MIME-Version", " 1.0")
	field("Content-Type", " text/plain; charset=utf-8")
	body, cte := encodeBody(m.Body, eightBit)
	field("Content-Transfer-Encoding", " "+cte)
	b.WriteString("\r\n")
	b.WriteString(body)
	return b.Bytes(), cte, nil
}

// lines splits s at CR LF, LF and lone CR (each one line end), the last
// line without its end.
func lines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			out = append(out, s[start:i])
			start = i + 1
		case '\r':
			out = append(out, s[start:i])
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// encodeBody writes s with CRLF line ends, ending in one, in the first
// transfer encoding that fits (see Bytes).
func encodeBody(s string, eightBit bool) (string, string) {
	ls := lines(s)
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1] // s ended with a line end, or is empty
	}
	ascii, short, nul := true, true, false
	for _, l := range ls {
		if len(l) > maxLine {
			short = false
		}
		for i := 0; i < len(l); i++ {
			if l[i] >= 0x80 {
				ascii = false
			}
			if l[i] == 0 {
				nul = true
			}
		}
	}
	if short && !nul && (ascii || eightBit) {
		cte := SevenBit
		if !ascii {
			cte = EightBit
		}
		if len(ls) == 0 {
			return "", cte
		}
		return strings.Join(ls, "\r\n") + "\r\n", cte
	}
	var b strings.Builder
	w := quotedprintable.NewWriter(&b)
	for _, l := range ls {
		w.Write([]byte(l))
		w.Write([]byte("\r\n"))
	}
	w.Close()
	return b.String(), QuotedPrintable
}

// foldList writes addresses as " a@b, c@d", a line break before the
// white space after a comma when a line would pass 78 octets.
func foldList(name string, list []string) string {
	var b strings.Builder
	n := len(name) + 1
	for i, a := range list {
		sep := " "
		if i > 0 {
			b.WriteString(",")
			n++
		}
		if i > 0 && n+len(sep)+len(a) > foldAt {
			b.WriteString("\r\n")
			n = 0
		}
		b.WriteString(sep)
		b.WriteString(a)
		n += len(sep) + len(a)
	}
	return b.String()
}

// foldText writes an unstructured value (after "Name:"): as it is when
// it is printable ASCII, else as RFC 2047 encoded-words (mime.QEncoding,
// UTF-8); then folded before white space so that lines keep to 78
// octets where the words allow (RFC 5322 §2.2.3; never a line of white
// space alone). A word too long for a 998-octet line even so is written
// as encoded-words too, which are at most 75 octets (RFC 2047 §2).
func foldText(name, value string) string {
	v := value
	if needsEncoding(v) {
		v = mime.QEncoding.Encode("utf-8", v)
	}
	out, longest := fold(name, " "+v)
	if longest > maxLine {
		out, _ = fold(name, " "+qWords(value))
	}
	return out
}

// fold breaks s (a field's value, after "Name:") before white space
// that is followed by something else, and returns it with the length of
// its longest line (counting "Name:").
func fold(name, s string) (string, int) {
	var b strings.Builder
	n := len(name) + 1
	longest := 0
	start := 0
	flush := func(end int) {
		piece := s[start:end]
		if n+len(piece) > foldAt && start > 0 && b.Len() > 0 {
			b.WriteString("\r\n")
			n = 0
		}
		b.WriteString(piece)
		n += len(piece)
		longest = max(longest, n)
		start = end
	}
	for i := 1; i < len(s); i++ {
		if (s[i] == ' ' || s[i] == '\t') && i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\t' {
			flush(i)
		}
	}
	flush(len(s))
	return b.String(), longest
}

// needsEncoding reports whether s holds an octet that may not stand in
// an unstructured header field: outside printable ASCII, space and TAB
// (RFC 5322 §3.2.5).
func needsEncoding(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c >= 0x7f {
			return true
		}
	}
	return false
}

// qWords writes s as RFC 2047 "Q" encoded-words in UTF-8, each at most
// 75 octets and whole characters (§5), separated by spaces.
func qWords(s string) string {
	const head, tail = "=?utf-8?q?", "?="
	var words []string
	var w strings.Builder
	for _, r := range s {
		var enc string
		var buf [utf8.UTFMax]byte
		n := utf8.EncodeRune(buf[:], r)
		for _, c := range buf[:n] {
			switch {
			case c == ' ':
				enc += "_"
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("!*+-/", c) >= 0:
				enc += string(rune(c))
			default:
				enc += "=" + strings.ToUpper(hex.EncodeToString([]byte{c}))
			}
		}
		if w.Len() > 0 && len(head)+w.Len()+len(enc)+len(tail) > 75 {
			words = append(words, head+w.String()+tail)
			w.Reset()
		}
		w.WriteString(enc)
	}
	if w.Len() > 0 || len(words) == 0 {
		words = append(words, head+w.String()+tail)
	}
	return strings.Join(words, " ")
}

// invalidUTF8 returns the offset of the first octet of s that is not
// part of a UTF-8 character, or -1.
func invalidUTF8(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}
