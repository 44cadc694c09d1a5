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

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/memindex"
)

// failRewrite returns a step hook that makes the next export rewrite fail
// after its temp file is written, by putting a non-empty directory where
// the export is (a rename cannot replace it, for root too), and a
// function that puts the export back.
func failRewrite(t *testing.T, export string) (hook func(string), restore func()) {
	t.Helper()
	saved := export + ".saved"
	armed := true
	hook = func(step string) {
		if step != "temp" || !armed {
			return
		}
		armed = false
		if err := os.Rename(export, saved); err != nil {
			t.Error(err)
		}
		if err := os.MkdirAll(filepath.Join(export, "in-the-way"), 0o755); err != nil {
			t.Error(err)
		}
	}
	restore = func() {
		if err := os.RemoveAll(export); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(saved, export); err != nil {
			t.Fatal(err)
		}
	}
	return hook, restore
}

// TestExitThreeThenCorruptHeader: a create commits to the index and its
// export rewrite fails (exit 3); then the index's header is overwritten
// before any command repairs the export. The next open sets the damaged
// index aside and rebuilds it from the export, which never got the record:
// the pending journal puts it back, the export is rewritten with it, and
// the journal is removed (D67). Without the journal the record was lost.
func TestExitThreeThenCorruptHeader(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	clock := func() time.Time { return e.clock }
	open := func(step func(string), warn func(string)) *docket.Service {
		t.Helper()
		s, err := docket.Open(ctx, Backend{DB: e.db}, docket.Options{Export: e.export, Now: clock, Step: step, Warn: warn,
			Fallback: func() docket.Index { return memindex.New() }})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		return s
	}
	s0, err := docket.Open(ctx, Backend{DB: e.db}, docket.Options{Export: e.export, Prefix: "dk", Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	before, err := s0.Create(ctx, docket.NewIssue{Title: "exported"})
	if err != nil {
		t.Fatal(err)
	}
	s0.Close()

	hook, restore := failRewrite(t, e.export)
	s := open(hook, nil)
	lost, err := s.Create(ctx, docket.NewIssue{Title: "committed, never exported"})
	if !errors.Is(err, docket.ErrUnexported) || lost.ID == "" {
		t.Fatalf("create with a failing rewrite: %+v, %v; want the record and ErrUnexported (exit 3)", lost, err)
	}
	if de, ok := errors.AsType[*docket.Error](err); !ok || !strings.Contains(de.Detail, "pending journal "+docket.PendingLog(e.db)) {
		t.Errorf("the exit 3 error does not name the journal in its detail: %#v", err)
	}
	s.Close()
	restore()
	if bytes.Contains(e.file(t), []byte(lost.ID)) {
		t.Fatal("the export got the record: the rewrite did not fail")
	}

	// The header goes: "file is not a database".
	for _, f := range []string{e.db + "-wal", e.db + "-shm"} {
		os.Remove(f)
	}
	f, err := os.OpenFile(e.db, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xff}, 100), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()

	var notes []string
	s2 := open(nil, func(m string) { notes = append(notes, m) })
	defer s2.Close()
	for _, id := range []string{before.ID, lost.ID} {
		if _, err := s2.Get(ctx, id); err != nil {
			t.Errorf("after the rebuild, %s: %v; notes %q", id, err, notes)
		}
	}
	if !bytes.Contains(e.file(t), []byte(`"title":"committed, never exported"`)) {
		t.Errorf("the export was not rewritten with the journal's record:\n%s", e.file(t))
	}
	if _, err := os.Stat(docket.PendingLog(e.db)); !os.IsNotExist(err) {
		t.Errorf("the journal outlived the export rewrite: %v", err)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"was damaged", "put back from the pending journal " + docket.PendingLog(e.db) + ": " + lost.ID} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes do not say %q:\n%s", want, joined)
		}
	}
	inSync(t, s2, e)
}

// TestPendingJournalRules: the journal keeps the newest state of each
// record, skips a line cut short, never takes an older state over the
// index's, and is removed by the first export rewrite that succeeds.
func TestPendingJournalRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	i, err := s.Create(ctx, docket.NewIssue{Title: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	title := "v2"
	if i, err = s.Update(ctx, i.ID, docket.Patch{Title: &title}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	line := func(title string, version int64) string {
		j := i
		j.Title, j.Version = title, version
		b, err := docket.MarshalLine(j)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	pending := docket.PendingLog(e.db)
	write := func(data string) {
		if err := os.WriteFile(pending, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	get := func() docket.Issue {
		t.Helper()
		s := e.open(t, "")
		defer s.Close()
		got, err := s.Get(ctx, i.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	// Older than the index: not taken, and the journal goes.
	write(line("v1", 1))
	if got := get(); got.Title != "v2" {
		t.Errorf("an older journal state replaced the index's: %q", got.Title)
	}
	if _, err := os.Stat(pending); !os.IsNotExist(err) {
		t.Errorf("a journal the index holds was kept: %v", err)
	}

	// Newer, twice, and a torn line: the newest is taken.
	write(line("v3", 3) + line("v4", 4) + `{"id":"dk-`)
	if got := get(); got.Title != "v4" || got.Version != 4 {
		t.Errorf("after the journal: %q at version %d, want v4 at 4", got.Title, got.Version)
	}
	if !bytes.Contains(e.file(t), []byte(`"title":"v4"`)) {
		t.Errorf("the export does not hold the journal's record:\n%s", e.file(t))
	}
}
