package register

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInferMarkers(t *testing.T) {
	rows := func(texts ...string) []Row {
		var out []Row
		for i, s := range texts {
			out = append(out, Row{ID: "D" + string(rune('1'+i)), Text: s})
		}
		return out
	}
	tests := []struct {
		name string
		rows []Row
		want []MarkerGuess
	}{
		{"whole rows", rows("**D1** | Store in SQLite. | diffs", "**D2** | Cache in memory. SUPERSEDED by D4. | fast", "**D3** | Retry. superseded by nothing | lower case is prose"),
			[]MarkerGuess{{Pattern: "SUPERSEDED by D[0-9]+", Status: "superseded", Rows: []MarkerHit{{ID: "D2", Said: "SUPERSEDED by D4"}}}}},
		{"a clause only gives no marker", rows("**D1** | Concurrency. **D3 amendment:** the lock clause is **SUPERSEDED by D3** | x"),
			nil},
		{"a clause beside whole rows is kept live first", rows(
			"**D1** | Errors. The retry clause is **SUPERSEDED by D3**; the enum stays. | x",
			"**D2** | Counts in memory. SUPERSEDED by **D3** | y"),
			[]MarkerGuess{
				{Pattern: clauseWords + `SUPERSEDED by (?:\*\*|__)?D[0-9]+`, Status: "accepted", Rows: []MarkerHit{{ID: "D1", Said: "clause is **SUPERSEDED by D3"}}},
				{Pattern: `SUPERSEDED by (?:\*\*|__)?D[0-9]+`, Status: "superseded", Rows: []MarkerHit{{ID: "D2", Said: "SUPERSEDED by **D3"}}},
			}},
		{"status words that open a cell", rows("**D1** | Plan. | PROPOSED", "**D2** | Old. | **REJECTED** in review", "**D3** | Kept. REJECTED in favour of D1 | z", "**D4** | A PROPOSED fix. | mid-cell is prose"),
			[]MarkerGuess{
				{Pattern: "REJECTED in favour of D[0-9]+", Status: "rejected", Rows: []MarkerHit{{ID: "D3", Said: "REJECTED in favour of D1"}}},
				{Pattern: `\| [*_]*REJECTED\b`, Status: "rejected", Rows: []MarkerHit{{ID: "D2", Said: "| **REJECTED"}}},
				{Pattern: `\| [*_]*PROPOSED\b`, Status: "proposed", Rows: []MarkerHit{{ID: "D1", Said: "| PROPOSED"}}},
			}},
		{"whitespace and several connectors", rows("**D1** | a DEPRECATED  by D2 | b", "**D2** | c DEPRECATED in favor of D3 | d"),
			[]MarkerGuess{{Pattern: `DEPRECATED\s+(?:by|in\s+favor\s+of)\s+D[0-9]+`, Status: "deprecated", Rows: []MarkerHit{{ID: "D1", Said: "DEPRECATED  by D2"}, {ID: "D2", Said: "DEPRECATED in favor of D3"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, InferMarkers(tt.rows)); d != "" {
				t.Errorf("InferMarkers (-want +got):\n%s", d)
			}
		})
	}
	cl := ClauseOnly(rows("**D1** | x | the six-triple clause is **SUPERSEDED by D36**", "**D2** | SUPERSEDED by D1 | y"))
	if d := cmp.Diff([]MarkerHit{{ID: "D1", Said: "SUPERSEDED by D36", Clause: true}}, cl); d != "" {
		t.Errorf("ClauseOnly (-want +got):\n%s", d)
	}
}
