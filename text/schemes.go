package text

// Which schemes a bare URL (one without a wrapper or "URL:" prefix) may
// have. Inside a wrapper any scheme is accepted: the brackets already say
// "this is a URL" (RFC 1738 Appendix). In prose only a known scheme is,
// or "note:" and "10:30" would be URLs.
//
// authority schemes are recognised only when "//" follows the colon: the
// common Internet scheme syntax of RFC 1738 §3.1. opaque schemes are
// recognised when their part shows the evidence evidence.go asks for.
type schemeKind uint8

const (
	unknownScheme schemeKind = iota
	authorityScheme
	opaqueScheme
)

// maxScheme is the longest scheme name looked for before a ":" in prose.
// The longest in the tables below is 14 bytes; anything past 32 is a word,
// not a scheme.
const maxScheme = 32

var schemes = map[string]schemeKind{}

func init() {
	// RFC 1738 §3: the schemes of the standard that use "//".
	for _, s := range []string{"ftp", "http", "gopher", "nntp", "telnet", "wais", "file", "prospero"} {
		schemes[s] = authorityScheme
	}
	// Later and common schemes written with "//".
	for _, s := range []string{
		"https", "ftps", "sftp", "tftp", "ssh", "scp", "git", "svn", "cvs", "hg",
		"irc", "ircs", "irc6", "ldap", "ldaps", "rtsp", "rtsps", "rtmp", "mms",
		"smb", "cifs", "nfs", "afp", "vnc", "rdp", "ws", "wss", "webcal", "feed",
		"dav", "davs", "gemini", "imap", "imaps", "pop", "pops", "smtp",
		"finger", "whois", "dict", "ipp", "ipps", "coap", "coaps", "snews",
		"postgres", "postgresql", "mysql", "mongodb", "redis", "rediss", "amqp",
		"amqps", "mqtt", "s3", "hdfs", "steam", "slack", "zoommtg", "zoomus",
		"chrome", "chrome-extension", "moz-extension", "rsync", "z39.50r",
		"z39.50s", "tn3270", "rlogin", "xri",
	} {
		schemes[s] = authorityScheme
	}
	// RFC 1738 §3.5 mailto and §3.6 news have no "//"; the others are
	// common schemes whose part is not the Internet syntax.
	for _, s := range []string{
		"mailto", "news", "urn", "tel", "fax", "sms", "xmpp", "sip", "sips",
		"im", "pres", "bitcoin", "cid", "mid", "magnet", "geo", "matrix",
		"callto", "skype", "facetime", "spotify",
	} {
		if schemes[s] == unknownScheme {
			schemes[s] = opaqueScheme
		}
	}
}

// Byte classes for the scanner, one table load per byte: a kind in the
// low bits and flags above.
const (
	bStop  uint8 = iota // ends a bare URL: space, controls, unsafe delimiters
	bURL                // may appear in a bare URL
	bOpen               // ( [ {
	bClose              // ) ] }
	bHigh               // first byte of a non-ASCII character: decided per rune
)

const (
	bScheme uint8 = 1 << (iota + 4) // lowalpha | hialpha | digit | "+" | "-" | "."
	bLetter                         // alpha
	bSpace                          // white space: SP, HT, LF, VT, FF, CR
	bCand                           // where a URL or a wrapper may be noticed: ":" "<"
)

const kindMask = 0x0f

var class [256]uint8

func init() {
	// RFC 1738 §2.2: alphanumerics, the "safe" $-_.+ and "extra" !*'(),
	// and the reserved ;/?:@=& may appear in a URL, and so may "%" of an
	// escape and "#" of a fragment (1993 draft). "~" is national but
	// common in real URLs. The rest of "national" and "punctuation"
	// (< > " { } | \ ^ [ ] `) are unsafe, and several delimit URLs in
	// text: they end a bare URL, except brackets, which nest (below).
	for c := 'a'; c <= 'z'; c++ {
		class[c] = bURL | bScheme | bLetter
		class[c-'a'+'A'] = bURL | bScheme | bLetter
	}
	for c := '0'; c <= '9'; c++ {
		class[c] = bURL | bScheme
	}
	for _, c := range "$-_.+!*',;/?:@=&%#~" {
		class[c] = bURL
	}
	for _, c := range "+-." {
		class[c] |= bScheme
	}
	for _, c := range "([{" {
		class[c] = bOpen
	}
	for _, c := range ")]}" {
		class[c] = bClose
	}
	for c := 0x80; c < 0x100; c++ {
		class[c] = bHigh
	}
	for _, c := range " \t\n\v\f\r" {
		class[c] = bStop | bSpace
	}
	class[':'] |= bCand
	class['<'] |= bCand
}

func isSchemeByte(c byte) bool { return class[c]&bScheme != 0 }
func isLetter(c byte) bool     { return class[c]&bLetter != 0 }
func isSpace(c byte) bool      { return class[c]&bSpace != 0 }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// lookupScheme returns the kind of the scheme spelled b, in any case.
func lookupScheme(b []byte) schemeKind {
	if len(b) == 0 || len(b) > maxScheme {
		return unknownScheme
	}
	var low [maxScheme]byte
	for i, c := range b {
		low[i] = lower(c)
	}
	return schemes[string(low[:len(b)])] // no allocation: map index of a converted slice
}
