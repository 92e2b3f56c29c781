package text

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// Bare URLs: written in prose without a wrapper.

// bare examines the ":" at s.buf[c]. When it ends the scheme name (or
// the "URL:" prefix) of a URL, it sets s.match and returns oFound with
// the span of the match.
func (s *Scanner) bare(c int) (o outcome, start, end int) {
	b := s.buf[:s.n]
	if c+3 > len(b) && !s.eof {
		return oMore, 0, 0
	}
	// The scheme name: the word of scheme characters before ":", not
	// reaching into the last match, beginning with a letter.
	lo := max(s.floor, c-maxScheme)
	w := c
	for w > lo && isSchemeByte(b[w-1]) {
		w--
	}
	long := w == c-maxScheme && w > s.floor && isSchemeByte(b[w-1])
	for w < c && !isLetter(b[w]) {
		w++
	}
	if w == c {
		return oNone, 0, 0
	}
	if s.html && w-4 >= s.floor && hasPrefixFold(b[w-4:], "&lt;") {
		// "&lt;URL:...&gt;", "&lt;http://...&gt;" in HTML (html.go).
		// Too long, it is reported and the text after its ":" read
		// again; holding no URL, it is read as prose here.
		if o, end := s.wrapper(w-4, 4); o != oNone {
			return o, w - 4, end
		}
	}
	if !long && c-w == 3 && equalFold(b[w:c], "url") {
		return s.prefixed(w, c)
	}
	kind := unknownScheme
	if !long {
		kind = lookupScheme(b[w:c])
	}
	ss := w
	if kind == unknownScheme {
		// An unknown word followed by "//": "git+https://" names a known
		// scheme after its "+"; "seehttp://" has one glued to a word.
		if !hasSlashes(b, c+1) {
			return oNone, 0, 0
		}
		if p := bytes.LastIndexByte(b[w:c], '+'); !long && p >= 0 && lookupScheme(b[w+p+1:c]) == authorityScheme {
			kind = authorityScheme
		} else {
			for j := w + 1; j < c-1; j++ {
				if isLetter(b[j]) && lookupScheme(b[j:c]) == authorityScheme {
					ss, kind = j, authorityScheme
					break
				}
			}
		}
		if kind == unknownScheme {
			return oNone, 0, 0
		}
	}
	return s.body(ss, c, kind, ss, false)
}

// prefixed examines "URL:" at s.buf[w:c+1] followed, with no white space,
// by a URL of any scheme (RFC 1738 Appendix).
func (s *Scanner) prefixed(w, c int) (outcome, int, int) {
	b := s.buf[:s.n]
	j := c + 1
	for j < len(b) && j-c <= maxScheme && isSchemeByte(b[j]) {
		j++
	}
	if j+3 > len(b) && !s.eof {
		return oMore, 0, 0
	}
	if j == c+1 || j >= len(b) || b[j] != ':' || j-c > maxScheme || !isLetter(b[c+1]) {
		return oNone, 0, 0
	}
	return s.body(c+1, j, lookupScheme(b[c+1:j]), w, true)
}

// body finds the end of the URL whose scheme is s.buf[ss:c] and judges
// it; the match begins at ms.
func (s *Scanner) body(ss, c int, kind schemeKind, ms int, prefixed bool) (outcome, int, int) {
	b := s.buf[:s.n]
	p := c + 1
	auth := hasSlashes(b, p)
	if kind == authorityScheme && !auth {
		return oNone, 0, 0
	}
	isMailto := !auth && equalFold(b[ss:c], "mailto")
	isFile := auth && equalFold(b[ss:c], "file")
	judged := -1 // the authority ends before b[judged] and is good
	if auth {
		ok, at := s.authorityFirst(p+2, ms, isFile)
		if !ok {
			return oNone, 0, 0
		}
		judged = at
	}
	if isMailto && p < s.noAt {
		return oNone, 0, 0
	}
	end, o := s.run(p, ms)
	if o != oFound {
		return o, ms, 0
	}
	if isMailto && bytes.IndexByte(b[p:end], '@') < 0 {
		// No later mailto: in this run can have an "@" either: its run
		// lies inside this one.
		s.noAt = end
		return oNone, 0, 0
	}
	end = trimTrailing(b, p, end)
	switch {
	case auth:
		if (judged < 0 || end <= judged) && !validAuthority(b[p+2:end], isFile) {
			return oNone, 0, 0
		}
	case equalFold(b[ss:c], "news"):
		end = newsEnd(b, p, end)
	case equalFold(b[ss:c], "mailto"):
		// RFC 1738 §3.5: mailto:<rfc822-addr-spec>, and an addr-spec
		// has an "@" (RFC 822 §6.1).
		if bytes.IndexByte(b[p:end], '@') < 0 {
			return oNone, 0, 0
		}
	}
	if kind == opaqueScheme && !prefixed && !evidence(b[ss:c], b[p:end]) {
		return oNone, 0, 0
	}
	if end <= p {
		return oNone, 0, 0
	}
	u := s.decoded(b[ss:end])
	if !s.parses(u) {
		return oNone, 0, 0
	}
	s.match = Match{URL: u, Prefixed: prefixed}
	return oFound, ms, end
}

// authorityFirst judges the authority that begins at s.buf[a] before the
// rest of the URL is read, when a "/", "?" or "#" ends it: a candidate
// with a bad host then costs only its authority, so text such as
// "http://-x/http://-x/..." is read in linear time. It reports false only
// for an authority validAuthority refuses; when it judged one, it returns
// the index of the byte that ends it, else -1.
func (s *Scanner) authorityFirst(a, start int, file bool) (bool, int) {
	b := s.buf[:s.n]
	for k := a; k < len(b) && k-start <= s.max; k++ {
		c := b[k]
		if c == '/' || c == '?' || c == '#' {
			return validAuthority(b[a:k+1], file), k
		}
		if class[c]&kindMask != bURL {
			break // ends otherwise: judged after trimming
		}
		if c == '&' && s.html {
			// As run reads it: a reference that ends the URL ends the
			// authority too; one not yet whole is judged later.
			n, r, more := charRef(b, k, s.eof)
			if more || n > 0 && refEnds(r) {
				break
			}
			k += max(n, 1) - 1
		}
	}
	return true, -1
}

// run returns the end of the run of URL characters that begins at
// s.buf[p], for a candidate that begins at start. Brackets nest: a
// closing bracket the run did not open ends it.
func (s *Scanner) run(p, start int) (int, outcome) {
	b := s.buf[:s.n]
	var depth [3]int
	for k := p; ; {
		if k >= len(b) {
			if s.eof {
				return k, oFound
			}
			return 0, oMore
		}
		c := b[k]
		switch class[c] & kindMask {
		case bStop:
			return k, oFound
		case bURL:
			if c == '&' && s.html {
				n, r, more := charRef(b, k, s.eof)
				if more {
					return 0, oMore
				}
				if n > 0 && refEnds(r) {
					return k, oFound
				}
				k += max(n, 1)
				break
			}
			k++
		case bOpen:
			depth[bracket(c)]++
			k++
		case bClose:
			d := &depth[bracket(c)]
			if *d == 0 {
				return k, oFound
			}
			*d--
			k++
		case bHigh:
			if !utf8.FullRune(b[k:]) && !s.eof {
				return 0, oMore
			}
			r, size := utf8.DecodeRune(b[k:])
			if stopRune(r, size) {
				return k, oFound
			}
			k += size
		}
		if k-start > s.max {
			return 0, oLong
		}
	}
}

func bracket(c byte) int {
	switch c {
	case '(', ')':
		return 0
	case '[', ']':
		return 1
	}
	return 2
}

// stopRune reports whether a non-ASCII character ends a bare URL: an
// invalid UTF-8 sequence, white space, a zero-width space or a character
// that quotes, brackets or separates in text (“ ” « » 「 」 ｜ ...).
func stopRune(r rune, size int) bool {
	if r == utf8.RuneError && size <= 1 {
		return true
	}
	switch r {
	case '\u200b', '\u2060', '\ufeff', // zero-width space, word joiner, BOM
		'\u201c', '\u201d', '\u201e', '\u201f', '\u2018', '\u2019', '\u201a', '\u201b',
		'\u00ab', '\u00bb', '\u2039', '\u203a', // guillemets
		'\u3008', '\u3009', '\u300a', '\u300b', '\u300c', '\u300d', '\u300e', '\u300f',
		'\u3010', '\u3011', '\u3014', '\u3015', // CJK brackets
		'\uff08', '\uff09', '\uff1c', '\uff1e', '\uff5c', '\uff02': // fullwidth ( ) < > | "
		return true
	}
	return unicode.IsSpace(r)
}

// trailASCII marks what is taken for sentence punctuation at the end of a
// bare URL: . , : ; ! ? ' * @ and an opening bracket.
var trailASCII [128]bool

func init() {
	for _, c := range ".,:;!?'*@([{" {
		trailASCII[c] = true
	}
}

// trimTrailing drops sentence punctuation from the end of b[p:end]. An
// apostrophe stays when it closes one inside the URL ('quoted').
func trimTrailing(b []byte, p, end int) int {
	quotes := -1
	for end > p {
		c := b[end-1]
		if c < utf8.RuneSelf {
			if !trailASCII[c] {
				return end
			}
			if c == '\'' {
				if quotes < 0 {
					quotes = bytes.Count(b[p:end], []byte{'\''})
				}
				if quotes%2 == 0 {
					return end
				}
				quotes--
			}
			end--
			continue
		}
		r, size := utf8.DecodeLastRune(b[p:end])
		switch r {
		case '。', '、', '，', '．', '？', '！', '：', '；', '…', '‥':
			end -= size
		default:
			return end
		}
	}
	return end
}

// validAuthority judges the part after "//" of a bare URL: login and
// hostport of RFC 1738 §3.1, read as text might hold them. The host is
// a name of letters, digits, "-", "." and "_" (not first or last) or
// non-ASCII letters of an internationalized name, or an IPv6 literal in
// brackets (RFC 2732); the port is decimal up to 65535. Only a file URL
// may have an empty host, and then a path (file:///etc/motd).
func validAuthority(a []byte, file bool) bool {
	ae := 0
	for ae < len(a) && a[ae] != '/' && a[ae] != '?' && a[ae] != '#' {
		ae++
	}
	hp := a[bytes.LastIndexByte(a[:ae], '@')+1 : ae]
	if len(hp) == 0 {
		return file && len(hp) == ae && ae < len(a) && a[ae] == '/'
	}
	var port []byte
	if hp[0] == '[' {
		cl := bytes.IndexByte(hp, ']')
		if cl < 3 {
			return false
		}
		for _, c := range hp[1:cl] {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':' || c == '.') {
				return false
			}
		}
		switch rest := hp[cl+1:]; {
		case len(rest) == 0:
		case rest[0] == ':':
			port = rest[1:]
		default:
			return false
		}
	} else {
		h := hp
		if k := bytes.IndexByte(hp, ':'); k >= 0 {
			h, port = hp[:k], hp[k+1:]
		}
		if len(h) == 0 || h[0] == '.' || h[0] == '-' || h[0] == '_' || h[len(h)-1] == '_' {
			return false
		}
		prev := byte(0)
		for _, c := range h {
			if c < utf8.RuneSelf && class[c]&bScheme == 0 && c != '_' || c == '+' || c == '.' && prev == '.' {
				return false
			}
			prev = c
		}
	}
	n := 0
	for _, c := range port {
		if c < '0' || c > '9' {
			return false
		}
		if n = n*10 + int(c-'0'); n > 65535 {
			return false
		}
	}
	return true
}

// newsEnd returns where a news URL whose part begins at b[p] ends, by
// the grammar of RFC 1738 §5:
//
//	newsurl   = "news:" grouppart
//	grouppart = "*" | group | article
//	group     = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
//	article   = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
//
// end bounds the run of URL characters; a final "." is the sentence's.
func newsEnd(b []byte, p, end int) int {
	if p < len(b) && b[p] == '*' {
		return p + 1
	}
	if at := bytes.IndexByte(b[p:end], '@'); at > 0 {
		k := p + at + 1
		for k < end && (class[b[k]]&bScheme != 0 && b[k] != '+') {
			k++
		}
		for k > p+at+1 && (b[k-1] == '.' || b[k-1] == '-') {
			k--
		}
		if k == p+at+1 {
			return p
		}
		return k
	}
	if p >= end || !isLetter(b[p]) {
		return p
	}
	k := p + 1
	for k < end && (class[b[k]]&bScheme != 0 || b[k] == '_') {
		k++
	}
	for b[k-1] == '.' {
		k--
	}
	return k
}
