package register

import (
	"strings"
	"testing"
)

// cellTextRepeat is cellText as first written, building the backtick runs
// it looks for.
func cellTextRepeat(raw string) string {
	s := strings.TrimSpace(raw)
	if n := leadingTicks(s); n > 0 && len(s) >= 2*n && strings.HasSuffix(s, strings.Repeat("`", n)) {
		inner := s[n : len(s)-n]
		if !strings.Contains(inner, strings.Repeat("`", n)) {
			if len(inner) >= 2 && inner[0] == ' ' && inner[len(inner)-1] == ' ' && strings.TrimSpace(inner) != "" {
				inner = inner[1 : len(inner)-1]
			}
			return strings.ReplaceAll(inner, `\|`, "|")
		}
	}
	return strings.ReplaceAll(s, `\|`, "|")
}

// FuzzCellText holds cellText, which counts backtick runs instead of
// building them, to cellTextRepeat.
func FuzzCellText(f *testing.F) {
	for _, s := range []string{"", "`a`", "``a`b``", "`` a ``", "```", "`a``", "``a`", " `a\\|b` ", "`` ` ``", "````", "`a` `b`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if got, want := cellText(raw), cellTextRepeat(raw); got != want {
			t.Fatalf("cellText(%q) = %q, built runs say %q", raw, got, want)
		}
	})
}
