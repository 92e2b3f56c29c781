package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/octets"
	"github.com/rfc1738/locator/internal/urlrecord"
)

// FuzzParseRecord runs every scheme's rules together, as `locator parse
// --json` and `locator explain` do: whatever the input, nothing panics,
// ok agrees with Parse, every problem's offset lies inside the input,
// and the records written are valid JSON that keep the input's octets
// exactly (input, or input_escaped when it is not UTF-8) and whose
// key_escaped siblings read as their keys (checkExact). A
// different input (one octet changed) gives different JSON.
func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{
		"ftp://u:p@h:21/a/b;type=d", "gopher://h/7s%09q%09+%091%0D%0A", "mailto:\"a b\"@c?subject=x",
		"news:<a@b>", "nntp://h/g/12", "telnet://u@h/", "wais://h/db/t/p", "file:///C:/x",
		"prospero://h//p;a=b%00", "http://[::1]/?q#f", "x-y:z", "rlogin://u@h", "mid:a@b/c@d",
		"afs://cell/p", "<URL:news:*>", "snews://h/g",
		"ftp://h/pub/M%FCller.txt", "ftp://\xff%E9@h/a\xfe%25;type=a", "prospero://h/x;%FF=1;%FE=2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		u, err := locator.Parse(in)
		rec := urlrecord.New(in, u, err)
		if rec.OK != (err == nil) {
			t.Fatalf("%q: ok=%v but err=%v", in, rec.OK, err)
		}
		for _, p := range rec.Problems {
			if p.Offset < 0 || p.Offset > len(in) {
				t.Fatalf("%q: problem offset %d outside the input: %v", in, p.Offset, p)
			}
		}
		var out bytes.Buffer
		if werr := writeJSON(&out, rec); werr != nil {
			t.Fatalf("%q: %v", in, werr)
		}
		line := bytes.TrimSuffix(out.Bytes(), []byte("\n"))
		// writeJSON's direct path for valid UTF-8 writes what octets.Exact would,
		// DEL and C1 controls escaped by both.
		if slow, _ := octets.Marshal(octets.Exact(rec)); !bytes.Equal(octets.JSONControls(slow), line) {
			t.Fatalf("%q: writeJSON %s, exact %s", in, line, slow)
		}
		if cerr := checkExact(line, "input", in); cerr != nil {
			t.Fatalf("parse %q: %v\n%s", in, cerr, line)
		}
		ex, jerr := octets.Marshal(octets.Exact(explainOne(in)))
		if jerr != nil {
			t.Fatalf("%q: %v", in, jerr)
		}
		if cerr := checkExact(ex, "input", in); cerr != nil {
			t.Fatalf("explain %q: %v\n%s", in, cerr, ex)
		}
		if len(in) > 0 {
			other := []byte(in)
			other[len(other)-1] ^= 0x80
			v, verr := locator.Parse(string(other))
			line2, _ := octets.Marshal(octets.Exact(urlrecord.New(string(other), v, verr)))
			if string(line2) == string(line) {
				t.Fatalf("%q and %q give the same JSON %s", in, other, line)
			}
		}
	})
}

// FuzzWriteJSONControls: whatever a listing entry's name and URL hold,
// the NDJSON line writeJSON gives has no control (DEL and C1 included)
// but its final LF, is valid JSON, and gives back the strings when they
// are UTF-8; maskedText never panics, and for a URL that parses with a
// password, shows "****" in its place and leaves the rest as given.
func FuzzWriteJSONControls(f *testing.F) {
	for _, s := range []string{"plain", "del\x7f", "c1 \u009b2J", "esc\x1b]0;x\x07", "bad \xc2", "\xc2\x9f\xc2", "ftp://u:p@h/x", "ftp://u:@h:99999999/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		if err := writeJSON(&b, listed{URL: s, Name: s, Type: "file"}); err != nil {
			t.Fatal(err)
		}
		line := b.String()
		if !strings.HasSuffix(line, "\n") || firstControl(line) >= 0 {
			t.Fatalf("%q: written as %q", s, line)
		}
		var back map[string]any
		if err := json.Unmarshal(b.Bytes(), &back); err != nil {
			t.Fatalf("%q: %q: %v", s, line, err)
		}
		if utf8.ValidString(s) && (back["name"] != s || back["url"] != s) {
			t.Fatalf("%q: reads back as %q", s, back)
		}
		m := maskedText(s)
		if u, err := locator.Parse(s); err == nil && u.HasPassword() {
			off := u.Offset(locator.PasswordComponent)
			if m != s[:off]+"****"+s[off+len(u.Password()):] {
				t.Fatalf("maskedText(%q) = %q", s, m)
			}
		}
	})
}
