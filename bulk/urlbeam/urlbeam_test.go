package urlbeam

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/coder"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/typex"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/rfc1738/locator"
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "urlbeam-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("TMPDIR", dir) // prism's beamloopbackworker-* files land here
	cliDir = dir
	code := ptest.MainRet(m) // prism, in-process
	os.RemoveAll(dir)
	os.Exit(code)
}

var cliDir string

// cliJSON runs `locator parse --json` (built from the repository root)
// on each input as an argument.
func cliJSON(t *testing.T, inputs []string) []string {
	t.Helper()
	bin := filepath.Join(cliDir, "locator")
	if _, err := os.Stat(bin); err != nil {
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/locator")
		cmd.Dir = filepath.Join("..", "..")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build ./cmd/locator: %v\n%s", err, b)
		}
	}
	cmd := exec.Command(bin, append([]string{"parse", "--json", "--"}, inputs...)...)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		t.Fatalf("locator parse: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// TestRecordMatchesCLI: Record.AppendJSON writes the bytes `locator
// parse --json` writes (docs/cli.md, "locator parse"), the `_escaped`
// siblings of values that are not UTF-8 included (docs/cli.md, "Octets
// that are not UTF-8 in --json").
func TestRecordMatchesCLI(t *testing.T) {
	inputs := []string{
		"ftp://myname@host.dom/%2Fetc/motd;type=a", // RFC 1738 §3.2.2
		"ftp://h/pub/M%FCller.txt",                 // parts not UTF-8
		"ftp://us%FCr:p%E9ss@h/",                   // user, password not UTF-8
		"http://h/caf\xe9",                         // input, path not UTF-8
		"gopher://gopher.example:7070/7search%09ftp",
		"mailto:joe@example.com", "news:*", "news:comp.lang.go", "nntp://h/g/12",
		"telnet://u:p@h:23/", "wais://h/db?q", "wais://h/db/T/p", "file://localhost/etc/motd",
		"prospero://h/a/b;k=v%FC", "x-foo:bar", "HTTP://H:25/~joe", "<URL:ftp://h/x>",
		"../relative", "http://[::1]:80/", "http://a b/", "ht\xfftp://x/", "http://h/<&>",
		"ftp://h/a;type=q", "",
	}
	want := cliJSON(t, inputs)
	if len(want) != len(inputs) {
		t.Fatalf("%d records for %d inputs", len(want), len(inputs))
	}
	for i, in := range inputs {
		got := Judge(in).AppendJSON(nil)
		if string(got) != want[i]+"\n" {
			t.Errorf("%q:\n got %s want %s", in, got, want[i])
		}
		m, _ := Judge(in).MarshalJSON()
		if string(m) != want[i] {
			t.Errorf("%q: MarshalJSON %s", in, m)
		}
	}
}

// TestRecordCoder: a Record crosses workers by Beam's row coder with
// every octet and every part as it was: strings that are not UTF-8, and
// parts present but empty (RFC 1738 §3.1: "ftp://:@h/?#" has an empty
// user, password, search and fragment), which are not absent ones.
func TestRecordCoder(t *testing.T) {
	rt := reflect.TypeOf(Record{})
	if c := beam.NewCoder(typex.New(rt)).String(); !strings.Contains(c, "R[") {
		t.Fatalf("Record's coder is %s, want a row coder", c)
	}
	enc, err := coder.RowEncoderForStruct(rt)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := coder.RowDecoderForStruct(rt)
	if err != nil {
		t.Fatal(err)
	}
	inputs := []string{"ftp://us%FCr:p@h:2121/a/b;type=d?x#\xff", "nope", "gopher://h/", "ftp://:@h/?#", "http://h:/",
		"http://h\xfe/\xc3\xa9", "\xff\xfe", "mailto:a%FCb@x", ""}
	var want []any
	for _, in := range inputs {
		r := Judge(in)
		var b bytes.Buffer
		if err := enc(r, &b); err != nil {
			t.Fatal(err)
		}
		v, err := dec(&b)
		if err != nil {
			t.Fatal(err)
		}
		back := v.(Record)
		if !bytes.Equal(back.AppendJSON(nil), r.AppendJSON(nil)) || !reflect.DeepEqual(back, r) {
			t.Errorf("%q: the coder's round trip changed the record:\n%s\n%s", in, r.AppendJSON(nil), back.AppendJSON(nil))
		}
		want = append(want, string(r.AppendJSON(nil)))
	}
	// The same through the runner: beam.Create encodes the records.
	p, s := beam.NewPipelineWithRoot()
	var recs []Record
	for _, in := range inputs {
		recs = append(recs, Judge(in))
	}
	passert.Equals(s, beam.ParDo(s, fullLine, beam.CreateList(s, recs)), want...)
	ptest.RunAndValidate(t, p)
}

func fullLine(r Record) string { return string(r.AppendJSON(nil)) }

func init() {
	register.Function1x1(fullLine)
	register.Function1x1(showNormalized)
	register.Function1x1(showResolved)
	register.Function1x1(showFound)
	register.Function1x1(showGroup)
	register.Function1x1(showFailure)
}

func showNormalized(n Normalized) string { return n.Input + " => " + n.Normal }
func showResolved(r Resolved) string     { return r.Ref + " => " + r.Result }
func showFound(f Found) string {
	return fmt.Sprintf("%s %d:%d %s ref=%s", f.Document, f.Line, f.Column, f.URL, f.Ref)
}
func showGroup(g Group) string     { return fmt.Sprintf("%s %d %q", g.Normal, g.Count, g.Forms) }
func showFailure(f Failure) string { return f.Input + ": " + f.Reason }

// TestTransforms runs each transform on prism (ptest's default runner).
func TestTransforms(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()

	urls := beam.Create(s, "HTTP://Example.COM:80/a", "http://example.com/a", "ftp://h/x;type=A", "nope")
	normal, failed := Normalize(s, urls)
	passert.Equals(s, beam.ParDo(s, showNormalized, normal),
		"HTTP://Example.COM:80/a => "+norm(t, "HTTP://Example.COM:80/a"),
		"http://example.com/a => "+norm(t, "http://example.com/a"),
		"ftp://h/x;type=A => "+norm(t, "ftp://h/x;type=A"))
	_, err := locator.Parse("nope")
	passert.Equals(s, beam.ParDo(s, showFailure, failed), "nope: "+strings.TrimPrefix(err.Error(), "locator: "))

	groups, gfailed := Groups(s, urls)
	passert.Equals(s, beam.ParDo(s, showGroup, groups),
		norm(t, "http://example.com/a")+` 2 ["HTTP://Example.COM:80/a" "http://example.com/a"]`,
		norm(t, "ftp://h/x;type=A")+` 1 ["ftp://h/x;type=A"]`)
	passert.Count(s, gfailed, "group failures", 1)

	// RFC 3986 §5.4.1 and RFC 1808 §5.1 examples; each ref has its own base.
	refs := beam.Create(s, Ref{Base: "http://a/b/c/d;p?q", Ref: "../g"}, Ref{Base: "ftp://h/x/y", Ref: "z"},
		Ref{Base: "no base", Ref: "g"})
	resolved, rfailed := Resolve(s, refs, locator.RFC3986)
	passert.Equals(s, beam.ParDo(s, showResolved, resolved), "../g => http://a/b/g", "z => ftp://h/x/z")
	passert.Count(s, rfailed, "resolve failures", 1)

	docs := beam.Create(s, Document{URL: "http://a/b/c", Text: "see <URL:../d> and\nftp://h/f.txt."},
		Document{Text: "nothing <URL:g> here"})
	found, xfailed := Extract(s, docs, locator.RFC3986)
	passert.Equals(s, beam.ParDo(s, showFound, found),
		"http://a/b/c 1:5 http://a/d ref=../d", "http://a/b/c 2:1 ftp://h/f.txt ref=")
	passert.Empty(s, xfailed)

	ptest.RunAndValidate(t, p)
}

func norm(t *testing.T, s string) string {
	u, err := locator.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return locator.Normalize(u).String()
}

func ExampleJudge() {
	fmt.Print(string(Judge("ftp://myname@host.dom/%2Fetc/motd;type=a").AppendJSON(nil)))
	// Output:
	// {"input":"ftp://myname@host.dom/%2Fetc/motd;type=a","ok":true,"conforms":true,"scheme":"ftp","user":"myname","host":"host.dom","effective_port":21,"path":"%2Fetc/motd;type=a","parts":{"cwd":["/etc"],"name":"motd","typecode":"a"},"problems":[]}
}
