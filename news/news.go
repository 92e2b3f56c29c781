// Package news reads, judges, builds and plans news URLs as RFC 1738 §3.6
// describes them:
//
//	news:<newsgroup-name>
//	news:<message-id>
//	news:*
//
// "A message identifier may be distinguished from a news group name by
// the presence of the commercial at "@" character" (§3.6); "*" is all
// available groups. The grammar (§5) is
//
//	group   = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
//	article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
//
// News URLs name no host: the reader fetches the group or article from
// its own news server. The later form of draft-gilman-news-url,
// news://host[:port]/group-or-article, and its message numbers after a
// group (group/12 or group/1-10) are read and reported as beyond RFC 1738
// (rule "newsurl"), as is its scheme snews (news over TLS, port 563),
// which this package registers too.
//
// Parts (the JSON "parts") are {group}, {article} (the message-id without
// "<" ">", decoded) or {all: true}; a news://host/ URL that names neither
// has parts {}.
//
// Parse and From read what a news URL says into a URL; its Build writes
// one, and its Plan gives the NNTP exchange. Client follows news URLs
// for package access, from the configured news server.
package news

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlbuild"
)

// defaultPort is the NNTP port (RFC 977) a plan uses when the URL names
// no port; securePort is snews's (draft-gilman §3).
const (
	defaultPort = 119
	securePort  = 563
)

// URL is a news URL's decoded structure. Exactly one of Group, Article and
// All is set, or none for draft-gilman's news://host/ (an index of groups).
type URL struct {
	// Scheme is "news", or "snews" for draft-gilman's news over TLS.
	Scheme string
	// Host and Port are draft-gilman's news server (news://host:port/);
	// HasHost records that the "//" form was used.
	Host    string
	Port    string
	HasHost bool

	Group   string // a newsgroup name
	Article string // a message-id without "<" and ">", decoded
	All     bool   // "*": all available news groups

	// Range is draft-gilman's message numbers after a group,
	// "messageno" or "messageno-messageno"; "" when none.
	Range string
}

// Parse reads s with locator.Parse and returns its news structure. The
// error is a *locator.ParseError when s is not a URL at all, and a
// *locator.SchemeError (field "url") when it is not a news (or snews)
// URL.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From decodes the news structure of u; problems are in u.Problems. It
// fails, with a *locator.SchemeError of field "url", only when u is not a
// news (or snews) URL.
func From(u *locator.URL) (*URL, error) {
	if u.Scheme() != "news" && u.Scheme() != "snews" {
		return nil, &locator.SchemeError{Scheme: "news", Field: "url", Rule: "newsurl", Message: "scheme is " + strconv.Quote(u.Scheme()) + ", not news"}
	}
	n := &URL{Scheme: u.Scheme()}
	if u.HasAuthority() {
		n.HasHost = true
		n.Host = u.Host()
		if u.HasPort() {
			n.Port = u.Port()
		}
	}
	p := u.Path()
	switch {
	case p == "":
	case p == "*":
		n.All = true
	case strings.IndexByte(p, '@') >= 0:
		if l, r := angle(p); l > 0 {
			p = p[l : len(p)-r]
		}
		n.Article = locator.Decode(p)
	default:
		if i := strings.IndexByte(p, '/'); i >= 0 {
			n.Group, n.Range = locator.Decode(p[:i]), locator.Decode(p[i+1:])
		} else {
			n.Group = locator.Decode(p)
		}
	}
	return n, nil
}

// checkGroup reports the first octet of name that group (§5) does not
// allow, as a *locator.SchemeError (field "group"), or nil.
func checkGroup(name string) error {
	if name == "" {
		return &locator.SchemeError{Scheme: "news", Field: "group", Rule: "group", Message: "the group name is empty"}
	}
	for i := 0; i < len(name); i++ {
		if msg := groupOctet(name, i); msg != "" {
			return &locator.SchemeError{Scheme: "news", Field: "group", Offset: i, Rule: "group", Message: msg}
		}
	}
	return nil
}

// groupOctet says what is wrong with name[i] in a group name, or "".
func groupOctet(name string, i int) string {
	c := name[i]
	alpha := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	if i == 0 {
		if !alpha {
			return "a group name begins with a letter (RFC 1738 §5: group = alpha *[ alpha | digit | \"-\" | \".\" | \"+\" | \"_\" ]), not " + describe(c)
		}
		return ""
	}
	if alpha || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '+' || c == '_' {
		return ""
	}
	switch c {
	case '*':
		return "'*' in a group name is draft-gilman's wildcard, beyond RFC 1738 (group = alpha *[ alpha | digit | \"-\" | \".\" | \"+\" | \"_\" ])"
	case '%':
		return "a group name holds no escapes: group = alpha *[ alpha | digit | \"-\" | \".\" | \"+\" | \"_\" ] (RFC 1738 §5)"
	}
	return describe(c) + " is not allowed in a group name: group = alpha *[ alpha | digit | \"-\" | \".\" | \"+\" | \"_\" ] (RFC 1738 §5)"
}

func describe(c byte) string {
	if c <= ' ' || c >= 0x7f {
		return "octet %" + string("0123456789ABCDEF"[c>>4]) + string("0123456789ABCDEF"[c&15])
	}
	return "'" + string(c) + "'"
}

// checkHost judges host = hostname | hostnumber (§5) and returns the
// offset in h of the first departure and what it is, or -1.
func checkHost(h string) (int, string) {
	if h == "" {
		return 0, "the host after \"@\" is empty"
	}
	digitsOnly := true
	labels := 0
	start := 0
	for i := 0; i <= len(h); i++ {
		if i < len(h) && h[i] != '.' {
			c := h[i]
			switch {
			case '0' <= c && c <= '9':
			case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-':
				digitsOnly = false
			default:
				return i, describe(c) + " is not allowed in a host name (RFC 1738 §3.1: letters, digits, '-' and '.')"
			}
			continue
		}
		labels++
		l := h[start:i]
		switch {
		case l == "":
			return i, "empty label in the host name"
		case l[0] == '-' || l[len(l)-1] == '-':
			return start, "a label of a host name neither begins nor ends with '-' (RFC 1738 §5 domainlabel)"
		}
		if i == len(h) && '0' <= l[0] && l[0] <= '9' && !(digitsOnly && labels == 4) {
			return start, "the last label of a host name begins with a letter, and a host number is four dotted decimal groups (RFC 1738 §5 toplabel)"
		}
		start = i + 1
	}
	return -1, ""
}

// articleOK is what Build leaves unencoded in the unique part of a
// message-id: uchar | ";" | "/" | "?" | ":" | "&" | "=" (§5 article).
var articleOK [256]bool

func init() {
	for c := 0; c < 256; c++ {
		articleOK[c] = locator.IsUnreserved(byte(c))
	}
	for _, c := range ";/?:&=" {
		articleOK[c] = true
	}
}

// Build writes n as a correctly encoded news URL: news:group, news:id@host
// or news:*, or with Host set draft-gilman's news://host[:port]/... (then
// it does not conform to RFC 1738 alone). The group must satisfy
// checkGroup; an article may be given with or without its "<" ">", its
// unique part is encoded as needed (and may hold no CR, LF or NUL, RFC
// 1036 §2.1.5) and its host must be a hostname or hostnumber. The error
// is a *locator.SchemeError naming the field at fault and the offset in
// it.
func (n *URL) Build() (string, error) {
	set := 0
	for _, b := range []bool{n.Group != "", n.Article != "", n.All} {
		if b {
			set++
		}
	}
	if set > 1 {
		return "", &locator.SchemeError{Scheme: "news", Field: "url", Rule: "grouppart", Message: "a news URL names one of a group, an article or \"*\""}
	}
	if n.Port != "" && n.Host == "" {
		return "", &locator.SchemeError{Scheme: "news", Field: "port", Rule: "newsurl", Message: "a port needs a news server host (draft-gilman news-server = \"//\" server \"/\")"}
	}
	if n.Range != "" && n.Group == "" {
		return "", &locator.SchemeError{Scheme: "news", Field: "range", Rule: "refbygroup", Message: "message numbers follow a group (draft-gilman refbygroup)"}
	}
	scheme := n.Scheme
	if scheme == "" {
		scheme = "news"
	}
	if scheme != "news" && scheme != "snews" {
		return "", &locator.SchemeError{Scheme: "news", Field: "url", Rule: "newsurl", Message: "scheme " + strconv.Quote(scheme) + " is not news or snews"}
	}
	var b strings.Builder
	b.WriteString(scheme + ":")
	if n.Host != "" {
		if i, msg := checkHost(n.Host); i >= 0 {
			return "", &locator.SchemeError{Scheme: "news", Field: "host", Offset: i, Rule: "host", Message: msg}
		}
		b.WriteString("//" + n.Host)
		if n.Port != "" {
			if p, err := strconv.Atoi(n.Port); err != nil || p < 1 || p > 65535 || strconv.Itoa(p) != n.Port {
				return "", &locator.SchemeError{Scheme: "news", Field: "port", Rule: "port", Message: "port " + strconv.Quote(n.Port) + " is not a number from 1 to 65535"}
			}
			b.WriteString(":" + n.Port)
		}
		b.WriteByte('/')
	} else if set == 0 {
		return "", &locator.SchemeError{Scheme: "news", Field: "url", Rule: "grouppart", Message: "a news URL names a group, an article or \"*\""}
	}
	switch {
	case n.All:
		b.WriteByte('*')
	case n.Group != "":
		if err := checkGroup(n.Group); err != nil {
			return "", err
		}
		b.WriteString(n.Group)
		if n.Range != "" {
			if i, msg := checkRange(n.Range); i >= 0 {
				return "", &locator.SchemeError{Scheme: "news", Field: "range", Offset: i, Rule: "refbygroup", Message: msg}
			}
			b.WriteString("/" + n.Range)
		}
	case n.Article != "":
		a := n.Article
		if len(a) >= 2 && a[0] == '<' && a[len(a)-1] == '>' {
			a = a[1 : len(a)-1]
		}
		at := strings.LastIndexByte(a, '@')
		if at <= 0 {
			return "", &locator.SchemeError{Scheme: "news", Field: "article", Offset: max(at, 0), Rule: "article", Message: "a message-id is <unique>@<full_domain_name> (RFC 1738 §3.6)"}
		}
		if i, msg := checkHost(a[at+1:]); i >= 0 {
			return "", &locator.SchemeError{Scheme: "news", Field: "article", Offset: at + 1 + i, Rule: "article", Message: msg}
		}
		if i := strings.IndexAny(a[:at], "\r\n\x00"); i >= 0 {
			return "", &locator.SchemeError{Scheme: "news", Field: "article", Offset: i, Rule: "article", Message: "a CR, LF or NUL cannot be part of a message-id (RFC 1036 §2.1.5): it would end an NNTP command line"}
		}
		for i := 0; i < at; i++ {
			if c := a[i]; articleOK[c] {
				b.WriteByte(c)
			} else {
				b.WriteString("%" + string("0123456789ABCDEF"[c>>4]) + string("0123456789ABCDEF"[c&15]))
			}
		}
		b.WriteString(a[at:])
	}
	return b.String(), nil
}

// checkRange judges draft-gilman's messageno [ "-" messageno ].
func checkRange(r string) (int, string) {
	dash := strings.IndexByte(r, '-')
	parts := []string{r}
	if dash >= 0 {
		parts = []string{r[:dash], r[dash+1:]}
	}
	off := 0
	for _, p := range parts {
		if p == "" {
			return off, "a message number is digits (draft-gilman refbygroup = group [ \"/\" messageno [ \"-\" messageno ] ])"
		}
		for i := 0; i < len(p); i++ {
			if p[i] < '0' || p[i] > '9' {
				return off + i, "a message number is digits (draft-gilman refbygroup), not " + describe(p[i])
			}
		}
		off += len(p) + 1
	}
	return -1, ""
}
