package wayback

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/archive"
)

// Bounds on a CDX query (pywb's API has none; a public server needs
// them).
const (
	// MaxRows bounds the rows one query returns: a larger limit, or
	// none, is taken as MaxRows.
	MaxRows = 100000
	// MaxScan bounds the index lines one query examines (a filter
	// that matches few of many lines), so that a query's time is
	// bounded whatever its filters.
	MaxScan = 2000000
	// maxFilters bounds a query's filters, maxFilterLen each one's
	// octets.
	maxFilters   = 16
	maxFilterLen = 1024
)

// A MatchType says which keys a query's URL matches (pywb's matchType).
type MatchType int

const (
	Exact  MatchType = iota // the URL's key
	Prefix                  // keys that begin with the URL's
	Host                    // every URL of the URL's host (and port)
	Domain                  // every URL of the host and its subdomains
)

var matchNames = map[string]MatchType{"exact": Exact, "prefix": Prefix, "host": Host, "domain": Domain}

// fields are the fields of a CDX row, in pywb's order.
var fields = []string{"urlkey", "timestamp", "url", "mime", "status", "digest", "length", "offset", "filename"}

// A Query is a parsed CDX server query (pywb's CDX server API).
type Query struct {
	URL     *locator.URL // the url parameter, its wildcard removed
	Match   MatchType
	From    string // 14 digits, the lowest timestamp (from= padded with 0)
	To      string // 14 digits, the highest (to= padded with 9)
	Limit   int    // 1 to MaxRows
	Reverse bool   // sort=reverse
	Closest string // sort=closest's closest=, 14 digits; "" when not sorted so
	Output  string // "cdxj" (the default), "json", "text" or "link"
	Fields  []string
	Filters []Filter

	prefix string // the key prefix the query reads
	domain string // Domain: the host (its SURT form for http) whose subdomains match
}

// A Filter is one filter= of a query: "[!][=|~]field:expression".
type Filter struct {
	Field  string
	Negate bool
	Mode   byte // '=' equal, '~' regular expression (matching at the start), 0 contains
	Value  string
	re     *regexp.Regexp
}

// A QueryError says a parameter of a query cannot be used (HTTP 400).
type QueryError struct {
	Param, Value, Msg string
}

func (e *QueryError) Error() string {
	v := e.Value
	if len(v) > 80 {
		v = v[:80] + "..."
	}
	return fmt.Sprintf("wayback: %s=%q: %s", e.Param, v, e.Msg)
}

// parseQuery reads a CDX query's parameters (pywb's CDX server API).
// The url may carry pywb's wildcards: "*.example.com" is matchType
// domain, "example.com/path/*" prefix; without a scheme it is http.
func parseQuery(v url.Values) (*Query, error) {
	q := &Query{From: "00000000000000", To: "99999999999999", Limit: MaxRows, Output: "cdxj"}
	raw := v.Get("url")
	if raw == "" {
		return nil, &QueryError{"url", "", "the url is required"}
	}
	match := ""
	if m := v.Get("matchType"); m != "" {
		if _, ok := matchNames[m]; !ok {
			return nil, &QueryError{"matchType", m, "not exact, prefix, host or domain"}
		}
		match = m
	}
	u, wild, err := queryURL(raw)
	if err != nil {
		return nil, &QueryError{"url", raw, err.Error()}
	}
	q.URL = u
	if match == "" {
		match = wild
	}
	q.Match = matchNames[match]
	if err := q.setRange(); err != nil {
		return nil, &QueryError{"url", raw, err.Error()}
	}
	for _, p := range []struct {
		name string
		dst  *string
		pad  byte
	}{{"from", &q.From, '0'}, {"to", &q.To, '9'}} {
		s := v.Get(p.name)
		if s == "" {
			continue
		}
		ts, ok := padTimestamp(s, p.pad)
		if !ok {
			return nil, &QueryError{p.name, s, "not a timestamp of 1 to 14 digits"}
		}
		*p.dst = ts
	}
	if s := v.Get("limit"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil && !isDigits(s) || n == 0 || strings.HasPrefix(s, "-") {
			return nil, &QueryError{"limit", s, "not a positive integer"}
		}
		if err == nil && n < MaxRows {
			q.Limit = int(n)
		}
	}
	switch s := v.Get("sort"); s {
	case "", "default":
	case "reverse":
		q.Reverse = true
	case "closest":
		c := v.Get("closest")
		ts, ok := padTimestamp(c, '0')
		if !ok {
			return nil, &QueryError{"closest", c, "sort=closest needs closest=TIMESTAMP, 1 to 14 digits"}
		}
		if q.Match != Exact {
			return nil, &QueryError{"sort", s, "sort=closest goes with matchType=exact"}
		}
		q.Closest = ts
	default:
		return nil, &QueryError{"sort", s, "not reverse or closest"}
	}
	switch s := v.Get("output"); s {
	case "", "cdxj":
	case "json", "text", "link":
		q.Output = s
	default:
		return nil, &QueryError{"output", s, "not cdxj, json, text or link"}
	}
	fl := v.Get("fl")
	if fl == "" {
		fl = v.Get("fields")
	}
	if fl != "" {
		for f := range strings.SplitSeq(fl, ",") {
			if !isField(f) {
				return nil, &QueryError{"fl", fl, fmt.Sprintf("%q is not a field (%s)", f, strings.Join(fields, ", "))}
			}
			q.Fields = append(q.Fields, f)
		}
	}
	filters := v["filter"]
	if len(filters) > maxFilters {
		return nil, &QueryError{"filter", filters[maxFilters], fmt.Sprintf("more than %d filters", maxFilters)}
	}
	for _, s := range filters {
		f, err := parseFilter(s)
		if err != nil {
			return nil, &QueryError{"filter", s, err.Error()}
		}
		q.Filters = append(q.Filters, f)
	}
	return q, nil
}

func isField(f string) bool {
	for _, g := range fields {
		if f == g {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// padTimestamp pads a timestamp of 1 to 14 digits to 14 with pad
// (pywb: "from=2014&to=2014" is 20140101000000 to 20141231235959; a
// padding of 9s bounds the same lines from above).
func padTimestamp(s string, pad byte) (string, bool) {
	if len(s) > 14 || !isDigits(s) {
		return "", false
	}
	return s + strings.Repeat(string(pad), 14-len(s)), true
}

// queryURL reads a query's url: pywb's wildcards removed (returned as
// the matchType they stand for), http:// added to a URL without a
// scheme.
func queryURL(raw string) (*locator.URL, string, error) {
	wild := "exact"
	if strings.HasSuffix(raw, "*") {
		raw, wild = strings.TrimSuffix(raw, "*"), "prefix"
	}
	if !hasScheme(raw) {
		raw = "http://" + raw
	}
	if i := strings.Index(raw, "://*."); i >= 0 {
		raw, wild = raw[:i+3]+raw[i+5:], "domain"
	}
	u, err := locator.Parse(raw)
	if err != nil {
		return nil, "", err
	}
	return u, wild, nil
}

// hasScheme says whether s names its scheme: "scheme://", or one of
// RFC 1738's schemes without "//" (news:, mailto:); "example.com:80/"
// has none.
func hasScheme(s string) bool {
	i := strings.Index(s, ":")
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	if strings.HasPrefix(s[i:], "://") {
		return true
	}
	switch strings.ToLower(s[:i]) {
	case "news", "mailto":
		return true
	}
	return false
}

// isHTTP says whether u's key is a SURT.
func isHTTP(u *locator.URL) bool {
	s := strings.ToLower(u.Scheme())
	return s == "http" || s == "https"
}

// setRange sets the key prefix the query reads.
func (q *Query) setRange() error {
	key := archive.Key(q.URL)
	switch q.Match {
	case Exact:
		q.prefix = key + " "
	case Prefix:
		q.prefix = key
	case Host, Domain:
		if q.URL.Host() == "" {
			return fmt.Errorf("matchType=host and domain need a URL with a host")
		}
		if isHTTP(q.URL) {
			// "com,example:8080)/path": the host's part is before ")".
			i := strings.Index(key, ")/")
			if i < 0 {
				return fmt.Errorf("no host in the key %q", key)
			}
			if q.Match == Host {
				q.prefix = key[:i+2]
				break
			}
			h := key[:i]
			if j := strings.IndexByte(h, ':'); j >= 0 {
				h = h[:j]
			}
			q.prefix, q.domain = h, h
			break
		}
		// scheme://authority/...: not reversed, so a domain's hosts
		// are not together: the scheme's keys are read, each host
		// checked.
		i := strings.Index(key, "://")
		if i < 0 {
			return fmt.Errorf("no host in the key %q", key)
		}
		if q.Match == Host {
			j := strings.IndexByte(key[i+3:], '/')
			if j < 0 {
				q.prefix = key + "/"
			} else {
				q.prefix = key[:i+3+j+1]
			}
			break
		}
		q.prefix, q.domain = key[:i+3], strings.ToLower(strings.TrimSuffix(q.URL.Host(), "."))
	}
	return nil
}

// inDomain says whether the key (of a line in q's range) is of q's
// domain or one of its subdomains.
func (q *Query) inDomain(key string) bool {
	if q.domain == "" {
		return true
	}
	if strings.HasSuffix(q.prefix, "://") {
		rest := key[len(q.prefix):]
		if i := strings.IndexAny(rest, "/?"); i >= 0 {
			rest = rest[:i]
		}
		if i := strings.LastIndexByte(rest, '@'); i >= 0 {
			rest = rest[i+1:]
		}
		if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.HasSuffix(rest, "]") {
			rest = rest[:i]
		}
		rest = strings.ToLower(rest)
		return rest == q.domain || strings.HasSuffix(rest, "."+q.domain)
	}
	// SURT: "com,example" then ")" (the host), "," (a subdomain) or
	// ":" (a port).
	if len(key) <= len(q.domain) {
		return false
	}
	c := key[len(q.domain)]
	return c == ')' || c == ',' || c == ':'
}

// parseFilter reads "[!][=|~]field:expression" (pywb).
func parseFilter(s string) (Filter, error) {
	var f Filter
	if len(s) > maxFilterLen {
		return f, fmt.Errorf("longer than %d octets", maxFilterLen)
	}
	if strings.HasPrefix(s, "!") {
		f.Negate, s = true, s[1:]
	}
	if s != "" && (s[0] == '=' || s[0] == '~') {
		f.Mode, s = s[0], s[1:]
	}
	field, val, ok := strings.Cut(s, ":")
	if !ok || field == "" {
		return f, fmt.Errorf("not [!][=|~]field:expression")
	}
	if !isField(field) {
		return f, fmt.Errorf("%q is not a field (%s)", field, strings.Join(fields, ", "))
	}
	f.Field, f.Value = field, val
	if f.Mode == '~' {
		// RE2 (package regexp): linear in the field's length whatever
		// the expression; Python's re.match anchors at the start.
		re, err := regexp.Compile(`^(?:` + val + `)`)
		if err != nil {
			return f, fmt.Errorf("not a regular expression (RE2): %v", err)
		}
		f.re = re
	}
	return f, nil
}

// match says whether the row's field passes the filter.
func (f *Filter) match(r *Row) bool {
	v := r.Field(f.Field)
	var ok bool
	switch f.Mode {
	case '=':
		ok = v == f.Value
	case '~':
		ok = f.re.MatchString(v)
	default:
		ok = strings.Contains(v, f.Value)
	}
	return ok != f.Negate
}
