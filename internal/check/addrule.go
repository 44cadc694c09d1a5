//go:build ignore

// addrule writes a new rule, as staticcheck's add-check does (D103): its
// file (rule_clNNN_name.go, a Rule value marked //registry:rules and its
// Run) and its fixture (testdata/rules/NAME, named in ruleFixtures); then
// it runs listgen, which writes its id in internal/ruleid (ruleid_gen.go)
// and its entry at the end of check.Rules (rules_gen.go). The rule it writes works:
// it reports each decision whose title is still TODO, and its fixture
// expects that finding; edit both into the rule you want.
//
// Run it from the repository root:
//
//	go run ./internal/check/addrule.go -const TitleTODO -name title-todo
//
// It writes 1 hand-written code file (the rule's), 1 test file
// (rules_alone_test.go) and the fixture's 2 files, and listgen rewrites 2
// generated ones (rules_gen.go, ruleid_gen.go). Then run go test ./internal/check and
// go test ./cmd/claimslint -run TestRulesPage -update (the rules page).
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
	constName := flag.String("const", "", "the id's constant in internal/ruleid (an exported Go name)")
	name := flag.String("name", "", "the rule's name, in lower case words joined by dashes")
	flag.Parse()
	if err := run(*root, *constName, *name); err != nil {
		fmt.Fprintln(os.Stderr, "addrule:", err)
		os.Exit(1)
	}
}

var (
	constRE = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	nameRE  = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	idRE    = regexp.MustCompile(`"CL(\d{3})"`)
)

func run(root, constName, name string) error {
	if !constRE.MatchString(constName) {
		return fmt.Errorf("-const %q: give the name of the id's constant: a capital letter, then letters and digits (Dated)", constName)
	}
	if !nameRE.MatchString(name) {
		return fmt.Errorf("-name %q: give lower case words joined by dashes (title-todo)", name)
	}
	// The ids so far: internal/ruleid's, by hand and generated.
	var ids []byte
	for _, f := range []string{"ruleid.go", "ruleid_gen.go"} {
		data, err := os.ReadFile(filepath.Join(root, "internal", "ruleid", f))
		if err != nil {
			return err
		}
		ids = append(ids, data...)
	}
	if regexp.MustCompile(`\b` + constName + `\s*=`).Match(ids) {
		return fmt.Errorf("ruleid.%s exists already", constName)
	}
	// The new id is one past the highest.
	n := 0
	for _, m := range idRE.FindAllSubmatch(ids, -1) {
		k, _ := strconv.Atoi(string(m[1]))
		n = max(n, k)
	}
	id := fmt.Sprintf("CL%03d", n+1)
	variable := lowerFirst(camel(name)) + "Rule"
	runName := lowerFirst(camel(name)) + "Run"
	check := filepath.Join(root, "internal", "check")
	ruleFile := filepath.Join(check, fmt.Sprintf("rule_%s_%s.go", strings.ToLower(id), strings.ReplaceAll(name, "-", "_")))
	fixture := filepath.Join(check, "testdata", "rules", name)
	for _, p := range []string{ruleFile, fixture} {
		if _, err := os.Stat(p); err == nil {
			return fmt.Errorf("%s exists already", p)
		}
	}

	// The fixture's entry in ruleFixtures.
	testFile := filepath.Join(check, "rules_alone_test.go")
	tests, err := os.ReadFile(testFile)
	if err != nil {
		return err
	}
	start := strings.Index(string(tests), "var ruleFixtures = ")
	if start < 0 {
		return fmt.Errorf("%s: no ruleFixtures", testFile)
	}
	end := strings.Index(string(tests[start:]), "\n}\n")
	if end < 0 {
		return fmt.Errorf("%s: ruleFixtures does not end", testFile)
	}
	end += start
	newTests := string(tests[:end]) + fmt.Sprintf("\n\truleid.%s: {dir: %q},", constName, name) + string(tests[end:])

	src := fmt.Sprintf(ruleTemplate, variable, id, variable, constName, name, runName, runName, id, runName)
	files := []struct {
		path string
		data []byte
	}{
		{testFile, []byte(newTests)},
		{ruleFile, []byte(src)},
		{filepath.Join(fixture, "docs", "PRD.md"), []byte(fixturePRD)},
		{filepath.Join(fixture, "docs", "decisions", "D1-todo.md"), []byte(fmt.Sprintf(fixtureDecision, id))},
	}
	for i, f := range files {
		if strings.HasSuffix(f.path, ".go") {
			src, err := format.Source(f.data)
			if err != nil {
				return fmt.Errorf("%s: %v", f.path, err)
			}
			files[i].data, f.data = src, src
		}
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
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
	fmt.Printf("%s %s: run go test ./internal/check, and go test ./cmd/claimslint -run TestRulesPage -update\n", id, name)
	return nil
}

// camel is dated-decision as DatedDecision.
func camel(name string) string {
	var b strings.Builder
	for _, w := range strings.Split(name, "-") {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

const ruleTemplate = `package check

import (
	"strings"

	"github.com/claimslint/claimslint/internal/ruleid"
)

// %s is %s.
//
//registry:rules
var %s = &Rule{ID: ruleid.%s, Name: %q, Run: %s, Doc: ` + "`" + `A decision's title says what was decided, not TODO.

A title that is still TODO, a template's word, names no decision: the
register lists it and nobody can tell what it holds. Adopted records and
register rows without a file are not read.

Fix: write the decision's title.` + "`" + `}

// %s (%s) reports each decision file whose title is TODO.
func %s(p *Pass) error {
	for _, d := range p.Snap.Decisions {
		if d.Inline || d.Adopted || !d.Parsed {
			continue
		}
		if strings.EqualFold(strings.TrimSpace(d.Title), "TODO") {
			p.Reportf(d.KeyPos("id"), "%%s: the title is TODO: write what was decided", d.FileID)
		}
	}
	return nil
}
`

const fixturePRD = `| ID | Decision | Status |
|---|---|---|
| D1 | TODO | accepted |

D1..D1
`

// The finding is at the id: key, line 2; the want names that line.
const fixtureDecision = `---
id: D1
status: accepted
claims: none, the fixture of %s
---
# TODO

<!-- want@2 "D1: the title is TODO" -->
`
