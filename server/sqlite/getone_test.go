package sqlite

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
)

// TestGetOne (dk-8i4): the one-statement read answers as a read
// transaction's Get does, for a stored id, a missing one and a cancelled
// context, on the index docket opens (statements cached across reads)
// and on Peek's (no cache: a transaction, as before), and again after a
// write changed the record under the cached statement.
func TestGetOne(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	a, err := s.Create(ctx, docket.NewIssue{Title: "one"})
	if err != nil {
		t.Fatal(err)
	}
	x, err := OpenIndex(ctx, e.db, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	peek, err := Backend{DB: e.db}.Peek(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer peek.Close()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	check := func(name string, idx docket.Index, ctx context.Context, id string) {
		t.Helper()
		var want docket.Issue
		wantErr := idx.Read(ctx, func(r docket.Reader) error {
			var err error
			want, err = r.Get(id)
			return err
		})
		got, err := idx.(docket.OneGetter).GetOne(ctx, id)
		if !reflect.DeepEqual(got, want) || (err == nil) != (wantErr == nil) ||
			errors.Is(err, docket.ErrNotFound) != errors.Is(wantErr, docket.ErrNotFound) ||
			errors.Is(err, context.Canceled) != errors.Is(wantErr, context.Canceled) {
			t.Errorf("%s %s: GetOne gave %+v, %v; Read's Get %+v, %v", name, id, got, err, want, wantErr)
		}
	}
	for _, idx := range []struct {
		name string
		x    docket.Index
	}{{"index", x}, {"peek", peek}} {
		check(idx.name, idx.x, ctx, a.ID)
		check(idx.name, idx.x, ctx, "dk-zzz")
		check(idx.name, idx.x, cancelled, a.ID)
	}
	got, err := x.GetOne(ctx, a.ID)
	if err != nil || got.Title != "one" {
		t.Fatalf("GetOne: %q %v", got.Title, err)
	}
	title := "two"
	if _, err := s.Update(ctx, a.ID, docket.Patch{Title: &title}); err != nil {
		t.Fatal(err)
	}
	if got, err := x.GetOne(ctx, a.ID); err != nil || got.Title != "two" {
		t.Errorf("GetOne after a write: %q %v, want the new title", got.Title, err)
	}
	check("index", x, ctx, a.ID)
}

// TestCachedReadsConcurrent: reads on many goroutines share the cached
// statements (GetOne and read transactions' Get) while a writer changes
// the record; each read sees one of the titles written, never an error.
func TestCachedReadsConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	s := e.open(t, "dk")
	a, err := s.Create(ctx, docket.NewIssue{Title: "t0"})
	if err != nil {
		t.Fatal(err)
	}
	x, err := OpenIndex(ctx, e.db, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	const readers, reads, writes = 16, 40, 10
	titles := map[string]bool{"t0": true}
	for k := 1; k <= writes; k++ {
		titles[fmt.Sprintf("t%d", k)] = true
	}
	var wg sync.WaitGroup
	errs := make(chan error, readers*reads)
	for r := range readers {
		wg.Go(func() {
			for range reads {
				var got docket.Issue
				var err error
				if r%2 == 0 {
					got, err = x.GetOne(ctx, a.ID)
				} else {
					err = x.Read(ctx, func(rd docket.Reader) error {
						got, err = rd.Get(a.ID)
						return err
					})
				}
				if err != nil || !titles[got.Title] {
					errs <- fmt.Errorf("read %q, %v", got.Title, err)
				}
			}
		})
	}
	for k := 1; k <= writes; k++ {
		title := fmt.Sprintf("t%d", k)
		if _, err := s.Update(ctx, a.ID, docket.Patch{Title: &title}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
