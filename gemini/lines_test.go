package gemini_test

import (
	"crypto/tls"
	"fmt"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/loctest"
)

// TestAccessLines: the gemini package offers text/gemini's lines (Gemini
// §5.4, §5.5) through access.Lines, for whoever renders a document or
// takes its links without importing it: each line as gemini.Lines reads
// it, its kind, markup, text and link the same.
func TestAccessLines(t *testing.T) {
	doc := "# Title\n## Sub\ntext\n=> /a A link\n=>  gemini://h/b\n=> http://[bad Bad\n* item\n> quote\n```alt\n=> not a link\n```\n"
	base := loctest.MustParse(t, "gemini://example.org/dir/page.gmi")
	read := access.Lines("Text/Gemini; charset=utf-8")
	if read == nil {
		t.Fatal("no reader registered for text/gemini")
	}
	if access.Lines("text/plain") != nil {
		t.Error("a reader for text/plain")
	}
	var want []gemini.Line
	gemini.Lines(strings.NewReader(doc), base, func(l gemini.Line) error { want = append(want, l); return nil })
	var got []access.Line
	if err := read(strings.NewReader(doc), base, func(l access.Line) error { got = append(got, l); return nil }); err != nil {
		t.Fatal(err)
	}
	kinds := []access.LineKind{access.HeadingLine, access.HeadingLine, access.TextLine, access.LinkLine, access.LinkLine, access.LinkLine,
		access.ListLine, access.QuoteLine, access.PreToggleLine, access.PreformattedLine, access.PreToggleLine}
	markup := []string{"#", "##", "", "=>", "=>", "=>", "*", ">", "```", "", "```"}
	if len(got) != len(want) || len(got) != len(kinds) {
		t.Fatalf("%d lines, gemini.Lines %d, want %d", len(got), len(want), len(kinds))
	}
	for i, g := range got {
		w := want[i]
		if g.Number != w.Number || g.Kind != kinds[i] || g.Markup != markup[i] || g.Text != w.Text || g.Level != w.Level || g.Cut != w.Cut ||
			g.Ref != w.Link.Ref || fmt.Sprint(g.URL) != fmt.Sprint(w.Link.URL) || fmt.Sprint(g.Err) != fmt.Sprint(w.Link.Err) {
			t.Errorf("line %d: %+v, gemini.Lines %+v", i+1, g, w)
		}
	}
	if got[3].URL.String() != "gemini://example.org/a" || got[3].Text != "A link" || got[5].Err == nil {
		t.Errorf("links: %+v %+v", got[3], got[5])
	}
}

// TestConfined: a client that names where it keeps the certificates it
// trusts on first use (Gemini §4.2) is its own confined form; one that
// names none (it would use the person's DefaultKnownHosts) gives a
// client configured alike that keeps them in a TrustStore of its own.
func TestConfined(t *testing.T) {
	file := &gemini.Client{KnownHosts: "/tmp/known"}
	store := &gemini.Client{Trust: &gemini.TrustStore{}}
	for _, c := range []*gemini.Client{file, store} {
		if got := c.Confined(); got != c {
			t.Errorf("%+v: confined as %+v", c, got)
		}
	}
	var asked int
	c := &gemini.Client{Insecure: true, Certificate: func(*locator.URL) (*tls.Certificate, error) { asked++; return nil, nil }}
	n, ok := c.Confined().(*gemini.Client)
	if !ok || n == c || n.Trust == nil || n.KnownHosts != "" || !n.Insecure || n.Certificate == nil {
		t.Fatalf("confined: %+v", n)
	}
	n.Certificate(nil)
	if asked != 1 || c.Trust != nil {
		t.Errorf("certificate asked %d times; the client asked has Trust %v", asked, c.Trust)
	}
}
