package register

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLazyPatternsCompile compiles every pattern lazyRE holds, as
// regexp.MustCompile at init once did for each process: a pattern that
// does not compile fails here, not at a user's first adoption. The list is
// read from the package's source, so a new lazy pattern is compiled too.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	lazy := map[string]func() *regexp.Regexp{
		"bareRefRE": bareRefRE, "blobPathRE": blobPathRE, "claimsNoneRE": claimsNoneRE,
		"commentRE": commentRE, "countRE": countRE, "dateRE": dateRE, "digitsRE": digitsRE, "idCellRE": idCellRE,
		"indexLinkRE": indexLinkRE, "leadingDateRE": leadingDateRE, "mdLinkRE": mdLinkRE, "numberedRE": numberedRE,
		"numberedTitle": numberedTitle, "paddedRefRE": paddedRefRE, "placeholderDateRE": placeholderDateRE,
		"placeholderTitleRE": placeholderTitleRE, "recordNameRE": recordNameRE, "redirectRE": redirectRE,
		"refRE": refRE, "statusLineRE": statusLineRE, "tableCellRE": tableCellRE, "tableSepRE": tableSepRE,
		"templateNameRE": templateNameRE, "templateWordRE": templateWordRE, "titleOnlyRE": titleOnlyRE,
		"zeroNumberRE": zeroNumberRE,
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
		for _, d := range af.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, v := range vs.Values {
					call, ok := v.(*ast.CallExpr)
					if id, isID := ast.Unparen(callFun(call, ok)).(*ast.Ident); !isID || id.Name != "lazyRE" {
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
	}
	if seen != len(lazy) {
		t.Errorf("the source holds %d lazy patterns, the list %d", seen, len(lazy))
	}
}

func callFun(c *ast.CallExpr, ok bool) ast.Expr {
	if !ok {
		return nil
	}
	return c.Fun
}
