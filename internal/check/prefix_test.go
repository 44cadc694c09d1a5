package check_test

import (
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
)

// TestLexedAsFarAsNeeded: a file whose claims all match lines that hold
// their literal is lexed only up to the last such line and one more
// (D92); what a line is (code, in a comment or string that opened lines
// before, in a test module) is what the whole file's reading says, for
// the first, a middle and the last line, with a long tail after them.
func TestLexedAsFarAsNeeded(t *testing.T) {
	t.Parallel()
	tail := strings.Repeat("// filler\nfunc filler() {}\n", 500)
	goSrc := "package src\n\nfunc a() {}\n/*\nfunc b() {}\n*/\nvar s = `\nfunc c() {}\n`\nfunc d() {}\n" + tail + "func z() {}\n"
	rsSrc := "pub fn a() {}\n/* /*\npub fn b() {}\n*/ */\n#[cfg(test)]\nmod tests {\n    pub fn c() {}\n}\npub fn d() {}\n" + strings.Repeat("// f\npub fn f() {}\n", 500) + "pub fn z() {}\n"
	for _, tc := range []struct {
		file, src, anchor string
		ok                bool
	}{
		{"src/a.go", goSrc, `^func a\(\) \{\}$`, true},
		{"src/a.go", goSrc, `^func b\(\) \{\}$`, false}, // in a block comment
		{"src/a.go", goSrc, `^func c\(\) \{\}$`, true},  // Go's raw strings stay code (codeline)
		{"src/a.go", goSrc, `^func d\(\) \{\}$`, true},
		{"src/a.go", goSrc, `^func z\(\) \{\}$`, true},
		{"src/a.rs", rsSrc, `^pub fn a\(\) \{\}$`, true},
		{"src/a.rs", rsSrc, `^pub fn b\(\) \{\}$`, false},     // in nested block comments
		{"src/a.rs", rsSrc, `^    pub fn c\(\) \{\}$`, false}, // in a test module
		{"src/a.rs", rsSrc, `^pub fn d\(\) \{\}$`, true},
		{"src/a.rs", rsSrc, `^pub fn z\(\) \{\}$`, true},
	} {
		dir := writeTree(t, map[string]string{
			"docs/PRD.md":            register1,
			"docs/decisions/D1-x.md": decision1("| C1 | anchored | `" + tc.file + "` | `" + tc.anchor + "` | |\n"),
			tc.file:                  tc.src,
		})
		res, err := check.Run(check.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if ok := len(res.Findings) == 0; ok != tc.ok {
			t.Errorf("%s %s: findings %v, want the claim to hold: %v", tc.file, tc.anchor, res.Findings, tc.ok)
		}
	}
}
