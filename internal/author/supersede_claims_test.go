package author

import (
	"strings"
	"testing"
)

func TestMarkRow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		row  string
		why  int
		want string
	}{
		{"| C1 | present | `a` | `x\\|y` | | the why |", 5, "| C1 | present | `a` | `x\\|y` | | REVIEW (copied from D1): the why |"},
		{"| C1 | present | `a` | `x` | | why | extra |", 5, "| C1 | present | `a` | `x` | | REVIEW (copied from D1): why | extra |"},
		{"| C1 | present |", -1, "| C1 | REVIEW (copied from D1): present |"},
		{"", 3, ""},
	} {
		if got := markRow(tc.row, tc.why, "D1"); got != tc.want {
			t.Errorf("markRow(%q, %d) = %q, want %q", tc.row, tc.why, got, tc.want)
		}
	}
}

// FuzzMarkRow: any row is split and marked without a panic, and the mark
// adds no cell: the row keeps its unescaped pipes.
func FuzzMarkRow(f *testing.F) {
	f.Add("| C1 | present | `a\\|b` | x | | why |", 5)
	f.Add("|||\\", 1)
	f.Fuzz(func(t *testing.T, row string, why int) {
		if strings.ContainsAny(row, "\n\r") {
			return
		}
		got := markRow(row, why, "D1")
		if n, m := len(cells(row)), len(cells(got)); row != got && n != m && strings.TrimSpace(row) != "" {
			t.Fatalf("markRow(%q) = %q: %d cells became %d", row, got, n, m)
		}
	})
}
