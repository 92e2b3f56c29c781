package locator_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// floodRules are the rules of a scheme registered only by these tests:
// a Violation at every "v" of the path, a Warning at every "w" and an
// Error at every "E", so that input decides how many problems its rules
// report.
type floodRules struct{}

func (floodRules) Check(u *locator.URL, r locator.Report) locator.Report {
	off, p := u.Offset(locator.PathComponent), u.Path()
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case 'v':
			r.Add(off+i, locator.Violation, "vsegment", "a v")
		case 'w':
			r.Add(off+i, locator.Warning, "wsegment", "a w")
		case 'E':
			r.Add(off+i, locator.Error, "esegment", "an E")
		}
	}
	return r
}

func (floodRules) Parts(*locator.URL) any { return nil }

func init() { locator.Register("x-flood", floodRules{}) }

// heapAfter returns the live heap after f, garbage collected, with what
// f returned still referenced.
func heapAfter(f func() any) (uint64, any) {
	var m runtime.MemStats
	runtime.GC()
	v := f()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, v
}

// TestSchemeProblemLimit: a scheme's rules cannot multiply the input's
// size in problems either (RFC 1738 §6 on hostile input: an input that
// breaks a rule at every octet). Past MaxProblems from the rules, one
// last problem of rule "url" says how many more there were, carries the
// highest severity among them and begins where the first was.
func TestSchemeProblemLimit(t *testing.T) {
	n := 1 << 20
	in := "x-flood:" + strings.Repeat("v", n)
	var m0 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	after, v := heapAfter(func() any {
		u, err := locator.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		return u
	})
	u := v.(*locator.URL)
	probs := u.Problems()
	if len(probs) != locator.MaxProblems+1 {
		t.Fatalf("%d problems, want %d", len(probs), locator.MaxProblems+1)
	}
	last := probs[locator.MaxProblems]
	want := locator.Problem{Offset: len("x-flood:") + locator.MaxProblems, Severity: locator.Violation, Rule: "url",
		Message: "1048476 more problems from the scheme's rules from here on are not listed (at most 100 are)"}
	if last != want {
		t.Errorf("last problem %+v, want %+v", last, want)
	}
	// Without the limit the URL held all 1,048,576 problems, 48 bytes
	// each; it holds 101. The input itself was allocated before m0.
	if grown := int64(after) - int64(m0.HeapAlloc); grown > 1<<20 {
		t.Errorf("the URL holds %d bytes of problems", grown)
	}
	runtime.KeepAlive(u)

	// Warnings first, a violation past the limit: Conforms still says no.
	u, _ = locator.Parse("x-flood:" + strings.Repeat("w", locator.MaxProblems) + "v")
	if u.Conforms() || u.Problems()[locator.MaxProblems].Severity != locator.Violation {
		t.Errorf("a violation past the limit is lost: %+v", u.Problems()[locator.MaxProblems:])
	}
	// An Error past the limit is kept when none was, so the ParseError
	// names the rule's own; the others are counted in the last problem.
	_, err := locator.Parse("x-flood:" + strings.Repeat("v", locator.MaxProblems) + "EEv")
	pe, ok := err.(*locator.ParseError)
	if !ok {
		t.Fatalf("an Error past the limit: err = %v", err)
	}
	if len(pe.Problems) != locator.MaxProblems+2 || pe.Problem.Rule != "esegment" || pe.Problem.Offset != len("x-flood:")+locator.MaxProblems {
		t.Errorf("ParseError %v with %d problems", pe, len(pe.Problems))
	}
	if last := pe.Problems[len(pe.Problems)-1]; last.Severity != locator.Error || !strings.HasPrefix(last.Message, "2 more problems") {
		t.Errorf("last problem %+v", last)
	}
}

// TestSchemeProblemsCore: the core's problems and the rules' are each
// limited, and come out in order of offset, each list's summary at the
// offset of the first problem it left out.
func TestSchemeProblemsCore(t *testing.T) {
	u, err := locator.Parse("x-flood:" + strings.Repeat("v~", 1000))
	if err != nil {
		t.Fatal(err)
	}
	probs := u.Problems()
	if len(probs) != 2*(locator.MaxProblems+1) {
		t.Fatalf("%d problems, want %d", len(probs), 2*(locator.MaxProblems+1))
	}
	summaries := 0
	for i, q := range probs {
		if i > 0 && q.Offset < probs[i-1].Offset {
			t.Errorf("problem %d at %d after one at %d", i, q.Offset, probs[i-1].Offset)
		}
		if q.Rule == "url" {
			summaries++
			if !strings.HasPrefix(q.Message, "900 more problems") {
				t.Errorf("summary %+v", q)
			}
		}
	}
	if summaries != 2 {
		t.Errorf("%d summaries, want one for the core and one for the rules", summaries)
	}
}

// TestSchemeProblemAllocations: the rules' problems go into the room the
// URL already has: one core problem and one of the rules cost Parse its
// one allocation, and a Parser none once its storage has grown (up to
// the limits; a summary's message, which quotes a count, is one more, as
// the core's is).
func TestSchemeProblemAllocations(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters allocate")
	}
	if n := testing.AllocsPerRun(100, func() { locator.Parse("x-flood:~v") }); n != 1 {
		t.Errorf("Parse: %v allocations, want 1", n)
	}
	var p locator.Parser
	var u locator.URL
	p.Parse(&u, "x-flood:"+strings.Repeat("v~", 200))
	for _, s := range []string{"x-flood:v", "x-flood:~v", "x-flood:" + strings.Repeat("v~", locator.MaxProblems)} {
		if n := testing.AllocsPerRun(100, func() { p.Parse(&u, s) }); n != 0 {
			t.Errorf("Parser %q: %v allocations, want 0", s[:min(len(s), 20)], n)
		}
	}
	if p.Parse(&u, "x-flood:"+strings.Repeat("v~", 200)); len(u.Problems()) != 2*(locator.MaxProblems+1) {
		t.Errorf("Parser: %d problems", len(u.Problems()))
	}
}

// TestReport: a Report used alone (as a scheme's tests do) keeps the
// same limit.
func TestReport(t *testing.T) {
	var r locator.Report
	if r.Problems() != nil {
		t.Error("the zero Report holds problems")
	}
	for i := range 3 * locator.MaxProblems {
		r.Add(i, locator.Warning, "w", "a w")
	}
	probs := r.Problems()
	if len(probs) != locator.MaxProblems+1 || probs[locator.MaxProblems].Offset != locator.MaxProblems ||
		probs[locator.MaxProblems].Severity != locator.Warning {
		t.Errorf("%d problems, last %+v", len(probs), probs[len(probs)-1])
	}
}
