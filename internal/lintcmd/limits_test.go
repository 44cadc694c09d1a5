package lintcmd_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/lintcmd"
)

// TestTrackerExportSizeLimit gives check a 65 MiB tracker export (sparse,
// so the test writes almost nothing): it is refused with exit 2 and a
// message naming the file and the limit, before any of it is read.
func TestTrackerExportSizeLimit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"docs/PRD.md":              "| ID | Decision | Status |\n|---|---|---|\n| D1 | Big | accepted |\n\nD1..D1\n",
		"docs/decisions/D1-big.md": "---\nid: D1\nstatus: accepted\ntracker: [dk-abc]\n---\n# D1: Big\n",
	}
	for rel, s := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exp := filepath.Join(dir, ".knowledge", "tracker", "issues.jsonl")
	if err := os.MkdirAll(filepath.Dir(exp), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(exp)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"id":"dk-abc","title":"t","status":"open"}` + "\n")
	if err := f.Truncate(65 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var out, errb bytes.Buffer
	code := lintcmd.Main([]string{"claimslint", "check", "--dir", dir}, &out, &errb)
	if code != 2 {
		t.Fatalf("exit %d, want 2; stdout %q stderr %q", code, out.String(), errb.String())
	}
	for _, want := range []string{".knowledge/tracker/issues.jsonl", "file too large", "64 MiB"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr %q lacks %q", errb.String(), want)
		}
	}
}
