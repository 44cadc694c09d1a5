//go:build unix

package repo

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadsRefuseWhatIsNotAFile (issue 22): every reader (ReadFile,
// ReadDoc, ReadIn) refuses a named pipe, a directory and a socket at once,
// naming it in the user's words, instead of blocking on the pipe; ReadDoc
// refuses a link into .git; ReadIn refuses a file over its limit.
func TestReadsRefuseWhatIsNotAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644))
	must(os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	must(os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[core]\n"), 0o644))
	must(os.Symlink(".git/config", filepath.Join(dir, "reg.md")))
	must(os.Symlink("pipe", filepath.Join(dir, "pipe.md")))
	must(os.WriteFile(filepath.Join(dir, "big"), make([]byte, 101), 0o644))
	r := &Repo{Root: dir}
	root, err := os.OpenRoot(dir)
	must(err)
	defer root.Close()
	readers := map[string]func(rel string, max int64) ([]byte, error){
		"ReadFile": r.ReadFile,
		"ReadDoc":  r.ReadDoc,
		"ReadIn":   func(rel string, max int64) ([]byte, error) { return ReadIn(root, rel, max) },
	}
	for _, tc := range []struct {
		reader, rel string
		max         int64
		want        string
	}{
		{"ReadFile", "pipe", 0, "not a regular file: a named pipe (FIFO)"},
		{"ReadDoc", "pipe", 0, "not a regular file: a named pipe (FIFO)"},
		{"ReadDoc", "pipe.md", 0, "not a regular file: a named pipe (FIFO)"},
		{"ReadIn", "pipe", 0, "not a regular file: a named pipe (FIFO)"},
		{"ReadFile", "sub", 0, "not a regular file: a directory"},
		{"ReadDoc", "sub", 0, "not a regular file: a directory"},
		{"ReadIn", "sub", 0, "not a regular file: a directory"},
		{"ReadDoc", "reg.md", 0, "outside the repository: reg.md resolves into .git, git's own directory, through a symbolic link"},
		{"ReadIn", "big", 100, "file too large (101 bytes, limit 100)"},
		{"ReadDoc", "big", 100, "file too large (101 bytes, limit 100)"},
	} {
		done := make(chan error, 1)
		go func() { _, err := readers[tc.reader](tc.rel, tc.max); done <- err }()
		select {
		case err := <-done:
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s(%s) = %v, want %q", tc.reader, tc.rel, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s(%s) blocked", tc.reader, tc.rel)
		}
	}
}
