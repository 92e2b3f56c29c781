package gateway

import (
	"bufio"
	"net/http"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/htmlpage"
)

// isGemtext says whether the media type mt is text/gemini in a charset
// the page can show as it is (htmlpage.IsGemtext).
func isGemtext(mt string) bool { return htmlpage.IsGemtext(mt) }

// gemtext renders the text/gemini document res as an HTML page, line by
// line as it arrives (htmlpage.Gemtext), so that a page takes the
// memory of one line whatever the document's length, each link through
// the gateway (link), except the schemes left to the client. Every text
// is written escaped by html/template. A failure before the first line
// is an error page; after it, the page says where the document ended.
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
	var werr error // the client's: it went away
	err := htmlpage.Gemtext(res.Body, u, res.MediaType, func(raw string) any { return x.link(raw, false) }, func(v htmlpage.GmiLine) error {
		if !started {
			if werr = start(); werr != nil {
				return werr
			}
		}
		werr = pages.ExecuteTemplate(bw, "gmi", v)
		return werr
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
	if pages.ExecuteTemplate(bw, "gmifoot", p) == nil {
		bw.Flush()
	}
}
