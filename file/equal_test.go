package file

import (
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

// TestEqualLocalhost: RFC 1738 §3.10, "the string "localhost" or the empty
// string" both mean "the machine from which the URL is being
// interpreted", so file://localhost/x and file:///x name one file and
// are Equal (through Rules.Normalize, the file scheme's locator.Normalizer).
// Another host is another machine and is not.
func TestEqualLocalhost(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"file://localhost/x", "file:///x", true},
		{"file://LocalHost/etc/motd", "file:///etc/motd", true},
		{"file://localhost/", "file:///", true},
		{"file://localhost/a%2Fb", "file:///a%2fb", true},
		{"file://localhost/x", "file://localhost/x", true},
		{"file://localhost/x", "file:///y", false},
		{"file://localhost.example/x", "file:///x", false},
		{"file://vms.host.edu/x", "file:///x", false},
		{"file://127.0.0.1/x", "file:///x", false}, // only a lookup could tell
		{"file://localhost/x", "http://localhost/x", false},
		{"file://localhost:1/x", "file://:1/x", false}, // a port: not a fileurl, kept
		{"file://u@localhost/x", "file://u@/x", false},
	} {
		a, b := loctest.MustParse(t, tt.a), loctest.MustParse(t, tt.b)
		if got := locator.Equal(a, b); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v, want %v (normal forms %s, %s)", tt.a, tt.b, got, tt.want, locator.Normalize(a), locator.Normalize(b))
		}
	}
	if got := locator.Normalize(loctest.MustParse(t, "file://LOCALHOST/x")).String(); got != "file:///x" {
		t.Errorf("Normalize(file://LOCALHOST/x) = %s, want file:///x", got)
	}
}
