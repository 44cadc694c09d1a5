package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// exampleRow matches a claim row shown in a fenced block of the docs: an
// id, then a kind.
var exampleRow = regexp.MustCompile(`^\|\s*[A-Za-z][\w-]*\d[\w-]*\s*\|\s*[a-z-]+(:[a-z]+)?\s*\|`)

// docExampleRows returns every example claim row of README.md and the
// guides (docs/ without the register's own decisions), by its text, with
// where it is shown.
func docExampleRows(t *testing.T) map[string][]string {
	t.Helper()
	files := []string{"README.md"}
	filepath.WalkDir(filepath.Join(repoRoot(t), "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot(t), p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (rel == "docs/decisions" || rel == "docs/claims") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(rel, ".md") && rel != "docs/PRD.md" && rel != "docs/benchmarks.md" {
			files = append(files, rel)
		}
		return nil
	})
	rows := map[string][]string{}
	for _, f := range files {
		fh, err := os.Open(filepath.Join(repoRoot(t), f))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		fence, n := "", 0
		for sc.Scan() {
			n++
			l := sc.Text()
			trim := strings.TrimSpace(l)
			if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
				switch {
				case fence == "":
					fence = trim[:3]
				case strings.HasPrefix(trim, fence):
					fence = ""
				}
				continue
			}
			if fence != "" && exampleRow.MatchString(l) {
				rows[l] = append(rows[l], fmt.Sprintf("%s:%d", f, n))
			}
		}
		fh.Close()
	}
	return rows
}

// TestDocExamples: every example claim row of the docs and README runs,
// on a tree where its fact holds and on one where it is broken (D94): a
// fixture in testdata/examples holds the rows as the docs show them
// (rows), the tree where each holds (holds/...), and for each claim the
// files that break it (breaks/ID/...; a file whose content is DELETED is
// removed; exec lists the files made executable). An example that cannot
// fail, or that no fixture runs, fails the test. allow rows are
// exceptions, not facts: they are run with their claim, never broken
// alone.
func TestDocExamples(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	shown := docExampleRows(t)
	fixtures, _ := filepath.Glob("testdata/examples/*.txtar")
	covered := map[string]bool{}
	for _, fx := range fixtures {
		ar, err := txtar.ParseFile(fx)
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		holds := map[string]string{}
		breaks := map[string]map[string]string{}
		var execs []string
		breakExec := map[string][]string{}
		for _, f := range ar.Files {
			switch name := f.Name; {
			case name == "rows":
				rows = strings.Split(strings.TrimRight(string(f.Data), "\n"), "\n")
			case name == "exec":
				execs = strings.Fields(string(f.Data))
			case strings.HasPrefix(name, "holds/"):
				holds[strings.TrimPrefix(name, "holds/")] = string(f.Data)
			case strings.HasPrefix(name, "breaks/"):
				id, rest, _ := strings.Cut(strings.TrimPrefix(name, "breaks/"), "/")
				if breaks[id] == nil {
					breaks[id] = map[string]string{}
				}
				if rest == "exec" {
					breakExec[id] = strings.Fields(string(f.Data))
					breaks[id][""] = ""
					continue
				}
				breaks[id][rest] = string(f.Data)
			}
		}
		for _, r := range rows {
			covered[r] = true
		}
		t.Run(strings.TrimSuffix(filepath.Base(fx), ".txtar"), func(t *testing.T) {
			t.Parallel()
			if fs := exampleRun(t, rows, holds, nil, execs); len(fs) > 0 {
				t.Fatalf("the examples do not hold on holds/:\n%s", strings.Join(fs, "\n"))
			}
			for _, r := range rows {
				cells := strings.Split(r, "|")
				id, kind := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])
				if kind == "allow" {
					continue
				}
				over, ok := breaks[id]
				if !ok {
					t.Errorf("%s: no breaks/%s/: the example %s is shown without a tree where it fails", fx, id, id)
					continue
				}
				ex := execs
				if e, ok := breakExec[id]; ok {
					ex = e
				}
				tree := map[string]string{}
				for k, v := range holds {
					tree[k] = v
				}
				for k, v := range over {
					if k == "" {
						continue
					}
					if v == "DELETED\n" {
						delete(tree, k)
					} else {
						tree[k] = v
					}
				}
				fs := exampleRun(t, rows, tree, &id, ex)
				if len(fs) == 0 {
					t.Errorf("%s: %s stays green on breaks/%s/: the example cannot fail", fx, id, id)
				}
			}
		})
	}
	var missing []string
	for r, where := range shown {
		if !covered[r] {
			missing = append(missing, fmt.Sprintf("%s: %s", strings.Join(where, ", "), r))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("example row shown with no fixture in testdata/examples (add its rows, holds/ and breaks/): %s", m)
	}
}

// exampleRun writes rows as decision D1's claims over tree, commits it
// (exec files 100755), runs check, and returns the findings: of claim id
// when id is set (CL007), else every error.
func exampleRun(t *testing.T, rows []string, tree map[string]string, id *string, execs []string) []string {
	t.Helper()
	dir := t.TempDir()
	header := "| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n"
	if strings.Count(rows[0], "|")-strings.Count(rows[0], `\|`) == 8 {
		header = "| Claim | Kind | Path | Within | Anchor | Require | Why |\n|---|---|---|---|---|---|---|\n"
	}
	files := map[string]string{
		"docs/PRD.md":                  "| ID | Decision | Status |\n|---|---|---|\n| D1 | Example | accepted |\n\nD1..D1\n",
		"docs/decisions/D1-example.md": "---\nid: D1\nstatus: accepted\n---\n# D1: Example\n\n## Confirmation\n\n" + header + strings.Join(rows, "\n") + "\n",
	}
	for k, v := range tree {
		files[k] = v
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		for _, e := range execs {
			if e == name {
				mode = 0o755
			}
		}
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	for _, e := range execs {
		git("update-index", "--chmod=+x", e)
	}
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		if id != nil {
			if f.Claim == *id && f.Check == ruleid.Claim && f.Severity == diag.SeverityError {
				out = append(out, f.Message)
			}
			continue
		}
		if f.Severity == diag.SeverityError {
			out = append(out, fmt.Sprintf("%s: %s (%s)", f.Pos, f.Message, f.Check))
		}
	}
	return out
}
