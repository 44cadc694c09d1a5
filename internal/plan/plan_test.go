package plan

import (
	"testing"

	"github.com/claimslint/claimslint/internal/register"
)

func TestSlug(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"Answer every frame", "answer-every-frame"},
		{"  JSON-RPC: batches?  ", "json-rpc-batches"},
		{"!!!", "decision"},
		{"a very long title that goes on and on well past the sixty byte limit for slugs", "a-very-long-title-that-goes-on-and-on-well-past-the-sixty"},
	} {
		if got := Slug(tt.in); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestLinkDest: a register link names the file, not a fragment, and a
// name with a space is in angle brackets, as CommonMark reads it (D96).
func TestLinkDest(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"decisions/D1-a.md", "decisions/D1-a.md"},
		{"adr/0010-Observability-component metrics.md", "<adr/0010-Observability-component metrics.md>"},
		{"adr/0003-c#-and-50%.md", "adr/0003-c%23-and-50%25.md"},
	} {
		if got := LinkDest(tt.in); got != tt.want {
			t.Errorf("LinkDest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNewRow: the new row follows the last row, with a cell for each
// header column: the id, the titled link, the status, others empty.
func TestNewRow(t *testing.T) {
	t.Parallel()
	src := "# R\n\n| ID | Decision | Status | Owner |\n|---|---|---|---|\n| D1 | [A](d/D1-a.md) | accepted | me |\n\nAfter.\n"
	reg := register.ParseRegister("docs/PRD.md", []byte(src))
	out, err := NewRow([]byte(src), reg, "D2", "B", "d/D2 b.md", "proposed")
	if err != nil {
		t.Fatal(err)
	}
	want := "# R\n\n| ID | Decision | Status | Owner |\n|---|---|---|---|\n| D1 | [A](d/D1-a.md) | accepted | me |\n| D2 | [B](<d/D2 b.md>) | proposed | |\n\nAfter.\n"
	if string(out) != want {
		t.Errorf("NewRow:\n%s\nwant:\n%s", out, want)
	}
}
