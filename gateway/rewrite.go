package gateway

// Replay that looks like the original: a page replayed from the archive
// in the path form has its links rewritten, server side as pywb does, to
// lead back through the gateway, so that the browser asks the gateway,
// which answers from the archive, for the page's style sheets, images,
// scripts, frames and fonts, and never the live web. What the rewriting
// misses (a root-relative URL written by no attribute the gateway reads)
// arrives as "/license.html" with the page's Referer, and is sent on to
// the URL it names in the page's site (replayReferred).
//
// Why this is safe. A replayed page in the path form is served with
// "sandbox allow-same-origin" (replayCSP): it has the gateway's origin,
// so that its own requests are same-origin and pass crossSite, but it
// runs no script (sandbox without allow-scripts, and script-src 'none'),
// sends no form (form-action 'none'), opens no window, and loads nothing
// but the gateway's own URLs and data: (default-src). Without
// --warc-fallback a request the gateway answers from an archive makes no
// connection at all: what is not archived is a 404. With it, a URL the
// archive does not hold is fetched from the network (or, http, passed to
// the browser) only for a person: a request the browser made for a page
// on its own (an image, a style sheet, a frame, a refresh) is refused
// (pageMade), as a page of another site is (crossSite), which stays as
// it is. The proxy form is not checked, as crossSite does not check it:
// its clients are configured to use the gateway for every request.

import (
	"bufio"
	"bytes"
	"html"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	xhtml "golang.org/x/net/html"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/csslinks"
	"github.com/rfc1738/locator/internal/printable"
)

// maxHTMLToken bounds the octets of one HTML token the rewriting holds;
// a page with a longer one is passed on as it is from there (its links
// still lead to the gateway or nowhere: replayCSP).
const maxHTMLToken = 4 << 20

// rewriteKind says how a replayed object of media type mt is rewritten:
// "html", "css" or "" (served as it is).
func rewriteKind(mt string) string {
	t, _, err := mime.ParseMediaType(mt)
	if err != nil {
		return ""
	}
	switch t {
	case "text/html", "application/xhtml+xml":
		return "html"
	case "text/css":
		return "css"
	}
	return ""
}

// replayRewrite serves res, a replayed HTML page or style sheet in the
// path or query form, with its links rewritten (replayHref), and
// reports true; false when res is neither, to be served as it is. Its
// length changes, so none is sent.
func (x *exchange) replayRewrite(res *access.Resource) bool {
	kind := rewriteKind(res.MediaType)
	if kind == "" || x.mode == proxyForm {
		return false
	}
	base := res.URL
	if base == nil {
		base = x.u
	}
	br := bufio.NewReaderSize(res.Body, 32<<10)
	if _, err := br.Peek(1); err != nil && err != io.EOF {
		x.w.Header().Del("Content-Security-Policy")
		x.failErr(err)
		return true
	}
	h := x.w.Header()
	h.Del("Content-Length")
	x.w.WriteHeader(http.StatusOK)
	if x.r.Method == http.MethodHead {
		return true
	}
	bw := bufio.NewWriterSize(x.w, 32<<10)
	var err error
	if kind == "css" {
		err = csslinks.Rewrite(bw, br, x.cssRewriter(base))
	} else {
		err = x.rewriteHTML(bw, br, base)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		x.s.logNote(x.r, "rewriting of "+access.Masked(x.u)+" cut: "+x.hideSecrets(err))
		panic(http.ErrAbortHandler)
	}
	return true
}

// replayHref is where ref, a reference of a replayed page whose base URL
// is base, leads: the URL it names through the gateway (its fragment
// kept), or ref as it is when it names no URL the gateway serves (a
// fragment of the page, data:, mailto:, a reference that does not
// resolve) and ok false.
func (x *exchange) replayHref(base *locator.URL, ref string) (string, bool) {
	// As a browser reads it (URL Standard §4.4, basic URL parser): no
	// leading or trailing C0 control or space, no tab or newline
	// anywhere.
	ref = strings.TrimFunc(ref, func(r rune) bool { return r <= ' ' })
	ref = tabNewline.Replace(ref)
	if ref == "" || ref[0] == '#' {
		return ref, false
	}
	u, err := locator.Resolve(base, ref, locator.RFC3986)
	if err != nil {
		// A reference the browser would take out of the gateway (a
		// scheme, or "//" and its backslash spellings) is sent to the
		// gateway whole, which says what is wrong with it; any other is
		// read by the browser against the page's path, in the gateway.
		if hasScheme(ref) && !leftAlone(ref) || len(ref) > 1 && (ref[0] == '/' || ref[0] == '\\') && (ref[1] == '/' || ref[1] == '\\') {
			return x.prefix + "/-/get?url=" + url.QueryEscape(ref), true
		}
		return ref, false
	}
	if leftAlone(u.Scheme() + ":") {
		return ref, false
	}
	frag := ""
	if u.HasFragment() {
		frag = "#" + u.Fragment()
	}
	l, ok := x.link(u.String(), true).(string)
	if !ok {
		return ref, false
	}
	return l + frag, true
}

const asciiSpace = " \t\n\f\r"

var tabNewline = strings.NewReplacer("\t", "", "\n", "", "\r", "")

// leftAlone says whether ref's scheme is one a replayed page's link
// keeps: data and blob (the page's own octets), mail and sessions the
// gateway does not carry, and scripts and about:, which load nothing.
func leftAlone(ref string) bool {
	scheme, _, _ := strings.Cut(ref, ":")
	switch strings.ToLower(scheme) {
	case "data", "mailto", "javascript", "about", "blob", "telnet", "tn3270", "rlogin":
		return true
	}
	return false
}

// cssRewriter rewrites a style sheet's links (package csslinks) against
// base.
func (x *exchange) cssRewriter(base *locator.URL) func(csslinks.Link) (string, bool) {
	return func(l csslinks.Link) (string, bool) {
		return x.replayHref(base, l.Ref)
	}
}

// rewriteCSS returns css, a style sheet, with its links rewritten.
func (x *exchange) rewriteCSS(css string, base *locator.URL) string {
	var b bytes.Buffer
	if csslinks.Rewrite(&b, strings.NewReader(css), x.cssRewriter(base)) != nil {
		return css
	}
	return b.String()
}

// urlAttrs lists, by element, the attributes whose value is one URL
// (HTML 5 §4.6 links, §4.8 embedded content, §4.10 forms, and the old
// presentational background, SVG's href and xlink:href).
var urlAttrs = map[string][]string{
	"a": {"href"}, "area": {"href"}, "link": {"href"}, "base": {"href"},
	"img": {"src", "longdesc"}, "script": {"src"}, "iframe": {"src"}, "frame": {"src", "longdesc"},
	"form": {"action"}, "button": {"formaction"}, "input": {"src", "formaction"},
	"object": {"data", "codebase"}, "embed": {"src"}, "source": {"src"},
	"video": {"src", "poster"}, "audio": {"src"}, "track": {"src"},
	"body": {"background"}, "table": {"background"}, "tr": {"background"}, "td": {"background"}, "th": {"background"},
	"blockquote": {"cite"}, "q": {"cite"}, "del": {"cite"}, "ins": {"cite"},
	"image": {"href", "xlink:href"}, "use": {"href", "xlink:href"},
}

// srcsetAttrs are the attributes whose value is a list of image
// candidates (HTML 5 §4.8.4.2).
var srcsetAttrs = map[string]string{"img": "srcset", "source": "srcset", "link": "imagesrcset"}

// rewriteHTML copies the HTML page r to w with every URL it names
// rewritten (replayHref) against base, or against its first <base
// href>: the URL attributes of urlAttrs and srcsetAttrs, a meta
// refresh's URL, the url()s and @imports of style attributes and
// <style> elements (package csslinks). An integrity attribute is
// dropped, for a rewritten style sheet no longer has the digest it names
// (pywb does the same). A tag with nothing to rewrite, and every other
// token, is copied as it is.
func (x *exchange) rewriteHTML(w *bufio.Writer, r io.Reader, base *locator.URL) error {
	z := xhtml.NewTokenizer(r)
	z.SetMaxBuf(maxHTMLToken)
	docBase := base
	seenBase := false
	inStyle := false
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			err := z.Err()
			if err == io.EOF {
				return nil
			}
			if err == xhtml.ErrBufferExceeded {
				// One token too long to hold: the rest as it is.
				w.Write(z.Raw())
				w.Write(z.Buffered())
				_, err = io.Copy(w, r)
			}
			return err
		}
		raw := z.Raw()
		if tt == xhtml.TextToken && inStyle {
			inStyle = false
			if _, err := w.WriteString(x.rewriteCSS(string(raw), docBase)); err != nil {
				return err
			}
			continue
		}
		inStyle = false
		if tt != xhtml.StartTagToken && tt != xhtml.SelfClosingTagToken {
			if _, err := w.Write(raw); err != nil {
				return err
			}
			continue
		}
		rawCopy := append([]byte(nil), raw...) // TagAttr reuses the buffer
		name, more := z.TagName()
		el := string(name)
		inStyle = el == "style" && tt == xhtml.StartTagToken
		var attrs []xhtml.Attribute
		for more {
			var k, v []byte
			k, v, more = z.TagAttr()
			attrs = append(attrs, xhtml.Attribute{Key: string(k), Val: string(v)})
		}
		if el == "base" && !seenBase {
			for _, a := range attrs {
				if a.Key == "href" {
					seenBase = true
					if b, err := locator.Resolve(base, strings.Trim(a.Val, asciiSpace), locator.RFC3986); err == nil {
						docBase = b
					}
					break
				}
			}
		}
		if !x.rewriteAttrs(el, attrs, docBase) {
			if _, err := w.Write(rawCopy); err != nil {
				return err
			}
			continue
		}
		if _, err := w.WriteString(tagString(el, attrs, tt == xhtml.SelfClosingTagToken)); err != nil {
			return err
		}
	}
}

// rewriteAttrs rewrites the attributes of an element el in place and
// says whether any changed.
func (x *exchange) rewriteAttrs(el string, attrs []xhtml.Attribute, base *locator.URL) bool {
	changed := false
	refresh := false
	for _, a := range attrs {
		if a.Key == "http-equiv" && strings.EqualFold(strings.Trim(a.Val, asciiSpace), "refresh") {
			refresh = true
		}
	}
	for i := range attrs {
		a := &attrs[i]
		v := a.Val
		switch {
		case contains(urlAttrs[el], a.Key):
			v, _ = x.replayHref(base, a.Val)
		case srcsetAttrs[el] == a.Key:
			v = x.rewriteSrcset(a.Val, base)
		case a.Key == "style":
			v = x.rewriteCSS(a.Val, base)
		case el == "meta" && a.Key == "content" && refresh:
			v = x.rewriteRefresh(a.Val, base)
		case a.Key == "integrity" && (el == "link" || el == "script"):
			a.Key = "data-integrity" // kept, but no longer checked
			changed = true
		}
		if v != a.Val {
			a.Val = v
			changed = true
		}
	}
	return changed
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tagString writes a start tag: its name, each attribute's value in
// double quotes, escaped (html.EscapeString).
func tagString(el string, attrs []xhtml.Attribute, selfClosing bool) string {
	var b strings.Builder
	b.WriteByte('<')
	b.WriteString(el)
	for _, a := range attrs {
		b.WriteByte(' ')
		b.WriteString(a.Key)
		b.WriteString(`="`)
		b.WriteString(html.EscapeString(a.Val))
		b.WriteByte('"')
	}
	if selfClosing {
		b.WriteString("/")
	}
	b.WriteByte('>')
	return b.String()
}

// rewriteSrcset rewrites the URL of each image candidate of a srcset
// (HTML 5 §4.8.4.2.2: a URL, white space, descriptors, a comma),
// keeping the descriptors.
func (x *exchange) rewriteSrcset(v string, base *locator.URL) string {
	var out []string
	for _, cand := range splitSrcset(v) {
		f := strings.Fields(cand)
		if len(f) == 0 {
			continue
		}
		f[0], _ = x.replayHref(base, f[0])
		out = append(out, strings.Join(f, " "))
	}
	return strings.Join(out, ", ")
}

// splitSrcset splits a srcset at the commas between candidates: a URL
// may hold commas of its own (a data: URL), which are followed by no
// white space before the URL ends.
func splitSrcset(v string) []string {
	var out []string
	for {
		v = strings.TrimLeft(v, asciiSpace+",")
		if v == "" {
			return out
		}
		end := strings.IndexAny(v, asciiSpace)
		if end < 0 {
			end = len(v)
		}
		u := v[:end]
		if strings.HasSuffix(u, ",") { // a candidate with no descriptors
			out = append(out, strings.TrimRight(u, ","))
			v = v[end:]
			continue
		}
		rest := v[end:]
		c := strings.IndexByte(rest, ',')
		if c < 0 {
			return append(out, u+rest)
		}
		out = append(out, u+rest[:c])
		v = rest[c+1:]
	}
}

// rewriteRefresh rewrites the URL of a meta refresh's content ("5;
// url=next.html", HTML 5 §4.2.5.3 shared declarative refresh steps).
func (x *exchange) rewriteRefresh(v string, base *locator.URL) string {
	i := 0
	for i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i] == '.' || strings.IndexByte(asciiSpace, v[i]) >= 0) {
		i++
	}
	if i < len(v) && (v[i] == ';' || v[i] == ',') {
		i++
	}
	for i < len(v) && strings.IndexByte(asciiSpace, v[i]) >= 0 {
		i++
	}
	rest := v[i:]
	if len(rest) >= 3 && strings.EqualFold(rest[:3], "url") {
		r := strings.TrimLeft(rest[3:], asciiSpace)
		if strings.HasPrefix(r, "=") {
			i += len(rest) - len(r) + 1
			for i < len(v) && strings.IndexByte(asciiSpace, v[i]) >= 0 {
				i++
			}
		}
	}
	ref := v[i:]
	quote := ""
	if ref != "" && (ref[0] == '"' || ref[0] == '\'') {
		quote = ref[:1]
		ref = ref[1:]
		if j := strings.Index(ref, quote); j >= 0 {
			ref = ref[:j]
		}
	}
	if ref == "" {
		return v
	}
	href, ok := x.replayHref(base, ref)
	if !ok {
		return v
	}
	return v[:i] + quote + href + quote
}

// replayReferred answers a request for a path that names no URL
// ("/license.html": a root-relative reference the rewriting did not
// reach) made by a replayed page of the path or query form, which its
// Referer names (replayed pages are served with Referrer-Policy
// same-origin; the gateway's own pages send none): a redirection (307)
// to the URL the path names in that page's site, through the gateway,
// where every rule is applied to it again. It reports false, doing
// nothing, when the gateway serves no archive or the Referer names no
// such page.
func (x *exchange) replayReferred() bool {
	if x.s.cfg.Archive == nil {
		return false
	}
	ref := x.r.Header.Get("Referer")
	if ref == "" || !sameHost(ref, x.r.Host) {
		return false
	}
	_, rest, ok := strings.Cut(ref, "://")
	if !ok {
		return false
	}
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return false
	}
	path := rest[i+1:]
	var page string
	switch {
	case hasScheme(path):
		page = path
	case strings.HasPrefix(path, "-/get?"):
		q, err := url.ParseQuery(path[len("-/get?"):])
		if err != nil {
			return false
		}
		page = q.Get("url")
	default:
		return false
	}
	pu, err := locator.Parse(page)
	if err != nil {
		return false
	}
	href, ok := x.replayHref(pu, x.r.RequestURI)
	if !ok || !strings.HasPrefix(href, x.prefix+"/") || href == x.r.RequestURI {
		return false
	}
	// Not http.Redirect, which would clean the path's "//" away.
	x.w.Header().Set("Location", href)
	x.w.WriteHeader(http.StatusTemporaryRedirect)
	return true
}

// pageMade says why r, a request for a URL the archive does not hold,
// was made by a page on its own rather than by a person, or "": then,
// with --warc-fallback, it is fetched from the network. The browser
// says so in Fetch Metadata: a request for anything but a document
// (Sec-Fetch-Dest: image, style, script, font, iframe ...), or a
// document without Sec-Fetch-User "?1" (a refresh, a redirection
// rather than a click), is the page's. A browser without Fetch Metadata
// is judged by the Referer: a replayed page sends one to the gateway,
// the gateway's own pages none (Referrer-Policy no-referrer).
func pageMade(r *http.Request) string {
	site := strings.ToLower(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site")))
	dest := strings.ToLower(strings.TrimSpace(r.Header.Get("Sec-Fetch-Dest")))
	switch {
	case site == "":
		if ref := r.Header.Get("Referer"); ref != "" {
			return "Referer: " + printableURL(ref)
		}
		return ""
	case site == "none":
		return ""
	case dest != "document" && dest != "":
		return "Sec-Fetch-Dest: " + printableURL(dest)
	case r.Header.Get("Sec-Fetch-User") != "?1":
		return "Sec-Fetch-Site: " + printableURL(site) + " without Sec-Fetch-User"
	}
	return ""
}

// printableURL is v as a message shows it: passwords masked, printable.
func printableURL(v string) string { return printable.String(maskURLs(v)) }
