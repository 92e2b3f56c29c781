package news

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/hex"
)

func init() {
	locator.RegisterSyntax("snews", locator.Syntax{DefaultPort: securePort})
	locator.Register("news", newsRules{})
	locator.Register("snews", rules{})
}

type rules struct{}

// newsRules are a news URL's rules and its parts (parts.go); an snews
// URL (draft-gilman's) has the rules, not the parts.
type newsRules struct{ rules }

// Check judges the grouppart of §5 (group, article or "*") and reports
// draft-gilman's extensions (a news server, message numbers, snews) as
// beyond RFC 1738.
func (rules) Check(u *locator.URL, r locator.Report) locator.Report {
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	if u.Scheme() == "snews" {
		add(u.Offset(locator.SchemeComponent), "scheme", "snews (news over TLS, draft-gilman-news-url) is beyond RFC 1738")
	}
	base := u.Offset(locator.PathComponent)
	if u.HasAuthority() {
		add(u.Offset(locator.SchemeComponent)+len(u.Scheme())+1, "newsurl",
			"news://host/ (draft-gilman-news-url) is beyond RFC 1738: newsurl = \"news:\" grouppart, and news URLs name no host (§3.6)")
	}
	p := u.Path()
	switch {
	case p == "":
		if !u.HasAuthority() {
			add(base, "grouppart", "a news URL names a group, an article or \"*\" (RFC 1738 §5: grouppart = \"*\" | group | article)")
		}
	case p == "*":
	case strings.IndexByte(p, '@') >= 0:
		from, to := 0, len(p)
		if l, r := angle(p); l > 0 {
			add(base, "article", "a message-id is written without its \"<\" and \">\" (RFC 1738 §3.6)")
			from, to = l, len(p)-r
		}
		at := strings.LastIndexByte(p[from:to], '@')
		if at < 0 {
			break
		}
		at += from
		if at == from {
			add(base+at, "article", "the part of a message-id before \"@\" is empty (RFC 1738 §5: article = 1*[ uchar | ... ] \"@\" host)")
		}
		for i := from; i < at; {
			c, n := octet(p, i)
			switch {
			case n == 1 && c == '@':
				add(base+i, "article", "a second '@': the part of a message-id before \"@\" writes '@' as %40 (RFC 1738 §5 article)")
			case c == '\r' || c == '\n' || c == 0:
				add(base+i, "article", "decoded "+describe(c)+" cannot be part of a message-id (RFC 1036 §2.1.5) and would end an NNTP command line")
			}
			i += n
		}
		if i, msg := checkHost(p[at+1 : to]); i >= 0 {
			add(base+at+1+i, "host", msg)
		}
	default:
		g := p
		if i := strings.IndexByte(p, '/'); i >= 0 {
			g = p[:i]
			add(base+i, "newsurl", "message numbers after the group are draft-gilman's refbygroup, beyond RFC 1738 (§5 group)")
			if j, msg := checkRange(p[i+1:]); j >= 0 {
				add(base+i+1+j, "refbygroup", msg)
			}
		}
		if g == "" {
			add(base, "group", "the group name is empty")
		}
		for i := 0; i < len(g); i++ {
			if msg := groupOctet(g, i); msg != "" {
				add(base+i, "group", msg)
				if g[i] == '%' && i+2 < len(g) {
					i += 2
				}
			}
		}
	}
	return r
}

// angle returns the widths of a "<" (or %3C) opening p and a ">" (or
// %3E) closing it, or 0, 0.
func angle(p string) (l, r int) {
	switch {
	case strings.HasPrefix(p, "<"):
		l = 1
	case len(p) >= 3 && strings.EqualFold(p[:3], "%3C"):
		l = 3
	default:
		return 0, 0
	}
	switch {
	case strings.HasSuffix(p, ">") && len(p) > l:
		r = 1
	case len(p) >= l+3 && strings.EqualFold(p[len(p)-3:], "%3E"):
		r = 3
	default:
		return 0, 0
	}
	return l, r
}

func octet(s string, i int) (byte, int) {
	c := s[i]
	if c == '%' && i+2 < len(s) && locator.IsHex(s[i+1]) && locator.IsHex(s[i+2]) {
		return hex.Decode(s[i+1], s[i+2]), 3
	}
	return c, 1
}

type parts struct {
	Group   string `json:"group,omitempty"`
	Article string `json:"article,omitempty"`
	All     bool   `json:"all,omitempty"`
}

// Parts returns {group}, {article} or {all: true}; see the package
// documentation.
func (rules) Parts(u *locator.URL) any {
	n, err := From(u)
	if err != nil {
		return nil
	}
	return parts{Group: n.Group, Article: n.Article, All: n.All}
}

// Explain says what the news URL designates and the NNTP commands that
// fetch it.
func (rules) Explain(u *locator.URL) string {
	n, err := From(u)
	if err != nil {
		return ""
	}
	var b strings.Builder
	switch {
	case n.All:
		b.WriteString("All available news groups (RFC 1738 §3.6).")
	case n.Article != "":
		b.WriteString("The Usenet article with Message-ID " + strconv.Quote("<"+n.Article+">") + " (RFC 1738 §3.6, RFC 1036 §2.1.5).")
	case n.Group != "":
		b.WriteString("The Usenet newsgroup " + strconv.Quote(n.Group))
		if n.Range != "" {
			b.WriteString(", articles numbered " + n.Range + " on that server (draft-gilman)")
		}
		b.WriteString(" (RFC 1738 §3.6).")
	default:
		b.WriteString("The index of the news server's groups (draft-gilman-news-url §3).")
	}
	pl, err := n.Plan()
	if err != nil {
		b.WriteString(" No NNTP plan: " + err.Error() + ".")
		return b.String()
	}
	if pl.Host == "" {
		b.WriteString(" The reader fetches it from its own news server (a news URL names no host)")
	} else {
		b.WriteString(" The reader connects to the news server " + pl.Host + " port " + strconv.Itoa(pl.Port))
		if pl.TLS {
			b.WriteString(" over TLS")
		}
	}
	b.WriteString(" and sends the NNTP (RFC 977) command")
	if len(pl.Commands) > 1 {
		b.WriteString("s")
	}
	b.WriteString(" " + strings.Join(pl.Commands, ", ") + ".")
	return b.String()
}
