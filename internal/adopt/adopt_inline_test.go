package adopt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
