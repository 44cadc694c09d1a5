package register

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParseDecision parses decision files the way check's load does,
// one ParseDecision a file: "register" is this repository's own
// docs/decisions/*.md (prose, lists, fences and claim tables), "generated"
// 100 files in the shape bench -prepare writes for the real trees (front
// matter, a title and a Confirmation table of 10 claims each), the decision
// half of BenchmarkCheckTree's cost.
func BenchmarkParseDecision(b *testing.B) {
	own, err := filepath.Glob("../../docs/decisions/*.md")
	if err != nil || len(own) == 0 {
		b.Fatalf("no decision files under docs/decisions: %v", err)
	}
	type file struct {
		path string
		src  []byte
	}
	var register, generated []file
	for _, p := range own {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		register = append(register, file{"docs/decisions/" + filepath.Base(p), src})
	}
	for n := 1; n <= 100; n++ {
		var s strings.Builder
		fmt.Fprintf(&s, "---\nid: D%d\nstatus: accepted\n---\n# D%d: Decision %d\n\n## Confirmation\n\n", n, n, n)
		s.WriteString("| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n")
		for c := 1; c <= 10; c++ {
			fmt.Fprintf(&s, "| C%d | anchored | `src/pkg%d/file%d.go` | `^func F%d\\(x \\*T\\) \\(int, error\\) \\{$` | |\n", c, n, c, c)
		}
		generated = append(generated, file{fmt.Sprintf("docs/decisions/D%d-gen.md", n), []byte(s.String())})
	}
	for _, set := range []struct {
		name  string
		files []file
	}{{"register", register}, {"generated", generated}} {
		var size int64
		for _, f := range set.files {
			size += int64(len(f.src))
		}
		b.Run(set.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range set.files {
					if d := ParseDecision(f.path, f.src); !d.Parsed {
						b.Fatalf("%s: not parsed: %v", f.path, d.Findings)
					}
				}
			}
		})
	}
}
