package author

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/register"
)

// TestRewordStatus: an adopted record's status is rewritten on the line it
// was read from, in the record's case, and nothing else changes (D78).
func TestRewordStatus(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, src, status, want string
		ok                      bool
	}{
		{"adr-tools heading", "# 4. Pool\n\n## Status\n\nAccepted\n\nAmends [3. X](0003-x.md)\n", "deprecated",
			"# 4. Pool\n\n## Status\n\nDeprecated\n\nAmends [3. X](0003-x.md)\n", true},
		{"MADR front matter", "---\nstatus: proposed\ndate: 2020-01-01\n---\n# T\n", "accepted",
			"---\nstatus: accepted\ndate: 2020-01-01\n---\n# T\n", true},
		{"bold line with more", "# T\n\n**Status:** Proposed | **Date:** 2025-03-26\n", "rejected",
			"# T\n\n**Status:** Rejected | **Date:** 2025-03-26\n", true},
		{"status moved", "# T\n\nnothing here\n", "accepted", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d := register.ParseAdopted("doc/adr/0004-x.md", []byte(c.src), nil)
			if c.name == "status moved" {
				d.RawStatus, d.Keys["status"] = "Accepted", d.KeyPos("status")
			}
			got, ok := rewordStatus([]byte(c.src), d, c.status)
			if ok != c.ok || string(got) != c.want {
				t.Errorf("rewordStatus = %v\n%s\nwant %v\n%s", ok, got, c.ok, c.want)
			}
		})
	}
}

// TestSetStatusRefuses: the moves D78 refuses fail before any plan, with
// a message naming the user's words.
func TestSetStatusRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"docs/PRD.md": "# R\n\nLive range: D1..D2.\n\n| ID | Decision | Status |\n|---|---|---|\n" +
			"| D1 | [Old](decisions/D1-old.md) | superseded |\n| D2 | [New](decisions/D2-new.md) | accepted |\n",
		"docs/decisions/D1-old.md": "---\nid: D1\nstatus: superseded\nsuperseded-by: [D2]\nclaims: none, a fixture\n---\n# D1: Old\n",
		"docs/decisions/D2-new.md": "---\nid: D2\nstatus: accepted\nsupersedes: [D1]\nclaims: none, a fixture\n---\n# D2: New\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ id, status, want string }{
		{"D1", "accepted", "D1 is superseded by D2: its successor names it"},
		{"D2", "proposed", "D2 retired D1 when it was accepted; as proposed neither would be checked"},
		{"D2", "rejected", "D2 retired D1 when it was accepted; as rejected neither would be checked"},
		{"D2", "superseded", `status "superseded": a decision becomes superseded when`},
		{"D2", "Accepted", `status "Accepted": want one of accepted, proposed, deprecated, rejected`},
		{"D7", "deprecated", "D7: no such decision in docs/PRD.md"},
	} {
		_, err := SetStatus(StatusOptions{Dir: dir, ID: c.id, Status: c.status})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SetStatus(%s, %s) = %v, want an error holding %q", c.id, c.status, err, c.want)
		}
	}
	// Deprecating the successor is allowed: both are then retired.
	p, err := SetStatus(StatusOptions{Dir: dir, ID: "D2", Status: "deprecated"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Paths(), " "); got != "docs/PRD.md docs/decisions/D2-new.md" {
		t.Errorf("SetStatus(D2, deprecated) edits %q, want the register and D2's file", got)
	}
}
