package check

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeletedFileIsNotClaimed: a file deleted from the work tree but still
// in the index is not what the code says now. A line claim takes its
// files from the index and its scan drops the deleted one (dropGone, D92):
// the outcome is the one an lstat of every file before the scan gave. A
// Path naming only it matches no file, a glob holds over the files left,
// an absent pattern only the deleted file held is absent, and no "not
// read" warning names it; a kind that does not scan (exec) still asks
// the work tree first.
func TestDeletedFileIsNotClaimed(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	files := map[string]string{
		"docs/PRD.md": "# R\n\nLive range: D1..D1.\n\n| ID | Decision | Status |\n|---|---|---|\n| D1 | [One](decisions/D1-one.md) | accepted |\n",
		"docs/decisions/D1-one.md": "---\nid: D1\nstatus: accepted\n---\n# D1: One\n\n## Confirmation\n\n" +
			"| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n" +
			"| C1 | anchored | `src/gone.go` | `^func Gone\\(\\)` | |\n" +
			"| C2 | present | `src/*.go` | `^func Kept\\(\\)` | |\n" +
			"| C3 | absent | `src/*.go` | `forbidden\\(\\)` | |\n" +
			"| C4 | anchored | `src/*.go` | `^func [A-Z][a-z]+\\(\\)` | |\n" +
			"| C5 | exec | `run.sh` | | |\n",
		"src/gone.go": "package src\n\nfunc Gone() { forbidden() }\n",
		"src/kept.go": "package src\n\nfunc Kept() {}\n",
		"run.sh":      "#!/bin/sh\n",
	}
	for p, s := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, f := range []string{"src/gone.go", "run.sh"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"C1": "failed: Path `src/gone.go` matches no file",
		"C2": "ok: ",
		"C3": "ok: ",
		"C4": "ok: ", // exactly one line left: kept.go's
		"C5": "failed: Path `run.sh` matches no file",
	}
	for _, st := range res.Claims {
		if got := st.State + ": " + st.Message; got != want[st.Claim] {
			t.Errorf("%s: %q, want %q", st.Claim, got, want[st.Claim])
		}
	}
	for _, f := range res.Findings {
		if strings.Contains(f.Message, "not read") || strings.Contains(f.Message, "could not read") {
			t.Errorf("a deleted file reported as unread: %s: %s", f.Pos, f.Message)
		}
	}
}
