// Package robots reads a robots.txt file, the Robots Exclusion Protocol
// of RFC 9309: which paths of a service a crawler may fetch, by the
// crawler's product token.
//
// Parse never fails and never panics: RFC 9309 §2.3.1.5 says a crawler
// "MUST try to parse each line" and "MUST use the parseable rules", so a
// line that is not a record is passed over. It reads at most MaxSize
// octets (§2.5). Besides the records of §2.2 (user-agent, allow,
// disallow) it reads Crawl-delay, the common extension §2.2.4 allows
// ("Crawlers MAY interpret other records"), and Sitemap; neither ends a
// group.
package robots

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"time"
)

// MaxSize is how much of a robots.txt file is parsed: RFC 9309 §2.5 "The
// parsing limit MUST be at least 500 kibibytes"; what follows is not read.
const MaxSize = 500 << 10

// Robots is a parsed robots.txt file.
type Robots struct {
	groups []group
	// Sitemaps lists the Sitemap records' values, in file order.
	Sitemaps []string
}

type group struct {
	agents []string // product tokens, in lower case; "*" for any
	rules  []rule
	delay  time.Duration
	hasDly bool
}

type rule struct {
	allow   bool
	pattern string // normalized (see norm)
	m       *matcher
}

func newRule(allow bool, pattern string) rule {
	return rule{allow: allow, pattern: pattern, m: compile(pattern)}
}

// Parse reads the robots.txt file b, its first MaxSize octets.
func Parse(b []byte) *Robots {
	if len(b) > MaxSize {
		b = b[:MaxSize]
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	r := &Robots{}
	var cur *group
	inRules := false // the current group has had a rule (or other record)
	for len(b) > 0 {
		// NL = CR / LF / CRLF (§2.2).
		i := bytes.IndexAny(b, "\r\n")
		var line []byte
		if i < 0 {
			line, b = b, nil
		} else {
			line = b[:i]
			if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
			b = b[i+1:]
		}
		if j := bytes.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		key, val, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		k := strings.ToLower(strings.Trim(string(key), " \t"))
		v := strings.Trim(string(val), " \t")
		switch k {
		case "user-agent", "useragent", "user agent":
			if cur == nil || inRules {
				r.groups = append(r.groups, group{})
				cur = &r.groups[len(r.groups)-1]
				inRules = false
			}
			cur.agents = append(cur.agents, agentToken(v))
		case "allow", "disallow":
			if cur == nil {
				continue // §2.2.2: rules before any user-agent line are ignored
			}
			inRules = true
			if v == "" {
				continue // empty-pattern: matches nothing
			}
			cur.rules = append(cur.rules, newRule(k == "allow", norm(v)))
		case "crawl-delay":
			if cur == nil {
				continue
			}
			inRules = true
			if d, err := strconv.ParseFloat(v, 64); err == nil && d >= 0 && d < 1e6 {
				cur.delay, cur.hasDly = time.Duration(d*float64(time.Second)), true
			}
		case "sitemap":
			// §2.2.4: other records MUST NOT terminate a group.
			if v != "" {
				r.Sitemaps = append(r.Sitemaps, v)
			}
		}
	}
	return r
}

// agentToken returns the product token a user-agent line names, in lower
// case: its leading letters, '_' and '-' (§2.2.1; "ExampleBot/1.0" names
// examplebot), or "*".
func agentToken(v string) string {
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	i := 0
	for i < len(v) && isTokenChar(v[i]) {
		i++
	}
	return strings.ToLower(v[:i])
}

func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-'
}

// Rules are the rules that apply to one crawler.
type Rules struct {
	rules []rule
	// CrawlDelay is the Crawl-delay of the groups that apply, the
	// longest when several say one; HasDelay says whether any did.
	CrawlDelay time.Duration
	HasDelay   bool
	// DisallowAll marks the rules of a service whose robots.txt could
	// not be reached (§2.3.1.4: "the crawler MUST assume complete
	// disallow").
	DisallowAll bool
}

// AllowAll is the Rules of a service without a robots.txt (§2.3.1.3: a
// robots.txt that is unavailable, a 4xx, allows every path).
var AllowAll = &Rules{}

// DisallowAllRules is the Rules of a service whose robots.txt is
// unreachable (§2.3.1.4).
var DisallowAllRules = &Rules{DisallowAll: true}

// For returns the rules for the crawler whose product token is agent
// (letters, '_' and '-'): those of every group that names it, matched
// without regard to case, combined (§2.2.1); when none names it, those of
// the groups that name "*"; when there are none either, no rules.
func (r *Robots) For(agent string) *Rules {
	agent = strings.ToLower(agent)
	out := &Rules{}
	found := false
	for pass := 0; pass < 2 && !found; pass++ {
		want := agent
		if pass == 1 {
			want = "*"
		}
		for _, g := range r.groups {
			for _, a := range g.agents {
				if a != "" && a == want {
					found = true
					out.rules = append(out.rules, g.rules...)
					if g.hasDly && (!out.HasDelay || g.delay > out.CrawlDelay) {
						out.CrawlDelay, out.HasDelay = g.delay, true
					}
					break
				}
			}
		}
	}
	out.rules = order(out.rules)
	return out
}

// order sorts rules as Allowed tries them, the most specific first (the
// longest pattern, an allow rule before a disallow rule of the same
// length: §2.2.2), so that the first that matches decides; a rule that
// is another's duplicate is left out ("Duplicate rules in a group MAY be
// deduplicated").
func order(rules []rule) []rule {
	sort.SliceStable(rules, func(i, j int) bool {
		a, b := rules[i], rules[j]
		if len(a.pattern) != len(b.pattern) {
			return len(a.pattern) > len(b.pattern)
		}
		if a.allow != b.allow {
			return a.allow
		}
		return a.pattern < b.pattern
	})
	out := rules[:0]
	for i, r := range rules {
		if i > 0 && r.allow == rules[i-1].allow && r.pattern == rules[i-1].pattern {
			continue
		}
		out = append(out, r)
	}
	return out
}

// Allowed reports whether the crawler may fetch the path (and query) p,
// as written in the URL ("/a/b?c"). The rule whose pattern matches the
// most octets wins, an allow rule over a disallow rule of the same length
// (§2.2.2); no match allows. "/robots.txt" is always allowed.
func (r *Rules) Allowed(p string) bool {
	if p == "" {
		p = "/"
	}
	if p == "/robots.txt" {
		return true
	}
	if r.DisallowAll {
		return false
	}
	p = norm(p)
	for _, ru := range r.rules { // most specific first (order)
		if ru.m.match(p) {
			return ru.allow
		}
	}
	return true
}

// norm writes s as rules and paths are compared (§2.2.2): octets outside
// ASCII, controls and space percent-encoded; an escape of an unreserved
// character (RFC 3986 §2.3) decoded; other escapes kept, their hex digits
// in upper case.
func norm(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.WriteByte('%')
				b.WriteByte(hex[d>>4])
				b.WriteByte(hex[d&15])
			}
			i += 2
		case c <= ' ' || c >= 0x7f:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}
