package schemes_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/loctest/vectors"
)

// TestParserAndBatchAreParse: a reused Parser and ParseBatch give exactly
// what Parse gives (components, offsets, problems, errors), with every
// scheme's rules linked in, over the corpora of ../shared/data/urls and
// every stored fuzz input of the repository (and, with LOCATOR_FUZZCACHE
// naming a fuzz cache folder, every input in it). The counts are pinned.
func TestParserAndBatchAreParse(t *testing.T) {
	var inputs []string
	for _, name := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		inputs = append(inputs, vectors.ReadLines(t, "data", "urls", name)...)
	}
	corpus := len(inputs)
	fz, err := loctest.FuzzInputs("..", false)
	if err != nil {
		t.Fatal(err)
	}
	if cache := os.Getenv("LOCATOR_FUZZCACHE"); cache != "" {
		// The inputs this machine's fuzzers generated and kept
		// ($(go env GOCACHE)/fuzz/github.com/rfc1738/locator).
		more, err := loctest.FuzzInputs(cache, true)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d inputs from %s", len(more), cache)
		fz = append(fz, more...)
	}
	inputs = append(inputs, fz...)
	if corpus > 0 && corpus != 109062 {
		t.Errorf("%d corpus lines, measured 109,062", corpus)
	}
	if len(fz) < 1 {
		t.Fatal("no stored fuzz inputs found")
	}
	urls, errs := locator.ParseBatch(inputs)
	var ps locator.Parser
	var v locator.URL
	failed := 0
	for i, s := range inputs {
		u, err := locator.Parse(s)
		perr := ps.Parse(&v, s)
		var berr error
		if errs != nil {
			berr = errs[i]
		}
		if err != nil {
			failed++
			if !reflect.DeepEqual(err, perr) || !reflect.DeepEqual(err, berr) {
				t.Fatalf("%q: Parse: %v; Parser: %v; batch: %v", s, err, perr, berr)
			}
			if v != (locator.URL{}) || urls[i] != (locator.URL{}) {
				t.Fatalf("%q: a failed parse leaves a URL", s)
			}
			continue
		}
		if perr != nil || berr != nil {
			t.Fatalf("%q: Parse succeeds; Parser: %v; batch: %v", s, perr, berr)
		}
		if d := loctest.DiffURL(u, &v); d != "" {
			t.Fatalf("%q: Parser differs from Parse:\n%s", s, d)
		}
		if d := loctest.DiffURL(u, &urls[i]); d != "" {
			t.Fatalf("%q: ParseBatch differs from Parse:\n%s", s, d)
		}
	}
	t.Logf("%d inputs (%d corpus lines, %d fuzz inputs), %d refused", len(inputs), corpus, len(fz), failed)
	if corpus == 109062 && os.Getenv("LOCATOR_FUZZCACHE") == "" && (len(fz) != 43 || failed != 198) {
		t.Errorf("%d stored fuzz inputs and %d refused, measured 43 and 198", len(fz), failed)
	}
}

// TestResolveIsParse: with every scheme's rules linked in (http's a
// Screener, whose Check Parse and Resolve skip for a URL without a user
// or a search), each URL Resolve makes from a corpus URL and references
// made from the next one (its path as a relative, an absolute and a
// "../" path, a network path, a query) is exactly what Parse makes of its
// text. The count is pinned.
func TestResolveIsParse(t *testing.T) {
	var lines []string
	for _, name := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		lines = append(lines, vectors.ReadLines(t, "data", "urls", name)...)
	}
	if len(lines) == 0 {
		t.Skip("no corpus (../shared/data/urls)")
	}
	n := 0
	for i := 0; i+1 < len(lines); i++ {
		base, err := locator.Parse(lines[i])
		if err != nil || !base.HasAuthority() {
			continue
		}
		next, err := locator.Parse(lines[i+1])
		if err != nil {
			continue
		}
		p := next.Path()
		name := p[strings.LastIndexByte(p, '/')+1:]
		for _, ref := range []string{p, "/" + p, "../" + name, "//" + next.Host() + "/" + p, "?" + next.Search()} {
			u, err := locator.Resolve(base, ref, locator.RFC3986)
			if err != nil {
				continue
			}
			v, err := locator.Parse(u.Input())
			if err != nil {
				t.Fatalf("%s + %q = %q: Parse fails: %v", base, ref, u.Input(), err)
			}
			if !reflect.DeepEqual(u, v) {
				t.Fatalf("%s + %q = %q: Resolve differs from Parse:\n%s", base, ref, u.Input(), loctest.DiffURL(v, u))
			}
			n++
		}
	}
	t.Logf("%d resolutions", n)
	if n != 543529 {
		t.Errorf("%d resolutions, measured 543,529", n)
	}
}
