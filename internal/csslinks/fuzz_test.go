package csslinks

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzCSSLinks: any octets are tokenized without a panic (CSS Syntax
// Level 3 §2.2: no error stops a browser); Rewrite with no replacement
// copies them exactly; Rewrite sees the links Links finds; and a sheet
// whose links are all replaced reads back with the same number of
// links, each the replacement.
func FuzzCSSLinks(f *testing.F) {
	for _, s := range []string{
		`@import "a.css"; a{b:url(x.png)}`,
		`a{b:u\72 l(x\29 y)}`,
		`a{b:image-set("1x.png" 1x, url(2x.png) 2x)}`,
		`@namespace url(n); <!--url(x)-->`,
		"a{b:url(\"q\\\r\nd\")}",
		`a{b:url(x"y)}`,
		`/* unterminated`,
		`@import url("`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var found []Link
		if err := Links(bytes.NewReader(in), func(l Link) error {
			if l.Offset < 0 || l.End <= l.Offset || l.End > int64(len(in)) || l.Ref == "" {
				t.Fatalf("link %+v out of the input's %d octets", l, len(in))
			}
			found = append(found, l)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		var seen []Link
		if err := Rewrite(&out, bytes.NewReader(in), func(l Link) (string, bool) {
			seen = append(seen, l)
			return "", false
		}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), in) {
			t.Fatalf("an unchanged rewrite differs:\n%q\n%q", in, out.Bytes())
		}
		if len(seen) != len(found) {
			t.Fatalf("Rewrite saw %d links, Links found %d", len(seen), len(found))
		}
		for i := range seen {
			if seen[i] != found[i] {
				t.Fatalf("link %d: %+v and %+v", i, seen[i], found[i])
			}
		}
		out.Reset()
		if err := Rewrite(&out, bytes.NewReader(in), func(Link) (string, bool) { return "/r\")x", true }); err != nil {
			t.Fatal(err)
		}
		var again []Link
		Links(bytes.NewReader(out.Bytes()), func(l Link) error { again = append(again, l); return nil })
		if len(again) != len(found) {
			t.Fatalf("%d links, %d after rewriting:\n%q\n%q", len(found), len(again), in, out.String())
		}
		for _, l := range again {
			if l.Ref != "/r\")x" && !strings.HasPrefix(l.Ref, "/r") {
				t.Fatalf("rewritten link reads %q", l.Ref)
			}
		}
	})
}
