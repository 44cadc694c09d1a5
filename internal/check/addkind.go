//go:build ignore

// addkind writes a new claim kind, as staticcheck's add-check writes a
// check (D103): its file (kind_NAME.go, a Kind value marked
// //registry:kinds N, N one past the last kind's place), its fixture
// (testdata/kinds/NAME), the test that runs the fixture with prove
// (kind_NAME_test.go), and its name in docs/README.md's list of kinds;
// then it runs listgen, which writes its entry at the end of check.Kinds
// (kinds_gen.go). The kind it writes works: every file
// matched by Path has at least one byte, and prove empties each; edit it
// into the kind you want.
//
// Run it from the repository root:
//
//	go run ./internal/check/addkind.go -name nonblank
//
// It writes 1 hand-written code file (the kind's), 1 test file and the
// fixture's 5 files, edits 1 line of docs/README.md, and listgen rewrites
// 1 generated file (kinds_gen.go). Then run go test ./internal/check ./cmd/claimslint and
// go test ./cmd/claimslint -run TestRulesPage -update (CL006, CL007 and
// CL009 list the kinds).
package main

import (
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/claimslint/claimslint/internal/listgen"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	name := flag.String("name", "", "the kind's name, as the Kind column writes it: lower case words joined by dashes")
	flag.Parse()
	if err := run(*root, *name); err != nil {
		fmt.Fprintln(os.Stderr, "addkind:", err)
		os.Exit(1)
	}
}

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

func run(root, name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("-name %q: give lower case words joined by dashes (nonblank)", name)
	}
	ident := lowerFirst(camel(name)) + "Kind"
	check := filepath.Join(root, "internal", "check")
	kindFile := filepath.Join(check, "kind_"+strings.ReplaceAll(name, "-", "_")+".go")
	testFile := strings.TrimSuffix(kindFile, ".go") + "_test.go"
	fixture := filepath.Join(check, "testdata", "kinds", name)
	for _, p := range []string{kindFile, testFile, fixture} {
		if _, err := os.Stat(p); err == nil {
			return fmt.Errorf("%s exists already", p)
		}
	}
	// The place, one past the last kind's.
	place := 0
	placeRE := regexp.MustCompile(`(?m)^//registry:kinds (\d+)$`)
	srcs, err := filepath.Glob(filepath.Join(check, "*.go"))
	if err != nil {
		return err
	}
	for _, f := range srcs {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		for _, m := range placeRE.FindAllSubmatch(data, -1) {
			n, _ := strconv.Atoi(string(m[1]))
			place = max(place, n)
		}
		if regexp.MustCompile(`(?m)^type ` + ident + ` struct`).Match(data) {
			return fmt.Errorf("%s declares %s already", f, ident)
		}
	}
	if place == 0 {
		return fmt.Errorf("%s: no kind is marked //registry:kinds N", check)
	}

	// The name, last in docs/README.md's list of kinds (a test compares
	// the list with Kinds).
	readmeFile := filepath.Join(root, "docs", "README.md")
	readme, err := os.ReadFile(readmeFile)
	if err != nil {
		return err
	}
	lines := strings.Split(string(readme), "\n")
	found := false
	for i, l := range lines {
		if strings.HasPrefix(l, "| [Claim kinds and scopes]") {
			cells := strings.SplitN(l, "|", 4)
			if len(cells) < 4 || !strings.Contains(cells[2], ";") {
				return fmt.Errorf("%s: the row of the claim kinds has no list ending in ;", readmeFile)
			}
			kindsCell, rest, _ := strings.Cut(cells[2], ";")
			lines[i] = cells[0] + "|" + cells[1] + "|" + kindsCell + ", `" + name + "`;" + rest + "|" + cells[3]
			found = true
		}
	}
	if !found {
		return fmt.Errorf("%s: no row | [Claim kinds and scopes]", readmeFile)
	}

	r := strings.NewReplacer("NAME", name, "IDENT", ident, "TESTNAME", camel(name))
	files := []struct {
		path string
		data string
	}{
		{kindFile, strings.Replace(r.Replace(kindTemplate), "PLACE", strconv.Itoa(place+1), 1)},
		{testFile, r.Replace(testTemplate)},
		{readmeFile, strings.Join(lines, "\n")},
		{filepath.Join(fixture, "docs", "PRD.md"), fixturePRD},
		{filepath.Join(fixture, "docs", "decisions", "D1-notes.md"), r.Replace(fixtureDecision)},
		{filepath.Join(fixture, "src", "a.txt"), "a note\n"},
		{filepath.Join(fixture, "src", "b.txt"), "b note\n"},
		{filepath.Join(fixture, "src", "empty.md"), ""},
	}
	for _, f := range files {
		data := []byte(f.data)
		if strings.HasSuffix(f.path, ".go") {
			if data, err = format.Source(data); err != nil {
				return fmt.Errorf("%s: %v", f.path, err)
			}
		}
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f.path, data, 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", f.path)
	}
	written, err := listgen.Write(root, "internal/check")
	if err != nil {
		return fmt.Errorf("listgen: %v", err)
	}
	for _, p := range written {
		fmt.Println("wrote", p)
	}
	fmt.Printf("kind %s: run go test ./internal/check ./cmd/claimslint, and go test ./cmd/claimslint -run TestRulesPage -update\n", name)
	return nil
}

// camel is non-blank as NonBlank.
func camel(name string) string {
	var b strings.Builder
	for _, w := range strings.Split(name, "-") {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

const kindTemplate = `package check

import (
	"fmt"
	"go/token"
)

// IDENT: every file matched by Path has at least one byte.
//
//registry:kinds PLACE
type IDENT struct{}

func (IDENT) Name() string { return "NAME" }

func (IDENT) Doc() string {
	return ` + "`" + `every file matched by Path has at least one byte.` + "`" + `
}

func (IDENT) ProveDoc() string {
	return ` + "`" + `each file of Path is emptied.` + "`" + `
}

func (IDENT) Prepare(c *claim) bool {
	if c.c.Path == "" {
		c.malformed(c.c.Pos, "%s: a NAME claim needs Path", c.name())
		return false
	}
	return c.prepareFiles()
}

func (IDENT) Evaluate(c *claim) {
	if c.noFiles() {
		return
	}
	for _, f := range c.files {
		src, err := c.read(f, MaxFileSize)
		switch {
		case err != nil:
			c.fail(token.Position{Filename: f, Line: 1, Column: 1}, "%s cannot be read: %v", f, err)
		case len(src) == 0:
			c.fail(token.Position{Filename: f, Line: 1, Column: 1}, "%s is empty", f)
		default:
			c.hold(f)
		}
	}
}

// Mutants: each file the claim holds on, emptied.
func (IDENT) Mutants(c *claim) ([]mutant, bool) {
	var ms []mutant
	for _, f := range c.where {
		ms = append(ms, mutant{file: f, desc: fmt.Sprintf("%s is emptied", f), src: []byte{}})
	}
	return ms, true
}
`

const testTemplate = `package check_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/check/checktest"
)

// TestKindTESTNAME runs the NAME kind's fixture with every rule and prove:
// the claim that holds is proved, the one on an empty file fails, the row
// without Path is refused.
func TestKindTESTNAME(t *testing.T) {
	t.Parallel()
	res := checktest.RunQuiet(t, "testdata/kinds/NAME", check.Options{Prove: true}, check.Rules...)
	var got []string
	for _, f := range res.Findings {
		got = append(got, fmt.Sprintf("%s:%d: %s (%s)", f.Pos.Filename, f.Pos.Line, f.Message, f.Tag()))
	}
	want := []string{
		"docs/decisions/D1-notes.md:11: D1 C3: a NAME claim needs Path (CL006)",
		"src/empty.md:1: src/empty.md is empty (D1/C2)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Proofs) != 1 || res.Proofs[0].Claim != "C1" || res.Proofs[0].Mutants == 0 || res.Proofs[0].Killed != res.Proofs[0].Mutants {
		t.Errorf("proofs %+v, want C1 with every mutant killed", res.Proofs)
	}
}
`

const fixturePRD = `| ID | Decision | Status |
|---|---|---|
| D1 | Notes are written | accepted |

D1..D1
`

const fixtureDecision = `---
id: D1
status: accepted
---
# D1: Notes are written
## Confirmation
| Claim | Kind | Path | Anchor | Require | Why |
|---|---|---|---|---|---|
| C1 | NAME | ` + "`src/*.txt`" + ` | | | every note has text |
| C2 | NAME | ` + "`src/empty.md`" + ` | | | a file that must not be empty |
| C3 | NAME | | | | a row without Path |
`
