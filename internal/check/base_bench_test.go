package check

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// genBaseRepo writes a git repository of n accepted decisions, one claim
// each, committed and tagged base: what check --base reads at the base.
func genBaseRepo(tb testing.TB, n int) string {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("no git")
	}
	dir := tb.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	var reg, src strings.Builder
	fmt.Fprintf(&reg, "D1..D%d\n\n| ID | Decision | Status |\n|---|---|---|\n", n)
	src.WriteString("package src\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&reg, "| D%d | Decision %d | accepted |\n", i, i)
		fmt.Fprintf(&src, "const sym%d = %d\n", i, i)
		write(fmt.Sprintf("docs/decisions/D%d-d.md", i), fmt.Sprintf("---\nid: D%d\nstatus: accepted\n---\n# D%d: Decision %d\n## Confirmation\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n| C1 | anchored | `src/*.go` | `const sym%d =` | `= %d$` | |\n", i, i, i, i, i))
	}
	write("docs/PRD.md", reg.String())
	write("src/a.go", src.String())
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "base"}, {"tag", "base"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// BenchmarkCheckBase measures check --base on a register of n accepted
// decisions that the change leaves as they were (go test ./internal/check
// -run '^$' -bench CheckBase): the register at the base is read with a
// fixed number of git runs, whatever n (D87).
func BenchmarkCheckBase(b *testing.B) {
	for _, n := range []int{100, 400} {
		b.Run(fmt.Sprintf("decisions=%d", n), func(b *testing.B) {
			dir := genBaseRepo(b, n)
			b.ResetTimer()
			for b.Loop() {
				res, err := Run(Options{Dir: dir, Base: "base"})
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Findings) != 0 {
					b.Fatalf("%d findings, first: %+v", len(res.Findings), res.Findings[0])
				}
			}
		})
	}
}
