package lintcmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// goWords finds what a message must not say, since it names the
// program's words instead of the user's (D76): a format verb printing a
// Go type, a slice or map type, a qualified Go name (config.Config,
// *yaml.TypeError), a CamelCase exported name (TypeError).
var goWords = []struct {
	what string
	re   *regexp.Regexp
}{
	{"the %T verb", regexp.MustCompile(`%T`)},
	{"a map type", regexp.MustCompile(`\bmap\[`)},
	{"a slice type", regexp.MustCompile(`\[\][*a-zA-Z]`)},
	{"a qualified Go name", regexp.MustCompile(`(?:^|[^\w./-])\*?[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*\b`)},
	{"a CamelCase Go name", regexp.MustCompile(`\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b`)},
}

// names that look like Go names and are the user's words.
var notGo = map[string]bool{"GitHub": true, "GitLab": true, "TypeScript": true, "JavaScript": true, "PowerShell": true, "KiB": true, "MiB": true, "GiB": true}

// goWordsIn returns what in s names a Go identifier.
func goWordsIn(s string) []string {
	var out []string
	for _, w := range goWords {
		for _, m := range w.re.FindAllString(s, -1) {
			if m = strings.TrimLeft(m, " \t\n(\"'`"); !notGo[m] {
				out = append(out, w.what+" "+strconv.Quote(m))
			}
		}
	}
	return out
}

func TestGoWordsIn(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"field registr not found in type config.Config", true},
		{"cannot unmarshal into *yaml.TypeError", true},
		{"want %T", true},
		{"a map[string]string", true},
		{"want []string", true},
		{"a TypeError occurred", true},
		{`unknown key "registr": did you mean "register"?`, false},
		{"docs/PRD.md: no such file", false},
		{"range D1..D9 at docs/guide/README.md", false},
		{"GitHub's ::warning", false},
		{"write present, anchored or absent", false},
	} {
		if got := goWordsIn(tc.in); (len(got) > 0) != tc.want {
			t.Errorf("goWordsIn(%q) = %q, want a hit: %v", tc.in, got, tc.want)
		}
	}
}

// messageCalls names the functions whose string arguments are the text of
// a finding or of an error a user reads: the finding helpers of register,
// check and snapshot, a rule's Reportf, a claim's fail and malformed,
// docket's Invalidf, its import warnings and the shell parser's failures.
var messageCalls = map[string]bool{
	"finding": true, "fail": true, "malformed": true, "Reportf": true,
	"Invalidf": true, "warn": true, "parseFinding": true, "errorf": true, "Errorf": true, "New": true,
}

// TestMessagesNameNoGoType reads every production source file of the
// module and checks the message templates in it, and every rule's
// documentation, for Go identifiers (D76). A template is a string
// literal passed to a message helper, or the format of an fmt.Sprintf
// that is a finding's Message.
func TestMessagesNameNoGoType(t *testing.T) {
	fset := token.NewFileSet()
	n := 0
	check := func(pos token.Pos, lit *ast.BasicLit) {
		if lit == nil || lit.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return
		}
		n++
		for _, w := range goWordsIn(s) {
			t.Errorf("%s: the message %q names %s: say it in the user's words", fset.Position(pos), s, w)
		}
	}
	for _, dir := range []string{"../../internal", "../../server", "../../cmd"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(nd ast.Node) bool {
				switch nd := nd.(type) {
				case *ast.CallExpr:
					if messageCalls[callName(nd)] {
						for _, a := range nd.Args {
							lit, _ := a.(*ast.BasicLit)
							check(nd.Pos(), lit)
						}
					}
				case *ast.KeyValueExpr:
					if k, ok := nd.Key.(*ast.Ident); ok && k.Name == "Message" {
						if c, ok := nd.Value.(*ast.CallExpr); ok && callName(c) == "Sprintf" && len(c.Args) > 0 {
							lit, _ := c.Args[0].(*ast.BasicLit)
							check(nd.Pos(), lit)
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d templates", n)
	if n < 100 {
		t.Fatalf("read %d message templates: the scan misses the helpers", n)
	}
	for _, r := range allRules() {
		for _, w := range goWordsIn(r.Doc) {
			t.Errorf("explain %s names %s: say it in the user's words", r.ID, w)
		}
	}
}

// callName is the name of the function or method a call calls.
func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}
