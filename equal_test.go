package locator_test

import (
	"fmt"
	"testing"

	"github.com/rfc1738/locator"
)

func TestEqual(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"http://h/a%2Fb", "http://h/a/b", false},
		{"http://h/a%2fb", "http://h/a%2Fb", true},
		{"http://h/%61", "http://h/a", true},
		{"http://h/a?x=%2B", "http://h/a?x=+", false},
		{"http://h/a#x", "http://h/a", false},
		{"http://H:80", "http://h/", true},
		{"ftp://h/a/./b", "ftp://h/a/b", true},
		{"gopher://h/1a/./b", "gopher://h/1a/b", false},
		{"mailto:A@B", "mailto:a@b", false},
		{"http://u@h/", "http://h/", false},
		{"http://h/a b", "http://h/a%20b", true},
	} {
		a, err := locator.Parse(tc.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := locator.Parse(tc.b)
		if err != nil {
			t.Fatal(err)
		}
		if got := locator.Equal(a, b); got != tc.want {
			t.Errorf("Equal(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := locator.Equal(b, a); got != tc.want {
			t.Errorf("Equal(%q, %q) = %v, want %v (not symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
	u, _ := locator.Parse("http://h/")
	if !locator.Equal(nil, nil) || locator.Equal(u, nil) || locator.Equal(nil, u) {
		t.Error("Equal with nil")
	}
}

// TestEqualPerl: libwww-perl URI old-base.t eq_test, every row.
func TestEqualPerl(t *testing.T) {
	rows := readTSV(t, "perl-uri/extracted/equivalence.tsv")
	for _, row := range rows {
		a, err := locator.Parse(row[0])
		if err != nil {
			t.Fatal(err)
		}
		b, err := locator.Parse(row[1])
		if err != nil {
			t.Fatal(err)
		}
		if got, want := locator.Equal(a, b), row[2] == "true"; got != want {
			t.Errorf("Equal(%q, %q) = %v, want %v", row[0], row[1], got, want)
		}
	}
	t.Logf("equivalence.tsv: %d rows", len(rows))
	if len(rows) != 7 {
		t.Errorf("equivalence.tsv: %d rows; measured 7", len(rows))
	}
}

func ExampleEqual() {
	a, _ := locator.Parse("http://abc.com:80/~smith/home.html")
	b, _ := locator.Parse("HTTP://ABC.com/%7Esmith/home.html")
	c, _ := locator.Parse("http://abc.com/~smith%2Fhome.html")
	d, _ := locator.Parse("http://abc.com/~smith/home.html")
	fmt.Println(locator.Equal(a, b), locator.Equal(c, d))
	// Output: true false
}
