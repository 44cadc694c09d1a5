package docket_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/memindex"
	"github.com/claimslint/claimslint/server/storetest"
)

// TestSyncShortcut: once the export is old enough to be trusted by size
// and mtime, reads skip the hash; any change of size or mtime is still
// noticed and rebuilt from.
func TestSyncShortcut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := storetest.NewEnv(t, func(testing.TB, string) docket.Index { return memindex.New() })
	s := e.Open(t, "dk")
	a, err := s.Create(ctx, docket.NewIssue{Title: "before"})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(e.Export, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, a.ID); err != nil { // verifies and remembers the key
		t.Fatal(err)
	}
	if docket.SeenSize(s) == 0 {
		t.Fatal("key not remembered")
	}
	// Same size, new mtime (a checkout): rebuilt.
	edited := bytes.Replace(e.File(t), []byte(`"before"`), []byte(`"after!"`), 1)
	if err := os.WriteFile(e.Export, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, a.ID)
	if err != nil || got.Title != "after!" {
		t.Fatalf("same-size edit with a new mtime not noticed: %q %v", got.Title, err)
	}
}

// failing wraps an index whose writes fail while fail is set, as a full
// disk or a read-only index directory makes them fail.
type failing struct {
	docket.Index
	fail *bool
}

var errFull = errors.New("database or disk is full (13)")

func (f failing) Write(ctx context.Context, fn func(docket.Writer) error) error {
	if *f.fail {
		return errFull
	}
	return f.Index.Write(ctx, fn)
}

func (f failing) Close() error { return nil } // the inner index outlives each open

// TestReadFallsBackWhenTheRebuildCannotWrite (dk-x2p): the export changed
// (a pull) while the index cannot write. Reads are served from the export
// in memory, with a note; nothing is written to the index; a write still
// fails with nothing changed; once the index can write, the next read
// rebuilds it and the note is gone. With a committed change the export
// never got (dirty), the in-memory view merges both sides.
func TestReadFallsBackWhenTheRebuildCannotWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inner := memindex.New()
	fail := false
	e := storetest.NewEnv(t, func(testing.TB, string) docket.Index { return failing{inner, &fail} })
	var notes []string
	open := func() *docket.Service {
		t.Helper()
		notes = nil
		s, err := docket.New(ctx, failing{inner, &fail}, docket.Options{Export: e.Export, Prefix: "dk", Now: func() time.Time { return e.Clock },
			Warn: func(m string) { notes = append(notes, m) }, Fallback: func() docket.Index { return memindex.New() }})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		return s
	}
	s := open()
	a, err := s.Create(ctx, docket.NewIssue{Title: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := indexLines(t, inner)

	// The pull: a record from elsewhere, and "mine" retitled at version 2.
	pulled := bytes.Replace(e.File(t), []byte(`"title":"mine"`), []byte(`"title":"mine, retitled"`), 1)
	pulled = bytes.Replace(pulled, []byte(`"version":1`), []byte(`"version":2`), 1)
	pulled = append(pulled, []byte(`{"id":"dk-zzzz","title":"pulled","description":"","status":"open","type":"task","priority":2,"labels":[],"decisions":[],"deps":[],"comments":[],"created_at":"2026-10-01T00:00:00Z","updated_at":"2026-10-01T00:00:00Z","closed_at":null,"close_reason":"","version":1,"schema":1}`+"\n")...)
	if err := os.WriteFile(e.Export, pulled, 0o644); err != nil {
		t.Fatal(err)
	}
	fail = true
	s = open()
	if len(notes) != 1 || !strings.Contains(notes[0], "this read is served from the export") || !strings.Contains(notes[0], errFull.Error()) {
		t.Fatalf("notes = %q, want one saying the read is served from the export and why", notes)
	}
	got, err := s.Get(ctx, a.ID)
	if err != nil || got.Title != "mine, retitled" {
		t.Fatalf("show: %q %v, want the pulled title", got.Title, err)
	}
	if _, err := s.Get(ctx, "dk-zzzz"); err != nil {
		t.Fatalf("the pulled record is not readable: %v", err)
	}
	page, err := s.Listing(ctx, docket.ViewReady, docket.ListParams{})
	if err != nil || len(page.Rows) != 2 {
		t.Fatalf("ready: %v %v", page.Rows, err)
	}
	exp, err := s.Export(ctx)
	if err != nil || !bytes.Equal(exp, pulled) {
		t.Fatalf("export --check would fail: %v\n%s\n---\n%s", err, exp, pulled)
	}
	if len(notes) != 1 {
		t.Errorf("the note was repeated on later reads: %q", notes)
	}
	if _, err := s.Create(ctx, docket.NewIssue{Title: "on a full disk"}); !errors.Is(err, errFull) {
		t.Errorf("create on a full disk: %v, want the write error (nothing changed)", err)
	}
	if after := indexLines(t, inner); !bytes.Equal(after, before) {
		t.Fatal("the fallback wrote to the index")
	}
	s.Close()

	// Room again: the next read rebuilds the index, without a note.
	fail = false
	s = open()
	if _, err := s.Get(ctx, "dk-zzzz"); err != nil || len(notes) != 0 {
		t.Fatalf("after the disk freed: %v, notes %q", err, notes)
	}
	if after := indexLines(t, inner); !bytes.Equal(after, pulled) {
		t.Fatalf("the index was not rebuilt from the export:\n%s", after)
	}
	s.Close()
}

func indexLines(t *testing.T, x docket.Index) []byte {
	t.Helper()
	var b bytes.Buffer
	err := x.Read(context.Background(), func(r docket.Reader) error {
		return r.Lines(func(l []byte) error { b.Write(l); b.WriteByte('\n'); return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReadFallbackMergesADirtyIndex: the index holds a committed change
// the export never got (an earlier exit 3), the export then changed (a
// pull), and the index cannot write: the in-memory view merges by id, as
// the sync would, so the read shows both the committed change and the
// pulled record, and says so.
func TestReadFallbackMergesADirtyIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inner := memindex.New()
	fail := false
	e := storetest.NewEnv(t, func(testing.TB, string) docket.Index { return inner })
	var notes []string
	opts := docket.Options{Export: e.Export, Prefix: "dk", Now: func() time.Time { return e.Clock },
		Warn: func(m string) { notes = append(notes, m) }, Fallback: func() docket.Index { return memindex.New() }}
	s, err := docket.New(ctx, failing{inner, &fail}, opts)
	if err != nil {
		t.Fatal(err)
	}
	exported := e.File(t)
	local, err := s.Create(ctx, docket.NewIssue{Title: "committed, never exported"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	// As after exit 3: the index holds local and is dirty; the export on
	// disk is the one before local, plus a pulled record.
	if err := inner.Write(ctx, func(w docket.Writer) error { return w.SetMeta("export_dirty", "1") }); err != nil {
		t.Fatal(err)
	}
	pulled := append(exported, []byte(`{"id":"dk-zzzz","title":"pulled","description":"","status":"open","type":"task","priority":2,"labels":[],"decisions":[],"deps":[],"comments":[],"created_at":"2026-10-01T00:00:00Z","updated_at":"2026-10-01T00:00:00Z","closed_at":null,"close_reason":"","version":1,"schema":1}`+"\n")...)
	if err := os.WriteFile(e.Export, pulled, 0o644); err != nil {
		t.Fatal(err)
	}
	fail = true
	if s, err = docket.New(ctx, failing{inner, &fail}, opts); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{local.ID, "dk-zzzz"} {
		if _, err := s.Get(ctx, id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	all := strings.Join(notes, "\n")
	if !strings.Contains(all, "served from the export and the index's committed records in memory") || !strings.Contains(all, "in memory only: the export") || !strings.Contains(all, "merged by id") {
		t.Errorf("notes do not say the read was merged in memory:\n%s", all)
	}
}

// TestSyncKeyOutlivesTheProcess (dk-pit): the key a read verified is kept
// in the index, so the next process (a new Open over the same index) trusts
// an export of that size and mtime without hashing it; a different mtime,
// or a rewrite that records a new hash, voids the key.
func TestSyncKeyOutlivesTheProcess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inner := memindex.New()
	fail := false
	e := storetest.NewEnv(t, func(testing.TB, string) docket.Index { return failing{inner, &fail} })
	s := e.Open(t, "dk")
	a, err := s.Create(ctx, docket.NewIssue{Title: "before"})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(e.Export, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, a.ID); err != nil { // verifies and records the key
		t.Fatal(err)
	}
	// A same-size edit that keeps the mtime is what the key cannot see: a
	// new process that trusts the recorded key serves the index as it is.
	edited := bytes.Replace(e.File(t), []byte(`"before"`), []byte(`"after!"`), 1)
	if err := os.WriteFile(e.Export, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(e.Export, old, old); err != nil {
		t.Fatal(err)
	}
	got, err := e.Open(t, "").Get(ctx, a.ID)
	if err != nil || got.Title != "before" {
		t.Fatalf("a new process hashed the export instead of trusting the recorded key: %q %v", got.Title, err)
	}
	// Another mtime (a checkout): the next process hashes and rebuilds.
	if err := os.Chtimes(e.Export, old.Add(time.Second), old.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	got, err = e.Open(t, "").Get(ctx, a.ID)
	if err != nil || got.Title != "after!" {
		t.Fatalf("an export with a new mtime was trusted: %q %v", got.Title, err)
	}
	// A rewrite records a new hash, which voids the key even if the new
	// file's size and mtime were set back to the recorded ones.
	s2 := e.Open(t, "")
	if _, err := s2.Create(ctx, docket.NewIssue{Title: "second"}); err != nil {
		t.Fatal(err)
	}
	if got := docket.ExportKey(t, inner); got == "" || !strings.HasPrefix(got, docket.Hash(edited)+" ") {
		t.Fatalf("export_key %q: want the key recorded for the edited export", got)
	}
	if err := os.WriteFile(e.Export, edited, 0o644); err != nil { // back to the keyed bytes
		t.Fatal(err)
	}
	if err := os.Chtimes(e.Export, old.Add(time.Second), old.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	list, err := e.Open(t, "").List(ctx, docket.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 {
		t.Fatalf("after a rewrite the old key was trusted: %d issues listed, want the export's 1", len(list))
	}
}
