package wayback

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/archive"
)

// A Handler serves one collection's URLs (the package comment's
// layout) under /COLLECTION/. Its paths are read from the raw request
// target, so that the URL after the timestamp reaches it as written.
type Handler struct {
	Index      *Index
	Collection string // the first path segment: "web"
	// Replay writes the memento of target (the URL as written in the
	// request) captured at at: the gateway's replay of an archived URL,
	// taken at that time (archive.WithTime). The Handler has set its
	// Memento-Datetime and Link header fields.
	Replay func(w http.ResponseWriter, r *http.Request, target string, at time.Time)
}

// ValidCollection says whether name may name a collection: letters,
// digits, "_" and "-", not "-" alone (the gateway's own pages).
func ValidCollection(name string) bool {
	if name == "" || name == "-" || len(name) > 64 {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Owns says whether the request target (its raw path, from the first
// "/") is the collection's.
func (h *Handler) Owns(target string) bool {
	p := "/" + h.Collection
	return strings.HasPrefix(target, p+"/") || strings.HasPrefix(target, p+"?") || target == p
}

// ServeHTTP serves a request whose target the Handler Owns.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.RequestURI, "/"+h.Collection+"/")
	if !ok {
		http.Redirect(w, r, "/"+h.Collection+"/", http.StatusMovedPermanently)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		h.fail(w, http.StatusMethodNotAllowed, "The collection answers GET and HEAD.")
		return
	}
	switch {
	case rest == "":
		h.home(w, r)
	case rest == "cdx" || strings.HasPrefix(rest, "cdx?"):
		h.cdx(w, r, r.URL.Query())
	case strings.HasPrefix(rest, "timemap/"):
		kind, target, _ := strings.Cut(strings.TrimPrefix(rest, "timemap/"), "/")
		h.timemap(w, r, kind, target)
	default:
		seg, target, found := strings.Cut(rest, "/")
		ts, star := strings.CutSuffix(seg, "*")
		switch {
		case found && star && (ts == "" || isDigits(ts) && len(ts) <= 14):
			h.list(w, r, ts, target)
		case found && isDigits(seg) && len(seg) <= 14:
			h.memento(w, r, seg, target)
		default:
			h.timegate(w, r, rest)
		}
	}
}

// base is the collection's absolute URL, as Link header fields and
// TimeMaps give URIs (RFC 7089 §2.1.3 examples): "http://HOST/web".
func (h *Handler) base(r *http.Request) string {
	return "http://" + r.Host + "/" + h.Collection
}

func (h *Handler) fail(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	fmt.Fprintln(w, msg)
}

// cdx answers the CDX server API.
func (h *Handler) cdx(w http.ResponseWriter, r *http.Request, v url.Values) {
	q, err := parseQuery(v)
	if err != nil {
		h.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	w.Header().Set("Content-Type", q.ContentType())
	if r.Method == http.MethodHead {
		return
	}
	base := h.base(r)
	h.Index.WriteRows(r.Context(), w, q, func(row *Row) string { return base + "/" + row.Timestamp + "/" + row.URL }, h.Collection)
}

// targetURL reads the URL of a path (pywb: http:// when it names no
// scheme).
// capturesOf reads target as a URL and finds the index lines of its
// captures, [lo, hi); when it cannot, or there is none, it answers w
// (400, 500 or 404) and reports false.
func (h *Handler) capturesOf(w http.ResponseWriter, target string) (u *locator.URL, orig string, lo, hi int, ok bool) {
	u, orig, err := targetURL(target)
	if err != nil {
		h.fail(w, http.StatusBadRequest, "Not a URL: "+err.Error())
		return nil, "", 0, 0, false
	}
	lo, hi, err = h.captures(u)
	if err != nil {
		h.fail(w, http.StatusInternalServerError, err.Error())
		return nil, "", 0, 0, false
	}
	if lo == hi {
		h.fail(w, http.StatusNotFound, "The collection holds no capture of this URL.")
		return nil, "", 0, 0, false
	}
	return u, orig, lo, hi, true
}

func targetURL(target string) (*locator.URL, string, error) {
	if !hasScheme(target) {
		target = "http://" + target
	}
	u, err := locator.Parse(target)
	return u, target, err
}

// captures returns the lines of u's key: [lo, hi).
func (h *Handler) captures(u *locator.URL) (lo, hi int, err error) {
	return h.Index.keyRange(archive.Key(u) + " ")
}

func (h *Handler) row(i int) (*Row, error) {
	line, err := h.Index.line(i)
	if err != nil {
		return nil, err
	}
	return parseRow(line)
}

// Closest returns the capture of u closest to t (of two equally far,
// the earlier), or nil when the index holds none.
func (ix *Index) Closest(u *locator.URL, t time.Time) (*Row, error) {
	lo, hi, err := ix.keyRange(archive.Key(u) + " ")
	if err != nil || lo == hi {
		return nil, err
	}
	i, err := ix.closestIndex(lo, hi, t)
	if err != nil {
		return nil, err
	}
	line, err := ix.line(i)
	if err != nil {
		return nil, err
	}
	return parseRow(line)
}

// closestIndex is the line of [lo, hi) (one key's, lo < hi) closest to t.
func (ix *Index) closestIndex(lo, hi int, t time.Time) (int, error) {
	best := -1
	err := ix.closestOrder(&blockReader{ix: ix}, lo, hi, t.UTC().Format("20060102150405"), func(i int) (bool, error) {
		best = i
		return false, nil
	})
	return best, err
}

// mementoLinks is the Link header of the URI-M of line c of [lo, hi)
// (RFC 7089 §2.2): original, timegate, timemap, and first, prev, next
// and last memento where they exist, one link per memento with its
// relation types together ("first prev memento").
func (h *Handler) mementoLinks(r *http.Request, orig string, lo, hi, c int) (string, error) {
	base := h.base(r)
	links := []string{
		"<" + orig + `>; rel="original"`,
		"<" + base + "/" + orig + `>; rel="timegate"`,
		"<" + base + "/timemap/link/" + orig + `>; rel="timemap"; type="application/link-format"`,
	}
	rels := map[int][]string{}
	var order []int
	add := func(i int, rel string) {
		if i < lo || i >= hi || i == c && rel != "first" && rel != "last" {
			return
		}
		if _, ok := rels[i]; !ok {
			order = append(order, i)
		}
		rels[i] = append(rels[i], rel)
	}
	add(lo, "first")
	add(c-1, "prev")
	add(c+1, "next")
	add(hi-1, "last")
	for _, i := range order {
		row, err := h.row(i)
		if err != nil {
			return "", err
		}
		links = append(links, fmt.Sprintf(`<%s/%s/%s>; rel="%s memento"; datetime="%s"`, base, row.Timestamp, row.URL,
			strings.Join(rels[i], " "), httpDate(row.Time())))
	}
	return strings.Join(links, ", "), nil
}

// memento serves /COLL/TIMESTAMP/U: the capture of U closest to
// TIMESTAMP (padded with 0s: "2026" is 2026-01-01). When TIMESTAMP is
// not that capture's own, the answer is a 302 to it (pywb's
// redirect_to_exact, Memento pattern 2.1's URI-M); else the memento,
// with Memento-Datetime and Link (RFC 7089 §2.1.1, §2.1.3).
func (h *Handler) memento(w http.ResponseWriter, r *http.Request, ts, target string) {
	_, orig, lo, hi, ok := h.capturesOf(w, target)
	if !ok {
		return
	}
	padded, _ := padTimestamp(ts, '0')
	c, err := h.Index.closestIndex(lo, hi, tsTime(padded))
	if err != nil {
		h.fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	row, err := h.row(c)
	if err != nil {
		h.fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	if row.Timestamp != ts {
		w.Header().Set("Link", "<"+orig+`>; rel="original"`)
		w.Header().Set("Location", h.base(r)+"/"+row.Timestamp+"/"+target)
		w.WriteHeader(http.StatusFound)
		return
	}
	links, err := h.mementoLinks(r, orig, lo, hi, c)
	if err != nil {
		h.fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Memento-Datetime", httpDate(row.Time()))
	w.Header().Set("Link", links)
	h.Replay(w, r, orig, row.Time())
}

// timegate serves /COLL/U: a 302 to the memento closest to the
// request's Accept-Datetime, the latest without one (RFC 7089 §4.2.1:
// Vary, Location, Link with original and timemap; no Memento-Datetime).
func (h *Handler) timegate(w http.ResponseWriter, r *http.Request, target string) {
	u, orig, err := targetURL(target)
	if err != nil {
		h.fail(w, http.StatusBadRequest, "Not a URL: "+err.Error())
		return
	}
	w.Header().Set("Vary", "accept-datetime")
	at := time.Now()
	if ad := r.Header.Get("Accept-Datetime"); ad != "" {
		// RFC 7089 §4.5.3: an Accept-Datetime that does not read is a 400.
		t, err := http.ParseTime(ad)
		if err != nil {
			h.fail(w, http.StatusBadRequest, "Accept-Datetime is not an HTTP date (RFC 7089 §2.1.1): "+err.Error())
			return
		}
		at = t
	}
	lo, hi, err := h.captures(u)
	if err != nil {
		h.fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	if lo == hi {
		h.fail(w, http.StatusNotFound, "The collection holds no capture of this URL.")
		return
	}
	c, err := h.Index.closestIndex(lo, hi, at)
	if err != nil {
		h.fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	row, err := h.row(c)
	if err != nil {
		h.fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	first, last := row, row
	if c != lo {
		if first, err = h.row(lo); err != nil {
			h.fail(w, http.StatusInternalServerError, err.Error())
			return
		}
	}
	if c != hi-1 {
		if last, err = h.row(hi - 1); err != nil {
			h.fail(w, http.StatusInternalServerError, err.Error())
			return
		}
	}
	base := h.base(r)
	w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="original", <%s/timemap/link/%s>; rel="timemap"; type="application/link-format"; from="%s"; until="%s"`,
		orig, base, orig, httpDate(first.Time()), httpDate(last.Time())))
	w.Header().Set("Location", base+"/"+row.Timestamp+"/"+target)
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusFound)
}

// timemap serves /COLL/timemap/link/U (RFC 7089 §5), and pywb's
// timemap/json and timemap/cdxj: the CDX query url=U&output=KIND.
func (h *Handler) timemap(w http.ResponseWriter, r *http.Request, kind, target string) {
	switch kind {
	case "json", "cdxj":
		h.cdx(w, r, url.Values{"url": {target}, "output": {kind}})
		return
	case "link":
	default:
		h.fail(w, http.StatusNotFound, "A TimeMap is timemap/link/URL, timemap/json/URL or timemap/cdxj/URL.")
		return
	}
	_, orig, lo, hi, ok := h.capturesOf(w, target)
	if !ok {
		return
	}
	hi = min(hi, lo+MaxRows)
	first, err := h.row(lo)
	if err != nil {
		h.fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	last, err := h.row(hi - 1)
	if err != nil {
		h.fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	base := h.base(r)
	w.Header().Set("Content-Type", "application/link-format")
	if r.Method == http.MethodHead {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<%s>; rel=\"original\",\n<%s/timemap/link/%s>; rel=\"self\"; type=\"application/link-format\"; from=\"%s\"; until=\"%s\",\n<%s/%s>; rel=\"timegate\"",
		orig, base, orig, httpDate(first.Time()), httpDate(last.Time()), base, orig)
	for i := lo; i < hi; i++ {
		row, err := h.row(i)
		if err != nil {
			break
		}
		rel := "memento"
		switch {
		case i == lo && i == hi-1:
			rel = "first last memento"
		case i == lo:
			rel = "first memento"
		case i == hi-1:
			rel = "last memento"
		}
		fmt.Fprintf(&b, ",\n<%s/%s/%s>; rel=\"%s\"; datetime=\"%s\"", base, row.Timestamp, row.URL, rel, httpDate(row.Time()))
		if b.Len() > 32<<10 {
			if _, err := w.Write([]byte(b.String())); err != nil {
				return
			}
			b.Reset()
		}
	}
	b.WriteString("\n")
	w.Write([]byte(b.String()))
}

var listPage = template.Must(template.New("list").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Captures of {{.URL}}</title>
<style>body{font-family:sans-serif;margin:1em 2em}td{padding:0 1em 0 0}</style></head>
<body><h1>Captures of <code>{{.URL}}</code></h1>
<p>{{.Count}} capture{{if ne .Count 1}}s{{end}}{{if .More}} (the first {{.Count}}){{end}} in the collection <code>{{.Collection}}</code>{{if .Count}}, from {{.First}} to {{.Last}}{{end}}.
<a href="{{.TimeMap}}">TimeMap</a></p>
{{range .Years}}<h2>{{.Year}}</h2>
<table>{{range .Rows}}<tr><td><a href="{{.Href}}">{{.When}}</a></td><td>{{.Status}}</td><td>{{.Mime}}</td><td><code>{{.URL}}</code></td></tr>
{{end}}</table>
{{end}}</body></html>
`))

type listRow struct{ Href, When, Status, Mime, URL string }
type listYear struct {
	Year string
	Rows []listRow
}

// list serves /COLL/*/U (and /COLL/TS*/U, the captures whose timestamp
// begins with TS): a page for a person, every capture of U by date,
// each a link to its memento.
func (h *Handler) list(w http.ResponseWriter, r *http.Request, ts, target string) {
	u, orig, err := targetURL(target)
	if err != nil {
		h.fail(w, http.StatusBadRequest, "Not a URL: "+err.Error())
		return
	}
	q := &Query{URL: u, Match: Exact, Limit: MaxRows, Output: "cdxj"}
	q.From, _ = padTimestamp(ts, '0')
	q.To, _ = padTimestamp(ts, '9')
	if ts == "" {
		q.From, q.To = "00000000000000", "99999999999999"
	}
	if err := q.setRange(); err != nil {
		h.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	data := struct {
		URL, Collection, TimeMap, First, Last string
		Count                                 int
		More                                  bool
		Years                                 []listYear
	}{URL: orig, Collection: h.Collection, TimeMap: "/" + h.Collection + "/timemap/link/" + target}
	err = h.Index.Query(r.Context(), q, func(row *Row) error {
		t := row.Time()
		y := row.Timestamp[:4]
		if len(data.Years) == 0 || data.Years[len(data.Years)-1].Year != y {
			data.Years = append(data.Years, listYear{Year: y})
		}
		yr := &data.Years[len(data.Years)-1]
		yr.Rows = append(yr.Rows, listRow{Href: "/" + h.Collection + "/" + row.Timestamp + "/" + row.URL,
			When: t.UTC().Format("2006-01-02 15:04:05 UTC"), Status: row.Status, Mime: row.Mime, URL: row.URL})
		if data.Count == 0 {
			data.First = t.UTC().Format("2006-01-02")
		}
		data.Last = t.UTC().Format("2006-01-02")
		data.Count++
		return nil
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		h.fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	data.More = data.Count >= MaxRows
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	if data.Count == 0 {
		w.WriteHeader(http.StatusNotFound)
	}
	listPage.Execute(w, data)
}

// home serves /COLL/: what the collection is and how to ask it.
func (h *Handler) home(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "The collection %q: %d captures.\n\n", h.Collection, h.Index.Len())
	for _, l := range []string{
		"/%s/cdx?url=URL          the CDX server API (pywb's): matchType, from, to, limit, sort, closest, output, fl, filter",
		"/%s/TIMESTAMP/URL        the capture closest to TIMESTAMP (a Memento, RFC 7089)",
		"/%s/URL                  a TimeGate: Accept-Datetime, or the latest",
		"/%s/timemap/link/URL     a TimeMap (RFC 7089 §5)",
		"/%s/*/URL                every capture of URL, by date",
	} {
		fmt.Fprintf(w, l+"\n", h.Collection)
	}
}
