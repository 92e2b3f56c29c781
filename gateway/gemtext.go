package gateway

import (
	"bufio"
	"html/template"
	"mime"
	"net/http"
	"strings"

	"github.com/rfc1738/locator/access"
)

// The page of a text/gemini document (Gemini §5): each line by its type,
// as the line templates below write it; the lists and the preformatted
// blocks are opened and closed around their lines by gemtext.
var _ = template.Must(pages.Parse(`{{define "gmihead"}}{{template "head" .}}<div class="gmi">
{{end}}
{{define "gmi"}}{{if eq .Kind "text"}}<p>{{.Text}}</p>
{{else if eq .Kind "link"}}<p class="lk">{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{if .Ref}} <small>{{.Ref}}</small>{{end}}{{end}}</p>
{{else if eq .Kind "h1"}}<h1>{{.Text}}</h1>
{{else if eq .Kind "h2"}}<h2>{{.Text}}</h2>
{{else if eq .Kind "h3"}}<h3>{{.Text}}</h3>
{{else if eq .Kind "item"}}<li>{{.Text}}</li>
{{else if eq .Kind "quote"}}<blockquote>{{.Text}}</blockquote>
{{else if eq .Kind "ul"}}<ul>
{{else if eq .Kind "/ul"}}</ul>
{{else if eq .Kind "pre"}}<pre{{if .Text}} title="{{.Text}}" aria-label="{{.Text}}"{{end}}>{{else if eq .Kind "/pre"}}</pre>
{{else if eq .Kind "preline"}}{{.Text}}
{{end}}{{end}}
{{define "gmifoot"}}</div>
{{if .Message}}<p class="err"><small>The document ended early: {{.Message}}</small></p>{{end}}
{{template "foot" .}}{{end}}
`))

// gmiLine is what the template "gmi" reads: one line of the document, or
// the opening or closing of a list or a preformatted block.
type gmiLine struct {
	Kind, Text, Ref string
	Href            any // as link returns it
}

// isGemtext says whether the media type mt is a line-oriented format
// whose package offers its lines (access.Lines: text/gemini's, Gemini
// §5) in a charset the page can show as it is (UTF-8, the default, or
// US-ASCII, Gemini §5.2): another charset is served as the object it is.
func isGemtext(mt string) bool {
	t, params, err := mime.ParseMediaType(mt)
	if err != nil || access.Lines(t) == nil {
		return false
	}
	switch strings.ToLower(params["charset"]) {
	case "", "utf-8", "us-ascii":
		return true
	}
	return false
}

// gemtext renders the text/gemini document res as an HTML page, line by
// line as it arrives (access.Lines, text/gemini's from the gemini
// package, whose lines are bounded in length),
// so that a page takes the memory of one line whatever the document's
// length: headings, list items, quotes and text as HTML's, preformatted
// blocks as <pre> (their alt text its title), and each link through the
// gateway (link), except the schemes left to the client. Every text is
// written escaped by html/template. A failure before the first line is
// an error page; after it, the page says where the document ended.
func (x *exchange) gemtext(res *access.Resource) {
	u := res.URL
	if u == nil {
		u = x.u
	}
	p := &page{Heading: clean(maskURLs(shown(u))), Shown: x.shownText, Home: x.prefix + "/"}
	p.Title = p.Heading
	var bw *bufio.Writer
	started := false
	start := func() error {
		started = true
		h := x.w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'")
		h.Set("Cache-Control", "no-store")
		x.w.WriteHeader(http.StatusOK)
		bw = bufio.NewWriterSize(x.w, 16<<10)
		return pages.ExecuteTemplate(bw, "gmihead", p)
	}
	if x.r.Method == http.MethodHead {
		start()
		return
	}
	inList, inPre := false, false
	var werr error // the client's: it went away
	write := func(v gmiLine) error {
		werr = pages.ExecuteTemplate(bw, "gmi", v)
		return werr
	}
	t, _, _ := mime.ParseMediaType(res.MediaType)
	err := access.Lines(t)(res.Body, u, func(l access.Line) error {
		if !started {
			if werr = start(); werr != nil {
				return werr
			}
		}
		if inList && l.Kind != access.ListLine {
			inList = false
			if err := write(gmiLine{Kind: "/ul"}); err != nil {
				return err
			}
		}
		v := gmiLine{Text: clean(l.Text)}
		switch l.Kind {
		case access.LinkLine:
			v.Kind = "link"
			if l.URL != nil {
				v.Href = x.link(l.URL.String(), false)
			}
			if v.Text == "" {
				v.Text = clean(l.Ref)
			} else if v.Href == nil {
				v.Ref = clean(l.Ref)
			}
		case access.PreToggleLine:
			v.Kind = "pre"
			if inPre {
				v = gmiLine{Kind: "/pre"}
			}
			inPre = !inPre
		case access.PreformattedLine:
			v.Kind = "preline"
		case access.HeadingLine:
			v.Kind = [...]string{"h1", "h1", "h2", "h3"}[min(max(l.Level, 1), 3)]
		case access.ListLine:
			if !inList {
				inList = true
				if err := write(gmiLine{Kind: "ul"}); err != nil {
					return err
				}
			}
			v.Kind = "item"
		case access.QuoteLine:
			v.Kind = "quote"
		default:
			v.Kind = "text"
		}
		return write(v)
	})
	switch {
	case werr != nil:
		return // the client went away: the object is closed by the caller
	case !started && err != nil:
		x.failErr(err)
		return
	case !started:
		if start() != nil {
			return
		}
	}
	if err != nil {
		x.s.logNote(x.r, "document "+access.Masked(u)+" cut: "+x.hideSecrets(err))
		p.Message = clean(x.hideSecrets(err))
	}
	switch {
	case inList:
		write(gmiLine{Kind: "/ul"})
	case inPre:
		write(gmiLine{Kind: "/pre"})
	}
	if pages.ExecuteTemplate(bw, "gmifoot", p) == nil {
		bw.Flush()
	}
}
