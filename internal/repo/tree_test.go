package repo

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtract writes the regular files of a commit under the roots asked
// for, and nothing else: not a link, not a file over max, not a root that
// is absent; more than total in all is ErrTreeTooLarge.
func TestExtract(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) string { t.Helper(); return gitIn(t, dir, args...) }
	write := func(rel, content string) { t.Helper(); writeFiles(t, dir, map[string]string{rel: content}) }
	write("docs/PRD.md", "register\n")
	write("docs/decisions/D1-a.md", "one\n")
	write("docs/decisions/sub/D2-b.md", "two\n")
	write("docs/decisions/big.md", strings.Repeat("x", 100))
	write("docs/decisions/new\nline.md", "hostile name\n")
	write("src/a.go", "package a\n")
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "docs/decisions/link.md")); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	commit := git("rev-parse", "HEAD")
	write("docs/decisions/D1-a.md", "changed in the work tree\n")

	out := t.TempDir()
	if err := Extract(dir, commit, []string{"docs/PRD.md", "docs/decisions", "absent/dir", ":(glob)**"}, out, 50, 1<<20); err != nil {
		t.Fatal(err)
	}
	var got []string
	_ = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			data, _ := os.ReadFile(p)
			got = append(got, filepath.ToSlash(rel)+"="+string(data))
		}
		return nil
	})
	want := []string{"docs/PRD.md=register\n", "docs/decisions/D1-a.md=one\n", "docs/decisions/new\nline.md=hostile name\n", "docs/decisions/sub/D2-b.md=two\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("extracted\n%q\nwant\n%q", got, want)
	}
	err := Extract(dir, commit, []string{"docs"}, t.TempDir(), 1<<20, 20)
	if !errors.Is(err, ErrTreeTooLarge) {
		t.Errorf("over the total: %v, want ErrTreeTooLarge", err)
	}
}

// TestParseTreeEntry keeps regular files with local paths only.
func TestParseTreeEntry(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rec  string
		want bool
	}{
		{"100644 blob 0123456789abcdef0123456789abcdef01234567      12\tdocs/a.md", true},
		{"100755 blob 0123456789abcdef0123456789abcdef01234567 1\tx", true},
		{"120000 blob 0123456789abcdef0123456789abcdef01234567 11\tlink", false},
		{"160000 commit 0123456789abcdef0123456789abcdef01234567 -\tsub", false},
		{"100644 blob 0123456789abcdef0123456789abcdef01234567 12\t../up.md", false},
		{"100644 blob 0123456789abcdef0123456789abcdef01234567 12\t.git/config", false},
		{"100644 blob 0123456789abcdef0123456789abcdef01234567 12\t/abs", false},
		{"100644 blob 0123456789abcdef0123456789abcdef01234567 -3\tneg", false},
		{"100644 blob 0123456789abcdef0123456789abcdef01234567 12", false},
		{"", false},
	} {
		if _, ok := parseTreeEntry([]byte(tc.rec)); ok != tc.want {
			t.Errorf("parseTreeEntry(%q) kept = %v, want %v", tc.rec, ok, tc.want)
		}
	}
}

// FuzzParseTreeEntry: any record is read or refused, never a panic, and
// a kept path is local.
func FuzzParseTreeEntry(f *testing.F) {
	f.Add([]byte("100644 blob 0123456789abcdef0123456789abcdef01234567 12\tdocs/a.md"))
	f.Add([]byte("120000 blob x 1\t../a"))
	f.Fuzz(func(t *testing.T, rec []byte) {
		e, ok := parseTreeEntry(rec)
		if ok && (!filepath.IsLocal(e.path) || e.size < 0 || inGitDir(filepath.ToSlash(e.path))) {
			t.Fatalf("kept %+v from %q", e, rec)
		}
	})
}
