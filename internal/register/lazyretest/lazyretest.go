// Package lazyretest is the test a package whose regular expressions are
// compiled at first use (register.LazyRE, D92) runs: every lazy pattern
// its source declares compiles, and is in the test's list.
package lazyretest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Compile reads the non-test Go files of the current directory (a
// package's test runs there) for package-level variables initialised by a
// call of a function named call ("LazyRE", or "lazyRE" inside register),
// and compiles each through lazy: a pattern that does not compile fails
// here, not at a user's first use, and one missing from lazy, or listed
// but not declared, fails too.
func Compile(t *testing.T, call string, lazy map[string]func() *regexp.Regexp) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, vs := range packageVars(af) {
			for i, v := range vs.Values {
				if !calls(v, call) {
					continue
				}
				name := vs.Names[i].Name
				re, listed := lazy[name]
				if !listed {
					t.Errorf("%s: %s is a lazy pattern this test does not compile: add it to the list", fset.Position(vs.Pos()), name)
					continue
				}
				seen++
				if re() == nil {
					t.Errorf("%s compiled to nil", name)
				}
			}
		}
	}
	if seen != len(lazy) {
		t.Errorf("the source holds %d lazy patterns, the list %d", seen, len(lazy))
	}
}

// packageVars is the file's package-level variable specs.
func packageVars(af *ast.File) []*ast.ValueSpec {
	var out []*ast.ValueSpec
	for _, d := range af.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				out = append(out, sp.(*ast.ValueSpec))
			}
		}
	}
	return out
}

// calls reports whether v is a call of a function named name, plain or
// qualified by its package.
func calls(v ast.Expr, name string) bool {
	c, ok := v.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		return f.Name == name
	case *ast.SelectorExpr:
		return f.Sel.Name == name
	}
	return false
}
