package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// TestAddEdits: an edit that changes a file is a change, in path order;
// an edit that leaves a file as it is, is none; an edit of a file that is
// not there is an error (a new file is a change of its own).
func TestAddEdits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{"same.md": "x\n", "b.md": "old\n", "a.md": "a\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var p Plan
	if err := p.AddEdits(dir, map[string][]byte{"same.md": []byte("x\n"), "b.md": []byte("new\n"), "a.md": []byte("n\n")}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Changes {
		got = append(got, fmt.Sprintf("%s %q>%q", c.Path, c.Old, c.New))
	}
	want := []string{`a.md "a\n">"n\n"`, `b.md "old\n">"new\n"`}
	if strings.Join(got, ";") != strings.Join(want, ";") {
		t.Errorf("changes %q, want %q", got, want)
	}
	if err := p.AddEdits(dir, map[string][]byte{"gone.md": []byte("x")}); err == nil {
		t.Error("an edit of a missing file: no error")
	}
}
