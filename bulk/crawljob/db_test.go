package crawljob

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// TestParseEntry: the records of the crawl database, and the rule each
// bad one breaks.
func TestParseEntry(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{`{"url":"http://example.org/a","status":"unfetched","depth":1,"from":"http://example.org/"}`, ""},
		{`{"url":"gopher://example.org/1/menu/","status":"ok","depth":0,"fetched":"2026-12-07T19:00:00.5Z"}`, ""},
		{`{"url":"HTTP://Example.org/a","status":"unfetched","depth":0}`, "not as the crawl fetches it"},
		{`{"url":"http://example.org/a#f","status":"unfetched","depth":0}`, "not as the crawl fetches it"},
		{`{"url":"http://example.org/a","status":"lost","depth":0}`, "status \"lost\""},
		{`{"url":"http://example.org/a","status":"unfetched","depth":-1}`, "negative"},
		{`{"url":"http://example.org/a","status":"ok","depth":0}`, "fetched"},
		{`{"url":"http://example.org/a","status":"unfetched","depth":0,"fetched":"2026-12-07T19:00:00Z"}`, "fetched given"},
		{`{"url":"http://example.org/a","status":"ok","depth":0,"fetched":"2026-12-07T20:00:00+01:00"}`, "not as written"},
		{`{"url":"http://example.org/a","status":"unfetched","depth":0,"extra":1}`, "unknown field"},
		{`{"url":"http://example.org/a","status":"unfetched","depth":0} {}`, "more after the record"},
		{`{"url":"no scheme","status":"unfetched","depth":0}`, "url:"},
		{"{\"url\":\"http://example.org/\xff\",\"status\":\"unfetched\",\"depth\":0}", "not UTF-8"},
	} {
		e, err := ParseEntry([]byte(c.in))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.in, err, c.err)
		case err == nil && strings.TrimSuffix(e.Line(), "\n") != c.in:
			t.Errorf("%s: written back as %s", c.in, e.Line())
		}
	}
}

// FuzzCrawlDB: a record of the database is read or refused with its
// rule, never a panic; one read is written back as a record read as
// the same.
func FuzzCrawlDB(f *testing.F) {
	for _, s := range []string{
		`{"url":"http://example.org/a","status":"unfetched","depth":1,"from":"http://example.org/"}`,
		`{"url":"gopher://example.org/1/menu/","status":"ok","depth":0,"fetched":"2026-12-07T19:00:00.5Z"}`,
		`{"url":"ftp://u:p@example.org/d/","status":"gone","depth":3,"from":"ftp://example.org/","fetched":"2026-01-02T03:04:05Z"}`,
		`{"url":"http://example.org/a","status":"ok","depth":0}`,
		`{}`, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := ParseEntry(b)
		if err != nil {
			return
		}
		again, err := ParseEntry([]byte(strings.TrimSuffix(e.Line(), "\n")))
		if err != nil || again != e {
			t.Fatalf("%q read as %+v, written as %q, read back as %+v, %v", b, e, e.Line(), again, err)
		}
	})
}

// TestBadInputBeforeNetwork: a seed that is not a URL, an output that
// cannot be made, a crawl of other seeds in the output: each a
// *ConfigError (the command's exit 2), before any pipeline runs.
func TestBadInputBeforeNetwork(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	never := func(context.Context, *beam.Pipeline) (map[string]int64, error) {
		t.Fatal("a pipeline ran")
		return nil, nil
	}
	ok := []string{"http://127.0.0.1:1/"}
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"bad seed", Options{Seeds: []string{"http://[::1"}, Output: filepath.Join(dir, "a"), PerHost: 1, Scope: "prefix"}},
		{"no seed", Options{Output: filepath.Join(dir, "a"), PerHost: 1, Scope: "prefix"}},
		{"output under a file", Options{Seeds: ok, Output: filepath.Join(file, "out"), PerHost: 1, Scope: "prefix"}},
		{"bad scope", Options{Seeds: ok, Output: filepath.Join(dir, "a"), PerHost: 1, Scope: "site"}},
		{"bad include", Options{Seeds: ok, Output: filepath.Join(dir, "a"), PerHost: 1, Scope: "prefix", Include: []string{"("}}},
		{"warc on gs", Options{Seeds: ok, Output: "gs://bucket/out", PerHost: 1, Scope: "prefix", WARC: true}},
	} {
		_, err := Run(context.Background(), c.o, never)
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%s: %v, want a *ConfigError", c.name, err)
		}
	}
	// A crawl of other seeds.
	out := filepath.Join(dir, "held")
	if _, err := begin(Options{Seeds: []string{"http://127.0.0.1:1/x"}, Output: out}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "seeds"), []byte("http://127.0.0.1:1/x\n"), 0o644)
	_, err := Run(context.Background(), Options{Seeds: ok, Output: out, PerHost: 1, Scope: "prefix"}, never)
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "other seeds") {
		t.Errorf("other seeds: %v", err)
	}
}

// TestWACZDamagedDB: a record of the database that does not read ends
// the WACZ's making with its file and line, and no WACZ is left (nor a
// temporary): the pages would be wrong.
func TestWACZDamagedDB(t *testing.T) {
	out := t.TempDir()
	gen := filepath.Join(out, "db", genName(1))
	os.MkdirAll(gen, 0o755)
	os.MkdirAll(filepath.Join(out, "warc"), 0o755)
	good := Entry{URL: "http://127.0.0.1/a", Status: "ok", Fetched: "2026-01-02T03:04:05Z"}.Line()
	os.WriteFile(filepath.Join(gen, "crawldb-00000-of-00001.ndjson"), []byte(good+`{"url":"http://127.0.0.1/b","status":"fetched"}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(out, "warc", "index.cdxj"), nil, 0o644)
	wacz := filepath.Join(t.TempDir(), "crawl.wacz")
	err := packWACZ(Options{Output: out, WACZ: wacz}, State{Round: 1, DB: genName(1)}, nil)
	var re *RecordError
	if !errors.As(err, &re) || re.Line != 2 || !strings.Contains(re.Rule, "status") {
		t.Fatalf("packWACZ: %v, want a RecordError of line 2's status", err)
	}
	if left, _ := os.ReadDir(filepath.Dir(wacz)); len(left) > 0 {
		t.Errorf("left %v", left)
	}
}
