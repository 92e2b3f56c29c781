//go:build ignore

// exported counts the exported identifiers of each package of the
// module and says, for each, where it is used outside its package.
// bench/exported.sh runs it; see there for what is counted.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

const module = "github.com/rfc1738/locator"

// An ident is one exported identifier of a package.
type ident struct {
	pkg  string // the package's directory, "." for the module's root
	kind string // func, method, type, const, var
	name string // Name, or Type.Method
	// Where it is used outside the package's own non-test files.
	code, example, othertest, owntest bool
}

func (id *ident) use() string {
	switch {
	case id.code:
		return "code"
	case id.example:
		return "example"
	case id.othertest:
		return "othertest"
	case id.owntest:
		return "owntest"
	}
	return "none"
}

// A goFile is one parsed file of the tree.
type goFile struct {
	dir  string // relative to the root, "." for the root
	test bool
	f    *ast.File
}

func main() {
	list := flag.Bool("list", false, "list each identifier with its use, not the counts")
	flag.Parse()
	fset := token.NewFileSet()
	var files []goFile
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ignored(f) {
			return nil
		}
		files = append(files, goFile{dir: filepath.Dir(p), test: strings.HasSuffix(p, "_test.go"), f: f})
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	idents := declared(files)
	uses(files, idents)
	if *list {
		for _, id := range idents {
			fmt.Printf("%s\t%s\t%s\t%s\n", id.pkg, id.kind, id.name, id.use())
		}
		return
	}
	report(idents)
}

// ignored reports a file that is in no build: //go:build ignore.
func ignored(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

// library reports whether dir holds a library package: not a command
// (package main), not the bulk module's own (its go.mod makes it
// another module), not internal.
func library(files []goFile, dir string) bool {
	if dir == "bulk" || strings.HasPrefix(dir, "bulk/") || dir == "internal" || strings.HasPrefix(dir, "internal/") {
		return false
	}
	for _, f := range files {
		if f.dir == dir && !f.test {
			return f.f.Name.Name != "main"
		}
	}
	return false
}

// declared lists the exported identifiers go doc -all shows of each
// library package: its exported funcs, types, consts and vars (each
// name of a group), and the exported methods of its exported types.
func declared(files []goFile) []*ident {
	var ids []*ident
	for _, gf := range files {
		if gf.test || !library(files, gf.dir) {
			continue
		}
		for _, d := range gf.f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					ids = append(ids, &ident{pkg: gf.dir, kind: "func", name: d.Name.Name})
				} else if t := recvType(d.Recv.List[0].Type); ast.IsExported(t) {
					ids = append(ids, &ident{pkg: gf.dir, kind: "method", name: t + "." + d.Name.Name})
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							ids = append(ids, &ident{pkg: gf.dir, kind: "type", name: s.Name.Name})
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								ids = append(ids, &ident{pkg: gf.dir, kind: d.Tok.String(), name: n.Name})
							}
						}
					}
				}
			}
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		if ids[i].pkg != ids[j].pkg {
			return ids[i].pkg < ids[j].pkg
		}
		return ids[i].name < ids[j].name
	})
	return ids
}

// recvType is the name of a method's receiver type.
func recvType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvType(t.X)
	case *ast.IndexExpr:
		return recvType(t.X)
	case *ast.IndexListExpr:
		return recvType(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// uses marks where each identifier is used. A func, type, const or var
// is used where another package names it qualified (pkg.Name, by the
// name the file imports the package as), or where a test file of its
// own directory names it; a method is used where any file outside its
// package's non-test files selects a member of that name (.Method),
// since the receiver's type is not known without type checking: a
// method may count as used when it is not, never the reverse. A use
// inside an Example function is an example.
func uses(files []goFile, ids []*ident) {
	byPkg := map[string]map[string]*ident{} // dir → Name → ident
	methods := map[string][]*ident{}        // Method → idents
	for _, id := range ids {
		if id.kind == "method" {
			m := id.name[strings.IndexByte(id.name, '.')+1:]
			methods[m] = append(methods[m], id)
			continue
		}
		if byPkg[id.pkg] == nil {
			byPkg[id.pkg] = map[string]*ident{}
		}
		byPkg[id.pkg][id.name] = id
	}
	for _, gf := range files {
		imports := map[string]string{} // the name a package is known by → its dir
		for _, im := range gf.f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			dir, ok := strings.CutPrefix(p, module)
			if !ok || (dir != "" && dir[0] != '/') {
				continue
			}
			dir = strings.TrimPrefix(dir, "/")
			if dir == "" {
				dir = "."
			}
			name := path.Base(p)
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = dir
		}
		mark := func(id *ident, example bool) {
			switch {
			case example:
				id.example = true
			case gf.test && gf.dir == id.pkg:
				id.owntest = true
			case gf.test:
				id.othertest = true
			default:
				id.code = true
			}
		}
		for _, d := range gf.f.Decls {
			example := false
			if fd, ok := d.(*ast.FuncDecl); ok && gf.test && strings.HasPrefix(fd.Name.Name, "Example") {
				example = true
			}
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					if x, ok := n.X.(*ast.Ident); ok {
						if dir, ok := imports[x.Name]; ok && dir != gf.dir || ok && gf.test {
							if id := byPkg[dir][n.Sel.Name]; id != nil {
								mark(id, example)
							}
						}
					}
					for _, id := range methods[n.Sel.Name] {
						if gf.dir != id.pkg || gf.test {
							mark(id, example)
						}
					}
				case *ast.Ident:
					// A test of the package itself (package p, not p_test)
					// names it unqualified.
					if gf.test && gf.f.Name.Name != "main" && !strings.HasSuffix(gf.f.Name.Name, "_test") {
						if id := byPkg[gf.dir][n.Name]; id != nil {
							mark(id, example)
						}
					}
				}
				return true
			})
		}
	}
}

// report writes, for each package, the count of its exported
// identifiers and how many of them are used where: in other packages'
// code, in an example only, in other packages' tests only, in its own
// tests only, nowhere outside its own code.
func report(ids []*ident) {
	type row struct{ all, code, example, othertest, owntest, none int }
	rows := map[string]*row{}
	var pkgs []string
	total := &row{}
	for _, id := range ids {
		r := rows[id.pkg]
		if r == nil {
			r = &row{}
			rows[id.pkg] = r
			pkgs = append(pkgs, id.pkg)
		}
		for _, r := range []*row{r, total} {
			r.all++
			switch id.use() {
			case "code":
				r.code++
			case "example":
				r.example++
			case "othertest":
				r.othertest++
			case "owntest":
				r.owntest++
			default:
				r.none++
			}
		}
	}
	fmt.Printf("%-12s %8s %6s %8s %10s %8s %5s\n", "package", "exported", "code", "example", "othertest", "owntest", "none")
	for _, p := range pkgs {
		r := rows[p]
		fmt.Printf("%-12s %8d %6d %8d %10d %8d %5d\n", p, r.all, r.code, r.example, r.othertest, r.owntest, r.none)
	}
	fmt.Printf("%-12s %8d %6d %8d %10d %8d %5d\n", fmt.Sprintf("(%d pkgs)", len(pkgs)), total.all, total.code, total.example, total.othertest, total.owntest, total.none)
}
