package octets

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestJSONControls(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":"plain"}`, `{"a":"plain"}`},
		{`"del` + "\x7f" + `"`, `"del\u007f"`},
		{`"` + "\u009b" + `2J"`, `"\u009b2J"`},
		{`"` + "\u0085\u00a0\u00e9" + `"`, `"\u0085` + "\u00a0\u00e9" + `"`}, // NEL escaped; NBSP and é kept
		{`"\u001b"`, `"\u001b"`},                                             // escaped already by encoding/json
		{`"` + "\x7f\x7f" + `"`, `"\u007f\u007f"`},
		{`"` + "\xff" + `"`, `"` + "\xff" + `"`}, // not UTF-8: no \u escape can write it
	} {
		got := JSONControls([]byte(c.in))
		if string(got) != c.want {
			t.Errorf("JSONControls(%q) = %q, want %q", c.in, got, c.want)
		}
		if json.Valid([]byte(c.in)) && utf8.ValidString(c.in) {
			var a, b any
			json.Unmarshal([]byte(c.in), &a)
			json.Unmarshal(got, &b)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%q decodes as %v, %q as %v", c.in, a, got, b)
			}
		}
	}
	clean := []byte(`{"a":"caf` + "\u00e9" + `"}`)
	if got := JSONControls(clean); &got[0] != &clean[0] {
		t.Errorf("a clean text was copied")
	}
}

type inner struct {
	Name string            `json:"name"`
	Tags map[string]string `json:"tags,omitempty"`
}

type rec struct {
	Input  string   `json:"input"`
	OK     bool     `json:"ok"`
	Port   *int     `json:"port,omitempty"`
	Host   *string  `json:"host,omitempty"`
	Parts  any      `json:"parts,omitempty"`
	List   []string `json:"list"`
	Hidden string   `json:"-"`
	Raw    json.RawMessage
	hidden string
}

func TestLine(t *testing.T) {
	h, port := "h\xe9", 0
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"valid UTF-8: encoding/json's bytes; a field not written has no sibling", rec{Input: "a<b>", OK: true, List: []string{"x"}, Raw: json.RawMessage(`{}`), Hidden: "\xff", hidden: "\xff"},
			`{"input":"a<b>","ok":true,"list":["x"],"Raw":{}}`},
		{"omitempty, a pointer to zero kept", &rec{Input: "a", Port: &port},
			`{"input":"a","ok":false,"port":0,"list":null,"Raw":null}`},
		{"a sibling after each key that is not UTF-8", rec{Input: "\xff%", Host: &h, Parts: inner{Name: "n\xfe", Tags: map[string]string{"k\xfd": "v"}}, List: []string{"ok", "\x80"}},
			`{"input":"\ufffd%","input_escaped":"%FF%25","ok":false,"host":"h\ufffd","host_escaped":"h%E9",` +
				`"parts":{"name":"n\ufffd","tags":{"k\ufffd":"v"}},"parts_escaped":{"name":"n%FE","tags":{"k%FD":"v"}},` +
				`"list":["ok","\ufffd"],"list_escaped":["ok","%80"],"Raw":null}`},
		{"DEL and C1 as \\u escapes, either path", rec{Input: "\x7f\u0085", List: []string{"\xff"}},
			`{"input":"\u007f\u0085","ok":false,"list":["\ufffd"],"list_escaped":["%FF"],"Raw":null}`},
		{"an Object keeps its order", Object{{"z", 1}, {"a", "\xff"}, {"m", []int{}}},
			`{"z":1,"a":"\ufffd","a_escaped":"%FF","m":[]}`},
		{"a value that marshals itself", json.RawMessage(`[1, 2]`), `[1,2]`},
		{"not a struct", map[string]string{"b": "\u009b", "a": "x"}, `{"a":"x","b":"\u009b"}`},
	} {
		got, err := Line(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("%s:\n got %s, %v\nwant %s", c.name, got, err, c.want)
		}
		var b bytes.Buffer
		if err := WriteLine(&b, c.v); err != nil || b.String() != c.want+"\n" {
			t.Errorf("%s: WriteLine %q, %v", c.name, b.String(), err)
		}
	}
}

// TestLineFastPath: for a struct whose strings are all UTF-8, the bytes
// encoding/json writes are those of its Object (Exact), so that Line may
// skip building it.
func TestLineFastPath(t *testing.T) {
	port := 70
	h := "host"
	for _, v := range []any{
		rec{Input: "gopher://h/", OK: true, Port: &port, Host: &h, Parts: inner{Name: "x", Tags: map[string]string{"b": "1", "a": "2"}}, List: []string{}},
		&rec{Input: "a&b", Parts: []any{1, "x", nil, map[string]any{"k": 1.5}}, Raw: json.RawMessage(`{"x":[1,2]}`)},
		rec{},
	} {
		fast, err := Line(v)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := Marshal(Exact(v))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fast, JSONControls(slow)) {
			t.Errorf("%+v:\nencoding/json %s\n       Object %s", v, fast, slow)
		}
	}
}

func TestEscapedCopyKeepsTypes(t *testing.T) {
	type sev int
	type p struct {
		Sev  sev
		Rule string
	}
	in := []p{{1, "r\xff"}}
	out := EscapedCopy(reflect.ValueOf(in)).Interface().([]p)
	if out[0] != (p{1, "r%FF"}) || in[0].Rule != "r\xff" {
		t.Errorf("EscapedCopy: %+v, original now %+v", out, in)
	}
	if HasInvalid(reflect.ValueOf(json.RawMessage("\xff"))) {
		t.Errorf("bytes are not strings")
	}
}

// FuzzLine: whatever the strings of a record, its Line is valid JSON
// without a control character, and every string comes back: from the
// plain key when it is UTF-8, else from key_escaped.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"plain", "\xff", "%FF", "del\x7f", "c1 \u009b", "\xc2", "\x00\x1b", "é\xe9"} {
		f.Add(s, s+"x")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		line, err := Line(rec{Input: a, Host: &b, Parts: map[string]string{a: b}, List: []string{b, a}})
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(line) {
			t.Fatalf("not JSON: %q", line)
		}
		for i := 0; i < len(line); {
			r, n := utf8.DecodeRune(line[i:])
			if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError && n == 1 {
				t.Fatalf("%q at %d in %q", r, i, line)
			}
			i += n
		}
		var m map[string]any
		json.Unmarshal(line, &m)
		get := func(key string) string {
			if e, ok := m[key+EscapedSuffix].(string); ok {
				return unescape(t, e)
			}
			return m[key].(string)
		}
		if get("input") != a || get("host") != b {
			t.Fatalf("%q, %q: %s", a, b, line)
		}
	})
}

// unescape undoes Escape.
func unescape(t *testing.T, s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			t.Fatalf("%q: %% at the end", s)
		}
		var v byte
		for _, c := range []byte(s[i+1 : i+3]) {
			switch {
			case c >= '0' && c <= '9':
				v = v<<4 | (c - '0')
			case c >= 'A' && c <= 'F':
				v = v<<4 | (c - 'A' + 10)
			default:
				t.Fatalf("%q: not %%XX at %d", s, i)
			}
		}
		b.WriteByte(v)
		i += 2
	}
	return b.String()
}
