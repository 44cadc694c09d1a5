package lintcmd_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/lintcmd"
)

// TestHostileFolderNameOneLine: a folder name holding newlines and a
// workflow command is printed on one escaped stderr line wherever an
// error names it (issue 31: it printed over three lines), and an error
// that joins several problems still prints one line each.
func TestHostileFolderNameOneLine(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	hostile := filepath.Join(root, "x\n::error file=a::forged\nz")
	if err := os.Mkdir(hostile, 0o755); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	if err := os.WriteFile(filepath.Join(hostile, "file"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--dir", filepath.Join(hostile, "nope")},
		{"check", "--dir", filepath.Join(hostile, "file")},
		{"list", "--dir", filepath.Join(hostile, "nope")},
		{"impact", "--base", "HEAD", "--dir", hostile},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := lintcmd.Main(append([]string{"claimslint"}, args...), &out, &errOut)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr %q", code, errOut.String())
			}
			lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "claimslint: ") || !strings.Contains(lines[0], `x\n::error file=a::forged\nz`) {
				t.Errorf("stderr is %d line(s), want one naming the folder escaped:\n%s", len(lines), errOut.String())
			}
		})
	}
}

// TestJoinedErrorsOneLineEach: a configuration with two problems prints
// two lines, the first after the file's name, each escaped.
func TestJoinedErrorsOneLineEach(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := "tracker:\n  workflow:\n    closed: open\n    \"a\\nb\": done\n"
	if err := os.WriteFile(filepath.Join(dir, ".claimslint.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := lintcmd.Main([]string{"claimslint", "check", "--dir", dir}, &out, &errOut); code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "claimslint: .claimslint.yml: tracker.workflow") || !strings.HasPrefix(lines[1], "claimslint: tracker.workflow") {
		t.Errorf("stderr:\n%s\nwant two lines, one a problem", errOut.String())
	}
}
