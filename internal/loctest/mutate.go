package loctest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// Mutation holds fuzzed values for the exported fields of a URL, for
// fuzz targets that check a scheme's accessors on a *locator.URL a caller
// changed after Parse (issue 8.2: "every scheme's accessors" must not
// panic on such a URL, and must agree with the same call on the URL its
// String reads back as). Bit i of Mask (0–6) overwrites User, Password,
// Host, Port, Path, Search, Fragment with the value given; bits 7–13
// flip Authority, HasUser, HasPassword, HasPort, HasPath, HasSearch,
// HasFragment. The scheme, Input, Problems and offsets stay as Parse
// left them: stale, as they are after a caller's change.
type Mutation struct {
	User, Password, Host, Port, Path, Search, Fragment string
	Mask                                               uint16
}

// Apply returns a changed copy of u; u itself is not changed.
func (m Mutation) Apply(u *locator.URL) *locator.URL {
	v := *u
	v.Problems = append([]locator.Problem(nil), u.Problems...)
	for i, p := range []struct {
		field *string
		value string
	}{{&v.User, m.User}, {&v.Password, m.Password}, {&v.Host, m.Host}, {&v.Port, m.Port}, {&v.Path, m.Path}, {&v.Search, m.Search}, {&v.Fragment, m.Fragment}} {
		if m.Mask&(1<<i) != 0 {
			*p.field = p.value
		}
	}
	for i, f := range []*bool{&v.Authority, &v.HasUser, &v.HasPassword, &v.HasPort, &v.HasPath, &v.HasSearch, &v.HasFragment} {
		if m.Mask&(1<<(7+i)) != 0 {
			*f = !*f
		}
	}
	return &v
}

// Reparsed returns Parse(u.String()) when that parses to the components
// u writes (Written), else nil: the URL a changed u stands for, on which
// a scheme's accessors must answer as they do on u.
func Reparsed(u *locator.URL) *locator.URL {
	v, err := locator.Parse(u.String())
	if err != nil || !v.SameComponents(Written(u)) {
		return nil
	}
	return v
}

// Written returns a copy of u without the values String does not write:
// those of absent parts (User without HasUser, ...) and, without
// Authority, the login and host.
func Written(u *locator.URL) *locator.URL {
	v := *u
	if !v.Authority {
		v.User, v.HasUser, v.Password, v.HasPassword, v.Host, v.Port, v.HasPort = "", false, "", false, "", "", false
	}
	if !v.HasUser {
		v.User, v.Password, v.HasPassword = "", "", false
	}
	if !v.HasPassword {
		v.Password = ""
	}
	if !v.HasPort {
		v.Port = ""
	}
	if !v.HasSearch {
		v.Search = ""
	}
	if !v.HasFragment {
		v.Fragment = ""
	}
	return &v
}

// offsetText is an offset as Problem.String writes it into explanations.
var offsetText = regexp.MustCompile(`offset -?[0-9]+`)

// RulesView calls the registered rules of u's scheme (Check, Parts and,
// where implemented, Explain and Normalize on a copy) and writes what
// they answer, offsets left out (in explanations, "offset N") (they refer to u.Input, stale after a
// change), so that two URLs of the same components can be compared.
func RulesView(u *locator.URL) string {
	r := locator.Lookup(u.Scheme)
	if r == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range r.Check(u) {
		fmt.Fprintf(&b, "problem %v %s %s\n", p.Severity, p.Rule, p.Message)
	}
	j, err := json.Marshal(r.Parts(u))
	fmt.Fprintf(&b, "parts %s %v\n", j, err)
	if e, ok := r.(locator.Explainer); ok {
		b.WriteString("explain " + offsetText.ReplaceAllString(e.Explain(u), "offset N") + "\n")
	}
	if n, ok := r.(locator.Normalizer); ok {
		c := *u
		n.Normalize(&c)
		b.WriteString("normalize " + c.String() + "\n")
	}
	return b.String()
}

// CheckMutated applies m to u and compares view (the scheme's accessors,
// written as text) of the changed URL with view of the URL it reads back
// as (Reparsed), when there is one; RulesView of the changed URL without
// its unwritten values (Written) is compared too, with its stale Input
// and offsets. None may panic, whatever the fields hold.
func CheckMutated(t testing.TB, u *locator.URL, m Mutation, view func(*locator.URL) string) {
	t.Helper()
	c := m.Apply(u)
	// The rules are compared on the changed URL as String writes it
	// (Written): a rule that judges a part the URL does not write (a user
	// flagged absent) is not what this check is about; the package's
	// own accessors (view) are held to the changed URL itself.
	got, gotRules := view(c), RulesView(Written(c))
	_ = RulesView(c) // must not panic
	v := Reparsed(c)
	if v == nil {
		return
	}
	if want := view(v); got != want {
		t.Fatalf("changed URL %q (%+v):\n%s\nreads back as %q:\n%s", c.String(), m, got, v.Input, want)
	}
	if want := RulesView(v); gotRules != want {
		t.Fatalf("changed URL %q (%+v), rules:\n%s\nreads back as %q:\n%s", c.String(), m, gotRules, v.Input, want)
	}
}

// Departures returns the problems of u of severity Violation or Error
// that allowed does not accept (nil accepts none): what keeps a URL a
// builder wrote from conforming beyond the departures its doc names.
func Departures(u *locator.URL, allowed func(locator.Problem) bool) []locator.Problem {
	var out []locator.Problem
	for _, p := range u.Problems {
		if p.Severity >= locator.Violation && (allowed == nil || !allowed(p)) {
			out = append(out, p)
		}
	}
	return out
}
