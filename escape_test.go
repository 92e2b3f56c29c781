package locator

import (
	"errors"
	"testing"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		in   string
		enc  Encoding
		want string
	}{
		{"a b", EncodeUchar, "a%20b"},
		{"/etc", EncodeFSegment, "%2Fetc"},               // RFC 1738 §3.2.2
		{"name;type=a", EncodeFSegment, "name%3Btype=a"}, // ";" ends an fsegment
		{"a?b:c@d&e=f", EncodeFSegment, "a?b:c@d&e=f"},
		{"a/b?c", EncodeHSegment, "a%2Fb%3Fc"},
		{"a;b:c@d", EncodeHSegment, "a;b:c@d"},
		{"us:er@x/y", EncodeUser, "us%3Aer%40x%2Fy"}, // §3.1
		{"a;b?c&d=e", EncodeUser, "a;b?c&d=e"},
		{"100%", EncodeXchar, "100%25"},
		{"a/b?c#d", EncodeXchar, "a/b?c%23d"},
		{"~user", EncodeUchar, "%7Euser"},
		{"\x00\r\n\t", EncodeUchar, "%00%0D%0A%09"},
		{"é", EncodeUchar, "%C3%A9"},
		{"f=v", EncodeField, "f%3Dv"},
		{"", EncodeUchar, ""},
	}
	for _, tt := range tests {
		if got := Escape(tt.in, tt.enc); got != tt.want {
			t.Errorf("Escape(%q, %d) = %q, want %q", tt.in, tt.enc, got, tt.want)
		}
		if got := Decode(Escape(tt.in, tt.enc)); got != tt.in {
			t.Errorf("Decode(Escape(%q)) = %q", tt.in, got)
		}
	}
}

func TestUnescape(t *testing.T) {
	tests := []struct {
		in, want string
		badAt    int // -1: no error
	}{
		{"a%20b", "a b", -1},
		{"%2f%2F", "//", -1},
		{"%zz", "%zz", 0},
		{"ab%4", "ab%4", 2},
		{"x%", "x%", 1},
		{"%41%", "A%", 3},
		{"plain", "plain", -1},
	}
	for _, tt := range tests {
		got, err := Unescape(tt.in)
		if got != tt.want {
			t.Errorf("Unescape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		var ee *EscapeError
		switch {
		case tt.badAt < 0 && err != nil:
			t.Errorf("Unescape(%q): unexpected error %v", tt.in, err)
		case tt.badAt >= 0 && !errors.As(err, &ee):
			t.Errorf("Unescape(%q): error %v, want *EscapeError", tt.in, err)
		case tt.badAt >= 0 && ee.Offset != tt.badAt:
			t.Errorf("Unescape(%q): error at %d, want %d", tt.in, ee.Offset, tt.badAt)
		}
	}
}

func TestMakeSafe(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://host/a b", "http://host/a%20b"},
		{"/~user/", "/%7Euser/"},
		{"a%20b", "a%20b"},   // an existing escape is left alone
		{"100%", "100%25"},   // a "%" that begins no escape is data
		{"50%zz", "50%25zz"}, // likewise
		{"a;b/c?d:e@f&g=h", "a;b/c?d:e@f&g=h"},
		{"<a>\"{|}\\^[]`", "%3Ca%3E%22%7B%7C%7D%5C%5E%5B%5D%60"},
		{"é\x7f", "%C3%A9%7F"},
	}
	for _, tt := range tests {
		if got := MakeSafe(tt.in); got != tt.want {
			t.Errorf("MakeSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := MakeSafe(tt.want); again != tt.want {
			t.Errorf("MakeSafe is not idempotent on %q: %q", tt.want, again)
		}
	}
}
