package docket_test

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server"
	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/docket/memindex"
	"github.com/claimslint/claimslint/server/docket/storetest"
)

// TestSyncShortcut: once the export is old enough to be trusted by size
// and mtime, reads skip the hash; any change of size or mtime is still
// noticed and rebuilt from.
func TestSyncShortcut(t *testing.T) {
	ctx := context.Background()
	e := storetest.NewEnv(t, func(testing.TB, string) docket.Index { return memindex.New() })
	s := e.Open(t, "dk")
	a, err := s.Create(ctx, server.NewIssue{Title: "before"})
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
