package memindex_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/memindex"
)

// shared is a docket.Backend that keeps no file in the clone, as a
// server-side index would: one package's worth of methods over an index
// that outlives each open, and no LocalBackend duties. docket.Open serves
// it with no lock file, id log or pending journal (issue 33, D100).
type shared struct{ idx *memindex.Index }

func (b *shared) Path() string { return "memory://shared" }
func (b *shared) Exists() bool { return b.idx != nil }
func (b *shared) OpenIndex(context.Context, docket.Workflow) (docket.Index, error) {
	if b.idx == nil {
		b.idx = memindex.New()
	}
	return nopClose{b.idx}, nil
}
func (b *shared) Peek(context.Context) (docket.Index, error) { return nopClose{b.idx}, nil }

// nopClose keeps the shared index open across a service's Close, as a
// connection pool would keep the server's data.
type nopClose struct{ *memindex.Index }

func (nopClose) Close() error { return nil }

// TestSharedBackend: docket.Open opens a backend that is not a
// LocalBackend, writes through it, and a second open of the same backend
// reads what the first wrote; no file but the export appears in the clone.
func TestSharedBackend(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	export := filepath.Join(root, "issues.jsonl")
	b := &shared{}
	opts := docket.Options{Root: root, Export: export, Prefix: "dk", Now: func() time.Time { return time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC) }}
	s, err := docket.Open(ctx, b, opts)
	if err != nil {
		t.Fatal(err)
	}
	i, err := s.Create(ctx, docket.NewIssue{Title: "on a shared index"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	opts.Prefix = ""
	s2, err := docket.Open(ctx, b, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.Get(ctx, i.ID)
	if err != nil || got.Title != "on a shared index" {
		t.Fatalf("show %s: %+v, %v", i.ID, got, err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "issues.jsonl" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the clone holds %v; a shared backend leaves the export alone", names)
	}
	drift, err := docket.CheckExport(ctx, b, opts)
	if err != nil || drift != nil {
		t.Errorf("export --check over the shared backend: %+v, %v", drift, err)
	}
}
