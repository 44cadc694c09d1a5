package sqlite

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/storetest"
)

// TestStore runs the shared store suite on SQLite files.
func TestStore(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(tb testing.TB, key string) docket.Index {
		x, err := OpenIndex(context.Background(), key, 0)
		if err != nil {
			tb.Fatalf("open index: %v", err)
		}
		return x
	})
}

type env struct {
	dir, db, export string
	clock           time.Time
}

func newEnv(t testing.TB) *env {
	dir := t.TempDir()
	return &env{dir: dir, db: filepath.Join(dir, ".docket", "index.db"), export: filepath.Join(dir, "tracker", "issues.jsonl"),
		clock: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (e *env) open(t testing.TB, prefix string) *docket.Service {
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
func agree(t testing.TB, s *docket.Service, e *env) {
	t.Helper()
	want, err := s.Export(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := e.file(t); !bytes.Equal(got, want) {
		t.Fatalf("export on disk differs from the index:\n--- disk\n%s\n--- index\n%s", got, want)
	}
}

// TestNoTracker: no index and no export is a clear error, not an empty
// tracker, and creates nothing.
func TestNoTracker(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if _, err := Open(context.Background(), Options{DB: e.db, Export: e.export}); !errors.Is(err, ErrNoTracker) {
		t.Errorf("err = %v, want ErrNoTracker", err)
	}
	if _, err := os.Stat(e.db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused open created the index: %v", err)
	}
}

// TestOldIndexIsRebuilt: an index of another schema version is dropped and
// rebuilt from the export.
func TestOldIndexIsRebuilt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := e.open(t, "dk")
	ctx := context.Background()
	if _, err := s.Create(ctx, newIssue("kept")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	x, err := OpenIndex(ctx, e.db, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.wdb.Exec(`UPDATE meta SET value='1' WHERE key='index_schema'`); err != nil {
		t.Fatal(err)
	}
	x.Close()
	s2 := e.open(t, "")
	all, err := s2.List(ctx, filterAll)
	if err != nil || len(all) != 1 || all[0].Title != "kept" || s2.Prefix() != "dk" {
		t.Fatalf("after a schema change: %v %v prefix %q", all, err, s2.Prefix())
	}
	agree(t, s2, e)
}
