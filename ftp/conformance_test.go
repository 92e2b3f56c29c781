package ftp

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

// TestRFCNormativeExamples checks the ftp rows of
// rfc/rfc1738-normative-examples.tsv, written from RFC 1738's text.
func TestRFCNormativeExamples(t *testing.T) {
	n := 0
	for _, row := range loctest.ReadTSV(t, "rfc/rfc1738-normative-examples.tsv") {
		sec, url, prop, want := row[0], row[1], row[2], row[3]
		if !strings.HasPrefix(url, "ftp:") {
			continue
		}
		n++
		u := loctest.MustParse(t, url)
		switch {
		case prop == "user / password":
			part := func(name, v string, has bool) string {
				switch {
				case !has:
					return name + " absent"
				case v == "":
					return name + `="" (empty, present)`
				}
				return name + "=" + strconv.Quote(v)
			}
			got := part("user", u.User(), u.HasUser()) + "; " + part("password", u.Password(), u.HasPassword())
			if got != want {
				t.Errorf("§%s %s: %s, want %s", sec, url, got, want)
			}
		case strings.HasPrefix(prop, "FTP commands"):
			p, err := NewPlan(u, "")
			if err != nil {
				t.Fatal(err)
			}
			// The expected column lists the commands after login, "CWD  (null argument)" for "CWD ".
			var got []string
			for _, c := range p.Commands[2:] {
				if c.Verb == "TYPE" {
					continue // §3.2.2's examples do not show the (guessed, §3.2.3) TYPE
				}
				got = append(got, c.String())
			}
			w := strings.ReplaceAll(want, " (null argument)", "")
			if g := strings.Join(got, " | "); g != w {
				t.Errorf("§%s %s: plan %q, want %q", sec, url, g, w)
			}
			if c := p.Commands[0]; c.String() != "USER myname" {
				t.Errorf("§%s %s: %s, want USER myname", sec, url, c)
			}
		case prop == "ftp typecode":
			p := Split(u)
			if !p.HasTypecode || !strings.HasPrefix(want, p.Typecode+" ") {
				t.Errorf("§%s %s: typecode %q, want %s", sec, url, p.Typecode, want)
			}
		default:
			t.Errorf("unknown property %q", prop)
		}
	}
	if n != 8 {
		t.Errorf("%d ftp rows, want 8", n)
	}
}

// curlCase is our plan for one curl test, with the differences.
type curlCase struct {
	rfc  []string // RFC 1738 plan for each URL, " | " between commands
	diff string   // how curl departs from it ("" when it does not)
}

// anon is the login curl uses, ours given the same e-mail address.
const anon = "USER anonymous | PASS ftp@example.com | "

// curlCases holds, for each ftp test of curl/url_to_protocol.tsv, the plan
// RFC 1738 §3.2 gives and how curl departs from it. Curl's commands are in
// the TSV; the test checks that they differ from ours exactly when a
// difference is listed.
var curlCases = map[string]curlCase{
	"100": {[]string{anon + "CWD test-100 | NLST"},
		"curl lists the empty name with TYPE A and LIST; RFC 1738 names only NLST (for ;type=d), no TYPE"},
	"105": {[]string{"USER userdude | PASS passfellow | TYPE I | RETR 105"},
		"curl's --use-ascii forces TYPE A; without a typecode we guess from the name (§3.2.3)"},
	"106": {[]string{anon + "CWD  | CWD path with  spaces | CWD  | CWD and things2 | TYPE A | RETR 106"},
		"curl sends CWD / for the leading empty segment and drops the inner empty one; §3.2.2 sends \"CWD \" with a null argument for each"},
	"137": {[]string{anon + "CWD blalbla | CWD lululul | TYPE I | RETR 137"},
		"curl sends SIZE before RETR (RFC 3659, not RFC 1738)"},
	"138": {[]string{anon + "CWD blalbla | CWD lululul | TYPE I | RETR 138"},
		"curl sends SIZE before RETR"},
	"142": {[]string{anon + cwds(150) + "TYPE I | RETR 142"},
		"curl sends SIZE before RETR"},
	"143": {[]string{anon + "CWD /tmp | CWD moo | TYPE A | RETR 143"},
		"curl decodes before splitting: %2ftmp becomes CWD / and CWD tmp; §3.2.2 splits first, so it is one CWD /tmp"},
	"146": {[]string{anon + "CWD first | CWD dir | CWD here | TYPE I | RETR 146", anon + "TYPE I | RETR 146"},
		"curl keeps the connection and sends CWD / to return (guessing a hierarchy §3.2.5 warns against), and SIZE; a reused session here returns to the directory PWD named after the login"},
	"191": {[]string{"USER use?r | PASS pass?word | TYPE I | RETR 191"},
		"curl sends SIZE before RETR"},
	"210": {[]string{anon + "CWD a | CWD path | TYPE I | RETR 210", anon + "CWD a | CWD path | TYPE I | RETR 210"},
		"curl reuses the connection without a second CWD, and sends SIZE"},
	"215": {[]string{anon + "CWD a | CWD path | CWD 215 | NLST", anon + "CWD a | CWD path | CWD 215 | NLST"},
		"curl reuses the connection and lists with TYPE A and LIST"},
	"350": {[]string{anon + "CWD  | NLST"},
		"curl sends CWD / for the empty segment, and TYPE A and LIST"},
	"351": {[]string{anon + "CWD  | NLST"},
		"curl's --ftp-method nocwd sends no CWD and LIST /"},
	"352": {[]string{anon + "CWD  | NLST"},
		"curl's --ftp-method singlecwd sends CWD /, TYPE A and LIST"},
	"475": {[]string{anon + "TYPE A | RETR 475"},
		"curl -T uploads with STOR, an operation RFC 1738 does not spell out (§3.2.2); the URL's own plan retrieves"},
	"476": {[]string{anon + "TYPE A | RETR 476"},
		"curl -T uploads with STOR"},
	"1010": {[]string{anon + "CWD  | CWD list | CWD this | CWD path | CWD 1010 | NLST", anon + "CWD  | CWD list | CWD this | CWD path | CWD 1010 | NLST"},
		"curl's nocwd sends LIST /list/this/path/1010, one path argument that §3.2.2 does not allow a client to rely on"},
	"1091": {[]string{anon + "CWD /tmp | CWD moo | TYPE I | RETR 1091"},
		"curl decodes before splitting (CWD / then CWD tmp), and sends SIZE"},
	"1224": {[]string{anon + "CWD  | TYPE I | RETR 1224"},
		"curl sends CWD / for the empty segment, and SIZE"},
	"1225": {[]string{anon + "CWD  | CWD foo | TYPE I | RETR 1225", anon + "CWD  | CWD foo | CWD bar | TYPE I | RETR 1225"},
		"curl sends CWD / for the empty segment, reuses the connection, and sends SIZE"},
	"1226": {[]string{anon + "CWD  | TYPE I | RETR 1226"},
		"curl sends CWD / for the empty segment, and SIZE"},
	"1227": {[]string{anon + "CWD  | TYPE I | RETR 1227"},
		"curl's nocwd sends SIZE /1227 and RETR /1227 without CWD"},
}

func cwds(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("CWD part" + strconv.Itoa(i) + " | ")
	}
	return b.String()
}

// TestCurl checks our plan for every ftp URL of curl/url_to_protocol.tsv
// against RFC 1738 §3.2, and that curl's commands differ exactly where a
// difference is listed in curlCases.
func TestCurl(t *testing.T) {
	seen := 0
	for _, row := range loctest.ReadTSV(t, "curl/url_to_protocol.tsv") {
		test, server, urls, curl := row[0], row[1], row[3], row[5]
		if server != "ftp" {
			continue
		}
		seen++
		c, ok := curlCases[test]
		if !ok {
			t.Errorf("curl test %s: no case", test)
			continue
		}
		r := strings.NewReplacer("%HOSTIP", "127.0.0.1", "%FTPPORT", "8992", "%TESTNUMBER", test)
		var ours []string
		for i, s := range strings.Fields(urls) {
			u := loctest.MustParse(t, r.Replace(s))
			p, err := NewPlan(u, "ftp@example.com")
			if err != nil {
				t.Errorf("curl test %s: %v", test, err)
				continue
			}
			if p.Host != "127.0.0.1" || p.Port != 8992 {
				t.Errorf("curl test %s: server %s:%d", test, p.Host, p.Port)
			}
			if i >= len(c.rfc) || p.String() != c.rfc[i] {
				t.Errorf("curl test %s URL %d: plan\n  %s\nwant (RFC 1738 §3.2)\n  %v", test, i, p, c.rfc)
			}
			ours = append(ours, p.String())
		}
		curlPlan := r.Replace(curl)
		same := strings.Join(ours, " | ") == curlPlan
		if same != (c.diff == "") {
			t.Errorf("curl test %s: curl sends %q; listed difference %q does not match", test, curlPlan, c.diff)
		}
	}
	if seen != len(curlCases) {
		t.Errorf("%d ftp rows in the TSV, %d cases", seen, len(curlCases))
	}
}

// TestPythonFTPHandler checks python/urllib2_ftp_handler.tsv: host, port,
// user, password, directories, file name and type agree: like Python's
// FTPHandler, the plan sends TYPE I when the URL has no typecode.
func TestPythonFTPHandler(t *testing.T) {
	rows := loctest.ReadTSV(t, "python/urllib2_ftp_handler.tsv")
	if len(rows) != 6 {
		t.Errorf("%d rows, want 6", len(rows))
	}
	for _, row := range rows {
		url, host, port, user, pass, typ, dirs, file := row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7]
		u := loctest.MustParse(t, url)
		r := mustFrom(t, u)
		p, err := NewPlan(u, "")
		if err != nil {
			t.Fatal(err)
		}
		if p.Host != host || strconv.Itoa(p.Port) != port || r.User != user || r.Password != pass {
			t.Errorf("%s: %s %d %q %q, want %s %s %q %q", url, p.Host, p.Port, r.User, r.Password, host, port, user, pass)
		}
		var wantDirs []string
		if dirs != "" {
			wantDirs = strings.Split(dirs, ",")
		}
		if strings.Join(r.Cwd, ",") != strings.Join(wantDirs, ",") || r.Name != file {
			t.Errorf("%s: cwd %q name %q, want %q %q", url, r.Cwd, r.Name, wantDirs, file)
		}
		got := ""
		for _, c := range p.Commands {
			switch c.Verb {
			case "TYPE":
				got = c.Arg
			case "NLST":
				got = "D"
			}
		}
		if got != typ {
			t.Errorf("%s: type %s, want %s as Python", url, got, typ)
		}
	}
}

// TestPerlURI checks the ftp rows of perl-uri/extracted/
// scheme_components_handwritten.tsv.
func TestPerlURI(t *testing.T) {
	n := 0
	for _, row := range loctest.ReadTSV(t, "perl-uri/extracted/scheme_components_handwritten.tsv") {
		in, acc, want := row[1], row[2], row[3]
		if !strings.HasPrefix(in, "ftp:") {
			continue
		}
		n++
		switch in {
		case "ftp://ftp.example.com/path":
			// URI's default anonymous password is "anonymous@"; §3.2.1
			// says the end user's e-mail address, which the caller gives.
			u := loctest.MustParse(t, in)
			p, _ := NewPlan(u, "anonymous@")
			got := p.Host + "|" + strconv.Itoa(p.Port) + "|" + p.Commands[0].Arg + "|" + p.Commands[1].Arg
			if got != want {
				t.Errorf("%s %s = %s, want %s", in, acc, got, want)
			}
		case "ftp://gisle@aas.no:secret@ftp.example.com/path":
			u := loctest.MustParse(t, in)
			r := mustFrom(t, u)
			got := u.String() + "|" + u.User() + ":" + u.Password() + "|" + r.User + "|" + r.Password
			if got != want {
				t.Errorf("%s %s = %s, want %s", in, acc, got, want)
			}
			if u.Conforms() {
				t.Errorf("%s: an unencoded '@' in the user must be a violation (RFC 1738 §3.1)", in)
			}
		case "ftp://ftp.example.com/path + userinfo(\"gisle@aas.no\")":
			got, err := (&URL{Host: "ftp.example.com", User: "gisle@aas.no", HasUser: true, Path: Path{Name: "path", HasName: true}}).Build()
			if err != nil || got != want {
				t.Errorf("%s = %q %v, want %s", in, got, err, want)
			}
		case "ftp://anonymous:p%61ss@hst2:21 + user(\"@\") password(\":-#-;-/-?\")":
			// RFC 1738 §5: password = *[ uchar | ";" | "?" | "&" | "=" ],
			// so ":" is encoded and "?" is not; URI follows RFC 3986's
			// userinfo, which is the other way round.
			got, err := (&URL{Host: "hst2", Port: "21", User: "@", HasUser: true, Password: ":-#-;-/-?", HasPassword: true}).Build()
			const rfc1738 = "ftp://%40:%3A-%23-;-%2F-?@hst2:21"
			if err != nil || got != rfc1738 || got == want {
				t.Errorf("%s = %q %v, want %s (URI: %s)", in, got, err, rfc1738, want)
			}
		case "ftp://u:p@host/q?path":
			// URI splits a query; for ftp "?" is part of the fsegment.
			u := loctest.MustParse(t, in)
			r := mustFrom(t, u)
			if r.User != "u" || r.Password != "p" || r.Host != "host" || r.Name != "q?path" || u.EffectivePort() != 21 {
				t.Errorf("%s: %+v", in, r)
			}
			if !strings.Contains(want, "*/q?path*") {
				t.Errorf("%s: URI's path is no longer /q?path: %s", in, want)
			}
		default:
			t.Errorf("ftp row not handled: %s", in)
		}
	}
	if n != 5 {
		t.Errorf("%d ftp rows, want 5", n)
	}
}

// Compile-time checks that Rules implements the optional interfaces.
var (
	_ locator.Rules      = Rules{}
	_ locator.Explainer  = Rules{}
	_ locator.Normalizer = Rules{}
)

// TestTextExamples reads every ftp URL that RFC 1738 and draft 03 write
// in wrappers (rfc/in-text-wrapped-urls.tsv): each conforms (but those
// the TSV marks malformed, with an unencoded space) and stands for
// a plan that logs in, changes to each directory and retrieves or lists.
func TestTextExamples(t *testing.T) {
	n := 0
	for _, row := range loctest.ReadTSV(t, "rfc/in-text-wrapped-urls.tsv") {
		in := row[3]
		if !strings.HasPrefix(in, "ftp:") {
			continue
		}
		n++
		u := loctest.MustParse(t, in)
		// Rows the TSV marks malformed hold an unencoded space.
		malformed := len(row) > 4 && strings.Contains(row[4], "malformed")
		if u.Conforms() == malformed {
			t.Errorf("%s: conforms %v, malformed %v: %v", in, u.Conforms(), malformed, u.Problems())
		}
		p, err := NewPlan(u, "me@example.org")
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		sp := Split(u)
		cmds := p.Commands
		if len(cmds) != 2+len(sp.Cwd)+1+btoi(sp.Name != "" && sp.Typecode != "d") {
			t.Errorf("%s: plan %s", in, p)
		}
		for i, d := range sp.Cwd {
			if c := cmds[2+i]; c.Verb != "CWD" || c.Arg != d {
				t.Errorf("%s: command %d is %s, want CWD %s", in, 2+i, c, d)
			}
		}
		last := cmds[len(cmds)-1]
		switch {
		case sp.Typecode == "d" || sp.Name == "":
			if last.Verb != "NLST" {
				t.Errorf("%s: ends with %s, want NLST", in, last)
			}
		case last.String() != "RETR "+sp.Name:
			t.Errorf("%s: ends with %s, want RETR %s", in, last, sp.Name)
		}
	}
	t.Logf("%d ftp examples in the texts' wrappers", n)
	if n != 45 {
		t.Errorf("%d ftp examples in the texts' wrappers; measured 45", n)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
