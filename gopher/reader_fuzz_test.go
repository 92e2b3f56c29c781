package gopher

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// FuzzMenuLine: any line parses or fails with a *MenuError whose offset
// lies in the line; an item that parses has a URL that reads back (or
// says why it has none), and the entry never panics.
func FuzzMenuLine(f *testing.F) {
	for _, s := range []string{
		"0hello\t0/hello.txt\t127.0.0.1\t17070\t+", "0form\t0/form\t127.0.0.1\t17070\t?", "iinfo\tfake\t(NULL)\t0",
		"3err\t\terror.host\t1", "8tel\tguest\th\t23", "Tibm\tx\th\t0", "hweb\tURL:http://x/\th\t70", "", "\t\t\t",
		"0x\tsel\th\t99999", "1a b\t/a b\t[::1]\t70", "7s\t/s\th%41\t70",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		it, err := ParseMenuLine(line)
		if err != nil {
			var me *MenuError
			if !errors.As(err, &me) || me.Offset < 0 || me.Offset > len(line) {
				t.Fatalf("%q: error %v", line, err)
			}
			return
		}
		e := it.Entry()
		if e.URL != "" {
			if _, err := locator.Parse(e.URL); err != nil {
				t.Fatalf("%q: entry URL %q does not parse: %v", line, e.URL, err)
			}
			if strings.HasPrefix(e.URL, "gopher:") {
				g, err := Parse(e.URL)
				if err != nil || g.Selector != it.Selector || g.Type != string(it.Type) || g.Host != it.Host {
					t.Fatalf("%q: entry URL %q reads back as %+v, %v", line, e.URL, g, err)
				}
			}
		} else if it.Type != 'i' && it.Type != '3' && e.Parts["error"] == nil {
			t.Fatalf("%q: no URL and no reason", line)
		}
	})
}

// FuzzReplyHeader: a header either parses to a length >= -2 that
// formats back to the same text, or fails with a *ReplyError.
func FuzzReplyHeader(f *testing.F) {
	for _, s := range []string{"+37", "+-1", "+-2", "--1", "--2", "-5", "+", "", "+-3", "+0012", "Hello"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		h, err := parseReplyHeader(line)
		if err != nil {
			var re *ReplyError
			if !errors.As(err, &re) {
				t.Fatalf("%q: %v", line, err)
			}
			return
		}
		if h.Length < -2 {
			t.Fatalf("%q: length %d", line, h.Length)
		}
		sign := "-"
		if h.OK {
			sign = "+"
		}
		if !strings.HasPrefix(line, sign) {
			t.Fatalf("%q: OK %v", line, h.OK)
		}
	})
}

// FuzzAttributes: any block text parses or fails with an *AttrError or
// *AskError; every item that parses begins with +INFO, its blocks are in
// order, and no lines are lost: each non-blank line is a block's first
// line or one of its lines.
func FuzzAttributes(f *testing.F) {
	for _, s := range []string{
		"+INFO: 0form\t0/form\t127.0.0.1\t17070\t?\n+ADMIN:\n Admin: A <a@b>\n Mod-Date: x <20261123035414>\n+VIEWS:\n Text/plain En_US: <.2k>\n+ASK:\n Ask: Name:\tdef\n Choose: C:\ta\tb\n",
		"+INFO: 1d\t/d\th\t70\t+\n+VIEWS:\n application/gopher+-menu: <4k>\n+ABSTRACT:\n text\n",
		"+ADMIN:\n", " x\n", "+INFO: 0x\ts\th\t70\n+X+Y:\n", "+INFO: 0x\ts\th\t70\n \n\n+ABSTRACT: 0ref\t/r\th\t70\n",
	} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, text string, max int) {
		if max < 0 || max > 100 {
			max = 0
		}
		lines := strings.Split(text, "\n")
		attrs, err := ParseAttributes(lines, max)
		if err != nil {
			var ae *AttrError
			var ke *AskError
			if !errors.As(err, &ae) && !errors.As(err, &ke) {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if max > 0 && len(attrs) > max {
			t.Fatalf("%d items past the bound %d", len(attrs), max)
		}
		n := 0
		for _, a := range attrs {
			if len(a.Blocks) == 0 || a.Blocks[0].Name != "+INFO" {
				t.Fatalf("an item that does not begin with +INFO: %+v", a)
			}
			for _, b := range a.Blocks {
				n += 1 + len(b.Lines)
			}
			for _, v := range a.Views {
				if v.Size < -1 || v.Type == "" {
					t.Fatalf("view %+v", v)
				}
			}
		}
		want := 0
		for _, l := range lines {
			if strings.TrimLeft(l, " ") != "" {
				want++
			}
		}
		if n != want {
			t.Fatalf("%d lines kept of %d", n, want)
		}
	})
}

// FuzzAsk: any +ASK block parses or fails with an *AskError; a form that
// parses, filled with one answer per field, gives data lines none of
// which is "." or holds CR, LF or NUL, the AskL count matching its lines.
func FuzzAsk(f *testing.F) {
	f.Add("Note: n\nAsk: Your name:\tGopher User\nAskP: Secret word:\nSelect: Subscribe?:1\nChoose: Colour:\tred\tgreen\tblue\nAskL: Comments:", "a\nb")
	f.Add("Ask: q", ".")
	f.Add("Choose: c\t.\tx", "1")
	f.Fuzz(func(t *testing.T, block, answer string) {
		fields, err := ParseAsk(strings.Split(block, "\n"))
		if err != nil {
			var ke *AskError
			if !errors.As(err, &ke) {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		lines, err := FillForm(fields, nil, func(q access.Question) (string, error) { return answer, nil })
		if err != nil {
			var ke *AskError
			var pe *access.PolicyError
			if !errors.As(err, &ke) && !errors.As(err, &pe) {
				t.Fatalf("FillForm error %T %v", err, err)
			}
			return
		}
		for _, l := range lines {
			if l == "." || strings.ContainsAny(l, "\r\n\x00") {
				t.Fatalf("data line %q would break the block", l)
			}
		}
		// The filled form writes a URL that reads back to the same lines.
		p := &Plus{Command: '+', HasForm: true, Form: lines}
		s, err := (&URL{Host: "h", Type: "0", Selector: "s", HasSearch: true, HasPlus: true, Plus: p.String()}).Build()
		if err != nil {
			t.Fatalf("filled form %q: %v", lines, err)
		}
		g, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParsePlus(g.Plus)
		if err != nil || len(back.Form) != len(lines) {
			t.Fatalf("%s reads back as %+v, %v", s, back, err)
		}
		for i := range lines {
			if back.Form[i] != lines[i] {
				t.Fatalf("line %d: %q, want %q", i, back.Form[i], lines[i])
			}
		}
	})
}

// FuzzTextReader: the text reader gives, whatever the reads' sizes, the
// same octets as a reference of RFC 1436 §3.8 as servers follow it
// (every octet as sent, a last "." line before the close removed), never
// an error of its own, and never more octets than it read.
func FuzzTextReader(f *testing.F) {
	for _, s := range []string{"Hello\r\n.\r\n", "a\n..b\n.\n", "..\r\n", ".", ".\r", "x\n.\nmore", "no end", ".x\n", "\n.\n\n",
		"3.0 (native)\n", "a\n.\r\n.\r\n", ".\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		want := textOf(in)
		for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in))} {
			got, err := io.ReadAll(newTextReader(r))
			if !bytes.Equal(got, []byte(want)) || err != nil {
				t.Fatalf("%q: %q, %v; want %q", in, got, err, want)
			}
			if len(got) > len(in) {
				t.Fatalf("%q: %d octets out of %d", in, len(got), len(in))
			}
		}
	})
}

// textOf is the reference: the octets as sent, but for a "." line (LF
// or CR LF ended) at the very end, at the start of a line.
func textOf(in string) string {
	for _, end := range []string{".\r\n", ".\n"} {
		if in == end {
			return ""
		}
		if strings.HasSuffix(in, "\n"+end) {
			return in[:len(in)-len(end)]
		}
	}
	return in
}
