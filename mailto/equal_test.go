package mailto

import (
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

// TestEqualDomainCase: a mailbox's domain compares case-insensitively,
// its local part as written (RFC 5321 §2.4: "The local-part of a mailbox
// MUST BE treated as case sensitive ... Mailbox domains follow normal DNS
// rules and are hence not case sensitive"), through the mailto scheme's
// locator.Normalizer, which lower-cases the domain of each addr-spec
// (RFC 822 §6.1) it can read.
func TestEqualDomainCase(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"mailto:fred@Example.COM", "mailto:fred@example.com", true},
		{"mailto:Fred@example.com", "mailto:fred@example.com", false},
		{"mailto:Fred@EXAMPLE.com", "mailto:Fred@example.COM", true},
		{"mailto:a@B.c,D@E.f", "mailto:a@b.c,D@e.f", true},
		{"mailto:a@B.c,D@E.f", "mailto:a@b.c,d@e.f", false},
		{"mailto:%22A%20B%22@X.Y", "mailto:%22A%20B%22@x.y", true},
		{"mailto:%22A%20B%22@X.Y", "mailto:%22a%20b%22@x.y", false},
		{"mailto:a@X.Y?subject=Hi", "mailto:a@x.y?subject=Hi", true},
		{"mailto:a@X.Y?subject=Hi", "mailto:a@x.y?subject=hi", false},
		{"mailto:a@[Z]", "mailto:a@[z]", false}, // a domain literal is kept as written
		{"mailto:a@X%2eY", "mailto:a@x.y", true},
		{"mailto:a@X%25Y", "mailto:a@x%25y", true},
		{"mailto:a@X..Y", "mailto:a@x..y", false}, // not an addr-spec: kept as written
		{"mailto:a@X.Y@Z", "mailto:a@x.y@z", false},
	} {
		a, b := loctest.MustParse(t, tt.a), loctest.MustParse(t, tt.b)
		if got := locator.Equal(a, b); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v, want %v (normal forms %s, %s)", tt.a, tt.b, got, tt.want, locator.Normalize(a), locator.Normalize(b))
		}
	}
	for in, want := range map[string]string{
		"mailto:Fred.Bloggs@Example.COM": "mailto:Fred.Bloggs@example.com",
		"mailto:A@X%7EY":                 "mailto:A@x%7Ey", // escapes keep their hex digits
		"mailto:A@X%7EY,B@Q":             "mailto:A@x%7Ey,B@q",
		"mailto:%22A@B%22@C":             "mailto:%22A@B%22@c",
	} {
		if got := locator.Normalize(loctest.MustParse(t, in)).String(); got != want {
			t.Errorf("Normalize(%s) = %s, want %s", in, got, want)
		}
	}
}
