package archive

import (
	"encoding/json"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/locator"
)

// An entry is one line of a CDXJ index: a capture's key, its 14-digit
// timestamp, and where its record is. The JSON names are pywb's
// (url, mime, status, digest, length, offset, filename), so that pywb
// and warcio's cdx-index read and write the same lines.
type entry struct {
	key string
	ts  string
	entryJSON
}

type entryJSON struct {
	URL      string  `json:"url"`
	Mime     string  `json:"mime,omitempty"`
	Status   string  `json:"status,omitempty"`
	Digest   string  `json:"digest,omitempty"`
	Length   jsonInt `json:"length"`
	Offset   jsonInt `json:"offset"`
	Filename string  `json:"filename"`
	// Date is the record's WARC-Date to the microsecond, which the
	// timestamp cuts to the second (ours; other readers ignore it).
	Date string `json:"date,omitempty"`
	// Derived is, on the line of a page drawn from a capture for
	// players (derive.go), the WARC-Record-ID of that capture (ours;
	// other readers ignore it, and Reader.Lookup passes over the line).
	Derived string `json:"derived,omitempty"`
}

// A jsonInt is written as pywb writes offset and length, a string of
// digits, and read as a string or a number.
type jsonInt int64

func (n jsonInt) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strconv.FormatInt(int64(n), 10) + `"`), nil
}

func (n *jsonInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return fmt.Errorf("not an offset: %.20s", b)
	}
	*n = jsonInt(v)
	return nil
}

// line formats e as a CDXJ line with its newline.
func (e *entry) line() []byte { return e.appendLine(nil) }

// appendLine appends e as a CDXJ line with its newline: the octets
// json.Marshal makes of entryJSON (its field order, omitempty, its
// escapes), without its reflection, which costs more than the rest of
// recording a small page's index line.
func (e *entry) appendLine(dst []byte) []byte {
	dst = append(dst, e.key...)
	dst = append(dst, ' ')
	dst = append(dst, e.ts...)
	dst = append(dst, ` {"url":`...)
	dst = appendJSONString(dst, e.URL)
	if e.Mime != "" {
		dst = append(dst, `,"mime":`...)
		dst = appendJSONString(dst, e.Mime)
	}
	if e.Status != "" {
		dst = append(dst, `,"status":`...)
		dst = appendJSONString(dst, e.Status)
	}
	if e.Digest != "" {
		dst = append(dst, `,"digest":`...)
		dst = appendJSONString(dst, e.Digest)
	}
	dst = append(dst, `,"length":"`...)
	dst = strconv.AppendInt(dst, int64(e.Length), 10)
	dst = append(dst, `","offset":"`...)
	dst = strconv.AppendInt(dst, int64(e.Offset), 10)
	dst = append(dst, `","filename":`...)
	dst = appendJSONString(dst, e.Filename)
	if e.Date != "" {
		dst = append(dst, `,"date":`...)
		dst = appendJSONString(dst, e.Date)
	}
	if e.Derived != "" {
		dst = append(dst, `,"derived":`...)
		dst = appendJSONString(dst, e.Derived)
	}
	return append(dst, "}\n"...)
}

// appendJSONString appends s as encoding/json writes a string: a string
// of printable ASCII that needs no escape as it is, any other by
// json.Marshal itself (its \u escapes of <, > and &, U+2028, invalid
// UTF-8 made U+FFFD).
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			j, _ := json.Marshal(s)
			return append(dst, j...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// An IndexError says a line of a CDXJ index cannot be read.
type IndexError struct {
	File string
	Line int
	Msg  string
}

func (e *IndexError) Error() string {
	return fmt.Sprintf("archive: %s:%d: %s", e.File, e.Line, e.Msg)
}

// parseLine reads one CDXJ line (without its newline): key, a space,
// a timestamp of 14 digits (or fewer, pywb's rule for a shorter one), a
// space, a JSON object.
func parseLine(s string) (entry, error) {
	var e entry
	key, rest, ok := strings.Cut(s, " ")
	if !ok || key == "" {
		return e, fmt.Errorf("no key")
	}
	ts, js, ok := strings.Cut(rest, " ")
	if !ok || len(ts) == 0 || len(ts) > 14 || strings.Trim(ts, "0123456789") != "" {
		return e, fmt.Errorf("no timestamp")
	}
	if err := json.Unmarshal([]byte(js), &e.entryJSON); err != nil {
		return e, fmt.Errorf("bad JSON: %v", err)
	}
	if e.Filename == "" || e.URL == "" {
		return e, fmt.Errorf("no url or filename")
	}
	e.key, e.ts = key, ts
	return e, nil
}

// time returns when the capture was made, to the microsecond when the
// line says.
func (e *entry) time() time.Time {
	if t, err := parseDate(e.Date); err == nil {
		return t
	}
	ts := e.ts + "00000000000000"[len(e.ts):]
	t, _ := time.Parse("20060102150405", ts)
	return t
}

// cdxTimestamp is the timestamp of a CDXJ line (14 digits, UTC).
func cdxTimestamp(t time.Time) string {
	t = t.UTC()
	if t.Year() < 0 || t.Year() > 9999 {
		return t.Format("20060102150405")
	}
	var b [14]byte
	return string(appendDigits(b[:0], t, ""))
}

// Key returns the CDXJ key of u. For http and https it is the SURT key
// (Sort-friendly URI Reordering Transform) that Python's surt and
// warcio.js compute, pywb and ReplayWeb.page look up:
//   - the host in lower case, its labels in reverse order joined by
//     commas, an IPv4 address's too ("1,0,0,127", read as the WHATWG
//     URL Standard §3.5 reads one: "0x7f.1" is 127.0.0.1), without a leading
//     "www", "www2", ... label ("www.com" is "com"); an IPv6 address as
//     written in the URL, in brackets; a final dot kept as an empty
//     label, as warcio.js and a browser's URL keep it;
//   - ":" and the port when it is not the scheme's default;
//   - ")", then the path, its dot segments removed (RFC 3986 §5.2.4),
//     and query in lower case, the query's
//     arguments sorted; an empty query is none. Userinfo and fragment
//     are left out.
//
// For every other scheme it is the URL normalized (locator.Normalize:
// scheme and host in lower case, the default port dropped, escapes made
// canonical), without password and fragment, since SURT's rules are
// HTTP's: a Gopher selector or an FTP path is case-sensitive.
func Key(u *locator.URL) string {
	scheme := strings.ToLower(u.Scheme())
	if scheme == "http" || scheme == "https" {
		return surt(u)
	}
	p := locator.Normalize(u).Parts()
	p.Password, p.HasPassword = "", false
	p.Fragment, p.HasFragment = "", false
	if v, err := locator.Parse(p.String()); err == nil {
		return strings.ReplaceAll(v.String(), " ", "%20")
	}
	return strings.ReplaceAll(p.String(), " ", "%20")
}

func surt(u *locator.URL) string {
	host := strings.ToLower(u.Host())
	var b strings.Builder
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil && strings.Contains(host, ":") {
		b.WriteString("[" + strings.Trim(host, "[]") + "]")
	} else if ip, ok := whatwgIPv4(host); ok {
		labels := strings.Split(ip, ".")
		b.WriteString(labels[3] + "," + labels[2] + "," + labels[1] + "," + labels[0])
	} else {
		if rest, ok := strings.CutPrefix(host, "www"); ok {
			if i := strings.IndexByte(rest, '.'); i >= 0 && strings.Trim(rest[:i], "0123456789") == "" {
				host = rest[i+1:]
			}
		}
		labels := strings.Split(host, ".")
		for i := len(labels) - 1; i >= 0; i-- {
			b.WriteString(labels[i])
			if i > 0 {
				b.WriteByte(',')
			}
		}
	}
	if port := u.Port(); port != "" && port != strconv.Itoa(locator.DefaultPort(strings.ToLower(u.Scheme()))) {
		b.WriteString(":" + port)
	}
	b.WriteString(")")
	b.WriteString(strings.ToLower(removeDotSegments("/" + strings.TrimPrefix(u.Path(), "/"))))
	if u.HasSearch() && u.Search() != "" {
		args := strings.Split(strings.ToLower(u.Search()), "&")
		sort.Strings(args)
		b.WriteString("?" + strings.Join(args, "&"))
	}
	return strings.ReplaceAll(b.String(), " ", "%20")
}

// whatwgIPv4 reads host as the WHATWG URL Standard's IPv4 parser (§3.5)
// does, as a browser and warcio.js read it: a host whose last label is a
// number is an address of up to four parts, each decimal, octal (a
// leading 0) or hex (0x), the last filling the octets left.
func whatwgIPv4(host string) (string, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 || len(parts) == 0 {
		return "", false
	}
	num := func(p string) (uint64, bool) {
		base := 10
		switch {
		case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
			p, base = p[2:], 16
			if p == "" {
				return 0, true
			}
		case len(p) >= 2 && p[0] == '0':
			p, base = p[1:], 8
		}
		if p == "" || len(p) > 20 {
			return 0, false
		}
		v, err := strconv.ParseUint(p, base, 64)
		return v, err == nil
	}
	var n uint64
	for i, p := range parts {
		v, ok := num(p)
		if !ok {
			return "", false
		}
		if i < len(parts)-1 {
			if v > 255 {
				return "", false
			}
			n = n<<8 | v
			continue
		}
		rest := uint(8 * (5 - len(parts)))
		if v >= 1<<rest {
			return "", false
		}
		n = n<<rest | v
	}
	return fmt.Sprintf("%d.%d.%d.%d", n>>24&255, n>>16&255, n>>8&255, n&255), true
}

// removeDotSegments is RFC 3986 §5.2.4's, of a path that begins with
// "/".
func removeDotSegments(p string) string {
	if !strings.Contains(p, "/.") {
		return p
	}
	segs := strings.Split(p[1:], "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}

// oldIPKey is the key an index written before locator followed surt's
// rule for IP addresses holds for an http(s) URL of an IP host: the
// address as written ("127.0.0.1:8080)/"), so that such an index is
// still read; "" for any other URL.
func oldIPKey(u *locator.URL) string {
	scheme := strings.ToLower(u.Scheme())
	host := strings.ToLower(u.Host())
	if scheme != "http" && scheme != "https" || net.ParseIP(strings.Trim(host, "[]")) == nil {
		return ""
	}
	k := surt(u)
	n := len(strings.Trim(host, "[]")) // the reversed IPv4 address is as long
	if strings.HasPrefix(k, "[") {
		n += 2
	}
	return strings.Trim(host, "[]") + k[n:]
}
