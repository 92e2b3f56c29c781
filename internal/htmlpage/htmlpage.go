// Package htmlpage draws what a scheme client reads (an access.Listing,
// a text/gemini document) as an HTML page: plain HTML, no script, one
// small style sheet inline, a viewport for phones, a list Lynx and w3m
// read as well as a browser. The gateway serves these pages; the
// archive writes them beside the captures they are drawn from, for
// players that read only HTML (docs/archive.md). Every link is what the
// caller's link function makes of the URL, so that each can lead where
// its reader finds the target.
package htmlpage

import (
	"fmt"
	"html/template"
	"io"
	"mime"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/printable"
)

// Templates are the shared parts of a page: "head" and "foot";
// "listhead", "entry" (an Entry) and "listfoot" of a listing; "gmihead",
// "gmi" (a GmiLine) and "gmifoot" of a text/gemini document. What they
// read of the value given them: Title, Heading, Shown, Home (the
// gateway's start page, "" on a page of the archive), Note (a line of
// the header when Home is ""), and of a listing's foot Truncated (the
// entries the listing was cut at), Message (why it ended early) and
// Count (the entries shown). A caller adds its own templates to a Clone.
var Templates = template.Must(template.New("").Parse(`{{define "head"}}<!DOCTYPE html>
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
<header>{{if .Home}}<a href="{{.Home}}">locator gateway</a>{{else}}{{.Note}}{{end}}{{if .Shown}} · <span>{{.Shown}}</span>{{end}}</header>
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
{{if .Truncated}}<p class="err"><small>The listing was cut: it has more than {{.Truncated}} entries, the most that are read; the rest are not shown.</small></p>{{end}}
{{if .Message}}<p class="err"><small>The listing ended early, after {{.Count}} entries: {{.Message}}</small></p>
{{else if not .Count}}<p>The listing is empty.</p>{{end}}
{{template "foot" .}}{{end}}
{{define "gmihead"}}{{template "head" .}}<div class="gmi">
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

// An Entry is how the template "entry" shows one entry of a listing.
type Entry struct {
	Type, Label, Name, Meta string
	Href                    any // as the caller's link function returns it: a string, a template.URL, or nil for none
}

// EntryOf is how a page shows e, its URL's link made by link (nil: the
// name alone), and its URL shown as mask writes it (its password
// masked) where it has no name. An information line or an error item
// has no link.
func EntryOf(e access.Entry, link func(raw string) any, mask func(raw string) string) Entry {
	v := Entry{Type: e.Type, Label: Label(e.Type), Name: Clean(e.Name)}
	if v.Name == "" {
		v.Name = Clean(mask(e.URL))
	}
	if e.URL != "" && e.Type != access.TypeInfo && e.Type != access.TypeError {
		v.Href = link(e.URL)
	}
	var meta []string
	if e.Size >= 0 && e.Type != access.TypeDirectory {
		if e.SizeApprox {
			meta = append(meta, "about "+Size(e.Size)) // the server's estimate (a Gopher+ view size)
		} else {
			meta = append(meta, Size(e.Size))
		}
	}
	if !e.Modified.IsZero() {
		meta = append(meta, e.Modified.UTC().Format(time.DateOnly))
	}
	v.Meta = strings.Join(meta, " · ")
	return v
}

// A GmiLine is what the template "gmi" reads: one line of a text/gemini
// document, or the opening or closing of a list or a preformatted block.
type GmiLine struct {
	Kind, Text, Ref string
	Href            any // as the caller's link function returns it
}

// IsGemtext says whether the media type mt is a line-oriented format
// whose package offers its lines (access.Lines: text/gemini's, Gemini
// §5) in a charset a page can show as it is (UTF-8, the default, or
// US-ASCII, Gemini §5.2): another charset is served as the object it is.
func IsGemtext(mt string) bool {
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

// Gemtext reads the document r of u, of media type mt (IsGemtext), line
// by line (access.Lines: text/gemini's from the gemini package, whose
// lines are bounded in length) and hands emit what
// the template "gmi" draws of each (Gemini §5.4): headings, list items,
// quotes and text as HTML's, preformatted blocks as <pre> (their alt
// text its title), each link's href made by link; the lists and
// preformatted blocks are opened and closed around their lines, and one
// left open is closed when the document ends, however it ends. It
// returns the first error of emit, or else of reading r.
func Gemtext(r io.Reader, u *locator.URL, mt string, link func(raw string) any, emit func(GmiLine) error) error {
	inList, inPre := false, false
	var werr error
	write := func(v GmiLine) error {
		werr = emit(v)
		return werr
	}
	t, _, _ := mime.ParseMediaType(mt)
	lines := access.Lines(t)
	if lines == nil {
		return fmt.Errorf("htmlpage: no lines for media type %q", mt)
	}
	err := lines(r, u, func(l access.Line) error {
		if inList && l.Kind != access.ListLine {
			inList = false
			if err := write(GmiLine{Kind: "/ul"}); err != nil {
				return err
			}
		}
		v := GmiLine{Text: Clean(l.Text)}
		switch l.Kind {
		case access.LinkLine:
			v.Kind = "link"
			if l.URL != nil {
				v.Href = link(l.URL.String())
			}
			if v.Text == "" {
				v.Text = Clean(l.Ref)
			} else if v.Href == nil {
				v.Ref = Clean(l.Ref)
			}
		case access.PreToggleLine:
			v.Kind = "pre"
			if inPre {
				v = GmiLine{Kind: "/pre"}
			}
			inPre = !inPre
		case access.PreformattedLine:
			v.Kind = "preline"
		case access.HeadingLine:
			v.Kind = [...]string{"h1", "h1", "h2", "h3"}[min(max(l.Level, 1), 3)]
		case access.ListLine:
			if !inList {
				inList = true
				if err := write(GmiLine{Kind: "ul"}); err != nil {
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
	if werr != nil {
		return werr
	}
	switch {
	case inList:
		werr = emit(GmiLine{Kind: "/ul"})
	case inPre:
		werr = emit(GmiLine{Kind: "/pre"})
	}
	if werr != nil {
		return werr
	}
	return err
}

// PathSafe says whether a browser reads s, written as a path after a
// "/", unchanged in meaning: no dot segment (which it would remove,
// "%2e" included), no backslash (which it reads as "/"), no "#", no
// invalid escape (which Go's server refuses), no space or control.
func PathSafe(s string) bool {
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

// Label is the name a page gives an entry's type.
func Label(t string) string {
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

// Size is n octets for a person: "512 B", "2.0 KiB", "3.5 MiB".
func Size(n int64) string {
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

// Clean makes text from a server fit for a page: a character that is
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
func Clean(s string) string {
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

// cleanForPage says whether Clean leaves s as it is.
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
