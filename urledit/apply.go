package urledit

import (
	"errors"
	"iter"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// Edit reads input as a URL, makes e's edits and writes the result: one
// Result for each combination of e.Iterate's values (one when there are
// none), in order. A combination that cannot be written has a nil Result
// and its *Error at the same index of errs; an input that cannot be read
// gives one nil Result and its error. e.Check is not called. Edit holds
// every Result: Results gives them one at a time.
func (e *Editor) Edit(input string) (rs []*Result, errs []error) {
	return collect(e.Results(input))
}

// Results is Edit one Result at a time, each combination made when the
// previous one has been taken: memory does not grow with the number of
// combinations (RFC 1738 sets no bound on them, Check's MaxCombinations
// does). An input that cannot be read yields one error and no Result; a
// combination that cannot be written yields its *Error.
func (e *Editor) Results(input string) iter.Seq2[*Result, error] {
	return func(yield func(*Result, error) bool) {
		u, guessed, err := e.read(input)
		if err != nil {
			yield(nil, err)
			return
		}
		if e.Redirect != "" {
			v, err := locator.Resolve(u, e.Redirect, locator.RFC3986)
			if err != nil {
				// The URL the reference makes cannot be read: where and why.
				var re *locator.ResolveError
				var pe *locator.ParseError
				if errors.As(err, &re) && errors.As(err, &pe) {
					yield(nil, &Error{Kind: KindRead, Field: "redirection to " + quote(e.Redirect) + ",", Input: re.Result,
						Offset: pe.Problem.Offset, Rule: pe.Problem.Rule, Message: pe.Problem.Message})
					return
				}
				yield(nil, &Error{Kind: KindRead, Input: e.Redirect, Offset: -1, Message: "invalid redirection: " + err.Error()})
				return
			}
			u, guessed = v, false
		}
		e.combinations(u, guessed, yield)
	}
}

// Build makes a URL from the components e sets, with no input, and
// writes it as Edit does. Its scheme, and a host for a scheme of the
// Internet syntax (RFC 1738 §3.1) or a path for another, must be set:
// else the error is of KindEmpty.
func (e *Editor) Build() (rs []*Result, errs []error) {
	return collect(e.Built())
}

// Built is Build one Result at a time, as Results is Edit.
func (e *Editor) Built() iter.Seq2[*Result, error] {
	return func(yield func(*Result, error) bool) { e.combinations(nil, false, yield) }
}

// collect gathers what seq yields as Edit returns it: errs nil when
// nothing failed.
func collect(seq iter.Seq2[*Result, error]) (rs []*Result, errs []error) {
	failed := false
	for r, err := range seq {
		rs, errs = append(rs, r), append(errs, err)
		failed = failed || err != nil
	}
	if !failed {
		errs = nil
	}
	return rs, errs
}

// combinations edits u (nil: build) once for each combination of the
// Iterate values, the last varying fastest, yielding each in turn.
func (e *Editor) combinations(u *locator.URL, guessed bool, yield func(*Result, error) bool) {
	for _, it := range e.Iterate {
		if len(it.Values) == 0 {
			yield(nil, &Error{Kind: KindIterate, Offset: -1, Message: "no values to iterate " + it.Name + " over"})
			return
		}
	}
	idx := make([]int, len(e.Iterate))
	sets := make([]Set, 0, len(e.Sets)+len(e.Iterate))
	for {
		sets = append(sets[:0], e.Sets...)
		for k, it := range e.Iterate {
			sets = append(sets, Set{Name: it.Name, Value: it.Values[idx[k]], Encoded: it.Encoded})
		}
		if !yield(e.edit(u, guessed, sets)) {
			return
		}
		// The next combination: the last iterate varies fastest.
		k := len(idx) - 1
		for ; k >= 0; k-- {
			if idx[k]++; idx[k] < len(e.Iterate[k].Values) {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// edit makes the edits on u (nil: build) with the given sets.
func (e *Editor) edit(u *locator.URL, guessed bool, sets []Set) (*Result, error) {
	var p locator.Parts
	if u != nil {
		p = u.Parts()
	}
	var partSets []Set
	for _, s := range sets {
		if !isGeneric(s.Name) {
			partSets = append(partSets, s)
			continue
		}
		if err := setGeneric(&p, s, guessed); err != nil {
			return nil, err
		}
		if s.Name == "scheme" && s.Value != "" {
			guessed = false
		}
	}
	for _, seg := range e.AppendPath {
		appendPath(&p, seg)
	}
	if u == nil {
		if err := enough(&p); err != nil {
			return nil, err
		}
	}
	v, err := parseBuilt(p.String())
	if err != nil {
		return nil, err
	}
	for _, s := range partSets {
		if v, err = setPart(v, s); err != nil {
			return nil, err
		}
	}
	return e.write(v)
}

// enough checks that components set with no input make a URL: a
// scheme, and a host (Internet syntax) or a path (news, mailto).
func enough(p *locator.Parts) error {
	empty := &Error{Kind: KindEmpty, Offset: -1, Message: "not enough input for a URL"}
	if p.Scheme == "" {
		return empty
	}
	syn, known := locator.SchemeSyntax(strings.ToLower(p.Scheme))
	if p.Host != "" || p.HasUser || p.HasPort || syn.Internet || !known {
		if p.Host == "" && p.Scheme != "file" {
			return empty
		}
		p.HasAuthority = true
		return nil
	}
	if p.Path == "" {
		return empty
	}
	return nil
}

// parseBuilt reads s, a URL the edits wrote, as an Error of KindWrite
// when it is not one.
func parseBuilt(s string) (*locator.URL, error) {
	u, err := locator.Parse(s)
	if err != nil {
		if pe, ok := err.(*locator.ParseError); ok {
			return nil, &Error{Kind: KindWrite, Input: s, Offset: pe.Problem.Offset, Rule: pe.Problem.Rule, Message: pe.Problem.Message}
		}
		return nil, &Error{Kind: KindWrite, Input: s, Offset: -1, Message: err.Error()}
	}
	return u, nil
}

// write writes v in its normal form with the query's edits made, and
// checks that it conforms: what does not is kept in the Result's
// violations.
func (e *Editor) write(v *locator.URL) (*Result, error) {
	n := locator.Normalize(v)
	np := n.Parts()
	syn, _ := locator.SchemeSyntax(np.Scheme)
	f := e.pairForm(np.Scheme)
	switch {
	case syn.Search && (f.plusSpace || e.queryEdits()):
		// From v's query as written: the normal form may have decoded an
		// escaped separator.
		np.Search, np.HasSearch = e.editQuery(f, v.Search(), v.HasSearch())
	case !syn.Search && (len(e.AppendQuery) > 0 || e.ReplaceAppend && len(e.Replace) > 0):
		return nil, &Error{Kind: KindWrite, Input: n.String(), Offset: n.Offset(locator.SearchComponent), Rule: np.Scheme + "url",
			Message: np.Scheme + " URLs have no query: \"?\" is data of the path (RFC 1738 §3); nothing to append to"}
	}
	if np.HasAuthority && !np.HasPath {
		// The "/" between the host (or port) and the url-path "is NOT
		// part of the url-path" (RFC 1738 §3.1): ftp (§3.2.2), http
		// (§3.3), gopher (§3.4) and telnet (§3.8) read the same with it
		// or without it, and it is written always, as curl does.
		np.HasPath = true
	}
	def := defaultPort(np.Scheme)
	switch {
	case np.HasPort && np.Port == "":
		np.HasPort = false
	case np.HasPort && !e.KeepPort && def != 0 && np.Port == strconv.Itoa(def):
		np.HasPort, np.Port = false, ""
	case !np.HasPort && e.KeepPort && v.HasPort() && v.Port() != "":
		// Normalize took away the default port the URL wrote.
		if k, err := strconv.Atoi(v.Port()); err == nil {
			np.HasPort, np.Port = true, strconv.Itoa(k)
		}
	}
	if !np.HasPort && e.DefaultPort && def != 0 && np.HasAuthority {
		np.HasPort, np.Port = true, strconv.Itoa(def)
	}
	w, err := parseBuilt(np.String())
	if err != nil {
		return nil, err
	}
	r := &Result{url: w, form: f}
	for _, q := range w.Problems() {
		if q.Severity >= locator.Violation {
			// Written all the same, as trurl writes it, with the rule it
			// breaks (Result.Violations): a URL is not dropped.
			r.violations = append(r.violations, &Error{Kind: KindWrite, Input: w.String(), Offset: q.Offset, Rule: q.Rule, Message: q.Message})
		}
	}
	return r, nil
}

// appendPath adds the decoded segment seg to p's path, after a "/"
// unless the path ends with one.
func appendPath(p *locator.Parts, seg string) {
	full := p.Path
	if p.HasAuthority {
		full = "/" + full
	}
	if !strings.HasSuffix(full, "/") {
		full += "/"
	}
	full += locator.Escape(seg, segmentEncoding(p.Scheme))
	if p.HasAuthority {
		full = full[1:]
	}
	p.Path, p.HasPath = full, true
}

// segmentEncoding is how a path segment of scheme is encoded: fsegment
// for ftp, file and prospero (";" reserved, "?" data), hsegment for the
// others (RFC 1738 §5).
func segmentEncoding(scheme string) locator.Encoding {
	switch strings.ToLower(scheme) {
	case "ftp", "file", "prospero":
		return locator.EncodeFSegment
	}
	return locator.EncodeHSegment
}
