package wayback

import (
	"context"
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
		q, err := ParseQuery(v)
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
