package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/snapshot"
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

const register1 = "| ID | Decision | Status |\n|---|---|---|\n| D1 | [x](decisions/D1-x.md) | accepted |\n\nD1..D1\n"

func decision1(rows string) string {
	return "---\nid: D1\nstatus: accepted\n---\n# D1: x\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n" + rows
}

// An anchor whose matcher would track a thousand states at every byte of a
// 4 MB line is not run on it: the claim fails at once, saying why, where
// the match would take minutes.
func TestHostileAnchorIsNotRun(t *testing.T) {
	line := strings.Repeat(strings.Repeat("a", 500)+"z", 8000)[:4000000]
	dir := writeTree(t, map[string]string{
		"docs/PRD.md":            register1,
		"docs/decisions/D1-x.md": decision1("| C1 | present | `src/long.txt` | `[a-y]{999}z` | |\n| C2 | present | `src/long.txt` | `[yz]{3}` | |\n"),
		"src/long.txt":           line + "\nzzz\n",
	})
	start := time.Now()
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the run took %s", d)
	}
	var msgs []string
	for _, f := range res.Findings {
		msgs = append(msgs, f.Message)
	}
	got := strings.Join(msgs, "\n")
	if !strings.Contains(got, "Anchor `[a-y]{999}z` was not run on src/long.txt:1: a 4000000-byte line times the anchor's") {
		t.Errorf("findings:\n%s", got)
	}
	// A small anchor still runs on the long line, and on the next one.
	for _, st := range res.Claims {
		if st.Claim == "C2" && st.State != check.StateOK {
			t.Errorf("C2 %s: %s", st.State, st.Message)
		}
	}
}

// A run over its budget is an error that names the file it had reached.
func TestBudget(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"docs/PRD.md":            register1,
		"docs/decisions/D1-x.md": decision1("| C1 | present | `src/a.go` | `func a\\(` | |\n"),
		"src/a.go":               "package src\n\nfunc a() {}\n",
	})
	snap, err := snapshot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = check.RunRules(snap, check.Options{Dir: dir, Budget: time.Nanosecond}, check.Rules...)
	if err == nil || !strings.Contains(err.Error(), "budget of 1ns: it stopped at src/a.go") {
		t.Fatalf("err = %v, want the budget error naming src/a.go", err)
	}
	if _, err := check.RunRules(snap, check.Options{Dir: dir}, check.Rules...); err != nil {
		t.Fatalf("default budget: %v", err)
	}
}
