package author

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/google/go-cmp/cmp"
)

func TestNarrowGlob(t *testing.T) {
	for _, tt := range []struct {
		run, all []string
		want     string
	}{
		{[]string{"s/a.sh", "s/b.sh"}, []string{"s/a.sh", "s/b.sh", "s/README.md"}, "s/*.sh"},
		{[]string{"s/d4-journal-claims.sh"}, []string{"s/d4-journal-claims.sh", "s/lib.sh"}, "s/*-claims.sh"},
		{[]string{"s/d4-x-claims.sh", "s/d5-y-claims.sh"}, []string{"s/d4-x-claims.sh", "s/d5-y-claims.sh", "s/old-claims.sh"}, "s/{d4-x-claims.sh,d5-y-claims.sh}"},
		{[]string{"s/a.sh", "s/b.py"}, []string{"s/a.sh", "s/b.py"}, "s/*"},
	} {
		if got := narrowGlob("s", tt.run, tt.all); got != tt.want {
			t.Errorf("narrowGlob(%v, %v) = %q, want %q", tt.run, tt.all, got, tt.want)
		}
	}
}

func TestMentionGlob(t *testing.T) {
	for in, want := range map[string]string{
		"crates/a/src/lib.rs": "crates/**/*.rs",
		"README.md":           "*.md",
		"Makefile":            "Makefile",
		"tools/bin/run":       "tools/**",
	} {
		if got := mentionGlob(in); got != want {
			t.Errorf("mentionGlob(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestYAMLStr(t *testing.T) {
	for in, want := range map[string]string{
		"docs/PRD.md":        "docs/PRD.md",
		"scripts/checks/*":   "'scripts/checks/*'",
		"it's":               "'it''s'",
		"true":               "'true'",
		".unblock/x.jsonl":   ".unblock/x.jsonl",
		`\| [*_]*PROPOSED\b`: `'\| [*_]*PROPOSED\b'`,
	} {
		if got := yamlStr(in); got != want {
			t.Errorf("yamlStr(%q) = %q, want %q", in, got, want)
		}
	}
}

// writeTree writes files under a fresh directory (no git: the universe is
// the walk).
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

func TestFindExport(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"package.json":                    "{\n  \"name\": \"x\"\n}\n",
		"config.json":                     `{"name":"x","version":1}` + "\n",
		"list.json":                       `[1, 2, 3]`,
		".beads/issues.jsonl":             `{"id":"bd-a1","status":"open","title":"a"}` + "\n" + `{"id":"bd-a2","status":"closed","title":"b"}` + "\n",
		".knowledge/tracker/issues.jsonl": `{"id":"dk-1","title":"a","status":"open","schema":1}` + "\n" + `{"id":"dk-2","title":"b","status":"open","schema":1}` + "\n" + `{"id":"dk-3","title":"c","status":"open","schema":1}` + "\n",
		"gh.json":                         `[{"number":7,"title":"x","state":"OPEN","labels":[]}]`,
	})
	rp, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	e, err := findExport(rp)
	if err != nil || e == nil {
		t.Fatalf("findExport: %v, %v", e, err)
	}
	got := []string{e.path, e.format, strings.Join(e.prefixes, ","), strings.Join(e.others, "; ")}
	want := []string{".knowledge/tracker/issues.jsonl", "docket", "dk", ".beads/issues.jsonl (beads, 2 records); gh.json (github, 1 record)"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("findExport (-want +got):\n%s", d)
	}
}

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
