package urlbeam

import (
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/octets"
	"github.com/rfc1738/locator/text"
)

func init() {
	// Record is encoded by Beam's row (schema) coder, which is what it
	// gets as a registered struct: a nil pointer is a null field, a
	// pointer to "" an empty string (a part present and empty, RFC 1738
	// §3.1), and strings are carried as octets, UTF-8 or not.
	for _, t := range []any{Record{}, Normalized{}, Failure{}, Ref{}, Resolved{}, Document{}, Found{}, Group{}, groupAcc{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.Function1x1(Judge)
	register.Function1x1(recordLine)
	register.Function3x0(normalizeFn)
	register.Emitter1[Normalized]()
	register.Emitter1[Failure]()
	register.DoFn3x0[Ref, func(Resolved), func(Failure)](&resolveFn{})
	register.Emitter1[Resolved]()
	register.DoFn3x0[Document, func(Found), func(Failure)](&extractFn{})
	register.Emitter1[Found]()
	register.Function3x0(groupKeyFn)
	register.Emitter2[string, string]()
	register.Combiner3[groupAcc, string, Group](&groupFn{})
	register.Function2x1(groupOf)
}

// Parse judges every URL of urls (a PCollection of string): one Record
// per element, as `locator parse --json` gives one object per input.
// A text that is not a URL gives a Record with OK false and its
// problems; nothing is dropped.
func Parse(s beam.Scope, urls beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("urlbeam.Parse"), Judge, urls)
}

// JSON writes each Record of records as its NDJSON line, without the
// final newline: the bytes `locator parse --json` writes for it.
func JSON(s beam.Scope, records beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("urlbeam.JSON"), recordLine, records)
}

func recordLine(r Record) string {
	b := r.AppendJSON(nil)
	return string(b[:len(b)-1])
}

// A Failure is an element a transform could not use, with the reason
// (a library error, naming the offset and rule where there is one).
type Failure struct {
	Input  string
	Reason string
}

// Normalized is a URL and its normal form (locator.Normalize), the form
// locator.Equal compares.
type Normalized struct {
	Input  string
	Normal string
}

// Normalize writes each URL of urls in its normal form. A text that is
// not a URL goes to failed with the parse error.
func Normalize(s beam.Scope, urls beam.PCollection) (normal, failed beam.PCollection) {
	return beam.ParDo2(s.Scope("urlbeam.Normalize"), normalizeFn, urls)
}

func normalizeFn(in string, ok func(Normalized), bad func(Failure)) {
	u, err := locator.Parse(in)
	if err != nil {
		bad(Failure{Input: in, Reason: message(err)})
		return
	}
	ok(Normalized{Input: in, Normal: locator.Normalize(u).String()})
}

func message(err error) string { return strings.TrimPrefix(err.Error(), "locator: ") }

// A Ref is a reference, absolute or partial, to resolve against its own
// base URL.
type Ref struct {
	Base string
	Ref  string
}

// Resolved is a Ref and the absolute URL it names.
type Resolved struct {
	Base   string
	Ref    string
	Result string
}

// Resolve resolves each Ref of refs against its own base, by the rule
// set rules (locator.RFC3986, locator.RFC1808 or locator.Draft1993). A
// base that is not a URL, or a reference that does not resolve, goes to
// failed with the reason; its Input is "base<TAB>ref".
func Resolve(s beam.Scope, refs beam.PCollection, rules locator.Resolution) (resolved, failed beam.PCollection) {
	return beam.ParDo2(s.Scope("urlbeam.Resolve"), &resolveFn{Rules: rules.String()}, refs)
}

type resolveFn struct {
	Rules string // a locator.Resolution by name, so the DoFn serializes
}

func (f *resolveFn) ProcessElement(r Ref, ok func(Resolved), bad func(Failure)) {
	fail := func(why string) { bad(Failure{Input: r.Base + "\t" + r.Ref, Reason: why}) }
	rules, err := locator.ParseResolution(f.Rules)
	if err != nil {
		fail(message(err))
		return
	}
	base, err := locator.Parse(r.Base)
	if err != nil {
		fail("base: " + message(err))
		return
	}
	u, err := locator.Resolve(base, r.Ref, rules)
	if err != nil {
		fail(message(err))
		return
	}
	ok(Resolved{Base: r.Base, Ref: r.Ref, Result: u.String()})
}

// A Document is a text and the URL it was read from, the base of the
// partial forms in its <URL:...> wrappers. URL may be empty: partial
// forms are then left alone, as `locator extract` without --base.
type Document struct {
	URL  string
	Text string
}

// Found is one URL found in a Document, with its place (text.Match).
type Found struct {
	Document  string // the Document's URL
	URL       string
	Offset    int64
	Line      int
	Column    int
	Wrapped   bool
	Ambiguous bool
	Ref       string // the partial form, when URL was resolved from it
}

// Extract finds the URLs in each Document (text.Scanner, HTML detected
// as `locator extract` does), resolving partial forms against the
// document's URL by rules. A document whose URL is not a URL, a
// candidate longer than the scanner's limit, and a read error go to
// failed with the reason; the URLs found before are kept.
func Extract(s beam.Scope, docs beam.PCollection, rules locator.Resolution) (found, failed beam.PCollection) {
	return beam.ParDo2(s.Scope("urlbeam.Extract"), &extractFn{Rules: rules.String()}, docs)
}

type extractFn struct {
	Rules string
}

func (f *extractFn) ProcessElement(d Document, emit func(Found), bad func(Failure)) {
	opts := &text.Options{}
	rules, err := locator.ParseResolution(f.Rules)
	if err != nil {
		bad(Failure{Input: d.URL, Reason: message(err)})
		return
	}
	opts.Resolution = rules
	if d.URL != "" {
		base, err := locator.Parse(d.URL)
		if err != nil {
			bad(Failure{Input: d.URL, Reason: "document URL: " + message(err)})
		} else {
			opts.Base = base
		}
	}
	head := d.Text
	if len(head) > 512 {
		head = head[:512]
	}
	opts.HTML = text.LooksLikeHTML([]byte(head))
	opts.Skipped = func(le *text.LimitError) { bad(Failure{Input: d.URL, Reason: le.Error()}) }
	sc := text.NewScanner(strings.NewReader(d.Text), opts)
	for sc.Scan() {
		m := sc.Match()
		emit(Found{Document: d.URL, URL: m.URL, Offset: m.Offset, Line: m.Line, Column: m.Column,
			Wrapped: m.Wrapped, Ambiguous: m.Ambiguous, Ref: m.Ref})
	}
	if err := sc.Err(); err != nil {
		bad(Failure{Input: d.URL, Reason: err.Error()})
	}
}

// MaxForms is how many distinct spellings a Group lists.
const MaxForms = 8

// A Group is a set of equivalent URLs: those with the same normal form
// (locator.Normalize, the relation locator.Equal decides). Count is how
// many elements fell in it; Forms lists up to MaxForms distinct
// spellings, the smallest in byte order.
type Group struct {
	Normal string
	Count  int64
	Forms  []string
}

// Groups groups the URLs of urls by their normal form, with counts. A
// text that is not a URL goes to failed with the parse error.
func Groups(s beam.Scope, urls beam.PCollection) (groups, failed beam.PCollection) {
	s = s.Scope("urlbeam.Groups")
	keyed, failed := beam.ParDo2(s, groupKeyFn, urls)
	return GroupNormalized(s, keyed), failed
}

// GroupNormalized groups a PCollection of KV<normal form, URL> (for a
// pipeline that normalized its URLs already) into Groups.
func GroupNormalized(s beam.Scope, keyed beam.PCollection) beam.PCollection {
	s = s.Scope("urlbeam.GroupNormalized")
	return beam.ParDo(s, groupOf, beam.CombinePerKey(s, &groupFn{}, keyed))
}

// AppendJSON appends the group as one JSON object (normal, count,
// forms), without a newline, written as the records are (octets.Line):
// with the `_escaped` siblings of values that are not UTF-8.
func (g Group) AppendJSON(b []byte) []byte {
	forms := g.Forms
	if forms == nil {
		forms = []string{}
	}
	// A string, an int and strings always marshal.
	line, _ := octets.Line(octets.Object{{Key: "normal", Value: g.Normal}, {Key: "count", Value: g.Count}, {Key: "forms", Value: forms}})
	return append(b, line...)
}

func groupKeyFn(in string, ok func(string, string), bad func(Failure)) {
	u, err := locator.Parse(in)
	if err != nil {
		bad(Failure{Input: in, Reason: message(err)})
		return
	}
	ok(locator.Normalize(u).String(), in)
}

type groupAcc struct {
	Count int64
	Forms []string // sorted, distinct, at most MaxForms
}

type groupFn struct{}

func (groupFn) CreateAccumulator() groupAcc { return groupAcc{} }

// Add counts one more URL in g and keeps its spelling among the forms.
func (g *Group) Add(url string) {
	g.Count++
	g.Forms = addForm(g.Forms, url)
}

// Merge adds the URLs of o, a group of the same normal form, to g.
func (g *Group) Merge(o Group) {
	g.Count += o.Count
	for _, f := range o.Forms {
		g.Forms = addForm(g.Forms, f)
	}
}

func (groupFn) AddInput(a groupAcc, in string) groupAcc {
	a.Count++
	a.Forms = addForm(a.Forms, in)
	return a
}

func (groupFn) MergeAccumulators(a, b groupAcc) groupAcc {
	a.Count += b.Count
	for _, f := range b.Forms {
		a.Forms = addForm(a.Forms, f)
	}
	return a
}

func (groupFn) ExtractOutput(a groupAcc) Group { return Group{Count: a.Count, Forms: a.Forms} }

func addForm(forms []string, f string) []string {
	i, found := slices.BinarySearch(forms, f)
	if found || i >= MaxForms {
		return forms
	}
	forms = slices.Insert(slices.Clone(forms), i, f)
	if len(forms) > MaxForms {
		forms = forms[:MaxForms]
	}
	return forms
}

func groupOf(normal string, g Group) Group {
	g.Normal = normal
	return g
}
