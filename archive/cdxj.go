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

// Key returns the CDXJ key of u. For http and https it is the SURT pywb
// makes (Sort-friendly URI Reordering Transform): the host's labels in
// reverse order, lower case, without a leading "www.", a port that is
// not the scheme's default, ")", then the path and query in lower case
// with the query's arguments sorted; userinfo and fragment are left out.
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
	host := strings.TrimSuffix(strings.ToLower(u.Host()), ".")
	var b strings.Builder
	if net.ParseIP(strings.Trim(host, "[]")) != nil {
		b.WriteString(host)
	} else {
		labels := strings.Split(host, ".")
		if len(labels) > 2 && strings.HasPrefix(labels[0], "www") && strings.Trim(labels[0][3:], "0123456789") == "" {
			labels = labels[1:]
		}
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
	b.WriteString(")/")
	b.WriteString(strings.ToLower(u.Path()))
	if u.HasSearch() {
		args := strings.Split(strings.ToLower(u.Search()), "&")
		sort.Strings(args)
		b.WriteString("?" + strings.Join(args, "&"))
	}
	return strings.ReplaceAll(b.String(), " ", "%20")
}
