package diag

import (
	"go/token"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDedupe(t *testing.T) {
	t.Parallel()
	at := func(file string, line, col int) token.Position {
		return token.Position{Filename: file, Line: line, Column: col}
	}
	in := []Finding{
		{Pos: at("b.go", 1, 1), Check: "CL007", Decision: "D2", Claim: "C1", Severity: SeverityError, Message: "x"},
		{Pos: at("a.md", 10, 1), Check: "CL001", Severity: SeverityError, Message: "y"},
		{Pos: at("a.md", 2, 5), Check: "CL003", Severity: SeverityNote, Message: "z"},
		{Pos: at("b.go", 1, 1), Check: "CL007", Decision: "D2", Claim: "C1", Severity: SeverityError, Message: "x"},
	}
	got := Dedupe(in)
	var tags []string
	for _, f := range got {
		tags = append(tags, f.Pos.Filename+" "+f.Tag())
	}
	want := []string{"a.md CL003", "a.md CL001", "b.go D2/C1"}
	if diff := cmp.Diff(want, tags); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if n := Errors(got); n != 2 {
		t.Errorf("Errors = %d, want 2 (notes do not fail a run)", n)
	}
}
