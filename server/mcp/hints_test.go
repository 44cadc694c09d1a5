package mcp

import (
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
)

// TestEveryHintWordedForTools: MCP words every hint the domain can give in
// its own terms, and never with a flag of the command line where a tool
// does the job (D101).
func TestEveryHintWordedForTools(t *testing.T) {
	t.Parallel()
	for _, h := range docket.Hints {
		w := toolHints[h]
		if w == "" {
			t.Errorf("hint %d has no words for a tool caller", h)
		}
		if h != docket.HintInitPrefix && strings.Contains(w, "--") {
			t.Errorf("hint %d is worded with a flag for a tool caller: %q", h, w)
		}
	}
	if len(toolHints) != len(docket.Hints) {
		t.Errorf("MCP words %d hints, the domain has %d", len(toolHints), len(docket.Hints))
	}
}

// TestToolTextWordsHints: a tool error carries the message and MCP's words
// for its hint, without the CLI's "invalid input" opening.
func TestToolTextWordsHints(t *testing.T) {
	t.Parallel()
	for _, h := range docket.Hints {
		if got, want := toolText(docket.Hintf(h, "dk-1")), "dk-1"+strings.ReplaceAll(toolHints[h], "{detail}", ""); got != want {
			t.Errorf("hint %d: %q, want %q", h, got, want)
		}
	}
	if got, want := toolText(docket.NotFound("dk-9")), "no such issue: dk-9"+toolHints[docket.HintListIDs]; got != want {
		t.Errorf("not found: %q, want %q", got, want)
	}
}
