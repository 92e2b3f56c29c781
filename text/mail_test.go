package text_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/text"
)

// scanAll runs a Scanner over in with opts and returns its matches.
func scanAll(t *testing.T, in string, opts *text.Options) []text.Match {
	t.Helper()
	s := text.NewScanner(strings.NewReader(in), opts)
	var ms []text.Match
	for s.Scan() {
		ms = append(ms, s.Match())
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return ms
}

// TestNotPartialForm: "<URL:0ftp://00>" holds no URL (a
// scheme begins with a letter) and no partial form (RFC 3986 §4.2: a
// first segment with ":" would be taken for a scheme name). With a base
// or without, the wrapper is given up and its text read as prose, where
// the bare "ftp://00" is found at offset 6; FindAll and a Scanner with a
// base agree.
func TestNotPartialForm(t *testing.T) {
	base := locatorBase(t)
	for _, in := range []string{"<URL:0ftp://00>", "<URL:a_b:c http://x.example/>", "<URL:_x:y/z>"} {
		var partials []text.Partial
		got := scanAll(t, in, &text.Options{MaxLen: 64, Base: base})
		plain := scanAll(t, in, &text.Options{MaxLen: 64, Partial: func(p text.Partial) { partials = append(partials, p) }})
		if fa := text.FindAll(in); !reflect.DeepEqual(got, fa) || !reflect.DeepEqual(plain, fa) {
			t.Errorf("%q: Scanner with base %+v, without %+v, FindAll %+v", in, got, plain, fa)
		}
		for _, m := range got {
			if m.Ref != "" {
				t.Errorf("%q: reported as the partial form %q", in, m.Ref)
			}
		}
		if len(partials) != 0 {
			t.Errorf("%q: reported as partial forms: %+v", in, partials)
		}
	}
	if ms := text.FindAll("<URL:0ftp://00>"); len(ms) != 1 || ms[0].URL != "ftp://00" || ms[0].Offset != 6 || ms[0].Wrapped {
		t.Errorf("<URL:0ftp://00>: %+v, want the bare ftp://00 at offset 6", ms)
	}
}

func locatorBase(t *testing.T) *locator.URL {
	t.Helper()
	base, err := locator.Parse("http://a/b/c/d;p?q")
	if err != nil {
		t.Fatal(err)
	}
	return base
}

// TestPartialWithoutBase: a partial form in a "<URL:...>" wrapper with no
// base (1993 draft, "Partial form") is reported to Options.Partial with
// its position, once, whatever the reader; it is not a Match.
func TestPartialWithoutBase(t *testing.T) {
	in := "one\n  <URL:../g> and <URL:#frag\n  ment> but <g> and <URL:http://x.example/>"
	var got []text.Partial
	ms := scanAll(t, in, &text.Options{Partial: func(p text.Partial) { got = append(got, p) }})
	want := []text.Partial{
		{Ref: "../g", Offset: 6, End: 16, Line: 2, Column: 3},
		{Ref: "#fragment", Offset: 21, End: 39, Line: 2, Column: 18},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("partials\n got %+v\nwant %+v", got, want)
	}
	if u := urls(ms); !reflect.DeepEqual(u, []string{"http://x.example/"}) {
		t.Errorf("matches %q", u)
	}
	// With a base they are resolved and not reported.
	got = nil
	ms = scanAll(t, in, &text.Options{Base: locatorBase(t), Partial: func(p text.Partial) { got = append(got, p) }})
	if len(got) != 0 || len(ms) != 3 || ms[0].Ref != "../g" || ms[1].Ref != "#fragment" {
		t.Errorf("with a base: partials %+v, matches %+v", got, ms)
	}
}

// TestQuotedReply: in a quoted reply, a wrapper continued on
// the next line meets the quote prefix there; it is removed with the line
// break (RFC 1738 Appendix: the white space of a break is ignored), at
// the depth the wrapper's first line had. Offsets, lines and columns are
// those of the "<".
func TestQuotedReply(t *testing.T) {
	tests := []struct {
		name, in string
		want     []text.Match
	}{
		{"one level", "> see <URL:ftp://host.dom/pub/some/\n> file.txt> ok",
			[]text.Match{{URL: "ftp://host.dom/pub/some/file.txt", Offset: 6, End: 47, Line: 1, Column: 7, Wrapped: true, Prefixed: true}}},
		{"two levels spaced", "x\n> > see <URL:ftp://host.dom/pub/\n> >   some/file.txt>",
			[]text.Match{{URL: "ftp://host.dom/pub/some/file.txt", Offset: 10, End: 55, Line: 2, Column: 9, Wrapped: true, Prefixed: true}}},
		{"two levels run together", ">> <URL:http://a.example/x/\n>> y/z>",
			[]text.Match{{URL: "http://a.example/x/y/z", Offset: 3, End: 35, Line: 1, Column: 4, Wrapped: true, Prefixed: true}}},
		{"bar", "| <http://a.example/some-\n| thing>",
			[]text.Match{{URL: "http://a.example/some-thing", Offset: 2, End: 34, Line: 1, Column: 3, Wrapped: true,
				Ambiguous: true, Alternatives: []string{"http://a.example/something"}}}},
		{"initials", "JD> <URL:http://a.example/x/\nJD>  y> done",
			[]text.Match{{URL: "http://a.example/x/y", Offset: 4, End: 36, Line: 1, Column: 5, Wrapped: true, Prefixed: true}}},
		{"CRLF", "> <URL:http://a.example/x/\r\n> y>",
			[]text.Match{{URL: "http://a.example/x/y", Offset: 2, End: 32, Line: 1, Column: 3, Wrapped: true, Prefixed: true}}},
		{"closing bracket after the prefix", "> <URL:http://a.example/x\n> > and",
			[]text.Match{{URL: "http://a.example/x", Offset: 2, End: 29, Line: 1, Column: 3, Wrapped: true, Prefixed: true}}},
		{"unquoted first line keeps >", "<URL:http://a.example/x\n> and",
			[]text.Match{{URL: "http://a.example/x", Offset: 0, End: 25, Line: 1, Column: 1, Wrapped: true, Prefixed: true}}},
		{"quoted blank line ends it", "> <URL:http://a.example/x\n>\n> y>",
			[]text.Match{{URL: "http://a.example/x", Offset: 3, End: 25, Line: 1, Column: 4, Prefixed: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := text.FindAll(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("FindAll(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
			// The line's start may have left the buffer before the wrapper.
			pad := strings.Repeat("x", 300)
			in := strings.Replace(tt.in, "<", pad+"<", 1)
			got := scanAll(t, in, &text.Options{MaxLen: 64})
			if len(got) != len(tt.want) || len(got) > 0 && got[0].URL != tt.want[0].URL {
				t.Errorf("after a long line start: %+v", got)
			}
		})
	}
}

// TestBareEvidence: labels of signatures and headers are not
// URLs; an opaque scheme other than RFC 1738's needs a lower-case name
// and a part well formed for its registration in bare text (evidence.go).
// A wrapper or a "URL:" prefix always counts.
func TestBareEvidence(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"--\nJohn Doe\nFax:+1 555 9999\nIM:johndoe\ntel:home\nTel: +1 555 0100\nSIP:jd", nil},
		{"tel:123 sms:12 fax:555-9999 im:johndoe xmpp:johndoe sip:jd urn:x urn:isbn: geo:here magnet:x bitcoin:abc skype:jd", nil},
		{"call tel:+1-816-555-1212, fax:+44.20.7946.0018 or tel:7042;phone-context=example.com",
			[]string{"tel:+1-816-555-1212", "fax:+44.20.7946.0018", "tel:7042;phone-context=example.com"}},
		{"im:jd@example.com xmpp:jd@example.com sip:alice@atlanta.example.com urn:ietf:rfc:1738 geo:13.4125,103.8667 magnet:?xt=urn:btih:c12fe1",
			[]string{"im:jd@example.com", "xmpp:jd@example.com", "sip:alice@atlanta.example.com", "urn:ietf:rfc:1738", "geo:13.4125,103.8667", "magnet:?xt=urn:btih:c12fe1"}},
		{"skype:jd?call cid:image001.png mid:960830.1639@XIson.com", []string{"skype:jd?call", "cid:image001.png", "mid:960830.1639@XIson.com"}},
		// RFC 1738's own: mailto and news keep their grammar, any case.
		{"MAILTO:JD@EXAMPLE.COM News:comp.lang.go", []string{"MAILTO:JD@EXAMPLE.COM", "News:comp.lang.go"}},
		// A wrapper or "URL:" always counts.
		{"<tel:home> <IM:johndoe> URL:Fax:+1", []string{"tel:home", "IM:johndoe", "Fax:+1"}},
	}
	for _, tt := range tests {
		if got := urls(text.FindAll(tt.in)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("FindAll(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// TestHTML: in HTML, character references in a URL are
// decoded and "&lt;URL:...&gt;" is a wrapper; offsets are those of the
// input bytes.
func TestHTML(t *testing.T) {
	in := "<p><a href=\"http://a.example/?x=1&amp;y=2\">see</a> &lt;URL:ftp://a.example/pub/\n  file.txt&gt; and &lt;http://b.example/&#126;u&gt; &quot;http://c.example/&quot; &lt;URL:../g&gt;"
	var partials []text.Partial
	got := scanAll(t, in, &text.Options{HTML: true, Partial: func(p text.Partial) { partials = append(partials, p) }})
	want := []text.Match{
		{URL: "http://a.example/?x=1&y=2", Offset: 12, End: 41, Line: 1, Column: 13},
		{URL: "ftp://a.example/pub/file.txt", Offset: 51, End: 94, Line: 1, Column: 52, Wrapped: true, Prefixed: true},
		{URL: "http://b.example/~u", Offset: 99, End: 131, Line: 2, Column: 20, Wrapped: true},
		{URL: "http://c.example/", Offset: 138, End: 155, Line: 2, Column: 59},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if len(partials) != 1 || partials[0].Ref != "../g" {
		t.Errorf("partials %+v", partials)
	}
	// Without HTML the references stay as written.
	if u := urls(text.FindAll(`href="http://a.example/?x=1&amp;y=2"`)); len(u) != 1 || u[0] != "http://a.example/?x=1&amp;y=2" {
		t.Errorf("plain text: %q", u)
	}
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"<!DOCTYPE html>\n<html>", true}, {"\xef\xbb\xbf  \n<HTML lang=en>", true}, {"<!doctype HTML>", true},
		{"<URL:http://a/>", false}, {"Subject: <html>", false}, {"", false},
	} {
		if got := text.LooksLikeHTML([]byte(tt.in)); got != tt.want {
			t.Errorf("LooksLikeHTML(%q) = %v", tt.in, got)
		}
	}
}
