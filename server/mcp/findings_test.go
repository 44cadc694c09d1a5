package mcp

import (
	"encoding/json"
	"go/token"
	"testing"

	"github.com/claimslint/claimslint/internal/diag"
)

// TestFindingsOf: claims_check's findings are the json formatter's records,
// every field carried over unchanged (a message with a line break, quotes,
// HTML and an ESC byte included), related positions left out, and the
// tool's key order kept.
func TestFindingsOf(t *testing.T) {
	t.Parallel()
	fs := []diag.Finding{
		{Pos: token.Position{Filename: "docs/decisions/D3-x.md", Line: 12, Column: 4}, Check: "CL007", Decision: "D3", Claim: "C2", Severity: diag.SeverityError,
			Message: "anchor vanished: `a<b>&\"c\"`\nsecond line \x1b[31m", Related: []diag.Related{{Pos: token.Position{Filename: "x.go", Line: 1, Column: 1}, Message: "other hit"}}},
		{Pos: token.Position{Filename: "docs/PRD.md", Line: 3}, Check: "CL001", Severity: diag.SeverityWarning, Message: "w"},
	}
	got, err := findingsOf(fs)
	if err != nil {
		t.Fatal(err)
	}
	want := []Finding{
		{File: "docs/decisions/D3-x.md", Line: 12, Column: 4, Check: "CL007", Decision: "D3", Claim: "C2", Severity: "error", Message: fs[0].Message},
		{File: "docs/PRD.md", Line: 3, Check: "CL001", Severity: "warning", Message: "w"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("finding %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	b, _ := json.Marshal(got[1])
	if string(b) != `{"file":"docs/PRD.md","line":3,"column":0,"check":"CL001","severity":"warning","message":"w"}` {
		t.Errorf("key order changed: %s", b)
	}
	if none, err := findingsOf(nil); err != nil || none == nil || len(none) != 0 {
		t.Errorf("no findings: %v, %v; want an empty list, never null", none, err)
	}
}
