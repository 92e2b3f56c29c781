package gateway

import (
	"bufio"
	"bytes"
	"errors"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/printable"
)

// The pages: plain HTML, no script, one small style sheet inline, a
// viewport for phones; a list Lynx and w3m read as well as a browser.
var pages = template.Must(template.New("").Parse(`{{define "head"}}<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
:root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fdfdfb;--mute:#5f6368;--link:#0b57d0;--rule:#d8d8d2}
@media (prefers-color-scheme:dark){:root{--fg:#e8e6e3;--bg:#161616;--mute:#a0a0a0;--link:#8ab4f8;--rule:#333}}
body{margin:0 auto;max-width:52rem;padding:0 1rem 2rem;font:1rem/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:.6rem 0;border-bottom:1px solid var(--rule);font-size:.9rem;color:var(--mute);overflow-wrap:anywhere}
header a{font-weight:600}
a{color:var(--link)}
h1{font-size:1.25rem;margin:1rem 0 .5rem;overflow-wrap:anywhere}
ul.l{list-style:none;padding:0;margin:0}
ul.l li{padding:.3rem 0;border-bottom:1px solid var(--rule);overflow-wrap:anywhere}
ul.l li.info{border:0;padding:0;min-height:1.2em;white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:.9rem}
.t{display:inline-block;min-width:5.6em;color:var(--mute);font-size:.8rem;font-family:ui-monospace,monospace}
small{color:var(--mute)}
form{margin:1rem 0}
label{display:block;margin:.6rem 0 .2rem;font-weight:600}
input[type=text],input[type=password],input[type=search],input[type=url],textarea,select{box-sizing:border-box;width:100%;font:inherit;padding:.4rem;border:1px solid var(--mute);border-radius:4px;background:var(--bg);color:var(--fg)}
button{font:inherit;margin-top:.8rem;padding:.4rem 1.2rem}
.err{border-left:4px solid #c5221f;padding:.2rem .8rem}
p.note{white-space:pre-wrap}
.gmi p{margin:.2rem 0;min-height:1.2em;white-space:pre-wrap;overflow-wrap:anywhere}
.gmi pre{overflow-x:auto;font-size:.9rem}
.gmi blockquote{margin:.4rem 0;padding-left:.8rem;border-left:3px solid var(--rule);white-space:pre-wrap}
</style></head><body>
<header><a href="{{.Home}}">locator gateway</a>{{if .Shown}} · <span>{{.Shown}}</span>{{end}}</header>
<main>{{end}}
{{define "foot"}}</main></body></html>
{{end}}
{{define "listhead"}}{{template "head" .}}<h1>{{.Heading}}</h1>
<ul class="l">
{{end}}
{{define "entry"}}{{if eq .Type "info"}}<li class="info">{{.Name}}</li>
{{else}}<li><span class="t">[{{.Label}}]</span> {{if .Href}}<a href="{{.Href}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}{{if .Meta}} <small>{{.Meta}}</small>{{end}}</li>
{{end}}{{end}}
{{define "listfoot"}}</ul>
{{if .Truncated}}<p class="err"><small>The listing was cut: it has more than {{.Truncated}} entries, the most the gateway reads; the rest are not shown.</small></p>{{end}}
{{if .Message}}<p class="err"><small>The listing ended early, after {{.Count}} entries: {{.Message}}</small></p>
{{else if not .Count}}<p>The listing is empty.</p>{{end}}
{{template "foot" .}}{{end}}
{{define "search"}}{{template "head" .}}<h1>{{.Heading}}</h1>
<p>This names a search service. Enter the words to search for.</p>
<form action="{{.Action}}" method="get">
<input type="hidden" name="url" value="{{.URL}}">
<label for="q">Search for</label>
<input type="search" id="q" name="q" required>
<button type="submit">Search</button>
</form>
{{template "foot" .}}{{end}}
{{define "ask"}}{{template "head" .}}<h1>{{.Heading}}</h1>
<p>The server asks you to fill in this form; it is sent to the server when you submit it.</p>
<form action="{{.Action}}" method="post">
{{range .Fields}}{{if eq .Kind "Note"}}<p class="note">{{.Prompt}}</p>
{{else if .Choices}}<label for="{{.ID}}">{{.Prompt}}</label>
<select id="{{.ID}}" name="{{.ID}}">{{$d := .Default}}{{range .Choices}}<option{{if eq . $d}} selected{{end}}>{{.}}</option>{{end}}</select>
{{else if .Lines}}<label for="{{.ID}}">{{.Prompt}}</label>
<textarea id="{{.ID}}" name="{{.ID}}" rows="5">{{.Default}}</textarea>
{{else}}<label for="{{.ID}}">{{.Prompt}}</label>
<input type="{{if .Secret}}password{{else}}text{{end}}" id="{{.ID}}" name="{{.ID}}" value="{{.Default}}"{{if .Secret}} autocomplete="off"{{end}}>
{{end}}{{end}}<button type="submit">Submit</button>
</form>
{{template "foot" .}}{{end}}
{{define "start"}}{{template "head" .}}{{if .Replay}}<h1>Replaying an archive</h1>
<p>This gateway is replaying an archive: it serves what its WARC files hold, {{if .Replay.Fallback}}and fetches from the network only a URL they hold no capture of that you ask for{{else}}and fetches nothing from the network{{end}}.
{{if not .Replay.Listed}}{{else if .Replay.Total}}They hold captures of {{.Replay.Total}} URL{{if ne .Replay.Total 1}}s{{end}}{{if gt .Replay.Total (len .Replay.URLs)}}; the first {{len .Replay.URLs}} are listed{{end}}.{{else}}They hold no capture.{{end}}</p>
{{if .Replay.URLs}}<ul class="l">
{{range .Replay.URLs}}<li>{{if .Href}}<a href="{{.Href}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}</li>
{{end}}</ul>
{{end}}{{end}}<h1>Follow a URL</h1>
<form action="{{.Action}}" method="get">
<label for="url">URL (gopher, ftp, news, nntp, wais, prospero, file, ...)</label>
<input type="url" id="url" name="url" placeholder="gopher://gopher.example.org/1/" required>
<button type="submit">Go</button>
</form>
<p>Or write the URL after the gateway's address: <code>{{.Example}}</code>. Clients with a proxy setting
(<code>gopher_proxy</code>, <code>ftp_proxy</code>, <code>news_proxy</code>, <code>wais_proxy</code>) may name this gateway.</p>
<p><small>Schemes followed: {{.Schemes}}. Web (http, https) links are left to your browser.</small></p>
{{template "foot" .}}{{end}}
{{define "error"}}{{template "head" .}}<h1>{{.Heading}}</h1>
<p class="err">{{.Message}}</p>
{{template "foot" .}}{{end}}
`))

// page is what every template reads.
type page struct {
	Title, Heading, Shown string
	Home                  string
	Action                string
	URL                   string
	Message               string
	Example               string
	Schemes               string
	Fields                []fieldView
	Truncated             int // the listing was cut at this many entries
	Count                 int // the listing's entries shown
	Replay                *replayView
}

// replayView is what the start page says of the archive it replays.
type replayView struct {
	Fallback bool
	Listed   bool // the archive lists what it holds
	Total    int  // the URLs the archive holds
	URLs     []entryView
}

// maxStartURLs bounds the archived URLs the start page lists.
const maxStartURLs = 1000

// holdings is an Archive that lists what it holds (archive.Reader).
type holdings interface {
	Holdings(max int) (urls []string, total int)
}

type entryView struct {
	Type, Label, Name, Meta string
	Href                    any // string (through the gateway) or template.URL (left to the client)
}

type fieldView struct {
	access.Question
	ID string
}

// render writes template name with p and status.
func (x *exchange) render(status int, name string, p *page) {
	p.Home = x.prefix + "/"
	if p.Title == "" {
		p.Title = p.Heading
	}
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, p); err != nil {
		http.Error(x.w, "gateway: rendering failed", http.StatusInternalServerError)
		return
	}
	h := x.w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("Cache-Control", "no-store")
	x.w.WriteHeader(status)
	if x.r.Method != http.MethodHead {
		x.w.Write(b.Bytes())
	}
}

// fail writes an error page.
func (x *exchange) fail(status int, msg string) {
	x.render(status, "error", &page{Heading: strconv.Itoa(status) + " " + http.StatusText(status), Shown: x.shownText, Message: clean(msg)})
}

func (x *exchange) startPage() {
	p := &page{Title: "locator gateway", Action: "/-/get",
		Example: "http://" + x.r.Host + "/gopher://gopher.example.org/1/", Schemes: strings.Join(access.Schemes(), ", ")}
	if a := x.s.cfg.Archive; a != nil {
		p.Title = "locator gateway: replaying an archive"
		p.Replay = &replayView{Fallback: x.s.cfg.ArchiveFallback}
		if h, ok := a.(holdings); ok {
			urls, total := h.Holdings(maxStartURLs)
			p.Replay.Listed, p.Replay.Total = true, total
			for _, u := range urls {
				v := entryView{Name: clean(maskURLs(u))}
				// A capture of a file URL is named, not linked, unless
				// it is served (Config.ArchiveFileURLs).
				hidden := strings.HasPrefix(strings.ToLower(u), "file:") && !x.s.cfg.ArchiveFileURLs
				if l, ok := x.link(u, true).(string); ok && !hidden {
					v.Href = l
				}
				p.Replay.URLs = append(p.Replay.URLs, v)
			}
		}
	}
	x.render(http.StatusOK, "start", p)
}

func (x *exchange) searchForm(u *locator.URL) {
	x.render(http.StatusOK, "search", &page{Heading: "Search " + clean(x.shownText), Shown: x.shownText, Action: x.prefix + "/-/search", URL: x.shown})
}

func (x *exchange) askForm(u *locator.URL, qs []access.Question) {
	p := &page{Heading: "A form from " + clean(u.Hostport()), Shown: x.shownText, Action: x.link(x.shown, true).(string)}
	n := 0
	for _, q := range qs {
		f := fieldView{Question: q}
		f.Prompt = clean(q.Prompt)
		if q.Kind != "Note" {
			n++
			f.ID = "a" + strconv.Itoa(n)
		}
		if q.Secret {
			f.Default = ""
		}
		p.Fields = append(p.Fields, f)
	}
	x.render(http.StatusOK, "ask", p)
}

// listFlush is how many entries of a listing page are written between
// two flushes to the client.
const listFlush = 256

// listing renders a listing, entry by entry as the scheme's client reads
// it from the server, so that a page takes the memory of one entry
// whatever the listing's length: the head of the page, each entry (the
// template "entry"), flushed to the client every listFlush entries, then
// the foot, which says when the listing was cut at MaxEntries or ended
// early. A failure before the first entry is an error page. Every
// entry's link leads back through the gateway, except web, telnet and
// mail links, left to the client.
func (x *exchange) listing(res *access.Resource) {
	u := res.URL
	if u == nil {
		u = x.u
	}
	l := res.Listing
	first, err := l.Next()
	var te *access.TruncatedError
	if err != nil && err != io.EOF && !errors.As(err, &te) {
		x.failErr(err)
		return
	}
	p := &page{Heading: clean(maskURLs(shown(u))), Shown: x.shownText, Home: x.prefix + "/"}
	p.Title = p.Heading
	h := x.w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("Cache-Control", "no-store")
	x.w.WriteHeader(http.StatusOK)
	if x.r.Method == http.MethodHead {
		return
	}
	bw := bufio.NewWriterSize(x.w, 16<<10)
	if pages.ExecuteTemplate(bw, "listhead", p) != nil {
		return
	}
	for e := first; err == nil; e, err = l.Next() {
		if pages.ExecuteTemplate(bw, "entry", x.entryView(e)) != nil {
			return // the client went away: the listing is closed by the caller
		}
		p.Count++
		if p.Count%listFlush == 0 {
			if bw.Flush() != nil {
				return
			}
			x.w.Flush()
		}
	}
	switch {
	case errors.As(err, &te):
		p.Truncated = te.Max
	case err != io.EOF:
		x.s.logNote(x.r, "listing of "+access.Masked(u)+" cut: "+x.hideSecrets(err))
		p.Message = clean(x.hideSecrets(err))
	}
	if pages.ExecuteTemplate(bw, "listfoot", p) == nil {
		bw.Flush()
	}
}

// entryView is how the page shows e.
func (x *exchange) entryView(e access.Entry) entryView {
	v := entryView{Type: e.Type, Label: label(e.Type), Name: clean(e.Name)}
	if v.Name == "" {
		v.Name = clean(maskURLs(e.URL))
	}
	if e.URL != "" && e.Type != access.TypeInfo && e.Type != access.TypeError {
		v.Href = x.link(e.URL, false)
	}
	var meta []string
	if e.Size >= 0 && e.Type != access.TypeDirectory {
		if e.SizeApprox {
			meta = append(meta, "about "+size(e.Size)) // the server's estimate (a Gopher+ view size)
		} else {
			meta = append(meta, size(e.Size))
		}
	}
	if !e.Modified.IsZero() {
		meta = append(meta, e.Modified.UTC().Format(time.DateOnly))
	}
	v.Meta = strings.Join(meta, " · ")
	return v
}

// direct are the schemes whose links are left to the client: the web,
// and sessions and mail the gateway cannot carry.
var direct = map[string]bool{"http": true, "https": true, "telnet": true, "tn3270": true, "mailto": true, "rlogin": true}

// link returns the href of raw: through the gateway in the path form
// (or /-/get?url= when a browser would change the URL as a path: dot
// segments, a backslash, an invalid escape), or raw itself for a scheme
// left to the client (a template.URL), or nil for none. The password is
// never written.
func (x *exchange) link(raw string, self bool) any {
	u, err := locator.Parse(raw)
	if err != nil {
		return nil
	}
	s := shown(u)
	if i := strings.IndexByte(s, '#'); i >= 0 && u.HasFragment() {
		p := u.Parts()
		p.HasFragment, p.Fragment = false, ""
		if v, err := p.URL(); err == nil {
			s = shown(v)
		}
	}
	if !self {
		if _, ok := access.Lookup(u.Scheme()); direct[u.Scheme()] || !ok {
			if direct[u.Scheme()] {
				return template.URL(s)
			}
			return nil
		}
	}
	if pathSafe(s) {
		return x.prefix + "/" + s
	}
	return x.prefix + "/-/get?url=" + url.QueryEscape(s)
}

// pathSafe says whether a browser sends s, written after the gateway's
// "/", unchanged in meaning: no dot segment (which it would remove,
// "%2e" included), no backslash (which it reads as "/"), no "#", no
// invalid escape (which Go's server refuses), no space or control.
func pathSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c <= 0x20 || c >= 0x7f || c == '\\' || c == '#':
			return false
		case c == '%':
			if i+2 >= len(s) || !locator.IsHex(s[i+1]) || !locator.IsHex(s[i+2]) {
				return false
			}
		}
	}
	path := s
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	for _, seg := range strings.Split(path, "/") {
		switch strings.ToLower(strings.ReplaceAll(strings.ToLower(seg), "%2e", ".")) {
		case ".", "..":
			return false
		}
	}
	return true
}

func label(t string) string {
	switch t {
	case access.TypeDirectory:
		return "dir"
	case access.TypeSession:
		return "telnet"
	case "":
		return "?"
	}
	return t
}

func size(n int64) string {
	switch {
	case n < 1024:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + " KiB"
	case n < 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
}

// clean makes text from a server fit for a page: a character that is
// not printable by package internal/printable's rule (a C0 control, DEL,
// a C1 control, an octet that is not UTF-8) becomes U+FFFD. It differs
// from the rule in two ways, both for HTML. TAB is kept: on a page it is
// white space and nothing more (a Gopher information line aligns its
// columns with tabs, shown pre-wrap), while in a terminal or a log line
// it moves the cursor. And each such character becomes one character,
// U+FFFD, the mark a browser itself shows for an octet it cannot read,
// rather than an escape such as "\x1b": the page keeps its text's
// columns (as printable.Columns does with '?'), and html/template does
// the escaping HTML needs.
func clean(s string) string {
	if cleanForPage(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != '\t' && printable.Control(r, n) {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// cleanForPage says whether clean leaves s as it is.
func cleanForPage(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f || c == '\t' {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if printable.Control(r, n) {
			return false
		}
		i += n
	}
	return true
}
