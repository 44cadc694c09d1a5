package repo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestReadFile(t *testing.T) {
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
