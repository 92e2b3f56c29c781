package text

import (
	"bytes"
	"html"
	"unicode/utf8"
)

// HTML input. A page's text and attribute values hold URLs with their
// characters written as references: href="http://a.example/?x=1&amp;y=2",
// and a wrapper shown on a page is written &lt;URL:...&gt;. With
// Options.HTML the Scanner reads such references as the characters they
// stand for (HTML 5 §13.2.5.72, as html.UnescapeString decodes them):
//
//   - a bare URL ends at a reference that stands for a character that
//     ends one ("&lt;", "&gt;", "&quot;", "&nbsp;", ...); its URL is the
//     text of its span with the references decoded;
//   - "&lt;" written right before a scheme name or "URL:" opens a wrapper
//     that "&gt;" closes; a literal "<" or ">" (a tag) or a second "&lt;"
//     inside gives it up; its text is decoded before its white space is
//     removed;
//   - "<URL:...>" written literally is still a wrapper.
//
// Offsets stay those of the input bytes: a match of "&lt;URL:x:y&gt;"
// begins at its "&".

// LooksLikeHTML reports whether b, the beginning of an input, is an HTML
// document: after an optional UTF-8 byte order mark and white space it
// begins with "<!DOCTYPE html" or "<html" (any case). The extract command
// reads its first 512 bytes so.
func LooksLikeHTML(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return hasPrefixFold(b, "<!doctype html") || hasPrefixFold(b, "<html")
}

// hasPrefixFold reports whether b begins with the lower-case ASCII w in
// any case.
func hasPrefixFold(b []byte, w string) bool {
	return len(b) >= len(w) && equalFold(b[:len(w)], w)
}

// maxRef bounds the length of a character reference ("&CounterClockwiseContourIntegral;" is 33 bytes).
const maxRef = 40

// charRef reads the character reference that may begin at b[k] == '&'.
// It returns its length n and the first character it stands for; n is 0
// when b[k:] is not a reference html.UnescapeString decodes. more is true
// when b ends before that can be told.
func charRef(b []byte, k int, eof bool) (n int, r rune, more bool) {
	j := k + 1
	switch {
	case j < len(b) && b[j] == '#':
		j++
		hex := j < len(b) && (b[j] == 'x' || b[j] == 'X')
		if hex {
			j++
		}
		for j < len(b) && j-k < maxRef && (isDigit(b[j]) || hex && isHexLetter(b[j])) {
			j++
		}
	default:
		for j < len(b) && j-k < maxRef && (isLetter(b[j]) || isDigit(b[j])) {
			j++
		}
	}
	if j == len(b) && !eof {
		return 0, 0, true
	}
	if j < len(b) && b[j] == ';' {
		j++
	}
	ref := string(b[k:j])
	dec := html.UnescapeString(ref)
	if dec == ref {
		return 0, 0, false
	}
	r, _ = utf8.DecodeRuneInString(dec)
	return j - k, r, false
}

func isHexLetter(c byte) bool { return 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// refEnds reports whether the character r, written as a reference, ends
// a bare URL as it would written out.
func refEnds(r rune) bool {
	if r < utf8.RuneSelf {
		k := class[r] & kindMask
		return k == bStop || k == bClose || k == bOpen || r == '\''
	}
	return stopRune(r, utf8.RuneLen(r))
}

// decoded returns b as a string, with its character references decoded
// when the input is HTML.
func (s *Scanner) decoded(b []byte) string {
	if s.html && bytes.IndexByte(b, '&') >= 0 {
		return html.UnescapeString(string(b))
	}
	return string(b)
}
