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

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/htmlpage"
)

// The pages: the shared parts (htmlpage.Templates: the head and foot,
// a listing's, a text/gemini document's) and the gateway's own forms.
var pages = template.Must(template.Must(htmlpage.Templates.Clone()).Parse(`{{define "search"}}{{template "head" .}}<h1>{{.Heading}}</h1>
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
	Note                  string // the header's line where Home is "" (never on the gateway's pages)
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

type entryView = htmlpage.Entry

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

// entryView is how the page shows e: every link through the gateway
// (link), except the schemes left to the client.
func (x *exchange) entryView(e access.Entry) entryView {
	return htmlpage.EntryOf(e, func(raw string) any { return x.link(raw, false) }, maskURLs)
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
	if pathSafe(s) && x.memento != "" {
		return x.prefix + x.memento + s // the capture of the same time
	}
	if pathSafe(s) {
		return x.prefix + "/" + s
	}
	return x.prefix + "/-/get?url=" + url.QueryEscape(s)
}

// pathSafe says whether a browser sends s, written after the gateway's
// "/", unchanged in meaning (htmlpage.PathSafe).
func pathSafe(s string) bool { return htmlpage.PathSafe(s) }

// clean makes text from a server fit for a page (htmlpage.Clean).
func clean(s string) string { return htmlpage.Clean(s) }
