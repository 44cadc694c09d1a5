package repo

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "big.txt"), make([]byte, 100), 0o644))
	must(os.Symlink("a.go", filepath.Join(dir, "link.go")))
	must(os.Symlink("loop2", filepath.Join(dir, "loop1")))
	must(os.Symlink("loop1", filepath.Join(dir, "loop2")))
	r, err := Open(dir)
	must(err)
	if r.Git {
		t.Skip("temporary directory is inside a git work tree")
	}
	want := []string{"a.go", "big.txt", "link.go", "loop1", "loop2"}
	if len(r.Files) != len(want) {
		t.Fatalf("Files = %v, want %v", r.Files, want)
	}
	if _, err := r.ReadFile("a.go", 0); err != nil {
		t.Errorf("a.go: %v", err)
	}
	if _, err := r.ReadFile("link.go", 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("link.go: err = %v, want ErrNotRegular (links are not followed)", err)
	}
	if _, err := r.ReadDoc("link.go", 0); err != nil {
		t.Errorf("ReadDoc follows links: %v", err)
	}
	if _, err := r.ReadFile("loop1", 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("loop1: err = %v, want ErrNotRegular", err)
	}
	if _, err := r.ReadDoc("loop1", 0); err == nil {
		t.Error("ReadDoc of a link loop succeeded")
	}
	if _, err := r.ReadFile("big.txt", 50); !errors.Is(err, ErrTooLarge) {
		t.Errorf("big.txt: err = %v, want ErrTooLarge", err)
	}
}

// TestReadNeverLeavesRoot puts a symbolic link out of the repository at
// each component of a path, and one inside it, and checks both readers:
// ReadFile follows no link at all, ReadDoc follows links that stay inside.
func TestReadNeverLeavesRoot(t *testing.T) {
	t.Parallel()
	readNeverLeavesRoot(t)
}

func readNeverLeavesRoot(t *testing.T) {
	base := t.TempDir()
	root, out := filepath.Join(base, "repo"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "sub"), filepath.Join(root, "deep"), filepath.Join(out, "x")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "sub", "a.go"), "inside\n")
	write(filepath.Join(out, "secret.go"), "outside\n")
	write(filepath.Join(out, "x", "secret.go"), "outside\n")
	link("../outside", "lnk")                       // first component
	link("../../outside", "deep/x")                 // a middle component
	link("sub", "in")                               // a parent inside the repository
	link("../outside/secret.go", "last.md")         // the last component
	link(filepath.Join(out, "secret.go"), "abs.md") // an absolute target
	link("sub/a.go", "doc.md")                      // a file link inside
	link("lnk/secret.go", "chain.md")               // a link through a link
	r := &Repo{Root: root}
	for _, p := range []string{filepath.Join(root, "sub", "run.sh"), filepath.Join(out, "x", "run.sh")} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if !r.Executable("sub/run.sh") {
		t.Error("Executable(sub/run.sh) = false for an executable file inside")
	}
	if r.Executable("deep/x/run.sh") || r.Executable("lnk/x/run.sh") {
		t.Error("Executable read the mode of a file outside the repository through a linked parent")
	}
	for _, tc := range []struct {
		rel       string
		file, doc error // nil: read succeeds with "inside"
	}{
		{"sub/a.go", nil, nil},
		{"lnk/secret.go", ErrNotRegular, ErrOutside},
		{"deep/x/secret.go", ErrNotRegular, ErrOutside},
		{"in/a.go", ErrNotRegular, nil},
		{"last.md", ErrNotRegular, ErrOutside},
		{"abs.md", ErrNotRegular, ErrOutside},
		{"doc.md", ErrNotRegular, nil},
		{"chain.md", ErrNotRegular, ErrOutside},
		{"../outside/secret.go", ErrOutside, ErrOutside},
	} {
		for _, rd := range []struct {
			name string
			fn   func(string, int64) ([]byte, error)
			want error
		}{{"ReadFile", r.ReadFile, tc.file}, {"ReadDoc", r.ReadDoc, tc.doc}} {
			data, err := rd.fn(tc.rel, 0)
			switch {
			case rd.want == nil && (err != nil || string(data) != "inside\n"):
				t.Errorf("%s(%s) = %q, %v; want the inside content", rd.name, tc.rel, data, err)
			case rd.want != nil && !errors.Is(err, rd.want):
				t.Errorf("%s(%s) = %q, %v; want %v", rd.name, tc.rel, data, err, rd.want)
			}
		}
	}
}

// TestReadFileInto: the file's bytes land in the caller's buffer when it
// has room, a larger file gets a new buffer at least twice as large, and
// the limits and the no-link rule still hold.
func TestReadFileInto(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, n := range map[string]int{"small.go": 10, "mid.go": 300, "big.go": 5000} {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(i%26)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("small.go", filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 1000)
	got, err := r.ReadFileInto("mid.go", 0, buf)
	if err != nil || len(got) != 300 || got[299] != 'a'+byte(299%26) {
		t.Fatalf("mid.go: %d bytes, %v", len(got), err)
	}
	if fastRead && &got[0] != &buf[:1][0] {
		t.Error("mid.go fits the buffer but was read into a new one")
	}
	got, err = r.ReadFileInto("small.go", 0, got)
	if err != nil || string(got) != "abcdefghij" {
		t.Fatalf("small.go after mid.go: %q, %v", got, err)
	}
	got, err = r.ReadFileInto("big.go", 0, got)
	if err != nil || len(got) != 5000 || got[4999] != 'a'+byte(4999%26) {
		t.Fatalf("big.go: %d bytes, %v", len(got), err)
	}
	if fastRead && cap(got) < 5001 {
		t.Errorf("big.go: cap %d, want room for the file and one byte", cap(got))
	}
	if _, err := r.ReadFileInto("big.go", 100, got); !errors.Is(err, ErrTooLarge) {
		t.Errorf("big.go over its limit: %v, want ErrTooLarge", err)
	}
	if _, err := r.ReadFileInto("link.go", 0, got); !errors.Is(err, ErrNotRegular) {
		t.Errorf("link.go: %v, want ErrNotRegular", err)
	}
}

// TestListUntrackedSkipsMissing: a prefix that names nothing in the work
// tree costs no git run; one that exists is listed, untracked files
// included.
func TestListUntrackedSkipsMissing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("git: %v %s", err, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "docs", "new.md"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Git {
		t.Skip("not a git work tree")
	}
	runs := r.gitRuns.Load()
	if err := r.ListUntracked([]string{"checks/", ".github/workflows/", "src/main.go"}); err != nil {
		t.Fatal(err)
	}
	if r.gitRuns.Load() != runs {
		t.Errorf("listing missing prefixes ran git %d times, want none", r.gitRuns.Load()-runs)
	}
	if err := r.ListUntracked([]string{"checks/", "docs/"}); err != nil {
		t.Fatal(err)
	}
	if r.gitRuns.Load() != runs+1 {
		t.Errorf("listing docs/ ran git %d times, want once", r.gitRuns.Load()-runs)
	}
	if len(r.Files) != 1 || r.Files[0] != "docs/new.md" {
		t.Errorf("Files = %v, want the untracked docs/new.md", r.Files)
	}
}

// TestOpenListing: the index is read without git (D9); the untracked
// files of the directories named at open join the universe as
// ListUntracked adds them, in one git run; a directory whose files are
// all tracked, and a tracked file, need none; outside git the walk lists
// all.
func TestOpenListing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	writeFiles(t, dir, map[string]string{"docs/D1-a.md": "x\n", "docs/D2-b.md": "x\n", "src/a.go": "x\n", "src/b.go": "x\n", ".gitignore": "docs/*.tmp\n", "all/c.go": "x\n"})
	gitIn(t, dir, "add", "docs/D1-a.md", "src/a.go", ".gitignore", "all/c.go")
	gitIn(t, dir, "commit", "-qm", "x")
	writeFiles(t, dir, map[string]string{"docs/x.tmp": "ignored\n"})
	for _, tc := range []struct {
		prefixes []string
		files    []string
		runs     int64
	}{
		{nil, []string{".gitignore", "all/c.go", "docs/D1-a.md", "src/a.go"}, 0},
		{[]string{"docs/", "none/"}, []string{".gitignore", "all/c.go", "docs/D1-a.md", "docs/D2-b.md", "src/a.go"}, 1},
		{[]string{"src/a.go"}, []string{".gitignore", "all/c.go", "docs/D1-a.md", "src/a.go"}, 0},
		{[]string{"src/b.go"}, []string{".gitignore", "all/c.go", "docs/D1-a.md", "src/a.go", "src/b.go"}, 1},
		{[]string{""}, []string{".gitignore", "all/c.go", "docs/D1-a.md", "docs/D2-b.md", "src/a.go", "src/b.go"}, 1},
		{[]string{"all/"}, []string{".gitignore", "all/c.go", "docs/D1-a.md", "src/a.go"}, 0},
	} {
		r, err := OpenListing(dir, tc.prefixes)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Git {
			t.Skip("not a git work tree")
		}
		if !slices.Equal(r.Files, tc.files) || r.gitRuns.Load() != tc.runs {
			t.Errorf("OpenListing(%q): Files = %q after %d git runs, want %q after %d", tc.prefixes, r.Files, r.gitRuns.Load(), tc.files, tc.runs)
		}
		// What was listed is not listed again.
		if err := r.ListUntracked(tc.prefixes); err != nil || r.gitRuns.Load() != tc.runs {
			t.Errorf("OpenListing(%q) then ListUntracked: %v, %d git runs, want %d", tc.prefixes, err, r.gitRuns.Load(), tc.runs)
		}
	}
}
