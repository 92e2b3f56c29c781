package archive

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// responseHeadStrings is responseHead's HTTP case as it was written
// with strings (Fields, Split, ToLower): what the octet-wise one must
// find alike.
func responseHeadStrings(buf []byte) (head int64, status, mime string, chunked bool) {
	off := 0
	for {
		rest := buf[off:]
		end, sep := bytes.Index(rest, []byte("\r\n\r\n")), 4
		if e2 := bytes.Index(rest, []byte("\n\n")); e2 >= 0 && (end < 0 || e2 < end) {
			end, sep = e2, 2
		}
		if end < 0 {
			return -1, "", "", false
		}
		hdr := string(rest[:end])
		line, fields, _ := strings.Cut(hdr, "\n")
		parts := strings.Fields(line)
		if len(parts) < 2 || !strings.HasPrefix(parts[0], "HTTP/") {
			return -1, "", "", false
		}
		status = parts[1]
		if len(status) == 3 && status[0] == '1' && status != "101" {
			off += end + sep
			continue
		}
		for _, f := range strings.Split(fields, "\n") {
			name, value, ok := strings.Cut(f, ":")
			if !ok {
				continue
			}
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "transfer-encoding":
				chunked = strings.Contains(strings.ToLower(value), "chunked")
			case "content-type":
				mime = mediaType(value)
			}
		}
		return int64(off + end + sep), status, mime, chunked
	}
}

// TestResponseHead: the HTTP header of a response block is found as
// responseHeadStrings finds it, whatever its octets: folded case,
// letters outside ASCII that lower to ASCII ones, white space of
// Unicode, interim responses, no header at all.
func TestResponseHead(t *testing.T) {
	blocks := []string{
		httpResp, httpChunked,
		"HTTP/1.1 200 OK\r\nContent-Type: Text/HTML; charset=x\r\n\r\nbody",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\nTRANSFER-ENCODING: gzip, Chunked\n\n0\r\n\r\n",
		"HTTP/1.1 101 Switching\r\n\r\n",
		"HTTP/1.1 103 Early\r\n\r\n",
		"HTTP/1.0  \t 302\vFound\r\n content-type :\ttext/plain \r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encodİng: chunked\r\n\r\n",      // U+0130 lowers to "i"
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chun\u212aed\r\n\r\n", // the Kelvin sign lowers to "k"
		"HTTP/1.1 200 OK\r\ntranſfer-encoding: chunked\r\n\r\n",      // ſ folds to "s", lowers to itself
		"HTTP/1.1 200 OK\r\n\u00a0Content-Type: a/b\r\n\r\n",
		"HTTP/1.1\u0085200 OK\r\n\r\n",
		"HTTP/1.1\u00a0200 OK\r\n\r\n",
		"HTTP/1.1 2\xff0 OK\r\nContent-Type: \xff/\xfe\r\n\r\n",
		"HTTP/1.1\r\n\r\n", "HTTP/1.1 200", "", "\n\n", "ICY 200 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon\r\n:\r\n\r\n",
	}
	for _, b := range blocks {
		head, status, mime, chunked := responseHead("http", bytesBlock(b))
		wh, ws, wm, wc := responseHeadStrings([]byte(b))
		if head != wh || status != ws || mime != wm || chunked != wc {
			t.Errorf("%q: %d %q %q %v, want %d %q %q %v", b, head, status, mime, chunked, wh, ws, wm, wc)
		}
	}
}

// TestDates: a WARC-Date and a CDXJ timestamp are time.Format's, for a
// year of four digits and outside them.
func TestDates(t *testing.T) {
	for _, tm := range []time.Time{time.Now(), time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC),
		time.Date(999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("x", 3600)),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC), {}} {
		if got, want := warcDate(tm), tm.UTC().Format("2006-01-02T15:04:05.000000Z"); got != want {
			t.Errorf("warcDate %q, want %q", got, want)
		}
		if got, want := cdxTimestamp(tm), tm.UTC().Format("20060102150405"); got != want {
			t.Errorf("cdxTimestamp %q, want %q", got, want)
		}
	}
}
