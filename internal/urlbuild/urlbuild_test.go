package urlbuild

import (
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

func TestBadHostport(t *testing.T) {
	tests := []struct {
		host, port string
		field      string
		off        int
	}{
		{"ftp.example.com", "21", "", -1},
		{"10.0.0.1", "", "", -1},
		{"", "", "", -1},
		{"::1", "8080", "", -1},
		{"fe80::1.2.3.4", "", "", -1},
		{"a/b", "", "host", 1},
		{"a@b", "", "host", 1},
		{"under_score", "", "host", 5},
		{"::g", "", "host", 2},
		{"host", "8o", "port", 1},
		{"host", "-1", "port", 0},
	}
	for _, tt := range tests {
		field, off := BadHostport(tt.host, tt.port)
		if field != tt.field || off != tt.off {
			t.Errorf("BadHostport(%q, %q) = %q, %d, want %q, %d", tt.host, tt.port, field, off, tt.field, tt.off)
		}
	}
}

func TestWriteHostport(t *testing.T) {
	tests := []struct {
		prefix, host, port string
		want               string
	}{
		{"x://", "h", "", "x://h"},
		{"x://", "h", "70", "x://h:70"},
		{"x://u@", "::1", "", "x://u@[::1]"},
		{"x://", "::1", "8", "x://[::1]:8"},
	}
	for _, tt := range tests {
		var b strings.Builder
		b.WriteString(tt.prefix)
		at := WriteHostport(&b, tt.host, tt.port)
		if b.String() != tt.want || at != len(tt.prefix) {
			t.Errorf("WriteHostport(%q, %q) after %q = %q at %d, want %q at %d", tt.host, tt.port, tt.prefix, b.String(), at, tt.want, len(tt.prefix))
		}
	}
}

func TestCheckBuilt(t *testing.T) {
	tests := []struct {
		s          string
		hostAt     int
		host, port string
		rule       string // "" for success
	}{
		{"telnet://h:23/", 9, "h", "23", ""},
		{"telnet://[::1]/", 9, "::1", "", ""},        // the IPv6 literal's violation is allowed
		{"telnet://u@[::1]/", 9, "::1", "", "host"},  // but only where the host was written
		{"telnet://a/b/", 9, "a/b", "", "hostport"},  // "/" ends the host early
		{"telnet://h:2x/", 9, "h", "2x", "port"},     // Parse cannot read it
		{"gopher://h/1a b", 9, "h", "", "urlpath"},   // any other violation
		{"http://h:99999/", 7, "h", "99999", "port"}, // out of range
		{"telnet://h/", 9, "h", "", ""},
		{"", 0, "", "", "url"},
	}
	for _, tt := range tests {
		err := CheckBuilt("x", tt.s, tt.hostAt, tt.host, tt.port)
		if tt.rule == "" {
			if err != nil {
				t.Errorf("CheckBuilt(%q) = %v, want nil", tt.s, err)
			}
			continue
		}
		be, ok := err.(*locator.BuildError)
		if !ok {
			t.Errorf("CheckBuilt(%q) = %v (%T), want a *locator.BuildError", tt.s, err, err)
			continue
		}
		if be.Scheme != "x" || be.URL != tt.s || be.Problem.Severity < locator.Violation {
			t.Errorf("CheckBuilt(%q) = %+v, want scheme x, the URL and a violation or error", tt.s, be)
		}
		if tt.rule != "url" && be.Problem.Rule != tt.rule {
			t.Errorf("CheckBuilt(%q) rule %q, want %q (%v)", tt.s, be.Problem.Rule, tt.rule, be)
		}
	}
}

func TestBuildErrorMessage(t *testing.T) {
	e := &locator.BuildError{Scheme: "ftp", URL: "ftp://h/;type=q", Problem: locator.Problem{Offset: 8, Severity: locator.Violation, Rule: "ftptype", Message: "m"}}
	want := `ftp: cannot build a URL: "ftp://h/;type=q": ` + e.Problem.String()
	if got := e.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestWriteHPath(t *testing.T) {
	tests := []struct {
		segs      []string
		search    string
		hasSearch bool
		want      string
	}{
		{nil, "", false, ""},
		{nil, "", true, "/?"},
		{nil, "a b", true, "/?a%20b"},
		{[]string{""}, "", false, "/"},
		{[]string{"a/b", "c?d", "e;f:g@h&i=j"}, "", false, "/a%2Fb/c%3Fd/e;f:g@h&i=j"},
		{[]string{"", ""}, "x?y/z#", true, "//?x%3Fy%2Fz%23"},
		{[]string{"\u00e9 %"}, "", false, "/%C3%A9%20%25"},
	}
	for _, tt := range tests {
		var b strings.Builder
		b.WriteString("x://h")
		WriteHPath(&b, tt.segs, tt.search, tt.hasSearch)
		if got := strings.TrimPrefix(b.String(), "x://h"); got != tt.want {
			t.Errorf("WriteHPath(%q, %q, %v) = %q, want %q", tt.segs, tt.search, tt.hasSearch, got, tt.want)
		}
	}
}
