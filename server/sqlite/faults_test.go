package sqlite

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
)

// stepWorker opens the tracker, arms the step hook, and creates one issue:
// at the named step it says so on stdout and waits to be killed.
func stepWorker(name string) int {
	ctx := context.Background()
	s, err := Open(ctx, Options{DB: os.Getenv("DOCKET_DB"), Export: os.Getenv("DOCKET_EXPORT")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 3
	}
	stepHook = func(at string) {
		if at == name {
			fmt.Fprintln(os.Stdout, "at", at)
			select {} // until SIGKILL
		}
	}
	if _, err := s.Create(ctx, docket.NewIssue{Title: "killed at " + name}); err != nil {
		fmt.Fprintln(os.Stderr, "create:", err)
		return 4
	}
	fmt.Fprintln(os.Stdout, "finished")
	return 0
}

// inSync fails unless the export on disk is byte for byte what the index
// holds, read without any repair.
func inSync(t *testing.T, _ *docket.Service, e *env) {
	t.Helper()
	x, err := OpenIndex(context.Background(), e.db, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var want []byte
	err = x.Read(context.Background(), func(r docket.Reader) error {
		return r.Lines(func(line []byte) error {
			want = append(append(want, line...), '\n')
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.file(t); !bytes.Equal(got, want) {
		t.Fatalf("export on disk differs from the index:\n--- disk\n%s\n--- index\n%s", got, want)
	}
}

func tempFiles(t *testing.T, e *env) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(filepath.Dir(e.export), ".issues.jsonl.tmp-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSIGKILLAtEachStep kills a writer at each step of a write, then runs
// one recovery (an open and a list, what any docket command does): the
// export must equal the index, no temp file may remain, and the issue must
// be stored exactly when the kill came after the index commit.
func TestSIGKILLAtEachStep(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	for _, tc := range []struct {
		step   string
		stored bool
	}{
		{"commit", false},
		{"committed", true},
		{"temp", true},
		{"renamed", true},
	} {
		t.Run(tc.step, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			e := newEnv(t)
			s := e.open(t, "dk")
			if _, err := s.Create(ctx, docket.NewIssue{Title: "before"}); err != nil {
				t.Fatal(err)
			}
			s.Close()
			cmd := workerCmd(e, "step:"+tc.step, 0)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			if line != "at "+tc.step+"\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("worker said %q, want to stop at %s; stderr: %s", line, tc.step, stderr.String())
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			if tc.step == "temp" && len(tempFiles(t, e)) != 1 {
				t.Fatalf("killed with the temp file written, but found %v", tempFiles(t, e))
			}

			s2 := e.open(t, "")
			all, err := s2.List(ctx, docket.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			want := 1
			if tc.stored {
				want = 2
			}
			if len(all) != want {
				t.Errorf("after the kill at %s: %d issues, want %d", tc.step, len(all), want)
			}
			inSync(t, s2, e)
			if m := tempFiles(t, e); len(m) != 0 {
				t.Errorf("temp files left after recovery: %v", m)
			}
		})
	}
}

// TestURIPathEscaped opens an index whose directory name holds the bytes
// SQLite's URI file names interpret: the index is created exactly there.
func TestURIPathEscaped(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"a?b", "a#b", "a%20b", "a%b?c#d"} {
		e := newEnv(t)
		e.db = filepath.Join(e.dir, name, "index.db")
		s := e.open(t, "dk")
		if _, err := s.Create(context.Background(), docket.NewIssue{Title: "x"}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s.Close()
		if _, err := os.Stat(e.db); err != nil {
			t.Errorf("%s: index not at its path: %v", name, err)
		}
		ents, _ := os.ReadDir(e.dir)
		var names []string
		for _, d := range ents {
			names = append(names, d.Name())
		}
		if got := strings.Join(names, " "); got != name+" tracker" {
			t.Errorf("%s: directory holds %q, want only %q and tracker", name, got, name)
		}
	}
}

// TestCorruptIndexRebuilt overwrites the index with garbage: the next open
// moves it aside, rebuilds from the export, and says so.
func TestCorruptIndexRebuilt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	for _, title := range []string{"one", "two"} {
		if _, err := s.Create(ctx, docket.NewIssue{Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if err := os.WriteFile(e.db, bytes.Repeat([]byte("not a database "), 512), 0o644); err != nil {
		t.Fatal(err)
	}
	var notes []string
	s2, err := Open(ctx, Options{DB: e.db, Export: e.export, Warn: func(m string) { notes = append(notes, m) }})
	if err != nil {
		t.Fatalf("open of a corrupt index: %v", err)
	}
	defer s2.Close()
	all, err := s2.List(ctx, docket.Filter{})
	if err != nil || len(all) != 2 {
		t.Fatalf("after the rebuild: %d issues, %v; want 2", len(all), err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "damaged") || !strings.Contains(notes[0], "rebuilt from the export") {
		t.Errorf("notes = %q, want one saying the index was rebuilt", notes)
	}
	if _, err := os.Stat(e.db + ".corrupt"); err != nil {
		t.Errorf("the damaged index was not kept aside: %v", err)
	}
	if _, err := s2.Create(ctx, docket.NewIssue{Title: "three"}); err != nil {
		t.Fatal(err)
	}
	inSync(t, s2, e)
}

// TestEmptiedExport truncates the export of a tracker that holds issues:
// it is treated like a missing export, rewritten from the index with a
// note, instead of emptying the index.
func TestEmptiedExport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	for _, title := range []string{"one", "two"} {
		if _, err := s.Create(ctx, docket.NewIssue{Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if err := os.WriteFile(e.export, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var notes []string
	s2, err := Open(ctx, Options{DB: e.db, Export: e.export, Warn: func(m string) { notes = append(notes, m) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	all, err := s2.List(ctx, docket.Filter{})
	if err != nil || len(all) != 2 {
		t.Fatalf("after an emptied export: %d issues, %v; want 2", len(all), err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "is empty but the index holds 2 issues") {
		t.Errorf("notes = %q", notes)
	}
	inSync(t, s2, e)

	// A tracker with no issues and an empty export is simply in sync.
	e2 := newEnv(t)
	s3 := e2.open(t, "dk")
	s3.Close()
	notes = nil
	s4, err := Open(ctx, Options{DB: e2.db, Export: e2.export, Warn: func(m string) { notes = append(notes, m) }})
	if err != nil {
		t.Fatal(err)
	}
	s4.Close()
	if len(notes) != 0 {
		t.Errorf("an empty tracker drew notes: %q", notes)
	}
}

// TestExportModeKept: a rewrite keeps the export's permission bits.
func TestExportModeKept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	for _, mode := range []os.FileMode{0o444, 0o640, 0o600} {
		if err := os.Chmod(e.export, mode); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Create(ctx, docket.NewIssue{Title: "x"}); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(e.export)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != mode {
			t.Errorf("after a rewrite the export's mode is %v, want %v", st.Mode().Perm(), mode)
		}
	}
}

// TestLeftoverTempRemoved: temp files of a killed rewrite are removed by
// the next rewrite.
func TestLeftoverTempRemoved(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := e.open(t, "dk")
	left := filepath.Join(filepath.Dir(e.export), ".issues.jsonl.tmp-99999-123")
	if err := os.WriteFile(left, []byte("partial"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(context.Background(), docket.NewIssue{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("leftover temp file still there (%v)", err)
	}
}

// TestExportHashRecorded: the hash a rewrite records while it streams the
// export is docket.Hash of the file, so the next command finds the index
// in line instead of rebuilding it.
func TestExportHashRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	for _, title := range []string{"one", "two", "three"} {
		if _, err := s.Create(ctx, docket.NewIssue{Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	x, err := OpenIndex(ctx, e.db, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var stored string
	if err := x.Read(ctx, func(r docket.Reader) error {
		stored, err = r.Meta("export_hash")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if want := docket.Hash(e.file(t)); stored != want {
		t.Errorf("recorded export hash %s, the file's is %s", stored, want)
	}
}

// allocated reports whether id is recorded as drawn in the index at db,
// without changing it.
func allocated(t *testing.T, db, id string) bool {
	t.Helper()
	idx, err := OpenIndex(context.Background(), db, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	taken := false
	errRollback := errors.New("rollback")
	err = idx.Write(context.Background(), func(w docket.Writer) error {
		free, err := w.Allocate(id)
		if err != nil {
			return err
		}
		taken = !free
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatal(err)
	}
	return taken
}

// TestCorruptIndexKeepsDrawnIds (dk-vy8): an id drawn on a branch that is
// not checked out is in no export here, only in the index's allocated
// table. When the index is damaged and rebuilt, the id stays taken: the id
// log beside the index holds it. A damaged file whose allocated table
// still reads gives its rows back too; so does a new index after the old
// one was deleted.
func TestCorruptIndexKeepsDrawnIds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	if _, err := s.Create(ctx, docket.NewIssue{Title: "on main"}); err != nil {
		t.Fatal(err)
	}
	onMain, err := os.ReadFile(e.export)
	if err != nil {
		t.Fatal(err)
	}
	branch, err := s.Create(ctx, docket.NewIssue{Title: "on a branch"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	// git checkout main: the export no longer holds the branch's issue.
	if err := os.WriteFile(e.export, onMain, 0o644); err != nil {
		t.Fatal(err)
	}
	s = e.open(t, "")
	if _, err := s.Get(ctx, branch.ID); err == nil {
		t.Fatal("the branch's issue is still listed after the checkout")
	}
	s.Close()
	if !allocated(t, e.db, branch.ID) {
		t.Fatal("the rebuild from the export forgot the drawn id")
	}

	// A copy of the healthy index, to show salvage reads its table.
	healthy := filepath.Join(t.TempDir(), "healthy.db")
	if data, err := os.ReadFile(e.db); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(healthy, data, 0o644); err != nil {
		t.Fatal(err)
	}

	for _, f := range []string{e.db + "-wal", e.db + "-shm"} {
		os.Remove(f)
	}
	if err := os.WriteFile(e.db, bytes.Repeat([]byte("not a database "), 512), 0o644); err != nil {
		t.Fatal(err)
	}
	var notes []string
	s2, err := Open(ctx, Options{DB: e.db, Export: e.export, Warn: func(m string) { notes = append(notes, m) }})
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
	if len(notes) != 1 || !strings.Contains(notes[0], "ids drawn before stay taken: 0 read from the damaged index, 2 from the id log "+IDLog(e.db)) {
		t.Errorf("notes = %q", notes)
	}
	if !allocated(t, e.db, branch.ID) {
		t.Fatal("the damaged index's rebuild forgot the id drawn on the branch")
	}

	// Deleted by hand: the new index takes the log's ids back.
	for _, f := range []string{e.db, e.db + "-wal", e.db + "-shm"} {
		os.Remove(f)
	}
	s3, err := Open(ctx, Options{DB: e.db, Export: e.export})
	if err != nil {
		t.Fatal(err)
	}
	s3.Close()
	if !allocated(t, e.db, branch.ID) {
		t.Fatal("a new index forgot the logged id")
	}

	// Salvage: the allocated table of a readable file comes back.
	got := salvageAllocated(healthy)
	if !slices.Contains(got, branch.ID) || len(got) != 2 {
		t.Errorf("salvaged %v, want both drawn ids", got)
	}
	if got := salvageAllocated(e.db + ".corrupt"); len(got) != 0 {
		t.Errorf("salvaged %v from garbage", got)
	}
}
