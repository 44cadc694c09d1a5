package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
)

// seed fills a tracker with n issues in one import: a fifth closed, a
// blocks edge on every tenth, labels and decisions on all.
func seed(b *testing.B, n int) (*docket.Service, []string) {
	e := newEnv(b)
	s := e.open(b, "dk")
	set := &docket.ImportSet{}
	ids := make([]string, n)
	for k := range n {
		ids[k] = fmt.Sprintf("dk-%05s", fmt.Sprintf("%x", k))
	}
	for k := range n {
		i := docket.Issue{
			ID: ids[k], Title: fmt.Sprintf("issue number %d with a title of ordinary length", k),
			Description: "A description of a few words, as most issues have.",
			Status:      docket.StatusOpen, Type: docket.TypeTask, Priority: k % 5,
			Labels: []string{"area-" + fmt.Sprint(k%7)}, Decisions: []string{fmt.Sprintf("D%d", 1+k%20)},
			CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z", Version: 1, Schema: docket.Schema,
		}
		if k%5 == 0 {
			c := "2026-01-02T00:00:00Z"
			i.Status, i.ClosedAt, i.CloseReason = docket.StatusClosed, &c, "done"
		}
		if k%10 == 1 && k+1 < n {
			i.Deps = []docket.Dep{{Type: docket.DepBlocks, ID: ids[k+1]}}
		}
		i.Normalize()
		set.Issues = append(set.Issues, i)
	}
	if _, err := s.Import(context.Background(), set); err != nil {
		b.Fatal(err)
	}
	return s, ids
}

// BenchmarkStore measures each operation at 10k and 100k issues. Writes
// include the synchronous export rewrite (temp file, fsync, rename) and the
// export hash check that precedes every operation.
//
//	go test ./server/sqlite -run '^$' -bench Store -benchtime 10x -count 5
func BenchmarkStore(b *testing.B) {
	ctx := context.Background()
	for _, n := range benchSizes {
		s, ids := seed(b, n)
		b.Run(fmt.Sprintf("n=%d/create", n), withCPU(func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Create(ctx, docket.NewIssue{Title: "benchmark issue"}); err != nil {
					b.Fatal(err)
				}
			}
		}))
		b.Run(fmt.Sprintf("n=%d/update", n), withCPU(func(b *testing.B) {
			for b.Loop() {
				p := rand.IntN(5)
				if _, err := s.Update(ctx, ids[rand.IntN(len(ids))], docket.Patch{Priority: &p}); err != nil {
					b.Fatal(err)
				}
			}
		}))
		b.Run(fmt.Sprintf("n=%d/list", n), withCPU(func(b *testing.B) {
			for b.Loop() {
				is, err := s.List(ctx, docket.Filter{Status: []docket.Status{docket.StatusOpen}})
				if err != nil || len(is) < n/2 {
					b.Fatal(len(is), err)
				}
			}
		}))
		b.Run(fmt.Sprintf("n=%d/ready", n), withCPU(func(b *testing.B) {
			for b.Loop() {
				is, err := s.Ready(ctx)
				if err != nil || len(is) < n/2 {
					b.Fatal(len(is), err)
				}
			}
		}))
		for _, v := range []docket.View{docket.ViewList, docket.ViewReady} {
			b.Run(fmt.Sprintf("n=%d/%s50", n, v), withCPU(func(b *testing.B) {
				for b.Loop() {
					p, err := s.Listing(ctx, v, docket.ListParams{Limit: 50})
					if err != nil || len(p.Rows) != 50 || p.Total < n/2 {
						b.Fatal(len(p.Rows), p.Total, err)
					}
				}
			}))
		}
		// The note of statuses the workflow does not map (D57): one more
		// read on every listing.
		b.Run(fmt.Sprintf("n=%d/unmapped", n), withCPU(func(b *testing.B) {
			for b.Loop() {
				if u, err := s.Unmapped(ctx); err != nil || len(u) != 0 {
					b.Fatal(u, err)
				}
			}
		}))
		b.Run(fmt.Sprintf("n=%d/export", n), withCPU(func(b *testing.B) {
			for b.Loop() {
				if err := s.RewriteExport(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}))
		s.Close()
	}
}

var benchSizes = []int{10_000, 100_000}

func init() {
	// DOCKET_BENCH_SIZES=2000,5000 runs other sizes.
	if v := os.Getenv("DOCKET_BENCH_SIZES"); v != "" {
		benchSizes = nil
		for _, f := range strings.Split(v, ",") {
			if n, err := strconv.Atoi(f); err == nil {
				benchSizes = append(benchSizes, n)
			}
		}
	}
}

// BenchmarkListing measures the default page (50 rows) of each listing
// D93 bounds at 50 ms warm: list, ready, blocked, and search for a word
// one issue holds and for one every issue holds.
//
//	go test ./server/sqlite -run '^$' -bench Listing -benchtime 20x -count 5
func BenchmarkListing(b *testing.B) {
	ctx := context.Background()
	for _, n := range benchSizes {
		s, _ := seed(b, n)
		for _, c := range []struct {
			name string
			view docket.View
			text string
		}{
			{"list", docket.ViewList, ""},
			{"ready", docket.ViewReady, ""},
			{"blocked", docket.ViewBlocked, ""},
			{"search-one", docket.ViewSearch, "12345"},
			{"search-every", docket.ViewSearch, "ordinary"},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), withCPU(func(b *testing.B) {
				for b.Loop() {
					p, err := s.Listing(ctx, c.view, docket.ListParams{Limit: docket.DefaultLimit, Text: c.text})
					if err != nil || len(p.Rows) == 0 || p.Total < len(p.Rows) {
						b.Fatal(len(p.Rows), p.Total, err)
					}
				}
			}))
		}
		s.Close()
	}
}
