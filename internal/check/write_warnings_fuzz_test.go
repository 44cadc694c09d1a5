package check

import (
	"regexp"
	"strings"
	"testing"
)

// alignedRE is what aligned reads by hand: two literal spaces after a
// character of the line (not after a blank, ^, | or ().
var alignedRE = regexp.MustCompile(`[^\s^|(]  `)

// alignedByRE is aligned as a regular expression: a match outside a
// quoted string of the pattern.
func alignedByRE(pat string) bool {
	for _, m := range alignedRE.FindAllStringIndex(pat, -1) {
		if strings.Count(pat[:m[0]+1], `"`)%2 == 0 {
			return true
		}
	}
	return false
}

// FuzzAligned holds aligned to alignedRE run over the pattern.
func FuzzAligned(f *testing.F) {
	for _, s := range []string{"", "a  b", `"a  b"`, "^  x", "^    pub fn", "x\t  y", `fmt.Sprintf\("%s  %s"\)`, "(  a", "|  b", "a   b", "a \u00a0 b", "\u00e9  x", "\xe2\x82  x", `"  "a  b`, `x"  b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pat string) {
		if got, want := aligned(pat), alignedByRE(pat); got != want {
			t.Fatalf("aligned(%q) = %v, the expression says %v", pat, got, want)
		}
	})
}
