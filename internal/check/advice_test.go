package check_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/check/checktest"
	"github.com/claimslint/claimslint/internal/ruleid"
)

// adviceRE finds the kind (and scope) a message advises, its last one:
// present:comment, present:any, anchored:any, present:test,
// anchored-every...
var adviceRE = regexp.MustCompile(`\b(?:present|anchored-every|anchored|absent)(?::[a-z]+)?\b`)

// TestAdviceTaken: the scope a message advises is one its own claim
// accepts on the same input (D76). Each case is a claim that fails, the
// message it gets and the kind the message advises; the Kind cell is then
// rewritten to that advice and the claim must hold, so no message advises
// a scope whose own message says the opposite (issue 24: present:comment,
// advised for a here-document, then said "appears only on code lines,
// outside comments").
func TestAdviceTaken(t *testing.T) {
	for _, tc := range []struct {
		name, kind, path, anchor, file, src string
		message, advice                     string
	}{
		{name: "comment", kind: "present", path: "src/*.go", anchor: "ub-788", file: "src/a.go",
			src:     "package a\n\n// Residual: ub-788.\nvar x = 1\n",
			message: "appears only in comments", advice: "present:comment"},
		{name: "here-document", kind: "present", path: "src/*.sh", anchor: "frame-limit", file: "src/run.sh",
			src:     "#!/bin/sh\ncat <<END\nframe-limit\nEND\n",
			message: "appears only inside a string", advice: "present:any"},
		{name: "multi-line string", kind: "present", path: "src/*.py", anchor: "frame_limit", file: "src/m.py",
			src:     "X = \"\"\"\nframe_limit\n\"\"\"\n",
			message: "appears only inside a string", advice: "present:any"},
		{name: "comment scope on a string", kind: "present:comment", path: "src/*.py", anchor: "frame_limit", file: "src/m.py",
			src:     "X = \"\"\"\nframe_limit\n\"\"\"\n",
			message: "appears only inside a string", advice: "present:any"},
		{name: "comment and string", kind: "present", path: "src/*.rs", anchor: "needle", file: "src/lib.rs",
			src:     "// needle\nconst S: &str = r#\"\nneedle\n\"#;\n",
			message: "appears only in comments .* and inside a string", advice: "present:comment"},
		{name: "anchored in a string", kind: "anchored", path: "src/*.py", anchor: "frame_limit", file: "src/m.py",
			src:     "X = \"\"\"\nframe_limit\n\"\"\"\n",
			message: "anchor vanished: .*inside a string", advice: "anchored:any"},
		{name: "anchored-every in a string", kind: "anchored-every", path: "src/*.sh", anchor: "frame-limit", file: "src/run.sh",
			src:     "#!/bin/sh\ncat <<END\nframe-limit\nEND\n",
			message: "anchor vanished: .*inside a string", advice: "anchored-every:any"},
		{name: "ambiguous", kind: "anchored", path: "src/*.go", anchor: "frameLimit", file: "src/a.go",
			src:     "package a\n\nvar frameLimit = 1\nvar _ = frameLimit\n",
			message: "anchor ambiguous", advice: "anchored-every"},
		{name: "tests only", kind: "present", path: "src/*.go", anchor: "frameLimit", file: "src/a_test.go",
			src:     "package a\n\nvar frameLimit = 1\n",
			message: "matches only tests", advice: "present:test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(rel, text string) {
				t.Helper()
				p := filepath.Join(dir, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			claims := func(kind string) {
				write("docs/decisions/D1-advice.md", "---\nid: D1\nstatus: accepted\n---\n# D1: Advice\n## Confirmation\n"+
					"| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n"+
					"| C1 | "+kind+" | `"+tc.path+"` | `"+tc.anchor+"` | | |\n")
			}
			write("docs/PRD.md", "D1..D1\n\n| ID | Decision | Status |\n|---|---|---|\n| D1 | [Advice](decisions/D1-advice.md) | accepted |\n")
			write(tc.file, tc.src)
			claims(tc.kind)
			msgs := claimMessages(t, dir)
			if len(msgs) != 1 {
				t.Fatalf("%s: findings %q, want one", tc.kind, msgs)
			}
			if !regexp.MustCompile(tc.message).MatchString(msgs[0]) {
				t.Errorf("%s: %q, want it to match %q", tc.kind, msgs[0], tc.message)
			}
			all := adviceRE.FindAllString(msgs[0], -1)
			if len(all) == 0 {
				t.Fatalf("%s: %q advises no scope, want %s", tc.kind, msgs[0], tc.advice)
			}
			advice := all[len(all)-1]
			if advice != tc.advice {
				t.Errorf("%s: %q advises %s, want %s", tc.kind, msgs[0], advice, tc.advice)
			}
			claims(advice)
			if after := claimMessages(t, dir); len(after) > 0 {
				t.Errorf("%s on this input says %q; taken, its advice %s says %q", tc.kind, msgs[0], advice, after)
			}
		})
	}
}

// claimMessages runs the claims rule on dir and returns its messages.
func claimMessages(t *testing.T, dir string) []string {
	t.Helper()
	res := checktest.RunQuiet(t, dir, check.Options{}, check.Rules...)
	var out []string
	for _, f := range res.Findings {
		if f.Check == ruleid.Claim || f.Check == ruleid.Claims {
			out = append(out, f.Message)
		}
	}
	return out
}
