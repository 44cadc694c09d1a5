package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// genRepo writes a repository of files source files (Go, shell, Markdown in
// turn, 40 lines each) and one accepted decision holding claims claims of the
// present and anchored kinds, each anchored on a line that exists once.
func genRepo(tb testing.TB, files, claims int) string {
	tb.Helper()
	return genRepoPaths(tb, files, claims, false)
}

// genRepoPaths is genRepo; with oneFile each claim's Path names the one
// file its anchor is in, as most registers' rows do, instead of a glob
// over a third of the tree.
func genRepoPaths(tb testing.TB, files, claims int, oneFile bool) string {
	tb.Helper()
	dir := tb.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	for i := 0; i < files; i++ {
		var b strings.Builder
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "package p%d\n\n// Doc comment mentioning sym%d.\n", i/100, i)
			for l := 0; l < 36; l++ {
				fmt.Fprintf(&b, "func f%d_%d() int { return %d } // trailing\n", i, l, l)
			}
			fmt.Fprintf(&b, "const sym%d = %d\n", i, i)
			write(fmt.Sprintf("src/d%d/f%d.go", i/100, i), b.String())
		case 1:
			fmt.Fprintf(&b, "#!/bin/sh\n# sym%d in a comment\n", i)
			for l := 0; l < 37; l++ {
				fmt.Fprintf(&b, "echo line %d # note\n", l)
			}
			fmt.Fprintf(&b, "sym%d=1\n", i)
			write(fmt.Sprintf("scripts/d%d/f%d.sh", i/100, i), b.String())
		default:
			fmt.Fprintf(&b, "# Doc %d\n<!-- sym%d hidden -->\n", i, i)
			for l := 0; l < 37; l++ {
				fmt.Fprintf(&b, "Paragraph %d of prose.\n", l)
			}
			fmt.Fprintf(&b, "sym%d is documented\n", i)
			write(fmt.Sprintf("doc/d%d/f%d.md", i/100, i), b.String())
		}
	}
	var rows strings.Builder
	rows.WriteString("---\nid: D1\nstatus: accepted\n---\n# D1: Bench\n\n## Confirmation\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n")
	for c := 0; c < claims; c++ {
		i := (c * 7919) % files
		glob := []string{"src/**/*.go", "scripts/**/*.sh", "doc/**/*.md"}[i%3]
		if oneFile {
			glob = []string{"src/d%d/f%d.go", "scripts/d%d/f%d.sh", "doc/d%d/f%d.md"}[i%3]
			glob = fmt.Sprintf(glob, i/100, i)
		}
		kind := "present"
		if c%2 == 1 {
			kind = "anchored"
		}
		fmt.Fprintf(&rows, "| C%d | %s | `%s` | `\\bsym%d\\b` | | |\n", c+1, kind, glob, i)
	}
	write("docs/decisions/D1-bench.md", rows.String())
	write("docs/PRD.md", "D1..D1\n\n| ID | Decision | Status |\n|---|---|---|\n| D1 | Bench | accepted |\n")
	return dir
}

func benchCheck(b *testing.B, files, claims int) {
	benchCheckDir(b, genRepo(b, files, claims), files, claims)
}

func benchCheckDir(b *testing.B, dir string, files, claims int) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Run(Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		if n := len(res.Findings); n != 0 {
			b.Fatalf("%d findings, first: %+v", n, res.Findings[0])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(files), "ns/file")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(claims), "ns/claim")
}

// BenchmarkCheck measures a whole check over generated repositories, so the
// cost per file and per claim is known (see docs/benchmarks.md).
func BenchmarkCheck(b *testing.B) {
	for _, tc := range []struct{ files, claims int }{{1000, 100}, {3000, 300}, {3000, 1000}} {
		b.Run(fmt.Sprintf("files=%d/claims=%d", tc.files, tc.claims), func(b *testing.B) {
			benchCheck(b, tc.files, tc.claims)
		})
	}
}

// BenchmarkCheckOneFile is BenchmarkCheck with claims that each name one
// file: the shape of the real-tree benchmark (bench/run.sh --only real),
// where compiling a glob automaton per claim once cost a third of check's
// time (D92). Its allocations per op are the figure to watch.
func BenchmarkCheckOneFile(b *testing.B) {
	for _, tc := range []struct{ files, claims int }{{3000, 1000}} {
		b.Run(fmt.Sprintf("files=%d/claims=%d", tc.files, tc.claims), func(b *testing.B) {
			benchCheckDir(b, genRepoPaths(b, tc.files, tc.claims, true), tc.files, tc.claims)
		})
	}
}

// BenchmarkCheckTree runs check on the repository CLAIMSLINT_BENCH_TREE
// names (for one, the real-tree case bench -prepare DIR writes), to
// profile a real tree: go test ./internal/check -run '^$' -bench
// CheckTree -benchmem -memprofile mem.out.
func BenchmarkCheckTree(b *testing.B) {
	dir := os.Getenv("CLAIMSLINT_BENCH_TREE")
	if dir == "" {
		b.Skip("CLAIMSLINT_BENCH_TREE names no repository")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(Options{Dir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGeneratedRepoIsClean guards the benchmark's premise (every generated
// claim holds) and, by flipping one file, that a broken claim is caught.
func TestGeneratedRepoIsClean(t *testing.T) {
	dir := genRepo(t, 30, 12)
	res, err := Run(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 {
		t.Fatalf("findings on a clean generated repo: %+v", res.Findings)
	}
	// Claim C1 anchors on sym0 in src/d0/f0.go: comment the line out.
	p := filepath.Join(dir, "src/d0/f0.go")
	data, _ := os.ReadFile(p)
	data = []byte(strings.Replace(string(data), "const sym0 =", "// const sym0 =", 1))
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = Run(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Claim != "C1" {
		t.Fatalf("want one finding for C1, got %+v", res.Findings)
	}
}
