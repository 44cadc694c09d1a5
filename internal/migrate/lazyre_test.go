package migrate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLazyPatternsCompile compiles every pattern register.LazyRE holds
// for this package, as regexp.MustCompile at init once did for every
// process (D92): a pattern that does not compile fails here, not at a
// user's first migration. The source is read for the patterns, so a new one
// missing from the list fails too.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	lazy := map[string]func() *regexp.Regexp{
		"awkFileRE": awkFileRE, "bodyAwkRE": bodyAwkRE, "countCmpRE": countCmpRE, "countGrepRE": countGrepRE,
		"countedRE": countedRE, "enumAwkRE": enumAwkRE, "filterFnRE": filterFnRE, "filterRE": filterRE,
		"gitGrepPrefixRE": gitGrepPrefixRE, "grepVRE": grepVRE, "headRE": headRE, "headerIDRE": headerIDRE,
		"liveAltRE": liveAltRE, "liveRangeRE": liveRangeRE, "looseRowRE": looseRowRE, "markerRE": markerRE,
		"nameIDRE": nameIDRE, "nameRE": nameRE, "passWordRE": passWordRE, "rowRE": rowRE, "ruleRE": ruleRE,
		"selfGrepRE": selfGrepRE, "sepRE": sepRE,
	}
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
		ast.Inspect(af, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, v := range vs.Values {
				call, ok := v.(*ast.CallExpr)
				if !ok {
					continue
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "LazyRE" {
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
			return true
		})
	}
	if seen != len(lazy) {
		t.Errorf("the source holds %d lazy patterns, the list %d", seen, len(lazy))
	}
}
