// Package htmllinks reads the links out of an HTML document: the
// attributes whose value is a URL (HTML 5 §4.6 "links", §4.8 embedded
// content, §4.10 forms), each resolved against the document's base URL as
// RFC 3986 §5 says, and where each stood (the element, the attribute, the
// line), and the URLs of its style sheets, <style> elements and style
// attributes (package csslinks: url(), @import).
//
// It reads the document with golang.org/x/net/html's tokenizer, which
// never fails on malformed markup: what is not a tag is text, and text
// holds no links here (package text finds URLs written in running text).
package htmllinks

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"golang.org/x/net/html"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/csslinks"
)

// A Link is one URL-valued attribute of the document.
type Link struct {
	// Ref is the attribute's value as the document gives it, its
	// character references decoded and its leading and trailing ASCII
	// white space removed (HTML 5 §2.5.1: "valid URL potentially
	// surrounded by spaces"); for srcset, one candidate's URL.
	Ref string
	// URL is Ref resolved against the document's base URL; nil when
	// there is no base and Ref is a partial form, or when Ref cannot be
	// read as a URL (Err says why).
	URL *locator.URL
	// Err is why URL is nil; nil for a partial form with no base.
	Err error
	// Element and Attr name where the link stands, in lower case ("a",
	// "href").
	Element, Attr string
	// Offset is the octet of the document where the attribute's value
	// begins (the tag's first octet when it cannot be told); Line and
	// Column (1-based, Column counted in octets) are its place.
	Offset       int64
	Line, Column int
}

// Limits on what a document may hold before it is given up: MaxLinks
// links are kept; the rest are counted in ErrTooManyLinks.
const MaxLinks = 1 << 16

// ErrTooManyLinks is returned, with the first MaxLinks links, by a
// document that holds more.
var ErrTooManyLinks = errors.New("htmllinks: more than MaxLinks links in the document")

// attrs lists, by element, the attributes whose value is a URL to follow
// or check: HTML 5's hyperlinks (a, area: href; §4.6.1), external
// resources (link href, script src, img src and srcset, iframe and frame
// src, object data, embed src, source src and srcset, video poster and
// src, audio and track src, input src of an image button) and form
// submission (form action, button formaction). cite (q, blockquote, del,
// ins) is a URL too, but names a source, seldom a page one fetches.
var attrs = map[string][]string{
	"a":      {"href"},
	"area":   {"href"},
	"link":   {"href"},
	"img":    {"src", "srcset"},
	"script": {"src"},
	"iframe": {"src"},
	"frame":  {"src"},
	"form":   {"action"},
	"button": {"formaction"},
	"object": {"data"},
	"embed":  {"src"},
	"source": {"src", "srcset"},
	"video":  {"src", "poster"},
	"audio":  {"src"},
	"track":  {"src"},
	"input":  {"src"},
}

// Links reads the links of the HTML document r, in document order, and
// resolves each against base (the URL the document was retrieved from;
// nil when unknown) under RFC 3986's rules. The first <base href> of the
// document, itself resolved against base, is the base of every link of
// the document, those before it too (HTML 5 §4.2.3: the document base
// URL is that of "the first base element ... that has an href
// attribute"). A reference that is only a fragment ("#top") names a place
// in the document itself and is not returned; neither is an empty value.
//
// Links fails only on a read error of r, returning the links read
// before it, or with ErrTooManyLinks.
func Links(r io.Reader, base *locator.URL) ([]Link, error) {
	z := html.NewTokenizer(r)
	var (
		links   []Link
		docBase *locator.URL
		hasBase bool
		baseErr error
		inStyle bool // the token follows a <style> start tag
		off     int64
		line    = 1
		lineOff int64 // offset of the current line's first octet
		err     error
	)
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if e := z.Err(); e != io.EOF {
				err = e
			}
			break
		}
		raw := z.Raw()
		start, startLine, startLineOff := off, line, lineOff
		// advance counts the raw token's octets and lines, after the
		// attributes have been placed.
		advance := func() {
			for i := 0; i < len(raw); i++ {
				if raw[i] == '\n' {
					line++
					lineOff = off + int64(i) + 1
				}
			}
			off += int64(len(raw))
		}
		if tt == html.TextToken && inStyle {
			// A <style> element's text, raw text (HTML 5 §13.1.2.1):
			// a style sheet.
			cssLinks(raw, "style", start, startLine, start-startLineOff, func(l Link) bool {
				links = append(links, l)
				return len(links) <= MaxLinks
			})
		}
		inStyle = false
		if len(links) > MaxLinks {
			links = links[:MaxLinks]
			err = ErrTooManyLinks
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			advance()
			continue
		}
		name, more := z.TagName()
		el := string(name)
		want := attrs[el]
		inStyle = el == "style" && tt == html.StartTagToken
		if !more {
			advance()
			continue
		}
		rawCopy := append([]byte(nil), raw...) // TagAttr may reuse the buffer
		lower := lowerASCII(rawCopy)
		searchFrom := len(name) + 1
		for more {
			var k, v []byte
			k, v, more = z.TagAttr()
			key := string(k)
			// Where the value begins, for the place: the attribute's
			// name followed by "=" after the last one found.
			pos := attrValueAt(lower, key, searchFrom)
			if pos > 0 {
				searchFrom = pos
			} else {
				pos = 0
			}
			if el == "base" {
				if key == "href" && !hasBase {
					hasBase = true
					ref := strings.Trim(string(v), asciiSpace)
					if base != nil {
						docBase, baseErr = locator.Resolve(base, ref, locator.RFC3986)
					} else {
						docBase, baseErr = locator.Parse(ref)
					}
					if baseErr != nil {
						docBase = nil
					}
				}
				continue
			}
			if key == "style" {
				// A style attribute's declarations (CSS Style Attributes
				// §2): their url()s.
				l, c := placeOf(rawCopy[:pos], startLine, start-startLineOff)
				cssLinks([]byte(v), el, start+int64(pos), l, int64(c-1), func(lk Link) bool {
					lk.Attr = "style"
					links = append(links, lk)
					return len(links) <= MaxLinks
				})
			}
			if !contains(want, key) {
				if len(links) > MaxLinks {
					links = links[:MaxLinks]
					err = ErrTooManyLinks
					break
				}
				continue
			}
			o := start + int64(pos)
			l, c := placeOf(rawCopy[:pos], startLine, start-startLineOff)
			add := func(ref string) {
				ref = strings.Trim(ref, asciiSpace)
				if ref == "" || ref[0] == '#' {
					return
				}
				links = append(links, Link{Ref: ref, Element: el, Attr: key, Offset: o, Line: l, Column: c})
			}
			if key == "srcset" {
				for _, cand := range strings.Split(string(v), ",") {
					if f := strings.Fields(cand); len(f) > 0 {
						add(f[0])
					}
				}
			} else {
				add(string(v))
			}
			if len(links) > MaxLinks {
				links = links[:MaxLinks]
				err = ErrTooManyLinks
				break
			}
		}
		advance()
		if err != nil {
			break
		}
	}
	b := base
	if docBase != nil {
		b = docBase
	}
	for i := range links {
		l := &links[i]
		switch {
		case b != nil:
			l.URL, l.Err = locator.Resolve(b, l.Ref, locator.RFC3986)
		case hasScheme(l.Ref):
			l.URL, l.Err = locator.Parse(l.Ref)
		}
		if l.Err != nil {
			l.URL = nil
		}
	}
	return links, err
}

const asciiSpace = " \t\n\f\r"

// cssLinks gives add the links of the style sheet css (package
// csslinks), which begins at octet off of the document, on line line0
// after col0 octets of it: Element el, Attr "url" or "@import", placed
// in the document. It stops when add says so.
func cssLinks(css []byte, el string, off int64, line0 int, col0 int64, add func(Link) bool) {
	errStop := errors.New("stop")
	csslinks.Links(bytes.NewReader(css), func(c csslinks.Link) error {
		l := Link{Ref: c.Ref, Element: el, Attr: "url", Offset: off + c.Offset, Line: line0 + c.Line - 1, Column: c.Column}
		if c.Import {
			l.Attr = "@import"
		}
		if c.Line == 1 {
			l.Column += int(col0)
		}
		if !add(l) {
			return errStop
		}
		return nil
	})
}

// attrValueAt returns the offset in the lower-cased raw tag of the value
// of attribute key, searching from offset from, or -1.
func attrValueAt(lower []byte, key string, from int) int {
	if key == "" {
		return -1
	}
	for from < len(lower) {
		i := bytes.Index(lower[from:], []byte(key))
		if i < 0 {
			return -1
		}
		j := from + i + len(key)
		// The name must stand alone: after white space or a quote.
		if p := from + i - 1; p >= 0 && !isSpace(lower[p]) && lower[p] != '"' && lower[p] != '\'' && lower[p] != '/' {
			from = j
			continue
		}
		for j < len(lower) && isSpace(lower[j]) {
			j++
		}
		if j >= len(lower) || lower[j] != '=' {
			from = from + i + len(key)
			continue
		}
		j++
		for j < len(lower) && isSpace(lower[j]) {
			j++
		}
		if j < len(lower) && (lower[j] == '"' || lower[j] == '\'') {
			j++
		}
		return j
	}
	return -1
}

// placeOf returns the line and column of the octet after b, which begins
// at column col0+1 of line line0.
func placeOf(b []byte, line0 int, col0 int64) (int, int) {
	l, c := line0, int(col0)+1
	for _, x := range b {
		if x == '\n' {
			l, c = l+1, 1
		} else {
			c++
		}
	}
	return l, c
}

// lowerASCII returns b with its ASCII letters in lower case and every
// other octet as it is, so that offsets into it are offsets into b
// (bytes.ToLower would turn invalid UTF-8 into longer replacement
// characters).
func lowerASCII(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func isSpace(c byte) bool { return strings.IndexByte(asciiSpace, c) >= 0 }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Partial reports whether l's Ref is a partial form, one that begins
// with no scheme name and ":" (RFC 3986 §4.2) and needs a base.
func (l Link) Partial() bool { return !hasScheme(l.Ref) }

// hasScheme reports whether ref begins with a scheme and ":" (RFC 3986
// §3.1), so that it is a full form that needs no base.
func hasScheme(ref string) bool {
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}
