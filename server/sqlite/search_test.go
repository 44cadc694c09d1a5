package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
)

// TestSearchPagesAgree: a search page served by walking the issues in
// order against the set of matches (a word most issues hold) is the page
// of the matches sorted, in each order, with filters and after a cursor,
// and the count taken from the search index alone is the count over the
// rows (D93). The test asserts which plan each word takes, so the walk is
// what it compares.
func TestSearchPagesAgree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 31))
	e := newEnv(t)
	s := e.open(t, "dk")
	statuses := []docket.Status{docket.StatusOpen, docket.StatusInProgress, docket.StatusClosed, docket.StatusBlocked}
	set := &docket.ImportSet{}
	for k := range 400 {
		title := "plain issue"
		switch {
		case k%10 != 3:
			title = "common word issue" // 90%
		case k%50 == 3:
			title = "rare needle" // 2%
		}
		desc := ""
		if k%3 == 0 {
			desc = "a third say commonplace"
		}
		i := docket.Issue{ID: fmt.Sprintf("dk-%03d", k), Title: title, Description: desc, Status: statuses[rng.IntN(len(statuses))],
			Type: docket.TypeTask, Priority: rng.IntN(5), CreatedAt: fmt.Sprintf("2026-01-%02dT00:00:00Z", 1+rng.IntN(28)),
			UpdatedAt: fmt.Sprintf("2026-02-%02dT00:00:00Z", 1+rng.IntN(28)), Version: 1, Schema: docket.Schema}
		if i.Status == docket.StatusClosed {
			c := "2026-03-01T00:00:00Z"
			i.ClosedAt, i.CloseReason = &c, "done"
		}
		if k%4 == 0 {
			i.Labels = []string{"odd"}
		}
		i.Normalize()
		set.Issues = append(set.Issues, i)
	}
	if _, err := s.Import(ctx, set); err != nil {
		t.Fatal(err)
	}
	x, err := OpenIndex(ctx, e.db, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for _, c := range []struct {
		text    string
		inOrder bool
	}{{"common", true}, {"comm", true}, {"commonplace", true}, {"needle", false}, {"common word", true}, {"issue plain", false}, {"nothing", false}} {
		for _, sort := range docket.Sorts {
			for _, filter := range []docket.Query{{}, {Statuses: []docket.Status{docket.StatusOpen}}, {Label: "odd"}, {Exclude: []docket.Status{docket.StatusClosed}}} {
				q := filter
				q.Text, q.Sort = c.text, sort
				err := x.Read(ctx, func(r docket.Reader) error {
					want, err := r.Rows(q) // no limit: the matches sorted
					if err != nil {
						return err
					}
					n, err := r.Count(q)
					if err != nil {
						return err
					}
					if n != len(want) {
						t.Errorf("%q %s %+v: count %d, want %d", c.text, sort, filter, n, len(want))
					}
					for _, limit := range []int{1, 7, 50} {
						page := q
						page.Limit = limit
						walk, err := r.(*txn).inOrder(page)
						if err != nil {
							return err
						}
						if indexed := sort == docket.SortPriority || sort == docket.SortID; walk != (c.inOrder && indexed) {
							t.Errorf("%q %s limit %d: in order %v, want %v", c.text, sort, limit, walk, c.inOrder && indexed)
						}
						var got []docket.Row
						for range 500 {
							rows, err := r.Rows(page)
							if err != nil {
								return err
							}
							got = append(got, rows...)
							if len(rows) < limit {
								break
							}
							k := docket.KeyOf(rows[len(rows)-1], sort)
							page.After = &k
						}
						if !slices.Equal(ids(got), ids(want)) {
							t.Errorf("%q %s %+v: pages of %d are %v, want %v", c.text, sort, filter, limit, ids(got), ids(want))
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
