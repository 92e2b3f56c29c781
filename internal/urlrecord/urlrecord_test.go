package urlrecord

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// testRules are the rules of the scheme "x-record": its parts are the
// decoded path and its segments, and a path holding "warn" has a
// warning that quotes it.
type testRules struct{}

type testParts struct {
	Path     string   `json:"path"`
	Segments []string `json:"segments"`
}

func (testRules) Check(u *locator.URL, r locator.Report) locator.Report {
	if p := locator.Decode(u.Path()); strings.Contains(p, "warn") {
		r.Add(u.Offset(locator.PathComponent), locator.Warning, "x-record", "the path "+p+" warns")
	}
	return r
}

func (testRules) Parts(u *locator.URL) any {
	p := locator.Decode(u.Path())
	return testParts{Path: p, Segments: strings.Split(p, "/")}
}

func init() { locator.Register("x-record", testRules{}) }

func TestAppendJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"x-record://u:p@h:99/a/b?q#f",
			`{"input":"x-record://u:p@h:99/a/b?q#f","ok":true,"conforms":true,"scheme":"x-record","user":"u","password":"p","host":"h","port":"99","effective_port":99,` +
				`"path":"a/b","search":"q","fragment":"f","parts":{"path":"a/b","segments":["a","b"]},` +
				`"problems":[{"offset":13,"severity":"warning","rule":"RFC 1738 §3.1","message":"the URL carries a password, visible to anyone who sees the URL"}]}`},
		// Present and empty is not absent (RFC 1738 §3.1): "user":"".
		{"x-record://@h/", `{"input":"x-record://@h/","ok":true,"conforms":true,"scheme":"x-record","user":"","host":"h","path":"","parts":{"path":"","segments":[""]},"problems":[]}`},
		// Not UTF-8: each key that holds such a string has its sibling,
		// the parts and the problems included.
		{"x-record://h/warn%FF\xfe",
			`{"input":"x-record://h/warn%FF\ufffd","input_escaped":"x-record://h/warn%25FF%FE","ok":true,"conforms":false,"scheme":"x-record","host":"h",` +
				`"path":"warn%FF\ufffd","path_escaped":"warn%25FF%FE",` +
				`"parts":{"path":"warn\ufffd\ufffd","segments":["warn\ufffd\ufffd"]},"parts_escaped":{"path":"warn%FF%FE","segments":["warn%FF%FE"]},` +
				`"problems":[`},
		// HTML characters are kept; DEL and C1 controls are \u escapes.
		{"x-record://h/<&>%7F\u0085", `{"input":"x-record://h/<&>%7F\u0085","ok":true`},
		{"", `{"input":"","ok":false,"conforms":false,"problems":[{"offset":0,`},
	} {
		got := string(judge(c.in).AppendJSON(nil))
		if !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, "}\n") || strings.Count(got, "\n") != 1 {
			t.Errorf("%q:\n got %s\nwant %s", c.in, got, c.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("%q: not JSON: %s", c.in, got)
		}
		m, err := judge(c.in).MarshalJSON()
		if err != nil || string(m)+"\n" != got {
			t.Errorf("%q: MarshalJSON %s, %v", c.in, m, err)
		}
	}
}

func judge(in string) Record {
	u, err := locator.Parse(in)
	return New(in, u, err)
}

// TestProblemsEscaped: a problem whose message is not UTF-8 comes with
// problems_escaped, every problem in it, its strings escaped.
func TestProblemsEscaped(t *testing.T) {
	in := "x-record://h/warn%FF"
	line := judge(in).AppendJSON(nil)
	type problem struct{ Offset, Severity, Rule, Message any }
	var m struct {
		Problems        []problem `json:"problems"`
		ProblemsEscaped []problem `json:"problems_escaped"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Problems) == 0 || len(m.ProblemsEscaped) != len(m.Problems) {
		t.Fatalf("%s", line)
	}
	last := m.ProblemsEscaped[len(m.ProblemsEscaped)-1]
	if last != (problem{13.0, "warning", "x-record", "the path warn%FF warns"}) {
		t.Errorf("escaped problem %+v", last)
	}
}

// TestNilProblems: a Record whose Problems a coder left nil writes
// "problems":[] as New's does.
func TestNilProblems(t *testing.T) {
	r := judge("x-record://h/a")
	want := string(r.AppendJSON(nil))
	r.Problems = nil
	if got := string(r.AppendJSON(nil)); got != want {
		t.Errorf("nil problems:\n%s\nwant\n%s", got, want)
	}
}

// TestNew: the fields of a record, and what an input that is not a URL
// gives.
func TestNew(t *testing.T) {
	r := judge("x-record://h:/p")
	if !r.OK || r.Port == nil || *r.Port != "" || r.EffectivePort != nil || r.User != nil || r.Search != nil || r.PartsEscaped != nil {
		t.Errorf("%+v", r)
	}
	u, err := locator.Parse("no scheme")
	r = New("no scheme", u, err)
	if r.OK || r.Scheme != "" || r.Parts != nil || len(r.Problems) == 0 {
		t.Errorf("not a URL: %+v", r)
	}
	if pe, ok := err.(*locator.ParseError); !ok || !reflect.DeepEqual(r.Problems, pe.Problems) {
		t.Errorf("problems %v, the error's %v", r.Problems, err)
	}
}

// TestTags: every field has a json tag, so that what is written is what
// the tags name.
func TestTags(t *testing.T) {
	rt := reflect.TypeOf(Record{})
	for i := 0; i < rt.NumField(); i++ {
		if rt.Field(i).Tag.Get("json") == "" {
			t.Errorf("Record.%s has no json tag", rt.Field(i).Name)
		}
	}
}
