package gateway_test

// Two crawls of the same URLs, a month apart, each written by package
// archive to its own WARC file, served by the gateway in pywb's URL
// layout (package wayback): the CDX API's rows, the Memento headers
// (RFC 7089 §2), the TimeGate (§4.2.1), the TimeMap (§5) and the
// capture list, read as a client reads them.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/archive"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/wayback"
)

// shifted records through w with every record's date moved by d: the
// first crawl, made a month before the second.
type shifted struct {
	w *archive.Writer
	d time.Duration
}

func (s shifted) Record(r *access.Record) error {
	if r.Date.IsZero() {
		r.Date = time.Now().UTC()
	}
	r.Date = r.Date.Add(s.d)
	return s.w.Record(r)
}

// crawl fetches urls, recording them to a new WARC file at path with
// dates moved by d.
func crawl(t *testing.T, path string, d time.Duration, allow access.Policy, urls ...string) {
	t.Helper()
	w, err := archive.Create(path, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := &access.Client{Recorder: shifted{w, d}, Policy: allow}
	for _, u := range urls {
		res, err := c.Get(context.Background(), loctest.MustParse(t, u))
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if res.Listing != nil {
			res.Listing.ReadAll()
		} else {
			buf := make([]byte, 1<<20)
			for {
				if _, err := res.Body.Read(buf); err != nil {
					break
				}
			}
		}
		if err := res.Close(); err != nil {
			t.Fatal(err)
		}
	}
	c.CloseIdle()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// A link is one link-value of a Link header or TimeMap (RFC 8288 §3).
type link struct {
	uri    string
	params map[string]string
}

// parseLinks reads a link-format list (RFC 8288 §3, RFC 6690): links
// separated by commas outside <> and quoted strings.
func parseLinks(t *testing.T, s string) []link {
	t.Helper()
	var out []link
	s = strings.TrimSpace(s)
	for s != "" {
		if s[0] != '<' {
			t.Fatalf("a link does not begin with <: %.80q", s)
		}
		end := strings.IndexByte(s, '>')
		if end < 0 {
			t.Fatalf("no > in %.80q", s)
		}
		l := link{uri: s[1:end], params: map[string]string{}}
		s = strings.TrimSpace(s[end+1:])
		for strings.HasPrefix(s, ";") {
			s = strings.TrimSpace(s[1:])
			eq := strings.IndexByte(s, '=')
			if eq < 0 {
				t.Fatalf("a parameter without =: %.80q", s)
			}
			name := strings.ToLower(strings.TrimSpace(s[:eq]))
			s = strings.TrimSpace(s[eq+1:])
			var val string
			if strings.HasPrefix(s, `"`) {
				q := strings.IndexByte(s[1:], '"')
				if q < 0 {
					t.Fatalf("an unterminated quoted string: %.80q", s)
				}
				val, s = s[1:q+1], strings.TrimSpace(s[q+2:])
			} else {
				e := strings.IndexAny(s, ";,")
				if e < 0 {
					e = len(s)
				}
				val, s = strings.TrimSpace(s[:e]), strings.TrimSpace(s[e:])
			}
			l.params[name] = val
		}
		out = append(out, l)
		if strings.HasPrefix(s, ",") {
			s = strings.TrimSpace(s[1:])
		} else if s != "" {
			t.Fatalf("after a link: %.80q", s)
		}
	}
	return out
}

// rels maps each relation type to the link that has it (RFC 8288
// §3.3: rel holds types separated by spaces).
func rels(t *testing.T, links []link) map[string][]link {
	m := map[string][]link{}
	for _, l := range links {
		for r := range strings.FieldsSeq(l.params["rel"]) {
			m[r] = append(m[r], l)
		}
	}
	return m
}

func TestWaybackTwoCrawls(t *testing.T) {
	www := t.TempDir()
	write(t, filepath.Join(www, "index.html"), "<title>v1</title>first crawl", 0o644)
	write(t, filepath.Join(www, "page.html"), "page one", 0o644)
	ng := peer.Nginx(t, www, peer.NginxConfig{Connections: 16, HTTP: "types { text/html html; }"})
	gph := t.TempDir()
	write(t, filepath.Join(gph, "File.txt"), "gopher v1\n", 0o644)
	gs := peer.Pygopherd(t, gph)
	allow := access.Policy{Allow: rules(t, "127.0.0.1")}
	index := "http://" + ng.Addr + "/index.html"
	page := "http://" + ng.Addr + "/page.html"
	gfile := "gopher://" + gs.Addr + "/0/File.txt"
	gmenu := "gopher://" + gs.Addr + "/1/"
	dir := t.TempDir()
	w1, w2 := filepath.Join(dir, "crawl1.warc.gz"), filepath.Join(dir, "crawl2.warc.gz")
	const month = 30 * 24 * time.Hour
	crawl(t, w1, -month, allow, index, page, gfile, gmenu)
	write(t, filepath.Join(www, "index.html"), "<title>v2</title>second crawl", 0o644)
	write(t, filepath.Join(gph, "File.txt"), "gopher v2\n", 0o644)
	crawl(t, w2, 0, allow, index, page, gfile, gmenu)
	// The first crawl's index is lost: it is made of the WARC file.
	if err := os.Remove(w1 + ".cdxj"); err != nil {
		t.Fatal(err)
	}
	rd, err := archive.Open(w1, w2)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	ix, err := wayback.Open(wayback.FileSource(w1), wayback.FileSource(w2))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.Len() != 8 {
		t.Fatalf("%d captures in the index, want 8", ix.Len())
	}
	gw, _ := startGateway(t, gateway.Config{Policy: allow, Archive: rd, Wayback: ix})

	// The CDX server API: both captures of index.html, oldest first.
	type cdxRow map[string]string
	cdx := func(q string) (int, []cdxRow) {
		t.Helper()
		res, body := get(t, gw.URL+"/web/cdx?"+q)
		if res.StatusCode != http.StatusOK {
			return res.StatusCode, nil
		}
		var rows []cdxRow
		for l := range strings.SplitSeq(strings.TrimSpace(body), "\n") {
			if l == "" {
				continue
			}
			var r cdxRow
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("%s: %q: %v", q, l, err)
			}
			rows = append(rows, r)
		}
		return res.StatusCode, rows
	}
	_, rows := cdx("output=json&url=" + url.QueryEscape(index))
	if len(rows) != 2 {
		t.Fatalf("%d rows for %s: %v", len(rows), index, rows)
	}
	key := archive.Key(loctest.MustParse(t, index))
	for i, r := range rows {
		want := []string{"crawl1.warc.gz", "crawl2.warc.gz"}[i]
		if r["urlkey"] != key || r["url"] != index || r["mime"] != "text/html" || r["status"] != "200" ||
			r["filename"] != want || !strings.HasPrefix(r["digest"], "sha1:") || r["offset"] == "" || r["length"] == "" || len(r["timestamp"]) != 14 {
			t.Errorf("row %d: %v", i, r)
		}
	}
	ts1, ts2 := rows[0]["timestamp"], rows[1]["timestamp"]
	t1, t2 := tsTime(t, ts1), tsTime(t, ts2)
	if d := t2.Sub(t1); d < month-time.Minute || d > month+time.Minute {
		t.Fatalf("the crawls' timestamps %s and %s are not a month apart", ts1, ts2)
	}
	// The row's offset and length name the record in its file.
	if _, r2 := cdx("output=json&fl=offset,length,filename&sort=reverse&limit=1&url=" + url.QueryEscape(index)); len(r2) != 1 || r2[0]["offset"] != rows[1]["offset"] || r2[0]["filename"] != "crawl2.warc.gz" || len(r2[0]) != 3 {
		t.Errorf("sort=reverse&limit=1&fl=: %v", r2)
	}
	if _, r := cdx("output=json&url=" + url.QueryEscape("http://"+ng.Addr+"/*")); len(r) != 4 {
		t.Errorf("prefix: %d rows, want 4: %v", len(r), r)
	}
	if _, r := cdx("output=json&matchType=host&url=" + url.QueryEscape(page)); len(r) != 4 {
		t.Errorf("host: %d rows, want 4", len(r))
	}
	if _, r := cdx("output=json&from=" + ts2[:8] + "&url=" + url.QueryEscape(index)); len(r) != 1 || r[0]["timestamp"] != ts2 {
		t.Errorf("from=%s: %v", ts2[:8], r)
	}
	if _, r := cdx("output=json&filter=!~url:.*index&url=" + url.QueryEscape("http://"+ng.Addr+"/*")); len(r) != 2 || r[0]["url"] != page {
		t.Errorf("filter=!~url:.*index: %v", r)
	}
	// A gopher key stays case-sensitive: File.txt is not file.txt.
	if _, r := cdx("output=json&url=" + url.QueryEscape(gfile)); len(r) != 2 || r[0]["url"] != gfile {
		t.Errorf("gopher: %v", r)
	}
	if _, r := cdx("output=json&url=" + url.QueryEscape(strings.Replace(gfile, "File", "file", 1))); len(r) != 0 {
		t.Errorf("gopher, another case: %v", r)
	}
	// The default output is CDXJ: key, timestamp, the index's JSON.
	if res, body := get(t, gw.URL+"/web/cdx?url="+url.QueryEscape(gfile)); res.StatusCode != 200 ||
		!strings.HasPrefix(body, archive.Key(loctest.MustParse(t, gfile))+" ") || strings.Count(body, "\n") != 2 {
		t.Errorf("cdxj: %d %q", res.StatusCode, body)
	}
	// Bounded: a huge limit is MaxRows; a regular expression too
	// large for RE2's bounds, a bad one, limit=0: 400.
	if code, r := cdx("output=json&limit=99999999999999999999999&url=" + url.QueryEscape(index)); code != 200 || len(r) != 2 {
		t.Errorf("a huge limit: %d %v", code, r)
	}
	for _, q := range []string{"filter=~url:" + url.QueryEscape("((((a{100}){100}){100}){100})"), "filter=~url:(", "limit=0", "limit=-1", "matchType=all", "sort=closest", "from=2026x"} {
		if code, _ := cdx(q + "&url=" + url.QueryEscape(index)); code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", q, code)
		}
	}
	// RE2: a pattern that is exponential for a backtracking engine,
	// over every row, answers.
	if code, r := cdx("output=json&filter=~url:" + url.QueryEscape("(h*)*(t*)*(p*)*$x") + "&url=" + url.QueryEscape("http://"+ng.Addr+"/*")); code != 200 || len(r) != 0 {
		t.Errorf("a backtracking pattern: %d %v", code, r)
	}

	// The TimeGate (RFC 7089 §4.2.1): 302 to the memento closest to
	// Accept-Datetime, Vary, Link original and timemap, no
	// Memento-Datetime; the latest without Accept-Datetime.
	tg := gw.URL + "/web/" + index
	for _, c := range []struct {
		hdr  []string
		want string
	}{
		{[]string{"Accept-Datetime", t1.Add(24 * time.Hour).Format(http.TimeFormat)}, ts1},
		{[]string{"Accept-Datetime", t2.Add(-24 * time.Hour).Format(http.TimeFormat)}, ts2},
		{[]string{"Accept-Datetime", "Mon, 01 Jan 1990 00:00:00 GMT"}, ts1},
		{nil, ts2},
	} {
		res, _ := get(t, tg, c.hdr...)
		if res.StatusCode != http.StatusFound || res.Header.Get("Location") != gw.URL+"/web/"+c.want+"/"+index ||
			!strings.EqualFold(res.Header.Get("Vary"), "accept-datetime") || res.Header.Get("Memento-Datetime") != "" {
			t.Errorf("TimeGate %v: %d Location %q Vary %q Memento-Datetime %q", c.hdr, res.StatusCode, res.Header.Get("Location"), res.Header.Get("Vary"), res.Header.Get("Memento-Datetime"))
			continue
		}
		r := rels(t, parseLinks(t, res.Header.Get("Link")))
		if len(r["original"]) != 1 || r["original"][0].uri != index || len(r["timemap"]) != 1 ||
			r["timemap"][0].uri != gw.URL+"/web/timemap/link/"+index || r["timemap"][0].params["type"] != "application/link-format" {
			t.Errorf("TimeGate Link: %q", res.Header.Get("Link"))
		}
	}
	if res, _ := get(t, tg, "Accept-Datetime", "yesterday"); res.StatusCode != http.StatusBadRequest {
		t.Errorf("a bad Accept-Datetime: %d, want 400 (RFC 7089 §4.5.3)", res.StatusCode)
	}

	// The mementos (RFC 7089 §2.1.1, §2.2): the bytes of each crawl,
	// Memento-Datetime, and Link with first, prev, next, last.
	for i, c := range []struct {
		ts, body, other, rel string
	}{
		{ts1, "first crawl", ts2, "next"},
		{ts2, "second crawl", ts1, "prev"},
	} {
		res, body := get(t, gw.URL+"/web/"+c.ts+"/"+index)
		if res.StatusCode != 200 || !strings.Contains(body, c.body) {
			t.Fatalf("memento %s: %d %q", c.ts, res.StatusCode, body)
		}
		md, err := http.ParseTime(res.Header.Get("Memento-Datetime"))
		if err != nil || md.UTC().Format("20060102150405") != c.ts {
			t.Errorf("memento %s: Memento-Datetime %q", c.ts, res.Header.Get("Memento-Datetime"))
		}
		if res.Header.Get("Vary") != "" {
			t.Errorf("memento %s: Vary %q (RFC 7089 §4.2.1: not on a URI-M)", c.ts, res.Header.Get("Vary"))
		}
		r := rels(t, parseLinks(t, res.Header.Get("Link")))
		if r["original"][0].uri != index || r["timegate"][0].uri != gw.URL+"/web/"+index || r["timemap"][0].uri != gw.URL+"/web/timemap/link/"+index {
			t.Errorf("memento %s: Link %q", c.ts, res.Header.Get("Link"))
		}
		o := r[c.rel]
		if len(o) != 1 || o[0].uri != gw.URL+"/web/"+c.other+"/"+index || len(r["memento"]) != 2 {
			t.Errorf("memento %s: no %s memento: %q", c.ts, c.rel, res.Header.Get("Link"))
		} else if dt, err := http.ParseTime(o[0].params["datetime"]); err != nil || dt.UTC().Format("20060102150405") != c.other {
			t.Errorf("memento %s: %s's datetime %q", c.ts, c.rel, o[0].params["datetime"])
		}
		first, last := r["first"], r["last"]
		if len(first) != 1 || len(last) != 1 || first[0].uri != gw.URL+"/web/"+ts1+"/"+index || last[0].uri != gw.URL+"/web/"+ts2+"/"+index {
			t.Errorf("memento %d: first %v last %v", i, first, last)
		}
	}
	// Of gopher too: the text of each crawl.
	for _, c := range []struct{ ts, want string }{{ts1, "gopher v1"}, {ts2, "gopher v2"}} {
		_, g := cdx("output=json&fl=timestamp&closest=" + c.ts + "&sort=closest&limit=1&url=" + url.QueryEscape(gfile))
		if len(g) != 1 {
			t.Fatalf("gopher closest to %s: %v", c.ts, g)
		}
		res, body := get(t, gw.URL+"/web/"+g[0]["timestamp"]+"/"+gfile)
		if res.StatusCode != 200 || !strings.Contains(body, c.want) || res.Header.Get("Memento-Datetime") == "" {
			t.Errorf("gopher memento %s: %d %q", g[0]["timestamp"], res.StatusCode, body)
		}
	}
	// A menu's memento: its links lead to the captures of its time,
	// and the first crawl's menu to the first crawl's file.
	_, m := cdx("output=json&fl=timestamp&limit=1&url=" + url.QueryEscape(gmenu))
	if len(m) != 1 {
		t.Fatalf("the menu's captures: %v", m)
	}
	res, body := get(t, gw.URL+"/web/"+m[0]["timestamp"]+"/"+gmenu)
	item := "/web/" + m[0]["timestamp"] + "/" + gfile
	if res.StatusCode != 200 || !strings.Contains(body, `href="`+item+`"`) {
		t.Fatalf("the menu's memento: %d, no link to %s:\n%s", res.StatusCode, item, body)
	}
	// The file's capture of the same second, or a 302 to the closest.
	res, body = get(t, gw.URL+item)
	if res.StatusCode == http.StatusFound {
		res, body = get(t, res.Header.Get("Location"))
	}
	if res.StatusCode != 200 || !strings.Contains(body, "gopher v1") {
		t.Errorf("the menu's item, at the menu's time: %d %q", res.StatusCode, body)
	}

	// A timestamp that is no capture's: a 302 to the closest one's
	// (pywb's redirect_to_exact).
	res, _ = get(t, gw.URL+"/web/"+ts1[:6]+"/"+index)
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != gw.URL+"/web/"+ts1+"/"+index {
		t.Errorf("an inexact timestamp: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := get(t, gw.URL+"/web/"+ts1+"/http://"+ng.Addr+"/none.html"); res.StatusCode != http.StatusNotFound {
		t.Errorf("no capture: %d", res.StatusCode)
	}

	// The TimeMap (RFC 7089 §5).
	res, body = get(t, gw.URL+"/web/timemap/link/"+index)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/link-format" {
		t.Fatalf("TimeMap: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	tm := rels(t, parseLinks(t, body))
	self := tm["self"]
	if len(tm["original"]) != 1 || tm["original"][0].uri != index || len(self) != 1 || self[0].uri != gw.URL+"/web/timemap/link/"+index ||
		len(tm["timegate"]) != 1 || len(tm["memento"]) != 2 || tm["first"][0].uri != gw.URL+"/web/"+ts1+"/"+index || tm["last"][0].uri != gw.URL+"/web/"+ts2+"/"+index {
		t.Errorf("TimeMap:\n%s", body)
	}
	if from, err := http.ParseTime(self[0].params["from"]); err != nil || from.UTC().Format("20060102150405") != ts1 {
		t.Errorf("TimeMap from=%q", self[0].params["from"])
	}

	// The capture list, for a person.
	res, body = get(t, gw.URL+"/web/*/"+index)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(body, `href="/web/`+ts1+"/"+index+`"`) || !strings.Contains(body, `href="/web/`+ts2+"/"+index+`"`) || !strings.Contains(body, "2 captures") {
		t.Errorf("capture list: %d\n%s", res.StatusCode, body)
	}
}

func tsTime(t *testing.T, ts string) time.Time {
	t.Helper()
	v, err := time.Parse("20060102150405", ts)
	if err != nil {
		t.Fatal(fmt.Errorf("timestamp %q: %v", ts, err))
	}
	return v
}
