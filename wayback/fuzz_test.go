package wayback

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"strings"
	"testing"
)

// FuzzCDXQuery: any query string either is a *QueryError or runs on
// the test index within its bounds: at most Limit rows, each of the
// key range and time range asked for, written in every output format.
func FuzzCDXQuery(f *testing.F) {
	for _, s := range []string{
		"url=example.com", "url=*.example.com&output=json", "url=example.com/*&filter=!~url:.*a&limit=2",
		"url=example.com&sort=closest&closest=2015&fl=timestamp", "url=gopher://example.com/&matchType=domain&output=text",
		"url=example.com&from=2014&to=2015&sort=reverse&output=link", "url=news:x", "url=ftp://a/*&filter==status:200",
		"url=http://*.", "url=%2A", "url=*&matchType=host",
	} {
		f.Add(s)
	}
	ix, err := Open(testSources(nil)...)
	if err != nil {
		f.Fatal(err)
	}
	defer ix.Close()
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := parseQuery(v)
		if err != nil {
			if _, ok := err.(*QueryError); !ok {
				t.Fatalf("%q: %T %v", raw, err, err)
			}
			return
		}
		if q.Limit < 1 || q.Limit > MaxRows || len(q.From) != 14 || len(q.To) != 14 {
			t.Fatalf("%q: %+v", raw, q)
		}
		n := 0
		err = ix.Query(context.Background(), q, func(r *Row) error {
			n++
			if !strings.HasPrefix(r.URLKey+" ", q.prefix) || r.Timestamp < q.From || r.Timestamp > q.To {
				t.Fatalf("%q: row %+v outside prefix %q, %s-%s", raw, r, q.prefix, q.From, q.To)
			}
			return nil
		})
		if err != nil || n > q.Limit {
			t.Fatalf("%q: %d rows, %v", raw, n, err)
		}
		for _, o := range []string{"cdxj", "json", "text", "link"} {
			q.Output = o
			if err := ix.WriteRows(context.Background(), io.Discard, q, func(r *Row) string { return r.URL }, "web"); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzRowJSON: a line's object read by parseRow (by hand when it is
// flat) gives the fields encoding/json gives, or an error when
// encoding/json gives one.
func FuzzRowJSON(f *testing.F) {
	for _, s := range []string{
		`{"url":"http://a/","mime":"text/html","status":"200","length":12,"offset":"3","filename":"f"}`,
		`{"url":"http://a/\u00e9\"","URL":"x","url":"y"}`, `{}`, ` { "date" : null , "status": true } `,
		`{"url":"a","x":{"y":[1,2]}}`, `{"length":-0.5e+3}`, "{\"url\":\"\xff\"}", `{"url":"a",}`, `{"url"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, js string) {
		got, err := parseRow([]byte("k 2014 " + js))
		var j rowJSON
		jerr := json.Unmarshal([]byte(js), &j)
		if (err != nil) != (jerr != nil) {
			t.Fatalf("%q: parseRow %v, encoding/json %v", js, err, jerr)
		}
		if err != nil {
			return
		}
		want := []string{string(j.URL), string(j.Mime), string(j.Status), string(j.Digest), string(j.Length), string(j.Offset), string(j.Filename), string(j.Date)}
		for i := range rowFields {
			if *got.field(i) != want[i] {
				t.Fatalf("%q: %s is %q, encoding/json reads %q", js, rowFields[i], *got.field(i), want[i])
			}
		}
	})
}
