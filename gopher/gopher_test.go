package gopher

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

func TestFrom(t *testing.T) {
	tests := []struct {
		in   string
		want URL
	}{
		// RFC 1738 §3.4.1: an empty gopher-path, with or without "/", is type "1".
		{"gopher://host", URL{Host: "host", Type: "1"}},
		{"gopher://host/", URL{Host: "host", Type: "1"}},
		{"gopher://host:70/1", URL{Host: "host", Port: "70", Type: "1"}},
		// A selector that begins with a copy of the type (§3.4.1).
		{"gopher://gopher.micro.umn.edu/00/Information%20About%20Gopher", URL{Host: "gopher.micro.umn.edu", Type: "0", Selector: "0/Information About Gopher"}},
		// "?" is an ordinary octet of the selector (§3.4.1: no characters are reserved).
		{"gopher://h/0a?b=c", URL{Host: "h", Type: "0", Selector: "a?b=c"}},
		// Draft 03's examples ("host [port]" written as a host).
		{"gopher://host/0a_gopher_selector", URL{Host: "host", Type: "0", Selector: "a_gopher_selector"}},
		{"gopher://host/7a_gopher_selector%09foobar", URL{Host: "host", Type: "7", Selector: "a_gopher_selector", Search: "foobar", HasSearch: true}},
		{"gopher://host/0a_gopher_selector%09%09!", URL{Host: "host", Type: "0", Selector: "a_gopher_selector", HasSearch: true, Plus: "!", HasPlus: true}},
		{"gopher://host/0a_gopher_selector%09%09+application/postscript%20Es_ES", URL{Host: "host", Type: "0", Selector: "a_gopher_selector", HasSearch: true, Plus: "+application/postscript Es_ES", HasPlus: true}},
		// An empty search that is present.
		{"gopher://h/1s%09", URL{Host: "h", Type: "1", Selector: "s", HasSearch: true}},
		// The ASK block keeps its TAB, CR and LF in the Gopher+ string.
		{"gopher://h/0s%09%09+%091%0D%0A+-1%0D%0Aa%0D%0A.%0D%0A", URL{Host: "h", Type: "0", Selector: "s", HasSearch: true, Plus: "+\t1\r\n+-1\r\na\r\n.\r\n", HasPlus: true}},
		// %2509 is a "%" and "09", not a TAB.
		{"gopher://h/1a%2509b", URL{Host: "h", Type: "1", Selector: "a%09b"}},
		// An encoded gophertype.
		{"gopher://h/%30x", URL{Host: "h", Type: "0", Selector: "x"}},
	}
	for _, tt := range tests {
		g, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if *g != tt.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, *g, tt.want)
		}
	}
	if _, err := Parse("http://h/"); err == nil {
		t.Error("Parse(http URL) succeeded")
	} else if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "gopher" || se.Field != "url" || se.Rule != "gopherurl" {
		t.Errorf("Parse(http URL) error %T %v, want a *locator.SchemeError of gopher field url", err, err)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		want []string // "offset rule" of each violation
	}{
		{"gopher://h/1sel%0d%0aINJECT", []string{"15 selector", "18 selector"}},
		{"gopher://h/7s%09a%0Db", []string{"17 search"}},
		{"gopher://h/%0Ds", []string{"11 gtype"}},
		{"gopher://u@h/1", []string{"9 gopherurl"}},
		{"gopher://h/0s%09%09x", []string{"19 gopher+_string"}},
		{"gopher://h/0s%09%09", []string{"19 gopher+_string"}},
		{"gopher://h/0s%09%09?x", []string{"20 gopher+_string"}},
		{"gopher://h/0s%09%09!a%20%20b", []string{"24 gopher+_string"}},
		{"gopher://h/0s%09%09!a%20", []string{"21 gopher+_string"}},
		{"gopher://h/0s%09%09+v%20", []string{"21 gopher+_string"}},
		{"gopher://h/0s%09%09+%20en", []string{"20 gopher+_string"}},
		{"gopher://h/0s%09%09+v%20l%20x", []string{"25 gopher+_string"}},
		{"gopher://h/0s%09%09!a%0Db", []string{"21 gopher+_string"}},
		{"gopher://h/0s%09%09+%092%0D%0A", []string{"23 gopher+_string"}},
		{"gopher://h/0s%09%09+%091%0D%0A+-2%0D%0A.%0D%0A", []string{"30 gopher+_string"}},
		{"gopher://h/0s%09%09+%091%0D%0A+-1%0D%0Aa%0D%0A", []string{"46 gopher+_string"}},
		{"gopher://h/0s%09%09+%091%0D%0A+-1%0D%0Aa%0Db%0D%0A.%0D%0A", []string{"40 gopher+_string"}},
		{"gopher://h/0s%09%09+%091%0D%0A+-1%0D%0A.%0D%0Ax", []string{"46 gopher+_string"}},
		// Conforming forms.
		{"gopher://h/0s%09%09+", nil},
		{"gopher://h/0s%09%09?", nil},
		{"gopher://h/0s%09%09%3F", nil},
		{"gopher://h/0s%09%09$", nil},
		{"gopher://h/0s%09%09$+VIEWS", nil},
		{"gopher://h/0s%09%09!+ABSTRACT%20+SMELL", nil},
		{"gopher://h/0s%09%09+%091%0D%0A+-1%0D%0A.%0D%0A", nil},
		{"gopher://h/0s%09%09+text/html%20En_US%091%0D%0A+-1%0D%0Aa%09b%0D%0A.%0D%0A", nil},
	}
	for _, tt := range tests {
		u, err := locator.Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		got := loctest.Where(u.Problems(), locator.Violation)
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("Parse(%q) violations = %q, want %q\n%v", tt.in, got, tt.want, u.Problems())
		}
	}
}

func TestParts(t *testing.T) {
	tests := []struct{ in, want string }{
		{"gopher://host", `{"type":"1","selector":""}`},
		{"gopher://h/7foo%09bar%20baz", `{"type":"7","selector":"foo","search":"bar baz"}`},
		{"gopher://h/1s%09", `{"type":"1","selector":"s","search":""}`},
		{"gopher://h/0s%09%09+", `{"type":"0","selector":"s","search":"","plus":"+"}`},
		{"gopher://h/0s%09q%09!+ABSTRACT%20+SMELL", `{"type":"0","selector":"s","search":"q","plus":"!+ABSTRACT +SMELL"}`},
	}
	for _, tt := range tests {
		u, err := locator.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(locator.Lookup("gopher").Parts(u))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("Parts(%q) = %s, want %s", tt.in, b, tt.want)
		}
	}
}

func TestParsePlus(t *testing.T) {
	tests := []struct {
		in   string
		want Plus
	}{
		{"+", Plus{Command: '+'}},
		{"?", Plus{Command: '?'}},
		{"!", Plus{Command: '!'}},
		{"$", Plus{Command: '$'}},
		{"!+ABSTRACT", Plus{Command: '!', Attributes: []string{"+ABSTRACT"}}},
		{"!+ABSTRACT +SMELL", Plus{Command: '!', Attributes: []string{"+ABSTRACT", "+SMELL"}}},
		{"$+VIEWS", Plus{Command: '$', Attributes: []string{"+VIEWS"}}},
		{"+application/postscript Es_ES", Plus{Command: '+', View: "application/postscript", Language: "Es_ES"}},
		{"+text/html", Plus{Command: '+', View: "text/html"}},
		// RFC 1738 §3.4.9 and draft-murali §3.2.
		{"+\t1\r\n+-1\r\nNew York\r\nUSA\r\n.\r\n", Plus{Command: '+', Form: []string{"New York", "USA"}, HasForm: true}},
		// Draft 03's "really complex example".
		{"+view_name language_name\t1\r\n+-1\r\nask_item1_value\r\nask_item2_value\r\n.\r\n",
			Plus{Command: '+', View: "view_name", Language: "language_name", Form: []string{"ask_item1_value", "ask_item2_value"}, HasForm: true}},
	}
	for _, tt := range tests {
		p, err := ParsePlus(tt.in)
		if err != nil {
			t.Errorf("ParsePlus(%q): %v", tt.in, err)
			continue
		}
		if !samePlus(p, &tt.want) {
			t.Errorf("ParsePlus(%q) = %+v, want %+v", tt.in, *p, tt.want)
		}
		if s := p.String(); s != tt.in {
			t.Errorf("ParsePlus(%q).String() = %q", tt.in, s)
		}
	}
	for _, bad := range []string{"", "x", "?a", "! a", "+ a", "+a ", "+a b c", "+\t", "+\t1\r\n", "+\t1\r\n+-1\r\n", "+\t1\n+-1\r\n.\r\n"} {
		if p, err := ParsePlus(bad); err == nil {
			t.Errorf("ParsePlus(%q) = %+v, want an error", bad, *p)
		} else if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "gopher" || se.Field != "plus" {
			t.Errorf("ParsePlus(%q) error %T %v, want a *locator.SchemeError of gopher field plus", bad, err, err)
		}
	}
}

func samePlus(a, b *Plus) bool {
	return a.Command == b.Command && a.View == b.View && a.Language == b.Language &&
		strings.Join(a.Attributes, "\x00") == strings.Join(b.Attributes, "\x00") && len(a.Attributes) == len(b.Attributes) &&
		strings.Join(a.Form, "\x00") == strings.Join(b.Form, "\x00") && len(a.Form) == len(b.Form) && a.HasForm == b.HasForm
}

func TestPlan(t *testing.T) {
	tests := []struct {
		in, host string
		port     int
		req      string
		ask      bool
	}{
		{"gopher://host", "host", 70, "\r\n", false},
		{"gopher://host:7070/0a_gopher_selector", "host", 7070, "a_gopher_selector\r\n", false},
		// §3.4.2: selector, a tab, and the search string.
		{"gopher://host/7a_gopher_selector%09foobar", "host", 70, "a_gopher_selector\tfoobar\r\n", false},
		// §3.4.3: the (empty) search is sent before the Gopher+ commands.
		{"gopher://host/0sel%09%09+", "host", 70, "sel\t+\r\n", false},
		{"gopher://host/0sel%09%09!+ABSTRACT%20+SMELL", "host", 70, "sel\t!+ABSTRACT +SMELL\r\n", false},
		{"gopher://host/0sel%09%09+application/postscript%20Es_ES", "host", 70, "sel\t+application/postscript Es_ES\r\n", false},
		{"gopher://host/1dir%09%09$", "host", 70, "dir\t$\r\n", false},
		// §3.4.5: "?" fetches the +ASK attribute first.
		{"gopher://host/0sel%09%09?", "host", 70, "sel\t!+ASK\r\n", true},
		// §3.4.9: the filled-out form is sent as a data block.
		{"gopher://host/0sel%09%09+%091%0D%0A+-1%0D%0ANew%20York%0D%0AUSA%0D%0A.%0D%0A", "host", 70,
			"sel\t+\t1\r\n+-1\r\nNew York\r\nUSA\r\n.\r\n", false},
		{"gopher://[::1]/1", "::1", 70, "\r\n", false},
	}
	for _, tt := range tests {
		g, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.in, err)
		}
		p, err := g.Plan()
		if err != nil {
			t.Errorf("Plan(%q): %v", tt.in, err)
			continue
		}
		if p.Host != tt.host || p.Port != tt.port || string(p.Request) != tt.req || p.AskForm != tt.ask {
			t.Errorf("Plan(%q) = %s:%d %q ask=%v, want %s:%d %q ask=%v", tt.in, p.Host, p.Port, p.Request, p.AskForm, tt.host, tt.port, tt.req, tt.ask)
		}
	}
	for _, bad := range []string{"gopher://h/1sel%0d%0aINJECT/1609", "gopher://h/7s%09a%0Ab", "gopher://h/0s%09%09x", "gopher://h/0s%09%09+%091%0D%0A"} {
		g, err := Parse(bad)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := g.Plan(); err == nil {
			t.Errorf("Plan(%q) = %q, want an error", bad, p.Request)
		}
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		g    URL
		want string
	}{
		{URL{Host: "h"}, "gopher://h/1"},
		{URL{Host: "h", Type: "0", Selector: "0/About Gopher"}, "gopher://h/00/About%20Gopher"},
		{URL{Host: "h", Type: "7", Selector: "s", Search: "a b%", HasSearch: true}, "gopher://h/7s%09a%20b%25"},
		{URL{Host: "h", Type: "0", Selector: "s", Plus: "+", HasPlus: true}, "gopher://h/0s%09%09+"},
		{URL{Host: "h", Port: "7070", Type: "0", Selector: "s#?", Plus: "+\t1\r\n+-1\r\nNew York\r\n.\r\n", HasPlus: true},
			"gopher://h:7070/0s%23?%09%09+%091%0D%0A+-1%0D%0ANew%20York%0D%0A.%0D%0A"},
	}
	for _, tt := range tests {
		s, err := tt.g.Build()
		if err != nil {
			t.Errorf("Build(%+v): %v", tt.g, err)
			continue
		}
		if s != tt.want {
			t.Errorf("Build(%+v) = %q, want %q", tt.g, s, tt.want)
		}
	}
	for _, bad := range []struct {
		g     URL
		field string // of the *locator.SchemeError
	}{
		{URL{Host: "h", Selector: "a\tb"}, "selector"},
		{URL{Host: "h", Search: "a\r\nb", HasSearch: true}, "search"},
		{URL{Host: "h", Type: "\t"}, "type"},
		{URL{Host: "h", Type: "01"}, "type"},
		{URL{Host: "h", Plus: "x", HasPlus: true}, "plus"},
		{URL{Host: ""}, "host"},
		{URL{Host: "bad host"}, "host"},
		{URL{Host: "h", Port: "x"}, "port"},
	} {
		s, err := bad.g.Build()
		if err == nil {
			t.Errorf("Build(%+v) = %q, want an error", bad.g, s)
			continue
		}
		if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "gopher" || se.Field != bad.field {
			t.Errorf("Build(%+v) error %T %v, want a *locator.SchemeError of gopher field %s", bad.g, err, err, bad.field)
		}
	}
	// An IPv6 host is written in brackets, which RFC 1738's hostport
	// does not have: the read-back refuses it.
	if s, err := (&URL{Host: "::1"}).Build(); err == nil {
		t.Errorf("Build(IPv6 host) = %q, want an error", s)
	} else if be, ok := err.(*locator.BuildError); !ok || be.Scheme != "gopher" {
		t.Errorf("Build(IPv6 host) error %T %v, want a *locator.BuildError", err, err)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"gopher://host", "gopher://host/1"},
		{"gopher://host/", "gopher://host/1"},
		{"gopher://host/1", "gopher://host/1"},
		{"gopher://h/%30%61b%2fc%7e", "gopher://h/0ab/c%7E"},
		{"gopher://h/7s%09a%20b", "gopher://h/7s%09a%20b"},
		{"gopher://h/0s%09%09+%091%0d%0a+-1%0d%0a.%0d%0a", "gopher://h/0s%09%09+%091%0D%0A+-1%0D%0A.%0D%0A"},
	}
	for _, tt := range tests {
		u, err := locator.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		p := u.Parts()
		locator.Lookup("gopher").(locator.Normalizer).Normalize(&p)
		if s := p.String(); s != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, s, tt.want)
		}
	}
}

// unescapePerl undoes the perl-uri TSV escapes: \\ \t \n \r \xHH.
func unescapePerl(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'x':
			if i+2 < len(s) {
				v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
				if err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteString(`\x`)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// TestPerlURI checks the gopher rows of libwww-perl URI's gopher.t and
// old-base.t. Perl reports the selector of an empty gopher-path as undef;
// we report "" (RFC 1738 §3.4.1: the empty selector is what the client
// sends for the top-level directory), so <undef> selector is compared as
// "" and counted.
func TestPerlURI(t *testing.T) {
	n, undefSel := 0, 0
	for _, r := range loctest.ReadTSV(t, "perl-uri", "extracted", "scheme_components_handwritten.tsv") {
		if len(r) < 4 || !strings.HasPrefix(r[1], "gopher:") {
			continue
		}
		in := unescapePerl(r[1])
		switch {
		case r[2] == "host,port,gopher_type,selector,search":
			g, err := Parse(in)
			if err != nil {
				t.Errorf("%s: %v", in, err)
				continue
			}
			want := strings.Split(unescapePerl(r[3]), "|")
			sel := want[3]
			if sel == "<undef>" {
				sel = ""
				undefSel++
			}
			port := g.Port
			if port == "" {
				port = "70"
			}
			search := "<undef>"
			if g.HasSearch {
				search = g.Search
			}
			if g.Host != want[0] || port != want[1] || g.Type != want[2] || g.Selector != sel || search != want[4] {
				t.Errorf("%s: got %s|%s|%s|%s|%s, want %s", in, g.Host, port, g.Type, g.Selector, search, r[3])
			}
			n++
		case strings.HasPrefix(r[2], "(built by setters"):
			// gopher://gopher:33/3S%09query built from port=33 gtype=3 selector=S search=query.
			s, err := (&URL{Host: "gopher", Port: "33", Type: "3", Selector: "S", Search: "query", HasSearch: true}).Build()
			if err != nil || s != r[3] {
				t.Errorf("Build = %q, %v; want %q", s, err, r[3])
			}
			n++
		case r[2] == "gtype,selector,search,string,path":
			g, err := Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(unescapePerl(r[3]), "|")
			if g.Type != want[0] || g.Selector != want[1] || g.Search != want[2] || g.HasPlus != (want[3] != "<undef>") {
				t.Errorf("%s: got %+v, want %s", in, *g, r[3])
			}
			n++
		}
	}
	for _, r := range loctest.ReadTSV(t, "perl-uri", "extracted", "old-base_scheme_parse.tsv") {
		if len(r) < 3 || !strings.HasPrefix(r[0], "gopher:") {
			continue
		}
		u, err := locator.Parse(r[0])
		if err != nil {
			t.Fatal(err)
		}
		g, _ := From(u)
		var got string
		switch r[1] {
		case "gtype":
			got = g.Type
		case "selector":
			got = g.Selector
		case "as_string":
			got = u.String()
		default:
			t.Errorf("unknown accessor %q", r[1])
			continue
		}
		if got != r[2] {
			t.Errorf("%s %s = %q, want %q", r[0], r[1], got, r[2])
		}
		n++
	}
	if n != 16 || undefSel != 4 {
		t.Errorf("%d Perl URI gopher rows checked, %d undef selectors; measured 16 and 4", n, undefSel)
	}
	t.Logf("%d Perl URI gopher rows agree; %d where Perl's undef selector is our \"\"", n, undefSel)
}

// TestCurl checks curl's gopher cases: the selector line curl sends is the
// RFC 1738 request of the URL, and curl's refusal of an encoded CR LF
// (test 1609) is our Plan's refusal. gophers (TLS, test 1272) is not an
// RFC 1738 scheme and is skipped.
func TestCurl(t *testing.T) {
	n := 0
	for _, r := range loctest.ReadTSV(t, "curl", "url_to_protocol.tsv") {
		if len(r) < 7 || r[1] != "gopher" {
			continue
		}
		num := r[0]
		in := strings.NewReplacer("%HOSTIP", "127.0.0.1", "%GOPHERPORT", "7070", "%TESTNUMBER", num).Replace(r[3])
		want := strings.TrimPrefix(r[5], "selector line: ")
		want = strings.NewReplacer(`\t`, "\t", "%TESTNUMBER", num).Replace(want)
		g, err := Parse(in)
		if err != nil {
			t.Errorf("test %s: %v", num, err)
			continue
		}
		p, err := g.Plan()
		if r[6] != "0" {
			if err == nil {
				t.Errorf("test %s: %s planned %q; curl refuses it (exit %s)", num, in, p.Request, r[6])
			}
			n++
			continue
		}
		if err != nil {
			t.Errorf("test %s: %v", num, err)
			continue
		}
		if string(p.Request) != want+"\r\n" || p.Port != 7070 {
			t.Errorf("test %s: %s sends %q to port %d, curl sends %q", num, in, p.Request, p.Port, want+"\r\n")
		}
		n++
	}
	if n != 4 {
		t.Errorf("%d curl gopher cases checked, want 4", n)
	}
}

// TestInText checks the gopher URLs the texts wrap in running text: each
// is read, and the space the authors left unencoded is a violation.
func TestInText(t *testing.T) {
	n := 0
	for _, r := range loctest.ReadTSV(t, "rfc", "in-text-wrapped-urls.tsv") {
		if len(r) < 4 || !strings.HasPrefix(r[3], "gopher:") {
			continue
		}
		u, err := locator.Parse(r[3])
		if err != nil {
			t.Errorf("%s: %v", r[3], err)
			continue
		}
		g, _ := From(u)
		if g.Type != "0" || !strings.HasPrefix(g.Selector, "0/Information") {
			t.Errorf("%s: %+v", r[3], *g)
		}
		if u.Conforms() {
			t.Errorf("%s: an unencoded space conforms", r[3])
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d gopher URLs in in-text-wrapped-urls.tsv; measured 2", n)
	}
}
