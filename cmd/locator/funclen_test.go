package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines bounds a function of the command, its signature and
// closing brace included (issue 43 item 4: the command is only a front;
// what grows longer belongs in the library).
const maxFuncLines = 80

// TestFunctionLength: no function of cmd/locator's own code is longer
// than maxFuncLines lines.
func TestFunctionLength(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n++
			from, to := fset.Position(fd.Pos()), fset.Position(fd.End())
			if lines := to.Line - from.Line + 1; lines > maxFuncLines {
				t.Errorf("%s:%d: %s is %d lines long, more than %d", name, from.Line, fd.Name.Name, lines, maxFuncLines)
			}
		}
	}
	if n == 0 {
		t.Fatal("no function read")
	}
}
