package check

import (
	"strings"
	"testing"
)

// TestLineREBounded: CL016 matches a diff line with an Anchor only when
// the line holds its literal and one call stays within maxMatchCost.
func TestLineREBounded(t *testing.T) {
	t.Parallel()
	lit, err := anchorRE(`func screen\(`, 1)
	if err != nil {
		t.Fatal(err)
	}
	costly, err := anchorRE(`[a-y]{500}[A-P]`, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		re   *lineRE
		line string
		want bool
	}{
		{lit, "func screen() {}", true},
		{lit, "func frame() {}", false},
		{costly, strings.Repeat("a", 500) + "B", true},
		{costly, strings.Repeat("a", 4<<20) + "B", false}, // over maxMatchCost: not run
	} {
		if got := tc.re.Match([]byte(tc.line)); got != tc.want {
			t.Errorf("%s on a %d-byte line = %v, want %v", tc.re.re, len(tc.line), got, tc.want)
		}
	}
}
