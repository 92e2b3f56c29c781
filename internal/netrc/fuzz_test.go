package netrc

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics; an error is ErrTooLarge or a
// *SyntaxError naming a line of the file; what it reads is bounded
// (each value at most MaxToken octets, without CR, LF or NUL, the
// default entry last); and the entries, written back with every token
// quoted, read back the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		unit1304,
		"machine h login a password p account x\ndefault login anonymous password me@\n",
		"machine h login \"user name\" password \"p\\\"w \\\\ \\t\"\n",
		"# c\nmachine h # c\n login a#b\nmacdef init\ncd /pub\n\npassword p\n",
		"machine h\r\nlogin a\r\nmacdef m\r\nls\r\n\r\npassword p\r\n",
		"machine machine login login password macdef",
		"machine h login \"a\nb\"",
		"default\ndefault",
		"machine h login \"a\"b",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(bytes.NewReader(data))
		if err != nil {
			var se *SyntaxError
			switch {
			case errors.Is(err, ErrTooLarge):
				if len(data) <= MaxSize {
					t.Fatalf("ErrTooLarge for %d octets", len(data))
				}
			case errors.As(err, &se):
				if se.Line < 1 || se.Line > bytes.Count(data, []byte("\n"))+1 || se.Reason == "" {
					t.Fatalf("%v: not a line of the file", err)
				}
			default:
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		var w strings.Builder
		for i, e := range file.Entries {
			if e.Default && i != len(file.Entries)-1 {
				t.Fatalf("a default entry at %d of %d", i, len(file.Entries))
			}
			if e.Default != (e.Machine == "") {
				t.Fatalf("entry %+v", e)
			}
			for _, v := range []string{e.Machine, e.Login, e.Password, e.Account} {
				if len(v) > MaxToken || strings.ContainsAny(v, "\r\n\x00") {
					t.Fatalf("value %q", v)
				}
			}
			if e.Default {
				w.WriteString("default")
			} else {
				w.WriteString("machine " + quote(e.Machine))
			}
			for _, kv := range [][2]string{{"login", e.Login}, {"password", e.Password}, {"account", e.Account}} {
				if kv[1] != "" {
					w.WriteString("\n " + kv[0] + " " + quote(kv[1]))
				}
			}
			w.WriteString("\n")
		}
		again, err := Parse(strings.NewReader(w.String()))
		if err != nil {
			t.Fatalf("written back: %v\n%s", err, w.String())
		}
		if len(again.Entries) != len(file.Entries) {
			t.Fatalf("written back: %d entries, want %d", len(again.Entries), len(file.Entries))
		}
		for i, e := range again.Entries {
			e.Line = file.Entries[i].Line
			if e != file.Entries[i] {
				t.Fatalf("written back: %+v, want %+v", e, file.Entries[i])
			}
		}
	})
}

// quote writes s as curl reads a quoted token.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\t", `\t`).Replace(s) + `"`
}
