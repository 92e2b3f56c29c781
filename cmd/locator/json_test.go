package main

import (
	"encoding/json"
	"fmt"
	"github.com/rfc1738/locator/internal/octets"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlrecord"
)

func TestEscapeOctets(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"abc", "abc"},
		{"M\xfcller", "M%FCller"},
		{"M%FCller", "M%25FCller"},
		{"Müller", "Müller"},
		{"\xc3", "%C3"},
		{"\xc3\xbc\xbc", "ü%BC"},
		{"\xed\xa0\x80", "%ED%A0%80"}, // a UTF-16 surrogate is not UTF-8
		{"\x00\x1b", "\x00\x1b"},      // controls are valid UTF-8; JSON escapes them
	}
	for _, tt := range tests {
		if got := octets.Escape(tt.in); got != tt.want {
			t.Errorf("escapeOctets(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if back, err := unescapeOctets(tt.want); err != nil || back != tt.in {
			t.Errorf("unescape(%q) = %q %v, want %q", tt.want, back, err, tt.in)
		}
	}
}

// unescapeOctets undoes escapeOctets: every "%" begins "%XX".
func unescapeOctets(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", fmt.Errorf("offset %d: %% at the end", i)
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil || s[i+1] > 'F' || s[i+2] > 'F' {
			return "", fmt.Errorf("offset %d: %q is not %%XX", i, s[i:i+3])
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), nil
}

// unescapeTree undoes escapeOctets on every string and key of a decoded
// JSON value.
func unescapeTree(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return unescapeOctets(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			u, err := unescapeTree(e)
			if err != nil {
				return nil, err
			}
			out[i] = u
		}
		return out, nil
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			uk, err := unescapeOctets(k)
			if err != nil {
				return nil, err
			}
			u, err := unescapeTree(e)
			if err != nil {
				return nil, err
			}
			out[uk] = u
		}
		return out, nil
	}
	return v, nil
}

// checkExact checks one NDJSON record of a --json subcommand against the
// The contract for octets that are not UTF-8 (docs/cli.md): the record is valid
// JSON; the key inKey reproduces in exactly (itself when in is valid
// UTF-8, else through inKey_escaped); and every key_escaped, unescaped,
// reads as key does (encoding/json's U+FFFD for each bad octet), so
// that it holds the same value without loss.
func checkExact(line []byte, inKey, in string) error {
	if !json.Valid(line) {
		return fmt.Errorf("not valid JSON: %q", line)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		return err
	}
	esc, hasEsc := m[inKey+octets.EscapedSuffix].(string)
	switch {
	case utf8.ValidString(in) && hasEsc:
		return fmt.Errorf("%s%s present for valid UTF-8", inKey, octets.EscapedSuffix)
	case utf8.ValidString(in) && m[inKey] != in:
		return fmt.Errorf("%s = %q, want %q", inKey, m[inKey], in)
	case !utf8.ValidString(in):
		if !hasEsc {
			return fmt.Errorf("no %s%s for %q", inKey, octets.EscapedSuffix, in)
		}
		if back, err := unescapeOctets(esc); err != nil || back != in {
			return fmt.Errorf("%s%s %q gives %q (%v), want %q", inKey, octets.EscapedSuffix, esc, back, err, in)
		}
	}
	for k, v := range m {
		base, ok := strings.CutSuffix(k, octets.EscapedSuffix)
		if !ok {
			continue
		}
		plain, ok := m[base]
		if !ok {
			return fmt.Errorf("%s without %s", k, base)
		}
		u, err := unescapeTree(v)
		if err != nil {
			return fmt.Errorf("%s: %v", k, err)
		}
		b, _ := json.Marshal(u) // the lossy reading of the exact value
		var lossy any
		json.Unmarshal(b, &lossy)
		if !reflect.DeepEqual(lossy, plain) {
			return fmt.Errorf("%s reads as %s, but %s is %s", k, b, base, mustJSON(plain))
		}
	}
	return nil
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestJSONByteExact: values that are not valid UTF-8 are kept exactly in
// key_escaped (M%FC and M%E9 must not give the same name).
func TestJSONByteExact(t *testing.T) {
	_, a, _ := runCLI(t, "", "parse", "--json", "ftp://h/pub/M%FCller.txt")
	_, b, _ := runCLI(t, "", "parse", "--json", "ftp://h/pub/M%E9ller.txt")
	if a == b {
		t.Fatalf("the same JSON for two URLs: %s", a)
	}
	if !strings.Contains(a, `"parts_escaped":{"cwd":["pub"],"name":"M%FCller.txt"}`) {
		t.Errorf("M%%FC: %s", a)
	}
	// Raw octets in the input: input_escaped, and user_escaped for the
	// decoded user, path_escaped for the path as written.
	in := "ftp://\xff%E9@h/a\xfe%25;type=a"
	code, out, _ := runCLI(t, "", "parse", "--json", in)
	if err := checkExact([]byte(out), "input", in); err != nil {
		t.Errorf("parse: %v", err)
	}
	for _, k := range []string{`"input_escaped":"ftp://%FF%25E9@h/a%FE%2525;type=a"`, `"user_escaped":"%FF%E9"`, `"path_escaped":"a%FE%2525;type=a"`,
		`"parts_escaped":{"cwd":[],"name":"a%FE%25","typecode":"a"}`} {
		if !strings.Contains(out, k) {
			t.Errorf("parse --json %q lacks %s: exit %d %s", in, k, code, out)
		}
	}
	// prospero field names that differ only in bad octets stay apart.
	in = "prospero://h/x;%FF=1;%FE=2"
	_, out, _ = runCLI(t, "", "parse", "--json", in)
	if !strings.Contains(out, `"fields":{"%FE":"2","%FF":"1"}`) {
		t.Errorf("prospero fields: %s", out)
	}
	// Every --json subcommand of cmd/locator writes the same way.
	for _, tc := range []struct {
		args  []string
		key   string
		input string
	}{
		{[]string{"check", "--json"}, "input", "http://h/\xe9"},
		{[]string{"explain", "--json"}, "input", "gopher://h/0\xe9%E9"},
		{[]string{"normalize", "--json"}, "input", "http://h/\xe9"},
		{[]string{"resolve", "--json", "http://a/"}, "ref", "\xe9"},
		{[]string{"relative", "--json", "http://a/"}, "target", "http://a/\xe9"},
		{[]string{"equal", "--json", "http://a/"}, "b", "http://a/\xe9"},
	} {
		_, out, _ := runCLI(t, "", append(tc.args, tc.input)...)
		if err := checkExact([]byte(out), tc.key, tc.input); err != nil {
			t.Errorf("%q: %v", tc.args, err)
		}
	}
}

// genURL makes a URL-like string from pieces that matter to the parser
// and to the JSON: schemes, delimiters, escapes of every octet, raw
// octets above 0x7F (valid UTF-8 and not), controls.
func genURL(r *rand.Rand) string {
	schemes := []string{"ftp://", "http://", "gopher://", "news:", "nntp://", "mailto:", "wais://", "file://", "prospero://", "telnet://", "x-y:", "", "<URL:"}
	pieces := []string{"h", "u", ":", "@", "/", ";", "=", "?", "#", "%", "type=a", "%2F", "%09", "%00", ".", "..", "a", "Z", " ", "~", "\x1b", "\x7f",
		"ü", "é", "\u009b", "\xff", "\xfe", "\xc3", "\xbc", "\xed\xa0\x80", "*", "+", "<", ">", "\""}
	var b strings.Builder
	b.WriteString(schemes[r.IntN(len(schemes))])
	for n := r.IntN(12); n > 0; n-- {
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "%%%02X", r.IntN(256))
		case 1:
			b.WriteByte(byte(r.IntN(256)))
		default:
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
	}
	return b.String()
}

// TestJSONInjective: over many generated inputs, including invalid
// UTF-8, no two different inputs give the same JSON, for parse, check,
// explain and normalize; each record passes checkExact.
func TestJSONInjective(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 4))
	seen := map[string]map[string]string{} // command → JSON → input
	invalid := 0
	for i := 0; i < 3000; i++ {
		in := genURL(r)
		if in == "-" {
			continue // standard input
		}
		if !utf8.ValidString(in) {
			invalid++
		}
		for _, cmd := range []string{"parse", "check", "explain", "normalize"} {
			_, out, _ := runCLI(t, "", cmd, "--json", "--", in)
			if err := checkExact([]byte(out), "input", in); err != nil {
				t.Fatalf("%s %q: %v\n%s", cmd, in, err, out)
			}
			if seen[cmd] == nil {
				seen[cmd] = map[string]string{}
			}
			if prev, ok := seen[cmd][out]; ok && prev != in {
				t.Fatalf("%s: %q and %q give the same JSON %s", cmd, prev, in, out)
			}
			seen[cmd][out] = in
		}
	}
	if invalid < 1000 {
		t.Errorf("only %d of the generated inputs are invalid UTF-8", invalid)
	}
}

// TestRecordsHaveNoHiddenFields: the records written through exact have
// only what their tags name (a new field without a tag would appear
// under its Go name).
func TestRecordsHaveNoHiddenFields(t *testing.T) {
	u, err := locator.Parse("ftp://h/x")
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []any{urlrecord.New("ftp://h/x", u, nil), &checked{}, explainOne("ftp://h/x"), &normalized{}, &resolved{}, &relativeRecord{}, &equalRecord{}, &buildVersion{}} {
		rt := reflect.Indirect(reflect.ValueOf(rec)).Type()
		for i := 0; i < rt.NumField(); i++ {
			if rt.Field(i).Tag.Get("json") == "" {
				t.Errorf("%s.%s has no json tag", rt.Name(), rt.Field(i).Name)
			}
		}
	}
}
