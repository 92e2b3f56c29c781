package proberecord

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/octets"
)

// FuzzInput: any input line (a URL, an extract record, anything else)
// is read without a panic into a URL or an error, and what is not a URL
// gets a record whose line is one JSON object, with its reason said; a
// text with no "@" is never changed by the masking.
func FuzzInput(f *testing.F) {
	for _, s := range []string{
		"http://example.org/", "ftp://u:secret@h/p", "not a url", "",
		`{"url":"gopher://h/1","file":"a.html","line":2,"column":5,"offset":12}`,
		`{"url":7}`, `{"file":"x"}`, "{", "http://u:p@h:99999/", "mailto:a@b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		in, pos := Input(text, true)
		if in.URL == nil {
			if in.Err == nil {
				t.Fatalf("%q: no URL and no error", text)
			}
			if InputError(in) == "" {
				t.Fatalf("%q: an empty reason", text)
			}
			b, err := octets.Line(NotURL(in))
			if err != nil {
				t.Fatalf("%q: %v", text, err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%q: the record %q is not JSON: %v", text, b, err)
			}
		}
		if pos != nil && !strings.HasPrefix(strings.TrimSpace(text), "{") {
			t.Fatalf("%q: a place for an input that is no extract record", text)
		}
		if !strings.Contains(text, "@") && MaskedText(text) != text {
			t.Fatalf("%q masked as %q", text, MaskedText(text))
		}
	})
}
