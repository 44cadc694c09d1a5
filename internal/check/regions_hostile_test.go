package check

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hostileRegionTree writes a repository whose Go files nest as deep as
// they are long, n levels, under claims whose Within cells open a block
// at every line: a.go, an if in an if, n deep, read through each `\{` >
// each `\{`; b.go, n '(' lines closed by n ')' lines, each `f\(` a group
// holding the rest; c.go, n braces that never close, each behind a
// comment holding a closer.
func hostileRegionTree(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	files := map[string]string{
		"docs/PRD.md": "| ID | Decision | Status |\n|---|---|---|\n| D1 | [x](decisions/D1-x.md) | accepted |\n\nD1..D1\n",
		"docs/decisions/D1-x.md": "---\nid: D1\nstatus: accepted\n---\n# D1: x\n\n## Confirmation\n\n" +
			"| Claim | Kind | Path | Within | Anchor | Require |\n|---|---|---|---|---|---|\n" +
			"| C1 | absent | `src/a.go` | each `\\{` > each `\\{` | `forbidden` | |\n" +
			"| C2 | present | `src/a.go` | `^func f\\(` | `if x` | |\n" +
			"| C3 | absent | `src/b.go` | each `f\\(` | `forbidden` | |\n" +
			"| C4 | absent | `src/c.go` | each `\\{` | `forbidden` | |\n",
		"src/a.go": "package a\n\nfunc f() {\n" + strings.Repeat("\tif x {\n", n) + strings.Repeat("\t}\n", n) + "}\n",
		"src/b.go": "package b\n\nvar x = " + strings.Repeat("f(\n", n) + strings.Repeat(")\n", n),
		"src/c.go": "package c\n\n" + strings.Repeat("{ /* } */\n", n),
	}
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// TestRegionHostileNestingUnderBudget: under a budget, region matching on
// files that nest as deep as they are long finishes, every claim holding,
// and 8x the lines cost about as much as the original lines 8 times (D94):
// quadratic would be 8x; the bound, 3x, leaves room for the caches.
// Process CPU time, the best of three, not wall time: on a shared machine
// the wall clock measures the neighbours.
func TestRegionHostileNestingUnderBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("times 80,000-line inputs")
	}
	cost := func(n, reps int) time.Duration {
		dir := hostileRegionTree(t, n)
		best := time.Duration(1 << 62)
		for range 3 {
			runtime.GC()
			start := processCPU()
			for range reps {
				res, err := Run(Options{Dir: dir, Budget: 10 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Findings) != 0 {
					t.Fatalf("n=%d: %d findings, first %s", n, len(res.Findings), res.Findings[0].Message)
				}
			}
			best = min(best, processCPU()-start)
		}
		return best
	}
	small, large := cost(10000, 8), cost(80000, 1)
	if r := float64(large) / float64(max(small, 10*time.Millisecond)); r > 3 {
		t.Errorf("8x the lines cost %.1fx the CPU time of the lines read 8 times (%v -> %v): superlinear", r, small, large)
	}
	t.Logf("10,000 lines x8: %v; 80,000 lines: %v", small, large)
}
