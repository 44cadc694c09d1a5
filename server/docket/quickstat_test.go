package docket_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/memindex"
	"github.com/claimslint/claimslint/server/storetest"
)

// TestSyncQuickStat (dk-msc): a long-lived reader's sync check lstats the
// export's path instead of opening the root, and trusts only the very file
// it verified, reached through no link. Each change below keeps the
// export's bytes, size and mtime, which the size-and-mtime key alone
// would trust; each must still be seen: refused as D67 refuses a link, or
// the new file (another inode) hashed and its edit served.
func TestSyncQuickStat(t *testing.T) {
	t.Parallel()
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	cases := []struct {
		name   string
		change func(t *testing.T, export string)
		// refused: the read fails with ErrUnsafePath; else it serves title.
		refused bool
		title   string
	}{
		{"untouched", func(*testing.T, string) {}, false, "before"},
		{"the export renamed over by an edit of its size and mtime", func(t *testing.T, export string) {
			b, err := os.ReadFile(export)
			must(t, err)
			edited := bytes.Replace(b, []byte(`"before"`), []byte(`"after!"`), 1)
			must(t, os.WriteFile(export+".new", edited, 0o644))
			must(t, os.Chtimes(export+".new", old, old))
			must(t, os.Rename(export+".new", export))
		}, false, "after!"},
		{"the export replaced by a link to a copy", func(t *testing.T, export string) {
			copyTo(t, export, export+".copy", old)
			must(t, os.Remove(export))
			must(t, os.Symlink(filepath.Base(export)+".copy", export))
		}, true, ""},
		{"its directory moved aside and linked back", func(t *testing.T, export string) {
			dir := filepath.Dir(export)
			must(t, os.Rename(dir, dir+".real"))
			must(t, os.Symlink(filepath.Base(dir)+".real", dir))
		}, true, ""},
		{"its directory replaced by a link to a copy", func(t *testing.T, export string) {
			dir := filepath.Dir(export)
			must(t, os.MkdirAll(dir+".copy", 0o755))
			copyTo(t, export, filepath.Join(dir+".copy", filepath.Base(export)), old)
			must(t, os.RemoveAll(dir))
			must(t, os.Symlink(filepath.Base(dir)+".copy", dir))
		}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			e := storetest.NewEnv(t, func(testing.TB, string) docket.Index { return memindex.New() })
			s, err := docket.New(ctx, memindex.New(), docket.Options{Export: e.Export, Root: e.Dir, Prefix: "dk"})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			a, err := s.Create(ctx, docket.NewIssue{Title: "before"})
			if err != nil {
				t.Fatal(err)
			}
			must(t, os.Chtimes(e.Export, old, old))
			if _, err := s.Get(ctx, a.ID); err != nil { // verifies, remembers the file
				t.Fatal(err)
			}
			if docket.SeenSize(s) == 0 {
				t.Fatal("key not remembered")
			}
			c.change(t, e.Export)
			got, err := s.Get(ctx, a.ID)
			switch {
			case c.refused && !errors.Is(err, docket.ErrUnsafePath):
				t.Fatalf("read through a link: %q %v, want it refused", got.Title, err)
			case !c.refused && (err != nil || got.Title != c.title):
				t.Fatalf("got %q %v, want %q", got.Title, err, c.title)
			}
		})
	}
}

// copyTo copies src to dst, a new file, with src's bytes and mtime mtime.
func copyTo(t *testing.T, src, dst string, mtime time.Time) {
	t.Helper()
	b, err := os.ReadFile(src)
	must(t, err)
	must(t, os.WriteFile(dst, b, 0o644))
	must(t, os.Chtimes(dst, mtime, mtime))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
