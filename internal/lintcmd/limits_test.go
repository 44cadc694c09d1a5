package lintcmd_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// writeRepo writes files (repository-relative path -> content) under dir.
func writeRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, s := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestInputsNeverBlock (issue 22): a named pipe where the configuration,
// the register or the tracker export should be is refused at once with
// exit 2 and a message naming the file, never waited on; so is a 1 GiB
// .claimslint.yml (sparse), before a byte of it is read.
func TestInputsNeverBlock(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"docs/PRD.md":              "| ID | Decision | Status |\n|---|---|---|\n| D1 | In | accepted |\n\nD1..D1\n",
		"docs/decisions/D1-in.md":  "---\nid: D1\nstatus: accepted\ntracker: [dk-abc]\nclaims: none, inputs only\n---\n# D1: In\n",
		".knowledge/tracker/x.txt": "",
	}
	for _, tc := range []struct {
		name   string
		config string // .claimslint.yml, when not the pipe
		pipe   string // the path made a named pipe
		big    bool   // .claimslint.yml is 1 GiB instead
		want   string
	}{
		{name: "configuration", pipe: ".claimslint.yml", want: "claimslint: read .claimslint.yml: not a regular file: a named pipe (FIFO)\n"},
		{name: "register", config: "register: docs/pipe.md\n", pipe: "docs/pipe.md", want: "claimslint: register: read docs/pipe.md: not a regular file: a named pipe (FIFO) (set register: in .claimslint.yml)\n"},
		{name: "export", pipe: ".knowledge/tracker/issues.jsonl", want: "claimslint: tracker export: read .knowledge/tracker/issues.jsonl: not a regular file: a named pipe (FIFO)\n"},
		{name: "1 GiB configuration", big: true, want: "claimslint: read .claimslint.yml: file too large (1073741824 bytes, limit 1048576): a configuration is at most 1 MiB\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeRepo(t, dir, base)
			if tc.config != "" {
				writeRepo(t, dir, map[string]string{".claimslint.yml": tc.config})
			}
			if tc.pipe != "" {
				if err := mkfifo(filepath.Join(dir, filepath.FromSlash(tc.pipe))); err != nil {
					t.Skipf("no named pipes here: %v", err)
				}
			}
			if tc.big {
				f, err := os.Create(filepath.Join(dir, ".claimslint.yml"))
				if err != nil {
					t.Fatal(err)
				}
				if err := f.Truncate(1 << 30); err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
			type result struct {
				code     int
				out, err string
			}
			done := make(chan result, 1)
			go func() {
				var out, errb bytes.Buffer
				code := lintcmd.Main([]string{"claimslint", "check", "--dir", dir}, &out, &errb)
				done <- result{code, out.String(), errb.String()}
			}()
			select {
			case r := <-done:
				if r.code != 2 || r.out != "" || r.err != tc.want {
					t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.out, r.err, tc.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("check blocked on its input")
			}
		})
	}
}
