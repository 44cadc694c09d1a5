package register

import (
	"go/token"
	"strings"
	"testing"
)

// TestCutCell: a claims row whose cell an unescaped | cut is refused
// (CL006), naming the cell, where it was cut and `\|` (D76); an escaped
// |, a | inside a cell that is not a pattern span, and a note after the
// row are not cuts.
func TestCutCell(t *testing.T) {
	const head = "---\nid: D1\nstatus: accepted\n---\n# D1: x\n## Confirmation\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n"
	for _, tc := range []struct {
		name, row string
		want      string // the finding's message part, "" for none
		col       int
	}{
		{name: "span cut, why given", row: "| C1 | present | `a.go` | `a|b` | | why |", want: "claim C1: its Anchor cell was cut at an unescaped `|` (the row has 7 cells, the header 6)", col: 29},
		{name: "span cut, no why", row: "| C1 | present | `a.go` | `a|b` | |", want: "claim C1: its Anchor cell was cut at an unescaped `|`; write", col: 29},
		{name: "require cut", row: "| C1 | anchored | `a.go` | `x` | `!a|b` | |", want: "its Require cell was cut", col: 37},
		{name: "double ticks", row: "| C1 | present | `a.go` | ``a|b`` | |", want: "its Anchor cell was cut", col: 30},
		{name: "no span, more cells", row: "| C1 | present | a.go | a|b | | why |", want: "claim C1: the row has 7 cells and its header 6: an unescaped `|` cut a cell, or the row has an extra cell after its Why cell;", col: 31},
		{name: "an extra empty cell", row: "| C1 | present | `src/*.go` | `x` | | why | |", want: "claim C1: the row has 7 cells and its header 6: an unescaped `|` cut a cell, or the row has an extra cell after its Why cell;", col: 43},
		{name: "no id, more cells", row: "| | present | a.go | a | | why | x |", want: "claim row: the row has 7 cells and its header 6:", col: 32},
		{name: "no outer pipes", row: "C1 | present | `a.go` | `a|b` | |", want: "its Anchor cell was cut", col: 27},
		{name: "escaped", row: "| C1 | present | `a.go` | `a\\|b` | | why |"},
		{name: "escaped backslash", row: "| C1 | present | `a.go` | `a\\\\|b` | | why |"},
		{name: "spans closed", row: "| C1 | present | `a.go` | `a` or `b` | | why |"},
		{name: "a lone tick in why", row: "| C1 | present | `a.go` | `a` | | it's a ` tick |"},
		{name: "a note after the row", row: "| C1 | present | `a.go` | `a` | | | <!-- want \"x|y\" -->"},
		{name: "fewer cells", row: "| C1 | present | `a.go` | `a` |"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ParseDecision("docs/decisions/D1-x.md", []byte(head+tc.row+"\n"))
			var got []string
			var pos []token.Position
			for _, f := range d.Findings {
				got, pos = append(got, f.Message), append(pos, f.Pos)
			}
			if tc.want == "" {
				if len(got) > 0 || len(d.Claims) != 1 {
					t.Fatalf("findings %q, %d claims; want none and the claim", got, len(d.Claims))
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0], tc.want) || !strings.Contains(got[0], "write `\\|`") {
				t.Fatalf("findings %q, want one containing %q and the advice", got, tc.want)
			}
			if pos[0].Line != 9 || pos[0].Column != tc.col {
				t.Errorf("at %d:%d, want 9:%d", pos[0].Line, pos[0].Column, tc.col)
			}
			if len(d.Claims) != 0 {
				t.Errorf("the cut row was read as claim %+v", d.Claims)
			}
		})
	}
}

// FuzzCutCell: any line, any header: no panic, and a cut is reported
// inside the line.
func FuzzCutCell(f *testing.F) {
	f.Add("| C1 | present | `a.go` | `a|b` | | why |", 6)
	f.Add("|||||||``|`|``|\\|", 3)
	f.Add("> | a | `b | c` | <!-- x -->", 2)
	f.Fuzz(func(t *testing.T, line string, n int) {
		header := make([]cell, max(0, min(n, 16)))
		for i := range header {
			header[i].text = "c"
		}
		src := []byte("x\n" + line)
		fd, cut := cutCell(src, token.Position{Offset: 2, Line: 2, Column: 1}, header)
		if cut && (fd.at < 2 || fd.at > len(src)) {
			t.Fatalf("cut at %d, outside the line [2, %d]", fd.at, len(src))
		}
		if cut {
			_ = fd.message("C1")
		}
	})
}
