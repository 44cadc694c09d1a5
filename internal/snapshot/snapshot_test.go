package snapshot

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/claimslint/claimslint/internal/ruleid"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestMarkdownTotal: past the Markdown a run reads over all its files, each
// further decision file is a CL008 finding, not read, whatever order the
// cores read them in; the ones before it are parsed (D70). The total is
// lowered to 3 KiB for the test.
func TestMarkdownTotal(t *testing.T) {
	defer func(old int64) { markdownTotal = old }(markdownTotal)
	markdownTotal = 3 << 10
	files := map[string]string{
		"docs/PRD.md": "| ID | Decision | Status |\n|---|---|---|\n| D1 | a | accepted |\n| D2 | b | accepted |\n| D3 | c | accepted |\n| D4 | d | accepted |\n\nD1..D4\n",
	}
	for _, id := range []string{"1", "2", "3", "4"} {
		files["docs/decisions/D"+id+"-x.md"] = "---\nid: D" + id + "\nstatus: accepted\nclaims: none, a test\n---\n# D" + id + ": x\n\n" + strings.Repeat("Some prose.\n", 80)
	}
	for range 20 { // the outcome must not depend on scheduling
		s, err := Load(writeTree(t, files))
		if err != nil {
			t.Fatal(err)
		}
		var refused []string
		for _, f := range s.ParseFindings {
			if f.Check == ruleid.Markdown && strings.Contains(f.Message, "MiB of Markdown claimslint reads in one run, over all files") {
				refused = append(refused, f.Pos.Filename)
			}
		}
		// The register and three 1 KB files are about 3.1 KB: the third
		// decision file passes the total, and the fourth is not read.
		if strings.Join(refused, " ") != "docs/decisions/D3-x.md docs/decisions/D4-x.md" {
			t.Fatalf("refused %v", refused)
		}
		if d := s.Decision("D2"); d == nil || !d.Parsed {
			t.Fatalf("D2 not parsed: %+v", d)
		}
	}
}

// TestRunNodes: past the estimated syntax nodes a run parses over all its
// files, each further decision file is a CL008 finding, never parsed,
// whatever order the cores read them in; the ones before it are parsed
// (D90). The bound is lowered to 300 nodes for the test.
func TestRunNodes(t *testing.T) {
	defer func(old int64) { runNodes = old }(runNodes)
	runNodes = 300
	files := map[string]string{
		"docs/PRD.md": "| ID | Decision | Status |\n|---|---|---|\n| D1 | a | accepted |\n| D2 | b | accepted |\n| D3 | c | accepted |\n| D4 | d | accepted |\n\nD1..D4\n",
	}
	for _, id := range []string{"1", "2", "3", "4"} {
		// 40 rows of 2 pipes each, front matter and a heading: about 130
		// nodes a file, with its front matter and heading.
		files["docs/decisions/D"+id+"-x.md"] = "---\nid: D" + id + "\nstatus: accepted\nclaims: none, a test\n---\n# D" + id + ": x\n\n" + strings.Repeat("| a |\n", 40)
	}
	for range 20 { // the outcome must not depend on scheduling
		s, err := Load(writeTree(t, files))
		if err != nil {
			t.Fatal(err)
		}
		var refused []string
		for _, f := range s.ParseFindings {
			if f.Check == ruleid.Markdown && strings.Contains(f.Message, "estimated Markdown syntax nodes (lines, table cells, inline openers) claimslint parses in one run") {
				refused = append(refused, f.Pos.Filename)
			}
		}
		if strings.Join(refused, " ") != "docs/decisions/D3-x.md docs/decisions/D4-x.md" {
			t.Fatalf("refused %v", refused)
		}
		if d := s.Decision("D2"); d == nil || !d.Parsed {
			t.Fatalf("D2 not parsed: %+v", d)
		}
	}
}

// TestMatchWithinConcurrent: claims on all cores matching the same globs
// at once get the same files as one caller alone (D56: matched outside
// the cache's lock, once per glob); a match stopped by its budget caches
// nothing, and the next caller matches again.
func TestMatchWithinConcurrent(t *testing.T) {
	t.Parallel()
	files := map[string]string{"docs/PRD.md": "| ID | Decision | Status |\n|---|---|---|\n"}
	for _, p := range []string{"a/x.go", "a/y.go", "a/b/z.go", "c/w.go"} {
		files[p] = "package x\n"
	}
	for i := range stopEvery { // a stop function is asked every stopEvery paths
		files[fmt.Sprintf("a/m/%03d.txt", i)] = "x\n"
	}
	s, err := Load(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	globs := map[string]string{"a/**/*.go": "a/b/z.go a/x.go a/y.go", "c/w.go": "c/w.go", "**/*.go": "a/b/z.go a/x.go a/y.go c/w.go", "none/*.go": ""}
	stopped, ok := s.MatchWithin("a/**/*.go", func() bool { return true })
	if ok || stopped != nil {
		t.Fatalf("a stopped match returned %v, %v", stopped, ok)
	}
	var wg sync.WaitGroup
	got := make([]map[string]string, 16)
	for k := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[k] = map[string]string{}
			for g := range globs {
				fs, ok := s.MatchWithin(g, nil)
				if !ok {
					t.Errorf("MatchWithin(%q) stopped without a stop function", g)
				}
				got[k][g] = strings.Join(fs, " ")
			}
		}()
	}
	wg.Wait()
	for k := range got {
		for g, want := range globs {
			if got[k][g] != want {
				t.Errorf("caller %d: MatchWithin(%q) = %q, want %q", k, g, got[k][g], want)
			}
		}
	}
}

// TestDecisionFilesDeletedInWorkTree: a decision file deleted from the
// work tree but still in the index is not read and not reported, a
// misnamed one included (D56: what the code says now), and Present says
// it is gone without a second lstat; the others are decisions.
func TestDecisionFilesDeletedInWorkTree(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dec := func(id string) string {
		return "---\nid: " + id + "\nstatus: accepted\nclaims: none, a test\n---\n# " + id + ": x\n"
	}
	dir := writeTree(t, map[string]string{
		"docs/PRD.md":              "| ID | Decision | Status |\n|---|---|---|\n| D1 | a | accepted |\n| D2 | b | accepted |\n\nD1..D2\n",
		"docs/decisions/D1-a.md":   dec("D1"),
		"docs/decisions/D2-b.md":   dec("D2"),
		"docs/decisions/D3.md":     dec("D3"),
		"docs/decisions/D4.md":     dec("D4"),
		"docs/decisions/sub/D5.md": dec("D5"),
	})
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, f := range []string{"docs/decisions/D2-b.md", "docs/decisions/D3.md"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range s.Decisions {
		ids = append(ids, d.ID)
	}
	if got := strings.Join(ids, " "); got != "D1" {
		t.Errorf("decisions %q, want D1 alone", got)
	}
	var named []string
	for _, f := range s.ParseFindings {
		if f.Check == ruleid.Register && strings.Contains(f.Message, "decision file name") {
			named = append(named, f.Pos.Filename)
		}
	}
	if got := strings.Join(named, " "); got != "docs/decisions/D4.md" {
		t.Errorf("misnamed files reported: %q, want docs/decisions/D4.md alone", got)
	}
	if s.Repo.Present("docs/decisions/D2-b.md") || !s.Repo.Present("docs/decisions/D1-a.md") {
		t.Error("Present disagrees with the work tree")
	}
}
