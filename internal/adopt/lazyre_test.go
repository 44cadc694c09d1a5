package adopt

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
// user's first adoption. The source is read for the patterns, so a new one
// missing from the list fails too.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	lazy := map[string]func() *regexp.Regexp{
		"adoptKeyRE": adoptKeyRE, "adrDirRE": adrDirRE, "choicesRE": choicesRE, "commentLineRE": commentLineRE,
		"dateNameRE": dateNameRE, "datePlaceholderRE": datePlaceholderRE, "datePrefixRE": datePrefixRE,
		"dateValueRE": dateValueRE, "digitsRE": digitsRE, "featureRE": featureRE, "fieldLineRE": fieldLineRE,
		"fileTokenRE": fileTokenRE, "filledDateRE": filledDateRE, "fmDatePartRE": fmDatePartRE,
		"fmDateRE": fmDateRE, "fmKeyRE": fmKeyRE, "fmTitlePlaceholderRE": fmTitlePlaceholderRE,
		"fmTitleRE": fmTitleRE, "frozenMarkerRE": frozenMarkerRE, "headingRE": headingRE, "htmlOpenRE": htmlOpenRE,
		"idFolderRE": idFolderRE, "idTokenRE": idTokenRE, "leadingNumberRE": leadingNumberRE,
		"linkDefRE": linkDefRE, "listMarkerRE": listMarkerRE, "liveRangeRE": liveRangeRE,
		"localDateRE": localDateRE, "metaLineRE": metaLineRE, "numberTokenRE": numberTokenRE,
		"numberedHeadRE": numberedHeadRE, "optionalRE": optionalRE, "ownIDRE": ownIDRE, "plainYAML": plainYAML,
		"pluralIDRE": pluralIDRE, "prefixedNameRE": prefixedNameRE, "registerHeaderRE": registerHeaderRE,
		"runRE": runRE, "statusLineKeyRE": statusLineKeyRE, "templateNameRE": templateNameRE,
		"templateWordRE": templateWordRE, "topKeyRE": topKeyRE, "xRunRE": xRunRE, "zeroNameRE": zeroNameRE,
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
