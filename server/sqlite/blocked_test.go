package sqlite

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
)

// TestBlockedFlagsAgree drives a tracker through random writes (an import
// with parent cycles, dangling ids and foreign statuses, then creates,
// closes, reopens, status changes, edges added and removed, and an export
// edited under the index) and after each one compares what the stored
// blocked flags and the tally answer with what the recursive blocked set
// and a count over the rows answer. A finished set listed with a status
// twice names the same statuses but not the flags' set, so it takes the
// computed path.
func TestBlockedFlagsAgree(t *testing.T) {
	t.Parallel()
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(seed, 14))
			e := newEnv(t)
			s := e.open(t, "dk")
			x, err := OpenIndex(ctx, e.db, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()

			statuses := []docket.Status{docket.StatusOpen, docket.StatusOpen, docket.StatusInProgress, docket.StatusClosed, "tombstone", "hooked", "pinned", "weird", docket.StatusBlocked}
			types := []docket.DepType{docket.DepBlocks, docket.DepDependsOn, docket.DepParent, docket.DepParentChild, docket.DepRelated}
			n := 30
			if seed%2 == 1 {
				n = 300 // past settleAll: the import recomputes every flag
			}
			id := func(k int) string { return fmt.Sprintf("dk-%03d", k) }
			set := &docket.ImportSet{}
			for k := range n {
				i := docket.Issue{ID: id(k), Title: fmt.Sprintf("issue %d", k), Status: statuses[rng.IntN(len(statuses))],
					Type: docket.TypeTask, Priority: rng.IntN(5), CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z",
					Version: 1, Schema: docket.Schema}
				if i.Status == docket.StatusClosed {
					c := "2026-01-02T00:00:00Z"
					i.ClosedAt, i.CloseReason = &c, "done"
				}
				for range rng.IntN(3) {
					to := id(rng.IntN(n + 5)) // some dangle
					if to != i.ID {
						i.Deps = append(i.Deps, docket.Dep{Type: types[rng.IntN(len(types))], ID: to})
					}
				}
				i.Normalize()
				set.Issues = append(set.Issues, i)
			}
			if _, err := s.Import(ctx, set); err != nil {
				t.Fatal(err)
			}
			agreeFlags(t, x, "import")
			for op := range 120 {
				k := id(rng.IntN(n))
				var what string
				var err error
				switch rng.IntN(7) {
				case 0:
					what = "close " + k
					_, err = s.CloseIssue(ctx, k, "done", 0)
				case 1:
					what = "reopen " + k
					_, err = s.Reopen(ctx, k, 0)
				case 2:
					st := statuses[rng.IntN(3)]
					what = "status " + k + " " + string(st)
					_, err = s.Update(ctx, k, docket.Patch{Status: &st})
				case 3, 4:
					d := docket.Dep{Type: types[rng.IntN(4)], ID: id(rng.IntN(n))}
					what = "dep add " + k + " " + string(d.Type) + " " + d.ID
					_, err = s.AddDep(ctx, k, d)
				case 5:
					cur, gerr := s.Get(ctx, k)
					if gerr != nil || len(cur.Deps) == 0 {
						continue
					}
					d := cur.Deps[rng.IntN(len(cur.Deps))]
					what = "dep remove " + k + " " + string(d.Type) + " " + d.ID
					_, err = s.RemoveDep(ctx, k, d)
				case 6:
					if op%40 != 6 {
						continue
					}
					// The export no longer the one the index last wrote, as
					// after a checkout: the next command rebuilds.
					what = "rebuild"
					err = x.Write(ctx, func(w docket.Writer) error { return w.SetMeta("export_hash", "edited") })
					if err == nil {
						_, err = s.List(ctx, docket.Filter{})
					}
				}
				if err != nil && !errors.Is(err, docket.ErrInvalid) && !errors.Is(err, docket.ErrNotFound) {
					t.Fatalf("%s: %v", what, err)
				}
				agreeFlags(t, x, what)
			}
		})
	}
}

// agreeFlags compares the flag and tally answers with the computed ones.
func agreeFlags(t *testing.T, x *Index, after string) {
	t.Helper()
	fs := finishedOf(docket.DefaultWorkflow)
	dup := append([]docket.Status{fs[0]}, fs...)
	open := docket.DefaultWorkflow.Of(docket.ClassOpen)
	queries := map[string]docket.Query{
		"ready":   {Statuses: open, Ready: true},
		"blocked": {Exclude: fs, Blocked: true, BlockedStatuses: docket.DefaultWorkflow.Of(docket.ClassBlocked)},
		"list":    {Exclude: fs},
		"all":     {},
		"open":    {Statuses: []docket.Status{docket.StatusOpen, docket.StatusInProgress, "weird"}},
	}
	err := x.Read(context.Background(), func(r docket.Reader) error {
		for name, q := range queries {
			q.Finished = fs
			slow := q
			slow.Finished = dup
			want, err := r.Rows(slow)
			if err != nil {
				return err
			}
			got, err := r.Rows(q)
			if err != nil {
				return err
			}
			if !slices.Equal(got, want) {
				t.Errorf("after %s: %s rows from flags differ from the blocked set:\n got %v\nwant %v", after, name, ids(got), ids(want))
			}
			for _, limit := range []int{1, 3, 7} {
				page := q
				page.Limit = limit
				got, err := r.Rows(page)
				if err != nil {
					return err
				}
				if w := want[:min(limit, len(want))]; !slices.Equal(got, w) {
					t.Errorf("after %s: %s page of %d is %v, want %v", after, name, limit, ids(got), ids(w))
				}
			}
			n, err := r.Count(q)
			if err != nil {
				return err
			}
			if n != len(want) {
				t.Errorf("after %s: %s count from the tally is %d, want %d", after, name, n, len(want))
			}
			if n, err = r.Count(slow); err != nil {
				return err
			} else if n != len(want) {
				t.Errorf("after %s: %s count over the rows is %d, want %d", after, name, n, len(want))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("after %s: %v", after, err)
	}
}

func ids(rows []docket.Row) []string {
	out := make([]string, len(rows))
	for k, r := range rows {
		out[k] = r.ID
	}
	return out
}
