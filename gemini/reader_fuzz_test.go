package gemini

import (
	"bufio"
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// wantHeader is ReadHeader's rule written plainly, over the whole input:
// the header is the octets before the first LF, which end in CR, within
// 2+1+MaxMeta+2 octets; two digits, the first 1 to 6, then nothing or a
// space and at most MaxMeta octets.
func wantHeader(b []byte) (header, bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 1 || i > maxHeader-1 || b[i-1] != '\r' {
		return header{}, false
	}
	line := b[:i-1]
	if len(line) < 2 || !digit(line[0]) || !digit(line[1]) || line[0] < '1' || line[0] > '6' {
		return header{}, false
	}
	h := header{Status: int(line[0]-'0')*10 + int(line[1]-'0')}
	if len(line) > 2 {
		if line[2] != ' ' || len(line)-3 > maxMeta {
			return header{}, false
		}
		h.Meta = string(line[3:])
	}
	return h, true
}

// FuzzReadHeader reads arbitrary responses: ReadHeader never panics,
// accepts exactly what wantHeader accepts, returns the same status and
// META, and reads no octet past the header's LF when it accepts it, and
// at most one past the longest header when it refuses.
func FuzzReadHeader(f *testing.F) {
	for _, s := range []string{
		"20 text/gemini\r\nbody", "20\r\n", "20 \r\n", "51 Not found!\r\n", "31 gemini://h/x/\r\n",
		"70 x\r\n", "2x y\r\n", "200 OK\r\n", "20 text/gemini\n", "20 text/gemini", "", "\r\n",
		"20 " + strings.Repeat("a", maxMeta) + "\r\n", "20 " + strings.Repeat("a", maxMeta+1) + "\r\n",
		"20 " + strings.Repeat("a", 2*maxMeta), "10 a\rb\r\n", "6",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		br := bufio.NewReaderSize(r, 16)
		h, err := readResponseHeader(br)
		consumed := len(b) - r.Len() - br.Buffered()
		want, ok := wantHeader(b)
		if ok != (err == nil) {
			t.Fatalf("%q: accepted %v, want %v (err %v)", b, err == nil, ok, err)
		}
		if !ok {
			var he *HeaderError
			if !errors.As(err, &he) && !errors.Is(err, ErrNoHeader) {
				t.Fatalf("%q: error %T %v, want a *HeaderError", b, err, err)
			}
			if consumed > maxHeader+1 {
				t.Fatalf("%q: read %d octets to refuse it", b, consumed)
			}
			return
		}
		if h != want {
			t.Fatalf("%q: header %+v, want %+v", b, h, want)
		}
		if c := h.Class(); c < input || c > certRequired || len(h.Meta) > maxMeta {
			t.Fatalf("%q: header %+v out of range", b, h)
		}
		if consumed != bytes.IndexByte(b, '\n')+1 {
			t.Fatalf("%q: read %d octets, the header has %d", b, consumed, bytes.IndexByte(b, '\n')+1)
		}
	})
}

// wantLinks is Links's rule written plainly over the whole document:
// lines split at LF (a CR before it dropped), "```" toggling
// preformatted text, "=>" beginning a link outside it.
func wantLinks(doc []byte) []link {
	var out []link
	pre := false
	for i, line := range bytes.Split(doc, []byte("\n")) {
		if i == bytes.Count(doc, []byte("\n")) && len(line) == 0 {
			break
		}
		switch {
		case bytes.HasPrefix(line, []byte("```")):
			pre = !pre
			continue
		case pre || !bytes.HasPrefix(line, []byte("=>")):
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		rest := strings.TrimLeft(string(line[2:]), " \t")
		ref := rest
		if j := strings.IndexAny(rest, " \t"); j >= 0 {
			ref = rest[:j]
		}
		if ref == "" {
			continue
		}
		out = append(out, link{Line: i + 1, Ref: ref})
	}
	return out
}

// FuzzLinks reads arbitrary text/gemini documents: Links never panics,
// finds the link lines wantLinks finds with their numbers and URLs as
// written, gives names without surrounding white space, and resolves
// every link it can read against the base; Lines delivers every line,
// numbered, its link lines those Links found.
func FuzzLinks(f *testing.F) {
	for _, s := range []string{
		"# Title\n=> gemini://h/a A\n=>b\tB c\r\n```\n=> not-a-link\n```\n=> /c\n",
		"=>\n=> \n=>  \t x y \n", "=> ../up ..\n=> a%20b\n=> http://x/ web", "```=> x\n=> y", "=> <URL:gemini://h/>",
		"=>:\n=> %zz\n", "\n\n\r\n=> x",
	} {
		f.Add([]byte(s))
	}
	base, err := locator.Parse("gemini://example.org/dir/doc.gmi")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var got []link
		err := links(bytes.NewReader(doc), base, func(l link) error {
			got = append(got, l)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// lines: one per line end, and one for a last line without one,
		// numbered from 1; a link line exactly where Links found one.
		nlines, links := 0, 0
		if err := lines(bytes.NewReader(doc), base, func(l line) error {
			nlines++
			if l.Number != nlines {
				t.Fatalf("%q: line %d numbered %d", doc, nlines, l.Number)
			}
			if l.Type == linkLine {
				if links >= len(got) || got[links].Line != l.Number {
					t.Fatalf("%q: Lines has a link at line %d Links has not", doc, l.Number)
				}
				links++
			}
			if l.Type == headingLine && (l.Level < 1 || l.Level > 3) {
				t.Fatalf("%q: heading level %d", doc, l.Level)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		want := bytes.Count(doc, []byte("\n"))
		if len(doc) > 0 && doc[len(doc)-1] != '\n' {
			want++
		}
		if nlines != want || links != len(got) {
			t.Fatalf("%q: %d lines and %d links, want %d and %d", doc, nlines, links, want, len(got))
		}
		wantL := wantLinks(doc)
		if len(got) != len(wantL) {
			t.Fatalf("%q: %d links, want %d", doc, len(got), len(wantL))
		}
		for i, l := range got {
			if l.Line != wantL[i].Line || l.Ref != wantL[i].Ref {
				t.Fatalf("%q: link %d is line %d %q, want line %d %q", doc, i, l.Line, l.Ref, wantL[i].Line, wantL[i].Ref)
			}
			if strings.Trim(l.Name, " \t") != l.Name || strings.ContainsAny(l.Ref, " \t") {
				t.Fatalf("%q: link %+v has white space around its name or in its URL", doc, l)
			}
			if (l.URL == nil) == (l.Err == nil) {
				t.Fatalf("%q: link %+v: want exactly one of URL and Err", doc, l)
			}
		}
		// The same document through access.Lines, as a gateway and a
		// crawl read it: the same lines, a link line's link Links's.
		n, k := 0, 0
		if err := access.Lines("text/gemini")(bytes.NewReader(doc), base, func(l access.Line) error {
			n++
			if l.Number != n || l.Kind < access.TextLine || l.Kind > access.QuoteLine {
				t.Fatalf("%q: access line %d: %+v", doc, n, l)
			}
			if l.Kind == access.LinkLine {
				if k >= len(got) || got[k].Line != n || got[k].Ref != l.Ref || got[k].Name != l.Text || l.Markup != "=>" || (l.URL == nil) != (got[k].URL == nil) {
					t.Fatalf("%q: access line %d %+v, Links %+v", doc, n, l, got[k:])
				}
				k++
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if n != nlines || k != len(got) {
			t.Fatalf("%q: access.Lines gave %d lines, %d links; Lines %d, %d", doc, n, k, nlines, len(got))
		}
	})
}
