package crawlrecord

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
)

// Rebuild keeps a page's outcome as its record says it, local policy's
// refusal included: a crawl.Report built from the records (the bulk
// crawl's) counts the links to a refused page as `locator crawl` does.
func TestRebuildPageStates(t *testing.T) {
	for _, st := range []access.State{access.StateOK, access.StateGone, access.StateRefused, access.StateError, access.StatePolicy} {
		line := `{"event":"page","url":"http://example.org/p","status":"` + string(st) + `","error":"why"}`
		var rec Any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		p, ok := rec.Rebuild().(*crawl.Page)
		if !ok {
			t.Fatalf("%s: not a page", line)
		}
		var f *crawl.Failure
		switch {
		case st == access.StateOK && p.Err != nil:
			t.Errorf("%s: error %v", st, p.Err)
		case st != access.StateOK && (!errors.As(p.Err, &f) || f.State != st):
			t.Errorf("%s: error %#v, want a Failure of that state", st, p.Err)
		}
	}
}

// FuzzRebuild: a record line read back (the bulk crawl's event files,
// its database: files another run wrote, or a person edited) rebuilds
// into an event of its kind or nil, never a panic.
func FuzzRebuild(f *testing.F) {
	for _, s := range []string{
		`{"event":"page","url":"http://example.org/","status":"ok","depth":1,"from":"http://example.org/a"}`,
		`{"event":"link","url":"gopher://h/1","from":"http://h/","ref":"gopher://h/1","element":"a","attr":"href","line":3,"column":9,"follow":true}`,
		`{"event":"checked","url":"ftp://h/x","status":"gone","code":"550","text":"no"}`,
		`{"event":"page","url":"%zz","status":"policy"}`, `{"event":"link","url":"","from":"x"}`, `{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var rec Any
		if json.Unmarshal([]byte(line), &rec) != nil {
			return
		}
		ev := rec.Rebuild()
		switch ev.(type) {
		case nil:
		case *crawl.Page:
			if rec.Event != "page" {
				t.Fatalf("%q: a page from a %q record", line, rec.Event)
			}
		case *crawl.Link:
			if rec.Event != "link" {
				t.Fatalf("%q: a link from a %q record", line, rec.Event)
			}
		case *crawl.Checked:
			if rec.Event != "checked" {
				t.Fatalf("%q: a check from a %q record", line, rec.Event)
			}
		default:
			t.Fatalf("%q: %T", line, ev)
		}
	})
}
