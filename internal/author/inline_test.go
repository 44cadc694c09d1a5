package author

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/config"
)

func TestMarkerWords(t *testing.T) {
	cfg := config.Default()
	cfg.Inline = &config.Inline{Status: "accepted", Markers: []config.Marker{
		{Pattern: `(?i:\b(?:clauses?|partly)\b)[^.;|]*SUPERSEDED by D[0-9]+`, Status: "accepted"},
		{Pattern: `SUPERSEDED by D[0-9]+`, Status: "superseded"},
		{Pattern: `\| [*_]*PROPOSED\b`, Status: "proposed"},
	}}
	for status, want := range map[string]string{"superseded": "SUPERSEDED by D7", "proposed": "PROPOSED"} {
		if got, err := markerWords(cfg, status, "D7"); err != nil || got != want {
			t.Errorf("markerWords(%s) = %q, %v; want %q", status, got, err, want)
		}
	}
	cfg.Inline.Markers = cfg.Inline.Markers[:2]
	if _, err := markerWords(cfg, "proposed", "D7"); err == nil || !strings.Contains(err.Error(), `run claimslint new --status accepted, or add {pattern: '\| PROPOSED\b', status: proposed}`) {
		t.Errorf("no proposed marker: %v", err)
	}
}

func TestInitAdoptInlineRefusesLinkedRows(t *testing.T) {
	// A register whose rows link their decision files is not inline:
	// init --adopt looks for a collection of records, as before.
	dir := writeTree(t, map[string]string{
		"docs/PRD.md":            "| ID | Decision | Status |\n|---|---|---|\n| D1 | [A](decisions/D1-a.md) | accepted |\n",
		"docs/decisions/D1-a.md": "---\nid: D1\nstatus: accepted\n---\n# D1: A\n",
	})
	if _, err := Init(InitOptions{Dir: dir, Adopt: true}); err == nil || !strings.Contains(err.Error(), "no numbered") {
		t.Errorf("Init --adopt on a file register: %v", err)
	}
	// The same table without the files is.
	dir = writeTree(t, map[string]string{
		"docs/PRD.md": "| ID | Decision | Status |\n|---|---|---|\n| D1 | A | accepted |\n",
	})
	p, err := Init(InitOptions{Dir: dir, Adopt: true})
	if err != nil || len(p.Changes) != 1 || p.Changes[0].Path != config.FileName {
		t.Fatalf("Init --adopt on an inline register: %+v, %v", p, err)
	}
	cfg, err := config.Parse(p.Changes[0].New, config.Default())
	if err != nil || cfg.Inline == nil || cfg.Inline.Status != "" || len(cfg.Inline.Markers) != 0 {
		t.Errorf("a Status column needs no default nor markers: %+v, %v\n%s", cfg.Inline, err, p.Changes[0].New)
	}
}
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
