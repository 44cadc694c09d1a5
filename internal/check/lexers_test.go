package check_test

import (
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
)

// TestLexerAttacks holds the seven attacks of issue 31 (L1): code the
// language runs that the lexer read as a comment or a string, or the
// reverse, let a claim pass. Each claim fails now, at the line the
// language reads (D89).
func TestLexerAttacks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file, src, kind, anchor, want string
	}{
		{"c-comment-continues", "src/a.c", "int f(void) {\n    // see below \\\n    needle();\n    return 0;\n}\n",
			"present", `needle\(\)`, "only in comments"},
		{"shell-unquoted-heredoc-runs", "src/a.sh", "#!/bin/sh\ncat <<EOF\n$(needle --all)\nEOF\n",
			"absent", `needle --all`, "src/a.sh:3"},
		{"js-regex-after-if", "src/a.js", "if (ok) /`/.test(s)\nneedle()\nlet t = `x`\n",
			"absent", `needle\(\)`, "src/a.js:2"},
		{"kotlin-interpolation", "src/A.kt", "val s = \"\"\"\n${ needle(\"}\") }\n\"\"\"\n",
			"absent", `needle\(`, "src/A.kt:2"},
		{"swift-interpolation", "src/A.swift", "let s = \"\"\"\n\\(needle(\")\"))\n\"\"\"\n",
			"absent", `needle\(`, "src/A.swift:2"},
		{"csharp-interpolation", "src/A.cs", "var s = $\"\"\"\n{needle()}\n\"\"\";\n",
			"absent", `needle\(`, "src/A.cs:2"},
		{"ruby-interpolation", "src/a.rb", "s = \"a\n#{needle}\nb\"\n",
			"absent", `needle`, "src/a.rb:2"},
		// A lone carriage return ends a JavaScript line comment.
		{"js-cr-ends-comment", "src/d.js", "// note\rneedle()\n",
			"absent", `needle\(\)`, "src/d.js:1"},
		// A '/' after a '}' is read both ways: the claim holds only if it
		// holds both ways.
		{"js-two-ways-present", "src/b.js", "}\n/`/.test(s)\nneedle()\n// `\n",
			"present", `needle\(\)`, "reads two ways"},
		{"js-two-ways-absent", "src/c.js", "}\n/`/.test(s)\n// `\nneedle()\n",
			"absent", `needle\(\)`, "src/c.js:4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeTree(t, map[string]string{
				"docs/PRD.md":            register1,
				"docs/decisions/D1-x.md": decision1("| C1 | " + tc.kind + " | `" + tc.file + "` | `" + tc.anchor + "` | |\n"),
				tc.file:                  tc.src,
			})
			res, err := check.Run(check.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			var msgs []string
			for _, f := range res.Findings {
				msgs = append(msgs, f.Pos.String()+": "+f.Message)
			}
			got := strings.Join(msgs, "\n")
			for _, st := range res.Claims {
				if st.Claim == "C1" && st.State == check.StateOK {
					t.Fatalf("%s %s holds on %s; findings:\n%s", tc.kind, tc.anchor, tc.file, got)
				}
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("findings do not say %q:\n%s", tc.want, got)
			}
		})
	}
}
