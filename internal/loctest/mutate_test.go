package loctest

import (
	"testing"

	"github.com/rfc1738/locator"
)

// TestMutation: Apply changes the Parts, field by field and flag by flag,
// and leaves the URL alone.
func TestMutation(t *testing.T) {
	u := MustParse(t, "ftp://u@h/a;type=d")
	c := Mutation{Host: "g", Path: "b/c", Mask: 1<<2 | 1<<4 | 1<<8}.Apply(u)
	if u.Host() != "h" || u.Path() != "a;type=d" || !u.HasUser() {
		t.Fatalf("Apply changed the original: %v", u)
	}
	if c.Host != "g" || c.Path != "b/c" || c.HasUser || c.User != "u" {
		t.Fatalf("Apply: %+v", c)
	}
	if v, err := c.URL(); err != nil || v.String() != "ftp://g/b/c" || v.Input() != "ftp://g/b/c" {
		t.Fatalf("Apply(%s).URL() = %v, %v", u, v, err)
	}
	// A path holding "?" reads back as a path and a search.
	p := Mutation{Path: "x?y", Mask: 1 << 4}.Apply(MustParse(t, "http://h/a"))
	if v, err := p.URL(); err != nil || v.Path() != "x" || v.Search() != "y" {
		t.Errorf("Parts with a path holding \"?\": %v, %v", v, err)
	}
	if d := Departures(MustParse(t, "http://h/a b"), nil); len(d) == 0 {
		t.Error("Departures: an unencoded space is not reported")
	}
	if d := Departures(MustParse(t, "http://h/a b"), func(locator.Problem) bool { return true }); len(d) != 0 {
		t.Errorf("Departures with everything allowed: %v", d)
	}
}
