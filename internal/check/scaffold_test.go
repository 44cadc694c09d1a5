package check_test

import (
	"bytes"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestScaffolds runs each add-check scaffold (addrule.go, addkind.go) in a
// copy of the module (go.mod, internal/ and docs/README.md): the copy
// builds, vets and passes the tests that read the new rule or kind, and
// the scaffold touched exactly the number of code files (non-test .go)
// its doc states (D103).
func TestScaffolds(t *testing.T) {
	if os.Getenv("CLAIMSLINT_BUILD_TESTS") == "" {
		t.Skip("builds and tests two copies of the module; set CLAIMSLINT_BUILD_TESTS=1 to run it (checks/test.sh does)")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for _, tc := range []struct {
		script string
		args   []string
		// code lists the code files the scaffold writes or edits.
		code []string
		// others lists the other files it writes or edits.
		others []string
		tests  string
	}{
		{
			script: "addrule.go", args: []string{"-const", "TitleTODO", "-name", "title-todo"},
			code:   []string{"internal/check/rule_cl017_title_todo.go", "internal/check/rules.go", "internal/ruleid/ruleid.go"},
			others: []string{"internal/check/rules_alone_test.go", "internal/check/testdata/rules/title-todo/docs/PRD.md", "internal/check/testdata/rules/title-todo/docs/decisions/D1-todo.md"},
			tests:  "^(TestEachRuleAloneOnItsFixture|TestPlanRunsRequiredRulesFirstOnce|TestExplainByName)$",
		},
		{
			script: "addkind.go", args: []string{"-name", "non-blank"},
			code:   []string{"internal/check/kind_non_blank.go", "internal/check/kinds.go"},
			others: []string{"docs/README.md", "internal/check/kind_non_blank_test.go", "internal/check/testdata/kinds/non-blank/docs/PRD.md", "internal/check/testdata/kinds/non-blank/docs/decisions/D1-notes.md", "internal/check/testdata/kinds/non-blank/src/a.txt", "internal/check/testdata/kinds/non-blank/src/b.txt", "internal/check/testdata/kinds/non-blank/src/empty.md"},
			tests:  "^(TestKindNonBlank|TestUnknownKindsListTheRegistry|TestFifthKindIsOneFile|TestClaimTablesDocListsTheKinds|TestEachRuleAloneOnItsFixture|TestRulesOnFixtures)$",
		},
	} {
		t.Run(tc.script, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			copyModule(t, filepath.Join("..", ".."), dir)
			before := files(t, dir)
			goCmd := func(args ...string) string {
				t.Helper()
				cmd := exec.Command(goBin, args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			goCmd(append([]string{"run", "./internal/check/" + tc.script}, tc.args...)...)
			after := files(t, dir)
			var code, others []string
			for p, data := range after {
				if old, ok := before[p]; ok && bytes.Equal(old, data) {
					continue
				}
				if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
					code = append(code, p)
				} else {
					others = append(others, p)
				}
			}
			for p := range before {
				if _, ok := after[p]; !ok {
					t.Errorf("%s removed %s", tc.script, p)
				}
			}
			slices.Sort(code)
			slices.Sort(others)
			if !slices.Equal(code, tc.code) {
				t.Errorf("%s touched the code files %v, want %v", tc.script, code, tc.code)
			}
			if !slices.Equal(others, tc.others) {
				t.Errorf("%s touched the other files %v, want %v", tc.script, others, tc.others)
			}
			for _, p := range code {
				if src, err := format.Source(after[p]); err != nil || !bytes.Equal(src, after[p]) {
					t.Errorf("%s is not gofmt'd (%v)", p, err)
				}
			}
			goCmd("vet", "./internal/check", "./internal/ruleid")
			goCmd("test", "-count=1", "-run", tc.tests, "./internal/check")
			// The scaffold refuses to write the same thing twice.
			cmd := exec.Command(goBin, append([]string{"run", "./internal/check/" + tc.script}, tc.args...)...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "already") {
				t.Errorf("a second run: %v\n%s", err, out)
			}
		})
	}
}

// copyModule copies what the scaffolds read and the check package's tests
// need: go.mod, go.sum, docs/README.md, and internal/ without its testdata
// but internal/check's.
func copyModule(t *testing.T, root, dst string) {
	t.Helper()
	for _, f := range []string{"go.mod", "go.sum", filepath.Join("docs", "README.md")} {
		copyFile(t, filepath.Join(root, f), filepath.Join(dst, f))
	}
	keep := filepath.Join(root, "internal", "check", "testdata")
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" && p != keep {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			copyFile(t, p, filepath.Join(dst, rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	// The mode too: the fixtures hold scripts that must be executable.
	if err := os.WriteFile(to, data, fi.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

// files reads every file under dir, keyed by its slash path.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
