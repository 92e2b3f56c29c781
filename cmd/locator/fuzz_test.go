package main

import (
	"encoding/json"
	"testing"

	"github.com/rfc1738/locator"
)

// FuzzParseRecord runs every scheme's rules together, as `locator parse
// --json` and `locator explain` do: whatever the input, nothing panics,
// the record is valid JSON, ok agrees with Parse, and every problem's
// offset lies inside the input.
func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{
		"ftp://u:p@h:21/a/b;type=d", "gopher://h/7s%09q%09+%091%0D%0A", "mailto:\"a b\"@c?subject=x",
		"news:<a@b>", "nntp://h/g/12", "telnet://u@h/", "wais://h/db/t/p", "file:///C:/x",
		"prospero://h//p;a=b%00", "http://[::1]/?q#f", "x-y:z", "rlogin://u@h", "mid:a@b/c@d",
		"afs://cell/p", "<URL:news:*>", "snews://h/g",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		u, err := locator.Parse(in)
		rec := parseRecord(in, u, err)
		if rec.OK != (err == nil) {
			t.Fatalf("%q: ok=%v but err=%v", in, rec.OK, err)
		}
		b, jerr := json.Marshal(rec)
		if jerr != nil || !json.Valid(b) {
			t.Fatalf("%q: JSON %v", in, jerr)
		}
		for _, p := range rec.Problems {
			if p.Offset < 0 || p.Offset > len(in) {
				t.Fatalf("%q: problem offset %d outside the input: %v", in, p.Offset, p)
			}
		}
		explainOne(in)
	})
}
