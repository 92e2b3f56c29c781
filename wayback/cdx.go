package wayback

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// A Row is one capture of the index: a CDXJ line read.
type Row struct {
	URLKey    string
	Timestamp string // 14 digits
	URL       string
	Mime      string
	Status    string
	Digest    string
	Length    string
	Offset    string
	Filename  string
	// Date is the record's WARC-Date (RFC 3339, to the microsecond)
	// when the line has it (archive.Writer's "date"), else "".
	Date string
	js   []byte // the line's JSON object
}

// flexString reads a JSON string, or a number as its digits (tools
// write offset and length either way).
type flexString string

func (s *flexString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = flexString(v)
		return nil
	}
	if string(b) == "null" {
		return nil
	}
	*s = flexString(b)
	return nil
}

type rowJSON struct {
	URL      flexString `json:"url"`
	Mime     flexString `json:"mime"`
	Status   flexString `json:"status"`
	Digest   flexString `json:"digest"`
	Length   flexString `json:"length"`
	Offset   flexString `json:"offset"`
	Filename flexString `json:"filename"`
	Date     flexString `json:"date"`
}

// splitLine returns a line's key, timestamp (padded to 14 digits) and
// JSON; lineProblem checked the form when the index was made.
func splitLine(line []byte) (key, ts string, js []byte) {
	k, rest, _ := bytes.Cut(line, []byte(" "))
	t, js, _ := bytes.Cut(rest, []byte(" "))
	ts = string(t)
	if len(ts) < 14 {
		ts += strings.Repeat("0", 14-len(ts))
	}
	return string(k), ts, js
}

func parseRow(line []byte) (*Row, error) {
	key, ts, js := splitLine(line)
	r := &Row{URLKey: key, Timestamp: ts, js: js}
	// A line's object is read by hand (five times faster than
	// encoding/json), by encoding/json when it is not flat, or names a
	// field twice or in another case ("URL"), which encoding/json reads
	// its own way.
	slow := false
	var seen [len(rowFields)]bool
	err := parseFlat(js, func(k, v string) {
		for i, f := range rowFields {
			switch {
			case k == f && !seen[i]:
				seen[i] = true
				*r.field(i) = v
				return
			case strings.EqualFold(k, f):
				slow = true
				return
			}
		}
	})
	if err == nil && !slow {
		return r, nil
	}
	var j rowJSON
	if err := json.Unmarshal(js, &j); err != nil {
		return nil, fmt.Errorf("wayback: the index line of %.100q: %v", key, err)
	}
	return &Row{URLKey: key, Timestamp: ts, URL: string(j.URL), Mime: string(j.Mime), Status: string(j.Status),
		Digest: string(j.Digest), Length: string(j.Length), Offset: string(j.Offset), Filename: string(j.Filename),
		Date: string(j.Date), js: js}, nil
}

// rowFields are the JSON names parseRow reads, in Row.field's order.
var rowFields = [...]string{"url", "mime", "status", "digest", "length", "offset", "filename", "date"}

func (r *Row) field(i int) *string {
	return [...]*string{&r.URL, &r.Mime, &r.Status, &r.Digest, &r.Length, &r.Offset, &r.Filename, &r.Date}[i]
}

// Field returns the field named f (one of fields), "" when the line has
// none.
func (r *Row) Field(f string) string {
	switch f {
	case "urlkey":
		return r.URLKey
	case "timestamp":
		return r.Timestamp
	case "url":
		return r.URL
	case "mime":
		return r.Mime
	case "status":
		return r.Status
	case "digest":
		return r.Digest
	case "length":
		return r.Length
	case "offset":
		return r.Offset
	case "filename":
		return r.Filename
	}
	return ""
}

// Time is when the capture was made: its Date, else its Timestamp.
func (r *Row) Time() time.Time {
	if t, err := time.Parse(time.RFC3339Nano, r.Date); err == nil {
		return t
	}
	return tsTime(r.Timestamp)
}

// tsTime reads a 14-digit timestamp (UTC), a month or day of 00 (a
// short timestamp padded: "2016" is 20160000000000) read as 01; one
// that is not a time (20141399...) is the zero time.
func tsTime(ts string) time.Time {
	if len(ts) == 14 {
		b := []byte(ts)
		for _, i := range []int{4, 6} {
			if b[i] == '0' && b[i+1] == '0' {
				b[i+1] = '1'
			}
		}
		ts = string(b)
	}
	t, _ := time.Parse("20060102150405", ts)
	return t
}

// Query calls fn with each row of the index that q selects, in q's
// order, at most q.Limit of them, having read at most MaxScan lines; it
// stops at fn's error or ctx's end, returning it.
func (ix *Index) Query(ctx context.Context, q *Query, fn func(*Row) error) error {
	lo, hi, err := ix.keyRange(q.prefix)
	if err != nil {
		return err
	}
	n, scanned := 0, 0
	br := &blockReader{ix: ix}
	visit := func(i int) (bool, error) {
		scanned++
		if scanned%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		line, err := br.line(i)
		if err != nil {
			return false, err
		}
		key, ts, _ := splitLine(line)
		if ts < q.From || ts > q.To || !q.inDomain(key) {
			return scanned < MaxScan, nil
		}
		r, err := parseRow(line)
		if err != nil {
			return false, err
		}
		for i := range q.Filters {
			if !q.Filters[i].match(r) {
				return scanned < MaxScan, nil
			}
		}
		if err := fn(r); err != nil {
			return false, err
		}
		n++
		return n < q.Limit && scanned < MaxScan, nil
	}
	if q.Closest != "" {
		return ix.closestOrder(br, lo, hi, q.Closest, visit)
	}
	if q.Reverse {
		for i := hi - 1; i >= lo; i-- {
			if more, err := visit(i); !more || err != nil {
				return err
			}
		}
		return nil
	}
	for i := lo; i < hi; i++ {
		if more, err := visit(i); !more || err != nil {
			return err
		}
	}
	return nil
}

// tsAt returns the timestamp of line i.
func (br *blockReader) tsAt(i int) (string, error) {
	line, err := br.line(i)
	if err != nil {
		return "", err
	}
	_, ts, _ := splitLine(line)
	return ts, nil
}

// firstAtOrAfter returns the first line of [lo, hi) (the lines of one
// key, sorted by timestamp) whose timestamp is ts or later.
func (br *blockReader) firstAtOrAfter(lo, hi int, ts string) (int, error) {
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		t, err := br.tsAt(m)
		if err != nil {
			return 0, err
		}
		if t < ts {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, nil
}

// closestOrder visits the lines of [lo, hi), one key's, from the one
// closest to ts outwards: of two equally far, the earlier first.
func (ix *Index) closestOrder(br *blockReader, lo, hi int, ts string, visit func(int) (bool, error)) error {
	p, err := br.firstAtOrAfter(lo, hi, ts)
	if err != nil {
		return err
	}
	at := tsTime(ts)
	i, j := p-1, p
	for i >= lo || j < hi {
		pick := j
		if i >= lo && j < hi {
			ti, err := br.tsAt(i)
			if err != nil {
				return err
			}
			tj, err := br.tsAt(j)
			if err != nil {
				return err
			}
			if at.Sub(tsTime(ti)) <= tsTime(tj).Sub(at) {
				pick = i
			}
		} else if i >= lo {
			pick = i
		}
		if pick == i {
			i--
		} else {
			j++
		}
		if more, err := visit(pick); !more || err != nil {
			return err
		}
	}
	return nil
}

// ContentType is the media type of a query's output.
func (q *Query) ContentType() string {
	switch q.Output {
	case "json":
		return "text/x-ndjson; charset=utf-8"
	case "text":
		return "text/plain; charset=utf-8"
	case "link":
		return "application/link-format"
	}
	return "text/x-cdxj; charset=utf-8"
}

// A rowWriter writes rows in a query's output format.
type rowWriter struct {
	q     *Query
	w     *bufio.Writer
	link  func(r *Row) string // the URI-M of a row (output=link)
	coll  string
	count int
}

func (rw *rowWriter) fields() []string {
	if len(rw.q.Fields) > 0 {
		return rw.q.Fields
	}
	return fields
}

func (rw *rowWriter) write(r *Row) error {
	w := rw.w
	switch rw.q.Output {
	case "text":
		for i, f := range rw.fields() {
			if i > 0 {
				w.WriteByte(' ')
			}
			v := r.Field(f)
			if v == "" {
				v = "-"
			}
			w.WriteString(strings.ReplaceAll(v, " ", "%20"))
		}
	case "json":
		w.WriteByte('{')
		first := true
		for _, f := range rw.fields() {
			v := r.Field(f)
			if v == "" {
				continue
			}
			if !first {
				w.WriteString(", ")
			}
			first = false
			k, _ := json.Marshal(f)
			b, _ := json.Marshal(v)
			w.Write(k)
			w.WriteString(": ")
			w.Write(b)
		}
		w.WriteByte('}')
	case "link":
		if rw.count > 0 {
			w.WriteString(",\n")
		}
		fmt.Fprintf(w, "<%s>; rel=\"memento\"; datetime=\"%s\"; collection=%s", rw.link(r), httpDate(r.Time()), strconv.Quote(rw.coll))
		rw.count++
		return nil
	default: // cdxj
		if len(rw.q.Fields) == 0 {
			w.WriteString(r.URLKey)
			w.WriteByte(' ')
			w.WriteString(r.Timestamp)
			w.WriteByte(' ')
			w.Write(r.js)
			break
		}
		var rest []string
		var lead []string
		for _, f := range rw.q.Fields {
			switch f {
			case "urlkey":
				lead = append(lead, r.URLKey)
			case "timestamp":
				lead = append(lead, r.Timestamp)
			default:
				if v := r.Field(f); v != "" {
					k, _ := json.Marshal(f)
					b, _ := json.Marshal(v)
					rest = append(rest, string(k)+": "+string(b))
				}
			}
		}
		for _, l := range lead {
			w.WriteString(l)
			w.WriteByte(' ')
		}
		w.WriteString("{" + strings.Join(rest, ", ") + "}")
	}
	rw.count++
	return w.WriteByte('\n')
}

// finish ends the output.
func (rw *rowWriter) finish() error {
	if rw.q.Output == "link" && rw.count > 0 {
		rw.w.WriteByte('\n')
	}
	return rw.w.Flush()
}

// WriteRows runs q on ix and writes its rows to w in q.Output's format;
// link returns a row's URI-M (output=link), coll the collection's name.
func (ix *Index) WriteRows(ctx context.Context, w io.Writer, q *Query, link func(*Row) string, coll string) error {
	rw := &rowWriter{q: q, w: bufio.NewWriterSize(w, 32<<10), link: link, coll: coll}
	if err := ix.Query(ctx, q, rw.write); err != nil {
		rw.w.Flush()
		return err
	}
	return rw.finish()
}

// httpDate is t as Memento-Datetime writes it (RFC 7089 §2.1.1: RFC
// 1123 date, GMT).
func httpDate(t time.Time) string { return t.UTC().Format(time.RFC1123[:len(time.RFC1123)-3] + "GMT") }
