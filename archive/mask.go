package archive

import (
	"bytes"
	"io"
	"strings"
)

// The octets a masked value is written as.
const masked = "****"

// maskCredentials returns an HTTP request's octets (RFC 9112 §2.1: a
// request line, header fields, an empty line, the content) with the
// credentials of its header masked, field by field: the value of
// Authorization and Proxy-Authorization after its auth-scheme (RFC
// 9110 §11.4: "Basic ****"), each cookie's value in Cookie (RFC 6265
// §4.2.1: "a=****; b=****"), the whole value of a field whose name
// names a secret (sensitiveField), and a password in an absolute-form
// request target (RFC 9112 §3.2.2, "http://u:****@h/"). The rest, the
// content included, is kept as it was; a request with nothing to mask
// is returned as it is. Only the first maxHeader octets are read as
// the header: no client here sends a longer one.
func maskCredentials(req block) (block, error) {
	head := readHeadOctets(req, maxHeader)
	end := len(head)
	if i := bytes.Index(head, []byte("\n\r\n")); i >= 0 {
		end = i + 1
	}
	if i := bytes.Index(head, []byte("\n\n")); i >= 0 && i+1 < end {
		end = i + 1
	}
	head = head[:end]
	out, changed := maskHead(head)
	if !changed {
		return req, nil
	}
	if int64(end) == req.Size() {
		return bytesBlock(out), nil
	}
	rest := io.NewSectionReader(req, int64(end), req.Size()-int64(end))
	return &joined{head: out, rest: rest}, nil
}

// maskHead masks the credentials of a request's header (the request
// line and field lines, each ending in LF or CRLF), reporting whether
// anything was masked.
func maskHead(head []byte) ([]byte, bool) {
	var out []byte
	changed := false
	first := true
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line = head[:i+1]
		}
		head = head[len(line):]
		var m []byte
		if first {
			m = maskTarget(line)
			first = false
		} else {
			m = maskField(line)
		}
		if m != nil {
			changed = true
		} else {
			m = line
		}
		out = append(out, m...)
	}
	return out, changed
}

// maskTarget masks the password of an absolute-form request target in
// the request line ("GET http://u:pw@h/ HTTP/1.1"), nil when it has none.
func maskTarget(line []byte) []byte {
	sp := bytes.IndexByte(line, ' ')
	if sp < 0 {
		return nil
	}
	t := line[sp+1:]
	i := bytes.Index(t, []byte("://"))
	if i < 0 {
		return nil
	}
	auth := t[i+3:]
	if j := bytes.IndexAny(auth, "/?# \r\n"); j >= 0 {
		auth = auth[:j]
	}
	at := bytes.LastIndexByte(auth, '@')
	if at < 0 {
		return nil
	}
	colon := bytes.IndexByte(auth[:at], ':')
	if colon < 0 {
		return nil
	}
	start := sp + 1 + i + 3 + colon + 1 // the password's first octet
	out := append([]byte(nil), line[:start]...)
	out = append(out, masked...)
	return append(out, line[sp+1+i+3+at:]...)
}

// maskField masks the value of a header field line that carries a
// credential, nil when it carries none. An obsolete line folding (RFC
// 9112 §5.2), which no client here sends, is a line of its own and is
// masked whole when it follows nothing.
func maskField(line []byte) []byte {
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 {
		return nil
	}
	name := bytes.TrimSpace(line[:colon])
	eol := len(line)
	for eol > colon+1 && (line[eol-1] == '\n' || line[eol-1] == '\r') {
		eol--
	}
	value := line[colon+1 : eol]
	lead := len(value) - len(bytes.TrimLeft(value, " \t"))
	v := value[lead:]
	if len(bytes.TrimSpace(v)) == 0 {
		return nil
	}
	var mv []byte
	switch {
	case equalLower(name, "authorization"), equalLower(name, "proxy-authorization"):
		// The auth-scheme stays ("Basic", "Bearer"): it is no secret.
		scheme := v
		if i := bytes.IndexAny(v, " \t"); i >= 0 {
			scheme = v[:i]
		} else {
			scheme = nil // a value of one token: all of it is the secret
		}
		if scheme != nil {
			mv = append(append(append(mv, scheme...), ' '), masked...)
		} else {
			mv = []byte(masked)
		}
	case equalLower(name, "cookie"):
		for i, pair := range bytes.Split(v, []byte(";")) {
			if i > 0 {
				mv = append(mv, ';')
			}
			n, _, ok := bytes.Cut(pair, []byte("="))
			if ok {
				mv = append(append(append(mv, n...), '='), masked...)
			} else if len(bytes.TrimSpace(pair)) > 0 {
				mv = append(append(mv, pair[:len(pair)-len(bytes.TrimLeft(pair, " "))]...), masked...)
			}
		}
	case sensitiveField(name):
		mv = []byte(masked)
	default:
		return nil
	}
	out := append([]byte(nil), line[:colon+1+lead]...)
	out = append(out, mv...)
	return append(out, line[eol:]...)
}

// secretWords are the words a header field's name holds when its value
// is a secret: X-Auth-Token, X-API-Key, X-Api-Secret, X-Session-Id,
// X-Password, X-CSRF-Token.
var secretWords = []string{"auth", "token", "key", "secret", "passw", "session", "credential", "cookie"}

// sensitiveField says whether a header field of this name carries a
// credential.
func sensitiveField(name []byte) bool {
	n := strings.ToLower(string(name))
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// joined is a block of head followed by rest.
type joined struct {
	head []byte
	rest *io.SectionReader
}

func (j *joined) Size() int64 { return int64(len(j.head)) + j.rest.Size() }

func (j *joined) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	if off < int64(len(j.head)) {
		n = copy(p, j.head[off:])
		if n == len(p) {
			return n, nil
		}
		off = int64(len(j.head))
	}
	m, err := j.rest.ReadAt(p[n:], off-int64(len(j.head)))
	return n + m, err
}
