package mcp

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// declaredWorks are the names of every register work the package's
// production files declare (a work[In, Out]{name, fn} literal), read from
// the source: what a register tool's handler can run in the check slot.
func declaredWorks(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var names []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			typ, ok := lit.Type.(*ast.IndexListExpr)
			if !ok || len(lit.Elts) == 0 {
				return true
			}
			if id, ok := typ.X.(*ast.Ident); !ok || id.Name != "work" {
				return true
			}
			s, ok := lit.Elts[0].(*ast.BasicLit)
			if !ok || s.Kind != token.STRING {
				t.Errorf("%s: a work whose name is not a string literal: the check child could not be told it", fset.Position(lit.Pos()))
				return true
			}
			v, _ := strconv.Unquote(s.Value)
			names = append(names, v)
			return true
		})
	}
	return names
}

// TestEveryWorkHasItsChildEntry: each register work the package declares
// is carried by a tool of the registry, so the check child, which finds
// its work among the registry's tools (RunCheckChild), can run it. A new
// register tool whose work is declared but not given to its registry
// entry (withWork) fails here, not in a user's docket mcp.
func TestEveryWorkHasItsChildEntry(t *testing.T) {
	t.Parallel()
	names := declaredWorks(t)
	if len(names) < 4 {
		t.Fatalf("found %d work declarations (%v): the test looks in the wrong place", len(names), names)
	}
	registry := (&tools{}).all()
	for _, name := range names {
		if w, known := childWorks(registry, name); w == nil {
			t.Errorf("work %q is declared but no tool of the registry carries it (withWork): the check child knows %s", name, known)
		}
	}
}

// TestRunCheckChildRunsEveryRegistryWork: the child runs the work of every
// registry tool that has one, by its name: with no register in the
// directory each answers its error on stdout and exits 0, never "unknown
// tool".
func TestRunCheckChildRunsEveryRegistryWork(t *testing.T) {
	t.Parallel()
	ran := 0
	for _, tl := range (&tools{}).all() {
		if tl.work == nil {
			continue
		}
		ran++
		var stdout, stderr bytes.Buffer
		code := RunCheckChild([]string{tl.work.workName(), t.TempDir(), "1m", "{}"}, &stdout, &stderr)
		if code != 0 || !bytes.HasPrefix(stdout.Bytes(), []byte(`{"errors":[`)) {
			t.Errorf("%s: work %s: exit %d, stdout %q, stderr %q; want 0 and the error of an empty directory", tl.def.Name, tl.work.workName(), code, stdout.String(), stderr.String())
		}
	}
	if ran < 5 {
		t.Errorf("%d registry tools carry a work; decision_list, decision_show, claims_check, decision_accept and decision_status do", ran)
	}
}
