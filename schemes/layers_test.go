package schemes_test

import (
	"go/build"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/rfc1738/locator"

// schemePackages are the packages that speak a scheme's protocol or
// hold its rules; only schemes and cmd link them in.
var schemePackages = []string{"ftp", "http", "file", "gopher", "gophers", "gemini", "mailto", "news", "nntp", "telnet", "wais", "prospero", "other"}

// TestLayers: the packages above access reach a scheme only through the
// capabilities access and the core define (docs/design.md, "Layers"):
// none of them imports a scheme package in its non-test code, directly
// or through another package of the module, so that a new scheme is one
// new folder and one line here.
func TestLayers(t *testing.T) {
	for _, p := range []string{"access", "archive", "crawl", "linkcheck", "gateway", "urledit", "wayback"} {
		if path, bad := schemeDep(t, p); bad != "" {
			t.Errorf("%s imports the scheme package %s (%s)", p, bad, strings.Join(path, " → "))
		}
	}
}

// TestLayersCheckSees: the check of TestLayers finds a scheme package
// that is imported, directly (cmd/locator, which links them in) and
// through another package (schemes itself).
func TestLayersCheckSees(t *testing.T) {
	for _, p := range []string{"cmd/locator", "schemes", "gophers"} {
		if _, bad := schemeDep(t, p); bad == "" {
			t.Errorf("%s: no scheme package found among its imports", p)
		}
	}
}

// schemeDep walks the module's packages pkg imports (not its tests'),
// depth first, and returns the first scheme package it reaches and the
// path to it, or "".
func schemeDep(t *testing.T, pkg string) (path []string, bad string) {
	t.Helper()
	seen := map[string]bool{}
	var walk func(p string, via []string) ([]string, string)
	walk = func(p string, via []string) ([]string, string) {
		if seen[p] {
			return nil, ""
		}
		seen[p] = true
		bp, err := build.Default.ImportDir(filepath.Join("..", filepath.FromSlash(p)), 0)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		via = append(via, p)
		for _, imp := range bp.Imports {
			rel, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			if slices.Contains(schemePackages, rel) {
				return append(via, rel), rel
			}
			if path, bad := walk(rel, via); bad != "" {
				return path, bad
			}
		}
		return nil, ""
	}
	return walk(pkg, nil)
}
