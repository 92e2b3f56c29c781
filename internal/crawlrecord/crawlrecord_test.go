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
