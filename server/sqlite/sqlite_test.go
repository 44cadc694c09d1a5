package sqlite

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server"
	"github.com/google/go-cmp/cmp"
)

type env struct {
	dir, db, export string
	clock           time.Time
}

func newEnv(t testing.TB) *env {
	dir := t.TempDir()
	return &env{dir: dir, db: filepath.Join(dir, ".docket", "index.db"), export: filepath.Join(dir, "tracker", "issues.jsonl"),
		clock: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (e *env) open(t testing.TB, prefix string) *DB {
	t.Helper()
	s, err := Open(context.Background(), Options{DB: e.db, Export: e.export, Prefix: prefix, Now: func() time.Time { return e.clock }})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func (e *env) file(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(e.export)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// agree asserts that the export on disk is exactly what the index would
// write.
func agree(t testing.TB, s *DB, e *env) {
	t.Helper()
	want, err := s.Export(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := e.file(t); !bytes.Equal(got, want) {
		t.Fatalf("export on disk differs from the index:\n--- disk\n%s\n--- index\n%s", got, want)
	}
}

func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	if got := e.file(t); len(got) != 0 {
		t.Fatalf("init export = %q, want an empty file", got)
	}
	a, err := s.Create(ctx, server.NewIssue{Title: "first", Priority: 1, Labels: []string{"x"}, Decisions: []string{"D3"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Create(ctx, server.NewIssue{Title: "second", Priority: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, rest, ok := server.SplitID(a.ID); !ok || len(rest) != 3 || a.ID == b.ID {
		t.Fatalf("ids %s %s", a.ID, b.ID)
	}
	agree(t, s, e)

	// a blocks b: b is not ready until a is closed.
	if _, err := s.AddDep(ctx, a.ID, server.Dep{Type: server.DepBlocks, ID: b.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddDep(ctx, b.ID, server.Dep{Type: server.DepBlocks, ID: a.ID}); !errors.Is(err, server.ErrInvalid) || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("cycle: err = %v", err)
	}
	ready := func() []string {
		is, err := s.Ready(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, i := range is {
			ids = append(ids, i.ID)
		}
		return ids
	}
	if diff := cmp.Diff([]string{a.ID}, ready()); diff != "" {
		t.Errorf("ready before close (-want +got):\n%s", diff)
	}

	// Optimistic concurrency: a stale --if-version is a conflict, not a lost write.
	title := "first, renamed"
	a2, err := s.Update(ctx, a.ID, server.Patch{Title: &title, IfVersion: 2})
	if err != nil {
		t.Fatal(err)
	}
	if a2.Version != 3 {
		t.Errorf("version %d after create, dep, update; want 3", a2.Version)
	}
	_, err = s.Update(ctx, a.ID, server.Patch{Title: &title, IfVersion: 2})
	var ce *server.ConflictError
	if !errors.As(err, &ce) || ce.Have != 3 {
		t.Errorf("stale update: err = %v, want a conflict at version 3", err)
	}

	e.clock = e.clock.Add(time.Hour)
	if _, err := s.CloseIssue(ctx, a.ID, "", 0); !errors.Is(err, server.ErrInvalid) {
		t.Errorf("close without reason: err = %v", err)
	}
	closed, err := s.CloseIssue(ctx, a.ID, "done", 0)
	if err != nil {
		t.Fatal(err)
	}
	if closed.ClosedAt == nil || *closed.ClosedAt != "2026-03-01T13:00:00Z" || closed.UpdatedAt != *closed.ClosedAt {
		t.Errorf("closed_at %v updated_at %s", closed.ClosedAt, closed.UpdatedAt)
	}
	if diff := cmp.Diff([]string{b.ID}, ready()); diff != "" {
		t.Errorf("ready after close (-want +got):\n%s", diff)
	}
	st := server.StatusClosed
	if _, err := s.Update(ctx, b.ID, server.Patch{Status: &st}); !errors.Is(err, server.ErrInvalid) {
		t.Errorf("update --status closed: err = %v", err)
	}
	if _, err := s.Reopen(ctx, a.ID, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Comment(ctx, b.ID, "me", "note"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "dk-zzzz"); !errors.Is(err, server.ErrNotFound) {
		t.Errorf("unknown id: err = %v", err)
	}
	got, err := s.List(ctx, server.Filter{Label: "x", Decision: "D3"})
	if err != nil || len(got) != 1 || got[0].ID != a.ID {
		t.Errorf("list by label and decision = %v, %v", got, err)
	}
	agree(t, s, e)
}

func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	for k := range 30 {
		i, err := s.Create(ctx, server.NewIssue{Title: "issue " + string(rune('a'+k%26)), Labels: []string{"b", "a"}})
		if err != nil {
			t.Fatal(err)
		}
		if k%3 == 0 {
			if _, err := s.Comment(ctx, i.ID, "x", "c"); err != nil {
				t.Fatal(err)
			}
		}
	}
	first, err := s.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := s.Export(ctx)
	if !bytes.Equal(first, second) {
		t.Fatal("two exports of the same state differ")
	}
	// Import into a fresh tracker, export again: byte-identical.
	e2 := newEnv(t)
	s2 := e2.open(t, "dk")
	set, err := server.DecodeImport("in", first, server.FormatDocket, "dk", e.clock)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s2.Import(ctx, set)
	if err != nil || res.Created != 30 {
		t.Fatalf("import: %+v %v", res, err)
	}
	if got := e2.file(t); !bytes.Equal(got, first) {
		t.Fatalf("export -> import -> export differs")
	}
	// Re-importing the same file changes nothing.
	res, err = s2.Import(ctx, set)
	if err != nil || res.Unchanged != 30 {
		t.Fatalf("re-import: %+v %v", res, err)
	}
	if got := e2.file(t); !bytes.Equal(got, first) {
		t.Fatalf("re-import changed the export")
	}
}

func TestImportIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	if _, err := s.Create(ctx, server.NewIssue{Title: "kept"}); err != nil {
		t.Fatal(err)
	}
	before := e.file(t)
	i := server.Issue{ID: "dk-new", Title: "t", Status: "open", Type: "task", Priority: 1, CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z", Version: 1, Schema: 1,
		Deps: []server.Dep{{Type: server.DepBlocks, ID: "dk-nowhere"}}}
	i.Normalize()
	_, err := s.Import(ctx, &server.ImportSet{Issues: []server.Issue{i}})
	if !errors.Is(err, server.ErrInvalid) || !strings.Contains(err.Error(), "dk-nowhere") {
		t.Fatalf("dangling dep: err = %v", err)
	}
	if got := e.file(t); !bytes.Equal(got, before) {
		t.Error("a failed import changed the export")
	}
	if _, err := s.Get(ctx, "dk-new"); !errors.Is(err, server.ErrNotFound) {
		t.Errorf("a failed import stored a record: %v", err)
	}
}

func TestRebuildFromChangedExport(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	a, err := s.Create(ctx, server.NewIssue{Title: "original"})
	if err != nil {
		t.Fatal(err)
	}
	// A pull changes the title in the export behind the index's back.
	pulled := bytes.Replace(e.file(t), []byte(`"original"`), []byte(`"from upstream"`), 1)
	if err := os.WriteFile(e.export, pulled, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, a.ID)
	if err != nil || got.Title != "from upstream" {
		t.Fatalf("after a pull: %q, %v; the index should have rebuilt", got.Title, err)
	}
	// A hand edit into invalid JSON: refused, with the line; index unchanged.
	if err := os.WriteFile(e.export, append(pulled, []byte("{broken\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = s.Get(ctx, a.ID)
	if err == nil || !strings.Contains(err.Error(), "issues.jsonl:2:") {
		t.Fatalf("broken export: err = %v, want the line", err)
	}
	if _, err := s.Create(ctx, server.NewIssue{Title: "must not land"}); err == nil {
		t.Fatal("a write went through while the export is broken")
	}
	var n int
	if err := s.rdb.QueryRow(`SELECT count(*) FROM issues`).Scan(&n); err != nil || n != 1 {
		t.Errorf("index holds %d issues after refusing, want 1 (%v)", n, err)
	}
	// Restored: everything works again and ids stay allocated.
	if err := os.WriteFile(e.export, pulled, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ctx, server.NewIssue{Title: "after fix"}); err != nil {
		t.Fatal(err)
	}
	agree(t, s, e)
}

// TestDirtyExportIsRewritten simulates a writer killed between its commit
// and its export rewrite: the next start rewrites the export.
func TestDirtyExportIsRewritten(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	a, err := s.Create(ctx, server.NewIssue{Title: "x"})
	if err != nil {
		t.Fatal(err)
	}
	// Commit a change the way write does, but skip the rewrite.
	tx, err := s.wdb.Begin()
	if err != nil {
		t.Fatal(err)
	}
	i, _ := getIssue(ctx, tx, a.ID)
	i.Title = "committed, not exported"
	i.Version++
	if err := putIssue(ctx, tx, i); err != nil {
		t.Fatal(err)
	}
	if err := setMeta(ctx, tx, "export_dirty", "1"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := e.open(t, "")
	if !bytes.Contains(e.file(t), []byte("committed, not exported")) {
		t.Fatal("the next start did not rewrite the export")
	}
	agree(t, s2, e)
}

func TestFreshCloneBuildsIndexFromExport(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "zz")
	if _, err := s.Create(ctx, server.NewIssue{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := e.file(t)
	if err := os.RemoveAll(filepath.Dir(e.db)); err != nil {
		t.Fatal(err)
	}
	s2 := e.open(t, "")
	if s2.Prefix() != "zz" {
		t.Errorf("prefix %q, want it read off the export", s2.Prefix())
	}
	agree(t, s2, e)
	if !bytes.Equal(before, e.file(t)) {
		t.Error("opening a clone changed the export")
	}
	// No index and no export: a clear error, not an empty tracker.
	e3 := newEnv(t)
	if _, err := Open(ctx, Options{DB: e3.db, Export: e3.export}); !errors.Is(err, ErrNoTracker) {
		t.Errorf("err = %v, want ErrNoTracker", err)
	}
}

// TestSyncShortcut: once the export is old enough to be trusted by size
// and mtime, reads skip the hash; any change of size or mtime is still
// noticed and rebuilt from.
func TestSyncShortcut(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	a, err := s.Create(ctx, server.NewIssue{Title: "before"})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(e.export, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, a.ID); err != nil { // verifies and remembers the key
		t.Fatal(err)
	}
	if k := s.seen; k.size == 0 {
		t.Fatalf("key not remembered: %+v", k)
	}
	// Same size, new mtime (a checkout): rebuilt.
	edited := bytes.Replace(e.file(t), []byte(`"before"`), []byte(`"after!"`), 1)
	if err := os.WriteFile(e.export, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, a.ID)
	if err != nil || got.Title != "after!" {
		t.Fatalf("same-size edit with a new mtime not noticed: %q %v", got.Title, err)
	}
}
