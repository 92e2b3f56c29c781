package loctest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// Mutation holds fuzzed values for the components of a URL, for fuzz
// targets that check a scheme's accessors on URLs made from arbitrary
// components (every scheme's accessors must not panic, and must answer
// alike for the same text). Bit i of Mask (0–6) replaces
// User, Password, Host, Port, Path, Search, Fragment of the URL's Parts
// with the value given; bits 7–13 flip HasAuthority, HasUser,
// HasPassword, HasPort, HasPath, HasSearch, HasFragment.
type Mutation struct {
	User, Password, Host, Port, Path, Search, Fragment string
	Mask                                               uint16
}

// Apply returns u's Parts with m applied.
func (m Mutation) Apply(u *locator.URL) locator.Parts {
	v := u.Parts()
	for i, p := range []struct {
		field *string
		value string
	}{{&v.User, m.User}, {&v.Password, m.Password}, {&v.Host, m.Host}, {&v.Port, m.Port}, {&v.Path, m.Path}, {&v.Search, m.Search}, {&v.Fragment, m.Fragment}} {
		if m.Mask&(1<<i) != 0 {
			*p.field = p.value
		}
	}
	for i, f := range []*bool{&v.HasAuthority, &v.HasUser, &v.HasPassword, &v.HasPort, &v.HasPath, &v.HasSearch, &v.HasFragment} {
		if m.Mask&(1<<(7+i)) != 0 {
			*f = !*f
		}
	}
	return v
}

// offsetText is an offset as Problem.String writes it into explanations.
var offsetText = regexp.MustCompile(`offset -?[0-9]+`)

// RulesView calls the registered rules of u's scheme (Check, Parts and,
// where implemented, Explain and Normalize on its Parts) and writes what
// they answer, offsets left out (in explanations, "offset N"), so that two
// URLs of the same components can be compared.
func RulesView(u *locator.URL) string {
	r := locator.Lookup(u.Scheme())
	if r == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range r.Check(u, locator.Report{}).Problems() {
		fmt.Fprintf(&b, "problem %v %s %s\n", p.Severity, p.Rule, p.Message)
	}
	j, err := json.Marshal(r.Parts(u))
	fmt.Fprintf(&b, "parts %s %v\n", j, err)
	if e, ok := r.(locator.Explainer); ok {
		b.WriteString("explain " + offsetText.ReplaceAllString(e.Explain(u), "offset N") + "\n")
	}
	if n, ok := r.(locator.Normalizer); ok {
		c := u.Parts()
		n.Normalize(&c)
		b.WriteString("normalize " + c.String() + "\n")
	}
	return b.String()
}

// CheckMutated applies m to u's Parts and, when their text parses,
// compares view (the scheme's accessors, written as text) and RulesView
// of that URL with the same of the URL its String reads back as: a
// scheme's answers depend on the text alone. None may panic, whatever
// the components hold.
func CheckMutated(t testing.TB, u *locator.URL, m Mutation, view func(*locator.URL) string) {
	t.Helper()
	p := m.Apply(u)
	c, err := p.URL()
	if err != nil {
		return
	}
	got, gotRules := view(c), RulesView(c)
	v, err := locator.Parse(c.String())
	if err != nil {
		t.Fatalf("%q parsed, its String %q does not: %v", p.String(), c.String(), err)
	}
	if want := view(v); got != want {
		t.Fatalf("URL %q (%+v):\n%s\nreads back as %q:\n%s", c.Input(), m, got, v.Input(), want)
	}
	if want := RulesView(v); gotRules != want {
		t.Fatalf("URL %q (%+v), rules:\n%s\nreads back as %q:\n%s", c.Input(), m, gotRules, v.Input(), want)
	}
}

// Departures returns the problems of u of severity Violation or Error
// that allowed does not accept (nil accepts none): what keeps a URL a
// builder wrote from conforming beyond the departures its doc names.
func Departures(u *locator.URL, allowed func(locator.Problem) bool) []locator.Problem {
	var out []locator.Problem
	for _, p := range u.Problems() {
		if p.Severity >= locator.Violation && (allowed == nil || !allowed(p)) {
			out = append(out, p)
		}
	}
	return out
}
