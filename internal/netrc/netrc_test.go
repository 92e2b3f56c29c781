package netrc

import (
	"errors"
	"strings"
	"testing"
)

// unit1304 is the file of curl's unit test 1304 (lib/netrc.c).
const unit1304 = `
machine example.com login admin password passwd
machine curl.example.com login none password none
`

func TestNetrcFind(t *testing.T) {
	type q struct {
		host, user      string
		login, password string
		ok              bool
	}
	for _, tc := range []struct {
		name, file string
		queries    []q
	}{
		{"curl unit 1304", unit1304, []q{
			{"test.example.com", "", "", "", false}, // no machine of that name
			{"example.com", "me", "", "", false},    // the login is another
			{"example.com", "admi", "", "", false},  // a prefix of the login is not it
			{"example.com", "adminn", "", "", false},
			{"example.com", "", "admin", "passwd", true}, // no user: the entry's
			{"example.com", "admin", "admin", "passwd", true},
			{"EXAMPLE.com", "admin", "admin", "passwd", true}, // host names regardless of case
			{"curl.example.com", "", "none", "none", true},
			{"example.com", "Admin", "", "", false}, // a login exactly
		}},
		{"first entry wins", `machine h login a password 1
machine h login b password 2
machine h login a password 3`, []q{
			{"h", "", "a", "1", true},
			{"h", "b", "b", "2", true},
			{"h", "a", "a", "1", true},
		}},
		{"default last, and only when no machine matches", `machine h login a password 1
default login anonymous password me@example.org`, []q{
			{"h", "", "a", "1", true},
			{"h", "a", "a", "1", true},
			{"other", "", "anonymous", "me@example.org", true},
			{"h", "anonymous", "anonymous", "me@example.org", true}, // h's entry has another login
			{"other", "joe", "", "", false},
		}},
		{"across lines, keywords in any case and order", "MACHINE h\n\tPassword p\n  Login\n u\n", []q{
			{"h", "", "u", "p", true},
		}},
		{"curl's quoted tokens", `machine h login "user name" password "pass \"word\" \\ \x"`, []q{
			{"h", "", "user name", `pass "word" \ x`, true},
			{"h", "user name", "user name", `pass "word" \ x`, true},
		}},
		{"an unquoted backslash or quote is itself", `machine h login a\b password p"q`, []q{
			{"h", "", `a\b`, `p"q`, true},
		}},
		{"an empty quoted password", `machine h login a password ""`, []q{
			{"h", "", "a", "", true},
		}},
		{"no password", "machine h login a", []q{
			{"h", "", "a", "", true},
		}},
		{"no login: nobody to log in as", "machine h password p\nmachine h login b password q", []q{
			{"h", "", "", "", false},
			{"h", "b", "b", "q", true},
		}},
		{"comments", "# my logins\nmachine h # the server\n login a#b password p #old\n#machine x login y", []q{
			{"h", "", "a#b", "p", true}, // '#' within a token is the token's
			{"x", "", "", "", false},
		}},
		{"a quoted # is no comment", `machine h login a password "#p"`, []q{
			{"h", "", "a", "#p", true},
		}},
		{"macdef body skipped to the empty line", "machine h login a\nmacdef init\ncd /pub\nmachine evil login x password y\n\npassword p\nmachine g login b\n", []q{
			{"h", "", "a", "p", true}, // the entry goes on after the macro
			{"evil", "", "", "", false},
			{"g", "", "b", "", true},
		}},
		{"macdef at the end of the file", "machine h login a password p\nmacdef m\nls", []q{
			{"h", "", "a", "p", true},
		}},
		{"keywords as values", "machine machine login login password macdef", []q{
			{"machine", "", "login", "macdef", true},
		}},
		{"account and passwd", "machine h login a passwd p account acct", []q{
			{"h", "", "a", "p", true},
		}},
		{"CR LF line ends", "machine h\r\nlogin a\r\npassword p\r\n", []q{
			{"h", "", "a", "p", true},
		}},
		{"empty", "", []q{{"h", "", "", "", false}}},
	} {
		f, err := Parse(strings.NewReader(tc.file))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		for _, q := range tc.queries {
			login, password, ok := f.Find(q.host, q.user)
			if login != q.login || password != q.password || ok != q.ok {
				t.Errorf("%s: Find(%q, %q) = %q, %q, %v; want %q, %q, %v", tc.name, q.host, q.user, login, password, ok, q.login, q.password, q.ok)
			}
		}
	}
}

func TestNetrcEntries(t *testing.T) {
	f, err := Parse(strings.NewReader("machine h login a password p account x\n\ndefault login anonymous\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Machine: "h", Login: "a", Password: "p", Account: "x", Line: 1},
		{Default: true, Login: "anonymous", Line: 3},
	}
	if len(f.Entries) != len(want) {
		t.Fatalf("entries %+v", f.Entries)
	}
	for i := range want {
		if f.Entries[i] != want[i] {
			t.Errorf("entry %d: %+v, want %+v", i, f.Entries[i], want[i])
		}
	}
	if !f.HasPassword() {
		t.Error("HasPassword false")
	}
	if f, _ := Parse(strings.NewReader("default login anonymous")); f.HasPassword() {
		t.Error("HasPassword true without a password")
	}
}

func TestNetrcSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		file string
		line int
		want string
	}{
		{"machine h\nlogin", 2, "login has no value at the end of the file"},
		{"machine", 1, "machine has no value"},
		{"machine h\n login a password \"open\n", 2, "no closing quote"},
		{`machine h password "a\`, 1, "no closing quote"},
		{"login a password p\nmachine h", 1, "login before any machine or default entry"},
		{"default login a\nmachine h login b", 2, "machine after the default entry"},
		{"default\ndefault", 2, "default after the default entry"},
		{"machine h login a\n\n  port 21\n", 3, `unknown keyword "port"`},
		{`machine h "login" a`, 1, `unexpected "login" where a keyword`},
		{"machine h login a login b", 1, "a second login in the entry of line 1"},
		{"machine h password a passwd b", 1, "a second passwd"},
		{`machine h login "a"b`, 1, "text right after a closing quote"},
		{"machine h\nmacdef\nbody", 2, "macdef has no macro name"},
		{`machine h login "a\nb"`, 1, "the value of login holds CR, LF or NUL"},
		{"machine h login a\x00b", 1, "holds CR, LF or NUL"},
		{`machine ""`, 1, "machine has an empty name"},
		{"machine h password " + strings.Repeat("x", MaxToken+1), 1, "a token longer than 4096 octets"},
		{"machine h password \"" + strings.Repeat("x", MaxToken+1) + "\"", 1, "a token longer than 4096 octets"},
	} {
		_, err := Parse(strings.NewReader(tc.file))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != tc.line || !strings.Contains(se.Reason, tc.want) {
			t.Errorf("%q: %v; want line %d: %s", tc.file, err, tc.line, tc.want)
		}
	}
	// A token of MaxToken octets is read.
	f, err := Parse(strings.NewReader("machine h login a password " + strings.Repeat("x", MaxToken)))
	if err != nil || len(f.Entries[0].Password) != MaxToken {
		t.Errorf("a token of MaxToken octets: %v", err)
	}
}

func TestNetrcTooLarge(t *testing.T) {
	pad := strings.Repeat("# padding\n", MaxSize/10+1)
	if _, err := Parse(strings.NewReader(pad[:MaxSize])); err != nil {
		t.Errorf("MaxSize octets: %v", err)
	}
	if _, err := Parse(strings.NewReader(pad[:MaxSize] + "\n")); err != ErrTooLarge {
		t.Errorf("MaxSize+1 octets: %v, want ErrTooLarge", err)
	}
}
