package urledit

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/rfc1738/locator"
)

// fuzzNames are the components and parts FuzzEdit sets.
var fuzzNames = []string{
	"scheme", "user", "password", "options", "host", "port", "path", "query", "fragment", "zoneid",
	"cwd", "name", "typecode", "type", "selector", "search", "plus", "group", "article",
	"database", "wtype", "wpath", "hsoname", "fields", "address",
}

// FuzzEdit makes edits chosen by the fuzzer on any input: none may
// panic, and each outcome is either a URL that conforms (and reads back
// as itself, and expands and marshals) or an *Error; one about a URL
// that could not be read or written names the offset in its text and
// the rule.
func FuzzEdit(f *testing.F) {
	f.Add("http://example.com/a?b=c#d", uint16(0), "x y", "seg", "k=v")
	f.Add("ftp://h/d/f;type=a", uint16(12<<8|1), "i", "a b", "x")
	f.Add("gopher://h/1/sel%09s", uint16(13<<8|4), "0", "", "")
	f.Add("news:comp.lang", uint16(17<<8), "alt.x", "", "")
	f.Add("example.com:88", uint16(1|2), "", "p", "q")
	f.Add("wais://h/db?x", uint16(15<<8|8), "two words", "", "a")
	f.Add("prospero://h/a;f=v", uint16(24<<8|4), "x=1;y=%3B", "", "")
	f.Add("mailto:a@b.example", uint16(25<<8), "c@d.example", "", "")
	f.Add("telnet://u@h:24", uint16(6<<8), "x", "", "")
	f.Add("imap://u:p;o@h/", uint16(3<<8|16), "z", "", "")
	f.Fuzz(func(t *testing.T, in string, op uint16, value, seg, pair string) {
		ed := Editor{
			Guess:       op&1 != 0,
			AcceptSpace: op&2 != 0,
			KeepPort:    op&32 != 0,
			DefaultPort: op&64 != 0,
			SortQuery:   op&128 != 0,
		}
		ed.Sets = []Set{{Name: fuzzNames[int(op>>8)%len(fuzzNames)], Value: value, Encoded: op&4 != 0, IfUnset: op&8 != 0}}
		if seg != "" {
			ed.AppendPath = []string{seg}
		}
		if pair != "" {
			switch op & 16 {
			case 0:
				ed.AppendQuery = []string{pair}
			default:
				ed.Replace, ed.Trim, ed.ReplaceAppend = []string{pair}, []string{pair}, true
			}
		}
		var rs []*Result
		var errs []error
		if op&0x1000 != 0 {
			rs, errs = ed.Build()
		} else {
			rs, errs = ed.Edit(in)
		}
		for _, err := range errs {
			if err != nil {
				checkError(t, err)
			}
		}
		for _, r := range rs {
			if r != nil {
				checkResult(t, r)
			}
		}
	})
}

func checkError(t *testing.T, err error) {
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %v is not an *Error", err, err)
	}
	if e.Message == "" {
		t.Fatalf("error %+v says nothing", e)
	}
	if e.Kind == KindRead || e.Kind == KindWrite {
		if e.Rule == "" || e.Offset < 0 || e.Input != "" && e.Offset > len(e.Input) {
			t.Fatalf("error %+v does not name an offset in its text and a rule", e)
		}
	}
}

func checkResult(t *testing.T, r *Result) {
	u := r.URL()
	// A URL that does not conform is written all the same, and
	// Violations says where (RFC 1738 §5's rule, the offset in it).
	if u.Conforms() != (len(r.Violations()) == 0) {
		t.Fatalf("%q: Conforms %v, Violations %v (problems %v)", u.String(), u.Conforms(), r.Violations(), u.Problems())
	}
	for _, v := range r.Violations() {
		checkError(t, v)
		if v.Kind != KindWrite || v.Input != u.String() {
			t.Fatalf("%q: violation %+v is not of the URL written", u.String(), v)
		}
	}
	v, err := locator.Parse(u.String())
	if err != nil || !v.SameComponents(u) {
		t.Fatalf("%q does not read back as itself: %v", u.String(), err)
	}
	for _, view := range []View{{}, {Encoded: true}, {Unicode: true, DefaultPort: true}} {
		if _, _, err := r.Expand("{url}{scheme}{user}{password}{options}{host}{port}{path}{query}{fragment}{zoneid}{query:a}{query-all:a}", view); err != nil {
			t.Fatalf("%q: %v", u.String(), err)
		}
		for _, name := range parts(u.Scheme()) {
			if _, _, _, err := r.Part(name, view); err != nil {
				t.Fatalf("%q part %s: %v", u.String(), name, err)
			}
		}
		rec, _ := r.Record(view, true)
		b, err := rec.MarshalJSON()
		if err != nil || !json.Valid(b) {
			t.Fatalf("%q: record %s: %v", u.String(), b, err)
		}
	}
}
