//go:build unix

package docket

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFilesRefuse: each way a path may leave the root or reach something
// else than a file there is refused, naming the component; what is merely
// missing passes, so it can be made beneath the root.
func TestFilesRefuse(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	mk := func(rel string) {
		if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk("a/b")
	mk("Sub/.GIT")
	os.WriteFile(filepath.Join(root, "a", "file"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(outside, "victim"), []byte("keep"), 0o644)
	os.Symlink(outside, filepath.Join(root, "out"))
	os.Symlink("b", filepath.Join(root, "a", "in")) // stays inside: still refused
	os.Symlink(filepath.Join(outside, "victim"), filepath.Join(root, "a", "link"))
	if err := syscall.Mkfifo(filepath.Join(root, "a", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := NewFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ rel, want string }{
		{"a/file", ""},
		{"a/missing", ""},
		{"missing/dir/file", ""},
		{"out/victim", "out/victim goes through the symbolic link out"},
		{"a/in/x", "a/in/x goes through the symbolic link a/in"},
		{"a/link", "a/link is a symbolic link"},
		{"a/fifo", "a/fifo is not a regular file"},
		{"a/b", "a/b is a directory"},
		{"a/file/x", "a/file/x: a/file is not a directory"},
		{".git/config", ".git/config is inside a .git directory"},
		{"Sub/.GIT/hooks", "Sub/.GIT/hooks is inside a .git directory"},
		{"../x", "is not beneath the repository"},
	} {
		err := f.Check(filepath.Join(root, tc.rel))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Check(%s) = %v, want nil", tc.rel, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrUnsafePath)):
			t.Errorf("Check(%s) = %v, want ErrUnsafePath saying %q", tc.rel, err, tc.want)
		}
	}
	// The root itself may be reached through a link (the caller named it,
	// as /tmp is one on some systems): only what is below it counts.
	lr := filepath.Join(t.TempDir(), "root-link")
	os.Symlink(root, lr)
	if f2, _ := NewFiles(lr); f2.Check(filepath.Join(lr, "a", "file")) != nil {
		t.Error("a root reached through a link refuses its own files")
	}
}

// TestFilesNoFollow: the operations refuse what Check refuses, a named
// pipe is refused at once rather than waited on, and nothing outside the
// root is read or written.
func TestFilesNoFollow(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	os.Symlink(victim, filepath.Join(root, "link"))
	os.Symlink(outside, filepath.Join(root, "dir"))
	syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644)
	f, _ := NewFiles(root)
	p := func(rel string) string { return filepath.Join(root, rel) }
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := f.ReadFile(p("fifo")); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("ReadFile(fifo) = %v, want a refusal", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("reading a named pipe waited for a writer")
	}
	for name, op := range map[string]func() error{
		"ReadFile":       func() error { _, err := f.ReadFile(p("link")); return err },
		"Stat":           func() error { _, err := f.Stat(p("link")); return err },
		"Append":         func() error { return f.Append(p("link"), []byte("x"), true) },
		"Append through": func() error { return f.Append(p("dir/new"), []byte("x"), false) },
		"WriteFile":      func() error { return f.WriteFile(p("link"), []byte("x")) },
		"MkdirAll":       func() error { return f.MkdirAll(p("dir/sub")) },
		"Remove":         func() error { return f.Remove(p("dir/victim")) },
		"writeAtomic": func() error {
			return f.writeAtomic(p("dir/issues.jsonl"), func(w io.Writer) error { _, err := w.Write([]byte("x")); return err }, 1, func(string) {})
		},
		"writeAtomic onto a link": func() error {
			return f.writeAtomic(p("link"), func(w io.Writer) error { _, err := w.Write([]byte("x")); return err }, 1, func(string) {})
		},
	} {
		if err := op(); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("%s through a link: %v, want a refusal", name, err)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the file outside was written: %q", b)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Errorf("files were made outside the root: %v", ents)
	}
}

// TestWriteAtomicBeneath: a rewrite makes its directory, keeps the mode,
// removes the leftover temp files of a killed rewrite (a leftover link as
// a name, its target untouched), and leaves no temp file of its own.
func TestWriteAtomicBeneath(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	f, _ := NewFiles(root)
	path := filepath.Join(root, "k", "t", "issues.jsonl")
	write := func(s string) error {
		return f.writeAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, s); return err }, 7, func(string) {})
	}
	if err := write("one\n"); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o444)
	victim := filepath.Join(outside, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	os.Symlink(victim, filepath.Join(root, "k", "t", ".issues.jsonl.tmp-9-x"))
	os.WriteFile(filepath.Join(root, "k", "t", ".issues.jsonl.tmp-9-y"), nil, 0o600)
	if err := write("two\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, []byte("two\n")) {
		t.Errorf("export = %q", b)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o444 {
		t.Errorf("mode %v, want 0444 kept", st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("left in the directory: %v", ents)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("a leftover temp link's target was written: %q", b)
	}
}

// FuzzReadPending: the pending journal is read from a file anyone with
// the clone could have written: any bytes give records that are valid,
// one per id, each the newest of its lines, and never a panic.
func FuzzReadPending(f *testing.F) {
	i := Issue{ID: "dk-abc", Title: "t", Status: StatusOpen, Type: TypeTask, Labels: []string{}, Decisions: []string{}, Deps: []Dep{}, Comments: []Comment{},
		CreatedAt: "2026-10-01T00:00:00Z", UpdatedAt: "2026-10-01T00:00:00Z", Version: 1, Schema: Schema}
	one, _ := MarshalLine(i)
	i.Version = 2
	two, _ := MarshalLine(i)
	f.Add(append(append(append([]byte{}, one...), '\n'), two...))
	f.Add(append(append([]byte{}, two...), "\n{\"id\":\"dk-"...))
	f.Add([]byte("\n\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "index.db.pending")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		recs, bad, err := readPending(Files{}, p)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, r := range recs {
			if seen[r.ID] {
				t.Fatalf("%s twice", r.ID)
			}
			seen[r.ID] = true
			if err := r.Validate(""); err != nil {
				t.Fatalf("an invalid record came back: %v", err)
			}
		}
		if lines := bytes.Count(data, []byte("\n")) + 1; len(recs)+bad > lines {
			t.Fatalf("%d records and %d bad lines from %d lines", len(recs), bad, lines)
		}
	})
}
