package gophers_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/gophers"
)

// TestGophersRegistered: the scheme's syntax, rules and client are
// registered, with curl's default port, Gopher's 70.
func TestGophersRegistered(t *testing.T) {
	if p := locator.DefaultPort("gophers"); p != 70 {
		t.Errorf("locator.DefaultPort = %d", p)
	}
	if info, ok := access.Lookup("gophers"); !ok || info.DefaultPort != 70 || info.Resume {
		t.Errorf("access.Lookup = %+v %v", info, ok)
	}
	if locator.Lookup("gophers") == nil {
		t.Error("no rules")
	}
	u, err := locator.Parse("gophers://example.org/0a?b")
	if err != nil || u.EffectivePort() != 70 || u.HasSearch() || u.Path() != "0a?b" || !u.Conforms() {
		t.Errorf("%v %v: %d %q %v", u, err, u.EffectivePort(), u.Path(), u.Problems())
	}
}

// TestGophersStructure: gophers URLs read, build and plan as gopher
// ones, with their own scheme.
func TestGophersStructure(t *testing.T) {
	g, err := gophers.Parse("gophers://example.org:7070/7a%20sel%09foo%20bar")
	if err != nil {
		t.Fatal(err)
	}
	want := gopher.URL{Host: "example.org", Port: "7070", Type: "7", Selector: "a sel", Search: "foo bar", HasSearch: true}
	if g.URL != want {
		t.Errorf("%+v", g.URL)
	}
	s, err := g.Build()
	if err != nil || s != "gophers://example.org:7070/7a%20sel%09foo%20bar" {
		t.Errorf("Build = %q %v", s, err)
	}
	p, err := g.Plan()
	if err != nil || p.Host != "example.org" || p.Port != 7070 || p.ServerName != "example.org" || string(p.Request) != "a sel\tfoo bar\r\n" {
		t.Errorf("Plan = %+v %v", p, err)
	}
	if _, err := gophers.Parse("gopher://example.org/"); err == nil {
		t.Error("a gopher URL read as gophers")
	}
	var se *locator.SchemeError
	if _, err := (&gophers.URL{gopher.URL{Host: "h", Selector: "a\r\nb"}}).Build(); !errors.As(err, &se) || se.Scheme != "gophers" || se.Field != "selector" {
		t.Errorf("Build of a CR LF selector: %v", err)
	}
	if _, err := (&gophers.URL{gopher.URL{Host: "h", Search: "a\nb"}}).Plan(); !errors.As(err, &se) || se.Scheme != "gophers" || se.Field != "search" {
		t.Errorf("Plan of an LF search: %v", err)
	}
	if p, err := (&gophers.URL{gopher.URL{Host: "h"}}).Plan(); err != nil || p.Port != 70 || string(p.Request) != "\r\n" {
		t.Errorf("Plan of the top menu: %+v %v", p, err)
	}
}

// TestGophersRules: gopher's rules judge a gophers URL, at its own
// offsets; its parts, normal form and explanation are gopher's, the
// explanation saying TLS.
func TestGophersRules(t *testing.T) {
	u, _ := locator.Parse("gophers://user@example.org/0a%0Db")
	var rules []string
	for _, p := range u.Problems() {
		rules = append(rules, p.Rule)
		if p.Rule == "selector" && p.Offset != strings.Index(u.Input(), "%0D") {
			t.Errorf("selector problem at %d", p.Offset)
		}
		if p.Rule == "gopherurl" && p.Offset != strings.Index(u.Input(), "user") {
			t.Errorf("gopherurl problem at %d", p.Offset)
		}
	}
	if strings.Join(rules, " ") != "gopherurl selector" {
		t.Errorf("problems %v", u.Problems())
	}
	for in, want := range map[string]string{
		"gophers://Example.ORG:70": "gophers://example.org/1",
		"gophers://h/0a%2fb%09":    "gophers://h/0a/b%09",
		"gophers://h:7070/1":       "gophers://h:7070/1",
		"GOPHERS://h/0%7e":         "gophers://h/0%7E",
		"gophers://h/0a%09%09%2B":  "gophers://h/0a%09%09+",
	} {
		u, err := locator.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := locator.Normalize(u).String(); got != want {
			t.Errorf("Normalize(%s) = %s, want %s", in, got, want)
		}
	}
	u, _ = locator.Parse("gophers://example.org/0sel%09words")
	pt := locator.Lookup("gophers").Parts(u)
	if pt == nil {
		t.Fatal("no parts")
	}
	gu, _ := locator.Parse("gopher://example.org/0sel%09words")
	if want := locator.Lookup("gopher").Parts(gu); !equalJSON(pt, want) {
		t.Errorf("parts %+v, gopher's %+v", pt, want)
	}
	ex := locator.Lookup("gophers").(locator.Explainer).Explain(u)
	if !strings.Contains(ex, "(gophers)") || !strings.Contains(ex, `"sel\twords\r\n"`) || !strings.Contains(ex, "TLS") {
		t.Errorf("Explain: %s", ex)
	}
}

func equalJSON(a, b any) bool {
	return strings.TrimSpace(jsonText(a)) == strings.TrimSpace(jsonText(b))
}

// TestGophersCheck: the client refuses what gopher's refuses, before any
// connection, at the gophers URL's own offsets.
func TestGophersCheck(t *testing.T) {
	c := &access.Client{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("dialled %s", addr)
		return nil, errors.New("no")
	}}
	for in, rule := range map[string]string{
		"gophers://example.org/0a%0Ab":  "RFC 1738 §6",
		"gophers:///0a":                 "RFC 1738 §3.4.1",
		"gophers://example.org/7search": "RFC 1738 §3.4.2",
		"gophers://example.org/2cso":    "RFC 1436 §3.8",
	} {
		u, _ := locator.Parse(in)
		_, err := c.Get(context.Background(), u)
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Rule != rule || pe.URL != in {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if rule == "RFC 1738 §6" && pe.Offset != strings.Index(in, "%0A") {
			t.Errorf("%s: offset %d", in, pe.Offset)
		}
	}
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
