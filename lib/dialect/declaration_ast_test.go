package dialect

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoClientBranches walks the syntax tree of every .go file of the module (tests included)
// but the clients' own declarations (lib/dialect/client_*.go), and fails on any comparison
// (== or !=), switch case, map key or index that uses a client constant or a client's name
// as a string: what differs between clients is a field or a method of their declaration, so
// that adding a client is one file. There is no exception list.
func TestNoClientBranches(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root: %v", err)
	}
	names := map[string]bool{}
	for _, d := range All() {
		names[string(d.Client)] = true
	}
	consts := clientConsts(t, names)
	if len(consts) == 0 {
		t.Fatal("found no constant of type Client in lib/dialect")
	}
	var sites []string
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if path != root && (strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata") {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		inDialect := filepath.Dir(rel) == "lib/dialect"
		if inDialect && strings.HasPrefix(filepath.Base(rel), "client_") && !strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		sites = append(sites, branches(fset, f, rel, inDialect, names, consts)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) > 0 {
		t.Errorf("%d places branch on a client; make each a field or method of the client's declaration (lib/dialect/client_*.go):\n%s",
			len(sites), strings.Join(sites, "\n"))
	}
}

// branches lists the places in f that compare, switch on, key a map with or index with a client
// constant (dialect.Name, or Name inside the package itself when inDialect) or a client's name
// as a string.
func branches(fset *token.FileSet, f *ast.File, rel string, inDialect bool, names, consts map[string]bool) []string {
	const self = "github.com/hookkit/harness/lib/dialect"
	var sites []string
	// The name this file gives the dialect package: a client constant is pkg.Name there,
	// and a bare Name inside the package itself.
	pkg := ""
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == self {
			pkg = "dialect"
			if im.Name != nil {
				pkg = im.Name.Name
			}
		}
	}
	bare := inDialect && f.Name.Name == "dialect"
	uses := func(n ast.Node) string {
		found := ""
		ast.Inspect(n, func(n ast.Node) bool {
			if found != "" {
				return false
			}
			switch x := n.(type) {
			case *ast.BasicLit:
				if x.Kind == token.STRING {
					if s, err := strconv.Unquote(x.Value); err == nil && names[s] {
						found = x.Value
					}
				}
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && pkg != "" && id.Name == pkg && consts[x.Sel.Name] {
					found = pkg + "." + x.Sel.Name
				}
				return false
			case *ast.Ident:
				if bare && consts[x.Name] {
					found = x.Name
				}
			}
			return true
		})
		return found
	}
	report := func(n ast.Node, what, use string) {
		sites = append(sites, fmt.Sprintf("%s:%d: %s on %s", rel, fset.Position(n.Pos()).Line, what, use))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			if x.Op == token.EQL || x.Op == token.NEQ {
				for _, side := range []ast.Expr{x.X, x.Y} {
					if u := uses(side); u != "" {
						report(x, "comparison", u)
						break
					}
				}
			}
		case *ast.CaseClause:
			for _, e := range x.List {
				if u := uses(e); u != "" {
					report(e, "switch case", u)
				}
			}
		case *ast.CompositeLit:
			if _, ok := x.Type.(*ast.MapType); ok {
				for _, el := range x.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if u := uses(kv.Key); u != "" {
							report(kv, "map key", u)
						}
					}
				}
			}
		case *ast.IndexExpr:
			if u := uses(x.Index); u != "" {
				report(x, "map index", u)
			}
		}
		return true
	})
	return sites
}

// clientConsts returns the names of the constants of type Client declared in lib/dialect.
func clientConsts(t *testing.T, names map[string]bool) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				typed := false
				if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Client" {
					typed = true
				}
				for i, n := range vs.Names {
					lit := ""
					if i < len(vs.Values) {
						if b, ok := vs.Values[i].(*ast.BasicLit); ok {
							lit, _ = strconv.Unquote(b.Value)
						}
					}
					if typed || names[lit] {
						out[n.Name] = true
					}
				}
			}
		}
	}
	return out
}

// The walk finds each form of branching on a client, and nothing in code that only passes a
// client along or reads its fields.
func TestBranchesFound(t *testing.T) {
	set := func(ss ...string) map[string]bool {
		m := map[string]bool{}
		for _, s := range ss {
			m[s] = true
		}
		return m
	}
	names, consts := set("codex", "claude"), set("Codex", "Claude")
	tests := []struct {
		name, src string
		inDialect bool
		want      []string
	}{
		{"comparison", `package p
import "github.com/hookkit/harness/lib/dialect"
func f(d *dialect.Dialect) bool { return d.Client == dialect.Codex }`, false, []string{"x.go:3: comparison on dialect.Codex"}},
		{"converted, renamed import", `package p
import dl "github.com/hookkit/harness/lib/dialect"
func f(s string) bool { return s != string(dl.Claude) }`, false, []string{"x.go:3: comparison on dl.Claude"}},
		{"a name as a string", `package p
func f(s string) bool { return "codex" == s }`, false, []string{`x.go:2: comparison on "codex"`}},
		{"switch case", `package p
func f(s string) int {
	switch s {
	case "claude":
		return 1
	}
	return 0
}`, false, []string{`x.go:4: switch case on "claude"`}},
		{"map key", `package p
var m = map[string]int{"codex": 1}`, false, []string{`x.go:2: map key on "codex"`}},
		{"index", `package p
import "github.com/hookkit/harness/lib/dialect"
func f(m map[dialect.Client]int) int { return m[dialect.Codex] }`, false, []string{"x.go:3: map index on dialect.Codex"}},
		{"inside the package", `package dialect
func f(d *Dialect) bool { return d.Client == Codex }`, true, []string{"x.go:2: comparison on Codex"}},
		{"a field, a lookup, an argument", `package p
import "github.com/hookkit/harness/lib/dialect"
func f(d *dialect.Dialect) bool {
	e, _ := dialect.Lookup(string(dialect.Codex))
	return d.NoAsk && e != nil && d.Client == e.Client && g("codex")
}
func g(string) bool { return true }`, false, nil},
		{"another package's Codex", `package p
type T struct{ Codex string }
func f(t T) bool { return t.Codex == "x" }`, false, nil},
	}
	for _, tt := range tests {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", tt.src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := branches(fset, f, "x.go", tt.inDialect, names, consts)
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}
