package locator_test

import (
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// TestAllocations pins what each path allocates (counted, not timed):
// Parse one object per URL, its problems included when there are at most
// two (99.95% of the corpora's URLs); a Parser nothing once its storage
// has grown; a refusal one, its error; a message that quotes the input
// (a port number, non-ASCII octets) one; Resolve one object per result,
// however long; ParseBatch a few per batch.
func TestAllocations(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters allocate")
	}
	type allocCase struct {
		name string
		f    func()
		want float64
	}
	cases := []allocCase{
		{"Parse, conforming", func() { locator.Parse("http://www.example.com/a/b?c") }, 1},
		{"Parse, two problems", func() { locator.Parse("HTTP://www.example.com/~a") }, 1},
		{"Parse, four problems", func() { locator.Parse("http://h/~a~b~c~d") }, 3}, // the parser's room holds two
		{"Parse, refused", func() { locator.Parse("http://a b/") }, 1},             // the error, its problems beside it
	}
	var p locator.Parser
	var u locator.URL
	for _, s := range []string{"http://h/~a~b~c~d~e~f", "HTTP://h/"} {
		p.Parse(&u, s) // the Parser's storage grows once
	}
	for _, s := range []string{"http://www.example.com/a/b?c", "HTTP://www.example.com/~a", "http://h/~a~b~c~d~e~f", "ftp://h/%zz"} {
		cases = append(cases, allocCase{"Parser " + s, func() { p.Parse(&u, s) }, 0})
	}
	cases = append(cases, allocCase{"Parser, refused", func() { p.Parse(&u, "http://a b/") }, 1})
	base, _ := locator.Parse("http://a.example/b/c/d;p?q")
	cases = append(cases, allocCase{"Resolve", func() { locator.Resolve(base, "../g?y#s", locator.RFC3986) }, 1})
	long := "../" + strings.Repeat("segment/", 40) + "g?y#s" // a result of 350 octets, composed in the larger buffer
	cases = append(cases, allocCase{"Resolve, long", func() { locator.Resolve(base, long, locator.RFC3986) }, 1})
	cases = append(cases, allocCase{"Parse, a message that quotes the input", func() { locator.Parse("http://h:8080/\xc3\xa9") }, 3}) // the value and two messages, one allocation each
	cases = append(cases, allocCase{"Parser, a message that quotes the input", func() { p.Parse(&u, "http://h:8080/\xc3\xa9") }, 2})
	batch := make([]string, 1000)
	for i := range batch {
		batch[i] = "http://www.example.com/~" + string(rune('a'+i%26))
	}
	cases = append(cases, allocCase{"ParseBatch of 1,000 with a problem each", func() { locator.ParseBatch(batch) }, 19}) // the URLs, 16 blocks of 64 extras, 2 of 512 problems
	for _, c := range cases {
		if got := testing.AllocsPerRun(100, c.f); got != c.want {
			t.Errorf("%s: %v allocations, want %v", c.name, got, c.want)
		}
	}
}
