package urledit

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	_ "github.com/rfc1738/locator/schemes" // every scheme's rules, as the command has them
)

// sets reads --set arguments for a test.
func sets(t *testing.T, args ...string) []Set {
	t.Helper()
	var out []Set
	for _, a := range args {
		s, err := ParseSet(a)
		if err != nil {
			t.Fatalf("ParseSet(%q): %v", a, err)
		}
		out = append(out, s)
	}
	return out
}

// outcome is what an edit gives: the URL written, or "!" and the rule of
// the error (its message when it has none).
func outcome(rs []*Result, errs []error) string {
	var out []string
	for i, r := range rs {
		if errs != nil && errs[i] != nil {
			out = append(out, errText(errs[i]))
			continue
		}
		s, _ := r.String(View{})
		// Written all the same, with the rule it breaks (RFC 1738 §5).
		for _, v := range r.Violations() {
			s += " !" + v.Rule
		}
		out = append(out, s)
	}
	if len(rs) == 0 && len(errs) > 0 {
		out = append(out, errText(errs[0]))
	}
	return strings.Join(out, " ")
}

func errText(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Rule != "" {
		return "!" + e.Rule
	}
	return "!" + err.Error()
}

func TestEditGeneric(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ed   Editor
		sets []string
		want string
	}{
		// The normal form: RFC 1738 §2.1 scheme case, §3.1 host case and
		// the "/" before an empty url-path, §2.2 escapes, dot segments.
		{in: "HTTP://Example.COM", want: "http://example.com/"},
		{in: "hp://example.com", want: "hp://example.com/"},
		{in: "https://example.com/a/../b/%7e%2F", want: "https://example.com/b/%7E%2F"}, // "~" is unsafe (§2.2)
		{in: "https://ex%61mple.com/h%61s/?wh%61t", want: "https://example.com/has/?what"},
		{in: "http://räksmörgås.se/", want: "http://xn--rksmrgs-5wao1o.se/"},
		{in: "http://h:80/", want: "http://h/"},
		{in: "http://h:80/", ed: Editor{KeepPort: true}, want: "http://h:80/"},
		{in: "http://h/", ed: Editor{DefaultPort: true}, want: "http://h:80/"},
		{in: "imap://h:143/", want: "imap://h/"},
		{in: "<URL:ftp://h/f>", want: "ftp://h/f"},
		// What does not conform is written all the same, with its rule;
		// what is not a URL is refused with its rule.
		{in: "http://u:p@h/", want: "http://u:p@h/ !httpurl"},
		{in: "http://10.1/", want: "http://10.1/ !toplabel"},
		{in: "http://[::1]/", want: "http://[::1]/ !host"},
		{in: "http://a b/", want: "!RFC 1738 Appendix"},
		{in: "http://a/\x01", want: "!RFC 1738 §2.2"},
		{in: "ftp://h/a;type=x", want: "ftp://h/a;type=x !ftptype"},
		{in: "telnet://h/x", want: "telnet://h/x !telneturl"},
		// Guessing the scheme (curl's), or not.
		{in: "example.com", ed: Editor{Guess: true}, want: "http://example.com/"},
		{in: "ftp.example.com/x", ed: Editor{Guess: true}, want: "ftp://ftp.example.com/x"},
		{in: "example.com:88", ed: Editor{Guess: true}, want: "http://example.com:88/"},
		{in: "news:comp.lang", ed: Editor{Guess: true}, want: "news:comp.lang"},
		{in: "urn:isbn:1", ed: Editor{Guess: true}, want: "urn:isbn:1"},
		{in: "example.com", want: "!genericurl"},
		{in: "foo://x", ed: Editor{KnownSchemes: true}, want: "!scheme"},
		// Sets: encoded unless ":=", only when absent with "?=", removed
		// when empty.
		{in: "http://h/a", sets: []string{"path=b c/d", "fragment= x#"}, want: "http://h/b%20c/d#%20x%23"},
		{in: "http://h/a", sets: []string{"path:=/%41"}, want: "http://h/A"},
		{in: "http://h:88/", sets: []string{"port?=99"}, want: "http://h:88/"},
		{in: "http://h:88/", sets: []string{"port="}, want: "http://h/"},
		{in: "h", ed: Editor{Guess: true}, sets: []string{"scheme?=https"}, want: "https://h/"},
		{in: "ftp://h/", sets: []string{"scheme?=https"}, want: "ftp://h/"},
		{in: "ftp://h/", sets: []string{"user=a:b", "password=c@d"}, want: "ftp://a%3Ab:c%40d@h/"},
		{in: "imap://u:p;x@h/", sets: []string{"options=y"}, want: "imap://u:p;y@h/"},
		{in: "http://h/", sets: []string{"options=y"}, want: "!options are IMAP's, POP's and SMTP's (RFC 5092 §3.2); a \"http\" URL has none"},
		{in: "http://h/", sets: []string{"port=x"}, want: "!port"},
		// The path: appended segments encoded, a "/" between.
		{in: "http://h/a", ed: Editor{AppendPath: []string{"b c", "%41"}}, want: "http://h/a/b%20c/%2541"},
		{in: "http://h/a/", ed: Editor{AppendPath: []string{"b;c"}}, want: "http://h/a/b;c"},
		{in: "ftp://h/a/", ed: Editor{AppendPath: []string{"b;c"}}, want: "ftp://h/a/b%3Bc"},
		// The query, as a form's pairs.
		{in: "http://h/?a=b%20c&d+e=%2B&&", want: "http://h/?a=b+c&d+e=%2B"},
		{in: "http://h/?&&", want: "http://h/?&&"},
		{in: "http://h/?x=/y", want: "http://h/?x=%2Fy"},
		{in: "http://h/?a=1&utm_x=2&B=3", ed: Editor{Trim: []string{"UTM_*", "b"}}, want: "http://h/?a=1"},
		{in: "http://h/?a=1", ed: Editor{Trim: []string{"a"}}, want: "http://h/"},
		{in: "http://h/?*=1&a=2", ed: Editor{Trim: []string{`\*`}}, want: "http://h/?a=2"},
		{in: "http://h/?k=1&x=2&k=3", ed: Editor{Replace: []string{"k=a b"}}, want: "http://h/?k=a+b&x=2"},
		{in: "http://h/?x=2", ed: Editor{Replace: []string{"k=v"}}, want: "http://h/?x=2"},
		{in: "http://h/?x=2", ed: Editor{Replace: []string{"k=v"}, ReplaceAppend: true}, want: "http://h/?x=2&k=v"},
		{in: "http://h/?b=1&A=2", ed: Editor{SortQuery: true, AppendQuery: []string{"c=&="}}, want: "http://h/?A=2&b=1&c=%26%3D"},
		{in: "http://h/?a=bCd=e", ed: Editor{Separator: 'C', Trim: []string{"d"}, AppendQuery: []string{"C=C"}}, want: "http://h/?a=bC%43=%43"},
		{in: "ftp://h/?x", ed: Editor{AppendQuery: []string{"y"}}, want: "!ftpurl"},
		// Redirect.
		{in: "http://h/a/b", ed: Editor{Redirect: "../c?d"}, want: "http://h/c?d"},
		// Iterate: every combination, the first varying slowest.
		{in: "http://h/", ed: Editor{Iterate: []Iterate{{Name: "port", Values: []string{"1", "2"}}, {Name: "scheme", Values: []string{"http", "ftp"}}}},
			want: "http://h:1/ ftp://h:1/ http://h:2/ ftp://h:2/"},
	} {
		ed := tc.ed
		ed.Sets = sets(t, tc.sets...)
		if got := outcome(ed.Edit(tc.in)); got != tc.want && !(strings.HasPrefix(tc.want, "!") && strings.HasPrefix(got, tc.want)) {
			t.Errorf("%q %+v %q: got %q, want %q", tc.in, tc.ed, tc.sets, got, tc.want)
		}
	}
}

func TestBuild(t *testing.T) {
	for _, tc := range []struct {
		sets []string
		want string
	}{
		{[]string{"host=moo", "scheme=http"}, "http://moo/"},
		{[]string{"scheme=ftps", "host=moo", "path=/hello"}, "ftps://moo/hello"},
		{[]string{"scheme=news", "path=comp.lang"}, "news:comp.lang"},
		{[]string{"scheme=gopher", "host=h", "selector=/a b", "type=0"}, "gopher://h/0/a%20b"},
		{[]string{"host=moo"}, "!not enough input for a URL"},
		{[]string{"scheme=imap"}, "!not enough input for a URL"},
		{[]string{"scheme=news"}, "!not enough input for a URL"},
	} {
		ed := Editor{Sets: sets(t, tc.sets...)}
		if got := outcome(ed.Build()); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.sets, got, tc.want)
		}
	}
}

// TestSchemeParts sets and gets each RFC 1738 scheme's own parts: the
// scheme's builder writes them, and refuses what would not conform with
// its rule.
func TestSchemeParts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		sets []string
		get  string // a template over the result
		want string // the URL written, "|", the template's expansion
	}{
		// ftp (RFC 1738 §3.2): cwd, name, typecode.
		{"ftp://h/a%2Fb/c/f.txt;type=i", nil, "{parts.cwd}|{:parts.cwd}|{parts.name}|{parts.typecode}", "ftp://h/a%2Fb/c/f.txt;type=i|a/b/c|a%2Fb/c|f.txt|i"},
		{"ftp://h/d/f", []string{"typecode=a"}, "{parts.typecode}", "ftp://h/d/f;type=a|a"},
		{"ftp://h/d/f;type=a", []string{"typecode="}, "[parts.typecode]", "ftp://h/d/f|"},
		{"ftp://h/d/f", []string{"typecode=x"}, "", "!ftptype"},                                                   // the builder refuses the part,
		{"ftp://h/d/f", []string{"cwd=/etc/x;y", "name=a b"}, "{parts.cwd}", "ftp://h//etc/x%3By/a%20b|/etc/x;y"}, // "/" separates directories; the first is empty
		{"ftp://h/d/f", []string{"cwd:=a%2Fb/c"}, "{:parts.cwd}", "ftp://h/a%2Fb/c/f|a%2Fb/c"},
		{"ftp://h/d/f", []string{"cwd:=%2Fetc"}, "{parts.cwd}", "ftp://h/%2Fetc/f|/etc"},
		{"ftp://u@h/d/f#frag", []string{"name=g"}, "{user} {fragment}", "ftp://u@h/d/g#frag|u frag"},
		// gopher (§3.4): type, selector, search, plus.
		{"gopher://h/", nil, "{parts.type}[{parts.selector}]", "gopher://h/1|1[]"},
		{"gopher://h/1/dir", []string{"selector=/a b?c", "type=0"}, "{parts.selector}", "gopher://h/0/a%20b?c|/a b?c"},
		{"gopher://h/7/find", []string{"search=two words"}, "{parts.search}", "gopher://h/7/find%09two%20words|two words"},
		{"gopher://h/7/find%09x", []string{"search="}, "{parts.search}", "gopher://h/7/find|"},
		{"gopher://h/1/x", []string{"type=ab"}, "", "!gtype"},
		{"gopher://h/1/x", []string{"selector=a\tb"}, "", "!selector"},
		// news (§3.6): group or article, one at a time.
		{"news:comp.lang", []string{"article=id@host.example"}, "{parts.article}|{parts.group}", "news:id@host.example|id@host.example|"},
		{"news:id@h.example", []string{"group=alt.test"}, "{parts.group}", "news:alt.test|alt.test"},
		{"news:comp.lang", []string{"group=*"}, "{parts.group}", "news:*|*"},
		{"news:comp.lang", []string{"group=9bad"}, "", "!group"},
		// nntp (§3.7): group and article number.
		{"nntp://h/comp.lang/12", nil, "{parts.group} {parts.article}", "nntp://h/comp.lang/12|comp.lang 12"},
		{"nntp://h/comp.lang/12", []string{"article=13"}, "{parts.article}", "nntp://h/comp.lang/13|13"},
		{"nntp://h/comp.lang/12", []string{"article=x"}, "", "!"},
		// wais (§3.9): database, search or document (wtype, wpath).
		{"wais://h/db", []string{"search=two words"}, "{parts.search}", "wais://h/db?two%20words|two words"},
		{"wais://h/db?q", []string{"wtype=TEXT", "wpath=d/1"}, "{parts.wpath}|{:parts.wpath}", "wais://h/db/TEXT/d%2F1|d/1|d%2F1"},
		{"wais://h/db/TEXT/d", []string{"database=other"}, "{parts.database}", "wais://h/other/TEXT/d|other"},
		// prospero (§3.11): hsoname and fields.
		{"prospero://h/a/b;f=v", nil, "{parts.hsoname}|{parts.fields}", "prospero://h/a/b;f=v|a/b|f=v"},
		{"prospero://h/a/b", []string{"fields=x=1;y=a b"}, "{parts.fields}", "prospero://h/a/b;x=1;y=a%20b|x=1;y=a b"},
		{"prospero://h/a/b", []string{"hsoname=c;d/e"}, "{parts.hsoname}", "prospero://h/c%3Bd/e|c;d/e"},
		// mailto (§3.5): the address; RFC 2368's headers are refused.
		{"mailto:joe@example.com", []string{"address=ann@example.org"}, "{parts.address}", "mailto:ann@example.org|ann@example.org"},
		{"mailto:joe@example.com?subject=x", nil, "", "mailto:joe@example.com?subject=x !mailtourl"},
		// telnet (§3.8): the generic login and server, nothing after "/".
		{"telnet://u:p@h:24", nil, "{user} {password} {port} {path}", "telnet://u:p@h:24/|u p 24 /"},
		{"telnet://h", []string{"path=x"}, "", "telnet://h/x !telneturl"},
		{"telnet://h", []string{"selector=x"}, "", "!telnet URLs have no part \"selector\""},
		// http (§3.3) has no part of its own.
		{"http://h/", nil, "{parts.selector}", "!http URLs have no part \"selector\""},
	} {
		ed := Editor{Sets: sets(t, tc.sets...)}
		rs, errs := ed.Edit(tc.in)
		got := outcome(rs, errs)
		if !strings.HasPrefix(got, "!") {
			x, _, err := rs[0].Expand(tc.get, View{})
			if err != nil {
				x = errText(err)
			}
			if tc.get != "" {
				got += "|" + x
			}
			if strings.HasPrefix(x, "!") {
				got = x
			}
		}
		if got != tc.want && !(strings.HasPrefix(tc.want, "!") && strings.HasPrefix(got, tc.want)) {
			t.Errorf("%q %q %q: got %q, want %q", tc.in, tc.sets, tc.get, got, tc.want)
		}
	}
}

func TestExpand(t *testing.T) {
	ed := Editor{Guess: true}
	for _, tc := range []struct {
		in, format string
		view       View
		want       string
	}{
		{"https://curl.se/we/are.html", "{path}", View{}, "/we/are.html"},
		{"https://curl.se/%2e%61%13", "{:path}", View{}, "/.a%13"},
		{"https://curl.se/%2e%61%13", "{path}", View{}, "/.a%13"}, // %13 is not text: kept
		{"https://curl.se/%C3%A5%C2%9B", "{path}", View{}, "/å%C2%9B"},
		{"https://curl.se/x?a=1&b=%23&a=%26", "{query:b}\\t{query-all:a}\\n{:query:b}\\t{:query-all:a}", View{}, "#\t1 &\n%23\t1 %26"},
		{"https://curl.se/x?a=b+c", "{query}|{query:a}|{:query:a}", View{}, "a=b c|b c|b+c"},
		{"localhost", "{scheme} {host", View{}, "http {host"},
		{"localhost", "[scheme] [host", View{}, "http [host"},
		{"localhost", "\\{{scheme}\\[", View{}, "{http["},
		{"localhost", "{{scheme}}", View{}, "{scheme}}"},
		{"http://h:8080/", "{port} {default:port}", View{}, "8080 8080"},
		{"imap://h/", "<{port}> {default:port} {default:url}", View{}, "<> 143 imap://h:143/"},
		{"http://xn--4cab6c/", "{idn:host} {host} {url}", View{Unicode: true}, "åäö åäö http://åäö/"},
		{"http://xn--4cab6c/", "{puny:host}", View{Unicode: true}, "xn--4cab6c"},
		{"https://example.com/", "{must:query}", View{}, "!missing must:query"},
		{"https://example.com/?%00", "{strict:query}", View{}, "!problems URL decoding query"},
		{"https://example.com/", "{nope}", View{}, "!\"nope\" is not a recognized URL component"},
		{"https://example.com/", "{bad:path}", View{}, "!Bad --get syntax: {bad:path}"},
		{"https://example.com/", "{puny:idn:host}", View{}, "!idn modifier is mutually exclusive with puny"},
	} {
		rs, errs := ed.Edit(tc.in)
		if errs != nil {
			t.Errorf("%q: %v", tc.in, errs)
			continue
		}
		got, _, err := rs[0].Expand(tc.format, tc.view)
		if err != nil {
			got = "!" + err.Error()
		}
		if got != tc.want {
			t.Errorf("%q %q: got %q, want %q", tc.in, tc.format, got, tc.want)
		}
	}
}

func TestRecord(t *testing.T) {
	ed := Editor{}
	rs, errs := ed.Edit("ftp://smith:secret@example.com:33/path;type=a#where")
	if errs != nil {
		t.Fatal(errs)
	}
	rec, _ := rs[0].Record(View{}, true)
	b, err := rec.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"url":"ftp://smith:secret@example.com:33/path;type=a#where","parts":{"scheme":"ftp","user":"smith","password":"secret",` +
		`"host":"example.com","port":"33","path":"/path;type=a","fragment":"where"},` +
		`"scheme_parts":{"cwd":[],"name":"path","typecode":"a"}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	rs, _ = ed.Edit("http://h/?q=a%20b&x&&%FF=%7F")
	rec, _ = rs[0].Record(View{}, false)
	b, _ = rec.MarshalJSON()
	want = `{"url":"http://h/?q=a+b&x&%FF=%7F","parts":{"scheme":"http","host":"h","path":"/","query":"q=a b&x&\ufffd=\u007f","query_escaped":"q=a b&x&%FF=\u007f"},` +
		`"params":[{"key":"q","value":"a b"},{"key":"x","value":""},{"key":"\ufffd","key_escaped":"%FF","value":"\u007f"}]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestParseSet(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		want Set
		err  string
	}{
		{"host=x", Set{Name: "host", Value: "x"}, ""},
		{"host:=x", Set{Name: "host", Value: "x", Encoded: true}, ""},
		{"host?=x", Set{Name: "host", Value: "x", IfUnset: true}, ""},
		{"host?:=x", Set{Name: "host", Value: "x", Encoded: true, IfUnset: true}, ""},
		{"host:?=", Set{Name: "host", Encoded: true, IfUnset: true}, ""},
		{"parts.typecode=a", Set{Name: "parts.typecode", Value: "a"}, ""},
		{"typecode=a", Set{Name: "typecode", Value: "a"}, ""},
		{"=x", Set{}, "invalid --set syntax"},
		{"nope=x", Set{}, "unknown component"},
		{"host", Set{}, "invalid --set syntax"},
	} {
		got, err := ParseSet(tc.arg)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.arg, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.arg, got, err, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		ed   Editor
		kind Kind
	}{
		{Editor{Sets: []Set{{Name: "port", Value: "1"}, {Name: "port", Value: "2"}}}, KindSet},
		{Editor{Sets: []Set{{Name: "typecode", Value: "a"}, {Name: "parts.typecode", Value: "i"}}}, KindSet},
		{Editor{Iterate: []Iterate{{Name: "port", Values: []string{"1"}}, {Name: "port", Values: []string{"2"}}}}, KindIterate},
		{Editor{Sets: []Set{{Name: "host", Value: "x"}}, Iterate: []Iterate{{Name: "host", Values: []string{"y"}}}}, KindIterate},
		{Editor{Separator: '%'}, KindSet},
		{Editor{Separator: ';'}, 0},
	} {
		err := tc.ed.Check()
		var e *Error
		switch {
		case tc.kind == 0 && err != nil:
			t.Errorf("%+v: %v", tc.ed, err)
		case tc.kind != 0 && (!errors.As(err, &e) || e.Kind != tc.kind):
			t.Errorf("%+v: error %v, want kind %d", tc.ed, err, tc.kind)
		}
	}
}

// TestResultsStream: Results makes each combination when the previous
// one is taken, so that a caller that stops early (a closed pipe) has
// made no more; 10^9 combinations yield their first two at once.
func TestResultsStream(t *testing.T) {
	v := make([]string, 1000)
	for i := range v {
		v[i] = strconv.Itoa(i + 1)
	}
	ed := Editor{MaxCombinations: 1e9, Iterate: []Iterate{{Name: "port", Values: v}, {Name: "path", Values: v}, {Name: "query", Values: v}}}
	if err := ed.Check(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for r, err := range ed.Results("http://h/") {
		if err != nil {
			t.Fatal(err)
		}
		s, _ := r.String(View{})
		if got = append(got, s); len(got) == 2 {
			break
		}
	}
	if strings.Join(got, " ") != "http://h:1/1?1 http://h:1/1?2" {
		t.Errorf("first results %q", got)
	}
}

// TestCombinations: the count of combinations and its bound
// (DefaultMaxCombinations, as "locator get" bounds its globs).
func TestCombinations(t *testing.T) {
	if DefaultMaxCombinations != 10000 {
		t.Fatalf("DefaultMaxCombinations %d", DefaultMaxCombinations)
	}
	vals := func(n int) []string { return make([]string, n) }
	big := Iterate{Name: "port", Values: vals(1 << 22)}
	for _, tc := range []struct {
		ed   Editor
		n    uint64
		ok   bool
		want string // Check's error, "" for none
	}{
		{Editor{}, 1, true, ""},
		{Editor{Iterate: []Iterate{{Name: "port", Values: vals(100)}, {Name: "path", Values: vals(100)}}}, 10000, true, ""},
		{Editor{Iterate: []Iterate{{Name: "port", Values: vals(10001)}}}, 10001, false, "the --iterate values make 10001 combinations, more than the bound of 10000"},
		{Editor{MaxCombinations: 10001, Iterate: []Iterate{{Name: "port", Values: vals(10001)}}}, 10001, true, ""},
		{Editor{MaxCombinations: 1 << 63, Iterate: []Iterate{big, {Name: "path", Values: big.Values}, {Name: "query", Values: big.Values}}}, 0, false, "more than 2^64 combinations"},
	} {
		n, ok := tc.ed.Combinations()
		err := tc.ed.Check()
		var e *Error
		if n != tc.n || ok != tc.ok || (tc.want == "") != (err == nil) || err != nil && (!strings.Contains(err.Error(), tc.want) || !errors.As(err, &e) || e.Kind != KindIterate) {
			t.Errorf("%d iterates: %d, %v, %v; want %d, %v, %q", len(tc.ed.Iterate), n, ok, err, tc.n, tc.ok, tc.want)
		}
	}
}
