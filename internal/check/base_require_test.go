package check

import (
	"regexp"
	"testing"
)

func TestProposeRequire(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ then, now, require, want string }{
		{"const maxFrame = 16 << 20", "const maxFrame = 32 << 20", "= 16 << 20", "= 32 << 20"},
		{"var t = 60 * time.Second", "var t = time.Minute", `60 \* time\.Second`, `time\.Minute`},
		{"x := a + b", "x := a + c", "a", `c`},
		{"x := a + b", "x := a", "b", ""},
	} {
		if got := proposeRequire(tc.then, tc.now, tc.require); got != tc.want {
			t.Errorf("proposeRequire(%q, %q, %q) = %q, want %q", tc.then, tc.now, tc.require, got, tc.want)
		}
	}
}

// FuzzProposeRequire: a proposal compiles whenever the base's Require does
// (the changed words are quoted, cut at characters).
func FuzzProposeRequire(f *testing.F) {
	f.Add("const maxFrame = 16 << 20", "const maxFrame = 32 << 20", "= 16 << 20")
	f.Add("a", "b", "(")
	f.Fuzz(func(t *testing.T, then, now, require string) {
		p := proposeRequire(then, now, require)
		if p == "" {
			return
		}
		if _, err := regexp.Compile(require); err != nil {
			return
		}
		if _, err := regexp.Compile(p); err != nil {
			t.Fatalf("proposal %q of Require %q does not compile: %v", p, require, err)
		}
	})
}
