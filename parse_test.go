package locator

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/loctest/vectors"
)

// comps writes a URL's components compactly for table tests; absent
// components are left out and present ones are written even when empty.
func comps(u *URL) string {
	var b strings.Builder
	b.WriteString("scheme=" + u.Scheme())
	if u.HasUser() {
		b.WriteString(" user=" + u.User())
	}
	if u.HasPassword() {
		b.WriteString(" password=" + u.Password())
	}
	if u.HasAuthority() {
		b.WriteString(" host=" + u.Host())
	}
	if u.HasPort() {
		b.WriteString(" port=" + u.Port())
	}
	if u.HasPath() {
		b.WriteString(" path=" + u.Path())
	}
	if u.HasSearch() {
		b.WriteString(" search=" + u.Search())
	}
	if u.HasFragment() {
		b.WriteString(" fragment=" + u.Fragment())
	}
	return b.String()
}

func TestParseComponents(t *testing.T) {
	tests := []struct{ in, want string }{
		// RFC 1738 §3.1: absent and empty user and password differ.
		{"ftp://@host.com/", "scheme=ftp user= host=host.com path="},
		{"ftp://host.com/", "scheme=ftp host=host.com path="},
		{"ftp://foo:@host.com/", "scheme=ftp user=foo password= host=host.com path="},
		{"ftp://host.com", "scheme=ftp host=host.com"},
		{"ftp://u%40x:p%3Aw@host.com:2121/a/b;type=i", "scheme=ftp user=u%40x password=p%3Aw host=host.com port=2121 path=a/b;type=i"},
		// §3.2: "?" is an fsegment character, not a search.
		{"ftp://h/a?b", "scheme=ftp host=h path=a?b"},
		// §3.3: http splits the search.
		{"http://www.w3.org/hypertext/WWW/TheProject.html?q=1#frag", "scheme=http host=www.w3.org path=hypertext/WWW/TheProject.html search=q=1 fragment=frag"},
		{"http://h", "scheme=http host=h"},
		{"http://h?q", "scheme=http host=h search=q"},
		{"http://h:/", "scheme=http host=h port= path="},
		{"HTTP://H.COM/X", "scheme=http host=H.COM path=X"},
		// RFC 2732 literal.
		{"http://[FEDC:BA98:7654:3210:FEDC:BA98:7654:3210]:80/index.html", "scheme=http host=FEDC:BA98:7654:3210:FEDC:BA98:7654:3210 port=80 path=index.html"},
		{"http://[::192.9.5.5]/ipng", "scheme=http host=::192.9.5.5 path=ipng"},
		// Schemes without the Internet syntax.
		{"mailto:mduerst@ifi.unizh.ch", "scheme=mailto path=mduerst@ifi.unizh.ch"},
		{"mailto:joe@x.org?subject=hi", "scheme=mailto path=joe@x.org search=subject=hi"},
		{"news:*", "scheme=news path=*"},
		{"news:1234@a.sn.no", "scheme=news path=1234@a.sn.no"},
		{"news:a?b@c", "scheme=news path=a?b@c"},
		// gopher: "?" belongs to the selector.
		{"gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles", "scheme=gopher host=spinaltap.micro.umn.edu path=00/Weather/California/Los%20Angeles"},
		{"gopher://h/7foo?bar", "scheme=gopher host=h path=7foo?bar"},
		{"file://vms.host.edu/disk$user/my/notes/note12345.txt", "scheme=file host=vms.host.edu path=disk$user/my/notes/note12345.txt"},
		{"file:///etc/passwd", "scheme=file host= path=etc/passwd"},
		{"prospero://host.dom//pros/name", "scheme=prospero host=host.dom path=/pros/name"},
		{"wais://quake.think.com/directory-of-servers?search", "scheme=wais host=quake.think.com path=directory-of-servers search=search"},
		{"telnet://user:pw@h:2323/", "scheme=telnet user=user password=pw host=h port=2323 path="},
		{"nntp://news.example/comp.lang/12", "scheme=nntp host=news.example path=comp.lang/12"},
		// Unknown schemes: generic split, Internet syntax only with "//".
		{"x-foo:bar?baz#q", "scheme=x-foo path=bar search=baz fragment=q"},
		{"z39.50s://h:210/db", "scheme=z39.50s host=h port=210 path=db"},
		{"a+b-c.d:x", "scheme=a+b-c.d path=x"},
		// Wrappers and prefix (Appendix; 1993 draft "Wrappers").
		{"URL:ftp://h/f", "scheme=ftp host=h path=f"},
		{"url:ftp://h/f", "scheme=ftp host=h path=f"},
		{"<URL:ftp://h/f>", "scheme=ftp host=h path=f"},
		{"<URL: ftp://h/f >", "scheme=ftp host=h path=f"},
		{"<http://h/#x>", "scheme=http host=h path= fragment=x"},
		// Fragment: everything after the first "#".
		{"http://h/a#b#c", "scheme=http host=h path=a fragment=b#c"},
		{"http://h/#", "scheme=http host=h path= fragment="},
		// Userinfo: the last "@" ends it; an unencoded "@" is a violation.
		{"ftp://a@b@h/", "scheme=ftp user=a@b host=h path="},
		{"ftp://a:b:c@h/", "scheme=ftp user=a password=b:c host=h path="},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := comps(u); got != tt.want {
			t.Errorf("Parse(%q)\n got  %s\n want %s", tt.in, got, tt.want)
		}
		v, err := Parse(u.String())
		if err != nil || !u.SameComponents(v) {
			t.Errorf("Parse(%q).String() = %q does not reparse to the same components (%v)", tt.in, u.String(), err)
		}
	}
}

// TestParseProblems pins each problem's offset, severity and rule.
func TestParseProblems(t *testing.T) {
	type prob struct {
		off  int
		sev  Severity
		rule string
	}
	tests := []struct {
		in   string
		want []prob
	}{
		{"http://h/a", nil},
		{"http://h/~joe", []prob{{9, Violation, "urlpath"}}}, // "~" is national
		{"http://h/a b", []prob{{10, Violation, "urlpath"}}}, // space
		{"http://h/%zz", []prob{{9, Violation, "escape"}}},   // bad escape
		{"http://h/a%2", []prob{{10, Violation, "escape"}}},  // short escape
		{"http://h/?a|b", []prob{{11, Violation, "search"}}}, // "|" in search
		{"http://h/#a b", []prob{{11, Violation, "fragmentaddress"}}},
		{"HTTP://h/", []prob{{0, Violation, "scheme"}}},
		{"http://-h.com/", []prob{{7, Violation, "domainlabel"}}},
		{"http://h-.com/", []prob{{8, Violation, "domainlabel"}}},
		{"http://a..b/", []prob{{9, Violation, "hostname"}}},
		{"http://a.b./", []prob{{10, Violation, "hostname"}}},
		{"http://a.1b/", []prob{{9, Violation, "toplabel"}}}, // toplabel never starts with a digit
		{"http://1.2.3/", []prob{{11, Violation, "toplabel"}}},
		{"http://10.0.0.1/", nil},
		{"http://10.0.0.256/", []prob{{14, Violation, "hostnumber"}}},
		{"http://my_host.com/", []prob{{9, Violation, "hostname"}}},
		{"http://h%41.com/", []prob{{8, Violation, "hostname"}}},
		{"http://bücher.de/", []prob{{8, Violation, "hostname"}}},
		{"http:///a", []prob{{7, Violation, "host"}}},
		{"http:/a", []prob{{5, Violation, "ip-schemepart"}}},
		{"file:///a", nil},
		{"http://[::1]/", []prob{{7, Violation, "host"}}},
		{"http://h:8080/", []prob{{9, Warning, "RFC 1738 §6"}}},
		{"http://h:25/", []prob{{9, Warning, "RFC 1738 §6"}}},
		{"http://h:80/", nil},
		{"http://h:/", []prob{{8, Violation, "port"}}},
		{"ftp://u:p@h/", []prob{{8, Warning, "RFC 1738 §3.1"}}},
		{"ftp://u:p:x@h/", []prob{{8, Warning, "RFC 1738 §3.1"}, {9, Violation, "password"}}},
		{"ftp://a@b@h/", []prob{{7, Violation, "user"}}},
		{"telnet://h/%0D%0A", []prob{{11, Warning, "RFC 1738 §6"}, {14, Warning, "RFC 1738 §6"}}},
		{"http://h/%00%09", []prob{{9, Warning, "RFC 1738 §6"}, {12, Warning, "RFC 1738 §6"}}},
		{" http://h/", []prob{{0, Violation, "RFC 1738 Appendix"}}},
		{"http://h/é", []prob{{9, Violation, "urlpath"}}},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		var got []prob
		for _, p := range u.Problems() {
			got = append(got, prob{p.Offset, p.Severity, p.Rule})
			if p.Message == "" {
				t.Errorf("Parse(%q): problem without a message: %+v", tt.in, p)
			}
		}
		if len(got) != len(tt.want) {
			t.Errorf("Parse(%q) problems = %+v, want %+v", tt.in, u.Problems(), tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("Parse(%q) problem %d = %+v, want %+v", tt.in, i, got[i], tt.want[i])
			}
		}
		wantConforms := true
		for _, p := range tt.want {
			if p.sev >= Violation {
				wantConforms = false
			}
		}
		if u.Conforms() != wantConforms {
			t.Errorf("Parse(%q).Conforms() = %v", tt.in, u.Conforms())
		}
	}
}

// TestParseErrors: input that cannot be read as an absolute URL fails
// with a *ParseError naming the offset and the rule.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		off  int
		rule string
	}{
		{"", 0, "genericurl"},
		{"   ", 3, "genericurl"},
		{"foo/bar", 0, "genericurl"},
		{"/a/b", 0, "genericurl"},
		{"//host/a", 0, "genericurl"},
		{"?q", 0, "genericurl"},
		{":foo", 0, "scheme"},
		{"ht tp://h/", 2, "scheme"},
		{"h\"x:y", 1, "scheme"},
		{"http://ex ample.com/", 9, "host"},
		{"http://a<b/", 8, "host"},
		{"http://h:8o/", 10, "port"},
		{"http://h:99999/", 9, "port"},
		{"http://h:1:2/", 10, "port"},
		{"http://[::1/", 7, "host"},
		{"http://[1:2:3]/", 8, "host"},
		{"http://[::1]x/", 12, "hostport"},
		{"<http://h/", 0, "RFC 1738 Appendix"},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want an error", tt.in, comps(u))
			continue
		}
		pe, ok := err.(*ParseError)
		if !ok {
			t.Errorf("Parse(%q): error %T, want *ParseError", tt.in, err)
			continue
		}
		if pe.Problem.Severity != Error || pe.Problem.Offset != tt.off || pe.Problem.Rule != tt.rule {
			t.Errorf("Parse(%q): %v, want offset %d rule %s", tt.in, pe.Problem, tt.off, tt.rule)
		}
		if !strings.Contains(err.Error(), tt.rule) {
			t.Errorf("Parse(%q): message %q does not name the rule", tt.in, err)
		}
	}
}

func TestEffectivePort(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"ftp://h/", 21}, {"http://h/", 80}, {"https://h/", 443}, {"gopher://h/", 70},
		{"nntp://h/g", 119}, {"telnet://h/", 23}, {"wais://h/d", 210}, {"prospero://h/p", 1525},
		{"http://h:8080/", 8080}, {"http://h:/", 80}, {"file:///x", 0}, {"mailto:a@b", 0},
		{"x-y://h:99/", 99},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := u.EffectivePort(); got != tt.want {
			t.Errorf("EffectivePort(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestValidIPv6(t *testing.T) {
	good := []string{"::", "::1", "1::", "1:2:3:4:5:6:7:8", "1::8", "FEDC:BA98:7654:3210:FEDC:BA98:7654:3210",
		"1080::8:800:200C:417A", "::FFFF:129.144.52.38", "::13.1.68.3", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5::8"}
	bad := []string{"", ":", ":1", "1:", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::",
		"::1.2.3", "::1.2.3.256", "::01.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "fe80::1%eth0", "1:::2", "::1:"}
	for _, s := range good {
		if !validIPv6(s) {
			t.Errorf("validIPv6(%q) = false", s)
		}
	}
	for _, s := range bad {
		if validIPv6(s) {
			t.Errorf("validIPv6(%q) = true", s)
		}
	}
}

// TestRFC1738NormativeExamples reads the examples RFC 1738 gives for the
// components (../shared/conformance/rfc/rfc1738-normative-examples.tsv)
// and checks those the core owns: user/password presence (§3.1) and the
// host/path split of §3.10. Scheme packages check the scheme rows.
func TestRFC1738NormativeExamples(t *testing.T) {
	want := map[string]string{
		"ftp://@host.com/":     "scheme=ftp user= host=host.com path=",
		"ftp://host.com/":      "scheme=ftp host=host.com path=",
		"ftp://foo:@host.com/": "scheme=ftp user=foo password= host=host.com path=",
		"file://vms.host.edu/disk$user/my/notes/note12345.txt": "scheme=file host=vms.host.edu path=disk$user/my/notes/note12345.txt",
	}
	n := 0
	for _, fields := range vectors.ReadTSV(t, "rfc", "rfc1738-normative-examples.tsv") {
		in := fields[1]
		u, err := Parse(in)
		if err != nil {
			t.Errorf("§%s %q: %v", fields[0], in, err)
			continue
		}
		n++
		if w, ok := want[in]; ok {
			if got := comps(u); got != w {
				t.Errorf("§%s %q: got %s, want %s", fields[0], in, got, w)
			}
			delete(want, in)
		}
	}
	// The file holds 11 examples RFC 1738 gives; all must parse.
	if n != 11 || len(want) > 0 {
		t.Errorf("read %d examples (measured 11); not found in the file: %v", n, want)
	}
}

// TestPartsString: a URL's Parts, changed, write the components as they
// are now; String of a URL is its text without a wrapper, scheme in lower
// case.
func TestPartsString(t *testing.T) {
	tests := []struct {
		in     string
		change func(*Parts)
		want   string
	}{
		{"<URL:http://h/a?b#c>", func(*Parts) {}, "http://h/a?b#c"},
		{"HTTP://h/a", func(*Parts) {}, "http://h/a"},
		{"http://h/abc", func(p *Parts) { p.Path = "ab" }, "http://h/ab"},
		{"http://h/ab c", func(p *Parts) { p.Path = "ab" }, "http://h/ab"},
		{"http://h/a", func(p *Parts) { p.Host = "::1" }, "http://[::1]/a"},
		{"ftp://u:p@h:21/", func(p *Parts) { p.HasPassword = false }, "ftp://u@h:21/"},
		{"http://h/a#f", func(p *Parts) { p.HasFragment = false }, "http://h/a"},
		{"news:a.b", func(p *Parts) { p.Scheme = "nntp" }, "nntp:a.b"},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		p := u.Parts()
		if got := p.String(); got != u.String() {
			t.Errorf("%q: Parts().String() = %q, String() = %q", tt.in, got, u.String())
		}
		tt.change(&p)
		if got := p.String(); got != tt.want {
			t.Errorf("%q changed: String() = %q, want %q", tt.in, got, tt.want)
		}
	}
	p := Parts{Scheme: "ftp", HasAuthority: true, Host: "h", HasPath: true, Path: "x"}
	if got := p.String(); got != "ftp://h/x" {
		t.Errorf("built URL: String() = %q", got)
	}
	var zero URL
	if zero.String() != "" || zero.Scheme() != "" || zero.Conforms() || zero.Offset(HostComponent) != 0 {
		t.Errorf("the zero URL: %q %q %v", zero.String(), zero.Scheme(), zero.Conforms())
	}
}

// TestTextExamples parses every URL the texts themselves write in a
// wrapper (../shared/conformance/rfc/in-text-wrapped-urls.tsv: RFC 1738,
// draft 03, RFC 1808, RFC 1630), both as extracted and, where it is on
// one line, in its wrapper as printed. Each must be read as an absolute
// URL; the malformed rows the file flags (a space not at a line break)
// must be reported, not passed.
func TestTextExamples(t *testing.T) {
	n := 0
	for _, fields := range vectors.ReadTSV(t, "rfc", "in-text-wrapped-urls.tsv") {
		raw, want, notes := fields[2], fields[3], fields[4]
		n++
		u, err := Parse(want)
		if err != nil {
			t.Errorf("%s:%s %q: %v", fields[0], fields[1], want, err)
			continue
		}
		if strings.Contains(notes, "malformed") && u.Conforms() {
			t.Errorf("%s:%s %q: a space inside is not reported", fields[0], fields[1], want)
		}
		if !strings.Contains(raw, `\n`) {
			w, err := Parse(raw)
			if err != nil || !w.SameComponents(u) {
				t.Errorf("%s:%s: wrapper %q reads differently from %q (%v)", fields[0], fields[1], raw, want, err)
			}
		}
	}
	if n != 99 {
		t.Errorf("read %d rows; the file has 99 (measured)", n)
	}
	t.Logf("%d URLs from the texts", n)
}

// TestProblemLimit: hostile input cannot multiply its size in problems;
// past MaxProblems one summary keeps the highest severity dropped.
func TestProblemLimit(t *testing.T) {
	u, err := Parse("http://h/" + strings.Repeat("~", 10000))
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Problems()) != MaxProblems+1 {
		t.Fatalf("%d problems, want %d", len(u.Problems()), MaxProblems+1)
	}
	last := u.Problems()[MaxProblems]
	if last.Rule != "url" || last.Severity != Violation || last.Offset != 9+MaxProblems || !strings.Contains(last.Message, "9900 more") {
		t.Errorf("summary problem %+v", last)
	}
	// Warnings first, a violation past the limit: Conforms still says no.
	u, _ = Parse("http://h/" + strings.Repeat("%0D", MaxProblems) + "~")
	if u.Conforms() {
		t.Errorf("a violation past the limit is lost: %+v", u.Problems()[len(u.Problems())-1])
	}
}

// TestOnePassAuthorityError: a port the one-pass reading of a plain
// authority refuses ends the parse there, as the full reading does: the
// error lists no problem of the path after it.
func TestOnePassAuthorityError(t *testing.T) {
	for _, s := range []string{"http://h:99999/a b", "http://host.example:123456/%zz#\x80", "ftp://a.b:7x/"} {
		_, err := Parse(s)
		fullAuthority = true
		_, ferr := Parse(s)
		fullAuthority = false
		pe, ok := err.(*ParseError)
		if !ok || !reflect.DeepEqual(err, ferr) || len(pe.Problems) != 1 || pe.Problem.Rule != "port" {
			t.Errorf("%q: one pass %v; full %v", s, err, ferr)
		}
	}
}
